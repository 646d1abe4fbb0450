package api_test

import (
	"strings"
	"testing"

	"planreview/scan/plangen"
)

// californiaHousePDF is a two-sheet house set whose cover gives a
// California project address and whose stair notes break the IRC riser
// limit.
func californiaHousePDF(t *testing.T) []byte {
	t.Helper()
	f, err := plangen.Sheets("ca.pdf", []plangen.SheetSpec{
		{Number: "G-001", Title: "COVER SHEET", Date: "2024-02-01", Scale: "NTS", Address: "907 ORCHID WAY, CARLSBAD, CA 92011",
			Labels: plangen.Notes(120, 140, "CODE ANALYSIS", "OCCUPANCY: R-3", "CONSTRUCTION TYPE: V-B",
				"SITE: 907 ORCHID WAY, CARLSBAD, CA 92011")},
		{Number: "A-201", Title: "STAIR SECTION", Date: "2024-02-01", Scale: `1/4" = 1'-0"`, Address: "907 ORCHID WAY, CARLSBAD, CA 92011",
			Labels: plangen.Notes(120, 140, "STAIR NOTES", `1. 14 RISERS @ 8" MAX.`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return f.PDF
}

// TestCodeBasisPresumedFromTheAddress: a job that names no jurisdiction is
// reviewed under the codes the project address's state had in force on
// the application date, cited with their base, and the code basis says
// what it was presumed from.
func TestCodeBasisPresumedFromTheAddress(t *testing.T) {
	h := lawHarness(t)
	p := h.newPartner("p")
	pdf := californiaHousePDF(t)

	job, findings, _ := h.scanJob(p, map[string]any{"name": "ca 2024", "applicationDate": "2024-03-01"}, pdf)
	_, basis, list := coverageOf(t, job, findings)
	lines := strings.Join(basis.Lines, "\n")
	if !basis.RequiresAck || !strings.Contains(lines, "2022 California Residential Code") ||
		!strings.Contains(lines, "presumed from the project address (") {
		t.Errorf("codeBasis %+v: want the 2022 CRC presumed from the address, acknowledgement required", basis)
	}
	riser := false
	for _, f := range list {
		if f.RuleID == "irc-r311.7.5.1-riser-height" {
			riser = true
			if f.GoverningRefs != "CRC 2022 R311.7.5.1 (IRC 2021 R311.7.5.1)" {
				t.Errorf("governingRefs %q, want the presumed code with its base", f.GoverningRefs)
			}
		}
		if strings.Contains(f.Rationale, "jurisdiction has adopted") {
			t.Errorf("%s: %q claims a jurisdiction the job does not name", f.RuleID, f.Rationale)
		}
	}
	if !riser {
		t.Errorf("no riser finding in %+v", list)
	}

	// In 2026 California's codes are based on the 2024 I-codes, for which
	// the appliance holds no rules: document checks only, and one info
	// finding saying which codes were not applied.
	job, findings, _ = h.scanJob(p, map[string]any{"name": "ca 2026", "applicationDate": "2026-03-01"}, pdf)
	_, basis, list = coverageOf(t, job, findings)
	if lines := strings.Join(basis.Lines, "\n"); !strings.Contains(lines, "2025 California Residential Code") || !strings.Contains(lines, "not reviewed") {
		t.Errorf("codeBasis %+v: want the 2025 CRC, not reviewed", basis)
	}
	notApplied := false
	for _, f := range list {
		if strings.HasPrefix(f.RuleID, "irc-") || strings.HasPrefix(f.RuleID, "ibc-") {
			t.Errorf("%s: a code finding under codes the appliance holds no rules for", f.RuleID)
		}
		if f.RuleID == "scope-codes-not-applied" && strings.Contains(f.Rationale, "based on IRC 2024") {
			notApplied = true
		}
	}
	if !notApplied {
		t.Errorf("no codes-not-applied finding naming the 2025 CRC: %+v", list)
	}
}
