package model

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Fact is one code-analysis or project-data statement of a set, as
// `planreview inspect --facts` prints it: what it is, its value as
// printed and as a number, its label, and where it is.
type Fact struct {
	Kind      string  `json:"kind"`                // occupancy, construction_type, sprinklers, code, stories, stories_below_grade, building_height, area
	AreaKind  string  `json:"areaKind,omitempty"`  // floor, total, footprint, lot, coverage, other
	Level     string  `json:"level,omitempty"`     // a floor area's level: FIRST, SECOND, GROUND, MAIN, BASEMENT, LEVEL 2 …
	Qualifier string  `json:"qualifier,omitempty"` // existing, new, proposed, allowable, removed
	Label     string  `json:"label,omitempty"`     // as printed
	Value     string  `json:"value"`               // as printed
	Number    float64 `json:"number,omitempty"`    // in Unit (feet for ft-in)
	Unit      string  `json:"unit,omitempty"`      // sq ft, m², ft-in, ft, in, m, mm, %, stories
	Canonical float64 `json:"canonical,omitempty"` // square feet for areas, inches for heights
	FileIndex int     `json:"fileIndex"`
	Page      int     `json:"page"`
	Sheet     string  `json:"sheet"`
	Text      string  `json:"text"` // the words it came from
}

// Facts returns the set's code-analysis facts (occupancy groups,
// construction types, sprinkler statements, codes with editions) and its
// project data (stories, building height, areas), in file and page order.
func (set *Set) Facts() []Fact {
	var out []Fact
	cf := set.CodeFacts()
	// The line patterns and the pairs may read one statement twice.
	seen := map[string]bool{}
	addStatements := func(kind string, hs []Statement, value func(h Statement) string) {
		for _, h := range hs {
			key := fmt.Sprint(kind, h.Sheet.FileIndex, h.Sheet.Page.Number, value(h), h.Words)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, Fact{Kind: kind, Value: value(h), FileIndex: h.Sheet.FileIndex, Page: h.Sheet.Page.Number,
				Sheet: h.Sheet.Ident.Number, Text: strings.TrimSpace(h.Text)})
		}
	}
	addStatements("occupancy", cf.Groups, func(h Statement) string { return h.Group })
	addStatements("construction_type", cf.Construction, func(h Statement) string { return strings.TrimSpace(h.Text) })
	addStatements("sprinklers", cf.SprinklerStmts, func(h Statement) string {
		if h.Group == SprinklerUnknown {
			return "(caption; value not read)"
		}
		return h.Group
	})
	addStatements("code", cf.Codes, func(h Statement) string { return strings.TrimSpace(h.Group + " " + h.Extra) })
	for _, s := range set.Sheets {
		for _, f := range s.ProjectFacts() {
			fact := Fact{Kind: f.Kind, AreaKind: f.AreaKind, Level: f.Level, Qualifier: f.Qualifier, Label: f.Label,
				Value: f.Value, Number: f.Measure.Value, Unit: f.Measure.Unit, FileIndex: s.FileIndex, Page: s.Page.Number,
				Sheet: s.Ident.Number, Text: f.Text}
			if f.Measure.Unit == "ft-in" {
				fact.Number = math.Round(f.Measure.Value/12*1000) / 1000
			}
			if f.Kind == FactArea && f.Measure.Unit != "%" || f.Kind == FactBuildingHeight {
				fact.Canonical = math.Round(f.Measure.Canonical*100) / 100
			}
			out = append(out, fact)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].FileIndex != out[j].FileIndex {
			return out[i].FileIndex < out[j].FileIndex
		}
		return out[i].Page < out[j].Page
	})
	return out
}
