package rules

import (
	"strconv"

	"planreview/scan/model"
)

// stampKey names a stamp of the set for one rule: its text and place
// (model.StampPlace); the same stamp at the same place on many sheets is
// one stamp on the set.
type stampKey struct {
	rule  string
	place model.StampPlace
}

// matchStamps runs a rule that fires on every match ("PRELIMINARY", "NOT
// FOR CONSTRUCTION") over the page's stamps. A stamp repeated at the same
// place on later sheets is the set's one stamp, reported once: on the
// first sheet that carries it, with the count of sheets.
func (rv *review) matchStamps(pv *pageView, r *Rule) []observation {
	var out []observation
	for _, s := range pv.Stamps() {
		m := r.Pattern.Regexp().FindStringIndex(s.Text)
		if m == nil || r.Unless != nil && r.Unless.Regexp().MatchString(s.Text) {
			continue
		}
		k := stampKey{rule: r.ID, place: s.Place}
		if rv.stampSheets == nil {
			rv.stampSheets = map[stampKey]map[string]string{}
		}
		if first, ok := rv.stampSheets[k]; ok {
			n, _ := strconv.Atoi(first["sheets"])
			first["sheets"] = strconv.Itoa(n + 1)
			continue
		}
		vars := map[string]string{"text": s.Text[m[0]:m[1]], "sheets": "1"}
		rv.stampSheets[k] = vars
		out = append(out, observation{page: pv, words: s.Words, vars: vars, evidence: "stamp " + s.Text})
	}
	return out
}
