package rules

import (
	"fmt"
	"math"
	"strings"

	"planreview/scan/model"
	"planreview/scan/units"
)

// checkAreaTotal reports a stated total area that is not the sum of the
// floor areas stated with it (same block of project data): the
// total of all floors, of the floors above grade, or of the floors other
// than a basement must match it, whichever the label allows.
func checkAreaTotal(rv *review, r *Rule) []observation {
	pd := rv.projectData()
	var out []observation
	groups := factGroups(pd.facts)
	for ti, total := range pd.facts {
		if total.Kind != model.FactArea || total.AreaKind != model.AreaTotal || total.Qualifier == "allowable" || total.ListTotal {
			continue
		}
		var floors, others []model.ProjectFact
		levels := map[string]bool{}
		mixed, repeated := false, false
		for fi, f := range pd.facts {
			if groups[fi] != groups[ti] || f.Kind != model.FactArea {
				continue
			}
			switch f.AreaKind {
			case model.AreaOther, model.AreaRoom:
				// A garage, porch or bonus room the total may include.
				others = append(others, f)
				continue
			case model.AreaFloor:
			default:
				continue
			}
			if f.Qualifier != total.Qualifier {
				// Both stated (columns of existing and proposed): the
				// floors of the other column are not this total's. One
				// unstated: which floors the total adds up cannot be told.
				if f.Qualifier == "" || total.Qualifier == "" {
					mixed = true
				}
				continue
			}
			if levels[f.Level] {
				repeated = true
			}
			levels[f.Level] = true
			floors = append(floors, f)
		}
		if len(floors) < 2 {
			continue
		}
		if mixed || repeated {
			pd.unreadable(rv.view(total.Sheet), "area total", fmt.Sprintf("page %d: floor areas of more than one building or state beside %q", total.Sheet.Page.Number, total.Text))
			continue
		}
		// Every number among the floors and the total must have been read:
		// an area printed without a unit, or a label not understood, may
		// be part of the sum.
		if line, ok := unreadNumberAmong(total, floors); ok {
			pd.unreadable(rv.view(total.Sheet), "area total", fmt.Sprintf("page %d: %q among the areas of %q not read", total.Sheet.Page.Number, line, total.Text))
			continue
		}
		all, above := 0.0, 0.0
		halves, aboveHalves := []float64{total.Measure.HalfULP}, []float64{total.Measure.HalfULP}
		var parts, aboveParts []string
		var words []int
		aboveCount := 0
		for _, f := range floors {
			all += f.Measure.Canonical
			halves = append(halves, f.Measure.HalfULP)
			parts = append(parts, f.Label+" "+f.Value)
			words = append(words, f.Words()...)
			if f.Level != "BASEMENT" {
				above += f.Measure.Canonical
				aboveHalves = append(aboveHalves, f.Measure.HalfULP)
				aboveParts = append(aboveParts, f.Label+" "+f.Value)
				aboveCount++
			}
		}
		type candidate struct {
			sum    float64
			halves []float64
			parts  []string
		}
		cands := []candidate{{above, aboveHalves, aboveParts}}
		if !total.AboveGrade {
			cands = append([]candidate{{all, halves, parts}}, cands...)
		}
		if total.AboveGrade && aboveCount < 2 {
			continue
		}
		// The total may also count any of the other areas beside it (a
		// garage, a porch, a bonus room): it agrees if some choice of them
		// makes the sum. More than eight: too many choices to tell.
		if len(others) > 8 {
			pd.unreadable(rv.view(total.Sheet), "area total", fmt.Sprintf("page %d: %d other areas beside %q", total.Sheet.Page.Number, len(others), total.Text))
			continue
		}
		agrees := false
		for _, c := range cands {
			for mask := 0; mask < 1<<len(others) && !agrees; mask++ {
				sum, hs := c.sum, append([]float64{}, c.halves...)
				for k, o := range others {
					if mask&(1<<k) != 0 {
						sum += o.Measure.Canonical
						hs = append(hs, o.Measure.HalfULP)
					}
				}
				agrees = math.Abs(sum-total.Measure.Canonical) <= areaTolerance(sum, total.Measure.Canonical, hs...)
			}
		}
		if agrees {
			continue
		}
		c := cands[0]
		out = append(out, observation{page: rv.view(total.Sheet), words: total.Words(),
			also: []evidenceRef{{page: rv.view(total.Sheet), words: words}},
			vars: map[string]string{"total": formatArea(total), "totalLabel": total.Label,
				"parts": strings.Join(c.parts, " + "), "sum": units.TrimFloat(c.sum, 2) + " sq ft",
				"difference": units.TrimFloat(math.Abs(c.sum-total.Measure.Canonical), 2) + " sq ft"},
			evidence: "area total " + total.Text})
	}
	// Area lists: the items against the total under them.
	for _, l := range pd.lists {
		sum := 0.0
		halves := []float64{l.Total.Measure.HalfULP}
		var words []int
		var parts []string
		for _, it := range l.Items {
			sum += it.Measure.Canonical
			halves = append(halves, it.Measure.HalfULP)
			words = append(words, it.ValueWords...)
			parts = append(parts, it.Value)
		}
		if math.Abs(sum-l.Total.Measure.Canonical) <= areaTolerance(sum, l.Total.Measure.Canonical, halves...) {
			continue
		}
		out = append(out, observation{page: rv.view(l.Total.Sheet), words: l.Total.ValueWords,
			also: []evidenceRef{{page: rv.view(l.Total.Sheet), words: words}},
			vars: map[string]string{"total": formatArea(l.Total), "totalLabel": "the total of the list " + l.Total.Label,
				"parts": strings.Join(parts, " + ") + " " + l.Unit, "sum": units.TrimFloat(sum, 2) + " sq ft",
				"difference": units.TrimFloat(math.Abs(sum-l.Total.Measure.Canonical), 2) + " sq ft"},
			evidence: "area list total " + l.Total.Value})
	}
	return out
}

// unreadNumberAmong returns a line holding a number inside the box of the
// total and its floors that no fact read.
func unreadNumberAmong(total model.ProjectFact, floors []model.ProjectFact) (string, bool) {
	box := total.Box
	for _, f := range floors {
		box.X0, box.Y0 = min(box.X0, f.Box.X0), min(box.Y0, f.Box.Y0)
		box.X1, box.Y1 = max(box.X1, f.Box.X1), max(box.Y1, f.Box.Y1)
	}
	return total.Sheet.UnreadNumberIn(box)
}

// factGroups gives each fact of a page the number of its block of
// project data: facts whose boxes are stacked or side by side with less
// than three text heights of white between them, chained.
func factGroups(facts []model.ProjectFact) map[int]int {
	group := make(map[int]int, len(facts))
	uf := make([]int, len(facts))
	for i := range uf {
		uf[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for uf[i] != i {
			uf[i] = uf[uf[i]]
			i = uf[i]
		}
		return i
	}
	for i := range facts {
		for j := i + 1; j < len(facts); j++ {
			if facts[i].Sheet == facts[j].Sheet && adjacent(facts[i], facts[j]) {
				uf[find(i)] = find(j)
			}
		}
	}
	for i := range facts {
		group[i] = find(i)
	}
	return group
}

func adjacent(a, b model.ProjectFact) bool {
	size := max(a.Box.Y1-a.Box.Y0, b.Box.Y1-b.Box.Y0, 1)
	vgap := max(a.Box.Y0, b.Box.Y0) - min(a.Box.Y1, b.Box.Y1)
	hgap := max(a.Box.X0, b.Box.X0) - min(a.Box.X1, b.Box.X1)
	return vgap < 3*size && hgap < 3*size
}
