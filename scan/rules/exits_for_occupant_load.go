package rules

import (
	"strconv"

	"planreview/scan/model"
	"planreview/scan/units"
)

// requiredExits is the minimum number of exits for a story's occupant load
// (IBC 2021 Table 1006.3.3). Loads under 50 are not judged: a single exit may
// be allowed there (1006.3.4), which depends on facts the plans rarely state.
func requiredExits(load float64) int {
	switch {
	case load < 50:
		return 0
	case load <= 500:
		return 2
	case load <= 1000:
		return 3
	}
	return 4
}

// nearest returns the statement among hs on the same page closest (in lines)
// to h, within maxLines.
func nearest(h model.Statement, hs []model.Statement, maxLines int) (model.Statement, bool) {
	best, bestD := model.Statement{}, -1
	for _, o := range hs {
		if o.Sheet != h.Sheet {
			continue
		}
		d := o.Line - h.Line
		if d < 0 {
			d = -d
		}
		if d <= maxLines && (bestD < 0 || d < bestD) {
			best, bestD = o, d
		}
	}
	return best, bestD >= 0
}

func checkExits(rv *review, r *Rule) []observation {
	var out []observation
	for _, load := range rv.facts.OccupantLoads {
		need := requiredExits(load.Value)
		if need == 0 {
			continue
		}
		ex, ok := nearest(load, rv.facts.Exits, 12)
		if !ok || int(ex.Value) >= need {
			continue
		}
		out = append(out, observation{page: rv.view(load.Sheet), words: append(append([]int{}, load.Words...), ex.Words...),
			vars: map[string]string{"load": units.TrimFloat(load.Value, 0), "exits": units.TrimFloat(ex.Value, 0),
				"required": strconv.Itoa(need)},
			evidence: load.Text + "|" + ex.Text})
	}
	return out
}
