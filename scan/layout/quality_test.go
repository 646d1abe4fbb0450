package layout

import (
	"path/filepath"
	"testing"

	"planreview/scan/pdftext"
)

// mixesRows reports whether a line holds two words that sit on different
// rows: across the text direction they overlap by less than half the
// smaller word's height (measured in the words' own text frame).
func mixesRows(g []geom, words []int) bool {
	return mixes(g, words, false)
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// mixes is mixesRows; with baselineSpread a line also mixes rows when two
// of its words' baselines differ by more than half the smaller size.
func mixes(g []geom, words []int, baselineSpread bool) bool {
	if len(words) > 200 {
		words = words[:200]
	}
	for i, x := range words {
		for _, y := range words[i+1:] {
			a, b := &g[x], &g[y]
			if a.key != b.key {
				return true
			}
			overlap := min(a.t1, b.t1) - max(a.t0, b.t0)
			if overlap < 0.5*min(a.t1-a.t0, b.t1-b.t0) {
				return true
			}
			if baselineSpread && abs(a.s-b.s) > 0.5*min(a.fs, b.fs) {
				return true
			}
		}
	}
	return false
}

// crossesRule reports whether two neighbouring words of a line have a
// drawn rule between them (a line joining two table cells).
func crossesRule(a *analysis, words []int) bool {
	for k := 1; k < len(words) && k < 200; k++ {
		x, y := &a.g[words[k-1]], &a.g[words[k]]
		if x.key != y.key || x.diagonal || y.diagonal {
			continue
		}
		if x.p1 < y.p0 && a.rules.blocksAlong(x.key, x, y) {
			return true
		}
	}
	return false
}

// rowMixing measures, over the pages, the share of the layout's
// multi-word lines that mix rows or run across a drawn rule. Single-word
// lines cannot mix and are not counted.
func rowMixing(pages []*pdftext.Page) (mixed, ruled float64, n int) {
	nMixed, nRuled := 0, 0
	for _, p := range pages {
		l := Analyze(p)
		a := &analysis{page: &Page{Width: p.Width, Height: p.Height}, words: p.Words, rules: newRuleIndex(l.Segments, nil), sc: &scratch{}}
		a.measure()
		for _, line := range l.Lines {
			if len(line.Words) > 1 {
				n++
				if mixesRows(a.g, line.Words) {
					nMixed++
				}
				if crossesRule(a, line.Words) {
					nRuled++
				}
			}
		}
	}
	if n > 0 {
		mixed, ruled = float64(nMixed)/float64(n), float64(nRuled)/float64(n)
	}
	return mixed, ruled, n
}

// maxRowMixing is the share of a file's multi-word layout lines that may
// join words from stacked rows: none on the corpus today, where the
// extractor's own baseline chaining (its former lines) mixed rows.
const maxRowMixing = 0.01

// TestCorpusRowMixing prints, per corpus file, the share of layout lines
// (built inside blocks split by white space and rules) that join words
// from stacked rows, and of lines that run across a drawn rule (two table
// cells read as one line): go test ./scan/layout -run RowMixing -v
func TestCorpusRowMixing(t *testing.T) {
	for _, path := range corpusFiles(t) {
		pages := corpusPages(t, path)
		if len(pages) == 0 {
			continue
		}
		mixed, ruled, n := rowMixing(pages)
		if n == 0 {
			continue
		}
		t.Logf("%-44s multi-word lines mixing rows: %4.1f%%; crossing a rule: %4.1f%% (%d lines)",
			filepath.Base(path), 100*mixed, 100*ruled, n)
		if mixed > maxRowMixing {
			t.Errorf("%s: layout lines mix rows in %.1f%% of lines, above %.1f%%", filepath.Base(path), 100*mixed, 100*maxRowMixing)
		}
	}
}
