package sheets

import (
	"regexp"
	"testing"
)

// hasTitleWord is the expression `\pL{2,}` read rune by rune: it must say
// what the expression says.
func TestHasTitleWordIsLetterRun(t *testing.T) {
	re := regexp.MustCompile(`\pL{2,}`)
	for _, s := range []string{"", "A", "AB", "A1B", "1 2", "A B", "ÉT", "É1", "日本", "a\xffb", "\xff\xfe", "Ab-", "-ab", "ǅa", "A\u0301B", "ΩΩ", "Ⅻ", "x²y", "'A'", "A.B."} {
		if got, want := hasTitleWord(s), re.MatchString(s); got != want {
			t.Errorf("hasTitleWord(%q) = %v, the expression says %v", s, got, want)
		}
	}
}

func FuzzHasTitleWord(f *testing.F) {
	re := regexp.MustCompile(`\pL{2,}`)
	f.Add("AB")
	f.Add("É1")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := hasTitleWord(s), re.MatchString(s); got != want {
			t.Errorf("hasTitleWord(%q) = %v, the expression says %v", s, got, want)
		}
	})
}
