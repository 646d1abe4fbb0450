package plangen

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	pdffont "github.com/pdfcpu/pdfcpu/pkg/font"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/validate"

	"planreview/scan/pdftext"
)

// Fonts the generator uses: standard-14 fonts, never embedded, so every
// reader has their metrics. fontMetrics are the AFM ascender and descender
// (per 1000 em) used for ground-truth boxes.
var fontMetrics = map[string]struct{ ascender, descender float64 }{
	"Helvetica":      {718, -207},
	"Helvetica-Bold": {718, -207},
	"Times-Roman":    {683, -217},
	"Courier":        {629, -157},
}

// fontOrder fixes the resource name of each font (F1…F4).
var fontOrder = []string{"Helvetica", "Helvetica-Bold", "Times-Roman", "Courier"}

func fontKey(name string) string {
	for i, f := range fontOrder {
		if f == name {
			return fmt.Sprintf("F%d", i+1)
		}
	}
	return "F1"
}

// textWidth is the advance width of s in points.
func textWidth(s, font string, size float64) (float64, error) {
	return pdffont.TextWidthFloat(s, font, size)
}

// orientation maps displayed page coordinates (points from the top-left
// corner of the page as shown, after /Rotate) to PDF user space, for a page
// whose displayed size is dispW × dispH and whose /Rotate is rot.
type orientation struct {
	rot          int
	dispW, dispH float64
}

// mediaSize is the MediaBox size: the displayed size, swapped for quarter turns.
func (o orientation) mediaSize() (float64, float64) {
	if o.rot == 90 || o.rot == 270 {
		return o.dispH, o.dispW
	}
	return o.dispW, o.dispH
}

// toUser maps a displayed point (x from the left, y from the top) to user space.
func (o orientation) toUser(x, y float64) (float64, float64) {
	mw, mh := o.mediaSize()
	switch o.rot {
	case 90:
		return y, x
	case 180:
		return mw - x, y
	case 270:
		return mw - y, mh - x
	}
	return x, mh - y
}

// textMatrix returns the rotation part of the text matrix that makes text
// read left to right on the displayed page.
func (o orientation) textMatrix() (a, b, c, d float64) {
	switch o.rot {
	case 90:
		return 0, 1, -1, 0
	case 180:
		return -1, 0, 0, -1
	case 270:
		return 0, -1, 1, 0
	}
	return 1, 0, 0, 1
}

// userRect is the user-space bounding rectangle of a displayed box.
func (o orientation) userRect(left, top, right, bottom float64) pdftext.Rect {
	x0, y0 := o.toUser(left, top)
	x1, y1 := o.toUser(right, bottom)
	return pdftext.Rect{min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)}
}

// placeLabel computes the ground truth of a label whose glyph box starts
// at displayed (left, top): label and per-word boxes, and the baseline
// start in user space for the content stream.
func placeLabel(text, font string, size, left, top float64, o orientation) (Label, error) {
	m, ok := fontMetrics[font]
	if !ok {
		return Label{}, fmt.Errorf("plangen: font %q is not one of the generator's standard fonts", font)
	}
	for _, r := range text {
		if r < 0x20 || r > 0x7e {
			return Label{}, fmt.Errorf("plangen: label %q: only printable ASCII is written", text)
		}
	}
	asc, desc := m.ascender/1000*size, -m.descender/1000*size
	width, err := textWidth(text, font, size)
	if err != nil {
		return Label{}, err
	}
	box := func(l, w float64) (pdftext.BBox, pdftext.Rect) {
		b := pdftext.BBox{Left: l / o.dispW, Top: top / o.dispH, Width: w / o.dispW, Height: (asc + desc) / o.dispH}
		return b, o.userRect(l, top, l+w, top+asc+desc)
	}
	l := Label{Text: text, Font: font, Size: size, Rotate: o.rot}
	l.X, l.Y = o.toUser(left, top+asc)
	l.BBox, l.Rect = box(left, width)
	offset := 0
	for _, w := range strings.Fields(text) {
		at := strings.Index(text[offset:], w) + offset
		before, err := textWidth(text[:at], font, size)
		if err != nil {
			return Label{}, err
		}
		ww, err := textWidth(w, font, size)
		if err != nil {
			return Label{}, err
		}
		bb, r := box(left+before, ww)
		l.Words = append(l.Words, pdftext.Word{Text: w, Norm: w, Rect: r, BBox: bb, FontSize: size})
		offset = at + len(w)
	}
	return l, nil
}

func escapePDFString(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}

// contentStream writes one text object per label: font, size and an exact
// text matrix, so the glyphs land where the ground truth says.
func contentStream(labels []Label) []byte {
	var b bytes.Buffer
	for _, l := range labels {
		a, bb, c, d := orientation{rot: l.Rotate}.textMatrix()
		fmt.Fprintf(&b, "BT /%s %.2f Tf %g %g %g %g %.3f %.3f Tm (%s) Tj ET\n",
			fontKey(l.Font), l.Size, a, bb, c, d, l.X, l.Y, escapePDFString(l.Text))
	}
	return b.Bytes()
}

// rawPDF assembles a minimal PDF: catalog, page tree, the four standard
// fonts, and per page a page object and its content stream.
func rawPDF(pages []Page) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(body string) int {
		offsets = append(offsets, b.Len())
		n := len(offsets)
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body)
		return n
	}
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	// The page tree's kids are known up front: page i is object 7+2i.
	var kids []string
	for i := range pages {
		kids = append(kids, fmt.Sprintf("%d 0 R", 7+2*i))
	}
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)))
	var fontRefs []string
	for i, f := range fontOrder {
		n := obj(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>", f))
		fontRefs = append(fontRefs, fmt.Sprintf("/F%d %d 0 R", i+1, n))
	}
	for i, p := range pages {
		content := append(contentStream(p.Labels), strokeStream(p)...)
		content = append(content, markStream(p)...)
		mw, mh := orientation{rot: p.Rotate, dispW: p.Width, dispH: p.Height}.mediaSize()
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Rotate %d /Resources << /Font << %s >> >> /Contents %d 0 R >>",
			mw, mh, p.Rotate, strings.Join(fontRefs, " "), 8+2*i))
		obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content)+0, content))
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// The appliance never writes pdfcpu's config directory under $HOME:
// pdfcpu's built-in defaults, set while packages initialise (see
// scan/annotate: pdfcpu's api package would link its form filler).
var _ = func() bool { model.ConfigPath = "disable"; return true }()

// writePDF builds the raw file, then has pdfcpu read, validate and write
// it, so that what the generator hands out is a file pdfcpu itself produced
// and accepts.
func writePDF(pages []Page) (_ []byte, err error) {
	conf := model.NewDefaultConfiguration()
	// Relaxed: the standard-14 fonts go without /Widths, which PDF allows
	// for them and strict mode flags.
	conf.ValidationMode = model.ValidationRelaxed
	defer func() {
		// pdfcpu's reader panics on some malformed input; the generator's
		// own file failing is an error, not a crash.
		if r := recover(); r != nil {
			err = fmt.Errorf("plangen: pdfcpu: %v", r)
		}
	}()
	ctx, err := pdfcpu.Read(bytes.NewReader(rawPDF(pages)), conf)
	if err != nil {
		return nil, fmt.Errorf("plangen: pdfcpu read: %w", err)
	}
	if err := validate.XRefTable(ctx); err != nil {
		return nil, fmt.Errorf("plangen: pdfcpu validate: %w", err)
	}
	var out bytes.Buffer
	ctx.Write.Writer = bufio.NewWriter(&out)
	err = pdfcpu.WriteContext(ctx)
	if ferr := ctx.Write.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, fmt.Errorf("plangen: pdfcpu write: %w", err)
	}
	return out.Bytes(), nil
}

// strokeStream draws the page's ruled lines, 0.5 pt wide.
func strokeStream(p Page) string {
	if len(p.Strokes) == 0 {
		return ""
	}
	o := orientation{rot: p.Rotate, dispW: p.Width, dispH: p.Height}
	var b strings.Builder
	b.WriteString("\nq 0.5 w\n")
	for _, s := range p.Strokes {
		x0, y0 := o.toUser(s.X0, s.Y0)
		x1, y1 := o.toUser(s.X1, s.Y1)
		fmt.Fprintf(&b, "%.2f %.2f m %.2f %.2f l S\n", x0, y0, x1, y1)
	}
	b.WriteString("Q\n")
	return b.String()
}

// markStream paints the page's images (each an inline one-pixel grey image
// stretched over its box) and strokes its circles (four Bézier curves).
func markStream(p Page) string {
	if len(p.Images) == 0 && len(p.Circles) == 0 {
		return ""
	}
	o := orientation{rot: p.Rotate, dispW: p.Width, dispH: p.Height}
	var b strings.Builder
	for _, a := range p.Images {
		r := o.userRect(a.X0, a.Y0, a.X1, a.Y1)
		fmt.Fprintf(&b, "\nq %.2f 0 0 %.2f %.2f %.2f cm BI /W 1 /H 1 /BPC 8 /CS /G ID \x80 EI Q\n", r[2]-r[0], r[3]-r[1], r[0], r[1])
	}
	// k: the control distance of a quarter circle.
	const k = 0.5523
	for _, c := range p.Circles {
		pt := func(dx, dy float64) string {
			x, y := o.toUser(c.X+dx*c.R, c.Y+dy*c.R)
			return fmt.Sprintf("%.2f %.2f", x, y)
		}
		fmt.Fprintf(&b, "q 0.5 w %s m %s %s %s c %s %s %s c %s %s %s c %s %s %s c S Q\n",
			pt(1, 0), pt(1, k), pt(k, 1), pt(0, 1), pt(-k, 1), pt(-1, k), pt(-1, 0),
			pt(-1, -k), pt(-k, -1), pt(0, -1), pt(k, -1), pt(1, -k), pt(1, 0))
	}
	return b.String()
}
