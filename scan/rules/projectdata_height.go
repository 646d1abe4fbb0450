package rules

import (
	"fmt"
	"math"

	"planreview/scan/model"
	"planreview/scan/units"
	"planreview/textmatch"
)

// The stated building height against the elevations. Codes measure
// building height from grade plane to the average height of the highest
// roof surface (the mean of eave and ridge on a pitched roof), so a ridge
// or roof-peak mark is not the building height and a stated height below
// it proves nothing. What the marks do bound is the most the building can
// be: the highest top-of-roof, ridge or parapet mark over the lowest grade
// mark of the same sheet (one datum). A stated height above that bound on
// every elevation or section that marks both is wrong, whatever the roof.
// Marks relative to the finish floor alone bound nothing (grade may lie
// below the floor by any amount): such sheets are not used.

// elevationTitleRe names the sheets whose marks bound the height.
var elevationTitleRe = textmatch.MustCompile(`(?i)\b(?:ELEVATIONS?|SECTIONS?)\b`)

// metricUnit tells metric from imperial marks: one sheet's marks must
// share a datum, and a datum in metres beside one in feet is two.
func metricUnit(u string) bool { return u == "m" || u == "mm" || u == "cm" }

// checkHeightVsElevations reports a stated building height greater than
// the highest roof mark above the lowest grade mark on every elevation or
// section that marks both.
func checkHeightVsElevations(rv *review, r *Rule) []observation {
	pd := rv.projectData()
	var stated []model.ProjectFact
	for _, f := range pd.facts {
		if f.Kind == model.FactBuildingHeight && (f.Qualifier == "" || f.Qualifier == "proposed") {
			stated = append(stated, f)
		}
	}
	if len(stated) == 0 {
		return nil
	}
	for _, f := range stated[1:] {
		if math.Abs(f.Measure.Canonical-stated[0].Measure.Canonical) > f.Measure.HalfULP+stated[0].Measure.HalfULP {
			pd.unreadable(nil, "height vs elevations", "the set states more than one building height")
			return nil
		}
	}
	h := stated[0]
	type bound struct {
		top, grade model.ProjectFact
		height     float64
	}
	var best *bound
	for _, pv := range rv.pages {
		if !pv.Readable || !elevationTitleRe.MatchString(pv.Ident.Title) {
			continue
		}
		var top, grade *model.ProjectFact
		marks := pv.LevelMarks()
		for i := range marks {
			m := &marks[i]
			switch m.Kind {
			case model.FactTopMark:
				if top == nil || m.Measure.Canonical > top.Measure.Canonical {
					top = m
				}
			case model.FactGradeMark:
				if grade == nil || m.Measure.Canonical < grade.Measure.Canonical {
					grade = m
				}
			}
		}
		if top == nil {
			continue
		}
		if grade == nil {
			pd.unreadable(pv, "height vs elevations", fmt.Sprintf("sheet %s marks the roof but no grade", pv.sheetNumberOr()))
			continue
		}
		if metricUnit(top.Measure.Unit) != metricUnit(grade.Measure.Unit) || top.Measure.Canonical <= grade.Measure.Canonical {
			pd.unreadable(pv, "height vs elevations", fmt.Sprintf("sheet %s: roof and grade marks on different datums", pv.sheetNumberOr()))
			continue
		}
		b := bound{top: *top, grade: *grade, height: top.Measure.Canonical - grade.Measure.Canonical}
		if best == nil || b.height > best.height {
			best = &b
		}
	}
	if best == nil {
		return nil
	}
	tol := h.Measure.HalfULP + best.top.Measure.HalfULP + best.grade.Measure.HalfULP + max(0.01*h.Measure.Canonical, 2)
	if h.Measure.Canonical <= best.height+tol {
		return nil
	}
	return []observation{{page: rv.view(best.top.Sheet), words: best.top.Words(),
		also: []evidenceRef{{page: rv.view(best.grade.Sheet), words: best.grade.Words()}, {page: rv.view(h.Sheet), words: h.Words()}},
		vars: map[string]string{"height": h.Value, "heightLabel": h.Label, "statedSheet": rv.view(h.Sheet).sheetNumberOr(),
			"top": best.top.Label + " " + best.top.Value, "grade": best.grade.Label + " " + best.grade.Value,
			"bound": units.FormatLength(best.height)},
		evidence: "height " + h.Value + " vs " + best.top.Value + " / " + best.grade.Value}}
}
