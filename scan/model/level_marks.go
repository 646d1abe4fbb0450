package model

import (
	"strings"
	"sync"

	"planreview/scan/units"
	"planreview/textmatch"
)

// Level marks of elevations and sections: a roof top or grade label and a
// signed level ("T.O. RIDGE" "+24'-6\"", "GRADE" "-0'-8\"", "ROOF PEAK"
// "58.60m"), read like project data (on one line, beside or under the
// label, pairs, table rows). What a building's height may be is bounded
// by them; which sheets to ask is the checks' business.

// Kinds of level mark.
const (
	FactTopMark   = "mark_top"   // top of roof, ridge, parapet, peak
	FactGradeMark = "mark_grade" // grade, grade plane
)

var (
	markKeywords     = []string{"RIDGE", "ROOF", "PARAPET", "PEAK", "GRADE", "HIGHEST"}
	topMarkLabelRe   = textmatch.MustCompile(`^(?:(?:T\.?\s?O\.?|TOP\s+OF)\s+(?:RIDGE|ROOF|PARAPET|ROOF\s+RIDGE)|RIDGE|ROOF\s+PEAK|ROOF\s+RIDGE|PEAK|HIGHEST\s+POINT(?:\s+OF\s+ROOF)?)(?:\s+(?:EL\.?|ELEV\.?|ELEVATION|GEODETIC|LEVEL))?$`)
	gradeMarkLabelRe = textmatch.MustCompile(`^(?:(?:AVG\.?|AVERAGE|FINISH(?:ED)?|FIN\.?|EXISTING|EXIST\.?|NATURAL|LOWEST|PROPOSED|NEW)\s+)*GRADE(?:\s+PLANE)?(?:\s+(?:EL\.?|ELEV\.?|ELEVATION|GEODETIC|LEVEL|LINE))?$`)
	signedLengthRe   = textmatch.MustCompile(`(?i)^(?:EL\.?|ELEV\.?)?\s*([+\-±]?)\s*(` + units.LengthPattern + `)$`)
)

// sheetLevelMarks holds a sheet's level marks once read.
type sheetLevelMarks struct {
	once  sync.Once
	marks []ProjectFact
}

// LevelMarks are the sheet's roof-top and grade marks (kinds FactTopMark
// and FactGradeMark; the canonical value is signed inches), read on first
// use.
func (s *Sheet) LevelMarks() []ProjectFact {
	s.levelMarks.once.Do(func() {
		if s.Readable {
			s.levelMarks.marks = s.readPageFacts(markKeywords, readMark, isMarkValue)
		}
	})
	return s.levelMarks.marks
}

// readMark reads an elevation mark: a roof top or grade label and a
// signed level.
func readMark(label, value string) (ProjectFact, bool) {
	l := normaliseLabel(label)
	kind := ""
	switch {
	case topMarkLabelRe.MatchString(l):
		kind = FactTopMark
	case gradeMarkLabelRe.MatchString(l):
		kind = FactGradeMark
	default:
		return ProjectFact{}, false
	}
	m, ok := parseSignedLevel(value)
	if !ok {
		return ProjectFact{}, false
	}
	return ProjectFact{Kind: kind, Label: strings.TrimSpace(strings.TrimRight(strings.TrimSpace(label), ":")), Value: strings.TrimSpace(value), Measure: m, State: Read}, true
}

// parseSignedLevel reads a level mark's value into signed inches.
func parseSignedLevel(s string) (Measure, bool) {
	mm := signedLengthRe.FindStringSubmatch(strings.TrimSpace(s))
	if mm == nil {
		return Measure{}, false
	}
	m, ok := parseHeightValue(mm[2])
	if !ok && strings.TrimSpace(mm[2]) != "" {
		// 0'-0": a datum, which parseHeightValue refuses as a height.
		in, err := units.ParseLength(mm[2])
		if err != nil || in != 0 {
			return Measure{}, false
		}
		m, ok = Measure{Unit: "ft-in", HalfULP: 0.5}, true
	}
	if mm[1] == "±" && m.Canonical != 0 {
		return Measure{}, false
	}
	if mm[1] == "-" {
		m.Value, m.Canonical = -m.Value, -m.Canonical
	}
	return m, ok
}

func isMarkValue(t string) bool {
	_, ok := parseSignedLevel(t)
	return ok
}
