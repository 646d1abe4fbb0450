package rules

import (
	"fmt"
)

func checkDuplicateSheets(rv *review, r *Rule) []observation {
	first := map[string]*pageView{}
	var out []observation
	for _, pv := range rv.pages {
		if pv.Ident.Key == "" {
			continue
		}
		f, ok := first[pv.Ident.Key]
		if !ok {
			first[pv.Ident.Key] = pv
			continue
		}
		other := fmt.Sprintf("page %d", f.Page.Number)
		if f.FileID != pv.FileID {
			other = fmt.Sprintf("page %d of file %s", f.Page.Number, f.FileID)
		}
		out = append(out, observation{page: pv, words: pv.Ident.NumberWords,
			vars:     map[string]string{"number": pv.Ident.Number, "other": other},
			evidence: "duplicate " + pv.Ident.Key})
	}
	return out
}
