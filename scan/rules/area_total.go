package rules

import (
	"fmt"
	"math"
	"planreview/scan/units"
	"strings"
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
		if total.kind != FactArea || total.areaKind != AreaTotal || total.qualifier == "allowable" || total.listTotal {
			continue
		}
		var floors, others []projectFact
		levels := map[string]bool{}
		mixed, repeated := false, false
		for fi, f := range pd.facts {
			if groups[fi] != groups[ti] || f.kind != FactArea {
				continue
			}
			switch f.areaKind {
			case AreaOther, AreaRoom:
				// A garage, porch or bonus room the total may include.
				others = append(others, f)
				continue
			case AreaFloor:
			default:
				continue
			}
			if f.qualifier != total.qualifier {
				// Both stated (columns of existing and proposed): the
				// floors of the other column are not this total's. One
				// unstated: which floors the total adds up cannot be told.
				if f.qualifier == "" || total.qualifier == "" {
					mixed = true
				}
				continue
			}
			if levels[f.level] {
				repeated = true
			}
			levels[f.level] = true
			floors = append(floors, f)
		}
		if len(floors) < 2 {
			continue
		}
		if mixed || repeated {
			pd.unreadable(total.pv, "area total", fmt.Sprintf("page %d: floor areas of more than one building or state beside %q", total.pv.Page.Number, total.text))
			continue
		}
		// Every number among the floors and the total must have been read:
		// an area printed without a unit, or a label not understood, may
		// be part of the sum.
		if line, ok := unreadNumberAmong(pd, total, floors); ok {
			pd.unreadable(total.pv, "area total", fmt.Sprintf("page %d: %q among the areas of %q not read", total.pv.Page.Number, line, total.text))
			continue
		}
		all, above := 0.0, 0.0
		halves, aboveHalves := []float64{total.m.halfULP}, []float64{total.m.halfULP}
		var parts, aboveParts []string
		var words []int
		aboveCount := 0
		for _, f := range floors {
			all += f.m.canonical
			halves = append(halves, f.m.halfULP)
			parts = append(parts, f.label+" "+f.value)
			words = append(words, f.words()...)
			if f.level != "BASEMENT" {
				above += f.m.canonical
				aboveHalves = append(aboveHalves, f.m.halfULP)
				aboveParts = append(aboveParts, f.label+" "+f.value)
				aboveCount++
			}
		}
		type candidate struct {
			sum    float64
			halves []float64
			parts  []string
		}
		cands := []candidate{{above, aboveHalves, aboveParts}}
		if !total.aboveGrade {
			cands = append([]candidate{{all, halves, parts}}, cands...)
		}
		if total.aboveGrade && aboveCount < 2 {
			continue
		}
		// The total may also count any of the other areas beside it (a
		// garage, a porch, a bonus room): it agrees if some choice of them
		// makes the sum. More than eight: too many choices to tell.
		if len(others) > 8 {
			pd.unreadable(total.pv, "area total", fmt.Sprintf("page %d: %d other areas beside %q", total.pv.Page.Number, len(others), total.text))
			continue
		}
		agrees := false
		for _, c := range cands {
			for mask := 0; mask < 1<<len(others) && !agrees; mask++ {
				sum, hs := c.sum, append([]float64{}, c.halves...)
				for k, o := range others {
					if mask&(1<<k) != 0 {
						sum += o.m.canonical
						hs = append(hs, o.m.halfULP)
					}
				}
				agrees = math.Abs(sum-total.m.canonical) <= areaTolerance(sum, total.m.canonical, hs...)
			}
		}
		if agrees {
			continue
		}
		c := cands[0]
		out = append(out, observation{page: total.pv, words: total.words(),
			also: []evidenceRef{{page: total.pv, words: words}},
			vars: map[string]string{"total": formatArea(total), "totalLabel": total.label,
				"parts": strings.Join(c.parts, " + "), "sum": units.TrimFloat(c.sum, 2) + " sq ft",
				"difference": units.TrimFloat(math.Abs(c.sum-total.m.canonical), 2) + " sq ft"},
			evidence: "area total " + total.text})
	}
	// Area lists: the items against the total under them.
	for _, l := range pd.lists {
		sum := 0.0
		halves := []float64{l.total.m.halfULP}
		var words []int
		var parts []string
		for _, it := range l.items {
			sum += it.m.canonical
			halves = append(halves, it.m.halfULP)
			words = append(words, it.valueWords...)
			parts = append(parts, it.value)
		}
		if math.Abs(sum-l.total.m.canonical) <= areaTolerance(sum, l.total.m.canonical, halves...) {
			continue
		}
		out = append(out, observation{page: l.total.pv, words: l.total.valueWords,
			also: []evidenceRef{{page: l.total.pv, words: words}},
			vars: map[string]string{"total": formatArea(l.total), "totalLabel": "the total of the list " + l.total.label,
				"parts": strings.Join(parts, " + ") + " " + l.unit, "sum": units.TrimFloat(sum, 2) + " sq ft",
				"difference": units.TrimFloat(math.Abs(sum-l.total.m.canonical), 2) + " sq ft"},
			evidence: "area list total " + l.total.value})
	}
	return out
}

// unreadNumberAmong returns a line holding a number inside the box of the
// total and its floors that no fact read.
func unreadNumberAmong(pd *projectData, total projectFact, floors []projectFact) (string, bool) {
	if pd.claimed == nil {
		pd.claimed = map[*pageView]map[int]bool{}
	}
	claimed := pd.claimed[total.pv]
	if claimed == nil {
		claimed = map[int]bool{}
		for _, f := range pd.facts {
			if f.pv == total.pv {
				for _, w := range f.words() {
					claimed[w] = true
				}
			}
		}
		pd.claimed[total.pv] = claimed
	}
	box := total.box
	for _, f := range floors {
		box.X0, box.Y0 = min(box.X0, f.box.X0), min(box.Y0, f.box.Y0)
		box.X1, box.Y1 = max(box.X1, f.box.X1), max(box.Y1, f.box.Y1)
	}
	lp := total.pv.Layout()
	for _, l := range lp.Lines {
		cx, cy := (l.Box.X0+l.Box.X1)/2, (l.Box.Y0+l.Box.Y1)/2
		if !upright(l) || cx < box.X0 || cx > box.X1 || cy < box.Y0 || cy > box.Y1 || !strings.ContainsAny(l.Text, "0123456789") {
			continue
		}
		read := false
		for _, w := range l.Words {
			if claimed[w] {
				read = true
				break
			}
		}
		if !read {
			return l.Text, true
		}
	}
	return "", false
}

// factGroups gives each fact of a page the number of its block of
// project data: facts whose boxes are stacked or side by side with less
// than three text heights of white between them, chained.
func factGroups(facts []projectFact) map[int]int {
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
			if facts[i].pv == facts[j].pv && adjacent(facts[i], facts[j]) {
				uf[find(i)] = find(j)
			}
		}
	}
	for i := range facts {
		group[i] = find(i)
	}
	return group
}

func adjacent(a, b projectFact) bool {
	size := max(a.box.Y1-a.box.Y0, b.box.Y1-b.box.Y0, 1)
	vgap := max(a.box.Y0, b.box.Y0) - min(a.box.Y1, b.box.Y1)
	hgap := max(a.box.X0, b.box.X0) - min(a.box.X1, b.box.X1)
	return vgap < 3*size && hgap < 3*size
}
