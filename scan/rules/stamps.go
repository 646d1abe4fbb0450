package rules

import (
	"math"
	"strconv"
	"strings"

	"planreview/scan/layout"
)

// A stamp is text laid over the drawing: large type over other text or
// type at an odd angle (layout.LayerOverlay). Its glyphs often extract as
// fragments ("PR" "EL" "IM" …); the layout puts them back together along
// their angle and baseline, so a stamp is read from the layout's runs, not
// from the page's text lines.
type stamp struct {
	text  string
	words []int
	box   layout.Box
}

// stamps are the page's overlay runs whose text the page's lines do not
// already hold, found on first use.
func (pv *pageView) stamps() []stamp {
	if pv.stampsRead {
		return pv.stampRuns
	}
	pv.stampsRead = true
	lp := pv.layoutPage()
	read := map[string]bool{}
	for _, l := range pv.lines {
		read[compactText(l.Text)] = true
	}
	for _, r := range lp.Runs {
		if r.Layer != layout.LayerOverlay {
			continue
		}
		text := strings.Join(strings.Fields(r.Text), " ")
		if len(text) < 3 || read[compactText(text)] {
			continue
		}
		pv.stampRuns = append(pv.stampRuns, stamp{text: text, words: r.Words, box: r.Box})
	}
	return pv.stampRuns
}

func compactText(s string) string { return strings.ToUpper(strings.Join(strings.Fields(s), "")) }

// stampKey names a stamp by its text and its place on the sheet (in
// tenths of the page): the same stamp at the same place on many sheets is
// one stamp on the set.
type stampKey struct {
	rule, text string
	x, y       int
}

func (pv *pageView) keyOf(r *Rule, s stamp) stampKey {
	w, h := max(pv.page.Width, 1), max(pv.page.Height, 1)
	return stampKey{rule: r.ID, text: compactText(s.text),
		x: int(math.Round(10 * (s.box.X0 + s.box.X1) / 2 / w)), y: int(math.Round(10 * (s.box.Y0 + s.box.Y1) / 2 / h))}
}

// matchStamps runs a rule that fires on every match ("PRELIMINARY", "NOT
// FOR CONSTRUCTION") over the page's stamps. A stamp repeated at the same
// place on later sheets is the set's one stamp, reported once: on the
// first sheet that carries it, with the count of sheets.
func (rv *review) matchStamps(pv *pageView, r *Rule) []observation {
	var out []observation
	for _, s := range pv.stamps() {
		m := r.Pattern.Regexp.FindStringIndex(s.text)
		if m == nil || r.Unless != nil && r.Unless.Regexp.MatchString(s.text) {
			continue
		}
		k := pv.keyOf(r, s)
		if rv.stampSheets == nil {
			rv.stampSheets = map[stampKey]map[string]string{}
		}
		if first, ok := rv.stampSheets[k]; ok {
			n, _ := strconv.Atoi(first["sheets"])
			first["sheets"] = strconv.Itoa(n + 1)
			continue
		}
		vars := map[string]string{"text": s.text[m[0]:m[1]], "sheets": "1"}
		rv.stampSheets[k] = vars
		out = append(out, observation{page: pv, words: s.words, vars: vars, evidence: "stamp " + s.text})
	}
	return out
}
