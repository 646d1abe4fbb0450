package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"planreview/scan/model"
	"planreview/textmatch"
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
	return model.LevelName(strings.ToUpper(ms[0][1]))
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
		if stated.Kind != model.FactArea || stated.AreaKind != model.AreaFloor || stated.Qualifier == "allowable" || stated.Qualifier == "existing" {
			continue
		}
		for _, plan := range plans[stated.Level] {
			if plan.Sheet == stated.Sheet {
				continue
			}
			var onPlan []model.ProjectFact
			for _, f := range pd.facts {
				if f.Sheet == plan.Sheet && f.Kind == model.FactArea && f.AreaKind == model.AreaFloor && f.Level == stated.Level && f.Qualifier == stated.Qualifier &&
					f.Measures() == stated.Measures() {
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
				pd.unreadable(plan, "floor area vs plan", fmt.Sprintf("sheet %s states %s twice with different values", plan.sheetNumberOr(), stated.Level))
				continue
			}
			p := onPlan[0]
			if math.Abs(p.Measure.Canonical-stated.Measure.Canonical) <= areaTolerance(p.Measure.Canonical, stated.Measure.Canonical, p.Measure.HalfULP, stated.Measure.HalfULP) {
				continue
			}
			key := stated.Level + "\x00" + plan.FileID + strconv.Itoa(plan.Page.Number) + "\x00" + stated.Value
			if reported[key] {
				continue
			}
			reported[key] = true
			out = append(out, observation{page: plan, words: p.Words(),
				also: []evidenceRef{{page: rv.view(stated.Sheet), words: stated.Words()}},
				vars: map[string]string{"level": strings.ToLower(stated.Level), "stated": formatArea(stated), "statedLabel": stated.Label,
					"statedSheet": rv.view(stated.Sheet).sheetNumberOr(), "plan": formatArea(p), "planLabel": p.Label},
				evidence: "floor area " + stated.Level + " " + stated.Value + " vs " + p.Value})
		}
	}
	return out
}

// planAreaTag is the area a level's plan states without naming the level
// ("FLOOR AREA: 950 SF" under the plan's title): its one total, when the
// sheet states no floor's area (a sheet listing floors carries the
// building's data block, whose total is the building's) and the total is
// not a room list's (net areas) nor above-grade.
func planAreaTag(pd *projectData, plan *pageView, stated model.ProjectFact) []model.ProjectFact {
	var totals []model.ProjectFact
	for _, f := range pd.facts {
		if f.Sheet != plan.Sheet || f.Kind != model.FactArea {
			continue
		}
		switch f.AreaKind {
		case model.AreaFloor:
			return nil
		case model.AreaTotal:
			if f.ListTotal || f.AboveGrade || f.Qualifier != stated.Qualifier || f.Measures() != stated.Measures() {
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

func sameValues(fs []model.ProjectFact) bool {
	for _, f := range fs[1:] {
		if math.Abs(f.Measure.Canonical-fs[0].Measure.Canonical) > areaTolerance(f.Measure.Canonical, fs[0].Measure.Canonical, f.Measure.HalfULP, fs[0].Measure.HalfULP) {
			return false
		}
	}
	return true
}
