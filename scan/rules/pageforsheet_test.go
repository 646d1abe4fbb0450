package rules

import "testing"

func TestPageForSheet(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Sheet page 2 relies on calculations.", "Page 2 relies on calculations."},
		{"Sheet A1.1 tags an opening 3, but the schedule on page 4 lists none.", "Sheet A1.1 tags an opening 3, but the schedule on page 4 lists none."},
		{"the schedule on sheet page 4 lists none", "the schedule on page 4 lists none"},
		{"Sheet A-101 is marked PRELIMINARY.", "Sheet A-101 is marked PRELIMINARY."},
	}
	for _, c := range cases {
		if got := pageForSheet(c.in); got != c.want {
			t.Errorf("pageForSheet(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
