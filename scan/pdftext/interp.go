package pdftext

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Limits that keep a hostile file from taking the process down. Real plan
// sheets stay far below them.
const (
	maxFormDepth     = 16       // nested Form XObjects
	maxOperandStack  = 1 << 16  // operands before an operator
	maxOpsPerPage    = 50 << 20 // operators executed on one page
	ctxCheckInterval = 4096     // operators between context checks
	maxWordsPerPage  = 2 << 20
)

// errTooComplex is returned when a page exceeds maxOpsPerPage.
var errTooComplex = errors.New("page too complex")

type gstate struct {
	ctm       matrix
	font      *font
	fontSize  float64
	charSpace float64
	wordSpace float64
	hScale    float64
	leading   float64
	rise      float64
}

// interp runs the content streams of one page and feeds glyphs to the word
// builder. Fonts are resolved through the document-wide cache, so switching
// fonts per label costs a map lookup.
type interp struct {
	ctx   context.Context
	doc   *Document
	words *wordBuilder

	gs    gstate
	stack []gstate
	tm    matrix
	tlm   matrix

	ops int
	// formsActive holds the form objects being run, to break cycles.
	formsActive map[int]bool
	depth       int

	sawImage  bool
	sawVector bool
	sawText   bool
}

// resources is a resource dictionary with its font lookups cached, so the
// Tf of every label does not walk pdfcpu dictionaries again.
type resources struct {
	dict  types.Dict
	fonts map[string]*font
}

func (in *interp) newResources(d types.Dict) *resources {
	return &resources{dict: d, fonts: map[string]*font{}}
}

func (in *interp) fontFor(res *resources, name []byte) *font {
	if f, ok := res.fonts[string(name)]; ok {
		return f
	}
	var f *font
	if fonts := in.doc.obj.dict(res.dict["Font"]); fonts != nil {
		if ref, ok := fonts[string(name)]; ok {
			f = in.doc.font(ref)
		}
	}
	res.fonts[string(name)] = f
	return f
}

// run interprets one content stream with the given resources.
func (in *interp) run(content []byte, res *resources) error {
	lx := newLexer(content)
	operands := make([]token, 0, 16)
	for {
		t := lx.next()
		switch t.kind {
		case tokEOF:
			return nil
		case tokKeyword:
		default:
			if len(operands) < maxOperandStack {
				operands = append(operands, t)
			}
			continue
		}
		in.ops++
		if in.ops%ctxCheckInterval == 0 {
			if err := in.ctx.Err(); err != nil {
				return err
			}
			if in.ops > maxOpsPerPage {
				return errTooComplex
			}
		}
		if err := in.op(lx, t.b, operands, res); err != nil {
			return err
		}
		operands = operands[:0]
		lx.resetScratch()
	}
}

func num(ops []token, i int) float64 {
	if i < len(ops) && ops[i].kind == tokNumber {
		return ops[i].num
	}
	return 0
}

// lastNums returns the last n operands as numbers, tolerating extra
// operands in front (seen in broken producers' output).
func lastNums(ops []token, n int) ([]token, bool) {
	if len(ops) < n {
		return nil, false
	}
	tail := ops[len(ops)-n:]
	for _, t := range tail {
		if t.kind != tokNumber {
			return nil, false
		}
	}
	return tail, true
}

func (in *interp) op(lx *lexer, op []byte, ops []token, res *resources) error {
	gs := &in.gs
	switch string(op) {
	case "q":
		if len(in.stack) < 1<<12 {
			in.stack = append(in.stack, in.gs)
		}
	case "Q":
		if n := len(in.stack); n > 0 {
			in.gs = in.stack[n-1]
			in.stack = in.stack[:n-1]
		}
	case "cm":
		if a, ok := lastNums(ops, 6); ok {
			m := matrix{a[0].num, a[1].num, a[2].num, a[3].num, a[4].num, a[5].num}
			gs.ctm = m.mul(gs.ctm)
		}
	case "BT":
		in.tm, in.tlm = identity, identity
	case "ET":
	case "Tf":
		if len(ops) >= 2 && ops[len(ops)-2].kind == tokName {
			gs.font = in.fontFor(res, ops[len(ops)-2].b)
			gs.fontSize = num(ops, len(ops)-1)
		}
	case "Tc":
		if a, ok := lastNums(ops, 1); ok {
			gs.charSpace = a[0].num
		}
	case "Tw":
		if a, ok := lastNums(ops, 1); ok {
			gs.wordSpace = a[0].num
		}
	case "Tz":
		if a, ok := lastNums(ops, 1); ok {
			gs.hScale = a[0].num / 100
		}
	case "TL":
		if a, ok := lastNums(ops, 1); ok {
			gs.leading = a[0].num
		}
	case "Ts":
		if a, ok := lastNums(ops, 1); ok {
			gs.rise = a[0].num
		}
	case "Td":
		if a, ok := lastNums(ops, 2); ok {
			in.moveText(a[0].num, a[1].num)
		}
	case "TD":
		if a, ok := lastNums(ops, 2); ok {
			gs.leading = -a[1].num
			in.moveText(a[0].num, a[1].num)
		}
	case "Tm":
		if a, ok := lastNums(ops, 6); ok {
			in.tlm = matrix{a[0].num, a[1].num, a[2].num, a[3].num, a[4].num, a[5].num}
			in.tm = in.tlm
		}
	case "T*":
		in.moveText(0, -gs.leading)
	case "Tj":
		if len(ops) > 0 && ops[len(ops)-1].kind == tokString {
			in.show(ops[len(ops)-1].b)
		}
	case "'":
		in.moveText(0, -gs.leading)
		if len(ops) > 0 && ops[len(ops)-1].kind == tokString {
			in.show(ops[len(ops)-1].b)
		}
	case "\"":
		if len(ops) >= 3 {
			gs.wordSpace = num(ops, len(ops)-3)
			gs.charSpace = num(ops, len(ops)-2)
		}
		in.moveText(0, -gs.leading)
		if len(ops) > 0 && ops[len(ops)-1].kind == tokString {
			in.show(ops[len(ops)-1].b)
		}
	case "TJ":
		in.showArray(ops)
	case "Do":
		if len(ops) > 0 && ops[len(ops)-1].kind == tokName {
			return in.doXObject(res, ops[len(ops)-1].b)
		}
	case "BI":
		// Inline image: its dictionary runs up to ID, then binary data.
		for {
			t := lx.next()
			if t.kind == tokEOF {
				return nil
			}
			if t.kind == tokKeyword && string(t.b) == "ID" {
				break
			}
		}
		lx.skipInlineImage()
		in.sawImage = true
	case "f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "sh":
		in.sawVector = true
	}
	return nil
}

func (in *interp) moveText(tx, ty float64) {
	in.tlm = matrix{1, 0, 0, 1, tx, ty}.mul(in.tlm)
	in.tm = in.tlm
}

func (in *interp) showArray(ops []token) {
	// Operands after the last '[' are the array's elements.
	start := -1
	for i := len(ops) - 1; i >= 0; i-- {
		if ops[i].kind == tokArrayOpen {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return
	}
	gs := &in.gs
	for _, t := range ops[start:] {
		switch t.kind {
		case tokString:
			in.show(t.b)
		case tokNumber:
			adj := -t.num / 1000 * gs.fontSize
			if gs.font != nil && gs.font.vertical {
				in.tm = matrix{1, 0, 0, 1, 0, adj}.mul(in.tm)
			} else {
				in.tm = matrix{1, 0, 0, 1, adj * gs.hScale, 0}.mul(in.tm)
			}
		}
	}
}

// show places the glyphs of one string, advancing the text matrix.
func (in *interp) show(s []byte) {
	gs := &in.gs
	f := gs.font
	if f == nil || len(s) == 0 {
		return
	}
	in.sawText = true
	// Text rendering matrix without the per-glyph translation: text space
	// through Tm, CTM and the page's device transform.
	trmBase := in.tm.mul(gs.ctm).mul(in.words.device)
	fontSize := transformedFontSize(gs.fontSize, trmBase) * f.sizeScale
	for len(s) > 0 {
		g := f.next(s)
		s = s[g.n:]
		spacing := gs.charSpace
		if g.isByte && g.code == 32 {
			spacing += gs.wordSpace
		}
		var tx, ty, boxDX, boxDY float64
		if f.vertical {
			w := f.defaultW2
			ty = w*gs.fontSize + spacing
			boxDY = w * gs.fontSize
		} else {
			tx = (g.width*gs.fontSize + spacing) * gs.hScale
			boxDX = g.width * gs.fontSize * gs.hScale
		}
		trm := in.tm.mul(gs.ctm).mul(in.words.device)
		x, y := trm.apply(0, gs.rise)
		dx, dy := trm.applyDelta(boxDX, boxDY)
		in.words.addChar(g.text, x, y, dx, dy, fontSize, trm, f, gs.fontSize)
		in.tm = matrix{1, 0, 0, 1, tx, ty}.mul(in.tm)
	}
}

// transformedFontSize is the length of the text-space vector (0, size)
// on the device: poppler's font size for word boxes and breaks.
func transformedFontSize(size float64, trm matrix) float64 {
	x, y := trm.applyDelta(0, size)
	return math.Hypot(x, y)
}

func (in *interp) doXObject(res *resources, name []byte) error {
	xobjs := in.doc.obj.dict(res.dict["XObject"])
	if xobjs == nil {
		return nil
	}
	ref, ok := xobjs[string(name)]
	if !ok {
		return nil
	}
	d := in.doc.obj.dict(ref)
	if d == nil {
		return nil
	}
	switch in.doc.obj.name(d["Subtype"]) {
	case "Image":
		in.sawImage = true
		return nil
	case "Form":
	default:
		return nil
	}
	id := objectID(ref)
	if id != 0 && in.formsActive[id] {
		return nil // a form that draws itself
	}
	if in.depth >= maxFormDepth {
		return nil
	}
	_, content, err := in.doc.obj.stream(ref)
	if err != nil && len(content) == 0 {
		return nil // an unreadable form hides only itself
	}
	formRes := res
	if rd := in.doc.obj.dict(d["Resources"]); rd != nil {
		formRes = in.doc.resourcesFor(ref, rd, in)
	}
	m := identity
	if a := in.doc.obj.numbers(d["Matrix"]); len(a) == 6 {
		m = matrix{a[0], a[1], a[2], a[3], a[4], a[5]}
	}
	return in.runForm(id, content, formRes, m)
}

// runForm runs a form's content with the graphics state saved around it.
func (in *interp) runForm(id int, content []byte, res *resources, m matrix) error {
	if id != 0 {
		in.formsActive[id] = true
		defer delete(in.formsActive, id)
	}
	saved, savedStack, savedTm, savedTlm := in.gs, len(in.stack), in.tm, in.tlm
	in.gs.ctm = m.mul(in.gs.ctm)
	in.depth++
	err := in.run(content, res)
	in.depth--
	in.gs, in.stack, in.tm, in.tlm = saved, in.stack[:min(savedStack, len(in.stack))], savedTm, savedTlm
	if err != nil {
		return fmt.Errorf("form xobject: %w", err)
	}
	return nil
}
