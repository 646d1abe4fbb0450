package sheets

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"planreview/scan/pdftext"
)

// fuzzWords is a vocabulary of captions, numbers, scales and stamps, so the
// fuzzer reaches the caption, scheme and revision paths.
var fuzzWords = []string{"SHEET", "NO.", "DWG", "NO:", "A-101", "100\u201000", "1", "OF", "23", "SCALE:", "1:50",
	"1/4\"", "=", "1'-0\"", "TITLE", "FLOOR", "PLAN", "ISSUED", "FOR", "PERMIT", "REV", "DATE", "DESCRIPTION",
	"03/02/2025", "PROJECT", "TSDE01", "JKR/SD/1", "A-", "101", "NOT", "TO", "CONSTRUCTION", "risba", "št.:", "", "\\", "@"}

// pagesFromBytes turns fuzz input into pages: each 9-byte record is a word
// (vocabulary index, box as fractions, font size, angle, page break).
func pagesFromBytes(data []byte) []*pdftext.Page {
	page := &pdftext.Page{Number: 1, Width: 1191, Height: 842, Readable: true}
	pages := []*pdftext.Page{page}
	for len(data) >= 9 && len(pages) < 8 {
		rec := data[:9]
		data = data[9:]
		if rec[8]&0x80 != 0 {
			page = &pdftext.Page{Number: len(pages) + 1, Width: float64(binary.LittleEndian.Uint16(rec[6:8])), Height: 842, Readable: true}
			pages = append(pages, page)
		}
		frac := func(b byte) float64 { return float64(b) / 255 }
		w := pdftext.Word{Text: fuzzWords[int(rec[0])%len(fuzzWords)],
			BBox:     pdftext.BBox{Left: frac(rec[1]), Top: frac(rec[2]), Width: frac(rec[3]) / 4, Height: frac(rec[4]) / 8},
			FontSize: float64(rec[5]), Angle: float64(rec[8]&0x3) * 90}
		if rec[8]&0x40 != 0 {
			w.BBox.Left = math.NaN()
		}
		w.Norm = w.Text
		page.Words = append(page.Words, w)
	}
	return pages
}

// FuzzReadSet: any words, boxes (NaN, zero, out of the page), sizes and
// angles read without a panic and in bounded time.
func FuzzReadSet(f *testing.F) {
	f.Add([]byte{0, 200, 230, 20, 20, 8, 0, 0, 0, 4, 200, 240, 20, 30, 16, 0, 0, 0})
	f.Add([]byte{1, 10, 10, 255, 255, 0, 0, 0, 0x41, 4, 0, 0, 0, 0, 0, 0, 0, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		pages := pagesFromBytes(data)
		start := time.Now()
		m := ReadSet(pages)
		if len(m.Pages) != len(pages) {
			t.Fatalf("%d page models for %d pages", len(m.Pages), len(pages))
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("ReadSet took %v", d)
		}
	})
}
