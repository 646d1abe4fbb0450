package rules

import (
	"strings"
	"testing"

	"planreview/scan/plangen"
)

func at(text string, left, top, size float64) plangen.LabelSpec {
	return plangen.LabelSpec{Text: text, Left: left, Top: top, Size: size}
}

// A symbols legend with no heading: its sample callout and sample tags are
// no reference and no placeholder; the same marks on the drawing are.
func TestLegendSamplesPDF(t *testing.T) {
	legend := []plangen.LabelSpec{
		at("XX", 400, 140, 10), at("NEW COLUMN LINE", 500, 140, 10),
		at("1", 409, 157, 9), at("A-501", 400, 168, 9), at("SECTION INDICATOR", 500, 162, 10),
		at("SHEET NUMBER", 500, 184, 10),
		at("100", 402, 206, 10), at("ROOM NUMBER DESIGNATION", 500, 206, 10),
		at("XXX", 400, 228, 10), at("DOOR TAG", 500, 228, 10),
	}
	plan := []plangen.LabelSpec{
		at("3", 1209, 900, 9), at("A-502", 1200, 911, 9),
		at("1. FOOTING LEVEL F.F.L. XX.XX", 120, 900, 12),
	}
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14, Labels: append(legend, plan...)},
		plangen.SheetSpec{Number: "A-102", Title: "ROOF PLAN", Date: "2026-03-02", Scale: scale14, Labels: legend},
	)
	refs := byRule(fs, "completeness-reference-to-missing-sheet")
	if len(refs) != 1 || !strings.Contains(refs[0].Rationale, "A-502") {
		t.Errorf("references: want only the plan's A-502, got %v", anchorTexts(refs))
	}
	unfinished := byRule(fs, "completeness-unfinished-text")
	if len(unfinished) != 1 || unfinished[0].SheetNumber != "A-101" || len(unfinished[0].Anchors) == 0 || !strings.Contains(unfinished[0].Anchors[0].Text, "F.F.L. XX.XX") {
		t.Errorf("unfinished: want only the note's F.F.L. XX.XX, got %v", anchorTexts(unfinished))
	}
}

// An abbreviation list defines TBD; a note that leaves a size to be
// determined is still open.
func TestAbbreviationListPDF(t *testing.T) {
	var abbrev []plangen.LabelSpec
	for i, row := range [][2]string{{"A/C", "AIR CONDITIONING"}, {"CLG.", "CEILING"}, {"DN", "DOWN"}, {"TBD", "TO BE DETERMINED"}, {"U.N.O.", "UNLESS NOTED OTHERWISE"}} {
		y := 1100 + float64(i)*16
		abbrev = append(abbrev, at(row[0], 120, y, 10), at(row[1], 200, y, 10))
	}
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "G-001", Title: "GENERAL INFORMATION", Date: "2026-03-02", Scale: scale14,
			Labels: append(abbrev, at("TBD = TO BE DETERMINED", 900, 300, 10))},
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "5. HEADER SIZE TO BE DETERMINED")},
	)
	got := byRule(fs, "completeness-unfinished-text")
	if len(got) != 1 || got[0].SheetNumber != "A-101" {
		t.Errorf("unfinished: want only A-101's open header size, got %v", anchorTexts(got))
	}
}

// Coordination with a named party is a construction step; a value to be
// confirmed against another quantity, or information the owner owes, is
// still open.
func TestCoordinationNotesPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140,
				"C. DOOR LOCKSETS TO BE CONFIRMED W/ OWNER",
				"5. VERIFY AND COORDINATE ALL TIME CLOCK SETTINGS WITH OWNER PRIOR TO FINAL PROGRAMMING.")},
		plangen.SheetSpec{Number: "A-102", Title: "FOUNDATION PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "PERIMETER FOOTING LEVELS TO BE CONFIRMED WITH CIVIL PAVEMENT THICKNESS")},
		plangen.SheetSpec{Number: "A-103", Title: "INTERIOR ELEVATIONS", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "2 VERIFY BLOCKING REQ'D AND LOCATIONS WITH OWNER")},
	)
	flagged := map[string]bool{}
	for _, f := range byRule(fs, "completeness-unfinished-text") {
		flagged[f.SheetNumber] = true
	}
	if flagged["A-101"] || !flagged["A-102"] || !flagged["A-103"] {
		t.Errorf("unfinished on %v, want A-102 and A-103 only", flagged)
	}
}

// A revision row and a conditions paragraph in the title-block zone are
// no issue status; a stage printed as the status is.
func TestIssueStatusRevisionRowsPDF(t *testing.T) {
	left, top := plangen.PageWidth-330.0, plangen.PageHeight-420.0
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "P-120", Title: "PLUMBING PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{at("REVISIONS", left, top-20, 10), at("1", left, top, 10), at("ADDENDUM 1 6/10/20", left+30, top, 10)}},
		plangen.SheetSpec{Number: "P-121", Title: "PLUMBING PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{
				at("SAMPLES SHALL BE SUBMITTED TO THE ARCHITECT", left, top, 9),
				at("FOR REVIEW AND APPROVAL BEFORE ORDERING;", left, top+11, 9),
				at("WORK SHALL NOT PROCEED WITHOUT WRITTEN", left, top+22, 9),
				at("ACCEPTANCE OF THE SAMPLES BY THE ARCHITECT.", left, top+33, 9)}},
		plangen.SheetSpec{Number: "P-130", Title: "PLUMBING DETAILS", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{at("ADDENDUM 2", left, top, 14)}},
	)
	got := byRule(fs, "completeness-issue-status")
	if len(got) != 1 || got[0].SheetNumber != "P-130" {
		t.Errorf("issue status: want only P-130's ADDENDUM 2, got %v", anchorTexts(got))
	}
}
