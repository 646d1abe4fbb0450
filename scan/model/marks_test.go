package model_test

import (
	"strings"
	"testing"

	"planreview/scan/plangen"
)

// Marks are mark-shaped labels alone on their line; numbers, dimensions
// and words in a sentence are not marks.
func TestMarksAndSheetKinds(t *testing.T) {
	set := buildSpecs(t,
		plangen.SheetSpec{Number: "A-101", Title: "FIRST FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{label("W1", 300, 300, 9), label("D12A", 500, 300, 9), label("101", 700, 300, 9),
				label("SEE W1 FOR SIZES", 300, 500, 9), label(`3'-0"`, 700, 500, 9)}},
		plangen.SheetSpec{Number: "A-601", Title: "SCHEDULES", Date: "2026-03-02", Scale: "NTS",
			Labels: plangen.Notes(120, 300, "WINDOW SCHEDULE")},
		plangen.SheetSpec{Number: "E-101", Title: "LIGHTING PLAN", Date: "2026-03-02", Scale: scale14},
	)
	plan, sched, lighting := set.Sheets[0], set.Sheets[1], set.Sheets[2]
	var got []string
	for _, m := range plan.Marks() {
		got = append(got, m.Text+"/"+m.Family())
	}
	// The sheet's own number is mark-shaped too: the set's checks drop it.
	for _, want := range []string{"W1/W", "D12A/D"} {
		if !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("marks %v lack %s", got, want)
		}
	}
	for _, not := range []string{"101/", "SEE"} {
		if strings.Contains(strings.Join(got, " "), not) {
			t.Errorf("marks %v hold %s", got, not)
		}
	}
	if !plan.IsFloorPlan() || plan.IsOpeningSchedule() {
		t.Errorf("floor plan: IsFloorPlan %v, IsOpeningSchedule %v", plan.IsFloorPlan(), plan.IsOpeningSchedule())
	}
	if !sched.IsOpeningSchedule() || sched.IsFloorPlan() {
		t.Errorf("schedule sheet heading a window schedule: IsOpeningSchedule %v, IsFloorPlan %v", sched.IsOpeningSchedule(), sched.IsFloorPlan())
	}
	if lighting.IsFloorPlan() {
		t.Error("a lighting plan read as a floor plan")
	}
}
