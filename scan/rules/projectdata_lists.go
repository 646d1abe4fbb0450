package rules

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

// areaList is one list: its header, items and total.
type areaList struct {
	header layout.Line
	unit   string // "m²" or "sq ft"
	items  []projectFact
	total  projectFact
}

// pageAreaLists reads the area lists of a page.
func pageAreaLists(pv *pageView) []areaList {
	lp := pv.Layout()
	var out []areaList
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
		list := areaList{header: h, unit: unit}
		prevY := h.Box.Y1
		minGap := math.Inf(1)
		closed := false
		for _, li := range col {
			l := lp.Lines[li]
			gap := l.Box.Y0 - prevY
			if len(list.items) > 0 {
				// A gap four rows wide ends the column.
				if !math.IsInf(minGap, 1) && gap > 4*minGap+2*size {
					break
				}
				minGap = min(minGap, max(gap, 0.2*size))
			}
			if a, ok := parseAreaValue(l.Text); ok {
				if a.unit != unit {
					break
				}
				list.total = projectFact{kind: FactArea, areaKind: AreaTotal, listTotal: true, label: heading, value: strings.TrimSpace(l.Text),
					m: a, pv: pv, valueWords: l.Words, labelWords: h.Words}
				closed = true
				break
			}
			v, dec, err := parseDecimal(l.Text, unit == "m²")
			if err != nil || v <= 0 {
				break
			}
			a := measured{value: v, unit: unit, canonical: v, halfULP: 0.5 * math.Pow(10, -float64(dec))}
			if unit == "m²" {
				a.canonical, a.halfULP = v*sqFtPerSqM, a.halfULP*sqFtPerSqM
			}
			list.items = append(list.items, projectFact{kind: FactArea, areaKind: AreaOther, label: heading,
				value: strings.TrimSpace(l.Text), m: a, pv: pv, valueWords: l.Words})
			prevY = l.Box.Y1
		}
		if !closed || len(list.items) < 3 {
			continue
		}
		for i := range list.items {
			list.items[i].box = wordsBox(lp, list.items[i].valueWords)
		}
		list.total.box = wordsBox(lp, list.total.words())
		list.total.text = heading + " … " + list.total.value
		out = append(out, list)
	}
	return out
}
