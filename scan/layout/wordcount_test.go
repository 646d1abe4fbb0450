package layout

import (
	"strings"
	"testing"
)

func TestWordCount(t *testing.T) {
	for _, s := range []string{"", " ", "A", " A  B ", "A\tB\nC", "NO.\u00a0OF EXITS", "\u2003X\u3000Y\u0085", "\xff\xfe A", "EXIT \xc3", "  \r\n"} {
		if got, want := WordCount(s), len(strings.Fields(s)); got != want {
			t.Errorf("WordCount(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzWordCount(f *testing.F) {
	for _, s := range []string{"", "A B", "A\u00a0B", "\xff \x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := WordCount(s), len(strings.Fields(s)); got != want {
			t.Fatalf("WordCount(%q) = %d, want %d", s, got, want)
		}
	})
}
