package rules

import (
	"sort"
	"strings"

	"planreview/scan/model"
	"planreview/textmatch"
)

// Door and window tags against their schedules, both directions. A tag is
// a label standing alone on its line (a tag bubble) shaped like a schedule
// mark: letters then digits (AG01, W12, D3A). Numeric tags (101, 102A) are
// not compared: room numbers, keynotes and grid lines share their shape.
var (
	markRe          = textmatch.MustCompile(`^[A-Z]{1,3}\d{1,3}[A-Z]?$`)
	markPrefixRe    = textmatch.MustCompile(`^[A-Z]+`)
	openingSchedRe  = textmatch.MustCompile(`(?i)\b(?:WINDOWS?|DOORS?|ALUMINIUM|ALUMINUM|GLAZING|OPENINGS?|FENESTRATION)\s+(?:AND\s+(?:DOORS?|WINDOWS?)\s+)?SCHEDULES?\b`)
	scheduleWordRe  = textmatch.MustCompile(`(?i)\bSCHEDULES?\b`)
	planTitleRe     = textmatch.MustCompile(`(?i)\bPLANS?\b`)
	notFloorPlansRe = textmatch.MustCompile(`(?i)\b(?:SITE|ROOF|CEILING|RCP|ELECTRICAL|LIGHTING|POWER|PLUMBING|MECHANICAL|FOUNDATION|FOOTING|FRAMING|LANDSCAPE)\b`)
)

type tagHit struct {
	pv    *pageView
	words []int
	mark  string
}

// isOpeningSchedule reports whether the page is a door or window schedule.
func (pv *pageView) isOpeningSchedule() bool {
	if openingSchedRe.MatchString(pv.Ident.Title) {
		return true
	}
	if !scheduleWordRe.MatchString(pv.Ident.Title) {
		return false
	}
	for _, l := range pv.Lines {
		if openingSchedRe.MatchString(l.Text) {
			return true
		}
	}
	return false
}

// standaloneMarks returns the page's lines that are a single mark-shaped
// token, other than sheet numbers of the set.
func (pv *pageView) standaloneMarks(sheetKeys map[string]*pageView) []tagHit {
	var out []tagHit
	for _, l := range pv.Lines {
		t := strings.TrimSpace(l.Text)
		if !markRe.MatchString(t) {
			continue
		}
		if _, isSheet := sheetKeys[t]; isSheet {
			continue
		}
		out = append(out, tagHit{pv: pv, words: l.Words, mark: t})
	}
	return out
}

// openingTags reads the schedules' marks and the floor plans' tags of the
// families (letter prefixes) the schedules use. ok is false when there is
// nothing to compare: no schedule with three marks, or no plan tagged with
// a scheduled family.
func (rv *review) openingTags() (sched map[string][]tagHit, plans map[string][]tagHit, ok bool) {
	present := rv.presentSheets()
	sched, plans = map[string][]tagHit{}, map[string][]tagHit{}
	shapes := map[string]string{} // family → fine shape of its marks
	for _, pv := range rv.pages {
		if !pv.Readable || !pv.isOpeningSchedule() {
			continue
		}
		for _, h := range pv.standaloneMarks(present) {
			sched[h.mark] = append(sched[h.mark], h)
			shapes[markPrefixRe.FindString(h.mark)] = model.FineShape(h.mark)
		}
	}
	if len(sched) < 3 {
		return nil, nil, false
	}
	for _, pv := range rv.pages {
		if !pv.Readable || pv.isOpeningSchedule() || !planTitleRe.MatchString(pv.Ident.Title) || notFloorPlansRe.MatchString(pv.Ident.Title) {
			continue
		}
		for _, h := range pv.standaloneMarks(present) {
			if s, fam := shapes[markPrefixRe.FindString(h.mark)]; fam && s == model.FineShape(h.mark) {
				plans[h.mark] = append(plans[h.mark], h)
			}
		}
	}
	// The plans must use the schedule's marks: at least two of them.
	shared := 0
	for m := range plans {
		if _, ok := sched[m]; ok {
			shared++
		}
	}
	return sched, plans, shared >= 2
}

func sortedTagKeys(m map[string][]tagHit) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
