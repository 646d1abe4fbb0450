package sheets

import (
	"fmt"
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
