package rules

import (
	"strconv"
)

// checkScheduleMarkRepeated reports a mark a door or window schedule lists
// twice: two openings share one mark, so a tag on the plans cannot say
// which one it is. When most marks appear twice, the sheet draws the
// openings beside the table (elevations tagged with the same marks) and
// nothing is reported.
func checkScheduleMarkRepeated(rv *review, r *Rule) []observation {
	sched, _, ok := rv.openingTags()
	if !ok {
		return nil
	}
	perPage := map[*pageView]map[string][]tagHit{}
	for m, hs := range sched {
		for _, h := range hs {
			if perPage[h.pv] == nil {
				perPage[h.pv] = map[string][]tagHit{}
			}
			perPage[h.pv][m] = append(perPage[h.pv][m], h)
		}
	}
	var out []observation
	for _, pv := range rv.pages {
		marks := perPage[pv]
		if marks == nil {
			continue
		}
		var repeated []string
		for _, m := range sortedTagKeys(marks) {
			if len(marks[m]) >= 2 {
				repeated = append(repeated, m)
			}
		}
		if len(repeated) == 0 || 3*len(repeated) > len(marks) {
			continue
		}
		for _, m := range repeated {
			h := marks[m][1]
			out = append(out, observation{page: pv, words: h.words,
				vars:     map[string]string{"tag": m, "count": strconv.Itoa(len(marks[m]))},
				evidence: "repeated " + m})
		}
	}
	return out
}
