package rules

import (
	"strings"
	"testing"

	"planreview/scan/plangen"
)

// dataColumn lays out label/value pairs the way data blocks print them: the
// value on the line under its label, set in from the left.
func dataColumn(left, top float64, pairs ...string) []plangen.LabelSpec {
	var out []plangen.LabelSpec
	y := top
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, plangen.LabelSpec{Text: pairs[i], Left: left, Top: y, Size: 9},
			plangen.LabelSpec{Text: pairs[i+1], Left: left + 80, Top: y + 13, Size: 9})
		y += 30
	}
	return out
}

func anchorPages(f Finding) []int {
	var out []int
	for _, a := range f.Anchors {
		out = append(out, a.Page)
	}
	return out
}

func TestAreaTotalPDF(t *testing.T) {
	// A total that is not the sum of its floors, stated "LABEL: value".
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, "PROJECT DATA", "LOT AREA: 6,000 SF", "FIRST FLOOR AREA: 1,200 SF",
				"SECOND FLOOR AREA: 900 SF", "TOTAL FLOOR AREA: 2,400 SF", "NUMBER OF STORIES: 2")},
		plangen.SheetSpec{Number: "A-101", Title: "FIRST FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "KITCHEN", "120 SF")},
	)
	got := byRule(fs, "consistency-area-total")
	if len(got) != 1 || got[0].SheetNumber != "G-001" {
		t.Fatalf("area total: %v", anchorTexts(got))
	}
	f := got[0]
	if len(f.Anchors) != 2 || !strings.Contains(f.Anchors[0].Text, "2,400") || !strings.Contains(f.Anchors[1].Text, "1,200") {
		t.Errorf("anchors on the total and its floors: %+v", f.Anchors)
	}
	for _, want := range []string{"2,400 SF", "2100 sq ft", "FIRST FLOOR AREA 1,200 SF", "300 sq ft"} {
		if !strings.Contains(f.Rationale, want) {
			t.Errorf("rationale lacks %q: %s", want, f.Rationale)
		}
	}

	// Look-alikes: totals that agree (above grade without the basement,
	// in the label-over-value column of a data block, a wrapped label,
	// m² against square feet), lot and room areas beside them, and an
	// existing/proposed table whose rows hold two values.
	widths := []float64{160, 110, 110}
	tbl, strokes := plangen.Table(600, 400, widths,
		[]string{"AREAS", "EXISTING", "PROPOSED"},
		[]string{"FIRST FLOOR", "1,000 SF", "1,200 SF"},
		[]string{"SECOND FLOOR", "800 SF", "900 SF"},
		[]string{"TOTAL", "1,800 SF", "2,100 SF"})
	block := dataColumn(120, 140,
		"PARCEL AREA:", "550.52M2",
		"GROSS AREAS", "",
		"TOTAL AREA ABOVE GRADE:", "1177.33FT2",
		"GROSS MAIN FLOOR AREA:", "593.33FT2")
	block = append(block,
		plangen.LabelSpec{Text: "GROSS SECOND FLOOR", Left: 120, Top: 260, Size: 9},
		plangen.LabelSpec{Text: "AREA:", Left: 120, Top: 271, Size: 9},
		plangen.LabelSpec{Text: "584.00FT2", Left: 200, Top: 271, Size: 9},
		plangen.LabelSpec{Text: "GROSS UNDEVELOPED", Left: 120, Top: 290, Size: 9},
		plangen.LabelSpec{Text: "BASEMENT:", Left: 120, Top: 301, Size: 9},
		plangen.LabelSpec{Text: "584.00FT2", Left: 200, Top: 301, Size: 9})
	fs = reviewPDF(t,
		plangen.SheetSpec{Number: "A-001", Title: "SITE PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: append(append(block, tbl...), plangen.Notes(120, 600,
				"GROUND FLOOR AREA: 100 M2", "FIRST FLOOR AREA: 50 M2", "TOTAL GROSS AREA: 1,615 SF")...), Strokes: strokes},
	)
	if got := byRule(fs, "consistency-area-total"); len(got) != 0 {
		t.Errorf("totals that agree reported: %v", anchorTexts(got))
	}
	// A table with existing and proposed columns: each column's total
	// against its own floors; the proposed one is wrong.
	tbl, strokes = plangen.Table(300, 300, widths,
		[]string{"AREAS", "EXISTING", "PROPOSED"},
		[]string{"FIRST FLOOR", "1,000 SF", "1,200 SF"},
		[]string{"SECOND FLOOR", "800 SF", "900 SF"},
		[]string{"TOTAL", "1,800 SF", "2,500 SF"})
	fs = reviewPDF(t, plangen.SheetSpec{Number: "A-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: tbl, Strokes: strokes})
	if got := byRule(fs, "consistency-area-total"); len(got) != 1 || !strings.Contains(got[0].Rationale, "2,500 SF") {
		t.Errorf("proposed column total: %v", anchorTexts(got))
	}
	// Totals that count a garage, a porch or a bonus room beside the
	// floors: some choice of them makes the sum.
	fs = reviewPDF(t, plangen.SheetSpec{Number: "A-001", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: plangen.Notes(120, 140, "AREA CALCULATIONS", "FIRST FLOOR: 1,250 SF", "SECOND FLOOR: 980 SF",
			"BONUS ROOM: 300 SF", "GARAGE: 480 SF", "COVERED PORCH: 120 SF", "TOTAL LIVING AREA: 2,530 SF", "TOTAL: 3,130 SF")})
	if got := byRule(fs, "consistency-area-total"); len(got) != 0 {
		t.Errorf("totals including other areas reported: %v", anchorTexts(got))
	}
	// A number among the floors that was not read (no unit): the sum
	// cannot be told.
	fs = reviewPDF(t, plangen.SheetSpec{Number: "A-001", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: plangen.Notes(120, 140, "FIRST FLOOR: 1,250 SF", "SECOND FLOOR: 980 SF", "BONUS 300", "TOTAL: 2,530 SF")})
	if got := byRule(fs, "consistency-area-total"); len(got) != 0 {
		t.Errorf("total with an unread number among its floors reported: %v", anchorTexts(got))
	}
}

func TestFloorAreaVsPlanPDF(t *testing.T) {
	cover := plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: plangen.Notes(120, 140, "PROJECT DATA", "FIRST FLOOR AREA: 1,200 SF", "SECOND FLOOR AREA: 900 SF")}
	fs := reviewPDF(t, cover,
		plangen.SheetSpec{Number: "A-101", Title: "FIRST FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "FIRST FLOOR AREA: 1,200 SF", "LIVING ROOM", "320 SF")},
		plangen.SheetSpec{Number: "A-102", Title: "SECOND FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "SECOND FLOOR AREA: 950 SF", "BEDROOM 2 150 SF")},
	)
	got := byRule(fs, "consistency-floor-area-plan")
	if len(got) != 1 || got[0].SheetNumber != "A-102" {
		t.Fatalf("floor area vs plan: %v", anchorTexts(got))
	}
	f := got[0]
	if p := anchorPages(f); len(p) != 2 || p[0] != 3 || p[1] != 1 {
		t.Errorf("anchors on the plan and the project data: pages %v", p)
	}
	for _, want := range []string{"950 SF", "900 SF", "G-001", "second"} {
		if !strings.Contains(f.Rationale, want) {
			t.Errorf("rationale lacks %q: %s", want, f.Rationale)
		}
	}
	// Look-alikes: the plan states it in m² (equal after conversion and
	// rounding), room areas, a deck area, and an existing-building plan.
	fs = reviewPDF(t, cover,
		plangen.SheetSpec{Number: "A-101", Title: "FIRST FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "FIRST FLOOR AREA: 111.5 SQM", "FIRST FLOOR DECK AREA: 200 SF", "KITCHEN 150 SF")},
		plangen.SheetSpec{Number: "A-102", Title: "EXISTING SECOND FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "SECOND FLOOR AREA: 700 SF")},
		// A plan of part of the level states the part's area.
		plangen.SheetSpec{Number: "A-103", Title: "SECOND FLOOR PLAN - AREA B", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "SECOND FLOOR AREA: 400 SF")},
	)
	if got := byRule(fs, "consistency-floor-area-plan"); len(got) != 0 {
		t.Errorf("look-alikes reported: %v", anchorTexts(got))
	}
	// The plan states its area without naming the level ("FLOOR AREA").
	fs = reviewPDF(t, cover,
		plangen.SheetSpec{Number: "A-102", Title: "SECOND FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "FLOOR AREA: 1,020 SF", "BEDROOM 150 SF")})
	if got := byRule(fs, "consistency-floor-area-plan"); len(got) != 1 || !strings.Contains(got[0].Rationale, "1,020 SF") {
		t.Errorf("plan's own area tag: %v", anchorTexts(got))
	}
	// A plan sheet carrying the building's data block: its total is the
	// building's, not the level's.
	fs = reviewPDF(t, cover,
		plangen.SheetSpec{Number: "A-102", Title: "SECOND FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "FIRST FLOOR AREA: 1,200 SF", "SECOND FLOOR AREA: 900 SF", "TOTAL FLOOR AREA: 2,100 SF")})
	if got := byRule(fs, "consistency-floor-area-plan"); len(got) != 0 {
		t.Errorf("a data block's total read as the level's: %v", anchorTexts(got))
	}
	// Conditioned area in the project data, gross area on the plan: two
	// measures, not a contradiction.
	fs = reviewPDF(t,
		plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, "SECOND FLOOR CONDITIONED AREA: 900 SF")},
		plangen.SheetSpec{Number: "A-102", Title: "SECOND FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "SECOND FLOOR GROSS AREA: 1,050 SF")})
	if got := byRule(fs, "consistency-floor-area-plan"); len(got) != 0 {
		t.Errorf("different measures reported: %v", anchorTexts(got))
	}
}

func TestStoriesVsPlansPDF(t *testing.T) {
	cover := func(lines ...string) plangen.SheetSpec {
		return plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: plangen.Notes(120, 140, lines...)}
	}
	plan := func(number, title string, notes ...string) plangen.SheetSpec {
		return plangen.SheetSpec{Number: number, Title: title, Date: "2026-03-02", Scale: scale14, Labels: plangen.Notes(120, 140, notes...)}
	}
	fs := reviewPDF(t, cover("PROJECT DATA", "NUMBER OF STORIES: 1"),
		plan("A-101", "FIRST FLOOR PLAN"), plan("A-102", "SECOND FLOOR PLAN"))
	got := byRule(fs, "consistency-stories-plans")
	if len(got) != 1 || got[0].SheetNumber != "A-102" {
		t.Fatalf("stories vs plans: %v", anchorTexts(got))
	}
	if p := anchorPages(got[0]); len(p) != 2 || p[1] != 1 {
		t.Errorf("anchors on the plan title and the statement: pages %v", p)
	}
	if !strings.Contains(got[0].Rationale, "NUMBER OF STORIES 1") || !strings.Contains(got[0].Rationale, "SECOND FLOOR PLAN") {
		t.Errorf("rationale: %s", got[0].Rationale)
	}
	// A zoning table: allowed and proposed columns under their header.
	tbl, strokes := plangen.Table(300, 300, []float64{180, 110, 110},
		[]string{"", "ALLOWED", "PROPOSED"},
		[]string{"NUMBER OF STORIES", "3", "2"},
		[]string{"BUILDING HEIGHT", "35'-0\"", "24'-6\""})
	fs = reviewPDF(t, plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: tbl, Strokes: strokes},
		plan("A-101", "FIRST FLOOR PLAN"), plan("A-102", "SECOND FLOOR PLAN"), plan("A-103", "THIRD FLOOR PLAN"))
	if got := byRule(fs, "consistency-stories-plans"); len(got) != 1 || got[0].SheetNumber != "A-103" || !strings.Contains(got[0].Rationale, "STORIES 2") {
		t.Errorf("proposed stories from a zoning table: %v", anchorTexts(got))
	}
	for name, set := range map[string][]plangen.SheetSpec{
		// Ground floor counted: the first floor is the second story.
		"ground and first": {cover("NUMBER OF STORIES: 2"), plan("A-101", "GROUND FLOOR PLAN"), plan("A-102", "FIRST FLOOR PLAN")},
		// A note's "2-STORY" is not a statement of stories.
		"note": {cover("PROJECT DATA", "NEW 2-STORY WOOD FRAME ADDITION", "WINDOW HEIGHT: 6'-8\"", "PLATE HEIGHT 9'-1\""),
			plan("A-101", "FIRST FLOOR PLAN"), plan("A-102", "SECOND FLOOR PLAN"), plan("A-103", "THIRD FLOOR PLAN")},
		// Basement and existing plans do not add stories.
		"basement, existing": {cover("STORIES: 1"), plan("A-100", "BASEMENT PLAN"), plan("A-101", "MAIN FLOOR PLAN"),
			plan("A-102", "EXISTING SECOND FLOOR PLAN")},
		// Two numbers of stories: which one is meant cannot be told.
		"two statements": {cover("STORIES: 1", "NUMBER OF STORIES: 3"), plan("A-101", "FIRST FLOOR PLAN"), plan("A-102", "SECOND FLOOR PLAN")},
		// The allowable number is not the building's.
		"allowable": {cover("ALLOWABLE STORIES: 1"), plan("A-101", "FIRST FLOOR PLAN"), plan("A-102", "SECOND FLOOR PLAN")},
	} {
		fs := reviewPDF(t, set...)
		if got := byRule(fs, "consistency-stories-plans"); len(got) != 0 {
			t.Errorf("%s: %v", name, anchorTexts(got))
		}
		// The comparison that could not be made is the third outcome: the
		// file's coverage finding says so.
		if name == "two statements" {
			cov := byRule(fs, "coverage-checks-not-covered")
			if len(cov) != 1 || !strings.Contains(cov[0].Rationale, "more than one number of stories") {
				t.Errorf("two statements: coverage %v", cov)
			}
		}
	}
}

func TestHeightVsElevationsPDF(t *testing.T) {
	cover := func(lines ...string) plangen.SheetSpec {
		return plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: plangen.Notes(120, 140, lines...)}
	}
	elevation := func(labels ...plangen.LabelSpec) plangen.SheetSpec {
		return plangen.SheetSpec{Number: "A-201", Title: "EXTERIOR ELEVATIONS", Date: "2026-03-02", Scale: scale14, Labels: labels}
	}
	// Marks as elevations print them: the name over its level.
	mark := func(left, top float64, name, level string) []plangen.LabelSpec {
		return []plangen.LabelSpec{{Text: name, Left: left, Top: top, Size: 9}, {Text: level, Left: left, Top: top + 12, Size: 9}}
	}
	var marks []plangen.LabelSpec
	marks = append(marks, mark(900, 200, "T.O. RIDGE", `+24'-6"`)...)
	marks = append(marks, mark(900, 320, "T.O. PLATE", `+9'-1"`)...)
	marks = append(marks, mark(900, 420, "FINISH FLOOR", `0'-0"`)...)
	marks = append(marks, mark(900, 470, "FINISH GRADE", `-1'-6"`)...)
	marks = append(marks, plangen.Notes(120, 600, "WINDOW HEIGHT: 6'-8\"", "PLATE HEIGHT 9'-1\"")...)

	fs := reviewPDF(t, cover("PROJECT DATA", "BUILDING HEIGHT: 30'-0\""), elevation(marks...))
	got := byRule(fs, "consistency-height-elevations")
	if len(got) != 1 || got[0].SheetNumber != "A-201" {
		t.Fatalf("height vs elevations: %v", anchorTexts(got))
	}
	if p := anchorPages(got[0]); len(p) != 3 || p[0] != 2 || p[2] != 1 {
		t.Errorf("anchors on the ridge, the grade and the statement: pages %v", p)
	}
	for _, want := range []string{"30'-0\"", "T.O. RIDGE +24'-6\"", "FINISH GRADE -1'-6\"", "26 ft"} {
		if !strings.Contains(got[0].Rationale, want) {
			t.Errorf("rationale lacks %q: %s", want, got[0].Rationale)
		}
	}
	for name, set := range map[string][]plangen.SheetSpec{
		// Below the ridge: a mean roof height, as codes measure it.
		"mean roof": {cover("BUILDING HEIGHT: 21'-0\""), elevation(marks...)},
		// Within the bound: 24'-6" + 1'-6" = 26'-0".
		"at the bound": {cover("BUILDING HEIGHT: 26'-0\""), elevation(marks...)},
		// The allowable height is not the building's.
		"allowable": {cover("MAX. BUILDING HEIGHT: 35'-0\""), elevation(marks...)},
		// No grade mark: the floor datum bounds nothing.
		"no grade": {cover("BUILDING HEIGHT: 30'-0\""), elevation(append(mark(900, 200, "T.O. RIDGE", `+24'-6"`), mark(900, 420, "FINISH FLOOR", `0'-0"`)...)...)},
		// Window and plate heights are not building heights.
		"window height": {cover("WINDOW HEIGHT: 30'-0\"", "PLATE HEIGHT 30'-0\""), elevation(marks...)},
	} {
		if got := byRule(reviewPDF(t, set...), "consistency-height-elevations"); len(got) != 0 {
			t.Errorf("%s: %v", name, anchorTexts(got))
		}
	}
}

func TestAreaListTotalPDF(t *testing.T) {
	// A room list: names left, areas flush right under "AREA [M2]", the
	// total with its unit under the column.
	list := func(left float64, values []string, total string) []plangen.LabelSpec {
		out := []plangen.LabelSpec{{Text: "ROOM", Left: left - 120, Top: 200, Size: 9}, {Text: "AREA [M2]", Left: left, Top: 200, Size: 9}}
		for i, v := range values {
			out = append(out, plangen.LabelSpec{Text: "ROOM " + string(rune('A'+i)), Left: left - 120, Top: 214 + float64(i)*12, Size: 9},
				plangen.LabelSpec{Text: v, Left: left + 22, Top: 214 + float64(i)*12, Size: 9})
		}
		return append(out, plangen.LabelSpec{Text: total, Left: left + 2, Top: 214 + float64(len(values))*12 + 4, Size: 9})
	}
	sheet := func(labels []plangen.LabelSpec) plangen.SheetSpec {
		return plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14, Labels: labels}
	}
	fs := reviewPDF(t, sheet(list(400, []string{"27.68", "15.20", "10.00"}, "58.88 M2")))
	got := byRule(fs, "consistency-area-total")
	if len(got) != 1 || !strings.Contains(got[0].Rationale, "27.68 + 15.20 + 10.00 m²") || !strings.Contains(got[0].Rationale, "58.88 M2") {
		t.Fatalf("list total: %v", anchorTexts(got))
	}
	if len(got[0].Anchors) != 2 || got[0].Anchors[0].Text != "58.88 M2" {
		t.Errorf("anchors: %+v", got[0].Anchors)
	}
	// Totals that agree, with decimal points or decimal commas.
	for _, labels := range [][]plangen.LabelSpec{
		list(400, []string{"27.68", "15.20", "10.00"}, "52.88 M2"),
		list(400, []string{"27,68", "15,20", "10,00"}, "52,88 M2"),
	} {
		if got := byRule(reviewPDF(t, sheet(labels)), "consistency-area-total"); len(got) != 0 {
			t.Errorf("agreeing list reported: %v", anchorTexts(got))
		}
	}
}
