package textmatch

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestRequiredLiterals(t *testing.T) {
	cases := []struct {
		expr string
		want []string
	}{
		{`(?i)\bRISERS?\b`, []string{"RISER"}},
		{`(?i)\b(\d+)\s+RISERS\s*@\s*(.+)$`, []string{"RISERS"}},
		{`HEADROOM|HEAD\s+ROOM`, []string{"HEAD"}}, // the parser factors out HEAD
		{`(?i)guard(rail)?`, []string{"GUARD"}},
		{`\d+'-\d+"`, []string{"'-"}},
		{`(?i)\b(?:OCCUPANCY|GROUP)\s*:?\s*([A-Z]-?\d?)`, []string{"OCCUPANCY", "GROUP"}},
		{`.*`, nil},
		{`a?b*`, nil},
		{`(?i)(x|.)`, nil}, // one branch needs nothing
		{`é+`, nil},        // non-ASCII: no filter
		{`(ab){2,3}`, []string{"AB"}},
	}
	for _, tc := range cases {
		got := MustCompile(tc.expr).Required()
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: required %q, want %q", tc.expr, got, tc.want)
		}
	}
}

// TestSameMatchesAsRegexp: on real plan text and tricky strings, every
// method finds exactly what the plain regexp finds.
func TestSameMatchesAsRegexp(t *testing.T) {
	exprs := []string{
		`(?i)\bRISERS?\b`, `(?i)\b(\d+)\s+RISERS?\s*@\s*(\d+(?:\s*\d/\d+)?)"?`, `HEADROOM|HEAD\s+ROOM`,
		`(?i)\bSCALE\s*(?::\s*)?([^:\s].*)$|\b\d+(?:/\d+)?"\s*=\s*1'\s*-?\s*0"|\bAS\s+NOTED\b|\bN\.?T\.?S\b\.?`,
		`(?i)\b(?:[A-Z]{1,2}-?\d{1,3}(?:\.\d{1,2})?)\b`, `(?i)skid`, `(?i)class`, `\bIBC\b|\bIRC\b`,
	}
	lines := []string{"", "14 RISERS @ 7 3/4\"", "14 risers @ 7-3/4 IN", "HEAD ROOM 6'-8\"", "HEADROOM", "SCALE: 1/4\" = 1'-0\"",
		"AS NOTED", "N.T.S.", "A-101", "sheet a1.1", "SKID", "\u212aILN SKID", "CLAS\u017f", "2021 IBC", "ibc", "r\u00e9sum\u00e9 RISER"}
	if data, err := os.ReadFile(filepath.Join("..", "..", "shared", "corpus", "README.md")); err == nil {
		lines = append(lines, strings.Split(string(data), "\n")...)
	}
	for _, expr := range exprs {
		fast, plain := MustCompile(expr), regexp.MustCompile(expr)
		for _, s := range lines {
			if got, want := fast.FindAllStringSubmatchIndex(s, -1), plain.FindAllStringSubmatchIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%s on %q: %v, want %v", expr, s, got, want)
			}
			if fast.MatchString(s) != plain.MatchString(s) || !slices.Equal(fast.FindStringIndex(s), plain.FindStringIndex(s)) ||
				fast.FindString(s) != plain.FindString(s) || fast.Match([]byte(s)) != plain.Match([]byte(s)) {
				t.Errorf("%s on %q: MatchString/FindStringIndex/FindString/Match differ", expr, s)
			}
			if fast.ReplaceAllString(s, "<$1>") != plain.ReplaceAllString(s, "<$1>") ||
				fast.ReplaceAllLiteralString(s, "$1") != plain.ReplaceAllLiteralString(s, "$1") ||
				fast.ReplaceAllStringFunc(s, strings.ToLower) != plain.ReplaceAllStringFunc(s, strings.ToLower) {
				t.Errorf("%s on %q: a ReplaceAll method differs", expr, s)
			}
		}
	}
}

func FuzzSameMatchesAsRegexp(f *testing.F) {
	f.Add(`(?i)\bRISERS?\b`, "14 RISERS @ 7 3/4\"")
	f.Add(`HEAD(ROOM)?|CLEAR`, "head room")
	f.Add(`(?i)s+k`, "\u017f\u212a")
	f.Fuzz(func(t *testing.T, expr, s string) {
		plain, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		fast := MustCompile(expr)
		if got, want := fast.FindAllStringSubmatchIndex(s, -1), plain.FindAllStringSubmatchIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%q on %q: %v, want %v (required %q)", expr, s, got, want, fast.Required())
		}
		if got, want := fast.ReplaceAllString(s, "<$0>"), plain.ReplaceAllString(s, "<$0>"); got != want {
			t.Fatalf("%q on %q: replaced %q, want %q", expr, s, got, want)
		}
	})
}

func TestSubexpFromParseAsRegexp(t *testing.T) {
	for _, expr := range []string{`(?i)(?P<value>\d+)\s*(FT|IN)`, `plain`, `(a)(?:b)(?P<c>c)`} {
		r, re := MustCompile(expr), regexp.MustCompile(expr)
		if !slices.Equal(r.SubexpNames(), re.SubexpNames()) || r.NumSubexp() != re.NumSubexp() ||
			r.SubexpIndex("value") != re.SubexpIndex("value") || r.SubexpIndex("c") != re.SubexpIndex("c") || r.String() != expr {
			t.Errorf("%s: names, count or String differ from regexp's", expr)
		}
	}
	if _, err := Compile(`(bad`); err == nil {
		t.Error("a bad pattern compiled")
	}
}

func TestMustCompileFuncBuildsTheExpressionOnce(t *testing.T) {
	calls := 0
	r := MustCompileFunc(func() string { calls++; return `(?i)\bRISERS?\b` })
	if !r.MatchString("14 risers") || r.MatchString("riserless") || r.String() != `(?i)\bRISERS?\b` {
		t.Error("a pattern built by a function does not match as its expression")
	}
	if calls != 1 {
		t.Errorf("expression built %d times, want once", calls)
	}
}

// AnyOf may match exactly where one of its patterns' prefilters may; with
// a pattern that has no literal, everywhere.
func TestAnyOfIsTheUnionOfPrefilters(t *testing.T) {
	a, b := MustCompile(`(?i)\bRISERS?\b`), MustCompile(`^OWNER(?:'?S)?$`)
	union := AnyOf(a, b)
	for _, s := range []string{"14 risers", "OWNER'S", "owner", "TREAD", "", "\u212aILN"} {
		if got, want := union.MayMatch(s), a.mayMatch(s) || b.mayMatch(s); got != want {
			t.Errorf("%q: AnyOf %v, patterns %v", s, got, want)
		}
	}
	if all := AnyOf(a, MustCompile(`\d+`)); !all.MayMatch("TREAD") || len(all.Required()) != 0 {
		t.Error("a pattern without literals did not lift the filter")
	}
}

// TestTabledParseAsParsed: a pattern's parse read from the prefilter
// table is the one a fresh parse gives, for every entry.
func TestTabledParseAsParsed(t *testing.T) {
	for _, e := range prefilterTable {
		tabled, ok := tabledParse(e.expr, e.minSplit)
		if !ok {
			t.Fatalf("%s: not found in the table", e.expr)
		}
		fresh, err := parseAfresh(e.expr, e.minSplit)
		if err != nil {
			t.Fatalf("%s: %v", e.expr, err)
		}
		if !slices.Equal(tabled.names, fresh.names) || !slices.Equal(tabled.need, fresh.need) || tabled.foldsKS != fresh.foldsKS ||
			len(tabled.branches) != len(fresh.branches) || tabled.byFirst == nil != (fresh.byFirst == nil) {
			t.Errorf("%s: tabled parse differs from a fresh one", e.expr)
			continue
		}
		for i := range tabled.branches {
			if tabled.branches[i].expr() != fresh.branches[i].expr() {
				t.Errorf("%s: branch %d differs", e.expr, i)
			}
		}
	}
}
