package model

import (
	"math"
	"testing"
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
		if math.Abs(m.Value-tc.value) > 1e-9 || m.Unit != tc.unit || math.Abs(m.Canonical-tc.canonial) > 1e-6 {
			t.Errorf("%q: got %v %s (%v sq ft), want %v %s (%v)", tc.in, m.Value, m.Unit, m.Canonical, tc.value, tc.unit, tc.canonial)
		}
	}
	// The rounding allowed is half the last printed digit.
	if m, _ := parseAreaValue("593.33FT2"); math.Abs(m.HalfULP-0.005) > 1e-12 {
		t.Errorf("half ULP of 593.33: %v", m.HalfULP)
	}
	if m, _ := parseAreaValue("109sqm"); math.Abs(m.HalfULP-0.5*sqFtPerSqM) > 1e-9 {
		t.Errorf("half ULP of 109 m²: %v", m.HalfULP)
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
		if ok && (math.Abs(m.Canonical-tc.inches) > 1e-6 || m.Unit != tc.unit) {
			t.Errorf("%q: got %v in (%s), want %v in (%s)", tc.in, m.Canonical, m.Unit, tc.inches, tc.unit)
		}
	}
	for _, tc := range []struct {
		in string
		n  float64
	}{{"2", 2}, {"TWO", 2}, {"2 STORIES", 2}, {"1 STOREY ABOVE GRADE", 1}, {"TWO (2)", 2}, {"3-STORY", 3}, {"0", 0}, {"2,5", 0}, {"2 + LOFT", 0}} {
		m, ok := parseStoriesValue(tc.in)
		if tc.n == 0 {
			if ok {
				t.Errorf("%q read as %v stories", tc.in, m.Value)
			}
			continue
		}
		if !ok || m.Value != tc.n {
			t.Errorf("%q: %v %v, want %v", tc.in, m.Value, ok, tc.n)
		}
	}
}

func TestReadFactLabels(t *testing.T) {
	for _, tc := range []struct {
		label, value string
		kind, area   string // "" kind: not project data
		level, qual  string
	}{
		{"NUMBER OF STORIES", "2", FactStories, "", "", ""},
		{"STORIES", "2", FactStories, "", "", ""},
		{"NO. OF STOREYS", "1", FactStories, "", "", ""},
		{"STORIES BELOW GRADE", "1", FactStoriesBelowGrade, "", "", ""},
		{"ALLOWABLE STORIES", "3", FactStories, "", "", "allowable"},
		{"BUILDING HEIGHT", `24'-6"`, FactBuildingHeight, "", "", ""},
		{"MAX. BUILDING HEIGHT", `35'-0"`, FactBuildingHeight, "", "", "allowable"},
		{"GROSS MAIN FLOOR AREA", "66.28M2", FactArea, AreaFloor, "MAIN", ""},
		{"NEW 1ST FLOOR AREA", "109sqm", FactArea, AreaFloor, "FIRST", "new"},
		{"TOTAL CONDITIONED AREA", "2,450 SF", FactArea, AreaTotal, "", ""},
		{"TOTAL AREA ABOVE GRADE", "1177.33FT2", FactArea, AreaTotal, "", ""},
		{"SECOND FLOOR", "900 SF", FactArea, AreaFloor, "SECOND", ""},
		{"LEVEL 2", "900 SF", FactArea, AreaFloor, "LEVEL 2", ""},
		{"EXISTING BASEMENT", "900 SF", FactArea, AreaFloor, "BASEMENT", "existing"},
		{"BUILDING AREA", "66.28M2", FactArea, AreaFootprint, "", ""},
		{"PARCEL AREA", "550.52M2", FactArea, AreaLot, "", ""},
		{"LOT AREA", "6,000 SF", FactArea, AreaLot, "", ""},
		{"LOT COVERAGE", "17.43%", FactArea, AreaCoverage, "", ""},
		{"GARAGE AREA", "29.73M2", FactArea, AreaOther, "", ""},
		{"SECOND FLOOR DECK AREA", "120 SF", FactArea, AreaOther, "", ""},
		// Look-alikes.
		{"2-STORY WOOD FRAME", "", "", "", "", ""},
		{"WINDOW HEIGHT", `4'-0"`, "", "", "", ""},
		{"PLATE HEIGHT", `9'-1"`, "", "", "", ""},
		{"HEIGHT", `8'-0"`, "", "", "", ""},
		{"CEILING HEIGHT", `8'-0"`, "", "", "", ""},
		{"KITCHEN", "120 SF", FactArea, AreaRoom, "", ""},
		{"BEDROOM 2", "150 SF", FactArea, AreaRoom, "", ""},
		{"LIVING", "320 SF", FactArea, AreaRoom, "", ""},
		{"LIVING AREA", "1,850 SF", FactArea, AreaTotal, "", ""},
		{"BONUS ROOM", "300 SF", FactArea, AreaRoom, "", ""},
		{"STORIES", "24'-6\"", "", "", "", ""},
		{"TOTAL RESTAURANT 370sqm 109sqm", "479sqm", "", "", "", ""},
		{"FIRST FLOOR AREA", "1200", "", "", "", ""},
	} {
		f, ok := readFact(tc.label, tc.value)
		if tc.kind == "" {
			if ok {
				t.Errorf("%q %q read as %s/%s", tc.label, tc.value, f.Kind, f.AreaKind)
			}
			continue
		}
		if !ok || f.Kind != tc.kind || f.AreaKind != tc.area || f.Level != tc.level || f.Qualifier != tc.qual {
			t.Errorf("%q %q: got %v %q/%q level %q qual %q, want %q/%q level %q qual %q", tc.label, tc.value, ok,
				f.Kind, f.AreaKind, f.Level, f.Qualifier, tc.kind, tc.area, tc.level, tc.qual)
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
		if ok != tc.ok || ok && math.Abs(m.Canonical-tc.inches) > 1e-6 {
			t.Errorf("%q: %v %v, want %v %v", tc.in, m.Canonical, ok, tc.inches, tc.ok)
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
		for _, parse := range []func(string) (Measure, bool){parseAreaValue, parseHeightValue, parseStoriesValue, parsePercentValue} {
			if m, ok := parse(value); ok && (math.IsNaN(m.Canonical) || math.IsInf(m.Canonical, 0) || m.Canonical < 0) {
				t.Fatalf("%q read as %v", value, m.Canonical)
			}
		}
		if m, ok := parseSignedLevel(value); ok && (math.IsNaN(m.Canonical) || math.IsInf(m.Canonical, 0)) {
			t.Fatalf("level %q read as %v", value, m.Canonical)
		}
		readFact(label, value)
		readMark(label, value)
	})
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
