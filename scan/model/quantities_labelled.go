package model

import (
	"strings"

	"planreview/scan/layout"
	"planreview/scan/units"
	"planreview/textmatch"
)

// The label reader: a stair's data named by label, its value beside, under
// or over it ("HEADROOM" over "6'-8"", "RISER:" then "7 1/2""), or a table
// column headed by the label ("RISER", "TREAD"). Only labels that name the
// measure and nothing else (not "RISER DIAGRAM", not "GUARD POST").

type labelKind struct {
	kind  QuantityKind
	keys  keyMask // a label holds one of these words
	label *textmatch.Regexp
}

var labelKinds = []labelKind{
	{RiserHeight, maskOf("RISE"), textmatch.MustCompile(`(?i)^\s*(?:MAX(?:IMUM)?\.?\s+)?(?:STAIR\s+)?RISERS?(?:\s+(?:HEIGHT|HT\.?))?\s*:?\s*$`)},
	{TreadDepth, maskOf("TREAD", "RUN"), textmatch.MustCompile(`(?i)^\s*(?:MIN(?:IMUM)?\.?\s+)?(?:STAIR\s+)?(?:TREADS?(?:\s+(?:DEPTH|RUN))?|RUN)\s*:?\s*$`)},
	{Headroom, maskOf("HEAD"), textmatch.MustCompile(`(?i)^\s*(?:MIN(?:IMUM)?\.?\s+)?(?:STAIR\s+)?HEAD\s*ROOM\s*:?\s*$`)},
	{HandrailHeight, maskOf("HANDRAIL"), textmatch.MustCompile(`(?i)^\s*HANDRAIL\s+(?:HEIGHT|HT\.?)\s*:?\s*$`)},
}

var (
	// The value of a labelled pair or a column cell: one imperial length.
	labelledValueRe = textmatch.MustCompile(`(?i)^\s*(` + units.ImperialLengthPattern + `)\s*(?:MAX\.?|MIN\.?|TYP\.?)?\s*$`)
	// Any label of a stair's measures: a value line between two of them
	// ("RISER HEIGHT" / 7 1/2" / "TREAD DEPTH") belongs to either, and is
	// not read.
	stairLabelRe = textmatch.MustCompile(`(?i)^\s*(?:MAX(?:IMUM)?\.?\s+|MIN(?:IMUM)?\.?\s+)?(?:STAIR\s+)?(?:RISERS?|RISE|TREADS?|RUN|HEAD\s*ROOM|HANDRAIL|GUARD|WIDTH|NOSING)\b`)
	stairWordRe  = textmatch.MustCompile(`(?i)\bSTAIR|\bLANDING|\bNOSING|\bFLIGHT`)
	riserWordRe  = textmatch.MustCompile(`(?i)\bRISERS?\b|\bRISE\b`)
	treadWordRe  = textmatch.MustCompile(`(?i)\bTREADS?\b|\bRUN\b`)
	pipeRiserRe  = textmatch.MustCompile(`(?i)\b(?:FIRE|SPRINKLER|STANDPIPE|WATER|GAS|PIPE|PLUMBING|DRAIN|VENT|ELEC|CONDUIT|DUCT|MECH)`)
	labelKeys    = []string{"RISE", "TREAD", "RUN", "HEAD", "HANDRAIL"}
)

// stairNear reports whether the text around a box is about a stair (the
// stair named, or both its measures side by side) and not about piping.
func (pt *pageText) stairNear(b layout.Box) (string, bool) {
	t := pt.around(b)
	if pipeRiserRe.MatchString(t) {
		return t, false
	}
	return t, stairWordRe.MatchString(t) || riserWordRe.MatchString(t) && treadWordRe.MatchString(t)
}

func (pt *pageText) readLabelled() []Quantity {
	if pt.keys&maskOf(labelKeys...) == 0 {
		return nil
	}
	var out []Quantity
	for _, lk := range labelKinds {
		out = append(out, pt.readStacked(lk)...)
		out = append(out, pt.readPairs(lk)...)
		out = append(out, pt.readColumns(lk)...)
	}
	return out
}

func (pt *pageText) labelledQuantity(k QuantityKind, label, value string, words []int, around string, p Printing) (Quantity, bool) {
	m := labelledValueRe.FindStringSubmatch(value)
	if m == nil {
		return Quantity{}, false
	}
	v, err := units.ParseImperialLength(m[1])
	if err != nil {
		return Quantity{}, false
	}
	text := strings.TrimSpace(strings.TrimSpace(label) + " " + strings.TrimSpace(value))
	return Quantity{Kind: k, Value: round(v), Printed: strings.TrimSpace(m[1]), Text: text, Words: words,
		Printing: p, Bound: boundOf(label + " " + value), Tags: pt.tags(around, text)}, true
}

// readStacked reads a label standing alone on its line ("HEADROOM", "MAX.
// RISER") with a value standing alone on the line just under or just over
// it and overlapping it across (a section's dimension under or over its
// label): the layout pairs labels without a colon only in cells.
func (pt *pageText) readStacked(lk labelKind) []Quantity {
	var out []Quantity
	for li, l := range pt.lines {
		if l.keys&lk.keys == 0 || !lk.label.MatchString(l.text) {
			continue
		}
		lb := l.box
		h := lb.Height()
		best, bestGap := -1, 1.2*h
		for vi, v := range pt.lines {
			vb := v.box
			if vi == li || vb.X0 >= lb.X1 || vb.X1 <= lb.X0 {
				continue
			}
			gap := max(vb.Y0-lb.Y1, lb.Y0-vb.Y1)
			if gap < -0.2*h || gap >= bestGap || !labelledValueRe.MatchString(v.text) {
				continue
			}
			best, bestGap = vi, gap
		}
		if best < 0 || pt.nextToOtherLabel(best, li) {
			continue
		}
		around, stair := pt.stairNear(lb)
		if !stair {
			continue
		}
		v := pt.lines[best]
		words := append(append([]int{}, l.words...), v.words...)
		if q, ok := pt.labelledQuantity(lk.kind, l.text, v.text, words, around, PrintedLabelled); ok {
			out = append(out, q)
		}
	}
	return out
}

// nextToOtherLabel reports whether value line vi also touches a stair
// label line other than li (above or below it, overlapping across).
func (pt *pageText) nextToOtherLabel(vi, li int) bool {
	vb := pt.lines[vi].box
	h := vb.Height()
	for k, l := range pt.lines {
		if k == li || k == vi || !stairLabelRe.MatchString(l.text) {
			continue
		}
		b := l.box
		if b.X0 >= vb.X1 || b.X1 <= vb.X0 {
			continue
		}
		if gap := max(b.Y0-vb.Y1, vb.Y0-b.Y1); gap > -0.2*h && gap < 1.2*h {
			return true
		}
	}
	return false
}

// readPairs reads the values the layout paired with the label (beside it,
// under it, in the next cell).
func (pt *pageText) readPairs(lk labelKind) []Quantity {
	var out []Quantity
	for _, pr := range pt.lp.Pairs {
		label := pt.text(pr.LabelWords)
		if !lk.label.MatchString(label) {
			continue
		}
		value := pt.text(pr.ValueWords)
		around, stair := pt.stairNear(pr.Box)
		if !stair {
			continue
		}
		words := append(append([]int{}, pr.LabelWords...), pr.ValueWords...)
		if q, ok := pt.labelledQuantity(lk.kind, label, value, words, around+"\n"+label+" "+value, PrintedLabelled); ok {
			out = append(out, q)
		}
	}
	return out
}

// readColumns reads the cells under a table column headed by the label.
func (pt *pageText) readColumns(lk labelKind) []Quantity {
	var out []Quantity
	for _, tb := range pt.lp.Tables {
		for hi, row := range tb.Rows {
			if hi > 3 {
				break
			}
			for _, hc := range row.Cells {
				header := pt.text(hc.Words)
				if !lk.label.MatchString(header) {
					continue
				}
				if _, stair := pt.stairNear(tb.Box); !stair {
					continue
				}
				for _, body := range tb.Rows[hi+1:] {
					cell, ok := cellUnder(body, hc.Box)
					if !ok {
						continue
					}
					rowText := pt.rowText(body)
					q, ok := pt.labelledQuantity(lk.kind, header, pt.text(cell.Words), cell.Words, rowText, PrintedLabelled)
					if !ok {
						continue
					}
					out = append(out, q)
				}
			}
		}
	}
	return out
}

// cellUnder is the row's cell whose centre lies in the column's span.
func cellUnder(row layout.Row, col layout.Box) (layout.Cell, bool) {
	for _, c := range row.Cells {
		x := (c.Box.X0 + c.Box.X1) / 2
		if x >= col.X0 && x <= col.X1 {
			return c, true
		}
	}
	return layout.Cell{}, false
}

func (pt *pageText) rowText(row layout.Row) string {
	parts := make([]string, 0, len(row.Cells))
	for _, c := range row.Cells {
		parts = append(parts, pt.text(c.Words))
	}
	return strings.Join(parts, " | ")
}
