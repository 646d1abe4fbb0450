package pdftext

import (
	"cmp"
	"math"
	"slices"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Page output: the public words with their boxes, and reading order.

// finish converts the raw words to the public form in reading order (the
// layout, scan/layout, groups them into lines and blocks).
func (wb *wordBuilder) finish(p *Page) {
	wb.endWord()
	if wb.scratch == nil {
		wb.scratch = &pageScratch{}
	}
	// One string holds the page's text; words are pieces of it.
	page := string(wb.text)
	for _, w := range wb.words {
		w.text = page[w.textStart:w.textEnd]
	}
	raw := mergeWords(wb.dedupe(), page)
	inv, _ := wb.device.invert()
	// Built straight into reading order: one array of words per page, the
	// one the page keeps.
	order := readingOrder(raw, &wb.scratch.order)
	p.Words = make([]Word, len(order))
	for i, old := range order {
		w := raw[old]
		x0, x1 := min(w.xMin, w.xMax), max(w.xMin, w.xMax)
		y0, y1 := min(w.yMin, w.yMax), max(w.yMin, w.yMax)
		text := w.text
		p.Words[i] = Word{
			Text:     text,
			Norm:     normalizeText(text),
			FontSize: round4(w.fontSize),
			// Fractions to 1e-6 (0.003 pt on an ARCH E sheet): exact enough
			// to pin a finding, and half the JSON.
			BBox: BBox{
				Left:   round6(clamp01(x0 / wb.width)),
				Top:    round6(clamp01(y0 / wb.height)),
				Width:  round6(clamp01(x1/wb.width) - clamp01(x0/wb.width)),
				Height: round6(clamp01(y1/wb.height) - clamp01(y0/wb.height)),
			},
			Rect:     userRect(inv, x0, y0, x1, y1),
			Angle:    w.angle,
			Baseline: [4]float64{round4(w.bx0), round4(w.by0), round4(w.bx1), round4(w.by1)},
		}
	}
}

// normalizeText is the search form of a word: NFKC, which also expands
// ligatures (ﬁ → fi) and full-width forms.
func normalizeText(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return norm.NFKC.String(s)
		}
	}
	return s
}

func userRect(inv matrix, x0, y0, x1, y1 float64) Rect {
	ax, ay := inv.apply(x0, y0)
	bx, by := inv.apply(x1, y1)
	return Rect{round4(min(ax, bx)), round4(min(ay, by)), round4(max(ax, bx)), round4(max(ay, by))}
}

func clamp01(v float64) float64 {
	switch {
	case v < 0 || math.IsNaN(v):
		return 0
	case v > 1:
		return 1
	}
	return v
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// orderScratch is readingOrder's working slices, kept by a reader from
// page to page.
type orderScratch struct {
	items    []orderItem
	lines    []orderLine
	nextLine []int
	blocks   []orderBlock
	active   []int
	order    []int
}

type orderItem struct {
	idx       int
	p0, p1, s float64 // extent along the text direction, baseline across it
	top, bot  float64 // extent across the text direction
	fontSize  float64
	rot       int
}

// A line's words are a run of items (a band is sorted in place), and a
// block's lines a chain through nextLine: no slice per line or block.
type orderLine struct {
	lo, hi           int // items[lo:hi] are the line's words
	p0, p1, top, bot float64
	fontSize         float64
	rot              int
}

type orderBlock struct {
	first, lastIdx int // lines, chained through nextLine
	last           orderLine
}

// readingOrder is the order words are read in: along lines (same
// direction and baseline, no wide gap) of blocks (stacked lines that
// overlap horizontally and sit close together). The lines and blocks only
// order the words; the layout makes the page's own.
// Its working slices come from sc and go back there (order too: the
// caller only reads it before the next page).
func readingOrder(words []*rawWord, sc *orderScratch) (order []int) {
	items := slices.Grow(sc.items[:0], len(words))[:len(words)]
	for i, w := range words {
		it := orderItem{idx: i, fontSize: max(w.fontSize, 0.1), rot: w.rot}
		switch w.rot {
		case 0:
			it.p0, it.p1, it.s, it.top, it.bot = w.xMin, w.xMax, w.base, w.yMin, w.yMax
		case 1:
			it.p0, it.p1, it.s, it.top, it.bot = w.yMin, w.yMax, -w.base, -w.xMax, -w.xMin
		case 2:
			it.p0, it.p1, it.s, it.top, it.bot = -w.xMax, -w.xMin, -w.base, -w.yMax, -w.yMin
		case 3:
			it.p0, it.p1, it.s, it.top, it.bot = -w.yMax, -w.yMin, w.base, w.xMin, w.xMax
		}
		items[i] = it
	}
	slices.SortStableFunc(items, func(a, b orderItem) int {
		if a.rot != b.rot {
			return a.rot - b.rot
		}
		if c := cmp.Compare(a.s, b.s); c != 0 {
			return c
		}
		return cmp.Compare(a.p0, b.p0)
	})
	ls := sc.lines[:0]
	for i := 0; i < len(items); {
		// Words whose baselines are within a fraction of the font size share
		// a baseline band; split the band where the gap is wide.
		j := i + 1
		for j < len(items) && items[j].rot == items[i].rot && items[j].s-items[j-1].s < 0.3*items[i].fontSize {
			j++
		}
		band := items[i:j]
		slices.SortStableFunc(band, func(a, b orderItem) int { return cmp.Compare(a.p0, b.p0) })
		cur := orderLine{lo: i, hi: i + 1, p0: band[0].p0, p1: band[0].p1, top: band[0].top, bot: band[0].bot, fontSize: band[0].fontSize, rot: band[0].rot}
		for k := i + 1; k < j; k++ {
			it := items[k]
			if it.p0-cur.p1 > 2.5*max(it.fontSize, cur.fontSize) {
				ls = append(ls, cur)
				cur = orderLine{lo: k, hi: k, p0: it.p0, p1: it.p1, top: it.top, bot: it.bot, fontSize: it.fontSize, rot: it.rot}
			}
			cur.hi = k + 1
			cur.p1 = max(cur.p1, it.p1)
			cur.top, cur.bot = min(cur.top, it.top), max(cur.bot, it.bot)
		}
		ls = append(ls, cur)
		i = j
	}
	// Blocks: greedily attach each line (top to bottom) to the block whose
	// last line sits just above it and overlaps it horizontally.
	slices.SortStableFunc(ls, func(a, b orderLine) int {
		if a.rot != b.rot {
			return a.rot - b.rot
		}
		return cmp.Compare(a.top, b.top)
	})
	maxSize := 0.0
	for _, l := range ls {
		maxSize = max(maxSize, l.fontSize)
	}
	nextLine := slices.Grow(sc.nextLine[:0], len(ls))[:len(ls)]
	bs := sc.blocks[:0]
	// active holds the blocks whose last line is still close enough above
	// the current line to take it; lines come top to bottom, so a block
	// that falls out of reach never comes back.
	active := sc.active[:0]
	for li, l := range ls {
		nextLine[li] = -1
		attached := false
		kept := active[:0]
		for _, bi := range active {
			b := &bs[bi]
			if b.last.rot != l.rot || l.top-b.last.bot > 1.2*maxSize {
				continue
			}
			kept = append(kept, bi)
			if attached {
				continue
			}
			gap := l.top - b.last.bot
			overlap := min(l.p1, b.last.p1) - max(l.p0, b.last.p0)
			if gap < 1.2*max(l.fontSize, b.last.fontSize) && gap > -0.5*l.fontSize && overlap > 0 &&
				abs(l.fontSize-b.last.fontSize) < 0.3*max(l.fontSize, b.last.fontSize) {
				nextLine[b.lastIdx] = li
				b.lastIdx = li
				b.last = l
				attached = true
			}
		}
		active = kept
		if !attached {
			bs = append(bs, orderBlock{first: li, lastIdx: li, last: l})
			active = append(active, len(bs)-1)
		}
	}
	order = slices.Grow(sc.order[:0], len(items))
	for _, b := range bs {
		for li := b.first; li >= 0; li = nextLine[li] {
			for _, it := range items[ls[li].lo:ls[li].hi] {
				order = append(order, it.idx)
			}
		}
	}
	sc.items, sc.lines, sc.nextLine, sc.blocks, sc.active, sc.order = items, ls, nextLine, bs, active, order
	return order
}
