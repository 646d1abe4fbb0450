package sheets

import (
	"fmt"
	"slices"
	"testing"

	"planreview/scan/pdftext"
)

// turnedWords composes words on the virtual page of a 90° strip (where they
// read left to right, ph wide and pw high) and turns them onto the sheet.
func turnedWords(pw, ph float64, ws ...[]pdftext.Word) []pdftext.Word {
	tp := turnedPage{angle: 90, w: pw, h: ph}
	var out []pdftext.Word
	for _, group := range ws {
		for _, w := range group {
			v := Box{X0: w.BBox.Left * ph, Y0: w.BBox.Top * pw, X1: (w.BBox.Left + w.BBox.Width) * ph, Y1: (w.BBox.Top + w.BBox.Height) * pw}
			r := tp.toReal(v)
			w.Angle = 90
			w.BBox = pdftext.BBox{Left: r.X0 / pw, Top: r.Y0 / ph, Width: (r.X1 - r.X0) / pw, Height: (r.Y1 - r.Y0) / ph}
			out = append(out, w)
		}
	}
	return out
}

// mixedSheet is a sheet whose title-block strip (firm, address, captions)
// is set on a quarter turn while its number and title are printed upright
// in the bottom-right corner; turnedNotes adds turned drawing text so that
// most of the page's words run sideways.
func mixedSheet(n int, number, title string, turnedNotes int) *pdftext.Page {
	const pw, ph = 1191.0, 842.0
	p := &pdftext.Page{Number: n, Width: pw, Height: ph, Readable: true}
	p.Words = append(p.Words, turnedWords(pw, ph,
		phrase("ACME DESIGN DRAFTING", 500, 1100, 20, ph, pw),
		phrase("12100 WILSHIRE BOULEVARD LOS ANGELES CALIFORNIA", 480, 1128, 14, ph, pw),
		phrase("DRAWN BY: JS", 500, 1150, 6, ph, pw), phrase("CHK'D BY: AB", 600, 1150, 6, ph, pw),
		phrase("ISSUE RECORD:", 500, 1165, 6, ph, pw),
	)...)
	for i := 0; i < turnedNotes; i++ {
		p.Words = append(p.Words, turnedWords(pw, ph, phrase(fmt.Sprintf("NOTE %d VERIFY ALL DIMENSIONS ON SITE", i+1), 100, 100+float64(i)*14, 7, ph, pw))...)
	}
	for _, room := range []string{"KITCHEN", "BEDROOM 2", "LIVING ROOM", "BATH", "GARAGE", "PORCH", "LAUNDRY"} {
		p.Words = append(p.Words, phrase(room, 200+float64(len(p.Words)%7)*100, 300, 8, pw, ph)...)
	}
	p.Words = append(p.Words, phrase("SHEET CONTENTS:", 1092, 725, 6, pw, ph)...)
	p.Words = append(p.Words, phrase(title, 1098, 744, 6, pw, ph)...)
	p.Words = append(p.Words, phrase(number, 1104, 790, 24, pw, ph)...)
	return p
}

// TestSidewaysSheetReadsUprightNumber: a sheet read turned (most of its
// words run sideways) still reads the number and title printed upright.
func TestSidewaysSheetReadsUprightNumber(t *testing.T) {
	var pages []*pdftext.Page
	nums := []string{"A01", "A02", "A03"}
	titles := []string{"SITE PLAN", "FLOOR PLAN", "ROOF PLAN"}
	for i := range nums {
		pages = append(pages, mixedSheet(i+1, nums[i], titles[i], 30))
	}
	m := ReadSet(pages)
	for i, want := range nums {
		if got := m.Pages[i].SheetNumber; got != want {
			t.Errorf("page %d: number %q, want %q", i+1, got, want)
		}
	}
}

// TestUprightNumberAmongTallTurnedWords: a sheet read as printed whose
// turned strip's words (each as tall as it is long) would otherwise make
// the upright number look small.
func TestUprightNumberAmongTallTurnedWords(t *testing.T) {
	var pages []*pdftext.Page
	nums := []string{"A01", "A02", "A03"}
	for i := range nums {
		p := mixedSheet(i+1, nums[i], "ELEVATIONS", 0)
		for k := 0; k < 40; k++ {
			p.Words = append(p.Words, phrase(fmt.Sprintf("ROOM %d", k), 100+float64(k%8)*90, 100+float64(k/8)*60, 8, 1191, 842)...)
		}
		pages = append(pages, p)
	}
	m := ReadSet(pages)
	for i, want := range nums {
		if got := m.Pages[i].SheetNumber; got != want {
			t.Errorf("page %d: number %q, want %q", i+1, got, want)
		}
	}
}

// TestTurnedStripHasNoNumberOfItsOwn: the look-alike, a sideways sheet
// whose only upright text is small drawing labels, reads no number from
// them.
func TestTurnedStripHasNoNumberOfItsOwn(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	var pages []*pdftext.Page
	for n := 1; n <= 3; n++ {
		p := &pdftext.Page{Number: n, Width: pw, Height: ph, Readable: true}
		q := mixedSheet(n, "X", "Y", 30)
		for _, w := range q.Words {
			if w.Text != "X" && w.Text != "Y" && w.Text != "SHEET" && w.Text != "CONTENTS:" {
				p.Words = append(p.Words, w)
			}
		}
		p.Words = append(p.Words, phrase("W2", 1104, 600, 6, pw, ph)...)
		pages = append(pages, p)
	}
	m := ReadSet(pages)
	for i := range pages {
		if got := m.Pages[i].SheetNumber; got != "" {
			t.Errorf("page %d: number %q from a drawing label", i+1, got)
		}
	}
}

// TestTurnedTitleStripAddress: the project address printed on a title strip
// a quarter turned along the sheet's edge is a jurisdiction hint, as it is
// when printed upright; a sheet without one gives none.
func TestTurnedTitleStripAddress(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	page := func(n int, address string) *pdftext.Page {
		p := mixedSheet(n, fmt.Sprintf("P-10%d", n), "PLUMBING PLAN", 0)
		// Most of the sheet's text upright: it is read as printed.
		for i := range 12 {
			p.Words = append(p.Words, phrase(fmt.Sprintf("NOTE %d VERIFY ALL DIMENSIONS ON SITE", i+1), 100, 400+float64(i)*12, 7, pw, ph)...)
		}
		if address != "" {
			p.Words = append(p.Words, turnedWords(pw, ph,
				phrase("MAPLE STREET CLINIC", 300, 1080, 14, ph, pw),
				phrase(address, 300, 1060, 10, ph, pw))...)
		}
		return p
	}
	m := ReadSet([]*pdftext.Page{page(1, "SPRINGFIELD, IL 62701"), page(2, "SPRINGFIELD, IL 62701")})
	if !slices.Contains(m.JurisdictionHints, "address: SPRINGFIELD, IL 62701") {
		t.Errorf("hints %q: the turned strip's address is missing", m.JurisdictionHints)
	}
	m = ReadSet([]*pdftext.Page{page(1, ""), page(2, "")})
	for _, h := range m.JurisdictionHints {
		if h == "address: SPRINGFIELD, IL 62701" {
			t.Errorf("hint %q on sheets that print no address", h)
		}
	}
}
