package pdftext

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"planreview/internal/pdfgen"
)

func segKey(s Segment) string {
	// Direction-free, to 0.1 pt.
	x0, y0, x1, y1 := s.X0, s.Y0, s.X1, s.Y1
	if x1 < x0 || (x1 == x0 && y1 < y0) {
		x0, y0, x1, y1 = x1, y1, x0, y0
	}
	return fmt.Sprintf("%.1f,%.1f-%.1f,%.1f", x0, y0, x1, y1)
}

// TestSegments: strokes and rectangle edges come out in displayed points
// (top-left origin) after the CTM and the page's /Rotate; filled areas
// give their edges, thin filled bars their centre line; curves, paths
// only clipped, tiny strokes and hidden layers give none.
func TestSegments(t *testing.T) {
	d := pdfgen.New()
	off := d.Add("<< /Type /OCG /Name (HIDDEN) >>")
	d.CatalogExtra = fmt.Sprintf("/OCProperties << /OCGs [%d 0 R] /D << /OFF [%d 0 R] >> >> ", off, off)
	content := strings.Join([]string{
		"100 692 m 300 692 l S",                // a line 100 pt from the top
		"q 2 0 0 2 0 0 cm 50 50 10 20 re S Q",  // a scaled rectangle
		"10 10 m 20 20 30 30 40 10 c S",        // a curve: nothing
		"400 400 m 400 500 l 500 500 l h S",    // a closed triangle: 3 edges
		"200 200 100 0.6 re f",                 // a thin bar: its centre line
		"300 100 50 50 re f",                   // a filled square: 4 edges
		"0 0 612 792 re W n",                   // a clip only
		"50 50 m 51 50 l S",                    // 1 pt: too short
		"/OC /L1 BDC 10 300 m 200 300 l S EMC", // a hidden layer
		"5 w 20 700 m 20 780 l S",              // width 5
	}, "\n")
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: content, Properties: map[string]int{"L1": off}})
	p := page1(t, d.Bytes())
	var got []string
	for _, s := range p.Segments {
		got = append(got, segKey(s))
	}
	want := []string{
		segKey(Segment{X0: 100, Y0: 100, X1: 300, Y1: 100}),
		segKey(Segment{X0: 100, Y0: 692, X1: 120, Y1: 692}), segKey(Segment{X0: 120, Y0: 692, X1: 120, Y1: 652}),
		segKey(Segment{X0: 120, Y0: 652, X1: 100, Y1: 652}), segKey(Segment{X0: 100, Y0: 652, X1: 100, Y1: 692}),
		segKey(Segment{X0: 400, Y0: 392, X1: 400, Y1: 292}), segKey(Segment{X0: 400, Y0: 292, X1: 500, Y1: 292}),
		segKey(Segment{X0: 500, Y0: 292, X1: 400, Y1: 392}),
		segKey(Segment{X0: 200, Y0: 591.7, X1: 300, Y1: 591.7}),
		segKey(Segment{X0: 300, Y0: 692, X1: 350, Y1: 692}), segKey(Segment{X0: 350, Y0: 692, X1: 350, Y1: 642}),
		segKey(Segment{X0: 350, Y0: 642, X1: 300, Y1: 642}), segKey(Segment{X0: 300, Y0: 642, X1: 300, Y1: 692}),
		segKey(Segment{X0: 20, Y0: 92, X1: 20, Y1: 12}),
	}
	if !slices.Equal(got, want) {
		t.Errorf("segments\n got %q\nwant %q", got, want)
	}
	if n := len(p.Segments); n > 0 {
		if w := p.Segments[n-1].Width; w != 5 {
			t.Errorf("stroke width = %g, want 5", w)
		}
		if w := p.Segments[0].Width; w != 1 {
			t.Errorf("default stroke width = %g, want 1", w)
		}
	}
}

// TestSegmentsRotatedPage: on a page with /Rotate 90 segments are in the
// displayed page's coordinates, as words are.
func TestSegmentsRotatedPage(t *testing.T) {
	d := pdfgen.New()
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Rotate: 90, Content: "100 700 m 300 700 l S"})
	p := page1(t, d.Bytes())
	if len(p.Segments) != 1 {
		t.Fatalf("segments = %+v", p.Segments)
	}
	// Rotated 90° clockwise: user (x, y) shows at (y, x) on a 792 × 612 page.
	if got, want := segKey(p.Segments[0]), segKey(Segment{X0: 700, Y0: 100, X1: 700, Y1: 300}); got != want {
		t.Errorf("segment %s, want %s", got, want)
	}
}

// TestSegmentsBounded: a page drawing more strokes than the budget keeps
// the first maxSegmentsPerPage and says so.
func TestSegmentsBounded(t *testing.T) {
	var b strings.Builder
	for i := range maxSegmentsPerPage + 500 {
		fmt.Fprintf(&b, "10 %d m 100 %d l\n", i%700+10, i%700+10)
	}
	b.WriteString("S")
	d := pdfgen.New()
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: b.String()})
	p := page1(t, d.Bytes())
	if len(p.Segments) != maxSegmentsPerPage || !p.SegmentsDropped {
		t.Errorf("%d segments, dropped %v", len(p.Segments), p.SegmentsDropped)
	}
}

// TestWordAngle: a word keeps its true baseline angle and its baseline
// ends, also at angles poppler-style breaking rounds to quarter turns.
func TestWordAngle(t *testing.T) {
	for _, deg := range []float64{0, 30, 90, 180, 270, 315} {
		d := pdfgen.New()
		f := d.StandardFont("Helvetica")
		r := deg * math.Pi / 180
		c, s := math.Cos(r), math.Sin(r)
		content := fmt.Sprintf("BT /F1 10 Tf %.6f %.6f %.6f %.6f 300 400 Tm (W) Tj ET", c, s, -s, c)
		p := page1(t, onePage(content, map[string]int{"F1": f}, d))
		if len(p.Words) != 1 {
			t.Fatalf("%g°: words %+v", deg, p.Words)
		}
		w := p.Words[0]
		if math.Abs(w.Angle-deg) > 0.01 {
			t.Errorf("%g°: angle %g", deg, w.Angle)
		}
		// Baseline from (300, 392) along the angle, 9.44 pt (W's advance).
		bl := w.Baseline
		if math.Abs(bl[0]-300) > 0.01 || math.Abs(bl[1]-392) > 0.01 ||
			math.Abs(math.Hypot(bl[2]-bl[0], bl[3]-bl[1])-9.44) > 0.01 {
			t.Errorf("%g°: baseline %v", deg, bl)
		}
	}
}

// TestToUnicodeIdentityName: a Type0 font whose /ToUnicode is the name
// /Identity-H (not a CMap stream) reads its two-byte codes as Unicode, as
// poppler does (seen on a real sheet exported from a German CAD tool).
func TestToUnicodeIdentityName(t *testing.T) {
	d := pdfgen.New()
	fd := d.Add("<< /Type /FontDescriptor /FontName /AHBOPG+Verdana /Flags 4 /FontBBox [-100 -250 1100 950] /ItalicAngle 0 /Ascent 900 /Descent -250 /CapHeight 700 /StemV 80 >>")
	cid := d.Add(fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /AHBOPG+Verdana /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor %d 0 R /DW 600 /CIDToGIDMap /Identity >>", fd))
	f := d.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /AHBOPG+Verdana /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode /Identity-H >>", cid))
	p := page1(t, onePage("BT /F1 10 Tf 100 700 Td <0053002D00300039> Tj ET", map[string]int{"F1": f}, d))
	if got := strings.Join(texts(p), " "); got != "S-09" {
		t.Fatalf("words = %q, want S-09", got)
	}
}
