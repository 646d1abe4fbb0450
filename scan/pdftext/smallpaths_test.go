package pdftext

import (
	"fmt"
	"strings"
	"testing"

	"planreview/internal/pdfgen"
)

// TestSmallPaths: each painted subpath no larger than a glyph is kept,
// in displayed points, with its pieces' directions, curves and fill;
// larger ones, rectangles, paths only clipped or not painted, and hidden
// layers are not.
func TestSmallPaths(t *testing.T) {
	d := pdfgen.New()
	off := d.Add("<< /Type /OCG /Name (HIDDEN) >>")
	d.CatalogExtra = fmt.Sprintf("/OCProperties << /OCGs [%d 0 R] /D << /OFF [%d 0 R] >> >> ", off, off)
	content := strings.Join([]string{
		"100 692 m 103 700 l 106 692 l 101 695 m 105 695 l S", // an A: two subpaths
		"120 692 m 120 700 l S",                               // an I
		"130 692 m 130 700 135 700 135 692 c f",               // a filled glyph outline
		"100 600 m 300 600 l S",                               // a long rule
		"200 200 5 5 re S",                                    // a small rectangle
		"50 50 m 55 55 l n",                                   // not painted
		"/OC /L1 BDC 10 300 m 14 305 l S EMC",                 // a hidden layer
		"q 2 0 0 2 0 0 cm 150 346 m 152 350 l S Q",            // scaled: 4 × 8 pt
		"400 400 m 410 400 l 410 410 l 400 410 l h S",         // a closed square: 10 pt
	}, "\n")
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: content, Properties: map[string]int{"L1": off}})
	p := page1(t, d.Bytes())
	var got []string
	for _, s := range p.SmallPaths {
		got = append(got, fmt.Sprintf("%.0f,%.0f-%.0f,%.0f n%d s%d", s.X0, s.Y0, s.X1, s.Y1, s.Pieces, s.Shape))
	}
	want := []string{
		fmt.Sprintf("100,92-106,100 n2 s%d", ShapeRising|ShapeFalling),
		fmt.Sprintf("101,97-105,97 n1 s%d", ShapeHorizontal),
		fmt.Sprintf("120,92-120,100 n1 s%d", ShapeVertical),
		fmt.Sprintf("130,92-135,100 n1 s%d", ShapeCurved|ShapeFilled),
		fmt.Sprintf("300,92-304,100 n1 s%d", ShapeRising),
		fmt.Sprintf("400,382-410,392 n4 s%d", ShapeHorizontal|ShapeVertical),
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("small paths\n got %q\nwant %q", got, want)
	}
	if p.SmallPathsDropped {
		t.Error("dropped")
	}
}
