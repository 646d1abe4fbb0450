package rules

func checkIndexUnlisted(rv *review, r *Rule) []observation {
	ips := rv.indexPages()
	if len(ips) == 0 {
		return nil
	}
	listed := map[string]bool{}
	for _, ip := range ips {
		for _, e := range ip.Index {
			listed[e.Key] = true
		}
	}
	// The sheet an index is printed on introduces the sheets it lists:
	// a cover that does not list itself leaves nothing unaccounted for.
	for _, ip := range ips {
		listed[ip.Ident.Key] = true
	}
	var out []observation
	reported := map[string]bool{}
	for _, pv := range rv.pages {
		if pv.Ident.Key == "" || listed[pv.Ident.Key] || reported[pv.Ident.Key] {
			continue
		}
		reported[pv.Ident.Key] = true
		out = append(out, observation{page: pv, words: pv.Ident.NumberWords,
			vars:     map[string]string{"number": pv.Ident.Number, "indexSheet": ips[0].sheetNumberOr()},
			evidence: "unlisted " + pv.Ident.Key})
	}
	return out
}
