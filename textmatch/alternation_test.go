package textmatch

import (
	"regexp"
	"slices"
	"testing"
)

// stamps is a long top-level alternation of the kind split into branches.
const stamps = `(?i)\bISSUED\s+FOR\s+\S.*|\b(?:NOT\s+)?FOR\s+CONSTRUCTION\b|\bCONSTRUCTION\s+(?:DOCUMENTS|SET|ISSUE)\b|\bCONCEPTUAL\s+DESIGN\b|\bPRELIMINARY\b|\bFOR\s+(?:PERMIT|TENDER|APPROVAL|REVIEW|BID|INFORMATION|COMMENT)\b|\bPERMIT\s+SET\b|\bBID\s+SET\b|\bTENDER\s+(?:SET|ISSUE)\b|\bAS[\s-]+BUILT\b|\bRECORD\s+DRAWINGS?\b|\bPRE-?BID\b|\bADDENDUM\b|\bDRAFT\b|\bSUBJECT\s+TO\s+COUNCIL\s+APPROVAL\b|\bAUSF(?:Ü|UE)HRUNGSPLANUNG\b|\bENTWURFSPLANUNG\b|\bPROGETTO\s+(?:ESECUTIVO|DEFINITIVO|PRELIMINARE)\b`

func TestAlternativesSplitAtTheTopLevelOnly(t *testing.T) {
	cases := []struct {
		expr, flags string
		parts       []string
	}{
		{`(?i)a|b(c|d)|[|x]|\|e`, "(?i)", []string{"a", "b(c|d)", "[|x]", `\|e`}},
		{`a|[]|]|[^]|]|[[:alpha:]|]z`, "", []string{"a", "[]|]", "[^]|]", "[[:alpha:]|]z"}},
		{`(?:a|b)`, "", nil},                      // one branch
		{`a|(?i)b|c`, "", nil},                    // flags set mid-way reach the later branches
		{`\Qa|b\E|c`, "", nil},                    // quoted text is not looked into
		{`(?i:a)|b`, "", []string{"(?i:a)", "b"}}, // a group with flags is a group
	}
	for _, tc := range cases {
		flags, parts := alternatives(tc.expr)
		if flags != tc.flags || !slices.Equal(parts, tc.parts) {
			t.Errorf("%s: %q %q, want %q %q", tc.expr, flags, parts, tc.flags, tc.parts)
		}
	}
}

func TestLongAlternationIsSplit(t *testing.T) {
	if MustCompile(stamps).parse().branches == nil {
		t.Error("the stamps alternation is not split")
	}
	if MustCompile(`(?i)\bRISERS?\b|\bTREADS?\b`).parse().branches != nil {
		t.Error("a short alternation is split")
	}
	if MustCompile(`(?i)`+stamps[4:]+`|.`).parse().branches != nil {
		t.Error("split with a branch that has no literal")
	}
}

// TestBranchesFindWhatTheAlternationFinds: MatchString, FindString and
// FindStringIndex over the branches give the joined pattern's results,
// leftmost and, at one start, the earlier branch (forced splits of small
// patterns included).
func TestBranchesFindWhatTheAlternationFinds(t *testing.T) {
	exprs := []string{stamps, `(?i)FOR|FOR\s+PERMIT|PERMIT`, `AB|A`, `A|AB`, `(?i)\bX+\b|\bXY`, `^A|B$|C`, `(a)|(b)c|(?P<n>d)`}
	texts := []string{"", "ISSUED FOR PERMIT 3/6/2020", "NOT FOR CONSTRUCTION", "for permit set", "PREPARED FOR OWNER", "AS-BUILT",
		"FOR CONSTRUCTION DOCUMENTS", "AB", "XXY XY", "BA", "CAB", "dbc a", "Ausführungsplanung", "AUSFUEHRUNGSPLANUNG x",
		"RECORD DRAWING", "\u212aEEP FOR PERMIT", "PROGETTO ESECUTIVO"}
	for _, expr := range exprs {
		split, err := compile(expr, 1)
		if err != nil {
			t.Fatal(err)
		}
		plain := regexp.MustCompile(expr)
		for _, s := range texts {
			if split.MatchString(s) != plain.MatchString(s) || split.FindString(s) != plain.FindString(s) ||
				!slices.Equal(split.FindStringIndex(s), plain.FindStringIndex(s)) {
				t.Errorf("%s on %q: %v %q %v, want %v %q %v", expr, s, split.MatchString(s), split.FindString(s), split.FindStringIndex(s),
					plain.MatchString(s), plain.FindString(s), plain.FindStringIndex(s))
			}
		}
	}
}

func FuzzBranchesFindWhatTheAlternationFinds(f *testing.F) {
	f.Add(`AB|A`, "xAB")
	f.Add(`(?i)\bFOR\b|FOR\s+X|[|]`, "for x |")
	f.Add(`(?i)s|k`, "\u017f\u212a")
	f.Fuzz(func(t *testing.T, expr, s string) {
		plain, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		split, err := compile(expr, 1)
		if err != nil {
			t.Fatalf("%q: regexp compiles it, textmatch: %v", expr, err)
		}
		if split.MatchString(s) != plain.MatchString(s) || !slices.Equal(split.FindStringIndex(s), plain.FindStringIndex(s)) {
			t.Fatalf("%q on %q: %v %v, want %v %v (branches %d)", expr, s, split.MatchString(s), split.FindStringIndex(s),
				plain.MatchString(s), plain.FindStringIndex(s), len(split.parse().branches))
		}
	})
}
