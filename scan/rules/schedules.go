package rules

import (
	"fmt"
	"strings"

	"planreview/scan/model"
)

// checkEmptySchedule reports a schedule whose rows name their items but
// whose value cells are (nearly) all blank: a conductor schedule with no
// sizes, a door schedule with no hardware. One finding per table,
// anchored on its header row. Revision tables, field forms, remarks
// columns, and schedules with fewer than two rows or six value cells are
// not blanks to fill.
func checkEmptySchedule(rv *review, r *Rule) []observation {
	var out []observation
	for _, pv := range rv.pages {
		if !pv.Readable || pv.Model != nil && pv.Model.TextLayer != "full" {
			continue
		}
		for _, sc := range pv.Schedules() {
			if sc.Kind != model.ScheduleOfValues {
				continue
			}
			body := sc.Body()
			values, empty := 0, 0
			for _, row := range body {
				for ci := 2; ci < len(row.Cells); ci++ {
					if sc.Remarks[ci] {
						continue
					}
					values++
					if strings.TrimSpace(row.Cells[ci].Text) == "" {
						empty++
					}
				}
			}
			if len(body) < 2 || values < 6 || empty*4 < values*3 {
				continue
			}
			out = append(out, observation{page: pv, words: sc.HeaderWords,
				vars: map[string]string{"rows": fmt.Sprint(len(body)), "empty": fmt.Sprint(empty), "cells": fmt.Sprint(values),
					"header": strings.Join(sc.Columns, " | ")},
				evidence: "empty schedule " + strings.ToUpper(strings.Join(sc.Columns, " "))})
		}
	}
	return out
}
