package rules

import (
	"fmt"
	"math"

	"planreview/scan/units"
)

// checkRiserUniformity reports a flight whose riser heights differ by more
// than the tolerance: a stated range ("RISERS 7" TO 7 3/4"") or a stated
// riser height that cannot be uniform with the stated total rise and count.
func checkRiserUniformity(rv *review, r *Rule) []observation {
	tol, err := units.ParseLength(r.Params["tolerance"])
	if err != nil {
		return nil
	}
	var out []observation
	for _, s := range rv.stairStatements() {
		if s.stated == 0 || !r.appliesToType(s.pv.Ident.Type) {
			continue
		}
		// n-1 risers at the stated height leave the last one to make up
		// the total: that riser differs from the others by n·|avg−stated|.
		diff := math.Abs(s.total - s.stated*float64(s.risers-1) - s.stated)
		if diff <= tol+1e-6 {
			continue
		}
		out = append(out, observation{page: s.pv, words: s.words,
			vars: map[string]string{"difference": units.FormatLength(diff), "tolerance": units.FormatLength(tol),
				"values": fmt.Sprintf("%d risers @ %s against a total rise of %s", s.risers, units.FormatLength(s.stated), units.FormatLength(s.total))},
			evidence: s.text})
	}
	for _, pv := range rv.pages {
		if !pv.Readable || !r.appliesToType(pv.Ident.Type) {
			continue
		}
		for li, l := range pv.Lines {
			for _, m := range pv.findAll(riserRangeRe, li) {
				a, err1 := units.ParseLength(l.Text[m[2]:m[3]])
				b, err2 := units.ParseLength(l.Text[m[4]:m[5]])
				if err1 != nil || err2 != nil {
					continue
				}
				diff := math.Abs(a - b)
				if diff <= tol+1e-6 {
					continue
				}
				text := l.Text[m[0]:m[1]]
				out = append(out, observation{page: pv, words: l.WordsInSpan(m[0], m[1]),
					vars: map[string]string{"difference": units.FormatLength(diff), "tolerance": units.FormatLength(tol),
						"values": fmt.Sprintf("risers from %s to %s", units.FormatLength(min(a, b)), units.FormatLength(max(a, b)))},
					evidence: text})
			}
		}
	}
	return out
}
