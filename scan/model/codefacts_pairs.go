package model

import (
	"math"
	"slices"
	"strings"
	"sync"

	"planreview/scan/sheets"
	"planreview/textmatch"
)

// Code-analysis statements printed as label and value (the value right of
// its label, under it, or in the next cell of a table), read from the
// layout's pairs: "OCCUPANCY GROUP" over "R-3", a cell "CONSTRUCTION TYPE"
// beside "V-B". The line patterns (codefacts.go) read the same facts when
// label and value share a line.
var (
	occupancyLabelRe    = textmatch.MustCompile(`(?i)^(?:OCCUPANCY(?:\s+(?:GROUP|GROUPS|CLASSIFICATION|CLASS|TYPE|CATEGORY))?|USE\s+GROUP|OCC\.?\s+GROUP|GROUP)\s*:?$`)
	occupancyValueRe    = textmatch.MustCompile(`(?i)^(?:GROUP\s+)?(A-?[1-5]|B|E|F-?[12]|H-?[1-5]|I-?[1-4]|M|R-?[1-4]|S-?[12]|U)\b`)
	constructionLabelRe = textmatch.MustCompile(`(?i)^(?:CONSTRUCTION(?:\s+(?:TYPE|CLASSIFICATION|CLASS))?|TYPE\s+OF\s+CONSTRUCTION|CONST\.?\s+TYPE|BUILDING\s+TYPE)\s*:?$`)
	constructionValueRe = textmatch.MustCompile(`(?i)^(?:TYPE\s+)?(IV-HT|IV-[ABC]|I{1,3}-?[AB]|IV|V-?[AB])\b`)
	sprinklerLabelRe    = textmatch.MustCompile(`(?i)^(?:(?:AUTOMATIC\s+|FIRE\s+)?SPRINKLER(?:S|ED)?(?:\s+SYSTEM)?|SPRINKLERED|FIRE\s+SUPPRESSION(?:\s+SYSTEM)?)\s*:?$`)
	sprinklerValueRe    = textmatch.MustCompile(`(?i)^(YES|NO|Y|N|NONE|NFPA\s*13[DR]?|FULLY\s+SPRINKLERED|NON-?\s*SPRINKLERED|NOT\s+SPRINKLERED|NOT\s+(?:REQUIRED|PROVIDED)|N/A)(?:\W|$)`)
	// codeSheetRe names a cover, code or general sheet by its title.
	codeSheetRe     = textmatch.MustCompile(`(?i)\b(?:COVER|TITLE\s+SHEET|CODE\s+(?:ANALYSIS|SUMMARY|REVIEW|COMPLIANCE|PLAN)|PROJECT\s+(?:DATA|INFORMATION|SUMMARY)|GENERAL\s+(?:INFORMATION|NOTES))\b`)
	codeSheetLineRe = LineSet.MustCompile(`(?i)\bOCCUPANCY\b|\bCONSTRUCTION\s+TYPE\b|\bTYPE\s+OF\s+CONSTRUCTION\b|\bSPRINKLER`)
)

// sheetCodePairs are the statements a sheet prints as label and value
// that its lines' statements do not hold already, read on first use.
type sheetCodePairs struct {
	once                             sync.Once
	groups, construction, sprinklers []Statement
}

// pairStatements reads the sheet's code-analysis pairs: the layout's
// pairs, a label alone on its line over its value, a table row's label
// cell and the next filled cell.
func (s *Sheet) pairStatements() *sheetCodePairs {
	p := &s.codePairs
	p.once.Do(func() {
		lines := s.codeLines()
		lp := s.Layout()
		for _, pr := range lp.Pairs {
			p.add(lines, s, pr.Label, pr.Value, append(append([]int{}, pr.LabelWords...), pr.ValueWords...))
		}
		// A label alone on its line with its value alone on the line just
		// under it, in the same type ("OCCUPANCY GROUP" over "R-3"): the
		// layout pairs a caption with a value below only when the value is
		// set larger.
		for li, l := range s.Lines {
			if !codeLabel(l.Text) {
				continue
			}
			if vi := lineUnder(s.Lines, li); vi >= 0 {
				v := s.Lines[vi]
				p.add(lines, s, l.Text, v.Text, append(append([]int{}, l.Words...), v.Words...))
			}
		}
		// A code-analysis table's row: the label's cell and the next
		// filled cell of its row. The layout pairs a caption with a value
		// cell only when the value has a digit or larger type (a schedule's
		// header row is no field), so "CONSTRUCTION TYPE" | "V-B" and
		// "SPRINKLERED" | "NO" are read here, where the label itself says
		// what the value is.
		for _, t := range lp.Tables {
			for _, row := range t.Rows {
				for ci, c := range row.Cells {
					if len(c.Words) == 0 || !codeLabel(c.Text) {
						continue
					}
					for _, n := range row.Cells[ci+1:] {
						if len(n.Words) > 0 {
							p.add(lines, s, c.Text, n.Text, append(append([]int{}, c.Words...), n.Words...))
							break
						}
					}
				}
			}
		}
	})
	return p
}

// lineUnder returns the line standing just under line li, left-aligned
// with it (within a line height), with at most a line height of space
// between: -1 when there is none.
func lineUnder(lines []sheets.Line, li int) int {
	l := lines[li]
	h := l.Box.Y1 - l.Box.Y0
	best, gap := -1, 0.0
	for i, o := range lines {
		if i == li || o.Box.Y0 < l.Box.Y1-0.2*h || o.Box.Y0-l.Box.Y1 > h || math.Abs(o.Box.X0-l.Box.X0) > h {
			continue
		}
		if g := o.Box.Y0 - l.Box.Y1; best < 0 || g < gap {
			best, gap = i, g
		}
	}
	return best
}

// codeLabel reports whether a cell's text is the label of a code-analysis
// fact.
func codeLabel(text string) bool {
	label := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(text), ":"))
	return occupancyLabelRe.MatchString(label) || constructionLabelRe.MatchString(label) || sprinklerLabelRe.MatchString(label)
}

// add records the statement a label and its value make, when the value
// reads as one (an occupancy group, a construction type, a sprinkler
// statement). A statement already read from the same words, on the
// sheet's lines or as a pair, is not counted twice.
func (p *sheetCodePairs) add(lines *sheetCodeLines, s *Sheet, rawLabel, rawValue string, words []int) {
	label := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(rawLabel), ":"))
	value := strings.TrimSpace(rawValue)
	h := Statement{Sheet: s, Words: words, Text: rawLabel + " " + rawValue}
	seen := func(hss ...[]Statement) bool {
		for _, hs := range hss {
			for _, o := range hs {
				if slices.Equal(o.Words, words) {
					return true
				}
			}
		}
		return false
	}
	switch {
	case occupancyLabelRe.MatchString(label):
		if m := occupancyValueRe.FindStringSubmatch(value); m != nil && !seen(lines.groups, p.groups) {
			// "R3" is group R-3 written without its hyphen.
			h.Group = strings.ToUpper(m[1])
			if len(h.Group) == 2 {
				h.Group = h.Group[:1] + "-" + h.Group[1:]
			}
			p.groups = append(p.groups, h)
		}
	case constructionLabelRe.MatchString(label):
		if constructionValueRe.MatchString(value) && !seen(lines.construction, p.construction) {
			p.construction = append(p.construction, h)
		}
	case sprinklerLabelRe.MatchString(label):
		if m := sprinklerValueRe.FindStringSubmatch(value); m != nil && !seen(lines.sprinklers, p.sprinklers) {
			switch v := strings.Join(strings.Fields(strings.ToUpper(m[1])), " "); v {
			case "NO", "N", "NONE", "NOT REQUIRED", "NOT PROVIDED", "N/A":
				h.Group = "NON-SPRINKLERED"
			case "YES", "Y":
				h.Group = "SPRINKLERED"
			default:
				h.Group = v
			}
			p.sprinklers = append(p.sprinklers, h)
		}
	}
}

// IsCodeSheet reports whether the sheet's title names a cover, title,
// code-analysis, project-data or general sheet: where a code analysis is
// printed.
func (s *Sheet) IsCodeSheet() bool { return codeSheetRe.MatchString(s.Ident.Title) }

// mayHoldCodeAnalysis reports whether a page can carry the code analysis:
// its title names a cover, code or general sheet, it is a general sheet,
// or a line names occupancy, construction type or sprinklers.
func (s *Sheet) mayHoldCodeAnalysis() bool {
	if s.Ident.Type == "general" || s.IsCodeSheet() {
		return true
	}
	r := s.codeLines()
	for li := range s.Lines {
		if r.matches(s, codeSheetLineRe, li) {
			return true
		}
	}
	return false
}
