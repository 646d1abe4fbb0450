package pdftext

import (
	"fmt"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// AutoCAD draws text set in its SHX fonts as strokes, which leave nothing
// in the text layer. Its PDF export (PDFSHX, on by default) records each
// such text as an invisible Square annotation titled "AutoCAD SHX Text",
// whose Contents is the text and whose Rect bounds it; Acrobat and
// Bluebeam search drawings by them. The page's words include that text,
// set across the Rect: the words are where the strokes are, to the
// accuracy of the Rect. A reviewer's own Square comment has another title
// and stays out of the sheet's text.
const shxTextTitle = "AutoCAD SHX Text"

// shxText reports whether ad is an SHX text comment and, if it is, adds
// its text to the page's words.
func (in *interp) shxText(ad types.Dict) (bool, error) {
	o := in.doc.obj
	if o.name(ad["Subtype"]) != "Square" {
		return false, nil
	}
	if title, err := o.text(ad["T"]); err != nil || title != shxTextTitle {
		return false, nil
	}
	rect := o.numbers(ad["Rect"])
	text, err := o.text(ad["Contents"])
	if len(rect) != 4 || err != nil {
		return true, nil
	}
	var lines []string
	for _, l := range strings.FieldsFunc(text, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	x0, x1 := min(rect[0], rect[2]), max(rect[0], rect[2])
	y0, y1 := min(rect[1], rect[3]), max(rect[1], rect[3])
	w, h := x1-x0, y1-y0
	if len(lines) == 0 || w <= 0 || h <= 0 {
		return true, nil
	}
	if in.shxRes == nil {
		in.shxRes = newResources(nil)
		in.shxRes.fonts["F"] = o.loadFont(types.Dict{
			"Type": types.Name("Font"), "Subtype": types.Name("Type1"),
			"BaseFont": types.Name("Helvetica"), "Encoding": types.Name("WinAnsiEncoding"),
		})
	}
	f := in.shxRes.fonts["F"]
	// The Rect gives no direction: a box much taller than wide holding
	// a few characters or more is text turned a quarter, read upwards.
	longest := 0
	for _, l := range lines {
		longest = max(longest, len(l))
	}
	upright := !(h > 1.5*w && longest >= 3)
	across, along := h, w // the lines' stack, and their length
	if !upright {
		across, along = w, h
	}
	// Each line gets an equal band of the box; the type fills most of
	// its band, and a horizontal scale stretches each line to the box's
	// length.
	band := across / float64(len(lines))
	size := 0.8 * band
	var content strings.Builder
	fmt.Fprintf(&content, "BT /F %g Tf ", size)
	for i, l := range lines {
		natural := textWidth(l, f, size)
		if natural <= 0 {
			continue
		}
		fmt.Fprintf(&content, "%g Tz ", 100*along/natural)
		base := float64(len(lines)-1-i)*band + 0.2*band // from the box's bottom (its left, turned)
		if upright {
			fmt.Fprintf(&content, "1 0 0 1 %g %g Tm ", x0, y0+base)
		} else {
			fmt.Fprintf(&content, "0 1 -1 0 %g %g Tm ", x1-base, y0)
		}
		fmt.Fprintf(&content, "<%s> Tj ", winAnsiHex(l))
	}
	content.WriteString("ET")
	in.gs = gstate{ctm: identity, hScale: 1}
	return true, in.runForm(0, []byte(content.String()), in.shxRes, identity)
}
