package model

import (
	"math"
	"sort"
	"strings"

	"planreview/scan/layout"
	"planreview/textmatch"
)

// Area lists: a room list or area schedule printed as a column of plain
// numbers under a header that names an area and its unit ("Površina
// [m2]", "AREA (SF)"), closed by a total carrying the unit ("143.39 m²").
// The numbers are the list's items and the last value its total; the
// total is a project fact (area/total), the items are what it must add up
// to. A column with a gap wider than four rows, or fewer than three items,
// is not a list.

var areaHeaderRe = textmatch.MustCompile(`(?i)\b(?:AREA|POVR[SŠ]INA|FL[ÄA]CHE|SUPERFICIE|OPPERVLAKTE|POWIERZCHNIA|PLOCHA|SQUARE\s+FOOTAGE)\s*[\[(]\s*(M2|M²|SQ\.?\s*M|SF|SQ\.?\s*FT|FT2|FT²)\s*[\])]\s*$`)

// AreaList is one list: its header, items and total.
type AreaList struct {
	Header layout.Line
	Unit   string // "m²" or "sq ft"
	Items  []ProjectFact
	Total  ProjectFact
}

// pageAreaLists reads the area lists of a page.
func (s *Sheet) pageAreaLists() []AreaList {
	lp := s.Layout()
	var out []AreaList
	for hi, h := range lp.Lines {
		// The heading ends with its unit in brackets: a byte test before
		// the expression.
		t := strings.TrimSpace(h.Text)
		if !upright(h) || t == "" || (t[len(t)-1] != ']' && t[len(t)-1] != ')') {
			continue
		}
		mi := areaHeaderRe.FindStringSubmatchIndex(h.Text)
		if mi == nil {
			continue
		}
		m := []string{h.Text[mi[0]:mi[1]], h.Text[mi[2]:mi[3]]}
		heading := strings.TrimSpace(m[0]) // the area column's own heading, not its neighbours'
		unit := "sq ft"
		if u := strings.ToUpper(m[1]); strings.HasPrefix(u, "M") || strings.HasPrefix(u, "SQ M") || strings.HasPrefix(u, "SQ.") && strings.HasSuffix(u, "M") {
			unit = "m²"
		}
		size := max(h.FontSize, 1)
		// The column: lines under the header whose right edge meets the
		// header's (numbers are set flush right under their heading).
		var col []int
		for li, l := range lp.Lines {
			if li == hi || !upright(l) || l.Box.Y0 < h.Box.Y1-0.3*size {
				continue
			}
			if math.Abs(l.Box.X1-h.Box.X1) > 2*size || l.Box.X0 < h.Box.X0-4*size {
				continue
			}
			col = append(col, li)
		}
		sort.Slice(col, func(i, j int) bool { return lp.Lines[col[i]].Box.Y0 < lp.Lines[col[j]].Box.Y0 })
		list := AreaList{Header: h, Unit: unit}
		prevY := h.Box.Y1
		minGap := math.Inf(1)
		closed := false
		for _, li := range col {
			l := lp.Lines[li]
			gap := l.Box.Y0 - prevY
			if len(list.Items) > 0 {
				// A gap four rows wide ends the column.
				if !math.IsInf(minGap, 1) && gap > 4*minGap+2*size {
					break
				}
				minGap = min(minGap, max(gap, 0.2*size))
			}
			if a, ok := parseAreaValue(l.Text); ok {
				if a.Unit != unit {
					break
				}
				list.Total = ProjectFact{Kind: FactArea, AreaKind: AreaTotal, ListTotal: true, Label: heading, Value: strings.TrimSpace(l.Text),
					Measure: a, Sheet: s, ValueWords: l.Words, LabelWords: h.Words, State: Read, Source: SourceList}
				closed = true
				break
			}
			v, dec, err := parseDecimal(l.Text, unit == "m²")
			if err != nil || v <= 0 {
				break
			}
			a := Measure{Value: v, Unit: unit, Canonical: v, HalfULP: 0.5 * math.Pow(10, -float64(dec))}
			if unit == "m²" {
				a.Canonical, a.HalfULP = v*sqFtPerSqM, a.HalfULP*sqFtPerSqM
			}
			list.Items = append(list.Items, ProjectFact{Kind: FactArea, AreaKind: AreaOther, Label: heading,
				Value: strings.TrimSpace(l.Text), Measure: a, Sheet: s, ValueWords: l.Words, State: Read, Source: SourceList})
			prevY = l.Box.Y1
		}
		if !closed || len(list.Items) < 3 {
			continue
		}
		for i := range list.Items {
			list.Items[i].Box = factBox(lp, list.Items[i].ValueWords)
		}
		list.Total.Box = factBox(lp, list.Total.Words())
		list.Total.Text = heading + " … " + list.Total.Value
		out = append(out, list)
	}
	return out
}
