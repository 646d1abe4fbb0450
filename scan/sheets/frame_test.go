package sheets

import (
	"fmt"
	"testing"

	"planreview/scan/pdftext"
)

// stripSheet is an A3 sheet whose title block is a strip along the right
// edge set on a quarter turn (firm, project address, the sheet title
// along it, far from the corner), with the sheet number upright in the
// bottom-right corner and a north arrow's label beside it in large type.
func stripSheet(n int, number, title string) *pdftext.Page {
	const pw, ph = 1191.0, 842.0
	p := &pdftext.Page{Number: n, Width: pw, Height: ph, Readable: true}
	// On the strip's virtual page (842 wide, 1191 high) the strip is the
	// bottom band; x runs from the sheet's bottom edge to its top.
	p.Words = append(p.Words, turnedWords(pw, ph,
		phrase("RIVERSIDE COMMUNITY CLINIC", 560, 1110, 16, ph, pw),
		phrase("46 MAPLE STREET KENT CT", 560, 1130, 10, ph, pw),
		phrase("ACME ENGINEERING SERVICES LLC", 560, 1175, 7, ph, pw),
		phrase(title, 300, 1160, 11, ph, pw),
	)...)
	for k, room := range []string{"ELEVATOR LOBBY", "STAIR", "OFFICE", "CORRIDOR", "TOILET", "STORAGE", "MECH", "JANITOR"} {
		p.Words = append(p.Words, phrase(room, 150+float64(k)*100, 200+float64(k%3)*120, 6, pw, ph)...)
	}
	p.Words = append(p.Words, phrase("SCALE:", 1060, 735, 6, pw, ph)...)
	p.Words = append(p.Words, phrase("AS NOTED", 1110, 735, 6, pw, ph)...)
	p.Words = append(p.Words, phrase("NORTH", 1000, 800, 12, pw, ph)...)
	p.Words = append(p.Words, phrase(number, 1100, 790, 24, pw, ph)...)
	return p
}

// TestTitleVariesInsideTheFrame: the title is the text that varies inside
// the region the set repeats (the title block), however far along the
// strip from the number, and not the frame's large north-arrow label nor
// its firm and address.
func TestTitleVariesInsideTheFrame(t *testing.T) {
	nums := []string{"P-120", "P-121", "P-130"}
	titles := []string{"PLUMBING SECOND FLOOR CONSTRUCTION PLAN",
		"PLUMBING SECOND FLOOR CONSTRUCTION PLAN ABOVE CEILING WASTE AND VENT PIPING",
		"PLUMBING THIRD FLOOR CONSTRUCTION PLAN"}
	var pages []*pdftext.Page
	for i := range nums {
		pages = append(pages, stripSheet(i+1, nums[i], titles[i]))
	}
	m := ReadSet(pages)
	for i := range nums {
		got := m.Pages[i]
		if got.SheetNumber != nums[i] || got.SheetTitle != titles[i] {
			t.Errorf("page %d: %q %q, want %q %q", i+1, got.SheetNumber, got.SheetTitle, nums[i], titles[i])
		}
	}
}

// TestSharedTitleIsStillTheTitle: the look-alike, a set whose sheets all
// carry one title: with nothing varying, the repeated title is read.
func TestSharedTitleIsStillTheTitle(t *testing.T) {
	var pages []*pdftext.Page
	for i := 1; i <= 4; i++ {
		pages = append(pages, stripSheet(i, fmt.Sprintf("E-10%d", i), "COMMUNICATION ONE-LINE DIAGRAM"))
	}
	m := ReadSet(pages)
	for i := range pages {
		if got := m.Pages[i].SheetTitle; got != "COMMUNICATION ONE-LINE DIAGRAM" {
			t.Errorf("page %d: title %q", i+1, got)
		}
	}
}

// TestLongNoteLineIsNoTitle: the look-alike of a long varying title, a
// line of a note in the drawing area, is not read as the title.
func TestLongNoteLineIsNoTitle(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	var pages []*pdftext.Page
	for i, num := range []string{"P-120", "P-121", "P-130"} {
		p := stripSheet(i+1, num, "")
		p.Words = append(p.Words, phrase(fmt.Sprintf("%d. CONTRACTOR SHALL VERIFY ALL EXISTING PIPING AND CONNECTIONS IN THE FIELD", i+1), 400, 700, 11, pw, ph)...)
		pages = append(pages, p)
	}
	m := ReadSet(pages)
	for i := range pages {
		if got := m.Pages[i].SheetTitle; got != "" && got != "NORTH" {
			t.Errorf("page %d: title %q from a note", i+1, got)
		}
	}
}

// TestTitleCaptionNearestTheNumber: a title block with a project-title
// caption high in its strip and a sheet-title caption by the number reads
// the sheet's title; the look-alike, the project's title, is not read.
func TestTitleCaptionNearestTheNumber(t *testing.T) {
	const pw, ph = 2592.0, 1728.0
	p := &pdftext.Page{Number: 1, Width: pw, Height: ph, Readable: true}
	add := func(text string, x, y, size float64) { p.Words = append(p.Words, phrase(text, x, y, size, pw, ph)...) }
	add("PROJECT TITLE AND SCHOOL LOCATION", 2340, 490, 13)
	add("JAMES MADISON MIDDLE SCHOOL", 2355, 545, 27)
	add("SHEET TITLE:", 2340, 1478, 13)
	add("FIRE PROTECTION", 2355, 1497, 34)
	add("ENLARGED FLOOR PLAN", 2355, 1536, 34)
	add("SHEET NUMBER", 2340, 1600, 13)
	add("FP2.20", 2398, 1618, 51)
	add("GENERAL NOTES: VERIFY ALL CONDITIONS IN THE FIELD", 200, 200, 12)
	m := ReadSet([]*pdftext.Page{p})
	if got := m.Pages[0]; got.SheetNumber != "FP2.20" || got.SheetTitle != "FIRE PROTECTION ENLARGED FLOOR PLAN" {
		t.Errorf("number %q title %q", got.SheetNumber, got.SheetTitle)
	}
}
