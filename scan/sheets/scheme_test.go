package sheets

import (
	"fmt"
	"testing"

	"planreview/scan/pdftext"
)

// tbPage is an A3 landscape sheet with a title block in the bottom-right
// corner: a row of captions with their values under them in large type, a
// title right of its caption, and some drawing text.
type tbPage struct {
	captions []string // caption row, left to right
	values   []string // under each caption ("" for none)
	valueSz  float64
	title    string
	extra    [][]pdftext.Word
}

func (tp tbPage) build(n int) *pdftext.Page {
	const pw, ph = 1191.0, 842.0
	p := &pdftext.Page{Number: n, Width: pw, Height: ph, Readable: true}
	add := func(ws []pdftext.Word) { p.Words = append(p.Words, ws...) }
	add(phrase("GENERAL NOTES", 60, 60, 9, pw, ph))
	add(phrase("1. ALL DIMENSIONS IN MILLIMETRES UNLESS NOTED.", 60, 75, 7, pw, ph))
	add(phrase("2. REFER TO ENGINEER'S DRAWINGS FOR STRUCTURE.", 60, 85, 7, pw, ph))
	add(phrase("KITCHEN", 400, 300, 8, pw, ph))
	add(phrase("BEDROOM 2", 600, 300, 8, pw, ph))
	if tp.title != "" {
		add(phrase("DRAWING", 900, 720, 6, pw, ph))
		add(phrase(tp.title, 950, 718, 9, pw, ph))
	}
	add(phrase("SCALE: 1:100", 900, 740, 6, pw, ph))
	sz := tp.valueSz
	if sz == 0 {
		sz = 16
	}
	x := 900.0
	for i, c := range tp.captions {
		add(phrase(c, x, 770, 6, pw, ph))
		if i < len(tp.values) && tp.values[i] != "" {
			add(phrase(tp.values[i], x, 780, sz, pw, ph))
		}
		x += 95
	}
	for _, e := range tp.extra {
		add(e)
	}
	return p
}

func readPages(pages ...*pdftext.Page) SetModel { return ReadSet(pages) }

func TestShape(t *testing.T) {
	for in, want := range map[string]string{
		"A-101": "A-9", "A1.1": "A9.9", "100\u201000": "9-9", "TSDE01": "A9", "E-2.01": "A-9.9",
		"JKR/SD/1": "A/A/9", "01.2": "9.9", "S3": "A9", "23": "9",
	} {
		if got := Shape(in); got != want {
			t.Errorf("Shape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSchemeNumbersChangeProjectCodeRepeats: the value that changes from
// sheet to sheet at one place is the sheet number; the project number
// printed beside it on every sheet is not, even in the same large type.
func TestSchemeNumbersChangeProjectCodeRepeats(t *testing.T) {
	nums := []string{"100\u201000", "200\u201000", "201\u201000", "300\u201000"}
	var pages []*pdftext.Page
	for i, n := range nums {
		pages = append(pages, tbPage{captions: []string{"PROJECT NO:", "DWG NO:", "REV:"}, values: []string{"1601", n, ""},
			title: fmt.Sprintf("PLAN %d", i)}.build(i+1))
	}
	m := readPages(pages...)
	for i, n := range nums {
		if got := m.Pages[i].SheetNumber; got != n {
			t.Errorf("page %d: number %q, want %q", i+1, got, n)
		}
	}
	if m.Scheme != "9-9" {
		t.Errorf("scheme %q, want 9-9", m.Scheme)
	}
}

// TestSchemeForms: the numbering forms of real sets, each under one of the
// captions real title blocks print, in a set of three sheets.
func TestSchemeForms(t *testing.T) {
	tests := []struct {
		caption string
		values  []string
	}{
		{"SHEET NO.", []string{"A-101", "A-102", "A-201"}},
		{"DRAWING No.", []string{"A1.1", "A1.2", "A2.1"}},
		{"DWG NO:", []string{"S3", "S4", "S5"}},
		{"DRAWING NUMBER", []string{"01.2", "01.3", "02.1"}},
		{"PLAN REF NO", []string{"TSDE01", "TSDE02", "TSDE03"}},
		{"SHEET", []string{"E-2.01", "E-2.02", "E-3.01"}},
		{"NO. LUKISAN", []string{"JKR/SD/1", "JKR/SD/2", "JKR/SD/3"}},
		{"Plan-Nr.", []string{"5.1.00", "5.2.00", "5.3.00"}},
		{"TAVOLA", []string{"A-101", "A-102", "A-103"}},
		{"risba št.:", []string{"1", "2", "3"}},
		{"SHEET:", []string{"1", "2", "23"}},
	}
	for _, tt := range tests {
		t.Run(tt.caption, func(t *testing.T) {
			var pages []*pdftext.Page
			for i, v := range tt.values {
				pages = append(pages, tbPage{captions: []string{"PROJECT NO:", tt.caption}, values: []string{"2024-17", v},
					title: fmt.Sprintf("FLOOR PLAN LEVEL %d", i)}.build(i+1))
			}
			m := readPages(pages...)
			for i, v := range tt.values {
				if got := m.Pages[i].SheetNumber; got != v {
					t.Errorf("page %d: number %q, want %q", i+1, got, v)
				}
			}
		})
	}
}

// TestSchemeNumberOnTwoLines: a number split over two lines under its
// caption is read whole.
func TestSchemeNumberOnTwoLines(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	p := tbPage{captions: []string{"SHEET NO."}, title: "GROUND FLOOR PLAN"}.build(1)
	p.Words = append(p.Words, phrase("A-", 900, 780, 20, pw, ph)...)
	p.Words = append(p.Words, phrase("101", 900, 802, 20, pw, ph)...)
	m := readPages(p)
	if got := m.Pages[0].SheetNumber; got != "A-101" {
		t.Errorf("number %q, want A-101", got)
	}
}

// TestSchemeRouteCodeInLargeType: a route code printed large on every
// sheet is never taken for the number; the small captioned id is.
func TestSchemeRouteCodeInLargeType(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	var pages []*pdftext.Page
	for i := 1; i <= 3; i++ {
		big := phrase("SR167", 1050, 700, 30, pw, ph)
		pages = append(pages, tbPage{captions: []string{"JOB NUMBER", "PLAN REF NO"}, values: []string{"XL5105", fmt.Sprintf("TSDE0%d", i)},
			valueSz: 7, title: "COMMUNICATION ONE-LINE DIAGRAM", extra: [][]pdftext.Word{big}}.build(i))
	}
	m := readPages(pages...)
	for i := range pages {
		if got, want := m.Pages[i].SheetNumber, fmt.Sprintf("TSDE0%d", i+1); got != want {
			t.Errorf("page %d: number %q, want %q", i+1, got, want)
		}
	}
}

// TestNoNumberWhereNonePrinted: a cover without a title-block number gets
// none, even with a drawing list of sheet numbers on it.
func TestNoNumberWhereNonePrinted(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	cover := &pdftext.Page{Number: 1, Width: pw, Height: ph, Readable: true}
	cover.Words = append(cover.Words, phrase("SAMPLE HOUSE", 400, 100, 30, pw, ph)...)
	cover.Words = append(cover.Words, phrase("DRAWING INDEX", 100, 600, 10, pw, ph)...)
	for i, n := range []string{"A-101", "A-102", "A-201"} {
		cover.Words = append(cover.Words, phrase(n, 100, 620+float64(i)*14, 8, pw, ph)...)
		cover.Words = append(cover.Words, phrase("FLOOR PLAN", 160, 620+float64(i)*14, 8, pw, ph)...)
	}
	pages := []*pdftext.Page{cover}
	for i, n := range []string{"A-101", "A-102"} {
		pages = append(pages, tbPage{captions: []string{"SHEET NO."}, values: []string{n}, title: "FLOOR PLAN"}.build(i+2))
	}
	m := readPages(pages...)
	if got := m.Pages[0].SheetNumber; got != "" {
		t.Errorf("cover: number %q, want none", got)
	}
	if got := m.Pages[1].SheetNumber; got != "A-101" {
		t.Errorf("page 2: number %q, want A-101", got)
	}
}

// TestTitleScaleStatus: the title right of its caption, the scale after
// its caption, the stamp.
func TestTitleScaleStatus(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	p := tbPage{captions: []string{"SHEET NO."}, values: []string{"A-101"}, title: "GROUND FLOOR PLAN",
		extra: [][]pdftext.Word{phrase("ISSUED FOR PERMIT", 900, 690, 9, pw, ph)}}.build(1)
	pm := readPages(p).Pages[0]
	if pm.SheetTitle != "GROUND FLOOR PLAN" || pm.Scale != "1:100" || pm.IssueStatus != "ISSUED FOR PERMIT" {
		t.Errorf("title %q scale %q status %q", pm.SheetTitle, pm.Scale, pm.IssueStatus)
	}
}
