package pdftext

import (
	"strings"
	"testing"

	"planreview/internal/pdfgen"
)

// AutoCAD's SHX text comments are the text of stroked SHX fonts: their
// words are read where the comment's box is, upright or turned; a
// reviewer's Square comment and a hidden one are not sheet text.
func TestSHXTextComments(t *testing.T) {
	d := pdfgen.New()
	annots := []int{
		// As AutoCAD writes them: corners in either order, no appearance.
		d.Add("<< /Type /Annot /Subtype /Square /T (AutoCAD SHX Text) /F 64 /Border [0 0 0] /Rect [520 60 400 78] /Contents <FEFF004A004B0052002F00530044002F0031> >>"),
		d.Add("<< /Type /Annot /Subtype /Square /T (AutoCAD SHX Text) /F 64 /Rect [100 700 220 730] /Contents (NO. LUKISAN\rTARIKH) >>"),
		d.Add("<< /Type /Annot /Subtype /Square /T (AutoCAD SHX Text) /F 64 /Rect [40 200 52 320] /Contents (GRID LINE A) >>"),
		d.Add("<< /Type /Annot /Subtype /Square /T (Reviewer) /Rect [300 300 400 320] /Contents (FIX THIS DIMENSION) >>"),
		d.Add("<< /Type /Annot /Subtype /Square /T (AutoCAD SHX Text) /F 2 /Rect [300 400 400 420] /Contents (HIDDEN) >>"),
	}
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: "", Annots: annots})
	p := page1(t, d.Bytes())
	got := strings.Join(texts(p), " ")
	for _, w := range []string{"JKR/SD/1", "NO.", "LUKISAN", "TARIKH", "GRID", "LINE"} {
		if !strings.Contains(got, w) {
			t.Errorf("words %q lack %q", got, w)
		}
	}
	for _, w := range []string{"FIX", "HIDDEN"} {
		if strings.Contains(got, w) {
			t.Errorf("words %q hold %q", got, w)
		}
	}
	for _, w := range p.Words {
		b := pointsBox(p, w)
		switch w.Text {
		case "JKR/SD/1": // spans the box: x 400-520, y 792-78..792-60
			if b[0] < 398 || b[2] > 522 || b[2]-b[0] < 110 || b[1] < 792-80 || b[3] > 792-58 {
				t.Errorf("%s at %.0f, want across 400-520 x 714-732", w.Text, b)
			}
		case "NO.", "TARIKH": // two lines stacked in one box, the first on top
			if b[0] < 98 || b[3] > 792-698 || b[1] < 792-732 {
				t.Errorf("%s at %.0f, outside the box 100-220 x 62-92", w.Text, b)
			}
		case "GRID":
			if w.Angle != 90 || b[0] < 38 || b[2] > 54 {
				t.Errorf("%s at %.0f angle %g, want turned upwards in x 40-52", w.Text, b, w.Angle)
			}
		}
	}
	var no, tarikh Word
	for _, w := range p.Words {
		switch w.Text {
		case "NO.":
			no = w
		case "TARIKH":
			tarikh = w
		}
	}
	if no.BBox.Top >= tarikh.BBox.Top {
		t.Errorf("NO. (top %.3f) not above TARIKH (top %.3f)", no.BBox.Top, tarikh.BBox.Top)
	}
}
