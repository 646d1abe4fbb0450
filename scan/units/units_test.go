package units

import (
	"math"
	"testing"
)

func TestParseLength(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{`7'-6"`, 90},
		{`7' 6"`, 90},
		{`7'6"`, 90},
		{`6'-8"`, 80},
		{`3'-0"`, 36},
		{`7 3/4"`, 7.75},
		{`7-3/4"`, 7.75},
		{`7-3/4 IN`, 7.75},
		{`7 3/4 in.`, 7.75},
		{`7.75 IN`, 7.75},
		{`7.75 inches`, 7.75},
		{`3/8"`, 0.375},
		{`36"`, 36},
		{`36''`, 36},
		{`36″`, 36},
		{`7’-6”`, 90},
		{`7'-6 1/2"`, 90.5},
		{`6 FT`, 72},
		{`6 FT 8 IN`, 80},
		{`190 mm`, 190 / 25.4},
		{`19 CM`, 19 / 2.54},
		{`2.1 M`, 2.1 / 0.0254},
	}
	for _, tc := range tests {
		got, err := ParseLength(tc.in)
		if err != nil {
			t.Errorf("ParseLength(%q): %v", tc.in, err)
			continue
		}
		if math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("ParseLength(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{"", "10", "TREAD", "7-5/4\"", "1/0\"", "7 ft tall"} {
		if v, err := ParseLength(bad); err == nil {
			t.Errorf("ParseLength(%q) = %v, want an error", bad, v)
		}
	}
}

func TestParseSlopeAndArea(t *testing.T) {
	slopes := map[string]float64{"1:12": 1.0 / 12, "1 : 20": 0.05, "8.33%": 0.0833, "12.5 %": 0.125, "1 IN 8": 0.125}
	for in, want := range slopes {
		got, err := ParseSlope(in)
		if err != nil || math.Abs(got-want) > 1e-9 {
			t.Errorf("ParseSlope(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"1:0", "12", "steep"} {
		if _, err := ParseSlope(bad); err == nil {
			t.Errorf("ParseSlope(%q): want an error", bad)
		}
	}
	areas := map[string]float64{"5.7 SF": 5.7, "5.7 SQ FT": 5.7, "5.7 SQ. FT.": 5.7, "5 S.F.": 5, "0.53 M²": 0.53 * 10.7639104, "0.53 M2": 0.53 * 10.7639104}
	for in, want := range areas {
		got, err := ParseArea(in)
		if err != nil || math.Abs(got-want) > 1e-6 {
			t.Errorf("ParseArea(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseArea("5.7"); err == nil {
		t.Error("ParseArea without a unit: want an error")
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		kind string
		v    float64
		want string
	}{
		{Length, 7.75, "7 3/4 in"},
		{Length, 0.375, "3/8 in"},
		{Length, 80, "80 in (6 ft 8 in)"},
		{Slope, 0.1, "1:10 (10%)"},
		{Area, 4.8, "4.8 sq ft"},
		{Count, 3, "3"},
	}
	for _, tc := range tests {
		if got := Format(tc.kind, tc.v); got != tc.want {
			t.Errorf("Format(%s, %v) = %q, want %q", tc.kind, tc.v, got, tc.want)
		}
	}
}

// FuzzParseQuantities: any text parses to a finite, non-negative value or
// an error, never a panic.
func FuzzParseQuantities(f *testing.F) {
	for _, s := range []string{`7'-6"`, `7 3/4"`, "1:12", "8.33%", "5.7 SF", `0/0"`, "1:0", `7-3/4 IN`, "190 mm", `''`, "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, kind := range []string{Length, Slope, Area, Count} {
			v, err := ParseQuantity(kind, s)
			if err == nil && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
				t.Errorf("ParseQuantity(%s, %q) = %v", kind, s, v)
			}
		}
	})
}

func TestParseCountRejectsOddNumbers(t *testing.T) {
	for _, s := range []string{"-5", "NaN", "Inf", "1e400", "0x10", ""} {
		if v, err := ParseQuantity(Count, s); err == nil {
			t.Errorf("ParseQuantity(count, %q) = %v, want an error", s, v)
		}
	}
	if v, err := ParseQuantity(Number, "0.15"); err != nil || v != 0.15 {
		t.Errorf("0.15: %v %v", v, err)
	}
}
