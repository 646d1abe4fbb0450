package plangen

import (
	"fmt"
	"math/rand"
)

// BenchOptions shape a label-dense set for extractor benchmarks.
type BenchOptions struct {
	Pages         int // default 100
	LabelsPerPage int // default 300; TextHeavy default 3000
	// TextHeavy switches font (and size) with every label, the worst case for
	// an extractor's font and width caching.
	TextHeavy bool
	Seed      int64
	SkipPDF   bool
	Rotate    int // /Rotate of every page, as Options.Rotate
}

var benchVocabulary = []string{"BEDROOM", "KITCHEN", "2X6 @ 16\" O.C.", "GYP. BD.", "R-21 BATT",
	"12'-0\"", "3'-6\"", "TYP.", "W1", "D4", "RM 101", "CONC. SLAB", "SIM.", "FIN. FLR.", "T.O. PLATE",
	"HDR 4X10", "SHTG", "VENT", "SMOKE ALARM", "GFCI", "EXIST. WALL", "NEW WALL", "EQ.", "CLR."}

// Bench writes one file of opts.Pages sheets, each with a title block and a
// grid of opts.LabelsPerPage labels. Labels never overlap: the grid cell is
// sized for the longest vocabulary entry at the chosen size.
func Bench(opts BenchOptions) (*File, error) {
	if opts.Pages <= 0 {
		opts.Pages = 100
	}
	if opts.LabelsPerPage <= 0 {
		opts.LabelsPerPage = 300
		if opts.TextHeavy {
			opts.LabelsPerPage = 3000
		}
	}
	if opts.Rotate%90 != 0 || opts.Rotate < 0 || opts.Rotate >= 360 {
		return nil, fmt.Errorf("plangen: Rotate %d: want 0, 90, 180 or 270", opts.Rotate)
	}
	g := &generator{opts: Options{Seed: opts.Seed, Rotate: opts.Rotate}, rng: rand.New(rand.NewSource(opts.Seed + 1)), set: &Set{Name: "bench"}}
	f := g.newFile(fmt.Sprintf("bench-%dp-%dl.pdf", opts.Pages, opts.LabelsPerPage))
	const left, top, right, bottom = 40.0, 40.0, PageWidth - 360, PageHeight - 40
	cols := 10
	if opts.TextHeavy {
		cols = 40
	}
	rows := (opts.LabelsPerPage + cols - 1) / cols
	cw, rh := (right-left)/float64(cols), (bottom-top)/float64(rows)
	for p := range opts.Pages {
		s := g.newSheet(f, fmt.Sprintf("A-%d", 101+p), fmt.Sprintf("PLAN LEVEL %d", p+1))
		s.titleBlock("BENCHMARK PROJECT", "1 TEST AVENUE", issueDate, `1/4" = 1'-0"`)
		for i := range opts.LabelsPerPage {
			c, r := i%cols, i/cols
			text := benchVocabulary[g.rng.Intn(len(benchVocabulary))]
			font, size := "Helvetica", 9.0
			if opts.TextHeavy {
				font = fontOrder[i%len(fontOrder)]
				size = 4 + float64(i%3)
			}
			// Shrink until the label fits its cell.
			for size > 2 {
				w, err := textWidth(text, font, size)
				if err != nil {
					return nil, err
				}
				if w < cw-2 && size < rh {
					break
				}
				size -= 0.5
			}
			s.text(text, font, size, left+float64(c)*cw, top+float64(r)*rh)
		}
	}
	if g.err != nil {
		return nil, g.err
	}
	if !opts.SkipPDF {
		pdf, err := writePDF(g.set.Files[f].Pages)
		if err != nil {
			return nil, err
		}
		g.set.Files[f].PDF = pdf
	}
	out := g.set.Files[f]
	return &out, nil
}
