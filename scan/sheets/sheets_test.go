package sheets

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
	"planreview/scan/plangen"
)

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in         string
		ok         bool
		key, typ   string
		designator string
		strong     bool
	}{
		{"A-101", true, "A101", TypeArchitectural, "A", true},
		{"A101", true, "A101", TypeArchitectural, "A", true},
		{"A1.1", true, "A1.1", TypeArchitectural, "A", true},
		{"S-201", true, "S201", TypeStructural, "S", true},
		{"FP-1", true, "FP1", TypeFireProtection, "FP", false},
		{"G-001", true, "G001", TypeGeneral, "G", true},
		{"M2.01", true, "M2.01", TypeMechanical, "M", true},
		{"E-301,", true, "E301", TypeElectrical, "E", true},
		{"W-002", true, "W002", TypeDistributedEnergy, "W", true},
		{"AD-101", true, "AD101", TypeArchitectural, "AD", true},
		{"H-101", true, "H101", TypeHazardousMaterials, "H", true},
		{"V-101", true, "V101", TypeSurvey, "V", true},
		{"B-101", true, "B101", TypeGeotechnical, "B", true},
		{"C-101", true, "C101", TypeCivil, "C", true},
		{"L-101", true, "L101", TypeLandscape, "L", true},
		{"I-101", true, "I101", TypeInteriors, "I", true},
		{"Q-101", true, "Q101", TypeEquipment, "Q", true},
		{"P-101", true, "P101", TypePlumbing, "P", true},
		{"D-101", true, "D101", TypeProcess, "D", true},
		{"T-101", true, "T101", TypeTelecommunications, "T", true},
		{"R-101", true, "R101", TypeResource, "R", true},
		{"X-101", true, "X101", TypeOther, "X", true},
		{"Z-101", true, "Z101", TypeContractor, "Z", true},
		{"O-101", true, "O101", TypeOperations, "O", true},
		{"R-3", true, "R3", TypeResource, "R", false},
		{"N-101", false, "", "", "", false},
		{"101", false, "", "", "", false},
		{"II-B", false, "", "", "", false},
		{"3/A4.2", false, "", "", "", false},
		{"ABC-101", false, "", "", "", false},
	}
	for _, tc := range tests {
		n, ok := ParseNumber(tc.in)
		if ok != tc.ok {
			t.Errorf("ParseNumber(%q) ok=%v", tc.in, ok)
			continue
		}
		if !ok {
			continue
		}
		if n.Key != tc.key || n.Type != tc.typ || n.Designator != tc.designator || n.Strong != tc.strong {
			t.Errorf("ParseNumber(%q) = %+v", tc.in, n)
		}
	}
	if TypeOf("nonsense") != TypeUnknown || TypeOf("a-101") != TypeArchitectural {
		t.Error("TypeOf")
	}
	if len(Types()) != 22 {
		t.Errorf("%d sheet types", len(Types()))
	}
}

// TestClassifyGeneratedSheets reads every generated sheet's title block
// from ground truth, including pages crowded with filler and an index.
func TestClassifyGeneratedSheets(t *testing.T) {
	for _, variant := range []string{plangen.VariantResidential, plangen.VariantCommercial} {
		set, err := plangen.Generate(plangen.Options{Variant: variant, FillerPerPage: 80, SkipPDF: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range set.Files {
			for _, p := range f.Pages {
				tp := p.TextPage()
				s := classify(&tp)
				if s.Number != p.SheetNumber || s.Title != p.SheetTitle || s.Type != TypeOf(p.SheetNumber) {
					t.Errorf("%s: got %q %q %q", p.SheetNumber, s.Number, s.Title, s.Type)
				}
				if s.Date != "2026-03-02" {
					t.Errorf("%s: date %q", p.SheetNumber, s.Date)
				}
			}
		}
	}
}

// word places a word by its top-left corner and size in points on a page
// of the given size, the way an extractor reports it.
func word(text string, left, top, width, height, pw, ph float64) pdftext.Word {
	return pdftext.Word{Text: text, Norm: text, FontSize: height,
		BBox: pdftext.BBox{Left: left / pw, Top: top / ph, Width: width / pw, Height: height / ph},
		Rect: pdftext.Rect{left, ph - top - height, left + width, ph - top}}
}

// phrase places the words of text left to right from (left, top).
func phrase(text string, left, top, size, pw, ph float64) []pdftext.Word {
	var out []pdftext.Word
	for _, w := range strings.Fields(text) {
		width := float64(len(w)) * size * 0.55
		out = append(out, word(w, left, top, width, size, pw, ph))
		left += width + size*0.28
	}
	return out
}

// fsecPage rebuilds the text of the FSEC sample permit set
// (../../shared/corpus/fsec_pv_permit_sample_generated.pdf): letter
// landscape pages with a "Contents" drawing list on the cover and the sheet
// number in the bottom-right corner. Positions were read from the file.
func fsecPage(n int, number string, cover bool) pdftext.Page {
	const pw, ph = 792.0, 612.0
	p := pdftext.Page{Number: n, Width: pw, Height: ph, Readable: true}
	add := func(ws []pdftext.Word) { p.Words = append(p.Words, ws...) }
	add(phrase("PV System Design", 342.2, 24.1, 18, pw, ph))
	add(phrase("Created on: 2016-03-02", 343.8, 51.2, 12, pw, ph))
	add(phrase("Based on 2011 NEC & 5th Edition (2014) FBC", 295.3, 65.3, 12, pw, ph))
	if cover {
		add(phrase("Contents", 174.0, 414.0, 16, pw, ph))
		rows := [][2]string{{"G-001", "Title"}, {"G-002", "Notes"}, {"W-001", "Wiring Diagram"},
			{"W-002", "System Specifications"}, {"W-003", "System Labels"}, {"S-001", "Roof Section 1"}}
		for i, r := range rows {
			top := 437.5 + float64(i)*15.68
			add(phrase(r[0], 35.4, top, 16, pw, ph))
			add(phrase(r[1], 98.1, top, 16, pw, ph))
		}
	}
	add(phrase("PV System Design", 219.6, 571.0, 9, pw, ph))
	add(phrase("1679 Clearlake Rd", 219.6, 580.4, 9, pw, ph))
	add(phrase("Cocoa, Brevard, FL, 32780", 219.6, 589.8, 9, pw, ph))
	add(phrase("Created on: 2016-03-02", 376.4, 571.0, 9, pw, ph))
	add(phrase("Based on 2011 NEC & 5th Edition (2014) FBC", 376.4, 580.4, 9, pw, ph))
	add([]pdftext.Word{word(number, 735.2, 572.9, 35, 18, pw, ph)})
	return p
}

func TestClassifyFSECSample(t *testing.T) {
	if _, err := os.Stat("../../../shared/corpus/fsec_pv_permit_sample_generated.pdf"); err != nil {
		t.Skip("corpus not present")
	}
	numbers := []string{"G-001", "G-002", "W-001", "W-002", "W-003"}
	types := []string{TypeGeneral, TypeGeneral, TypeDistributedEnergy, TypeDistributedEnergy, TypeDistributedEnergy}
	for i, num := range numbers {
		p := fsecPage(i+1, num, i == 0)
		s := classify(&p)
		if s.Number != num || s.Type != types[i] {
			t.Errorf("page %d: %q %q, want %q %q", i+1, s.Number, s.Type, num, types[i])
		}
		if s.Date != "2016-03-02" {
			t.Errorf("page %d: date %q", i+1, s.Date)
		}
	}
}

// TestClassifyPrefersTitleBlock: a sheet whose notes mention other sheets
// and whose code block says "GROUP R-3" still reads as its own number.
func TestClassifyPrefersTitleBlock(t *testing.T) {
	const pw, ph = 2592.0, 1728.0
	p := pdftext.Page{Number: 1, Width: pw, Height: ph, Readable: true}
	p.Words = append(p.Words, phrase("SEE A-501 FOR DETAILS", 100, 100, 14, pw, ph)...)
	p.Words = append(p.Words, phrase("OCCUPANCY GROUP R-3", 100, 140, 24, pw, ph)...)
	p.Words = append(p.Words, phrase("S-201", 100, 400, 30, pw, ph)...) // a big callout mid-sheet
	p.Words = append(p.Words, phrase("SHEET", pw-330, ph-200, 8, pw, ph)...)
	p.Words = append(p.Words, phrase("A-102", pw-330, ph-186, 28, pw, ph)...)
	s := classify(&p)
	if s.Number != "A-102" || s.Type != TypeArchitectural {
		t.Errorf("got %q %q", s.Number, s.Type)
	}
	empty := pdftext.Page{}
	if s := classify(&empty); s.Number != "" || s.Type != TypeUnknown {
		t.Errorf("empty page: %+v", s)
	}
}

func TestLinesAreTheLayoutLines(t *testing.T) {
	const pw, ph = 1000.0, 1000.0
	p := pdftext.Page{Width: pw, Height: ph}
	p.Words = append(p.Words, phrase("TOTAL RISE 9'-0\"", 100, 100, 10, pw, ph)...)
	p.Words = append(p.Words, phrase("FAR AWAY", 600, 100, 10, pw, ph)...)
	p.Words = append(p.Words, phrase("NEXT LINE", 100, 200, 10, pw, ph)...)
	lines := Lines(layout.Analyze(&p))
	var got []string
	for _, l := range lines {
		got = append(got, l.Text)
	}
	want := []string{`TOTAL RISE 9'-0"`, "FAR AWAY", "NEXT LINE"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lines %q", got)
	}
	if ws := lines[0].WordsInSpan(6, 10); len(ws) != 1 || p.Words[ws[0]].Text != "RISE" {
		t.Errorf("WordsInSpan: %v", ws)
	}
}

// TestLinesReadARuledRowAcross: a note's number in its own ruled column
// and the note beside it are one line, as a reader reads them; so are a
// large tag and the small text around it on one baseline. Cells farther
// apart than a few spaces stay apart.
func TestLinesReadARuledRowAcross(t *testing.T) {
	const pw, ph = 1000.0, 1000.0
	p := pdftext.Page{Width: pw, Height: ph}
	p.Words = append(p.Words, phrase("14.", 100, 100, 10, pw, ph)...)
	p.Words = append(p.Words, phrase("REFER TO SPECIFICATIONS", 125, 100, 10, pw, ph)...)
	p.Words = append(p.Words, phrase("FAR CELL", 600, 100, 10, pw, ph)...)
	// The column rule between the number and the note.
	p.Segments = append(p.Segments, pdftext.Segment{X0: 120, Y0: 90, X1: 120, Y1: 120, Width: 0.5})
	p.Words = append(p.Words, phrase("WITH BARS", 100, 300, 6, pw, ph)...)
	p.Words = append(p.Words, phrase("T2", 140, 294, 12, pw, ph)...)
	p.Words = append(p.Words, phrase("TO DETAIL", 160, 300, 6, pw, ph)...)
	var got []string
	for _, l := range Lines(layout.Analyze(&p)) {
		got = append(got, l.Text)
	}
	want := []string{"14. REFER TO SPECIFICATIONS", "FAR CELL", "WITH BARS T2 TO DETAIL"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
}

// TestShortNumbersNeedACaption: FP-1 is a sheet number under a "SHEET"
// caption; M2 (an area unit), I-5 (a road) or ANSI Z765 without one are not.
func TestShortNumbersNeedACaption(t *testing.T) {
	const pw, ph = 2592.0, 1728.0
	page := func(caption bool, texts ...string) pdftext.Page {
		p := pdftext.Page{Number: 1, Width: pw, Height: ph, Readable: true}
		if caption {
			p.Words = append(p.Words, phrase("SHEET", pw-330, ph-200, 8, pw, ph)...)
		}
		for i, s := range texts {
			p.Words = append(p.Words, phrase(s, pw-330, ph-186+float64(i)*60, 28, pw, ph)...)
		}
		return p
	}
	for _, tc := range []struct {
		page pdftext.Page
		want string
	}{
		{page(true, "FP-1"), "FP-1"},
		{page(false, "FP-1"), ""},
		{page(false, "M2"), ""},
		{page(false, "ANSI Z765"), ""},
		{page(false, "SHEET NO. E-2"), "E-2"},
		{page(false, "A-201"), "A-201"},
	} {
		p := tc.page
		if got := classify(&p).Number; got != tc.want {
			t.Errorf("%q: number %q, want %q", p.Words[len(p.Words)-1].Text, got, tc.want)
		}
	}
}

func TestWordTextPlainsDashesAndFractions(t *testing.T) {
	for _, tc := range []struct{ text, norm, want string }{
		{`7¾"`, `73⁄4"`, `7 3/4"`},
		{`¾"`, `3⁄4"`, `3/4"`},
		{"A‐101", "A‐101", "A-101"},
		{`7'–6"`, `7'–6"`, `7'-6"`},
		{"RISER", "", "RISER"},
		{"x", "X", "X"},
	} {
		if got := WordText(pdftext.Word{Text: tc.text, Norm: tc.norm}); got != tc.want {
			t.Errorf("WordText(%q, %q) = %q, want %q", tc.text, tc.norm, got, tc.want)
		}
	}
}

func TestDatesAndScales(t *testing.T) {
	for _, tc := range []struct {
		line, date, scale string
	}{
		{"DATE: 2026-03-02", "2026-03-02", ""},
		{"ISSUED 03/02/2026", "03/02/2026", ""},
		{"DATA: 2017/09/05 SCALA: 1:50", "2017/09/05", ""},
		{"2017.09.03", "2017.09.03", ""},
		{"MAY 22, 2020", "MAY 22, 2020", ""},
		{"ED.B. FR.N. APRIL 2024 A1", "APRIL 2024", ""},
		{"2 MARCH 2026", "2 MARCH 2026", ""},
		{`SCALE: 1/4" = 1'-0"`, "", `1/4" = 1'-0"`},
		{"SCALE: AS NOTED", "", "AS NOTED"},
		{"NOT TO SCALE", "", "NOT TO SCALE"},
		{"SCALE:", "", ""},
		{"RAMP SLOPE 1:12", "", ""},
		{"DATE:", "", ""},
	} {
		p := pdftext.Page{Width: 1000, Height: 1000, Readable: true, Words: phrase(tc.line, 100, 100, 10, 1000, 1000)}
		s := classify(&p)
		if s.Date != tc.date || s.Scale != tc.scale {
			t.Errorf("%q: date %q scale %q, want %q %q", tc.line, s.Date, s.Scale, tc.date, tc.scale)
		}
	}
}

// FuzzClassifyWord: any word text classifies without panicking, and a
// parsed number's type is always one of the contract's values.
func FuzzClassifyWord(f *testing.F) {
	for _, s := range []string{"A-101", "FP-1", "7¾\"", "(A1.1)", "ANSI Z765", "‐", "A‐101", ""} {
		f.Add(s)
	}
	valid := map[string]bool{}
	for _, t := range Types() {
		valid[t] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := pdftext.Word{Text: s, Norm: s, BBox: pdftext.BBox{Left: 0.9, Top: 0.9, Width: 0.05, Height: 0.02}}
		if n, ok := ParseNumber(WordText(w)); ok && !valid[n.Type] {
			t.Errorf("%q: type %q", s, n.Type)
		}
		p := pdftext.Page{Width: 100, Height: 100, Readable: true, Words: []pdftext.Word{w}}
		if s := classify(&p); !valid[s.Type] {
			t.Errorf("%q: sheet type %q", s.Number, s.Type)
		}
	})
}

// buildPhrases is a page's phrases as the set reading reads a page it
// holds no layout of.
func buildPhrases(p *pdftext.Page) []textRun { return phrasesOf(p, pageRuns(p)) }

// TestCaptionRunningOnToAColonIsAnotherField: "PROJECT ARCH:" is the
// caption of another field (the project architect), so "ARCH:" is not the
// value of a PROJECT field; "PROJECT: LILY HALL" still is one.
func TestCaptionRunningOnToAColonIsAnotherField(t *testing.T) {
	const pw, ph = 1000.0, 1000.0
	p := pdftext.Page{Width: pw, Height: ph}
	p.Words = append(p.Words, phrase("PROJECT ARCH:", 800, 900, 10, pw, ph)...)
	p.Words = append(p.Words, phrase("JF", 900, 901, 11, pw, ph)...)
	p.Words = append(p.Words, phrase("PROJECT: LILY HALL", 800, 700, 10, pw, ph)...)
	var got []string
	for _, f := range ReadFields(&p) {
		if f.Kind == FieldProject {
			got = append(got, f.Value)
		}
	}
	if want := []string{"LILY HALL"}; !reflect.DeepEqual(got, want) {
		t.Errorf("project fields %q, want %q", got, want)
	}
}

// classify is a page read alone: the number by size, title-block position
// and caption, the title beside it, date and scale (FromModel with no set
// reading).
func classify(p *pdftext.Page) Sheet { return FromModel(p, &PageModel{}, Lines(layout.Analyze(p))) }
