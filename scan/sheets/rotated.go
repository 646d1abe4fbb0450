package sheets

import (
	"math"

	"planreview/scan/pdftext"
)

// Title blocks are sometimes set on a quarter turn: a strip along the right
// edge whose captions and values read bottom to top (90°) or top to bottom
// (270°). Such words are read on a virtual page turned so that they run left
// to right, with the same caption and numbering logic; what they yield is
// mapped back to the page.

// minTurnedWords is how many words on one quarter turn make it worth
// reading as a text layer of its own (below it they are dimensions and
// labels along walls).
const minTurnedWords = 12

// turnedPage is the words of one quarter turn on a virtual page where they
// read horizontally, and the index of each in the real page.
type turnedPage struct {
	angle  float64 // 90 or 270
	page   pdftext.Page
	origin []int // virtual word index → real word index
	w, h   float64
}

// turnedPages returns the virtual pages of the page's words at 90° and
// 270°, for the turns with enough words.
func turnedPages(p *pdftext.Page) []turnedPage {
	var out []turnedPage
	for _, angle := range []float64{90, 270} {
		if tp := turnPage(p, angle); len(tp.page.Words) >= minTurnedWords {
			out = append(out, tp)
		}
	}
	return out
}

// turnPage puts the page's words at the given quarter turn on a virtual
// page where they read left to right.
func turnPage(p *pdftext.Page, angle float64) turnedPage {
	pw, ph := pageScale(p)
	tp := turnedPage{angle: angle, w: pw, h: ph}
	tp.page = pdftext.Page{Number: p.Number, Width: ph, Height: pw, Readable: true, Reason: p.Reason}
	for i, w := range p.Words {
		if math.Abs(w.Angle-angle) > 10 {
			continue
		}
		v := tp.toVirtual(WordBox(p, i))
		nw := w
		nw.Baseline = [4]float64{} // in the page's frame, not the turned one
		nw.Angle = 0
		nw.BBox = pdftext.BBox{Left: v.X0 / ph, Top: v.Y0 / pw, Width: (v.X1 - v.X0) / ph, Height: (v.Y1 - v.Y0) / pw}
		tp.page.Words = append(tp.page.Words, nw)
		tp.origin = append(tp.origin, i)
	}
	return tp
}

// sideways returns the page turned upright when most of its words run on
// one quarter turn (a drawing placed sideways on the sheet), else nil.
func sideways(p *pdftext.Page) *turnedPage {
	for _, angle := range []float64{90, 270} {
		n := 0
		for i := range p.Words {
			if math.Abs(p.Words[i].Angle-angle) <= 10 {
				n++
			}
		}
		if n >= minTurnedWords && 5*n > 3*len(p.Words) {
			tp := turnPage(p, angle)
			tp.addOthers(p)
			return &tp
		}
	}
	return nil
}

// addOthers puts the page's words at other angles on the virtual page too,
// turned with it: a sheet laid out sideways often prints part of its title
// block (the number, the title, the date) upright, and those words are read
// as the virtual page's own turned text layer.
func (t *turnedPage) addOthers(p *pdftext.Page) {
	ph, pw := t.page.Width, t.page.Height
	for i, w := range p.Words {
		if math.Abs(w.Angle-t.angle) <= 10 {
			continue
		}
		v := t.toVirtual(WordBox(p, i))
		nw := w
		nw.Baseline = [4]float64{} // in the page's frame, not the turned one
		nw.Angle = math.Mod(w.Angle-t.angle+360, 360)
		nw.BBox = pdftext.BBox{Left: v.X0 / ph, Top: v.Y0 / pw, Width: (v.X1 - v.X0) / ph, Height: (v.Y1 - v.Y0) / pw}
		t.page.Words = append(t.page.Words, nw)
		t.origin = append(t.origin, i)
	}
}

// toRealModel maps what was read on the upright virtual page back to the
// real page: boxes and word indexes.
func (t turnedPage) toRealModel(pm *PageModel) {
	pm.TitleBlock = t.toReal(pm.TitleBlock)
	for i := range pm.Fields {
		f := &pm.Fields[i]
		f.CaptionBox, f.ValueBox = t.toReal(f.CaptionBox), t.toReal(f.ValueBox)
		f.CaptionWords, f.ValueWords = t.words(f.CaptionWords), t.words(f.ValueWords)
		f.valueLines = nil
	}
	pm.NumberWords, pm.TitleWords = t.words(pm.NumberWords), t.words(pm.TitleWords)
	pm.ScaleWords, pm.StatusWords = t.words(pm.ScaleWords), t.words(pm.StatusWords)
}

// toVirtual maps a real page box to the virtual page: (x, y) → (H − y, x)
// for 90° text, (y, W − x) for 270° text.
func (t turnedPage) toVirtual(b Box) Box {
	if t.angle == 90 {
		return Box{X0: t.h - b.Y1, Y0: b.X0, X1: t.h - b.Y0, Y1: b.X1}
	}
	return Box{X0: b.Y0, Y0: t.w - b.X1, X1: b.Y1, Y1: t.w - b.X0}
}

// toReal maps a virtual page box back to the real page.
func (t turnedPage) toReal(v Box) Box {
	if v == (Box{}) {
		return v
	}
	if t.angle == 90 {
		return Box{X0: v.Y0, Y0: t.h - v.X1, X1: v.Y1, Y1: t.h - v.X0}
	}
	return Box{X0: t.w - v.Y1, Y0: v.X0, X1: t.w - v.Y0, Y1: v.X1}
}

func (t turnedPage) words(ws []int) []int {
	out := make([]int, len(ws))
	for i, w := range ws {
		out[i] = t.origin[w]
	}
	return out
}

// turnedLayer is the text of one quarter turn of a page, read on its
// virtual page: its phrases there, and their boxes on the page.
type turnedLayer struct {
	turn    turnedPage
	phrases []textRun
	boxes   []Box // each phrase's box in the page's frame
}

// readTurned reads the fields and number candidates of the page's turned
// text layers, in real page terms, and returns the layers for the title.
func readTurned(p *pdftext.Page, pi int) ([]Field, []numberCandidate, []turnedLayer) {
	var fields []Field
	var cands []numberCandidate
	var layers []turnedLayer
	pw, ph := pageScale(p)
	for _, t := range turnedPages(p) {
		phrases := phrasesOf(&t.page, pageRuns(&t.page))
		fs := readFields(&t.page, phrases, findCaptions(&t.page, phrases))
		for _, c := range pageCandidates(&t.page, pi, phrases, fs) {
			c.words = t.words(c.words)
			c.box = t.toReal(c.box)
			c.cx, c.cy = c.box.CenterX()/pw, c.box.CenterY()/ph
			cands = append(cands, c)
		}
		for _, f := range fs {
			f.CaptionBox, f.ValueBox = t.toReal(f.CaptionBox), t.toReal(f.ValueBox)
			f.CaptionWords, f.ValueWords = t.words(f.CaptionWords), t.words(f.ValueWords)
			f.valueLines = nil
			fields = append(fields, f)
		}
		l := turnedLayer{turn: t, phrases: phrases, boxes: make([]Box, len(phrases))}
		for qi, q := range phrases {
			l.boxes[qi] = t.toReal(q.Box)
		}
		layers = append(layers, l)
	}
	return fields, cands, layers
}
