package rules

import (
	"planreview/scan/model"
	"planreview/scan/units"
)

// Project data against itself and against the drawings: a stated total
// against the floor areas stated with it, a level's stated area against
// the area its own plan states, the stated number of stories against the
// levels the set draws. Each finding carries both values and anchors on
// both statements. Precision first: when a side cannot be read without
// doubt, the check says nothing and records why (projectData.unread).
//
// Tolerance: two areas agree when they differ by no more than the
// rounding of both printed values (half the last printed digit of each,
// in square feet after conversion) plus 0.5% of the larger and at least
// 1 sq ft: areas are routinely rounded to the whole foot or the tenth of
// a metre per floor and summed before rounding.

// areaTolerance is how far two areas (square feet) may differ.
func areaTolerance(a, b float64, halves ...float64) float64 {
	t := 0.0
	for _, h := range halves {
		t += h
	}
	return t + max(0.005*max(a, b), 1)
}

// projectData is what the project-data checks read of the review's
// pages (the model's project facts and area lists, in page order) and
// what they remember while comparing.
type projectData struct {
	facts []model.ProjectFact
	lists []model.AreaList
	// unread says, per check, what could not be compared and why (two
	// buildings' areas side by side, two numbers of stories), for the
	// file's coverage finding.
	unread []unreadProjectData
	// blanks are the fields printed with their label and no value
	// (project_data_blank.go), read on first use.
	blanks *blankFieldsRead
}

// unreadProjectData is one comparison a project-data check could not make.
type unreadProjectData struct {
	file   int // file index; -1 when the set as a whole is concerned
	reason string
}

// projectData returns the review's project facts, gathered once.
func (rv *review) projectData() *projectData {
	if rv.project == nil {
		pd := &projectData{}
		for _, pv := range rv.pages {
			pd.facts = append(pd.facts, pv.ProjectFacts()...)
			pd.lists = append(pd.lists, pv.AreaLists()...)
		}
		rv.project = pd
	}
	return rv.project
}

// unreadable records why a check could not compare (for the coverage
// outcome that reports what could not be read).
func (pd *projectData) unreadable(pv *pageView, check, reason string) {
	file := -1
	if pv != nil {
		file = pv.FileIndex
	}
	pd.unread = append(pd.unread, unreadProjectData{file: file, reason: check + " (" + reason + ")"})
}

// formatArea writes an area as printed, with square feet when the
// printed unit is metric.
func formatArea(f model.ProjectFact) string {
	s := f.Value
	if f.Measure.Unit == "m²" {
		s += " (" + units.TrimFloat(f.Measure.Canonical, 1) + " sq ft)"
	}
	return s
}
