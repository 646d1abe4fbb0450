package rules

import "testing"

// TestRationalesSayAReadingOnce: a reading is stated as written, with the
// measure only where it adds something.
func TestRationalesSayAReadingOnce(t *testing.T) {
	for _, c := range []struct{ value, measured, want string }{
		{"4.8 SF", "4.8 sq ft", "4.8 SF"},
		{`48"`, "48 in", `48"`},
		{`8 1/4"`, "8 1/4 in", `8 1/4"`},
		{`2'-6"`, "30 in", `2'-6" (30 in)`},
		{`6'-4"`, "76 in (6 ft 4 in)", `6'-4" (76 in)`},
		{"1:10", "1:10 (10%)", "1:10 (10%)"},
		{"FOUR", "4 in", "FOUR (4 in)"},
	} {
		if got := sayOnce(c.value, c.measured); got != c.want {
			t.Errorf("sayOnce(%q, %q) = %q, want %q", c.value, c.measured, got, c.want)
		}
	}
	got := renderTemplate("The plans give {value} ({measured}); at least {limit} ({refs}).",
		map[string]string{"value": "4.8 SF", "measured": "4.8 sq ft", "limit": "5.7 sq ft", "refs": "IRC R310.2.1"})
	if want := "The plans give 4.8 SF; at least 5.7 sq ft (IRC R310.2.1)."; got != want {
		t.Errorf("rendered %q, want %q", got, want)
	}
}
