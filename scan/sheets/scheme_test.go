package sheets

import (
	"fmt"
	"testing"

	"planreview/scan/pdftext"
	"planreview/scan/plangen"
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

// TestReadSetGeneratedSets: the set model reads the generated plan sets'
// numbers and titles as their ground truth states them.
func TestReadSetGeneratedSets(t *testing.T) {
	for _, variant := range []string{plangen.VariantResidential, plangen.VariantCommercial} {
		set, err := plangen.Generate(plangen.Options{Variant: variant, FillerPerPage: 80, SkipPDF: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range set.Files {
			var pages []*pdftext.Page
			for _, p := range f.Pages {
				tp := p.TextPage()
				pages = append(pages, &tp)
			}
			m := ReadSet(pages)
			if m.DocType != DocPermitSet && len(pages) > 1 {
				t.Errorf("%s: docType %s", variant, m.DocType)
			}
			for i, p := range f.Pages {
				got := m.Pages[i]
				if got.SheetNumber != p.SheetNumber || got.SheetTitle != p.SheetTitle {
					t.Errorf("%s %s: got %q %q, want %q %q", variant, p.SheetNumber, got.SheetNumber, got.SheetTitle, p.SheetNumber, p.SheetTitle)
				}
			}
		}
	}
}

// TestTurnedTitleBlock: a title block set bottom-to-top along the right
// edge (90°) is read like a horizontal one.
func TestTurnedTitleBlock(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	var pages []*pdftext.Page
	for n, num := range []string{"A-101", "A-102", "A-201"} {
		p := &pdftext.Page{Number: n + 1, Width: pw, Height: ph, Readable: true}
		p.Words = append(p.Words, phrase("GENERAL NOTES FOR ALL WORK SHOWN", 60, 60, 9, pw, ph)...)
		// The strip, composed on the virtual page where it reads left to
		// right (842 wide, 1191 high), then turned onto the sheet.
		tp := turnedPage{angle: 90, w: pw, h: ph}
		var virtual []pdftext.Word
		for _, ws := range [][]pdftext.Word{
			phrase("PROJECT NO:", 500, 1120, 6, ph, pw), phrase("SHEET NO:", 600, 1120, 6, ph, pw),
			phrase("2211", 500, 1130, 16, ph, pw), phrase(num, 600, 1130, 16, ph, pw),
			phrase("SHEET TITLE:", 500, 1160, 6, ph, pw), phrase(fmt.Sprintf("FLOOR PLAN %d", n+1), 560, 1159, 9, ph, pw),
			phrase("ISSUED FOR PERMIT", 500, 1175, 9, ph, pw),
		} {
			virtual = append(virtual, ws...)
		}
		for _, w := range virtual {
			v := Box{X0: w.BBox.Left * ph, Y0: w.BBox.Top * pw, X1: (w.BBox.Left + w.BBox.Width) * ph, Y1: (w.BBox.Top + w.BBox.Height) * pw}
			r := tp.toReal(v)
			w.Angle = 90
			w.BBox = pdftext.BBox{Left: r.X0 / pw, Top: r.Y0 / ph, Width: (r.X1 - r.X0) / pw, Height: (r.Y1 - r.Y0) / ph}
			p.Words = append(p.Words, w)
		}
		pages = append(pages, p)
	}
	m := ReadSet(pages)
	for i, want := range []string{"A-101", "A-102", "A-201"} {
		got := m.Pages[i]
		if got.SheetNumber != want || got.SheetTitle != fmt.Sprintf("FLOOR PLAN %d", i+1) {
			t.Errorf("page %d: %q %q", i+1, got.SheetNumber, got.SheetTitle)
		}
	}
	// The turned boxes land on the page's right edge.
	if b := m.Pages[0].TitleBlock; b.X0 < 0.8*pw || b.X1 > pw+1 {
		t.Errorf("title block %+v is not on the right edge", b)
	}
}

// TestNumberWithinOneValue: one caption's value holding more than the
// number.
func TestNumberWithinOneValue(t *testing.T) {
	for value, want := range map[string]string{
		"TX17886.00 - S2.01": "S2.01",
		"A-101 REV 2":        "A-101",
		"3 OF 12":            "3",
	} {
		p := tbPage{captions: []string{"DRAWING No."}, values: []string{value}, title: "FOOTING PLAN"}.build(1)
		if got := ReadSet([]*pdftext.Page{p}).Pages[0].SheetNumber; got != want {
			t.Errorf("%q: number %q, want %q", value, got, want)
		}
	}
}

// TestStatusFromLatestRevision: without a stamp, the newest row of the
// revision table says what the sheet was issued for.
func TestStatusFromLatestRevision(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	p := tbPage{captions: []string{"SHEET NO."}, values: []string{"A-101"}, title: "FLOOR PLAN"}.build(1)
	for _, ws := range [][]pdftext.Word{
		phrase("REV", 900, 600, 6, pw, ph), phrase("DATE", 930, 600, 6, pw, ph), phrase("DESCRIPTION", 980, 600, 6, pw, ph),
		phrase("A", 900, 610, 6, pw, ph), phrase("03/02/2025", 930, 610, 6, pw, ph), phrase("ISSUED FOR PERMIT REVIEW", 980, 610, 6, pw, ph),
		phrase("B", 900, 620, 6, pw, ph), phrase("14/05/2025", 930, 620, 6, pw, ph), phrase("REVISED PER CITY COMMENTS", 980, 620, 6, pw, ph),
	} {
		p.Words = append(p.Words, ws...)
	}
	if got := ReadSet([]*pdftext.Page{p}).Pages[0].IssueStatus; got != "REVISED PER CITY COMMENTS" {
		t.Errorf("status %q, want the latest revision", got)
	}
}

// TestNoNumberFromNotes: sheet references in notes, even after a SHEET
// caption word, never become the sheet's number.
func TestNoNumberFromNotes(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	p := &pdftext.Page{Number: 1, Width: pw, Height: ph, Readable: true}
	for i, l := range []string{"SHEET A-501 FOR STAIR DETAILS", "SHEET: A-502", "DWG NO. S-201 SHOWS FRAMING", "REFER TO SHEET A-101"} {
		p.Words = append(p.Words, phrase(l, 100, 100+float64(i)*14, 8, pw, ph)...)
	}
	p.Words = append(p.Words, phrase("GENERAL NOTES", 100, 60, 12, pw, ph)...)
	if got := ReadSet([]*pdftext.Page{p}).Pages[0].SheetNumber; got != "" {
		t.Errorf("number %q from a note", got)
	}
}

// TestSchemeSuffixedNumber: a sheet whose number adds a suffix ("A-101A")
// at the place the set prints its numbers is still read.
func TestSchemeSuffixedNumber(t *testing.T) {
	const pw, ph = 1191.0, 842.0
	nums := []string{"A-101", "A-101A", "A-102", "A-201"}
	var pages []*pdftext.Page
	for i, n := range nums {
		p := tbPage{title: fmt.Sprintf("PLAN %d", i)}.build(i + 1)
		p.Words = append(p.Words, phrase(n, 1080, 790, 24, pw, ph)...)
		pages = append(pages, p)
	}
	m := ReadSet(pages)
	for i, n := range nums {
		if got := m.Pages[i].SheetNumber; got != n {
			t.Errorf("page %d: number %q, want %q", i+1, got, n)
		}
	}
}

// TestSidewaysSheet: a drawing placed sideways (every word at 270°) is read
// upright: number, caption-less title and scale, with evidence on the page.
func TestSidewaysSheet(t *testing.T) {
	const pw, ph = 842.0, 1191.0 // portrait page, landscape drawing turned onto it
	var pages []*pdftext.Page
	for n, num := range []string{"S-201", "S-202", "S-301"} {
		upright := tbPage{title: ""}.build(n + 1) // 1191 × 842, read as printed upright
		upright.Words = append(upright.Words, phrase(num, 1080, 790, 24, 1191, 842)...)
		upright.Words = append(upright.Words, phrase(fmt.Sprintf("FOUNDATION PLAN %d", n+1), 1000, 700, 14, 1191, 842)...)
		p := &pdftext.Page{Number: n + 1, Width: pw, Height: ph, Readable: true}
		tp := turnedPage{angle: 270, w: pw, h: ph}
		for _, w := range upright.Words {
			v := Box{X0: w.BBox.Left * 1191, Y0: w.BBox.Top * 842, X1: (w.BBox.Left + w.BBox.Width) * 1191, Y1: (w.BBox.Top + w.BBox.Height) * 842}
			r := tp.toReal(v)
			w.Angle = 270
			w.BBox = pdftext.BBox{Left: r.X0 / pw, Top: r.Y0 / ph, Width: (r.X1 - r.X0) / pw, Height: (r.Y1 - r.Y0) / ph}
			p.Words = append(p.Words, w)
		}
		pages = append(pages, p)
	}
	m := ReadSet(pages)
	for i, want := range []string{"S-201", "S-202", "S-301"} {
		got := m.Pages[i]
		if got.SheetNumber != want || got.SheetTitle != fmt.Sprintf("FOUNDATION PLAN %d", i+1) || got.Scale != "1:100" {
			t.Errorf("page %d: %q %q %q", i+1, got.SheetNumber, got.SheetTitle, got.Scale)
		}
		if len(got.NumberWords) != 1 || pages[i].Words[got.NumberWords[0]].Text != want {
			t.Errorf("page %d: number evidence %v", i+1, got.NumberWords)
		}
	}
}

// TestNumbersWithoutDigitsOrSplit: a cover numbered "CS" and a number
// printed "A 101" in two words under the caption.
func TestNumbersWithoutDigitsOrSplit(t *testing.T) {
	var pages []*pdftext.Page
	for i, n := range []string{"CS", "A 101", "A 102"} {
		pages = append(pages, tbPage{captions: []string{"SHEET NO."}, values: []string{n}, title: fmt.Sprintf("PLAN %d", i)}.build(i+1))
	}
	m := ReadSet(pages)
	for i, want := range []string{"CS", "A 101", "A 102"} {
		if got := m.Pages[i].SheetNumber; got != want {
			t.Errorf("page %d: number %q, want %q", i+1, got, want)
		}
	}
}

// TestNumberOnEverySheetIsStillTheNumber: a set whose sheets all print one
// number under the number caption (a drawing number copied onto every
// sheet) reads it on each, so the duplicate is reported; the look-alike, a
// project code repeated while the numbers vary, stays a project code
// (TestSchemeNumbersChangeProjectCodeRepeats), and a code repeated in small
// type with no number caption is no number.
func TestNumberOnEverySheetIsStillTheNumber(t *testing.T) {
	var pages []*pdftext.Page
	for i := 0; i < 3; i++ {
		// The number in the corner's large type, with no caption.
		big := phrase("E201A", 1080, 790, 30, 1191, 842)
		pages = append(pages, tbPage{captions: []string{"DRAWN BY:"}, values: []string{"JS"},
			title: fmt.Sprintf("PLAN %d", i), extra: [][]pdftext.Word{big}}.build(i+1))
	}
	m := readPages(pages...)
	for i := range pages {
		if got := m.Pages[i].SheetNumber; got != "E201A" {
			t.Errorf("page %d: number %q, want E201A on every sheet", i+1, got)
		}
	}
	pages = nil
	for i := 0; i < 3; i++ {
		p := tbPage{captions: []string{"DRAWN BY:"}, values: []string{"JS"}, title: fmt.Sprintf("PLAN %d", i)}.build(i + 1)
		p.Words = append(p.Words, phrase("REF 2211-A7", 60, 820, 6, 1191, 842)...)
		pages = append(pages, p)
	}
	m = readPages(pages...)
	for i := range pages {
		if got := m.Pages[i].SheetNumber; got != "" {
			t.Errorf("page %d: number %q from a code in small type", i+1, got)
		}
	}
}
