package textmatch

import (
	"regexp"
	"testing"
)

// setExprs mix literal-bearing patterns, one with no prefilter, one-byte and
// shared-prefix literals, and case folding with K and S.
var setExprs = []string{
	`(?i)\bRISERS?\b`, `(?i)\b(\d+)\s+RISERS?\s*@`, `HEADROOM|HEAD\s+ROOM`, `(?i)skid|class`,
	`\bIBC\b|\bIRC\b`, `.*`, `(?i)\b(?:[A-Z]{1,2}-?\d{1,3})\b`, `x|y`, `(?i)RISE|RI`,
}

var setLines = []string{
	"", "r", "14 RISERS @ 7 3/4\"", "risers", "HEAD ROOM 6'-8\"", "headroom", "SKID", "\u212aILN \u017fKID",
	"CLA\u017f\u017f", "2021 IBC", "ibc", "r\u00e9sum\u00e9 RISER", "x", "Y", "ri", "A-101", "é",
}

// TestSetAgreesWithMayMatch: a member's MayMatch through a Set gives the
// same answer as its own prefilter, and never rules out a real match.
func TestSetAgreesWithMayMatch(t *testing.T) {
	set := NewSet()
	var members []*Regexp
	for _, expr := range setExprs {
		members = append(members, set.MustCompile(expr))
	}
	present := set.ScanAll(setLines)
	for i, r := range members {
		plain := regexp.MustCompile(setExprs[i])
		for j, s := range setLines {
			got := r.MayMatch(s, present[j])
			if got != r.mayMatch(s) {
				t.Errorf("%s on %q: set says %v, own prefilter %v", setExprs[i], s, got, r.mayMatch(s))
			}
			if !got && plain.MatchString(s) {
				t.Errorf("%s on %q: ruled out a match", setExprs[i], s)
			}
		}
	}
}

// TestSetMemberAfterScan: a member compiled after a scan, or a Present of
// another Set, falls back to the member's own prefilter.
func TestSetMemberAfterScan(t *testing.T) {
	set, other := NewSet(), NewSet()
	set.MustCompile(`STAIR`)
	p := set.Scan("GUARD HEIGHT")
	late := set.MustCompile(`GUARD`)
	if !late.MayMatch("GUARD HEIGHT", p) {
		t.Fatal("member compiled after the scan was ruled out")
	}
	if late.MayMatch("STAIR", set.Scan("STAIR")) {
		t.Fatal("GUARD may match STAIR")
	}
	foreign := other.MustCompile(`HEIGHT`)
	if !foreign.MayMatch("GUARD HEIGHT", p) || foreign.MayMatch("GUARD", set.Scan("GUARD")) {
		t.Fatal("another set's member did not use its own prefilter")
	}
}

func FuzzSetMayMatch(f *testing.F) {
	f.Add(`(?i)\bRISERS?\b`, "14 RISERS @ 7 3/4\"")
	f.Add(`(?i)s+k`, "\u017f\u212a")
	f.Add(`a|ab|abc`, "xab")
	f.Fuzz(func(t *testing.T, expr, s string) {
		plain, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		set := NewSet()
		for _, e := range setExprs {
			set.MustCompile(e)
		}
		r := set.MustCompile(expr)
		got := r.MayMatch(s, set.Scan(s))
		if got != r.mayMatch(s) || (!got && plain.MatchString(s)) {
			t.Fatalf("%q on %q: MayMatch %v, own prefilter %v, regexp %v", expr, s, got, r.mayMatch(s), plain.MatchString(s))
		}
	})
}

// TestUnionRulesOutOnlyWhatEveryTextRulesOut: MayMatchAny on the Union of
// some texts is false only when MayMatch is false on each of them.
func TestUnionRulesOutOnlyWhatEveryTextRulesOut(t *testing.T) {
	set := NewSet()
	var members []*Regexp
	for _, expr := range setExprs {
		members = append(members, set.MustCompile(expr))
	}
	present := set.ScanAll(setLines)
	for start := range setLines {
		for end := start; end <= len(setLines); end++ {
			u := Union(present[start:end])
			for _, r := range members {
				if r.MayMatchAny(u) {
					continue
				}
				for j := start; j < end; j++ {
					if r.MayMatch(setLines[j], present[j]) {
						t.Errorf("%s: ruled out on lines %d-%d, but may match %q", r, start, end, setLines[j])
					}
				}
			}
		}
	}
	// Possible agrees with MayMatchAny member by member.
	for start := range setLines {
		u := Union(present[start:])
		poss := set.Possible(u)
		for _, r := range members {
			if r.PossibleIn(poss) != r.MayMatchAny(u) {
				t.Errorf("%s on lines %d-: PossibleIn %v, MayMatchAny %v", r, start, r.PossibleIn(poss), r.MayMatchAny(u))
			}
		}
	}
	poss := set.Possible(Union(present))
	late := set.MustCompile(`GUARD`)
	if !late.PossibleIn(poss) {
		t.Error("a member compiled after Possible was ruled out")
	}
	if !late.MayMatchAny(Union(present)) {
		t.Error("a member compiled after the scan was ruled out")
	}
	if !members[0].MayMatchAny(Union(append(present[:1:1], NewSet().Scan("x")))) {
		t.Error("a union across sets ruled a member out")
	}
}
