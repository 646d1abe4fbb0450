package rules

import (
	"sort"
	"strconv"
	"strings"

	"planreview/lazyregexp"
	"planreview/scan/model"
	"planreview/scan/sheets"
)

// Door and window tags against their schedules, both directions. A tag is
// a label standing alone on its line (a tag bubble) shaped like a schedule
// mark: letters then digits (AG01, W12, D3A). Numeric tags (101, 102A) are
// not compared: room numbers, keynotes and grid lines share their shape.
var (
	markRe          = lazyregexp.New(`^[A-Z]{1,3}\d{1,3}[A-Z]?$`)
	markPrefixRe    = lazyregexp.New(`^[A-Z]+`)
	openingSchedRe  = lazyregexp.New(`(?i)\b(?:WINDOWS?|DOORS?|ALUMINIUM|ALUMINUM|GLAZING|OPENINGS?|FENESTRATION)\s+(?:AND\s+(?:DOORS?|WINDOWS?)\s+)?SCHEDULES?\b`)
	scheduleWordRe  = lazyregexp.New(`(?i)\bSCHEDULES?\b`)
	planTitleRe     = lazyregexp.New(`(?i)\bPLANS?\b`)
	notFloorPlansRe = lazyregexp.New(`(?i)\b(?:SITE|ROOF|CEILING|RCP|ELECTRICAL|LIGHTING|POWER|PLUMBING|MECHANICAL|FOUNDATION|FOOTING|FRAMING|LANDSCAPE)\b`)
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

// checkTagNotInSchedule reports a tag on a floor plan that its schedule
// does not list, once per tag and sheet.
func checkTagNotInSchedule(rv *review, r *Rule) []observation {
	sched, plans, ok := rv.openingTags()
	if !ok {
		return nil
	}
	schedSheet := ""
	for _, hs := range sched {
		schedSheet = hs[0].pv.sheetNumberOr()
		break
	}
	var out []observation
	for _, m := range sortedTagKeys(plans) {
		if _, listed := sched[m]; listed {
			continue
		}
		seen := map[*pageView]bool{}
		for _, h := range plans[m] {
			if seen[h.pv] {
				continue
			}
			seen[h.pv] = true
			out = append(out, observation{page: h.pv, words: h.words,
				vars:     map[string]string{"tag": m, "schedule": schedSheet},
				evidence: "tag " + m})
		}
	}
	return out
}

// checkScheduleMarkNotOnPlans reports a schedule mark no floor plan shows.
// A mark tagged on another drawing of the set (a clerestory window on an
// elevation, a skylight on the roof plan, an opening in an enlarged plan
// or section) is shown where it is: not a finding.
func checkScheduleMarkNotOnPlans(rv *review, r *Rule) []observation {
	sched, plans, ok := rv.openingTags()
	if !ok {
		return nil
	}
	present := rv.presentSheets()
	elsewhere := map[string]bool{}
	for _, pv := range rv.pages {
		if !pv.Readable || pv.isOpeningSchedule() {
			continue
		}
		for _, h := range pv.standaloneMarks(present) {
			elsewhere[h.mark] = true
		}
	}
	var out []observation
	for _, m := range sortedTagKeys(sched) {
		if _, shown := plans[m]; shown || elsewhere[m] {
			continue
		}
		h := sched[m][0]
		out = append(out, observation{page: h.pv, words: h.words,
			vars:     map[string]string{"tag": m},
			evidence: "mark " + m})
	}
	return out
}

func sortedTagKeys(m map[string][]tagHit) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// scaleAtRe reads a scale stated for a paper size, the way metric sheets
// print it: "1 : 100 AT A1", "1:200 @ A1" (a stray "1:" left by the
// title-block font is skipped).
var scaleAtRe = lineSet.MustCompile(`(?i)\b1\s*:\s*(\d{1,5})\b(?:\s*1\s*:)?\s*(?:@|AT)\s*(A[0-4])\b`)

// checkScaleConflict reports a sheet whose title block states one scale
// for a paper size and whose views all state another for the same paper (a
// plan at 1:100 at A1 where the title block says 1:200 at A1): one of
// them is wrong, and dimensions scaled from the print would be too. Views
// at different scales (a detail sheet: 1:10, 1:20 and 1:100 at A1) are
// what a sheet of several views prints, not a conflict.
func checkScaleConflict(rv *review, r *Rule) []observation {
	var out []observation
	for _, pv := range rv.pages {
		if !pv.Readable {
			continue
		}
		// The title block's statement is the one in its scale field; a
		// sheet whose model has none takes the right third of the sheet
		// (where title blocks stand) — never the bottom strip, where views
		// print their titles and scales.
		fieldWords := map[int]bool{}
		if pv.Model != nil {
			tb := pv.Model.TitleBlock
			for _, f := range pv.Model.Fields {
				// A view's "SCALE 1:100" caption is a field too: only the
				// one inside the title block counts.
				if f.Kind == sheets.FieldScale && f.CaptionBox.X0 >= tb.X0 && f.CaptionBox.X1 <= tb.X1 && f.CaptionBox.Y0 >= tb.Y0 && f.CaptionBox.Y1 <= tb.Y1 && tb.X1 > tb.X0 {
					for _, wi := range append(append([]int{}, f.CaptionWords...), f.ValueWords...) {
						fieldWords[wi] = true
					}
				}
			}
		}
		inTitleBlock := func(l sheets.Line, words []int) bool {
			if len(fieldWords) == 0 {
				return l.Box.X0 > 0.65*pv.Page.Width
			}
			for _, wi := range words {
				if fieldWords[wi] {
					return true
				}
			}
			return false
		}
		titleBlock := map[string][]statedScale{} // paper → statements
		views := map[string][]statedScale{}
		var papers []string
		for li, l := range pv.Lines {
			if strings.IndexByte(l.Text, ':') < 0 {
				continue // scaleAtRe needs the ratio's colon
			}
			for _, m := range pv.findAll(scaleAtRe, li) {
				paper := strings.ToUpper(l.Text[m[4]:m[5]])
				s := statedScale{ratio: l.Text[m[2]:m[3]], text: strings.TrimSpace(l.Text[m[0]:m[1]]), words: l.WordsInSpan(m[0], m[1])}
				if len(titleBlock[paper])+len(views[paper]) == 0 {
					papers = append(papers, paper)
				}
				if inTitleBlock(l, s.words) {
					titleBlock[paper] = append(titleBlock[paper], s)
				} else {
					views[paper] = append(views[paper], s)
				}
			}
		}
		for _, paper := range papers {
			tb, vs := titleBlock[paper], views[paper]
			if len(tb) == 0 || len(vs) == 0 || !sameRatio(tb) || !sameRatio(vs) || tb[0].ratio == vs[0].ratio {
				continue
			}
			out = append(out, observation{page: pv, words: vs[0].words,
				vars:     map[string]string{"first": tb[0].text, "second": vs[0].text, "paper": paper},
				evidence: "scales " + paper + " 1:" + tb[0].ratio + " 1:" + vs[0].ratio})
		}
	}
	return out
}

// statedScale is one scale printed for a paper size.
type statedScale struct {
	ratio, text string
	words       []int
}

// sameRatio reports whether every statement gives the same ratio.
func sameRatio(ss []statedScale) bool {
	for _, s := range ss {
		if s.ratio != ss[0].ratio {
			return false
		}
	}
	return true
}

// checkScheduleMarkRepeated reports a mark a door or window schedule lists
// twice: two openings share one mark, so a tag on the plans cannot say
// which one it is. When most marks appear twice, the sheet draws the
// openings beside the table (elevations tagged with the same marks) and
// nothing is reported.
func checkScheduleMarkRepeated(rv *review, r *Rule) []observation {
	sched, _, ok := rv.openingTags()
	if !ok {
		return nil
	}
	perPage := map[*pageView]map[string][]tagHit{}
	for m, hs := range sched {
		for _, h := range hs {
			if perPage[h.pv] == nil {
				perPage[h.pv] = map[string][]tagHit{}
			}
			perPage[h.pv][m] = append(perPage[h.pv][m], h)
		}
	}
	var out []observation
	for _, pv := range rv.pages {
		marks := perPage[pv]
		if marks == nil {
			continue
		}
		var repeated []string
		for _, m := range sortedTagKeys(marks) {
			if len(marks[m]) >= 2 {
				repeated = append(repeated, m)
			}
		}
		if len(repeated) == 0 || 3*len(repeated) > len(marks) {
			continue
		}
		for _, m := range repeated {
			h := marks[m][1]
			out = append(out, observation{page: pv, words: h.words,
				vars:     map[string]string{"tag": m, "count": strconv.Itoa(len(marks[m]))},
				evidence: "repeated " + m})
		}
	}
	return out
}
