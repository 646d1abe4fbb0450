package rules

import (
	"sort"
	"strconv"
	"strings"

	"planreview/scan/model"
)

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
	var stated []model.ProjectFact
	for _, f := range pd.facts {
		if f.Kind == model.FactStories && (f.Qualifier == "" || f.Qualifier == "proposed") {
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
	n := int(stated[0].Measure.Value)
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
		also: []evidenceRef{{page: rv.view(s.Sheet), words: s.Words()}},
		vars: map[string]string{"stories": s.Value, "storiesLabel": s.Label, "statedSheet": rv.view(s.Sheet).sheetNumberOr(),
			"planTitle": top.pv.Ident.Title, "least": strconv.Itoa(least(top.level))},
		evidence: "stories " + s.Value + " vs " + top.level}}
}

func sameStories(fs []model.ProjectFact) bool {
	for _, f := range fs[1:] {
		if f.Measure.Value != fs[0].Measure.Value {
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
