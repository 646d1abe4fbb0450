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

// rowMixing measures, over the pages, the share of multi-word lines that
// mix rows: in pdftext's reading-order lines (before) and in the layout's
// lines (after). Single-word lines cannot mix and are not counted.
func rowMixing(pages []*pdftext.Page) (before, after, ruleBefore, ruleAfter float64, nb, na int) {
	mixedB, mixedA, ruledB, ruledA := 0, 0, 0, 0
	for _, p := range pages {
		l := Analyze(p)
		a := &analysis{page: &Page{Width: p.Width, Height: p.Height}, words: p.Words, rules: newRuleIndex(l.Segments)}
		a.measure()
		for _, line := range p.Lines {
			if len(line) > 1 {
				nb++
				if mixesRows(a.g, line) {
					mixedB++
				}
				if crossesRule(a, line) {
					ruledB++
				}
			}
		}
		for _, line := range l.Lines {
			if len(line.Words) > 1 {
				na++
				if mixesRows(a.g, line.Words) {
					mixedA++
				}
				if crossesRule(a, line.Words) {
					ruledA++
				}
			}
		}
	}
	if nb > 0 {
		before, ruleBefore = float64(mixedB)/float64(nb), float64(ruledB)/float64(nb)
	}
	if na > 0 {
		after, ruleAfter = float64(mixedA)/float64(na), float64(ruledA)/float64(na)
	}
	return before, after, ruleBefore, ruleAfter, nb, na
}

// TestCorpusRowMixing prints, per corpus file, the share of lines that
// join words from stacked rows, and of lines that run across a drawn rule
// (two table cells read as one line), before (pdftext's lines, chained
// baselines) and after (layout lines, built inside blocks split by white
// space and rules): go test ./scan/layout -run RowMixing -v
func TestCorpusRowMixing(t *testing.T) {
	for _, path := range corpusFiles(t) {
		pages := corpusPages(t, path)
		if len(pages) == 0 {
			continue
		}
		before, after, rb, ra, nb, na := rowMixing(pages)
		if nb == 0 {
			continue
		}
		t.Logf("%-44s multi-word lines mixing rows: before %4.1f%%, after %4.1f%%; crossing a rule: before %4.1f%%, after %4.1f%% (%d / %d lines)",
			filepath.Base(path), 100*before, 100*after, 100*rb, 100*ra, nb, na)
		if after > before+0.01 {
			t.Errorf("%s: layout lines mix rows more often than pdftext's (%.1f%% > %.1f%%)", filepath.Base(path), 100*after, 100*before)
		}
	}
}
