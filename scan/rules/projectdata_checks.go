package rules

import (
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

// projectData returns the review's project facts, read once.
func (rv *review) projectData() *projectData {
	if rv.project == nil {
		rv.project = readProjectData(rv.pages)
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
func formatArea(f projectFact) string {
	s := f.value
	if f.m.unit == "m²" {
		s += " (" + units.TrimFloat(f.m.canonical, 1) + " sq ft)"
	}
	return s
}
