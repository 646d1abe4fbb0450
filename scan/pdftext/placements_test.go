package pdftext

import (
	"fmt"
	"math"
	"testing"

	"planreview/internal/pdfgen"
)

func nearBox(a, b Box, tol float64) bool {
	return math.Abs(a.X0-b.X0) <= tol && math.Abs(a.Y0-b.Y0) <= tol && math.Abs(a.X1-b.X1) <= tol && math.Abs(a.Y1-b.Y1) <= tol
}

// Images are placed as the unit square through the transform they are
// painted with: scaled, turned, inside a form, on a turned page, inline;
// one in a layer that is off, or off the page, is not placed.
func TestImagePlacements(t *testing.T) {
	cases := []struct {
		name    string
		rotate  int
		content string
		form    string // content of a form XObject Fm drawing the image
		want    []Box
	}{
		{name: "scaled", content: "q 200 0 0 100 50 600 cm /Im Do Q",
			want: []Box{{50, 92, 250, 192}}},
		// A 100×50 image turned 90° about its origin at (300, 300): it
		// spans x 250..300 and user y 300..400, displayed y 392..492.
		{name: "turned", content: "q 0 100 -50 0 300 300 cm /Im Do Q",
			want: []Box{{250, 392, 300, 492}}},
		// Turned 45°: the hull of the turned square.
		{name: "diagonal", content: "q 70.7107 70.7107 -70.7107 70.7107 300 300 cm /Im Do Q",
			want: []Box{{229.2893, 350.5786, 370.7107, 492}}},
		{name: "inline", content: "q 10 0 0 20 100 100 cm BI /W 2 /H 1 /BPC 8 /CS /G ID \x00\x00 EI Q",
			want: []Box{{100, 672, 110, 692}}},
		{name: "in a form", content: "q 2 0 0 2 0 0 cm /Fm Do Q", form: "q 50 0 0 50 10 10 cm /Im Do Q",
			want: []Box{{20, 672, 120, 772}}},
		{name: "page turned", rotate: 90, content: "q 200 0 0 100 50 600 cm /Im Do Q",
			want: []Box{{600, 50, 700, 250}}},
		{name: "clipped to the page", content: "q 200 0 0 100 500 -50 cm /Im Do Q",
			want: []Box{{500, 742, 612, 792}}},
		{name: "off the page", content: "q 100 0 0 100 700 100 cm /Im Do Q"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := pdfgen.New()
			d.Compress = false
			img := d.Image()
			xobjs := map[string]int{"Im": img}
			if tc.form != "" {
				xobjs["Fm"] = d.Form(tc.form, [6]float64{1, 0, 0, 1, 0, 0}, [4]float64{0, 0, 612, 792}, nil, map[string]int{"Im": img})
			}
			d.AddPage(pdfgen.PageSpec{MediaBox: letter, Rotate: tc.rotate, Content: tc.content, XObjects: xobjs})
			doc := openBytes(t, d.Bytes())
			p, err := doc.Page(t.Context(), 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Images) != len(tc.want) {
				t.Fatalf("images = %v, want %v", p.Images, tc.want)
			}
			for i := range tc.want {
				if !nearBox(p.Images[i], tc.want[i], 0.01) {
					t.Errorf("image %d = %v, want %v", i, p.Images[i], tc.want[i])
				}
			}
		})
	}
}

// Ink marks where paths are painted, curves and short strokes included; a
// path only clipped (n) or in a layer that is off marks nothing, and a long
// rule marks only its ends.
func TestInkMarks(t *testing.T) {
	// A circle of four curves around (300, 400) user, radius 40, stroked;
	// a clip-only square at (100, 100); a long rule across the page.
	content := "300 440 m 322 440 340 422 340 400 c 340 378 322 360 300 360 c " +
		"278 360 260 378 260 400 c 260 422 278 440 300 440 c S " +
		"100 100 20 20 re n 0 700 m 612 700 l S"
	d := pdfgen.New()
	d.Compress = false
	p := page1(t, onePage(content, nil, d))
	if p.Ink == nil {
		t.Fatal("no ink")
	}
	// Displayed y = 792 - user y: the circle spans 352..432.
	if n := p.Ink.Cells(Box{250, 342, 350, 442}); n < 4 {
		t.Errorf("circle marks %d cells, want its four curves' ends", n)
	}
	if n := p.Ink.Cells(Box{90, 662, 130, 702}); n != 0 {
		t.Errorf("clip-only path marks %d cells", n)
	}
	if n := p.Ink.Cells(Box{100, 80, 500, 100}); n != 0 {
		t.Errorf("the middle of a long rule marks %d cells", n)
	}
	if n := p.Ink.Cells(Box{0, 80, 20, 100}); n == 0 {
		t.Errorf("the rule's end marks nothing")
	}
}

// A signed signature field is recorded where it sits (an invisible one
// as a box without area); an unsigned one, or another widget, is not.
func TestSignatureFields(t *testing.T) {
	d := pdfgen.New()
	d.Compress = false
	sigValue := d.Add("<< /Type /Sig /Filter /Adobe.PPKLite /Contents <00> >>")
	signed := d.Add(fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Sig /T (Seal) /V %d 0 R /Rect [400 50 550 200] /F 4 >>", sigValue))
	parent := d.Add(fmt.Sprintf("<< /FT /Sig /T (Engineer) /V %d 0 R >>", sigValue))
	invisible := d.Add(fmt.Sprintf("<< /Type /Annot /Subtype /Widget /Parent %d 0 R /Rect [0 0 0 0] /F 4 >>", parent))
	unsigned := d.Add("<< /Type /Annot /Subtype /Widget /FT /Sig /T (Later) /Rect [50 50 150 150] /F 4 >>")
	text := d.Add("<< /Type /Annot /Subtype /Widget /FT /Tx /T (Name) /V (JANE) /Rect [50 300 150 320] /F 4 >>")
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: "", Annots: []int{signed, invisible, unsigned, text}})
	p := page1(t, d.Bytes())
	want := []Box{{400, 592, 550, 742}, {0, 792, 0, 792}}
	if len(p.Signatures) != len(want) {
		t.Fatalf("signatures = %v, want %v", p.Signatures, want)
	}
	if !nearBox(p.Signatures[0], want[0], 0.01) {
		t.Errorf("signed field at %v, want %v", p.Signatures[0], want[0])
	}
}
