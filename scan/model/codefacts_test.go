package model_test

import (
	"fmt"
	"sync"
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

// TestCodeStatementsWithEvidence: each statement keeps its sheet, words
// and their bounds; a group of sheets states what its own sheets state.
func TestCodeStatementsWithEvidence(t *testing.T) {
	set := buildSpecs(t,
		plangen.SheetSpec{Number: "A0.0", Title: "COVER SHEET", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, "CODE ANALYSIS", "APPLICABLE CODE: 2021 IBC", "OCCUPANCY GROUP: B", "CONSTRUCTION TYPE: V-B")},
		plangen.SheetSpec{Number: "A1.0", Title: "FLOOR PLAN", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.")})
	f := set.CodeFacts()
	if len(f.Groups) != 1 || f.Groups[0].Group != "B" || f.Occupancy != model.OccupancyCommercial {
		t.Fatalf("groups %+v, occupancy %q", f.Groups, f.Occupancy)
	}
	g := f.Groups[0]
	if g.Sheet != set.Sheets[0] || len(g.Words) == 0 || g.Box().Width() <= 0 {
		t.Errorf("evidence: sheet %v words %v box %+v", g.Sheet.Ident.Number, g.Words, g.Box())
	}
	if len(f.Codes) != 1 || f.Codes[0].Group != "IBC" || f.Codes[0].Extra != "2021" || len(f.Construction) != 1 {
		t.Errorf("codes %+v, construction %+v", f.Codes, f.Construction)
	}
	if plan := model.CodeFactsOf(set.Sheets[1:]); len(plan.Groups)+len(plan.Codes)+len(plan.Construction) != 0 || plan.Occupancy != "" {
		t.Errorf("the plan alone states %+v", plan)
	}
}

// TestProjectReadingsConcurrentReaders: readers of one set may ask for its
// project data, blank fields, level marks and code statements at once;
// each is read once and every reader sees the same (go test -race).
func TestProjectReadingsConcurrentReaders(t *testing.T) {
	specs := []plangen.SheetSpec{
		{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, "OCCUPANCY: R-3", "LOT AREA: 6,000 SF", "STORIES: 2", "ZONING:", "OWNER: A. SMITH", "APN: 123-456")},
		{Number: "A-201", Title: "ELEVATIONS", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, `T.O. RIDGE +24'-6"`, `GRADE -0'-8"`)},
	}
	want := fmt.Sprint(buildSpecs(t, specs...).Facts()) // one reader alone
	set := buildSpecs(t, specs...)
	for _, s := range set.Sheets {
		s.Layout() // the layout is the scan's, analysed before readers come
	}
	var wg sync.WaitGroup
	got := make([]string, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, s := range set.Sheets {
				s.ProjectFacts()
				s.BlankFields()
				s.LevelMarks()
			}
			got[i] = fmt.Sprint(set.Facts())
		}()
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("reader %d: %s, want %s", i, g, want)
		}
	}
	if len(set.Sheets[1].LevelMarks()) != 2 {
		t.Errorf("level marks %+v", set.Sheets[1].LevelMarks())
	}
}
