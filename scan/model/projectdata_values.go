package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"planreview/scan/units"
	"planreview/textmatch"
)

// Values of the project data (areas, heights, stories) as printed, read
// into a number in the printed unit and a canonical one (square feet,
// inches, stories), with the half of the last printed digit so that a
// comparison allows exactly the rounding of what was printed.

// Measure is one value as printed, read into numbers.
type Measure struct {
	Value     float64 // in the printed unit
	Unit      string  // the printed unit, normalised: "sq ft", "m²", "ft-in", "ft", "in", "m", "mm", "%", "stories"
	Canonical float64 // square feet, inches, stories or percent
	HalfULP   float64 // half the last printed digit, in canonical units
}

const sqFtPerSqM = 10.7639104

var (
	// areaValueRe: a number and an area unit, nothing else but a note in
	// brackets: "2,450 SF", "66.28M2", "109sqm", "143,39 m²", "1177.33FT2".
	areaValueRe = textmatch.MustCompile(`(?i)^(\d[\d,.' ]*\d|\d)\s*(SQ\.?\s*FT\.?|SQ\.?\s*FEET|SQUARE\s+FEET|SQUARE\s+FOOT|S\.\s?F\.?|SF|SQFT|FT2|FT²|FT\^2|M2|M²|M\^2|SQ\.?\s*M\.?|SQM|SQ\.?\s*METRES?|SQ\.?\s*METERS?|SQUARE\s+MET(?:RE|ER)S?)(?:\s*\([^)]*\))?\.?$`)
	// storiesValueRe: "2", "2 STORIES", "TWO (2)", "1 STOREY ABOVE GRADE".
	storiesValueRe = textmatch.MustCompile(`(?i)^(\d{1,3}|ONE|TWO|THREE|FOUR|FIVE|SIX|SEVEN|EIGHT|NINE|TEN)(?:\s*\(\s*\d{1,3}\s*\))?(?:\s*-?\s*(?:STOR(?:Y|IES|EY|EYS)|LEVELS?|FLOORS?))?(?:\s+ABOVE\s+(?:GRADE|GROUND))?\.?$`)
	// heightValueRe: one length and at most a note on its datum:
	// "24'-6\"", "7.5 M", "7500 MM", "35 FT ABOVE GRADE PLANE".
	heightValueRe = textmatch.MustCompile(`(?i)^(` + units.LengthPattern + `)(?:\s*\([^)]*\)|\s+(?:ABOVE|FROM|TO)\s+[A-Z .]+|\s+A\.?F\.?F\.?|\s+AVG\.?|\s+AVERAGE)?\.?$`)
	// percentValueRe: a lot coverage "17.43%", "45 %".
	percentValueRe  = textmatch.MustCompile(`^(\d{1,3}(?:[.,]\d+)?)\s?%$`)
	printedNumberRe = textmatch.MustCompile(`\d+(?:\.\d+)?`)
	wordNumbers     = map[string]int{"ONE": 1, "TWO": 2, "THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9, "TEN": 10}
)

// parseDecimal reads a printed number with thousands separators or a
// decimal comma: "2,450" and "2 450" are 2450, "1.464,50" and "143,39"
// are decimals. A comma followed by exactly three digits is a thousands
// separator in the US way; where the unit is metric that is ambiguous
// ("1,464 m²" is 1464 in one country and 1.464 in another), so metric
// says so and such a number is refused. It returns the value and the
// number of decimals printed.
func parseDecimal(s string, metric bool) (float64, int, error) {
	t := strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(s), " ", ""), "'", "")
	if t == "" {
		return 0, 0, fmt.Errorf("empty number")
	}
	lastDot, lastComma := strings.LastIndex(t, "."), strings.LastIndex(t, ",")
	switch {
	case lastDot >= 0 && lastComma >= 0:
		// Both: the later one is the decimal mark.
		if lastComma > lastDot {
			t = strings.ReplaceAll(t, ".", "")
			t = strings.Replace(t, ",", ".", 1)
		} else {
			t = strings.ReplaceAll(t, ",", "")
		}
	case lastComma >= 0:
		groups := strings.Split(t, ",")
		thousands := true
		for _, g := range groups[1:] {
			if len(g) != 3 {
				thousands = false
			}
		}
		switch {
		case thousands && len(groups) == 2 && metric:
			return 0, 0, fmt.Errorf("ambiguous separator in %q", s)
		case thousands:
			t = strings.ReplaceAll(t, ",", "")
		case len(groups) == 2:
			t = groups[0] + "." + groups[1]
		default:
			return 0, 0, fmt.Errorf("not a number: %q", s)
		}
	case lastDot >= 0 && strings.Count(t, ".") > 1:
		// "1.464.500": dots as thousands separators.
		for _, g := range strings.Split(t, ".")[1:] {
			if len(g) != 3 {
				return 0, 0, fmt.Errorf("not a number: %q", s)
			}
		}
		t = strings.ReplaceAll(t, ".", "")
	}
	if !units.IsPlainNumber(t) {
		return 0, 0, fmt.Errorf("not a number: %q", s)
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("not a number: %q", s)
	}
	decimals := 0
	if i := strings.IndexByte(t, '.'); i >= 0 {
		decimals = len(t) - i - 1
	}
	return v, decimals, nil
}

// parseAreaValue reads an area with its unit into square feet.
func parseAreaValue(s string) (Measure, bool) {
	m := areaValueRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Measure{}, false
	}
	unit := strings.ToUpper(strings.Join(strings.Fields(m[2]), " "))
	metric := strings.HasPrefix(unit, "M") || strings.Contains(unit, "M2") || strings.Contains(unit, "SQM") ||
		strings.Contains(unit, "MET") || unit == "SQ M" || unit == "SQ. M" || unit == "SQ.M" || unit == "SQ M." || unit == "SQ. M."
	v, dec, err := parseDecimal(m[1], metric)
	if err != nil || v <= 0 {
		return Measure{}, false
	}
	half := 0.5 * math.Pow(10, -float64(dec))
	if metric {
		return Measure{Value: v, Unit: "m²", Canonical: v * sqFtPerSqM, HalfULP: half * sqFtPerSqM}, true
	}
	return Measure{Value: v, Unit: "sq ft", Canonical: v, HalfULP: half}, true
}

// parseStoriesValue reads a number of stories.
func parseStoriesValue(s string) (Measure, bool) {
	m := storiesValueRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Measure{}, false
	}
	n, ok := wordNumbers[strings.ToUpper(m[1])]
	if !ok {
		n, _ = strconv.Atoi(m[1])
	}
	if n < 1 || n > 200 {
		return Measure{}, false
	}
	return Measure{Value: float64(n), Unit: "stories", Canonical: float64(n)}, true
}

// parseHeightValue reads a building height into inches.
func parseHeightValue(s string) (Measure, bool) {
	m := heightValueRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Measure{}, false
	}
	raw := strings.TrimSpace(m[1])
	in, err := units.ParseLength(raw)
	if err != nil || in <= 0 {
		return Measure{}, false
	}
	upper := strings.ToUpper(raw)
	out := Measure{Canonical: in}
	num := printedNumberRe.FindAllString(raw, -1)
	decimals := func(n string) int {
		if i := strings.IndexByte(n, '.'); i >= 0 {
			return len(n) - i - 1
		}
		return 0
	}
	last := num[len(num)-1]
	half := 0.5 * math.Pow(10, -float64(decimals(last)))
	switch {
	case strings.HasSuffix(upper, "MM"):
		out.Unit, out.Value, out.HalfULP = "mm", in*25.4, half/25.4
	case strings.HasSuffix(upper, "CM"):
		out.Unit, out.Value, out.HalfULP = "cm", in*2.54, half/2.54
	case strings.HasSuffix(upper, "M"):
		out.Unit, out.Value, out.HalfULP = "m", in*0.0254, half/0.0254
	case len(num) >= 2 || strings.ContainsAny(raw, `"”″`) && strings.ContainsAny(raw, `'’′`):
		out.Unit, out.Value, out.HalfULP = "ft-in", in, half
	case strings.ContainsAny(upper, `'’′`) || strings.Contains(upper, "F"):
		out.Unit, out.Value, out.HalfULP = "ft", in/12, half*12
	default:
		out.Unit, out.Value, out.HalfULP = "in", in, half
	}
	return out, true
}

// parsePercentValue reads a coverage percentage.
func parsePercentValue(s string) (Measure, bool) {
	m := percentValueRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Measure{}, false
	}
	v, dec, err := parseDecimal(m[1], true)
	if err != nil || v > 100 {
		return Measure{}, false
	}
	return Measure{Value: v, Unit: "%", Canonical: v, HalfULP: 0.5 * math.Pow(10, -float64(dec))}, true
}
