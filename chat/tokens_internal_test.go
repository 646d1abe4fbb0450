package chat

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// TestTokensASCII checks Tokens' byte-by-byte path for ASCII text against
// the general one on plan-like and random text: the same terms in the same
// order.
func TestTokensASCII(t *testing.T) {
	cases := []string{"", " ", "OCCUPANCY GROUP: R-3", "Construction Type: V-B", "A1.1 FLOOR PLAN", "2X6 @ 16\" O.C.",
		"12'-0\"", "RISERS 7 3/4\" MAX.", "--", ".R-3.", "SHEET A-101/A-102", "U.O.N.", "(E) WALL; (N) WALL",
		"STAIRS, LANDINGS & GUARDS", "fire-rated 1-HR assembly", "#5 @ 12\" o.c. e.w.", "ABCDEFGHIJKLM-N", "a-b-c-d-e-f-g"}
	rng := rand.New(rand.NewSource(1))
	alphabet := "aZ09 .-/'`_&+~@%,;:()[]{}\"!?<>=*#|\t\n\r\v\fIESsdg"
	for range 5000 {
		b := make([]byte, rng.Intn(24))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	tokensUnicode := func(s string) []string {
		var out []string
		eachTokenUnicode(s, func(t string) { out = append(out, t) })
		return out
	}
	for _, s := range cases {
		if got, want := Tokens(s), tokensUnicode(strings.ToLower(s)); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("Tokens(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestJoinNormalized holds the page-text join to what it replaces on
// plan-like and random lines.
func TestJoinNormalized(t *testing.T) {
	cases := [][]string{nil, {""}, {"", ""}, {"A B", "", "C"}, {" A"}, {"A "}, {"A  B"}, {"A\tB"}, {"R-3\u00a0V-B"}, {"x", "\u3000y"}}
	rng := rand.New(rand.NewSource(2))
	alphabet := []string{"A", "b", "1", " ", "  ", "\t", "\n", "\u00a0", "é", "…", "-", ""}
	for range 3000 {
		lines := make([]string, rng.Intn(5))
		for i := range lines {
			for range rng.Intn(6) {
				lines[i] += alphabet[rng.Intn(len(alphabet))]
			}
		}
		cases = append(cases, lines)
	}
	for _, lines := range cases {
		if got, want := joinNormalized(lines), normalizeSpace(strings.Join(lines, " ")); got != want {
			t.Fatalf("joinNormalized(%q) = %q, want %q", lines, got, want)
		}
	}
}

// TestFoldSpace checks the one-pass folding of white space against
// strings.Fields and strings.Join, on random text with ASCII and Unicode
// white space and broken UTF-8, for one text and for page lines.
func TestFoldSpace(t *testing.T) {
	pieces := []string{"a", "B", "1", " ", "  ", "\t", "\n", "\v", "\f", "\r", "\u0085", "\u00a0", "\u2003", "\u3000",
		"é", "Ø", "…", "\xff", "\xc2", "x\xe2\x80", "ROOM", "-", ":"}
	rng := rand.New(rand.NewSource(2))
	text := func() string {
		var sb strings.Builder
		for range rng.Intn(12) {
			sb.WriteString(pieces[rng.Intn(len(pieces))])
		}
		return sb.String()
	}
	for range 20000 {
		s := text()
		if got, want := foldSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("foldSpace(%q) = %q, want %q", s, got, want)
		}
		if got, want := normalizeSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("normalizeSpace(%q) = %q, want %q", s, got, want)
		}
		lines := make([]string, rng.Intn(5))
		for i := range lines {
			lines[i] = text()
		}
		if got, want := joinNormalized(lines), strings.Join(strings.Fields(strings.Join(lines, " ")), " "); got != want {
			t.Fatalf("joinNormalized(%q) = %q, want %q", lines, got, want)
		}
	}
}
