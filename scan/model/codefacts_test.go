package model_test

import (
	"testing"

	"planreview/scan/model"
	"planreview/scan/plangen"
)

// TestSprinklerCaptionAloneIsNoStatement: a sprinkler caption whose value
// was not read says the question was answered, not that the building is
// sprinklered.
func TestSprinklerCaptionAloneIsNoStatement(t *testing.T) {
	set := buildSpecs(t, plangen.SheetSpec{Number: "A0.0", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: plangen.Notes(120, 140, "CODE ANALYSIS", "OCCUPANCY: R-3", "SPRINKLERED:"),
	})
	f := set.CodeFacts()
	if len(f.SprinklerStmts) != 1 || f.Sprinklered || f.SprinklerStmts[0].Group != model.SprinklerUnknown {
		t.Errorf("statements %v, sprinklered %v", f.SprinklerStmts, f.Sprinklered)
	}
}
