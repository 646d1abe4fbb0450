package rules

// indexPages returns the pages carrying a sheet index.
func (rv *review) indexPages() []*pageView {
	var out []*pageView
	for _, pv := range rv.pages {
		if len(pv.Index) > 0 {
			out = append(out, pv)
		}
	}
	return out
}

func (rv *review) presentSheets() map[string]*pageView {
	present := map[string]*pageView{}
	for _, pv := range rv.pages {
		if pv.Ident.Key != "" {
			if _, ok := present[pv.Ident.Key]; !ok {
				present[pv.Ident.Key] = pv
			}
		}
	}
	return present
}

func checkIndexMissing(rv *review, r *Rule) []observation {
	present := rv.presentSheets()
	var out []observation
	// Sets that repeat the index on several sheets report a missing sheet
	// once, on the first index.
	reported := map[string]bool{}
	for _, ip := range rv.indexPages() {
		for _, e := range ip.Index {
			// A number the index marks reserved is kept free on purpose;
			// a sheet it marks by others or separate is submitted apart.
			if _, ok := present[e.Key]; ok || reported[e.Key] || notExpected(e) {
				continue
			}
			reported[e.Key] = true
			// A page whose number was not read may be the sheet: the
			// coverage finding says so instead (indexUndecided).
			if len(rv.unnumberedCandidates(ip, e)) > 0 {
				continue
			}
			out = append(out, observation{page: ip, words: e.Words,
				vars:     map[string]string{"listed": e.Number, "listedTitle": e.Title, "indexSheet": ip.sheetNumberOr()},
				evidence: "missing " + e.Key})
		}
	}
	return out
}
