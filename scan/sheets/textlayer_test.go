package sheets

import (
	"testing"

	"planreview/scan/pdftext"
)

// TestLostLettersArePartial: a page whose fonts give no text for one
// glyph in fifty or more (words missing letters) reads partial and says
// why; a few unmapped glyphs (symbols) leave it full.
func TestLostLettersArePartial(t *testing.T) {
	for _, c := range []struct {
		unmapped int
		want     string
	}{{0, TextFull}, {12, TextFull}, {25, TextPartial}} {
		p := tbPage{captions: []string{"PROJECT NO", "SHEET NO"}, values: []string{"2211", "A-101"}, title: "FLOOR PLAN"}.build(1)
		p.Glyphs, p.UnmappedGlyphs = 1000, c.unmapped
		pm := ReadSet([]*pdftext.Page{p}).Pages[0]
		if pm.TextLayer != c.want || pm.LostLetters != (c.want == TextPartial) {
			t.Errorf("%d of 1000 unmapped: text layer %q, lost letters %v", c.unmapped, pm.TextLayer, pm.LostLetters)
		}
	}
}
