package rules

import (
	"strings"
	"unicode"

	"planreview/scan/model"
	"planreview/scan/sheets"
	"planreview/textmatch"
)

// The sheet index read against the set's titles: titles compared across
// their spellings, so that an index row contradicts a title block only
// when their words differ, not their abbreviations.
var (
	titleWordRe = textmatch.MustCompile(`[\pL\pN]+(?:\.[\pN]+)?`)
	// An explicit title caption: "Drawing Name:", "SHEET TITLE", "TITLE:".
	// A bare "Title" may be a row of the index itself.
	titleCaptionRe = textmatch.MustCompile(`(?i)\b(?:DRAWING|SHEET|DWG\.?)\s+(?:NAME|TITLE)\b|\bTITLE\s*:`)
)

// titleTokens are a title's words for comparison: upper case, without
// punctuation and the words that join ("AND", "&", "OF").
func titleTokens(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range titleWordRe.FindAllString(strings.ToUpper(s), -1) {
		switch t {
		case "AND", "OF", "THE", "A", "TO", "FOR":
			continue
		}
		out[t] = true
	}
	return out
}

// titleTerm is a word of a title as compared across its spellings:
// ordinals spelled out (1ST → FIRST), plurals singular, and whether it was
// printed as an abbreviation (a period after letters: "ELECT.", "INT.").
type titleTerm struct {
	word   string
	abbrev bool
}

var (
	titleTermRe = textmatch.MustCompile(`[\pL\pN]+(?:\.[\pN]+)?(\.)?`)
	ordinals    = map[string]string{"1ST": "FIRST", "2ND": "SECOND", "3RD": "THIRD", "4TH": "FOURTH", "5TH": "FIFTH", "6TH": "SIXTH"}
)

func titleTerms(s string) []titleTerm {
	var out []titleTerm
	seen := map[string]bool{}
	for _, m := range titleTermRe.FindAllStringSubmatch(strings.ToUpper(s), -1) {
		w := strings.TrimSuffix(m[0], ".")
		switch w {
		case "AND", "OF", "THE", "A", "TO", "FOR":
			continue
		}
		if o, ok := ordinals[w]; ok {
			w = o
		}
		if len(w) > 3 && strings.HasSuffix(w, "S") && !strings.HasSuffix(w, "SS") {
			w = strings.TrimSuffix(w, "S")
		}
		if seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, titleTerm{word: w, abbrev: m[1] != "" && model.HasWordOfLetters(w)})
	}
	return out
}

// abbreviates reports whether short is an abbreviation of long: the same
// first letter and its letters in order ("ELECT" of "ELECTRICAL", "FNDN"
// of "FOUNDATION", "ELEV" of "ELEVATION"). Without a period only a short
// word (at most 5 letters) against a longer one counts.
func abbreviates(short titleTerm, long string) bool {
	s := short.word
	if len(s) < 2 || len(s) >= len(long) || s[0] != long[0] || !short.abbrev && (len(s) > 5 || len(long) < len(s)+2) {
		return false
	}
	i := 0
	for j := 0; j < len(long) && i < len(s); j++ {
		if long[j] == s[i] {
			i++
		}
	}
	return i == len(s)
}

// sharedTerms counts the terms of a that b holds, spelled either way.
func sharedTerms(a, b []titleTerm) int {
	n := 0
	for _, x := range a {
		for _, y := range b {
			if x.word == y.word || abbreviates(x, y.word) || abbreviates(y, x.word) {
				n++
				break
			}
		}
	}
	return n
}

func subsetOf(a, b map[string]bool) bool {
	for t := range a {
		if !b[t] {
			return false
		}
	}
	return true
}

// captionTitle is the sheet's title when the title block printed it under
// a title caption ("Drawing Name:", "SHEET TITLE"): the only titles firm
// enough to contradict an index.
func (pv *pageView) captionTitle() string {
	if pv.Model == nil || pv.Model.SheetTitle == "" {
		return ""
	}
	for _, f := range pv.Model.Fields {
		if f.Kind == sheets.FieldTitle && titleCaptionRe.MatchString(f.Caption) && strings.Contains(strings.ToUpper(f.Value), strings.ToUpper(pv.Model.SheetTitle)) {
			return pv.Model.SheetTitle
		}
	}
	return ""
}

// checkIndexTitleMismatch reports an index row whose title contradicts the
// title block of the sheet it lists: neither title holds the other's words
// and they share fewer than half of them.
func checkIndexTitleMismatch(rv *review, r *Rule) []observation {
	present := rv.presentSheets()
	var out []observation
	for _, ip := range rv.indexPages() {
		for _, e := range ip.Index {
			pv, ok := present[e.Key]
			// A placeholder title is index_placeholder_title's finding.
			if !ok || e.Title == "" || model.IsPlaceholderTitle(e.Title) {
				continue
			}
			tb := pv.captionTitle()
			if tb == "" || listsTitle(ip.Index, e.Key, tb) {
				continue
			}
			// "CAL GREEN" and "CALGREEN", "T-24" and "T24": the same
			// letters and digits spaced or joined otherwise.
			if sa, sb := lettersAndDigits(e.Title), lettersAndDigits(tb); strings.Contains(sa, sb) || strings.Contains(sb, sa) {
				continue
			}
			a, b := titleTokens(e.Title), titleTokens(tb)
			if len(a) == 0 || len(b) == 0 || subsetOf(a, b) || subsetOf(b, a) {
				continue
			}
			// The same words written short or long ("ELECT. PLAN",
			// "1ST FLOOR PLAN", "INT. ELEVS.") are the same title.
			ta, tt := titleTerms(e.Title), titleTerms(tb)
			shared := sharedTerms(ta, tt)
			if shared == len(ta) || shared == len(tt) || 2*shared > len(ta)+len(tt)-shared {
				continue
			}
			// On the sheet whose title block the index contradicts, where
			// the correction is made.
			out = append(out, observation{page: pv, words: pv.Model.TitleWords,
				vars:     map[string]string{"listed": e.Number, "indexTitle": e.Title, "sheetTitle": tb, "indexSheet": ip.sheetNumberOr()},
				evidence: "index title " + e.Key + " " + strings.ToUpper(e.Title)})
		}
	}
	return out
}

// listsTitle reports whether a row of the index lists the key with the
// title (or part of it): a second row of the same number with another
// title is then index_duplicate_entry's finding, not a contradiction.
func listsTitle(index []model.IndexEntry, key, title string) bool {
	tb := titleTokens(title)
	for _, e := range index {
		if e.Key != key {
			continue
		}
		t := titleTokens(e.Title)
		if len(t) > 0 && (subsetOf(t, tb) || subsetOf(tb, t)) {
			return true
		}
	}
	return false
}

// lettersAndDigits is s in upper case without spaces or punctuation.
func lettersAndDigits(s string) string {
	var sb strings.Builder
	for _, r := range strings.ToUpper(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
