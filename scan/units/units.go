// Package units reads and writes the quantities plans print: lengths in
// feet and inches (with fractions), slopes, areas and plain numbers. The
// document model reads a sheet's quantities with it and the rules judge
// and word them with it, so a value is parsed one way everywhere.
//
// Values are held in canonical units: inches for lengths, rise over run
// for slopes, square feet for areas, a plain number for counts and factors.
package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"planreview/textmatch"
)

// Quantity kinds.
const (
	Length = "length"
	Slope  = "slope"
	Area   = "area"
	Count  = "count"
	Number = "number"
)

// Sub-patterns for expressions that capture a value. They are strict on
// purpose: a number without a unit ("TREAD 10") is not a length, because
// guessing the unit would invent a value.
const (
	InchMark = `(?:"|''|″|”|′′|\s?IN\b\.?|\s?INCH(?:ES)?\b)`
	FootMark = `(?:'|′|’|\s?FT\b\.?|\s?FEET\b|\s?FOOT\b)`
	InchNum  = `(?:\d+(?:\.\d+)?(?:(?:\s+|-)\d+/\d+)?|\d+/\d+)`
	// ImperialLengthPattern: feet-and-inches or inches (with fractions).
	// Inches come first so that 7'' (two primes) is not read as 7 ft.
	ImperialLengthPattern = `(?:` + InchNum + InchMark +
		`|\d+(?:\.\d+)?` + FootMark + `(?:\s*-?\s*` + InchNum + InchMark + `)?)`
	// LengthPattern: an imperial length or a metric one.
	LengthPattern = `(?:` + InchNum + InchMark +
		`|\d+(?:\.\d+)?` + FootMark + `(?:\s*-?\s*` + InchNum + InchMark + `)?` +
		`|\d+(?:\.\d+)?\s?(?:MM|CM|M)\b)`
	// SlopePattern: a ratio (rise:run), a percentage or "1 IN 12".
	SlopePattern = `(?:\d+(?:\.\d+)?\s*:\s*\d+(?:\.\d+)?|\d+(?:\.\d+)?\s?%|\d+\s+IN\s+\d+\b)`
	// AreaSqFtPattern: square feet only.
	AreaSqFtPattern = `(?:\d+(?:\.\d+)?\s?(?:SQ\.?\s?FT\.?|SF\b|S\.F\.|FT²|FT2\b|SQUARE\s+FEET\b))`
	// AreaPattern: square feet or square metres.
	AreaPattern   = `(?:\d+(?:\.\d+)?\s?(?:SQ\.?\s?FT\.?|SF\b|S\.F\.|FT²|FT2\b|SQUARE\s+FEET\b|M²|M2\b|SQ\.?\s?M\b))`
	CountPattern  = `(?:\d{1,6})`
	NumberPattern = `(?:\d*\.\d+|\d+)`
)

var (
	lengthOnlyRe   = textmatch.MustCompile(`(?i)^` + LengthPattern + `$`)
	slopeOnlyRe    = textmatch.MustCompile(`(?i)^` + SlopePattern + `$`)
	areaOnlyRe     = textmatch.MustCompile(`(?i)^` + AreaPattern + `$`)
	areaSqFtOnlyRe = textmatch.MustCompile(`(?i)^` + AreaSqFtPattern + `$`)
	feetInchRe     = textmatch.MustCompile(`(?i)^(\d+(?:\.\d+)?)` + FootMark + `(?:\s*-?\s*(` + InchNum + `)` + InchMark + `)?$`)
	inchRe         = textmatch.MustCompile(`(?i)^(` + InchNum + `)` + InchMark + `$`)
	metricRe       = textmatch.MustCompile(`(?i)^(\d+(?:\.\d+)?)\s?(MM|CM|M)$`)
	plainNumberRe  = textmatch.MustCompile(`^(?:\d+(?:\.\d*)?|\.\d+)$`)
	mixedFracRe    = textmatch.MustCompile(`^(\d+(?:\.\d+)?)(?:(?:\s+|-)(\d+)/(\d+))?$|^(\d+)/(\d+)$`)
)

// ParseLength parses a written length into inches: 7'-6", 7' 6", 7 3/4",
// 7-3/4 IN, 7.75 in, 3/4", 190 mm, 2.1 M, 6 FT.
func ParseLength(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if !lengthOnlyRe.MatchString(t) {
		return 0, fmt.Errorf("not a length: %q", s)
	}
	if m := metricRe.FindStringSubmatch(t); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		switch strings.ToUpper(m[2]) {
		case "MM":
			return v / 25.4, nil
		case "CM":
			return v / 2.54, nil
		default:
			return v / 0.0254, nil
		}
	}
	return ParseImperialLength(t)
}

// ParseImperialLength parses a length in feet and inches only: a metric
// value is an error (the IRC and IBC are imperial codes; a metric sheet is
// from a jurisdiction they do not govern).
func ParseImperialLength(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if m := feetInchRe.FindStringSubmatch(t); m != nil {
		ft, _ := strconv.ParseFloat(m[1], 64)
		in := 0.0
		if m[2] != "" {
			v, err := parseInchNumber(m[2])
			if err != nil {
				return 0, err
			}
			in = v
		}
		return ft*12 + in, nil
	}
	if m := inchRe.FindStringSubmatch(t); m != nil {
		return parseInchNumber(m[1])
	}
	return 0, fmt.Errorf("not an imperial length: %q", s)
}

// parseInchNumber parses "7", "7.75", "7 3/4", "7-3/4" or "3/4".
func parseInchNumber(s string) (float64, error) {
	m := mixedFracRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("not a number of inches: %q", s)
	}
	if m[4] != "" {
		return fraction(m[4], m[5])
	}
	whole, _ := strconv.ParseFloat(m[1], 64)
	if m[2] == "" {
		return whole, nil
	}
	f, err := fraction(m[2], m[3])
	if err != nil {
		return 0, err
	}
	if f >= 1 {
		// "7-5/4" is not a mixed number a drafter writes; refuse it.
		return 0, fmt.Errorf("improper fraction in %q", s)
	}
	return whole + f, nil
}

func fraction(num, den string) (float64, error) {
	n, _ := strconv.ParseFloat(num, 64)
	d, _ := strconv.ParseFloat(den, 64)
	if d == 0 {
		return 0, fmt.Errorf("zero denominator in %s/%s", num, den)
	}
	return n / d, nil
}

// ParseSlope parses a slope into rise over run: 1:12, 1 : 20, 8.33%, 1 IN 12.
// A ratio is read as rise:run, the way slopes are written on plans.
func ParseSlope(s string) (float64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if !slopeOnlyRe.MatchString(t) {
		return 0, fmt.Errorf("not a slope: %q", s)
	}
	if strings.HasSuffix(t, "%") {
		v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
		if err != nil {
			return 0, fmt.Errorf("not a slope: %q", s)
		}
		return v / 100, nil
	}
	var parts []string
	if strings.Contains(t, ":") {
		parts = strings.SplitN(t, ":", 2)
	} else {
		parts = strings.SplitN(t, " IN ", 2)
	}
	if len(parts) != 2 {
		return 0, fmt.Errorf("not a slope: %q", s)
	}
	rise, err1 := strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
	run, err2 := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
	if err1 != nil || err2 != nil || run == 0 {
		return 0, fmt.Errorf("not a slope: %q", s)
	}
	return rise / run, nil
}

// ParseArea parses an area into square feet: 5.7 SF, 5.7 SQ FT, 0.53 M².
func ParseArea(s string) (float64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if !areaOnlyRe.MatchString(t) {
		return 0, fmt.Errorf("not an area: %q", s)
	}
	v, unit, err := splitNumber(t)
	if err != nil {
		return 0, fmt.Errorf("not an area: %q", s)
	}
	if strings.HasPrefix(unit, "M") || strings.HasPrefix(unit, "SQ M") || strings.HasPrefix(unit, "SQ. M") || strings.HasPrefix(unit, "SQM") {
		return v * 10.7639104, nil
	}
	return v, nil
}

// ParseAreaSqFt parses an area given in square feet; a metric area is an
// error.
func ParseAreaSqFt(s string) (float64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if !areaSqFtOnlyRe.MatchString(t) {
		return 0, fmt.Errorf("not an area in square feet: %q", s)
	}
	v, _, err := splitNumber(t)
	return v, err
}

// splitNumber splits a leading decimal number from the unit after it.
func splitNumber(t string) (float64, string, error) {
	end := strings.IndexFunc(t, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
	if end < 0 {
		end = len(t)
	}
	v, err := strconv.ParseFloat(t[:end], 64)
	return v, strings.TrimSpace(t[end:]), err
}

// IsPlainNumber reports whether s is digits with an optional decimal part
// and nothing else (no sign, exponent or unit).
func IsPlainNumber(s string) bool { return plainNumberRe.MatchString(s) }

// ParseQuantity parses s as the given quantity kind.
func ParseQuantity(kind, s string) (float64, error) {
	switch kind {
	case Length:
		return ParseLength(s)
	case Slope:
		return ParseSlope(s)
	case Area:
		return ParseArea(s)
	case Count, Number:
		// Plain digits only: ParseFloat would also take "-5", "NaN", "1e400".
		t := strings.TrimSpace(s)
		if !IsPlainNumber(t) {
			return 0, fmt.Errorf("not a number: %q", s)
		}
		v, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return 0, fmt.Errorf("not a number: %q", s)
		}
		return v, nil
	}
	return 0, fmt.Errorf("unknown quantity %q", kind)
}

// Format writes a canonical value for a rationale: lengths as inches with
// sixteenths (and feet-inches from 6 ft up), slopes as 1:N and percent,
// areas in square feet.
func Format(kind string, v float64) string {
	switch kind {
	case Length:
		return FormatLength(v)
	case Slope:
		if v <= 0 {
			return "0%"
		}
		return fmt.Sprintf("1:%s (%s%%)", TrimFloat(1/v, 2), TrimFloat(v*100, 2))
	case Area:
		return TrimFloat(v, 2) + " sq ft"
	}
	return TrimFloat(v, 3)
}

// FormatLength writes inches rounded to 1/16: 7 3/4 in, 80 in (6 ft 8 in).
func FormatLength(in float64) string {
	sixteenths := int(math.Round(in * 16))
	whole, frac := sixteenths/16, sixteenths%16
	s := strconv.Itoa(whole)
	if frac != 0 {
		num, den := frac, 16
		for num%2 == 0 {
			num, den = num/2, den/2
		}
		if whole == 0 {
			s = fmt.Sprintf("%d/%d", num, den)
		} else {
			s = fmt.Sprintf("%d %d/%d", whole, num, den)
		}
	}
	s += " in"
	if in >= 72 {
		ft := whole / 12
		rest := float64(sixteenths)/16 - float64(ft*12)
		s += fmt.Sprintf(" (%d ft %s in)", ft, TrimFloat(rest, 2))
	}
	return s
}

// TrimFloat writes v with at most prec decimals and no trailing zeros.
func TrimFloat(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
