package chat

import (
	"planreview/textmatch"
	"strings"
	"unicode"
)

// askAbbrev is a question about what an abbreviation stands for.
var askAbbrev = textmatch.MustCompile(`(?i)^\s*what\s+(?:does|do|is)\s+(?:the\s+)?(?:abbreviation\s+)?["“']?([A-Za-z][A-Za-z0-9./&-]{0,11}?)["”']?\s+(?:stand\s+for|mean|abbreviate|short\s+for)\b`)

// answerAbbreviation finds the abbreviation in the plans' abbreviation
// lists: printed followed by its expansion, the words whose initials
// spell it ("A.F.F. ABOVE FINISHED FLOOR", "VIF VERIFY IN FIELD"). Words
// up to the next abbreviation (a word with a period) are taken when the
// initials do not spell it but the first letter agrees. ok is false when
// no page lists it.
func (ix *Index) answerAbbreviation(question string) (Answer, bool) {
	m := askAbbrev.FindStringSubmatch(question)
	if m == nil {
		return Answer{}, false
	}
	abbr := strings.ToUpper(m[1])
	letters := lettersOf(abbr)
	if len(letters) < 2 {
		return Answer{}, false
	}
	type found struct {
		pi      int
		excerpt string
		exp     string
		exact   bool
	}
	var best *found
	// Pages as word streams in reading order: a list's abbreviation and
	// its expansion are often lines of their own.
	for pi, text := range ix.pageTexts() {
		words := strings.Fields(text)
		for i, w := range words {
			if strings.ToUpper(w) != abbr && strings.ToUpper(strings.TrimRight(w, ".:")) != strings.TrimRight(abbr, ".:") {
				continue
			}
			exp, exact := expansion(words[i+1:], letters)
			if exp == "" || best != nil && (best.exact || !exact) {
				continue
			}
			best = &found{pi, w + " " + exp, exp, exact}
		}
	}
	if best == nil {
		return Answer{}, false
	}
	cit, ok := ix.cite(best.pi, best.excerpt)
	if !ok {
		return Answer{}, false
	}
	return Answer{Answer: capitalize(ix.sheetName(best.pi)) + " lists " + m[1] + " as “" + best.exp + "”.",
		Citations: []Citation{cit}, Source: "builtin"}, true
}

func lettersOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// expansion reads the words after an abbreviation: those whose initials
// spell its letters (exact), else the words up to the next abbreviation
// when the first agrees with its first letter.
func expansion(after []string, letters string) (string, bool) {
	if len(after) == 0 {
		return "", false
	}
	var initials strings.Builder
	var out []string
	for _, w := range after {
		if len(out) > 0 && strings.Contains(strings.TrimRight(w, ",;"), ".") || len(out) >= 6 {
			break
		}
		l := lettersOf(w)
		if l == "" {
			break
		}
		out = append(out, w)
		initials.WriteByte(l[0])
		if initials.String() == letters {
			return strings.Join(out, " "), true
		}
	}
	if lettersOf(after[0]) != "" && lettersOf(after[0])[0] == letters[0] && len(out) > 0 && !strings.Contains(out[0], ".") {
		return strings.Join(out, " "), false
	}
	return "", false
}
