package rules

import (
	"fmt"
	"math"
	"planreview/textmatch"
	"strconv"
	"strings"
)

// Floor plans and the levels they draw.
var (
	planLevelRe = textmatch.MustCompile(`(?i)\b(BASEMENT|CELLAR|GROUND|MAIN|UPPER|LOWER|FIRST|SECOND|THIRD|FOURTH|FIFTH|1ST|2ND|3RD|4TH|5TH)\s+(?:FLOOR|LEVEL|STOREY|STORY)\b|\bLEVEL\s+(\d{1,2})\b`)
	// partialPlanRe: a plan of part of a level (AREA A, WING B, a unit).
	partialPlanRe  = textmatch.MustCompile(`(?i)\b(?:AREA|ZONE|WING|PART|SECTOR|UNIT|BLOCK|BUILDING|BLDG\.?|SECTION)\s+[A-Z0-9]{1,3}\b|\b(?:PORTION|MATCH\s*LINE|FURNITURE|EQUIPMENT|FINISH|FINISHES|SIGNAGE|LIFE\s+SAFETY|FIRE\s+PROTECTION|KEY)\b`)
	notPlanLevelRe = textmatch.MustCompile(`(?i)\b(?:EXISTING|DEMO(?:LITION)?|REMOVAL|PHASE|ALTERNATE|OPTION(?:AL)?|PARTIAL|ENLARGED|MEZZANINE)\b`)
)

// floorPlanLevel returns the level a floor plan's title names
// ("SECOND FLOOR PLAN" → SECOND), or "" when the page is not the plan of
// one level of the proposed building (site, roof, framing, electrical,
// existing, demolition or enlarged plans, titles naming two levels).
func floorPlanLevel(pv *pageView) string {
	title := pv.Ident.Title
	if !pv.Readable || !pv.IsFloorPlan() || notPlanLevelRe.MatchString(title) {
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
