package rules

import (
	"sort"

	"planreview/scan/model"
)

// Door and window tags against their schedules, both directions: the
// schedules' marks and the floor plans' tags are the model's marks
// (model.Sheet.Marks), less the set's sheet numbers.

type tagHit struct {
	pv    *pageView
	words []int
	mark  string
}

func (h tagHit) family() string { return model.Mark{Text: h.mark}.Family() }

// marks returns the page's marks, other than sheet numbers of the set.
func (pv *pageView) marks(sheetKeys map[string]*pageView) []tagHit {
	var out []tagHit
	for _, m := range pv.Marks() {
		if _, isSheet := sheetKeys[m.Text]; isSheet {
			continue
		}
		out = append(out, tagHit{pv: pv, words: m.Words, mark: m.Text})
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
		if !pv.Readable || !pv.IsOpeningSchedule() {
			continue
		}
		for _, h := range pv.marks(present) {
			sched[h.mark] = append(sched[h.mark], h)
			shapes[h.family()] = model.FineShape(h.mark)
		}
	}
	if len(sched) < 3 {
		return nil, nil, false
	}
	for _, pv := range rv.pages {
		if !pv.Readable || pv.IsOpeningSchedule() || !pv.IsFloorPlan() {
			continue
		}
		for _, h := range pv.marks(present) {
			if s, fam := shapes[h.family()]; fam && s == model.FineShape(h.mark) {
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
