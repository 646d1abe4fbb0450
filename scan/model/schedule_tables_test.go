package model_test

import (
	"fmt"
	"testing"

	"planreview/scan/model"
	"planreview/scan/plangen"
)

// Schedules are ruled tables with a header row; the header says whether
// blank cells are values left out, revisions to come or a field form's.
func TestSchedulesByKind(t *testing.T) {
	values, valueRules := plangen.Table(120, 300, []float64{60, 200, 120, 120},
		[]string{"MARK", "LOCATION", "SIZE", "HARDWARE"},
		[]string{"D1", "ENTRY", "", ""},
		[]string{"D2", "BATH", "", ""})
	revisions, revisionRules := plangen.Table(900, 300, []float64{40, 80, 200, 40},
		[]string{"NO.", "DATE", "DESCRIPTION", "BY"},
		[]string{"1", "", "", ""})
	form, formRules := plangen.Table(120, 900, []float64{120, 120, 120, 120},
		[]string{"DEVICE", "LOCATION", "INSPECTOR", "INITIALS"},
		[]string{"SMOKE", "HALL", "", ""})
	set := buildSpecs(t, plangen.SheetSpec{Number: "A-601", Title: "SCHEDULES", Date: "2026-03-02", Scale: "NTS",
		Labels:  concat(values, revisions, form),
		Strokes: append(append(valueRules, revisionRules...), formRules...)})
	kinds := map[string]model.ScheduleKind{}
	for _, sc := range set.Sheets[0].Schedules() {
		kinds[sc.Columns[0]] = sc.Kind
		if sc.Columns[0] == "MARK" && len(sc.Body()) != 2 {
			t.Errorf("door schedule body: %d rows, want 2", len(sc.Body()))
		}
	}
	want := map[string]model.ScheduleKind{"MARK": model.ScheduleOfValues, "NO.": model.ScheduleOfRevisions, "DEVICE": model.ScheduleFieldForm}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("schedules by first column: %v, want %v", kinds, want)
	}
}
