package sheets

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"planreview/scan/pdftext"
)

// denseSheet is an A1 sheet with about 12,000 words: notes over the whole
// page and the title-block strip, the worst case of the model's searches.
func denseSheet(n int) *pdftext.Page {
	const pw, ph = 2384.0, 1684.0
	p := tbPage{captions: []string{"PROJECT NO:", "DWG NO:"}, values: []string{"1601", fmt.Sprintf("A-%d01", n)}, title: "FLOOR PLAN"}.build(n)
	p.Width, p.Height = pw, ph
	for row := 0; row < 300; row++ {
		for col := 0; col < 5; col++ {
			p.Words = append(p.Words, phrase(fmt.Sprintf("NOTE %d TEXT OF THE DRAWING R-%d", row, col), 40+float64(col)*460, 20+float64(row)*5.4, 4, pw, ph)...)
		}
	}
	return p
}

func BenchmarkReadSetDense(b *testing.B) {
	pages := []*pdftext.Page{denseSheet(1), denseSheet(2), denseSheet(3)}
	words := 0
	for _, p := range pages {
		words += len(p.Words)
	}
	b.ReportMetric(float64(words), "words")
	for b.Loop() {
		ReadSet(pages)
	}
}

// BenchmarkReadSetCorpus times the set model on real sets beside their
// extraction (the reference, same run): the model's cost as a share of
// reading the words.
func BenchmarkReadSetCorpus(b *testing.B) {
	besideExtraction(b, "model", func(pages []*pdftext.Page) { ReadSet(pages) },
		"za_crayfish_inn_architectural_plans.pdf", "ca_calgary_sample_dp_bp_house_26p.pdf", "wsdot_its_tolling_2b_plansheets.pdf")
}

// besideExtraction times read on each named corpus file's pages, beside
// the extraction of the same file (the reference, same run).
func besideExtraction(b *testing.B, label string, read func([]*pdftext.Page), names ...string) {
	for _, name := range names {
		path := filepath.Join("../../../shared/corpus", name)
		if _, err := os.Stat(path); err != nil {
			b.Skip("corpus folder absent")
		}
		var pages []*pdftext.Page
		b.Run("extract/"+name, func(b *testing.B) {
			for b.Loop() {
				pages = extractAll(b, path)
			}
		})
		b.Run(label+"/"+name, func(b *testing.B) {
			for b.Loop() {
				read(pages)
			}
		})
	}
}

func extractAll(b *testing.B, path string) []*pdftext.Page {
	ctx := context.Background()
	doc, err := pdftext.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer doc.Close()
	pages := make([]*pdftext.Page, doc.NumPages())
	for i := range pages {
		if pages[i], err = doc.Page(ctx, i+1); err != nil {
			b.Fatal(err)
		}
	}
	return pages
}
