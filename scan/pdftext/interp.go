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
// (The configurable ones are in Budgets, budget.go.)
const (
	maxOperandStack  = 1 << 16 // operands before an operator
	ctxCheckInterval = 4096    // operators between context and budget checks
	maxWordsPerPage  = 1 << 19
	maxGlyphsPerPage = 64 << 20
)

// errTooComplex is returned when a page exceeds a budget of its own.
var errTooComplex = fmt.Errorf("%w: page too complex", ErrTooComplex)

type gstate struct {
	ctm       matrix
	font      *font
	fontSize  float64
	charSpace float64
	wordSpace float64
	hScale    float64
	leading   float64
	rise      float64
	lineWidth float64 // w, in user space
}

// interp runs the content streams of one page and feeds glyphs to the word
// builder. Fonts are resolved through the document-wide cache, so switching
// fonts per label costs a map lookup.
type interp struct {
	ctx   context.Context
	doc   *Document
	words *wordBuilder
	// shxRes holds the font SHX text comments are set in, made on the
	// page's first one (a sheet may carry hundreds).
	shxRes *resources

	gs    gstate
	stack []gstate
	tm    matrix
	tlm   matrix

	ops int
	// glyphs counts string bytes shown: one Tj can carry megabytes, so
	// show checks the context and maxGlyphsPerPage itself and leaves the
	// reason to stop in stop for the operator loop.
	glyphs int
	stop   error
	// formsActive holds the form objects being run, to break cycles.
	formsActive map[int]bool
	depth       int
	// The page's budgets, and what it used of them (operators are ops).
	budgets                       Budgets
	maxDepth, forms, inlineImages int

	// markedContent records, per open BMC/BDC, whether it replaces its
	// glyphs with an /ActualText and whether it is a hidden layer.
	markedContent []markedSpan

	path pathBuilder // stroked rules and rectangles (graphics.go)

	sawImage bool      // an image XObject or inline image was drawn
	marks    pageMarks // where images and vector marks were drawn (placements.go)
	unmapped int       // glyphs shown whose font gives no text for them
	shown    int       // glyphs shown
}

// resources is a resource dictionary with its font lookups cached, so the
// Tf of every label does not walk pdfcpu dictionaries again.
type resources struct {
	dict  types.Dict
	fonts map[string]*font
}

func newResources(d types.Dict) *resources {
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
		if in.stop != nil {
			return in.stop
		}
		if in.ops%ctxCheckInterval == 0 {
			if err := in.checkBudgets(); err != nil {
				return err
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
		if in.inlineImages++; in.inlineImages > in.budgets.InlineImagesPerPage {
			return fmt.Errorf("%w: more than %d inline images on one page", ErrTooComplex, in.budgets.InlineImagesPerPage)
		}
		in.placeImage()
	case "BMC":
		in.markedContent = append(in.markedContent, markedSpan{})
	case "BDC":
		var span markedSpan
		if oc := in.markedOC(ops, res); oc != nil && in.doc.ocHidden(oc) {
			span.hidden = true
			in.words.hidden++
		}
		if text, ok := actualText(ops); ok && !in.words.inActualText() {
			in.words.beginActualText(text)
			span.actualText = true
		}
		in.markedContent = append(in.markedContent, span)
	case "EMC":
		if n := len(in.markedContent); n > 0 {
			span := in.markedContent[n-1]
			if span.actualText {
				in.words.endActualText()
			}
			if span.hidden {
				in.words.hidden--
			}
			in.markedContent = in.markedContent[:n-1]
		}
	default:
		in.pathOp(string(op), ops)
	}
	return nil
}

type markedSpan struct {
	actualText bool
	hidden     bool
}

// actualText finds /ActualText in a BDC's inline property list: the text
// that replaces the span's glyphs (hyphenation, ligatures, symbol fonts).
func actualText(ops []token) (string, bool) {
	for i := 0; i+1 < len(ops); i++ {
		if ops[i].kind == tokName && string(ops[i].b) == "ActualText" && ops[i+1].kind == tokString {
			return decodeTextString(ops[i+1].b), true
		}
	}
	return "", false
}

// decodeTextString decodes a PDF text string: UTF-16BE with a byte order
// mark, UTF-8 with one (PDF 2.0), else PDFDocEncoding, which matches
// Latin-1 for the printable range.
func decodeTextString(b []byte) string {
	switch {
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		return utf16Text(b[2:])
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		return string(b[3:])
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
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
	// The font size on the device, for word boxes and breaks, from the
	// text matrix and CTM of this string (measured against poppler: it
	// follows Tm and cm changes, not only Tf).
	fontSize := transformedFontSize(gs.fontSize, in.tm.mul(gs.ctm).mul(in.words.device)) * f.sizeScale
	in.glyphs += len(s)
	if in.glyphs > maxGlyphsPerPage {
		in.stop = errTooComplex
		return
	}
	for i := 0; len(s) > 0; i++ {
		if i&0x3fff == 0x3fff {
			if err := in.ctx.Err(); err != nil {
				in.stop = err // reported by the next operator
				return
			}
		}
		g := f.next(s)
		s = s[g.n:]
		in.shown++
		if g.text == "" {
			in.unmapped++
		}
		// Tw applies to the one-byte code 32 only. Boxes are the advance
		// less Tc and, for any code 32, less Tw: poppler's rule, which
		// narrows a two-byte code 32 by Tw; kept for agreement with it.
		spacing, boxSpacing := gs.charSpace, gs.charSpace
		if g.code == 32 {
			boxSpacing += gs.wordSpace
			if g.n == 1 {
				spacing += gs.wordSpace
			}
		}
		var tx, ty, boxDX, boxDY float64
		if f.vertical {
			w := f.defaultW2
			ty = w*gs.fontSize + spacing
			boxDY = ty - boxSpacing
		} else {
			tx = (g.width*gs.fontSize + spacing) * gs.hScale
			boxDX = tx - boxSpacing*gs.hScale
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
	if in.doc.ocHidden(d["OC"]) {
		return nil // an image or form in a layer that is off
	}
	switch in.doc.obj.name(d["Subtype"]) {
	case "Image":
		in.placeImage()
		return nil
	case "Form":
	default:
		return nil
	}
	id := objectID(ref)
	if id != 0 && in.formsActive[id] {
		return nil // a form that draws itself
	}
	if in.depth >= in.budgets.FormDepth {
		return fmt.Errorf("%w: Form XObjects nested over %d deep", ErrTooComplex, in.budgets.FormDepth)
	}
	if in.forms++; in.forms > in.budgets.FormsPerPage {
		return fmt.Errorf("%w: more than %d Form XObjects drawn on one page", ErrTooComplex, in.budgets.FormsPerPage)
	}
	content, err := in.doc.formContent(ref)
	if err != nil && len(content) == 0 {
		return nil // an unreadable form hides only itself
	}
	formRes := res
	if rd := in.doc.obj.dict(d["Resources"]); rd != nil {
		formRes = in.doc.resourcesFor(ref, rd)
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
	savedMarked, savedHidden := len(in.markedContent), in.words.hidden
	in.gs.ctm = m.mul(in.gs.ctm)
	in.depth++
	in.maxDepth = max(in.maxDepth, in.depth)
	err := in.run(content, res)
	in.depth--
	in.gs, in.stack, in.tm, in.tlm = saved, in.stack[:min(savedStack, len(in.stack))], savedTm, savedTlm
	// A form's unbalanced marked content ends with the form.
	in.markedContent, in.words.hidden = in.markedContent[:min(savedMarked, len(in.markedContent))], savedHidden
	if err != nil && !errors.Is(err, ErrTooComplex) { // a budget's message says enough
		return fmt.Errorf("form xobject: %w", err)
	}
	if err != nil {
		return err
	}
	return nil
}
