package rules

import (
	"fmt"
	"strings"

	"planreview/scan/layout"
	"planreview/textmatch"
)

// A revision or issue table is blank until the set is revised; a notes
// column is blank by design.
var (
	revisionHeaderRe = textmatch.MustCompile(`(?i)\b(?:REV(?:ISION)?S?|ISSUES?|DATE|DESCRIPTION|BY|APPROVED|CHK'?D|NO\.?)\b`)
	remarksHeaderRe  = textmatch.MustCompile(`(?i)\b(?:REMARKS?|COMMENTS?|NOTES?)\b`)
	// A table with a column for whoever installs, inspects or signs is a
	// form filled in the field (an installation certificate, a special
	// inspection log): its blanks are for them, not the designer's.
	fieldFormHeaderRe = textmatch.MustCompile(`(?i)\b(?:INSTALLER|INSPECTOR|INSPECTED|INITIALS?|SIGNATURE|SIGNED|VERIFIED|PASS\s*(?:/|OR)\s*FAIL|COMPLETED)\b`)
)

// checkEmptySchedule reports a ruled schedule whose rows name their items
// but whose value cells are (nearly) all blank: a conductor schedule with
// no sizes, a door schedule with no hardware. One finding per table,
// anchored on its header row. Revision tables, and tables with fewer than
// four columns or two rows, are not schedules to fill.
func checkEmptySchedule(rv *review, r *Rule) []observation {
	var out []observation
	for _, pv := range rv.pages {
		// A ruled table needs at least a grid of rules: pages without
		// them are not analysed at all.
		if !pv.Readable || pv.Model != nil && pv.Model.TextLayer != "full" || len(pv.Page.Segments) < 12 {
			continue
		}
		for _, tb := range pv.Layout().Tables {
			if !tb.Ruled {
				continue
			}
			header := -1
			for ri, row := range tb.Rows {
				if len(row.Cells) >= 4 && filledCells(row) == len(row.Cells) {
					header = ri
					break
				}
			}
			if header < 0 {
				continue
			}
			hrow := tb.Rows[header]
			var htext []string
			var hwords []int
			for _, c := range hrow.Cells {
				htext = append(htext, c.Text)
				hwords = append(hwords, c.Words...)
			}
			if revisionHeaderRe.MatchString(strings.Join(htext, " ")) && len(hrow.Cells) <= 6 || fieldFormHeaderRe.MatchString(strings.Join(htext, " | ")) {
				continue
			}
			body, values, empty := 0, 0, 0
			for _, row := range tb.Rows[header+1:] {
				if len(row.Cells) != len(hrow.Cells) || strings.TrimSpace(row.Cells[0].Text) == "" && strings.TrimSpace(row.Cells[1].Text) == "" {
					continue
				}
				body++
				for ci := 2; ci < len(row.Cells); ci++ {
					if remarksHeaderRe.MatchString(hrow.Cells[ci].Text) {
						continue
					}
					values++
					if strings.TrimSpace(row.Cells[ci].Text) == "" {
						empty++
					}
				}
			}
			if body < 2 || values < 6 || empty*4 < values*3 {
				continue
			}
			out = append(out, observation{page: pv, words: hwords,
				vars: map[string]string{"rows": fmt.Sprint(body), "empty": fmt.Sprint(empty), "cells": fmt.Sprint(values),
					"header": strings.Join(htext, " | ")},
				evidence: "empty schedule " + strings.ToUpper(strings.Join(htext, " "))})
		}
	}
	return out
}

func filledCells(row layout.Row) int {
	n := 0
	for _, c := range row.Cells {
		if strings.TrimSpace(c.Text) != "" {
			n++
		}
	}
	return n
}
