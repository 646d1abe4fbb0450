package layout

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"planreview/internal/pdfgen"
	"planreview/scan/pdftext"
)

// sheet builds a one-page PDF for a test, in displayed points (top-left
// origin, y down) so a test reads like the page it draws. Text is
// Helvetica (a standard font: the extractor uses its AFM widths).
type sheet struct {
	w, h    float64
	content strings.Builder
}

func newSheet(w, h float64) *sheet { return &sheet{w: w, h: h} }

// text draws s with its baseline starting at (x, y), at size pt, turned
// deg degrees counter-clockwise.
func (s *sheet) text(x, y, size, deg float64, str string) {
	r := deg * math.Pi / 180
	c, sn := math.Cos(r), math.Sin(r)
	esc := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(str)
	fmt.Fprintf(&s.content, "BT /F1 %g Tf %.6f %.6f %.6f %.6f %g %g Tm (%s) Tj ET\n", size, c, sn, -sn, c, x, s.h-y, esc)
}

// line strokes a straight line.
func (s *sheet) line(x0, y0, x1, y1 float64) {
	fmt.Fprintf(&s.content, "0.5 w %g %g m %g %g l S\n", x0, s.h-y0, x1, s.h-y1)
}

// rect strokes a rectangle with its top-left corner at (x, y).
func (s *sheet) rect(x, y, w, h float64) {
	fmt.Fprintf(&s.content, "0.5 w %g %g %g %g re S\n", x, s.h-y-h, w, h)
}

// grid strokes a table's rules: column edges xs and row edges ys.
func (s *sheet) grid(xs, ys []float64) {
	for _, x := range xs {
		s.line(x, ys[0], x, ys[len(ys)-1])
	}
	for _, y := range ys {
		s.line(xs[0], y, xs[len(xs)-1], y)
	}
}

func (s *sheet) pdf() []byte {
	d := pdfgen.New()
	font := d.StandardFont("Helvetica")
	d.AddPage(pdfgen.PageSpec{MediaBox: [4]float64{0, 0, s.w, s.h}, Content: s.content.String(), Fonts: map[string]int{"F1": font}})
	return d.Bytes()
}

// page extracts the sheet's page with pdftext.
func (s *sheet) page(t testing.TB) *pdftext.Page {
	t.Helper()
	data := s.pdf()
	doc, err := pdftext.OpenReader(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	p, err := doc.Page(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// analyze extracts and lays out the sheet.
func (s *sheet) analyze(t testing.TB) *Page {
	t.Helper()
	return Analyze(s.page(t))
}

func lineTexts(p *Page) []string {
	out := make([]string, len(p.Lines))
	for i, l := range p.Lines {
		out[i] = l.Text
	}
	return out
}
