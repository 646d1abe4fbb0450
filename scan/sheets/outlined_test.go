package sheets

import (
	"testing"

	"planreview/scan/pdftext"
)

// glyphStrokes draws a word's worth of outlined glyphs (short strokes, as a
// CAD font stroked as lines) in the box from (x, y), size points tall.
func glyphStrokes(x, y, size float64, chars int) []pdftext.Segment {
	var out []pdftext.Segment
	for c := 0; c < chars; c++ {
		left := x + float64(c)*size*0.7
		out = append(out,
			pdftext.Segment{X0: left, Y0: y, X1: left, Y1: y + size},
			pdftext.Segment{X0: left, Y0: y, X1: left + size*0.5, Y1: y},
			pdftext.Segment{X0: left, Y0: y + size/2, X1: left + size*0.4, Y1: y + size/2},
			pdftext.Segment{X0: left + size*0.5, Y0: y, X1: left + size*0.5, Y1: y + size})
	}
	return out
}

func numberedSet(third func(p *pdftext.Page)) SetModel {
	var pages []*pdftext.Page
	for n, num := range []string{"A-101", "A-102", "X"} {
		tp := tbPage{captions: []string{"PROJECT NO", "SHEET NO"}, values: []string{"2211", num}, title: "FLOOR PLAN"}
		if num == "X" {
			tp.values = []string{"2211", ""}
		}
		p := tp.build(n + 1)
		// The title block's grid: long lines.
		p.Segments = append(p.Segments, pdftext.Segment{X0: 880, Y0: 760, X1: 1180, Y1: 760}, pdftext.Segment{X0: 880, Y0: 760, X1: 880, Y1: 830})
		if num == "X" {
			third(p)
		}
		pages = append(pages, p)
	}
	return ReadSet(pages)
}

// TestOutlinedNumberIsUnread: a sheet whose number, where the set prints
// them, is strokes and no words, has a number that could not be read.
func TestOutlinedNumberIsUnread(t *testing.T) {
	m := numberedSet(func(p *pdftext.Page) { p.Segments = append(p.Segments, glyphStrokes(995, 781, 14, 5)...) })
	if m.Pages[0].SheetNumber != "A-101" || m.Pages[1].SheetNumber != "A-102" {
		t.Fatalf("numbers %q %q", m.Pages[0].SheetNumber, m.Pages[1].SheetNumber)
	}
	if p := m.Pages[2]; p.SheetNumber != "" || !p.FieldUnread(FieldNumber) {
		t.Errorf("outlined number: %q, unread %v", p.SheetNumber, p.Unread)
	}
	for _, p := range m.Pages[:2] {
		if p.FieldUnread(FieldNumber) {
			t.Errorf("page %d: a number read as text marked unread", p.Page)
		}
	}
}

// TestEmptyNumberCellIsNotUnread: the look-alikes, an empty number cell
// and one crossed only by the title block's long grid lines: the number
// is missing, not unreadable.
func TestEmptyNumberCellIsNotUnread(t *testing.T) {
	m := numberedSet(func(p *pdftext.Page) {})
	if m.Pages[2].FieldUnread(FieldNumber) {
		t.Error("an empty cell marked as outlined text")
	}
	m = numberedSet(func(p *pdftext.Page) {
		for k := 0; k < 6; k++ {
			y := 770 + float64(k)*5
			p.Segments = append(p.Segments, pdftext.Segment{X0: 900, Y0: y, X1: 1180, Y1: y})
		}
	})
	if m.Pages[2].FieldUnread(FieldNumber) {
		t.Error("grid lines marked as outlined text")
	}
}
