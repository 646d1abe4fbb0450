package plangen

import "math/rand"

// SheetSpec is one sheet of a small built-in set for a check's tests: a
// title block (number, title, date, scale; empty values are left out) and
// labels placed where the test puts them.
type SheetSpec struct {
	Number, Title, Date, Scale string
	// Address is the project address in the title block; empty for
	// "100 MAIN STREET, SPRINGFIELD, IL 62701".
	Address string
	Labels  []LabelSpec
	Strokes []Stroke
	Images  []Area
	Circles []Circle
}

// Grid returns the rules of a table: rows × len(colWidths) cells of rowH
// points, its top-left corner at (left, top).
func Grid(left, top, rowH float64, rows int, colWidths ...float64) []Stroke {
	width := 0.0
	for _, w := range colWidths {
		width += w
	}
	var out []Stroke
	for r := 0; r <= rows; r++ {
		y := top + float64(r)*rowH
		out = append(out, Stroke{left, y, left + width, y})
	}
	x := left
	for c := 0; c <= len(colWidths); c++ {
		out = append(out, Stroke{x, top, x, top + float64(rows)*rowH})
		if c < len(colWidths) {
			x += colWidths[c]
		}
	}
	return out
}

// Table lays out rows of cells in a ruled grid at (left, top): each
// non-empty cell's text at size 10, 4 points in from its cell's corner, in
// rows 24 points high, and the grid's rules.
func Table(left, top float64, widths []float64, rows ...[]string) ([]LabelSpec, []Stroke) {
	const rowH = 24.0
	var labels []LabelSpec
	for r, row := range rows {
		x := left
		for c, text := range row {
			if text != "" {
				labels = append(labels, LabelSpec{Text: text, Left: x + 4, Top: top + float64(r)*rowH + 6, Size: 10})
			}
			x += widths[c]
		}
	}
	return labels, Grid(left, top, rowH, len(rows), widths...)
}

// LabelSpec is one text label, its top-left corner in points from the
// page's top-left corner (ARCH D, 2592 × 1728).
type LabelSpec struct {
	Text      string
	Left, Top float64
	Size      float64 // 0: 12 pt
}

// Notes lays out lines of text one under the other from (left, top).
func Notes(left, top float64, lines ...string) []LabelSpec {
	out := make([]LabelSpec, len(lines))
	for i, l := range lines {
		out[i] = LabelSpec{Text: l, Left: left, Top: top + float64(i)*22}
	}
	return out
}

// Sheets writes the sheets as one PDF file (with its ground truth), for
// tests that need real extraction of a few precise sheets: the true cases
// of a check and the look-alikes it must not flag.
func Sheets(name string, specs []SheetSpec) (*File, error) {
	g := &generator{rng: rand.New(rand.NewSource(1)), set: &Set{}}
	f := g.newFile(name)
	for _, sp := range specs {
		s := g.newSheet(f, sp.Number, sp.Title)
		address := sp.Address
		if address == "" {
			address = "100 MAIN STREET, SPRINGFIELD, IL 62701"
		}
		s.titleBlock("TEST PROJECT", address, sp.Date, sp.Scale)
		for _, l := range sp.Labels {
			size := l.Size
			if size == 0 {
				size = 12
			}
			s.text(l.Text, "Helvetica", size, l.Left, l.Top)
		}
		s.page().Strokes = append(s.page().Strokes, sp.Strokes...)
		s.page().Images = append(s.page().Images, sp.Images...)
		s.page().Circles = append(s.page().Circles, sp.Circles...)
	}
	if g.err != nil {
		return nil, g.err
	}
	pdf, err := writePDF(g.set.Files[f].Pages)
	if err != nil {
		return nil, err
	}
	g.set.Files[f].PDF = pdf
	return &g.set.Files[f], nil
}
