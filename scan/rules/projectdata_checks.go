package rules

import (
	"fmt"
	"math"
	"planreview/lazyregexp"
	"planreview/scan/units"
	"sort"
	"strconv"
	"strings"
)

// Project data against itself and against the drawings: a stated total
// against the floor areas stated with it, a level's stated area against
// the area its own plan states, the stated number of stories against the
// levels the set draws. Each finding carries both values and anchors on
// both statements. Precision first: when a side cannot be read without
// doubt, the check says nothing and records why (projectData.unread).
//
// Tolerance: two areas agree when they differ by no more than the
// rounding of both printed values (half the last printed digit of each,
// in square feet after conversion) plus 0.5% of the larger and at least
// 1 sq ft: areas are routinely rounded to the whole foot or the tenth of
// a metre per floor and summed before rounding.

// areaTolerance is how far two areas (square feet) may differ.
func areaTolerance(a, b float64, halves ...float64) float64 {
	t := 0.0
	for _, h := range halves {
		t += h
	}
	return t + max(0.005*max(a, b), 1)
}

// projectData returns the review's project facts, read once.
func (rv *review) projectData() *projectData {
	if rv.project == nil {
		rv.project = readProjectData(rv.pages)
	}
	return rv.project
}

// unreadable records why a check could not compare (for the coverage
// outcome that reports what could not be read).
func (pd *projectData) unreadable(pv *pageView, check, reason string) {
	file := -1
	if pv != nil {
		file = pv.FileIndex
	}
	pd.unread = append(pd.unread, unreadProjectData{file: file, reason: check + " (" + reason + ")"})
}

// formatArea writes an area as printed, with square feet when the
// printed unit is metric.
func formatArea(f projectFact) string {
	s := f.value
	if f.m.unit == "m²" {
		s += " (" + units.TrimFloat(f.m.canonical, 1) + " sq ft)"
	}
	return s
}

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

// Floor plans and the levels they draw.
var (
	planLevelRe = lazyregexp.New(`(?i)\b(BASEMENT|CELLAR|GROUND|MAIN|UPPER|LOWER|FIRST|SECOND|THIRD|FOURTH|FIFTH|1ST|2ND|3RD|4TH|5TH)\s+(?:FLOOR|LEVEL|STOREY|STORY)\b|\bLEVEL\s+(\d{1,2})\b`)
	// partialPlanRe: a plan of part of a level (AREA A, WING B, a unit).
	partialPlanRe  = lazyregexp.New(`(?i)\b(?:AREA|ZONE|WING|PART|SECTOR|UNIT|BLOCK|BUILDING|BLDG\.?|SECTION)\s+[A-Z0-9]{1,3}\b|\b(?:PORTION|MATCH\s*LINE|FURNITURE|EQUIPMENT|FINISH|FINISHES|SIGNAGE|LIFE\s+SAFETY|FIRE\s+PROTECTION|KEY)\b`)
	notPlanLevelRe = lazyregexp.New(`(?i)\b(?:EXISTING|DEMO(?:LITION)?|REMOVAL|PHASE|ALTERNATE|OPTION(?:AL)?|PARTIAL|ENLARGED|MEZZANINE)\b`)
)

// floorPlanLevel returns the level a floor plan's title names
// ("SECOND FLOOR PLAN" → SECOND), or "" when the page is not the plan of
// one level of the proposed building (site, roof, framing, electrical,
// existing, demolition or enlarged plans, titles naming two levels).
func floorPlanLevel(pv *pageView) string {
	title := pv.Ident.Title
	if !pv.Readable || !planTitleRe.MatchString(title) || notFloorPlansRe.MatchString(title) || notPlanLevelRe.MatchString(title) {
		return ""
	}
	ms := planLevelRe.FindAllStringSubmatch(title, -1)
	if len(ms) != 1 {
		return ""
	}
	if ms[0][2] != "" {
		return "LEVEL " + strings.TrimLeft(ms[0][2], "0")
	}
	level := strings.ToUpper(ms[0][1])
	if w, ok := levelWords[level]; ok {
		level = w
	}
	return level
}

// checkFloorAreaVsPlan reports a level's area stated in the project data
// that differs from the area the plan of that level states for it.
func checkFloorAreaVsPlan(rv *review, r *Rule) []observation {
	pd := rv.projectData()
	// Only plans of a whole level state its area.
	plans := map[string][]*pageView{}
	for _, pv := range rv.pages {
		if l := floorPlanLevel(pv); l != "" && !partialPlanRe.MatchString(pv.Ident.Title) {
			plans[l] = append(plans[l], pv)
		}
	}
	var out []observation
	reported := map[string]bool{}
	for _, stated := range pd.facts {
		if stated.kind != FactArea || stated.areaKind != AreaFloor || stated.qualifier == "allowable" || stated.qualifier == "existing" {
			continue
		}
		for _, plan := range plans[stated.level] {
			if plan == stated.pv {
				continue
			}
			var onPlan []projectFact
			for _, f := range pd.facts {
				if f.pv == plan && f.kind == FactArea && f.areaKind == AreaFloor && f.level == stated.level && f.qualifier == stated.qualifier &&
					measureOf(f) == measureOf(stated) {
					onPlan = append(onPlan, f)
				}
			}
			if len(onPlan) == 0 {
				onPlan = planAreaTag(pd, plan, stated)
			}
			if len(onPlan) == 0 {
				continue
			}
			if len(onPlan) > 1 && !sameValues(onPlan) {
				pd.unreadable(plan, "floor area vs plan", fmt.Sprintf("sheet %s states %s twice with different values", plan.sheetNumberOr(), stated.level))
				continue
			}
			p := onPlan[0]
			if math.Abs(p.m.canonical-stated.m.canonical) <= areaTolerance(p.m.canonical, stated.m.canonical, p.m.halfULP, stated.m.halfULP) {
				continue
			}
			key := stated.level + "\x00" + plan.FileID + strconv.Itoa(plan.Page.Number) + "\x00" + stated.value
			if reported[key] {
				continue
			}
			reported[key] = true
			out = append(out, observation{page: plan, words: p.words(),
				also: []evidenceRef{{page: stated.pv, words: stated.words()}},
				vars: map[string]string{"level": strings.ToLower(stated.level), "stated": formatArea(stated), "statedLabel": stated.label,
					"statedSheet": stated.pv.sheetNumberOr(), "plan": formatArea(p), "planLabel": p.label},
				evidence: "floor area " + stated.level + " " + stated.value + " vs " + p.value})
		}
	}
	return out
}

// planAreaTag is the area a level's plan states without naming the level
// ("FLOOR AREA: 950 SF" under the plan's title): its one total, when the
// sheet states no floor's area (a sheet listing floors carries the
// building's data block, whose total is the building's) and the total is
// not a room list's (net areas) nor above-grade.
func planAreaTag(pd *projectData, plan *pageView, stated projectFact) []projectFact {
	var totals []projectFact
	for _, f := range pd.facts {
		if f.pv != plan || f.kind != FactArea {
			continue
		}
		switch f.areaKind {
		case AreaFloor:
			return nil
		case AreaTotal:
			if f.listTotal || f.aboveGrade || f.qualifier != stated.qualifier || measureOf(f) != measureOf(stated) {
				return nil
			}
			totals = append(totals, f)
		}
	}
	if len(totals) != 1 {
		return nil
	}
	return totals
}

// measureOf is what an area's label says it measures (CONDITIONED,
// GROSS, NET …), "" when it does not say: LIVING and HEATED are read as
// CONDITIONED, UNDEVELOPED as UNFINISHED.
func measureOf(f projectFact) string {
	m := measureRe.FindString(strings.ToUpper(f.label))
	switch m {
	case "HEATED", "LIVING", "HABITABLE":
		return "CONDITIONED"
	case "UNDEVELOPED":
		return "UNFINISHED"
	}
	return m
}

func sameValues(fs []projectFact) bool {
	for _, f := range fs[1:] {
		if math.Abs(f.m.canonical-fs[0].m.canonical) > areaTolerance(f.m.canonical, fs[0].m.canonical, f.m.halfULP, fs[0].m.halfULP) {
			return false
		}
	}
	return true
}

// checkStoriesVsPlans reports a stated number of stories lower than the
// levels the set draws: stories 1 with a SECOND FLOOR PLAN. A level's
// least story number depends on how the set counts floors: where it has
// a ground floor, the first floor is the one above it (British and
// Commonwealth usage), otherwise the first floor is the ground one. Only
// the least number a title allows is used, so a drawn level never
// "needs" more stories than it must; mezzanines, basements and
// existing/demolition plans do not count.
func checkStoriesVsPlans(rv *review, r *Rule) []observation {
	pd := rv.projectData()
	var stated []projectFact
	for _, f := range pd.facts {
		if f.kind == FactStories && (f.qualifier == "" || f.qualifier == "proposed") {
			stated = append(stated, f)
		}
	}
	if len(stated) == 0 {
		return nil
	}
	if !sameStories(stated) {
		pd.unreadable(nil, "stories vs plans", "the set states more than one number of stories")
		return nil
	}
	n := int(stated[0].m.value)
	ground := false
	type drawn struct {
		pv    *pageView
		level string
	}
	var levels []drawn
	for _, pv := range rv.pages {
		if l := floorPlanLevel(pv); l != "" {
			levels = append(levels, drawn{pv, l})
			if l == "GROUND" {
				ground = true
			}
		}
	}
	least := func(level string) int {
		switch level {
		case "FIRST":
			if ground {
				return 2
			}
			return 1
		case "SECOND", "THIRD", "FOURTH", "FIFTH":
			k := map[string]int{"SECOND": 2, "THIRD": 3, "FOURTH": 4, "FIFTH": 5}[level]
			if ground {
				return k + 1
			}
			return k
		case "UPPER":
			return 2
		}
		if strings.HasPrefix(level, "LEVEL ") {
			k, _ := strconv.Atoi(strings.TrimPrefix(level, "LEVEL "))
			return k
		}
		return 1
	}
	sort.SliceStable(levels, func(i, j int) bool { return least(levels[i].level) > least(levels[j].level) })
	if len(levels) == 0 || least(levels[0].level) <= n {
		return nil
	}
	top := levels[0]
	s := stated[0]
	return []observation{{page: top.pv, words: titleWords(top.pv),
		also: []evidenceRef{{page: s.pv, words: s.words()}},
		vars: map[string]string{"stories": s.value, "storiesLabel": s.label, "statedSheet": s.pv.sheetNumberOr(),
			"planTitle": top.pv.Ident.Title, "least": strconv.Itoa(least(top.level))},
		evidence: "stories " + s.value + " vs " + top.level}}
}

func sameStories(fs []projectFact) bool {
	for _, f := range fs[1:] {
		if f.m.value != fs[0].m.value {
			return false
		}
	}
	return true
}

// titleWords finds the words of the page's title as printed (the line
// holding it), for the anchor; none when it is not found on one line.
func titleWords(pv *pageView) []int {
	want := strings.ToUpper(strings.Join(strings.Fields(pv.Ident.Title), " "))
	if want == "" {
		return nil
	}
	for _, l := range pv.Lines {
		t := strings.ToUpper(l.Text)
		if i := strings.Index(t, want); i >= 0 {
			return l.WordsInSpan(i, i+len(want))
		}
	}
	return nil
}
