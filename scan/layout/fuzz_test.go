package layout

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"planreview/scan/pdftext"
)

// checkPage asserts what every consumer of a layout relies on: indexes in
// range, each word in at most one run and one line, lines and blocks
// pointing at each other, finite boxes.
func checkPage(t *testing.T, src *pdftext.Page, p *Page) {
	t.Helper()
	n := len(src.Words)
	inRun := make([]bool, n)
	for _, r := range p.Runs {
		for _, w := range r.Words {
			if w < 0 || w >= n || inRun[w] {
				t.Fatalf("run word %d out of range or in two runs", w)
			}
			inRun[w] = true
		}
	}
	inLine := make([]bool, n)
	for li, l := range p.Lines {
		if l.Block < 0 || l.Block >= len(p.Blocks) {
			t.Fatalf("line %d: block %d of %d", li, l.Block, len(p.Blocks))
		}
		for _, ri := range l.Runs {
			if ri < 0 || ri >= len(p.Runs) {
				t.Fatalf("line %d: run %d of %d", li, ri, len(p.Runs))
			}
		}
		for _, w := range l.Words {
			if w < 0 || w >= n || inLine[w] {
				t.Fatalf("line word %d out of range or in two lines", w)
			}
			inLine[w] = true
		}
	}
	if len(p.LineOf) != n {
		t.Fatalf("LineOf has %d entries for %d words", len(p.LineOf), n)
	}
	for w, li := range p.LineOf {
		if li >= len(p.Lines) || (li >= 0 && !slices.Contains(p.Lines[li].Words, w)) {
			t.Fatalf("word %d: LineOf %d", w, li)
		}
	}
	for bi, b := range p.Blocks {
		for _, li := range b.Lines {
			if li < 0 || li >= len(p.Lines) || p.Lines[li].Block != bi {
				t.Fatalf("block %d: line %d", bi, li)
			}
		}
	}
	for _, tb := range p.Tables {
		for _, r := range tb.Rows {
			for _, c := range r.Cells {
				for _, w := range c.Words {
					if w < 0 || w >= n {
						t.Fatalf("cell word %d of %d", w, n)
					}
				}
			}
		}
	}
	for _, pr := range p.Pairs {
		for _, w := range append(append([]int(nil), pr.LabelWords...), pr.ValueWords...) {
			if w < 0 || w >= n {
				t.Fatalf("pair word %d of %d", w, n)
			}
		}
	}
}

// FuzzAnalyze runs the extractor and the layout on arbitrary files: no
// panic, every index in range. Seeds: the test sheets and, where present,
// the real corpus.
func FuzzAnalyze(f *testing.F) {
	for _, s := range fuzzSheets() {
		f.Add(s.pdf())
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	for _, path := range files {
		if data, err := os.ReadFile(path); err == nil && len(data) <= 4<<20 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		doc, err := pdftext.OpenReader(ctx, bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		defer doc.Close()
		for n := 1; n <= min(doc.NumPages(), 3); n++ {
			p, err := doc.Page(ctx, n)
			if err != nil || p == nil {
				continue
			}
			checkPage(t, p, Analyze(p))
		}
	})
}

// FuzzAnalyzeGeometry feeds the layout words and rules at any place,
// size and angle, NaN and infinities included, decoded from the input.
func FuzzAnalyzeGeometry(f *testing.F) {
	f.Add([]byte{})
	seed := make([]byte, 0, 64*8)
	for i := range 64 {
		seed = binary.LittleEndian.AppendUint64(seed, math.Float64bits(float64(i*7%50)))
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() float64 {
			if len(data) < 8 {
				return 0
			}
			v := math.Float64frombits(binary.LittleEndian.Uint64(data))
			data = data[8:]
			return v
		}
		p := &pdftext.Page{Number: 1, Width: 612, Height: 792}
		if len(data) > 0 && data[0]&1 == 1 {
			p.Width, p.Height = next(), next()
		}
		texts := []string{"SCALE:", "1:50", "DWG", "NO:", "A-101", "NOTED", "R-3", "Type:", "X"}
		for len(data) >= 8*7 && len(p.Words) < 2000 {
			w := pdftext.Word{
				BBox:     pdftext.BBox{Left: next(), Top: next(), Width: next(), Height: next()},
				FontSize: next(),
				Angle:    next(),
			}
			w.Text = texts[int(math.Float64bits(next())%uint64(len(texts)))]
			p.Words = append(p.Words, w)
			if len(data) >= 8*5 && data[0]&3 == 0 {
				p.Segments = append(p.Segments, pdftext.Segment{X0: next(), Y0: next(), X1: next(), Y1: next(), Width: next()})
			}
		}
		checkPage(t, p, Analyze(p))
	})
}

// fuzzSheets are the small pages of the unit tests: a table, pairs,
// rotated text.
func fuzzSheets() []*sheet {
	a := newSheet(612, 792)
	a.grid([]float64{100, 200, 300}, []float64{100, 120, 140})
	a.text(103, 114, 8, 0, "DWG NO:")
	a.text(203, 114, 8, 0, "100-00")
	a.text(103, 134, 6, 0, "SCALE")
	a.text(203, 134, 10, 0, "NOTED")
	a.text(300, 400, 14, 30, "APPROVED")
	a.text(40, 60, 8, 0, "Occupancy Type:")
	a.text(40, 71, 8, 0, "R-3")
	b := newSheet(612, 792)
	denseRows(b, 4, 10)
	return []*sheet{a, b}
}
