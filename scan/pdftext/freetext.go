package pdftext

import (
	"fmt"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// FreeText markups without an appearance stream (written by some review
// tools, which leave the drawing to the viewer): viewers, poppler included,
// draw their /Contents inside /Rect, so their words are on the sheet a
// reviewer sees. This lays them out the way poppler does: Helvetica at the
// /DA font size (10 when absent), a margin of twice the border width,
// greedy word wrap, one font size per line.

func (in *interp) freeTextAppearance(ad types.Dict) error {
	o := in.doc.obj
	rect := o.numbers(ad["Rect"])
	if len(rect) != 4 {
		return nil
	}
	text, err := o.text(ad["Contents"])
	if err != nil || strings.TrimSpace(text) == "" {
		return nil
	}
	size := 10.0
	if da, err := o.text(ad["DA"]); err == nil {
		fields := strings.Fields(da)
		for i, f := range fields {
			if f == "Tf" && i >= 2 {
				var s float64
				if _, err := fmt.Sscan(fields[i-1], &s); err == nil && s > 0 {
					size = s
				}
			}
		}
	}
	border := 1.0
	if bs := o.dict(ad["BS"]); bs != nil {
		border = o.numberOr(bs["W"], 1)
	}
	margin := 2 * border
	x0, x1, y1 := min(rect[0], rect[2]), max(rect[0], rect[2]), max(rect[1], rect[3])
	f := in.doc.obj.loadFont(types.Dict{
		"Type": types.Name("Font"), "Subtype": types.Name("Type1"),
		"BaseFont": types.Name("Helvetica"), "Encoding": types.Name("WinAnsiEncoding"),
	})
	var content strings.Builder
	fmt.Fprintf(&content, "BT /F %g Tf ", size)
	y := y1 - margin - size
	for _, line := range wrapLines(text, f, size, x1-x0-2*margin) {
		fmt.Fprintf(&content, "1 0 0 1 %g %g Tm <%s> Tj ", x0+margin, y, winAnsiHex(line))
		y -= size
	}
	content.WriteString("ET")
	res := newResources(nil)
	res.fonts["F"] = f
	return in.runForm(0, []byte(content.String()), res, identity)
}

// wrapLines breaks text into lines no wider than width, at spaces where it
// can and inside a word that is wider than a line by itself.
func wrapLines(text string, f *font, size, width float64) []string {
	var lines []string
	for _, para := range strings.FieldsFunc(text, func(r rune) bool { return r == '\r' || r == '\n' }) {
		var line strings.Builder
		lineW := 0.0
		for _, word := range strings.Fields(para) {
			w := textWidth(word, f, size)
			space := textWidth(" ", f, size)
			if line.Len() > 0 && lineW+space+w > width {
				lines = append(lines, line.String())
				line.Reset()
				lineW = 0
			}
			if line.Len() > 0 {
				line.WriteByte(' ')
				lineW += space
			}
			line.WriteString(word)
			lineW += w
		}
		if line.Len() > 0 {
			lines = append(lines, line.String())
		}
	}
	return lines
}

func textWidth(s string, f *font, size float64) float64 {
	w := 0.0
	for _, r := range s {
		if code, ok := winAnsiCodeOf[r]; ok {
			w += f.widths[code] * size
		}
	}
	return w
}

// winAnsiHex encodes s for a WinAnsi font as a hex string body; characters
// outside WinAnsi become '?'.
func winAnsiHex(s string) string {
	var b strings.Builder
	for _, r := range s {
		code, ok := winAnsiCodeOf[r]
		if !ok {
			code = '?'
		}
		fmt.Fprintf(&b, "%02X", code)
	}
	return b.String()
}
