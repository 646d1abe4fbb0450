package rules

// checkScheduleMarkNotOnPlans reports a schedule mark no floor plan shows.
// A mark tagged on another drawing of the set (a clerestory window on an
// elevation, a skylight on the roof plan, an opening in an enlarged plan
// or section) is shown where it is: not a finding.
func checkScheduleMarkNotOnPlans(rv *review, r *Rule) []observation {
	sched, plans, ok := rv.openingTags()
	if !ok {
		return nil
	}
	present := rv.presentSheets()
	elsewhere := map[string]bool{}
	for _, pv := range rv.pages {
		if !pv.Readable || pv.IsOpeningSchedule() {
			continue
		}
		for _, h := range pv.marks(present) {
			elsewhere[h.mark] = true
		}
	}
	var out []observation
	for _, m := range sortedTagKeys(sched) {
		if _, shown := plans[m]; shown || elsewhere[m] {
			continue
		}
		h := sched[m][0]
		out = append(out, observation{page: h.pv, words: h.words,
			vars:     map[string]string{"tag": m},
			evidence: "mark " + m})
	}
	return out
}
