package rules

import (
	"strings"

	"planreview/scan/sheets"
)

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
