package sheets

import (
	"sort"
	"strings"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
)

// Line is one reading-order line of a page: its words (indexes into
// Page.Words), their text joined by single spaces, and where each word starts
// in that text so that a regexp match can be mapped back to words.
type Line struct {
	Words  []int
	Text   string
	Starts []int // byte offset of each word in Text
	Box    Box   // union of the words' boxes, in displayed points
}

// Box is the layout's box (displayed page points, origin top-left).
type Box = layout.Box

// WordText is the text rules and classification read: the extractor's
// normalised form when present, the raw text otherwise, with the dashes and
// fractions of CAD fonts made plain: "7‐3/4" with a Unicode hyphen, "7–6"
// with an en dash, "7¾" (which NFKC would turn into the ambiguous "73⁄4",
// so the raw text is used for it).
func WordText(w pdftext.Word) string { return wordText(&w) }

// wordText is WordText without copying the word (the page-wide loops).
func wordText(w *pdftext.Word) string {
	t := w.Norm
	// The fractions are not ASCII: an ASCII word (nearly every word) has none.
	if t == "" || !isASCII(w.Text) && strings.ContainsAny(w.Text, vulgarFractions) {
		t = w.Text
	}
	if isASCII(t) {
		return t
	}
	var sb strings.Builder
	prevDigit := false
	for _, r := range t {
		if f, ok := fractionText[r]; ok {
			if prevDigit {
				sb.WriteByte(' ')
			}
			sb.WriteString(f)
			prevDigit = false
			continue
		}
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2212', '\u00ad':
			r = '-'
		case '\u2044', '\u2215':
			r = '/'
		}
		sb.WriteRune(r)
		prevDigit = r >= '0' && r <= '9'
	}
	return sb.String()
}

const vulgarFractions = "¼½¾⅛⅜⅝⅞⅙⅚⅓⅔"

var fractionText = map[rune]string{
	'¼': "1/4", '½': "1/2", '¾': "3/4", '⅛': "1/8", '⅜': "3/8", '⅝': "5/8", '⅞': "7/8",
	'⅙': "1/6", '⅚': "5/6", '⅓': "1/3", '⅔': "2/3",
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// pageScale returns the displayed page size in points; pages without a size
// (hand-built test pages) fall back to a square unit page.
func pageScale(p *pdftext.Page) (float64, float64) {
	if p.Width > 0 && p.Height > 0 {
		return p.Width, p.Height
	}
	return 1000, 1000
}

// WordBox returns a word's box in displayed points.
func WordBox(p *pdftext.Page, i int) Box {
	w, h := pageScale(p)
	b := p.Words[i].BBox
	return Box{X0: b.Left * w, Y0: b.Top * h, X1: (b.Left + b.Width) * w, Y1: (b.Top + b.Height) * h}
}

// Lines returns the page's lines. The extractor's own grouping (Page.Lines)
// is used when present; otherwise words are grouped geometrically: same row
// (vertical centres within 40% of the word height) and a horizontal gap below
// 1.5 word heights, which keeps title-block columns and note columns apart.
func Lines(p *pdftext.Page) []Line {
	var groups [][]int
	if len(p.Lines) > 0 {
		covered := make([]bool, len(p.Words))
		// A word is in one line: the lines' word lists are cut from one
		// page-wide slab.
		slab := make([]int, 0, len(p.Words))
		groups = make([][]int, 0, len(p.Lines)+1)
		for _, l := range p.Lines {
			from := len(slab)
			for _, i := range l {
				if i >= 0 && i < len(p.Words) && !covered[i] {
					covered[i] = true
					slab = append(slab, i)
				}
			}
			if to := len(slab); to > from {
				groups = append(groups, slab[from:to:to])
			}
		}
		// Words the extractor's lines leave out are still read.
		var rest []int
		for i, c := range covered {
			if !c {
				rest = append(rest, i)
			}
		}
		groups = append(groups, geometricLines(p, rest)...)
	} else {
		all := make([]int, len(p.Words))
		for i := range all {
			all[i] = i
		}
		groups = geometricLines(p, all)
	}
	lines := make([]Line, 0, len(groups))
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	starts := make([]int, n) // every line's Starts, cut from one slab
	// The texts of lines of several words are written into one page-wide
	// builder and cut from it once it is complete.
	var sb strings.Builder
	size := 0
	for _, g := range groups {
		if len(g) > 1 {
			size += len(g) - 1
			for _, i := range g {
				size += len(wordText(&p.Words[i]))
			}
		}
	}
	sb.Grow(size)
	spans := make([][2]int, len(groups))
	for gi, g := range groups {
		if len(g) > 1 {
			spans[gi][0] = sb.Len()
			lines = append(lines, makeLineIn(p, g, starts[:len(g):len(g)], &sb))
			spans[gi][1] = sb.Len()
		} else {
			lines = append(lines, makeLine(p, g, starts[:len(g):len(g)]))
		}
		starts = starts[len(g):]
	}
	all := sb.String()
	for gi, g := range groups {
		if len(g) > 1 {
			lines[gi].Text = all[spans[gi][0]:spans[gi][1]]
		}
	}
	return lines
}

// makeLineIn is makeLine for a line of several words, writing its text
// into sb (the caller sets Text from it).
func makeLineIn(p *pdftext.Page, words []int, starts []int, sb *strings.Builder) Line {
	l := Line{Words: words, Starts: starts}
	from := sb.Len()
	for k, i := range words {
		if k > 0 {
			sb.WriteByte(' ')
		}
		l.Starts[k] = sb.Len() - from
		sb.WriteString(wordText(&p.Words[i]))
		b := WordBox(p, i)
		if k == 0 {
			l.Box = b
		} else {
			l.Box = l.Box.Union(b)
		}
	}
	return l
}

// makeLine makes the line of words, writing the words' offsets into starts
// (len(words) long).
func makeLine(p *pdftext.Page, words []int, starts []int) Line {
	l := Line{Words: words, Starts: starts}
	switch len(words) {
	case 0:
		return l
	case 1:
		l.Text, l.Box = wordText(&p.Words[words[0]]), WordBox(p, words[0])
		return l
	}
	n := len(words) - 1
	for _, i := range words {
		n += len(wordText(&p.Words[i]))
	}
	var sb strings.Builder
	sb.Grow(n)
	for k, i := range words {
		if k > 0 {
			sb.WriteByte(' ')
		}
		l.Starts[k] = sb.Len()
		sb.WriteString(wordText(&p.Words[i]))
		b := WordBox(p, i)
		if k == 0 {
			l.Box = b
		} else {
			l.Box = l.Box.Union(b)
		}
	}
	l.Text = sb.String()
	return l
}

// geometricLines groups the given words into lines by position.
func geometricLines(p *pdftext.Page, words []int) [][]int {
	if len(words) == 0 {
		return nil
	}
	boxes := make(map[int]Box, len(words))
	order := append([]int(nil), words...)
	for _, i := range words {
		boxes[i] = WordBox(p, i)
	}
	sort.SliceStable(order, func(a, b int) bool {
		ba, bb := boxes[order[a]], boxes[order[b]]
		if ba.CenterY() != bb.CenterY() {
			return ba.CenterY() < bb.CenterY()
		}
		return ba.X0 < bb.X0
	})
	// Rows: consecutive words (by centre y) whose centres are close.
	var rows [][]int
	var row []int
	var rowY, rowH float64
	for _, i := range order {
		b := boxes[i]
		if len(row) > 0 && abs(b.CenterY()-rowY) <= 0.4*max(min(b.Height(), rowH), 1e-9) {
			row = append(row, i)
			continue
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
		row, rowY, rowH = []int{i}, b.CenterY(), b.Height()
	}
	rows = append(rows, row)

	var lines [][]int
	for _, r := range rows {
		sort.SliceStable(r, func(a, b int) bool { return boxes[r[a]].X0 < boxes[r[b]].X0 })
		cur := []int{r[0]}
		for _, i := range r[1:] {
			prev := boxes[cur[len(cur)-1]]
			b := boxes[i]
			if b.X0-prev.X1 > 1.5*max(prev.Height(), b.Height()) {
				lines = append(lines, cur)
				cur = nil
			}
			cur = append(cur, i)
		}
		lines = append(lines, cur)
	}
	return lines
}

// WordsInSpan returns the line's words that overlap the byte span [start, end)
// of its text.
func (l Line) WordsInSpan(start, end int) []int {
	var out []int
	for k, i := range l.Words {
		ws := l.Starts[k]
		var we int
		if k+1 < len(l.Starts) {
			we = l.Starts[k+1] - 1
		} else {
			we = len(l.Text)
		}
		if ws < end && we > start {
			out = append(out, i)
		}
	}
	return out
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
