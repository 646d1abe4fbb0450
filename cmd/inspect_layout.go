package cmd

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"planreview/scan/layout"
	"planreview/scan/model"
	"planreview/scan/pdftext"
	"planreview/scan/sheets"
	"planreview/store/durable"
)

// svgStyle colours each kind of box the layout drawing shows; the legend in
// the drawing's top-left corner names them.
var svgStyle = []struct{ class, stroke, label string }{
	{"seg", "#c8c8c8", "drawn rule"},
	{"word", "#9a9a9a", "word"},
	{"block", "#1f6fd1", "block"},
	{"table", "#1a9b4b", "table / cell"},
	{"pair", "#e07b00", "label → value"},
	{"tb", "#d11f3a", "title-block field"},
	{"title-block", "#d11f3a", "region: title block"},
	{"key", "#8e3fc7", "region: legend / symbol key"},
	{"abbreviations", "#c71f9b", "region: abbreviation list"},
	{"revisions", "#7a4a00", "region: revision rows"},
	{"notes", "#0a8a8a", "region: notes block"},
	{"stamp", "#e0b000", "stamp"},
}

// writeLayoutSVG draws one page as the document model reads it: words,
// blocks, tables and cells, label/value pairs, its regions by role (title
// block, legends and symbol keys, abbreviation lists, revision rows, notes
// blocks), stamps and the title-block fields, as boxes over the page
// outline, with each one's text in a tooltip (<title>). No renderer is
// needed to read it.
func writeLayoutSVG(ctx context.Context, out string, doc *pdftext.Document, pageNum int) error {
	set, err := readModel(ctx, doc)
	if err != nil {
		return withExitCode(2, err)
	}
	var buf bytes.Buffer
	drawLayoutSVG(&buf, set.Sheets[pageNum-1])
	return durable.WriteFile(out, buf.Bytes(), 0o644)
}

// roleClass is the drawing's class of a region role.
func roleClass(role string) string {
	switch role {
	case "title block":
		return "title-block"
	case "key", "abbreviations", "revisions", "notes":
		return role
	}
	return "block"
}

func drawLayoutSVG(w io.Writer, s *model.Sheet) {
	lp, pm, v := s.Layout(), s.Model, s.Values()
	pw, ph := lp.Width, lp.Height
	if pw <= 0 || ph <= 0 {
		pw, ph = 612, 792
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.2f %.2f" width="%.0f" height="%.0f">`+"\n", pw, ph, pw, ph)
	fmt.Fprint(w, "<style>rect,line{fill:none;vector-effect:non-scaling-stroke}")
	for _, s := range svgStyle {
		fmt.Fprintf(w, ".%s{stroke:%s}", s.class, s.stroke)
	}
	fmt.Fprint(w, ".word{stroke-width:0.5}.tb{stroke-width:2}.pair{stroke-dasharray:4 2}.title-block,.key,.abbreviations,.revisions,.notes,.stamp{stroke-width:2.5;stroke-dasharray:8 3}text{font-family:sans-serif}</style>\n")
	fmt.Fprintf(w, `<rect x="0" y="0" width="%.2f" height="%.2f" style="stroke:#000"/>`+"\n", pw, ph)
	for _, s := range lp.Segments {
		fmt.Fprintf(w, `<line class="seg" x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"/>`+"\n", s.X0, s.Y0, s.X1, s.Y1)
	}
	rect := func(class string, b layout.Box, tip string) {
		fmt.Fprintf(w, `<rect class="%s" x="%.2f" y="%.2f" width="%.2f" height="%.2f">`, class, b.X0, b.Y0, b.X1-b.X0, b.Y1-b.Y0)
		if tip != "" {
			fmt.Fprint(w, "<title>")
			xml.EscapeText(w, []byte(tip))
			fmt.Fprint(w, "</title>")
		}
		fmt.Fprint(w, "</rect>\n")
	}
	for i, word := range lp.Words {
		rect("word", lp.WordBox(i), word.Text)
	}
	for _, b := range lp.Blocks {
		rect("block", b.Box, "")
	}
	for _, t := range lp.Tables {
		rect("table", t.Box, fmt.Sprintf("table, %d rows", len(t.Rows)))
		for _, r := range t.Rows {
			for _, c := range r.Cells {
				rect("table", c.Box, c.Text)
			}
		}
	}
	for _, pr := range lp.Pairs {
		rect("pair", pr.Box, pr.Label+" → "+pr.Value)
	}
	for _, g := range s.Regions() {
		if c := roleClass(g.Role); c != "block" {
			rect(c, g.Box, "region: "+g.Role)
		}
	}
	for _, st := range s.Stamps() {
		rect("stamp", st.Box, "stamp: "+st.Text)
	}
	if pm != nil {
		for _, f := range pm.Fields {
			rect("tb", f.CaptionBox, f.Kind+" caption: "+f.Caption)
			if f.ValueBox != (sheets.Box{}) {
				rect("tb", f.ValueBox, f.Kind+": "+f.Value)
			}
		}
	}
	// Legend and what the model read, top-left.
	size := max(pw, ph) / 120
	y := size * 1.5
	legend := func(color, text string) {
		fmt.Fprintf(w, `<text x="%.2f" y="%.2f" font-size="%.2f" fill="%s">`, size, y, size, color)
		xml.EscapeText(w, []byte(text))
		fmt.Fprint(w, "</text>\n")
		y += size * 1.3
	}
	for _, s := range svgStyle {
		legend(s.stroke, "▭ "+s.label)
	}
	say := func(v model.Value) string {
		if v.State != model.Read {
			return v.State.String()
		}
		return fmt.Sprintf("%q", v.Text)
	}
	legend("#000", fmt.Sprintf("page %d: sheet %s, title %s, scale %s, status %s", s.Page.Number, say(v.Number), say(v.Title), say(v.Scale), say(v.Status)))
	fmt.Fprint(w, "</svg>\n")
}

// svgTarget checks the --svg path before any work: its folder must exist.
func svgTarget(path string) error {
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return fmt.Errorf("--svg %s: folder does not exist", path)
	}
	return nil
}
