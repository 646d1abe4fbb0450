package rules

import (
	"strings"
	"testing"

	"planreview/scan/plangen"
)

// phaseSchedule draws a drawing phase schedule: a heading, one column per
// stage (its caption on one or two lines) and the row of dates under them
// ("" leaves the stage blank).
func phaseSchedule(left, top float64, stages [][]string, dates []string) []plangen.LabelSpec {
	out := []plangen.LabelSpec{{Text: "DRAWING PHASE SCHEDULE", Left: left, Top: top, Size: 10}}
	for i, st := range stages {
		x := left + float64(i)*90
		for j, line := range st {
			out = append(out, plangen.LabelSpec{Text: line, Left: x, Top: top + 16 + float64(j)*9, Size: 7})
		}
		if dates[i] != "" {
			out = append(out, plangen.LabelSpec{Text: dates[i], Left: x, Top: top + 44, Size: 7})
		}
	}
	return out
}

var phaseStages = [][]string{{"SCHEMATIC", "DESIGN"}, {"DESIGN", "DEVELOPMENT"}, {"100% CONSTRUCTION", "DOCUMENTS"}, {"BIDDING"}, {"CONSTRUCTION"}}

func TestIssueStatusPhaseSchedulePDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "FP-220", Title: "SECOND FLOOR FIRE PROTECTION PLAN", Date: "2026-06-15", Scale: scale14,
			Labels: phaseSchedule(200, 900, phaseStages, []string{"MAR. 10, 2026", "JUN. 15, 2026", "", "", ""})},
		// Look-alikes: construction documents dated (the set is issued
		// for construction), and a schedule with no construction column.
		plangen.SheetSpec{Number: "FP-221", Title: "THIRD FLOOR FIRE PROTECTION PLAN", Date: "2026-06-15", Scale: scale14,
			Labels: phaseSchedule(200, 900, phaseStages, []string{"MAR. 10, 2026", "JUN. 15, 2026", "SEP. 1, 2026", "", ""})},
		plangen.SheetSpec{Number: "FP-222", Title: "ROOF FIRE PROTECTION PLAN", Date: "2026-06-15", Scale: scale14,
			Labels: phaseSchedule(200, 900, phaseStages[:2], []string{"MAR. 10, 2026", "JUN. 15, 2026"})},
	)
	got := byRule(fs, "completeness-issue-status")
	if len(got) != 1 || got[0].SheetNumber != "FP-220" {
		t.Fatalf("want the design-development issue of FP-220 only, got %v", anchorTexts(got))
	}
	if a := got[0].Anchors[0].Text; !strings.Contains(a, "DESIGN DEVELOPMENT") || !strings.Contains(a, "JUN. 15") {
		t.Errorf("anchor %q", a)
	}
}
