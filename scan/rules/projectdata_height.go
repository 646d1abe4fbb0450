package rules

import (
	"fmt"
	"math"
	"planreview/scan/units"
	"planreview/textmatch"
	"strings"
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

const (
	markTop   = "mark_top"
	markGrade = "mark_grade"
)

var (
	elevationTitleRe = textmatch.MustCompile(`(?i)\b(?:ELEVATIONS?|SECTIONS?)\b`)
	markKeywords     = []string{"RIDGE", "ROOF", "PARAPET", "PEAK", "GRADE", "HIGHEST"}
	topMarkLabelRe   = textmatch.MustCompile(`^(?:(?:T\.?\s?O\.?|TOP\s+OF)\s+(?:RIDGE|ROOF|PARAPET|ROOF\s+RIDGE)|RIDGE|ROOF\s+PEAK|ROOF\s+RIDGE|PEAK|HIGHEST\s+POINT(?:\s+OF\s+ROOF)?)(?:\s+(?:EL\.?|ELEV\.?|ELEVATION|GEODETIC|LEVEL))?$`)
	gradeMarkLabelRe = textmatch.MustCompile(`^(?:(?:AVG\.?|AVERAGE|FINISH(?:ED)?|FIN\.?|EXISTING|EXIST\.?|NATURAL|LOWEST|PROPOSED|NEW)\s+)*GRADE(?:\s+PLANE)?(?:\s+(?:EL\.?|ELEV\.?|ELEVATION|GEODETIC|LEVEL|LINE))?$`)
	signedLengthRe   = textmatch.MustCompile(`(?i)^(?:EL\.?|ELEV\.?)?\s*([+\-±]?)\s*(` + units.LengthPattern + `)$`)
)

// readMark reads an elevation mark: a roof top or grade label and a
// signed level ("T.O. RIDGE" "+24'-6\"", "GRADE" "-0'-8\"", "ROOF PEAK"
// "58.60m"). The canonical value is signed inches.
func readMark(label, value string) (projectFact, bool) {
	l := normaliseLabel(label)
	kind := ""
	switch {
	case topMarkLabelRe.MatchString(l):
		kind = markTop
	case gradeMarkLabelRe.MatchString(l):
		kind = markGrade
	default:
		return projectFact{}, false
	}
	m, ok := parseSignedLevel(value)
	if !ok {
		return projectFact{}, false
	}
	return projectFact{kind: kind, label: strings.TrimSpace(strings.TrimRight(strings.TrimSpace(label), ":")), value: strings.TrimSpace(value), m: m}, true
}

// parseSignedLevel reads a level mark's value into signed inches.
func parseSignedLevel(s string) (measured, bool) {
	mm := signedLengthRe.FindStringSubmatch(strings.TrimSpace(s))
	if mm == nil {
		return measured{}, false
	}
	m, ok := parseHeightValue(mm[2])
	if !ok && strings.TrimSpace(mm[2]) != "" {
		// 0'-0": a datum, which parseHeightValue refuses as a height.
		in, err := units.ParseLength(mm[2])
		if err != nil || in != 0 {
			return measured{}, false
		}
		m, ok = measured{unit: "ft-in", halfULP: 0.5}, true
	}
	if mm[1] == "±" && m.canonical != 0 {
		return measured{}, false
	}
	if mm[1] == "-" {
		m.value, m.canonical = -m.value, -m.canonical
	}
	return m, ok
}

func isMarkValue(t string) bool {
	_, ok := parseSignedLevel(t)
	return ok
}

// metricUnit tells metric from imperial marks: one sheet's marks must
// share a datum, and a datum in metres beside one in feet is two.
func metricUnit(u string) bool { return u == "m" || u == "mm" || u == "cm" }

// checkHeightVsElevations reports a stated building height greater than
// the highest roof mark above the lowest grade mark on every elevation or
// section that marks both.
func checkHeightVsElevations(rv *review, r *Rule) []observation {
	pd := rv.projectData()
	var stated []projectFact
	for _, f := range pd.facts {
		if f.kind == FactBuildingHeight && (f.qualifier == "" || f.qualifier == "proposed") {
			stated = append(stated, f)
		}
	}
	if len(stated) == 0 {
		return nil
	}
	for _, f := range stated[1:] {
		if math.Abs(f.m.canonical-stated[0].m.canonical) > f.m.halfULP+stated[0].m.halfULP {
			pd.unreadable(nil, "height vs elevations", "the set states more than one building height")
			return nil
		}
	}
	h := stated[0]
	type bound struct {
		top, grade projectFact
		height     float64
	}
	var best *bound
	for _, pv := range rv.pages {
		if !pv.Readable || !elevationTitleRe.MatchString(pv.Ident.Title) {
			continue
		}
		var top, grade *projectFact
		marks := readPageFacts(pv, markKeywords, readMark, isMarkValue)
		for i := range marks {
			m := &marks[i]
			switch m.kind {
			case markTop:
				if top == nil || m.m.canonical > top.m.canonical {
					top = m
				}
			case markGrade:
				if grade == nil || m.m.canonical < grade.m.canonical {
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
		if metricUnit(top.m.unit) != metricUnit(grade.m.unit) || top.m.canonical <= grade.m.canonical {
			pd.unreadable(pv, "height vs elevations", fmt.Sprintf("sheet %s: roof and grade marks on different datums", pv.sheetNumberOr()))
			continue
		}
		b := bound{top: *top, grade: *grade, height: top.m.canonical - grade.m.canonical}
		if best == nil || b.height > best.height {
			best = &b
		}
	}
	if best == nil {
		return nil
	}
	tol := h.m.halfULP + best.top.m.halfULP + best.grade.m.halfULP + max(0.01*h.m.canonical, 2)
	if h.m.canonical <= best.height+tol {
		return nil
	}
	return []observation{{page: best.top.pv, words: best.top.words(),
		also: []evidenceRef{{page: best.grade.pv, words: best.grade.words()}, {page: h.pv, words: h.words()}},
		vars: map[string]string{"height": h.value, "heightLabel": h.label, "statedSheet": h.pv.sheetNumberOr(),
			"top": best.top.label + " " + best.top.value, "grade": best.grade.label + " " + best.grade.value,
			"bound": units.FormatLength(best.height)},
		evidence: "height " + h.value + " vs " + best.top.value + " / " + best.grade.value}}
}
