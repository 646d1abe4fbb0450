package rules

import (
	"context"
	"os"
	"strings"
	"testing"

	"planreview/scan/pdftext"
	"planreview/scan/plangen"
)

// fsecPages rebuilds the words of the FSEC sample permit set
// (shared/corpus/fsec_pv_permit_sample_generated.pdf) by hand, positions as
// read from the file: five letter-landscape sheets G-001, G-002, W-001,
// W-002, W-003, whose cover lists a sixth sheet, S-001, that the file lacks.
func fsecPages() []pdftext.Page {
	const pw, ph = 792.0, 612.0
	phrase := func(p *pdftext.Page, text string, left, top, size float64) {
		for _, w := range strings.Fields(text) {
			width := float64(len(w)) * size * 0.55
			p.Words = append(p.Words, pdftext.Word{Text: w, Norm: w, FontSize: size,
				BBox: pdftext.BBox{Left: left / pw, Top: top / ph, Width: width / pw, Height: size / ph},
				Rect: pdftext.Rect{left, ph - top - size, left + width, ph - top}})
			left += width + size*0.28
		}
	}
	var pages []pdftext.Page
	for i, num := range []string{"G-001", "G-002", "W-001", "W-002", "W-003"} {
		p := pdftext.Page{Number: i + 1, Width: pw, Height: ph, Readable: true}
		phrase(&p, "PV System Design", 342.2, 24.1, 18)
		if i == 0 {
			phrase(&p, "Contents", 174.0, 414.0, 16)
			rows := [][2]string{{"G-001", "Title"}, {"G-002", "Notes"}, {"W-001", "Wiring Diagram"},
				{"W-002", "System Specifications"}, {"W-003", "System Labels"}, {"S-001", "Roof Section 1"}}
			for k, r := range rows {
				top := 437.5 + float64(k)*15.68
				phrase(&p, r[0], 35.4, top, 16)
				phrase(&p, r[1], 98.1, top, 16)
			}
		}
		phrase(&p, "PV System Design", 219.6, 571.0, 9)
		phrase(&p, "Created on: 2016-03-02", 376.4, 571.0, 9)
		phrase(&p, "Based on 2011 NEC & 5th Edition (2014) FBC", 376.4, 580.4, 9)
		phrase(&p, num, 735.2, 572.9, 18)
		pages = append(pages, p)
	}
	return pages
}

func TestFSECSampleReview(t *testing.T) {
	if _, err := os.Stat("../../../shared/corpus/fsec_pv_permit_sample_generated.pdf"); err != nil {
		t.Skip("corpus not present")
	}
	e := loadAll(t)
	set := PlanSet{Files: []File{{ID: "file_fsec", Pages: fsecPages()}}}
	fs, err := e.Review(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	missing := byRule(fs, "completeness-sheet-index-missing-sheet")
	if len(missing) != 1 || !strings.Contains(missing[0].Rationale, "S-001 (Roof Section 1)") {
		t.Fatalf("missing sheet: %+v", missing)
	}
	// The set states its codes (2011 NEC, 2014 FBC): not "no code stated",
	// and editions of codes without an adopted pack are not judged.
	for _, id := range []string{"completeness-code-edition-stated", "completeness-code-edition-current", "completeness-sheet-not-in-index"} {
		if got := byRule(fs, id); len(got) != 0 {
			t.Errorf("%s: %s", id, got[0].Rationale)
		}
	}
	classes, err := ClassifySet(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ number, title, typ string }{
		{"G-001", "Title", "general"}, {"G-002", "Notes", "general"}, {"W-001", "Wiring Diagram", "distributed_energy"},
		{"W-002", "System Specifications", "distributed_energy"}, {"W-003", "System Labels", "distributed_energy"},
	}
	for i, w := range want {
		s := classes[0][i]
		if s.Number != w.number || s.Title != w.title || s.Type != w.typ {
			t.Errorf("page %d: %q %q %q", i+1, s.Number, s.Title, s.Type)
		}
	}
}

// BenchmarkReviewBenchSet reviews the extractor benchmark's 100-page set
// (about 300 labels a page) from ground truth.
func BenchmarkReviewBenchSet(b *testing.B) {
	f, err := plangen.Bench(plangen.BenchOptions{Pages: 100, LabelsPerPage: 300, SkipPDF: true})
	if err != nil {
		b.Fatal(err)
	}
	e, err := Load(Packs(), []string{"ibc-2021", "irc-2021"})
	if err != nil {
		b.Fatal(err)
	}
	set := PlanSet{Files: []File{{ID: "bench", Pages: f.TextPages()}}}
	for b.Loop() {
		if _, err := e.Review(context.Background(), set); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReviewTextHeavy reviews ten text-heavy pages (~3,000 labels each).
func BenchmarkReviewTextHeavy(b *testing.B) {
	f, err := plangen.Bench(plangen.BenchOptions{Pages: 10, TextHeavy: true, SkipPDF: true})
	if err != nil {
		b.Fatal(err)
	}
	e, err := Load(Packs(), []string{"ibc-2021", "irc-2021"})
	if err != nil {
		b.Fatal(err)
	}
	set := PlanSet{Files: []File{{ID: "bench", Pages: f.TextPages()}}}
	for b.Loop() {
		if _, err := e.Review(context.Background(), set); err != nil {
			b.Fatal(err)
		}
	}
}
