package sheets

import (
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

// Lines is the view of a page's layout lines the checks read: each layout
// line's words in reading order, their text as the review reads it
// (wordText, joined by single spaces so a match maps back to words) and
// their box. The layout is the only grouping of words into lines; the
// view only renders it.
func Lines(lp *layout.Page) []Line {
	if lp == nil || len(lp.Lines) == 0 {
		return nil
	}
	p := &pdftext.Page{Words: lp.Words, Width: lp.Width, Height: lp.Height}
	// Lines read across (a table row's cells) are one line of the view,
	// in the place of the first of them in reading order.
	across := make(map[int]int, 2*len(lp.ReadAcross)) // line → entry
	for ei, row := range lp.ReadAcross {
		for _, li := range row {
			across[li] = ei
		}
	}
	done := make([]bool, len(lp.ReadAcross))
	groups := make([][]int, 0, len(lp.Lines))
	for li := range lp.Lines {
		ei, ok := across[li]
		if !ok {
			if ws := lp.Lines[li].Words; len(ws) > 0 {
				groups = append(groups, ws)
			}
			continue
		}
		if done[ei] {
			continue
		}
		done[ei] = true
		var ws []int
		for _, lj := range lp.ReadAcross[ei] {
			ws = append(ws, lp.Lines[lj].Words...)
		}
		if len(ws) > 0 {
			groups = append(groups, ws)
		}
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
