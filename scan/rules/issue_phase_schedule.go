package rules

import (
	"math"
	"sort"
	"strings"

	"planreview/scan/sheets"
	"planreview/textmatch"
)

// A drawing phase schedule in the title block: a table headed "DRAWING
// PHASE SCHEDULE" whose columns name the design stages (schematic design,
// design development, construction documents, bidding, construction) and
// whose row under them dates each stage as it is issued. The last stage
// dated is the sheet's issue; the columns after it are still blank.

// phaseHeadingRe heads such a table.
var phaseHeadingRe = lineSet.MustCompile(`(?i)\b(?:DRAWING|DESIGN|SUBMITTAL|ISSUE)\s+PHASES?\b|\bPHASE\s+SCHEDULE\b`)

// phaseDateStartRe starts a date in the table's row: a month ("JUN.",
// "JUNE") followed by a day, or a numeric date.
var (
	phaseMonthRe   = textmatch.MustCompile(`^(?i:JAN|FEB|MAR|APR|MAY|JUNE?|JULY?|AUG|SEPT?|OCT|NOV|DEC)\.?$`)
	phaseNumDateRe = textmatch.MustCompile(`^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$`)
	phaseDayRe     = textmatch.MustCompile(`^\d{1,2},?$`)
	phaseYearRe    = textmatch.MustCompile(`^(?:19|20)\d\d$`)
)

// earlyStageRe is a stage before construction documents; laterStageRe a
// column after it that a set for construction would have dated.
var (
	earlyStageRe = textmatch.MustCompile(`(?i)\bSCHEMATIC\b|\bDESIGN\s+DEVELOPMENT\b|\bPRELIMINARY\b|\bCONCEPT(?:UAL)?\b`)
	laterStageRe = textmatch.MustCompile(`(?i)\bCONSTRUCTION\b`)
)

// phaseScheduleStage reads the stage a drawing phase schedule dates last,
// when it is a stage before construction documents and a construction
// column after it is blank: the stage's caption and date, and their
// words. Otherwise "".
func (pv *pageView) phaseScheduleStage() (string, []int) {
	p := pv.Page
	for li, l := range pv.Lines {
		if !pv.matches(phaseHeadingRe, li) || len(l.Words) > 6 {
			continue
		}
		h := l.Box.Height()
		// The table under the heading: a few heading heights down, and
		// as wide as a title-block strip on either side.
		var band []int
		for wi := range p.Words {
			b := sheets.WordBox(p, wi)
			if b.Y0 >= l.Box.Y1-h*0.3 && b.Y1 <= l.Box.Y1+8*h && b.X0 >= l.Box.X0-40*h && b.X1 <= l.Box.X1+40*h {
				band = append(band, wi)
			}
		}
		// Dates: a month and its day, or a numeric date.
		type date struct {
			words []int
			box   sheets.Box
		}
		var dates []date
		for i, wi := range band {
			t := sheets.WordText(p.Words[wi])
			if phaseNumDateRe.MatchString(t) {
				dates = append(dates, date{[]int{wi}, sheets.WordBox(p, wi)})
				continue
			}
			if !phaseMonthRe.MatchString(t) {
				continue
			}
			// The day: the next word of the band on the same baseline.
			b := sheets.WordBox(p, wi)
			for _, wj := range band[i+1:] {
				c := sheets.WordBox(p, wj)
				if math.Abs(c.Y0-b.Y0) < b.Height()*0.3 && c.X0 > b.X1 && c.X0-b.X1 < b.Height() && phaseDayRe.MatchString(sheets.WordText(p.Words[wj])) {
					d := date{[]int{wi, wj}, b}
					// and its year, when printed after the day.
					c0 := c
					for _, wk := range band {
						e := sheets.WordBox(p, wk)
						if math.Abs(e.Y0-b.Y0) < b.Height()*0.3 && e.X0 > c0.X1 && e.X0-c0.X1 < b.Height() && phaseYearRe.MatchString(sheets.WordText(p.Words[wk])) {
							d.words = append(d.words, wk)
							break
						}
					}
					dates = append(dates, d)
					break
				}
			}
		}
		if len(dates) == 0 {
			continue
		}
		// One row of dates: the last is the rightmost on the first
		// date's row.
		sort.Slice(dates, func(a, b int) bool { return dates[a].box.X0 < dates[b].box.X0 })
		last := dates[0]
		for _, d := range dates[1:] {
			if math.Abs(d.box.Y0-dates[0].box.Y0) < d.box.Height()*0.5 {
				last = d
			}
		}
		// The stage's caption: the words above the date that start where
		// it starts (each line of the column's caption), top down.
		var caption []int
		var later []string
		for _, wi := range band {
			b := sheets.WordBox(p, wi)
			if b.Y1 > last.box.Y0+1 || b.Y0 < l.Box.Y1-h*0.3 {
				continue
			}
			switch {
			case math.Abs(b.X0-last.box.X0) < 1.5:
				caption = append(caption, wi)
			case b.X0 > last.box.X1:
				later = append(later, sheets.WordText(p.Words[wi]))
			}
		}
		sort.Slice(caption, func(a, b int) bool {
			return sheets.WordBox(p, caption[a]).Y0 < sheets.WordBox(p, caption[b]).Y0
		})
		var parts []string
		for _, wi := range caption {
			parts = append(parts, sheets.WordText(p.Words[wi]))
		}
		stage := strings.Join(parts, " ")
		if !earlyStageRe.MatchString(stage) || !laterStageRe.MatchString(strings.Join(later, " ")) {
			continue
		}
		var dateText []string
		for _, wi := range last.words {
			dateText = append(dateText, sheets.WordText(p.Words[wi]))
		}
		return stage + " " + strings.Join(dateText, " "), append(caption, last.words...)
	}
	return "", nil
}
