package lazyregexp

import (
	"reflect"
	"regexp"
	"testing"
)

func TestMatchesAsRegexp(t *testing.T) {
	expr := `(?i)\b(SHEET|DWG)\s*(?P<num>[A-Z]\d+)`
	lazy, eager := New(expr), regexp.MustCompile(expr)
	for _, s := range []string{"see sheet A101 and dwg s2", "nothing here", "SHEET", "Dwg B7, SHEET C12"} {
		if lazy.MatchString(s) != eager.MatchString(s) ||
			!reflect.DeepEqual(lazy.FindAllStringSubmatchIndex(s, -1), eager.FindAllStringSubmatchIndex(s, -1)) ||
			lazy.ReplaceAllString(s, "<$num>") != eager.ReplaceAllString(s, "<$num>") {
			t.Errorf("%q: lazy and regexp differ", s)
		}
	}
	if lazy.String() != expr || lazy.SubexpIndex("num") != 2 || lazy.NumSubexp() != 2 {
		t.Errorf("String/SubexpIndex/NumSubexp differ from regexp's")
	}
}

func TestBadPatternPanicsInTests(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a bad pattern did not panic when declared in a test binary")
		}
	}()
	New(`(unclosed`)
}
