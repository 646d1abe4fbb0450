package sheets

import (
	"testing"

	"planreview/scan/pdftext"
)

// TestTitleWordsAreNotCaptions: a sheet titled "TITLE 24" (California's
// energy standards) or "TITLE SHEET" keeps its title; the bare word TITLE
// in it is not read as a caption whose value is "24" or "SHEET".
func TestTitleWordsAreNotCaptions(t *testing.T) {
	const pw, ph = 1224.0, 792.0
	page := func(n int, number, title string) *pdftext.Page {
		var ws []pdftext.Word
		ws = append(ws, phrase("GENERAL NOTES FOR THE WORK OF THIS SHEET", 80, 100, 10, pw, ph)...)
		ws = append(ws, phrase("SHEET TITLE", 1050, 640, 7, pw, ph)...)
		ws = append(ws, phrase(title, 1050, 655, 12, pw, ph)...)
		ws = append(ws, phrase("SHEET", 1050, 700, 7, pw, ph)...)
		ws = append(ws, phrase(number, 1050, 715, 20, pw, ph)...)
		return &pdftext.Page{Number: n, Width: pw, Height: ph, Readable: true, Words: ws}
	}
	m := ReadSet([]*pdftext.Page{
		page(1, "T-0", "TITLE SHEET"),
		page(2, "T-1", "TITLE 24"),
		page(3, "T-2", "TITLE 24 REPORT"),
		page(4, "A-1", "FLOOR PLAN"),
	})
	want := []struct{ number, title string }{{"T-0", "TITLE SHEET"}, {"T-1", "TITLE 24"}, {"T-2", "TITLE 24 REPORT"}, {"A-1", "FLOOR PLAN"}}
	for i, w := range want {
		if got := m.Pages[i]; got.SheetNumber != w.number || got.SheetTitle != w.title {
			t.Errorf("page %d: %q %q, want %q %q", i+1, got.SheetNumber, got.SheetTitle, w.number, w.title)
		}
	}
}
