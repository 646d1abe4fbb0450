package rules

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	"planreview/scan/model"
	"planreview/scan/plangen"
)

func TestParseAreaValue(t *testing.T) {
	for _, tc := range []struct {
		in       string
		ok       bool
		value    float64
		unit     string
		canonial float64
	}{
		{"2,450 SF", true, 2450, "sq ft", 2450},
		{"2,450 S.F.", true, 2450, "sq ft", 2450},
		{"1200 SQ FT", true, 1200, "sq ft", 1200},
		{"1200 SQ. FT.", true, 1200, "sq ft", 1200},
		{"1177.33FT2", true, 1177.33, "sq ft", 1177.33},
		{"494.27 ft²", true, 494.27, "sq ft", 494.27},
		{"850 SQUARE FEET", true, 850, "sq ft", 850},
		{"66.28M2", true, 66.28, "m²", 66.28 * sqFtPerSqM},
		{"109sqm", true, 109, "m²", 109 * sqFtPerSqM},
		{"143.39 m²", true, 143.39, "m²", 143.39 * sqFtPerSqM},
		{"143,39 m²", true, 143.39, "m²", 143.39 * sqFtPerSqM},   // decimal comma
		{"1.464,50 m2", true, 1464.5, "m²", 1464.5 * sqFtPerSqM}, // dot thousands, decimal comma
		{"12 500 SQ M", true, 12500, "m²", 12500 * sqFtPerSqM},   // space thousands
		{"1,250,000 SF", true, 1250000, "sq ft", 1250000},        // several groups
		{"2,450 SF (GROSS)", true, 2450, "sq ft", 2450},          // a note in brackets
		{"1,464 m²", false, 0, "", 0},                            // 1464 or 1.464: ambiguous in a metric set
		{"2450", false, 0, "", 0},                                // no unit
		{"24'-6\"", false, 0, "", 0},                             // a length
		{"2,450 SF PER FLOOR", false, 0, "", 0},                  // more than a value
		{"0 SF", false, 0, "", 0},                                // nothing
		{"12,34,5 SF", false, 0, "", 0},                          // malformed groups
	} {
		m, ok := parseAreaValue(tc.in)
		if ok != tc.ok {
			t.Errorf("%q: ok=%v, want %v", tc.in, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if math.Abs(m.value-tc.value) > 1e-9 || m.unit != tc.unit || math.Abs(m.canonical-tc.canonial) > 1e-6 {
			t.Errorf("%q: got %v %s (%v sq ft), want %v %s (%v)", tc.in, m.value, m.unit, m.canonical, tc.value, tc.unit, tc.canonial)
		}
	}
	// The rounding allowed is half the last printed digit.
	if m, _ := parseAreaValue("593.33FT2"); math.Abs(m.halfULP-0.005) > 1e-12 {
		t.Errorf("half ULP of 593.33: %v", m.halfULP)
	}
	if m, _ := parseAreaValue("109sqm"); math.Abs(m.halfULP-0.5*sqFtPerSqM) > 1e-9 {
		t.Errorf("half ULP of 109 m²: %v", m.halfULP)
	}
}

func TestParseHeightAndStories(t *testing.T) {
	for _, tc := range []struct {
		in     string
		ok     bool
		inches float64
		unit   string
	}{
		{`24'-6"`, true, 294, "ft-in"},
		{`24' 6"`, true, 294, "ft-in"},
		{`35 FT`, true, 420, "ft"},
		{`35'`, true, 420, "ft"},
		{`7.5 M`, true, 7.5 / 0.0254, "m"},
		{`7500 MM`, true, 7500 / 25.4, "mm"},
		{`7500mm`, true, 7500 / 25.4, "mm"},
		{`24'-6" ABOVE GRADE PLANE`, true, 294, "ft-in"},
		{`24'-6" (MEAN ROOF)`, true, 294, "ft-in"},
		{`24`, false, 0, ""},
		{`2 STORIES`, false, 0, ""},
	} {
		m, ok := parseHeightValue(tc.in)
		if ok != tc.ok {
			t.Errorf("%q: ok=%v, want %v", tc.in, ok, tc.ok)
			continue
		}
		if ok && (math.Abs(m.canonical-tc.inches) > 1e-6 || m.unit != tc.unit) {
			t.Errorf("%q: got %v in (%s), want %v in (%s)", tc.in, m.canonical, m.unit, tc.inches, tc.unit)
		}
	}
	for _, tc := range []struct {
		in string
		n  float64
	}{{"2", 2}, {"TWO", 2}, {"2 STORIES", 2}, {"1 STOREY ABOVE GRADE", 1}, {"TWO (2)", 2}, {"3-STORY", 3}, {"0", 0}, {"2,5", 0}, {"2 + LOFT", 0}} {
		m, ok := parseStoriesValue(tc.in)
		if tc.n == 0 {
			if ok {
				t.Errorf("%q read as %v stories", tc.in, m.value)
			}
			continue
		}
		if !ok || m.value != tc.n {
			t.Errorf("%q: %v %v, want %v", tc.in, m.value, ok, tc.n)
		}
	}
}

func TestReadFactLabels(t *testing.T) {
	for _, tc := range []struct {
		label, value string
		kind, area   string // "" kind: not project data
		level, qual  string
	}{
		{"NUMBER OF STORIES", "2", model.FactStories, "", "", ""},
		{"STORIES", "2", model.FactStories, "", "", ""},
		{"NO. OF STOREYS", "1", model.FactStories, "", "", ""},
		{"STORIES BELOW GRADE", "1", model.FactStoriesBelowGrade, "", "", ""},
		{"ALLOWABLE STORIES", "3", model.FactStories, "", "", "allowable"},
		{"BUILDING HEIGHT", `24'-6"`, model.FactBuildingHeight, "", "", ""},
		{"MAX. BUILDING HEIGHT", `35'-0"`, model.FactBuildingHeight, "", "", "allowable"},
		{"GROSS MAIN FLOOR AREA", "66.28M2", model.FactArea, model.AreaFloor, "MAIN", ""},
		{"NEW 1ST FLOOR AREA", "109sqm", model.FactArea, model.AreaFloor, "FIRST", "new"},
		{"TOTAL CONDITIONED AREA", "2,450 SF", model.FactArea, model.AreaTotal, "", ""},
		{"TOTAL AREA ABOVE GRADE", "1177.33FT2", model.FactArea, model.AreaTotal, "", ""},
		{"SECOND FLOOR", "900 SF", model.FactArea, model.AreaFloor, "SECOND", ""},
		{"LEVEL 2", "900 SF", model.FactArea, model.AreaFloor, "LEVEL 2", ""},
		{"EXISTING BASEMENT", "900 SF", model.FactArea, model.AreaFloor, "BASEMENT", "existing"},
		{"BUILDING AREA", "66.28M2", model.FactArea, model.AreaFootprint, "", ""},
		{"PARCEL AREA", "550.52M2", model.FactArea, model.AreaLot, "", ""},
		{"LOT AREA", "6,000 SF", model.FactArea, model.AreaLot, "", ""},
		{"LOT COVERAGE", "17.43%", model.FactArea, model.AreaCoverage, "", ""},
		{"GARAGE AREA", "29.73M2", model.FactArea, model.AreaOther, "", ""},
		{"SECOND FLOOR DECK AREA", "120 SF", model.FactArea, model.AreaOther, "", ""},
		// Look-alikes.
		{"2-STORY WOOD FRAME", "", "", "", "", ""},
		{"WINDOW HEIGHT", `4'-0"`, "", "", "", ""},
		{"PLATE HEIGHT", `9'-1"`, "", "", "", ""},
		{"HEIGHT", `8'-0"`, "", "", "", ""},
		{"CEILING HEIGHT", `8'-0"`, "", "", "", ""},
		{"KITCHEN", "120 SF", model.FactArea, model.AreaRoom, "", ""},
		{"BEDROOM 2", "150 SF", model.FactArea, model.AreaRoom, "", ""},
		{"LIVING", "320 SF", model.FactArea, model.AreaRoom, "", ""},
		{"LIVING AREA", "1,850 SF", model.FactArea, model.AreaTotal, "", ""},
		{"BONUS ROOM", "300 SF", model.FactArea, model.AreaRoom, "", ""},
		{"STORIES", "24'-6\"", "", "", "", ""},
		{"TOTAL RESTAURANT 370sqm 109sqm", "479sqm", "", "", "", ""},
		{"FIRST FLOOR AREA", "1200", "", "", "", ""},
	} {
		f, ok := readFact(tc.label, tc.value)
		if tc.kind == "" {
			if ok {
				t.Errorf("%q %q read as %s/%s", tc.label, tc.value, f.kind, f.areaKind)
			}
			continue
		}
		if !ok || f.kind != tc.kind || f.areaKind != tc.area || f.level != tc.level || f.qualifier != tc.qual {
			t.Errorf("%q %q: got %v %q/%q level %q qual %q, want %q/%q level %q qual %q", tc.label, tc.value, ok,
				f.kind, f.areaKind, f.level, f.qualifier, tc.kind, tc.area, tc.level, tc.qual)
		}
	}
}

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

func TestParseSignedLevel(t *testing.T) {
	for _, tc := range []struct {
		in     string
		ok     bool
		inches float64
	}{
		{`+24'-6"`, true, 294}, {`-0'-8"`, true, -8}, {`0'-0"`, true, 0}, {`EL. 124'-6"`, true, 1494},
		{`58.60m`, true, 58.60 / 0.0254}, {`±0'-0"`, true, 0}, {`±2'-0"`, false, 0}, {`24`, false, 0},
	} {
		m, ok := parseSignedLevel(tc.in)
		if ok != tc.ok || ok && math.Abs(m.canonical-tc.inches) > 1e-6 {
			t.Errorf("%q: %v %v, want %v %v", tc.in, m.canonical, ok, tc.inches, tc.ok)
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

// TestProjectDataCorpus reads the project data of real sheets: the
// Calgary house's GROSS AREAS block (values under and right of wrapped
// labels) and the Slovenian room list whose column adds up to its total.
func TestProjectDataCorpus(t *testing.T) {
	read := func(name string) *projectData {
		path := "../../../shared/corpus/" + name
		if _, err := os.Stat(path); err != nil {
			t.Skip("corpus not present")
		}
		c, err := Classify(context.Background(), PlanSet{Files: []File{{ID: name, Pages: pdfPages(t, path)}}})
		if err != nil {
			t.Fatal(err)
		}
		return readProjectData(c.pages)
	}
	pd := read("ca_calgary_sample_dp_bp_house_26p.pdf")
	want := map[string]string{
		"lot":                "550.52M2",
		"footprint":          "66.28M2",
		"total":              "1177.33FT2",
		"floor MAIN":         "593.33FT2",
		"floor SECOND":       "584.00FT2",
		"floor BASEMENT":     "584.00FT2",
		"coverage":           "17.43%",
		"coverage allowable": "45%",
	}
	got := map[string]string{}
	for _, f := range pd.facts {
		if f.pv.Page.Number != 3 {
			continue
		}
		k := f.areaKind
		if f.level != "" {
			k += " " + f.level
		}
		if f.qualifier != "" {
			k += " " + f.qualifier
		}
		got[k] = f.value
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Calgary sheet 2 %s: %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	// The South African inn: NEW 1ST FLOOR AREA from its area schedule,
	// room tags named by their first line (name over finishes over area).
	pd = read("za_crayfish_inn_architectural_plans.pdf")
	var newFirst, kitchen bool
	for _, f := range pd.facts {
		newFirst = newFirst || f.areaKind == model.AreaFloor && f.level == "FIRST" && f.qualifier == "new" && f.value == "109sqm"
		kitchen = kitchen || f.areaKind == model.AreaRoom && f.label == "EX. KITCHEN" && f.value == "26 m²" && f.pv.Page.Number == 2
	}
	if !newFirst || !kitchen {
		t.Errorf("crayfish inn: new first floor read %v, kitchen tag read %v", newFirst, kitchen)
	}
	pd = read("si_archicad_atrium_house_floor_plan.pdf")
	if len(pd.lists) != 1 || len(pd.lists[0].items) != 13 || pd.lists[0].total.value != "143.39 m²" {
		t.Fatalf("room list: %+v", pd.lists)
	}
	sum := 0.0
	for _, it := range pd.lists[0].items {
		sum += it.m.value
	}
	if math.Abs(sum-143.39) > 1e-6 {
		t.Errorf("room list items add up to %v", sum)
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

// FuzzProjectDataValues: the project-data readers never panic, and what
// they accept is a finite, positive number (a level mark may be negative).
func FuzzProjectDataValues(f *testing.F) {
	for _, s := range []string{"2,450 SF", "143,39 m²", "1.464,50 m2", `24'-6"`, "7500 MM", "TWO (2)", "17.43%", `-0'-8"`, "±0'-0\"", "1,464 m²"} {
		f.Add("TOTAL AREA", s)
	}
	f.Fuzz(func(t *testing.T, label, value string) {
		for _, parse := range []func(string) (measured, bool){parseAreaValue, parseHeightValue, parseStoriesValue, parsePercentValue} {
			if m, ok := parse(value); ok && (math.IsNaN(m.canonical) || math.IsInf(m.canonical, 0) || m.canonical < 0) {
				t.Fatalf("%q read as %v", value, m.canonical)
			}
		}
		if m, ok := parseSignedLevel(value); ok && (math.IsNaN(m.canonical) || math.IsInf(m.canonical, 0)) {
			t.Fatalf("level %q read as %v", value, m.canonical)
		}
		readFact(label, value)
		readMark(label, value)
	})
}

// factsOfPDF writes the sheets as a PDF and reads their project data.
func factsOfPDF(t *testing.T, specs ...plangen.SheetSpec) *projectData {
	t.Helper()
	c, err := Classify(context.Background(), PlanSet{Files: []File{{ID: "t", Pages: specPages(t, specs...)}}})
	if err != nil {
		t.Fatal(err)
	}
	return readProjectData(c.pages)
}

func TestProjectDataLayoutsPDF(t *testing.T) {
	row := func(top float64, texts ...string) []plangen.LabelSpec {
		var out []plangen.LabelSpec
		for i, s := range texts {
			out = append(out, plangen.LabelSpec{Text: s, Left: 120 + float64(i)*110, Top: top, Size: 9})
		}
		return out
	}
	var labels []plangen.LabelSpec
	// Two label/value pairs on one baseline, each a run of its own.
	labels = append(labels, row(140, "LOT AREA:", "6,000 SF", "LOT COVERAGE:", "30%")...)
	// One label, two values (existing, proposed) with no header: not read.
	labels = append(labels, row(200, "SECOND FLOOR AREA:", "800 SF", "900 SF")...)
	// Metric phrasings.
	labels = append(labels, plangen.Notes(120, 260, "GROSS MAIN FLOOR AREA: 66.28M2", "NEW 1ST FLOOR AREA 109sqm",
		"TOTAL CONDITIONED AREA 2,450 SF", "STORIES 2", `BUILDING HEIGHT 24'-6"`, "NOTE: 2-STORY WOOD FRAME ADDITION")...)
	pd := factsOfPDF(t, plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: labels})
	got := map[string]string{}
	for _, f := range pd.facts {
		if f.areaKind == model.AreaRoom {
			continue // an area no label claims
		}
		k := f.kind + "/" + f.areaKind + "/" + f.level
		if _, dup := got[k]; dup {
			t.Errorf("%s read twice", k)
		}
		got[k] = f.value
	}
	want := map[string]string{
		"area/lot/":         "6,000 SF",
		"area/coverage/":    "30%",
		"area/floor/MAIN":   "66.28M2",
		"area/floor/FIRST":  "109sqm",
		"area/total/":       "2,450 SF",
		"stories//":         "2",
		"building_height//": `24'-6"`,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	if v, ok := got["area/floor/SECOND"]; ok {
		t.Errorf("a label with two values read as %q", v)
	}
	if len(got) != len(want) {
		t.Errorf("facts %v, want %v", got, want)
	}
}

func TestHasKeyword(t *testing.T) {
	keys := []string{"AREA", "STOR", "LOT"}
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"GROSS FLOOR AREA:", true},
		{"Number of stories", true},
		{"lot", true},
		{"AREx", false},
		{"ARE", false},
		{"", false},
		{"Površina [m2]", false},
		{"PLOT", true},
	} {
		if got := hasKeyword(tc.s, keys); got != tc.want {
			t.Errorf("hasKeyword(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
