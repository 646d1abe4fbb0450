package rules

// checkTagNotInSchedule reports a tag on a floor plan that its schedule
// does not list, once per tag and sheet.
func checkTagNotInSchedule(rv *review, r *Rule) []observation {
	sched, plans, ok := rv.openingTags()
	if !ok {
		return nil
	}
	schedSheet := ""
	for _, hs := range sched {
		schedSheet = hs[0].pv.sheetNumberOr()
		break
	}
	var out []observation
	for _, m := range sortedTagKeys(plans) {
		if _, listed := sched[m]; listed {
			continue
		}
		seen := map[*pageView]bool{}
		for _, h := range plans[m] {
			if seen[h.pv] {
				continue
			}
			seen[h.pv] = true
			out = append(out, observation{page: h.pv, words: h.words,
				vars:     map[string]string{"tag": m, "schedule": schedSheet},
				evidence: "tag " + m})
		}
	}
	return out
}
