package sheets

import (
	"slices"
	"sort"
	"strings"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
)

// textRun (a "phrase") is one of the layout's runs as the set reading
// reads it: words on one baseline, in one text size, with no gap wider
// than about a word height and no drawn rule between neighbours: a
// caption, a value, a line of a note. Title blocks put captions and values
// in separate cells, so phrases (unlike reading lines) never join two
// cells of one row.
type textRun struct {
	Words []int    // indexes into Page.Words, left to right
	Text  string   // WordText of the words joined by single spaces
	Raw   string   // the words as printed, joined by single spaces
	Norms []string // normWord of each word
	Box   Box
	H     float64 // median word height in points
}

// phrasesOf returns the phrases of page p from its layout's runs (runs
// of p's words): an upright run is a phrase, a word at any other angle is
// one on its own (the set reading reads turned text on its own turned
// page), and so is a word beyond the words the layout considered.
func phrasesOf(p *pdftext.Page, runs []layout.Run) []textRun {
	n := len(p.Words)
	if n == 0 {
		return nil
	}
	// Each word is in one phrase: the phrases' word lists and normalised
	// words are cut from two page-wide slabs.
	wordSlab := make([]int, 0, n)
	normSlab := make([]string, n)
	ends := make([]int32, 0, len(runs))
	covered := make([]bool, n)
	for ri := range runs {
		r := &runs[ri]
		upright := r.Angle == 0
		start := len(wordSlab)
		for _, wi := range r.Words {
			if wi < 0 || wi >= n || covered[wi] {
				continue
			}
			covered[wi] = true
			wordSlab = append(wordSlab, wi)
			if !upright {
				ends = append(ends, int32(len(wordSlab)))
			}
		}
		if upright && len(wordSlab) > start {
			ends = append(ends, int32(len(wordSlab)))
		}
	}
	for wi, c := range covered {
		if !c {
			wordSlab = append(wordSlab, wi)
			ends = append(ends, int32(len(wordSlab)))
		}
	}
	out := make([]textRun, len(ends))
	// The texts of phrases of several words are written into one
	// page-wide builder and cut from it once it is complete.
	slab := &textSlab{spans: make([]textSpan, 0, len(ends))}
	slab.sb.Grow(textSlabHint(p))
	from := 0
	for i, e := range ends {
		to := int(e)
		out[i] = makePhraseIn(p, wordSlab[from:to:to], normSlab[from:to:to], slab, i)
		from = to
	}
	all := slab.sb.String()
	for _, sp := range slab.spans {
		out[sp.phrase].Text = all[sp.from:sp.to]
		if sp.rawIsText {
			out[sp.phrase].Raw = out[sp.phrase].Text
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if abs(out[a].Box.Y0-out[b].Box.Y0) > 0.5*min(out[a].H, out[b].H) {
			return out[a].Box.Y0 < out[b].Box.Y0
		}
		return out[a].Box.X0 < out[b].Box.X0
	})
	return out
}

// pageRuns are the runs of a page the set reading has no layout of (a
// page turned a quarter, a page read alone): the layout's runs, on a
// page of unit size when the page gives none.
func pageRuns(p *pdftext.Page) []layout.Run {
	if p.Width > 0 && p.Height > 0 {
		return layout.Runs(p)
	}
	sized := *p
	sized.Width, sized.Height = pageScale(p)
	return layout.Runs(&sized)
}

// lessAsCmp orders as x < y does (a NaN ties with everything), for the
// generic sorts, which run sort.Slice's algorithm (pdqsort, same
// comparisons and swaps): ties keep the order sort.Slice gave them.
func lessAsCmp(x, y float64) int {
	switch {
	case x < y:
		return -1
	case y < x:
		return 1
	}
	return 0
}

func makePhrase(p *pdftext.Page, words []int) textRun {
	return makePhraseIn(p, words, make([]string, len(words)), nil, 0)
}

// textSlab holds the joined texts of a page's phrases: spans of one
// builder, set on the phrases once it is complete.
type textSlab struct {
	sb    strings.Builder
	spans []textSpan
}

type textSpan struct {
	phrase, from, to int
	rawIsText        bool // the phrase's Raw is its Text
}

// textSlabHint is the length of the page's words joined by spaces, the
// size the slab most likely needs.
func textSlabHint(p *pdftext.Page) int {
	n := 0
	for i := range p.Words {
		n += len(p.Words[i].Text) + 1
	}
	return n
}

// makePhraseIn is makePhrase writing the normalised words into norms
// (len(words) long).
func makePhraseIn(p *pdftext.Page, words []int, norms []string, slab *textSlab, phrase int) textRun {
	ph := textRun{Words: words, Box: WordBox(p, words[0]), Norms: norms}
	if len(words) == 1 {
		// A label of one word (most phrases of a drawing): its texts are
		// the word's own, with nothing to join or allocate.
		w := &p.Words[words[0]]
		ph.Text, ph.Raw = wordText(w), w.Text
		ph.Norms[0] = normWord(ph.Text)
		ph.H = ph.Box.Height()
		return ph
	}
	var hbuf [8]float64
	hs := hbuf[:0]
	var tbuf [8]string
	texts := tbuf[:0]
	textLen := len(words) - 1
	same := true // every word's text is as printed: Raw is Text
	for k, w := range words {
		t := wordText(&p.Words[w])
		texts = append(texts, t)
		textLen += len(t)
		same = same && t == p.Words[w].Text
		ph.Norms[k] = normWord(t)
		b := WordBox(p, w)
		ph.Box = ph.Box.Union(b)
		hs = append(hs, b.Height())
	}
	slices.Sort(hs)
	ph.H = hs[len(hs)/2]
	if slab != nil {
		// Text (and Raw when it is the same) are set from the slab.
		sp := textSpan{phrase: phrase, from: slab.sb.Len(), rawIsText: same}
		for k, t := range texts {
			if k > 0 {
				slab.sb.WriteByte(' ')
			}
			slab.sb.WriteString(t)
		}
		sp.to = slab.sb.Len()
		slab.spans = append(slab.spans, sp)
		if same {
			return ph
		}
	} else {
		ph.Text = joinWords(texts, textLen)
	}
	if same {
		ph.Raw = ph.Text
		return ph
	}
	raws := texts[:0:0]
	rawLen := len(words) - 1
	for _, w := range words {
		raws = append(raws, p.Words[w].Text)
		rawLen += len(p.Words[w].Text)
	}
	ph.Raw = joinWords(raws, rawLen)
	return ph
}

// joinWords is strings.Join(words, " ") for a caller that knows its length.
func joinWords(words []string, n int) string {
	var sb strings.Builder
	sb.Grow(n)
	for k, w := range words {
		if k > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(w)
	}
	return sb.String()
}

// normWord is a word as caption tables spell it: upper case, without the
// trailing colon or full stop and surrounding brackets ("No.:" → "NO").
func normWord(s string) string {
	i, j := 0, len(s)
	for i < j && isNormTrim(s[i]) {
		i++
	}
	for j > i && isNormTrim(s[j-1]) {
		j--
	}
	return strings.ToUpper(s[i:j])
}

// isNormTrim: the bytes normWord trims (strings.Trim's cutset
// ":.,;()[]*", without building the set on every call).
func isNormTrim(c byte) bool {
	switch c {
	case ':', '.', ',', ';', '(', ')', '[', ']', '*':
		return true
	}
	return false
}

// sub returns the textRun made of words [a, b) of ph.
func (ph textRun) sub(p *pdftext.Page, a, b int) textRun {
	if a >= b {
		return textRun{}
	}
	return makePhrase(p, ph.Words[a:b])
}
