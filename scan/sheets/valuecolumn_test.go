package sheets

import (
	"testing"

	"planreview/scan/pdftext"
)

func fieldsOf(p *pdftext.Page) []Field {
	phrases := buildPhrases(p)
	return readFields(p, phrases, findCaptions(p, phrases))
}

// TestValueColumnFarFromCaptions: a title block's table whose captions are
// stacked on the left and whose values are right-aligned further right
// than a value usually sits from its caption.
func TestValueColumnFarFromCaptions(t *testing.T) {
	const pw, ph = 2592.0, 1728.0
	p := &pdftext.Page{Number: 1, Width: pw, Height: ph, Readable: true}
	rows := [][2]string{{"ISSUED FOR:", "100% CD's"}, {"DATE ISSUED:", "3/6/2020"}, {"SCALE:", "As indicated"}, {"PROJECT NUMBER:", "17180"}, {"DRAWN BY:", "JAG"}}
	for i, r := range rows {
		y := 1507 + float64(i)*17
		p.Words = append(p.Words, phrase(r[0], 2278, y, 10.6, pw, ph)...)
		width := float64(len(r[1])) * 10.6 * 0.55
		p.Words = append(p.Words, phrase(r[1], 2520-width, y, 10.6, pw, ph)...)
	}
	var scale string
	for _, f := range fieldsOf(p) {
		if f.Kind == FieldScale {
			scale = f.Value
		}
	}
	if scale != "As indicated" {
		t.Errorf("scale %q, want the value column's %q", scale, "As indicated")
	}
}

// TestLoneCaptionTakesNoFarText: the look-alike, a caption alone (no
// column of captions) with unrelated text far along its row: no value.
func TestLoneCaptionTakesNoFarText(t *testing.T) {
	const pw, ph = 2592.0, 1728.0
	p := &pdftext.Page{Number: 1, Width: pw, Height: ph, Readable: true}
	p.Words = append(p.Words, phrase("SCALE:", 2278, 1541, 10.6, pw, ph)...)
	p.Words = append(p.Words, phrase("EXISTING TO REMAIN", 2440, 1541, 10.6, pw, ph)...)
	for _, f := range fieldsOf(p) {
		if f.Kind == FieldScale && f.Value != "" {
			t.Errorf("scale %q read from text far along the row", f.Value)
		}
	}
}
