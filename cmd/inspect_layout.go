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
	{"role", "#8e3fc7", "region by role (key, abbreviations, revisions, notes)"},
}

// writeLayoutSVG draws one page as the engine reads it: words, blocks,
// tables and cells, label/value pairs, regions by role and the title-block
// fields of the set model, as boxes over the page outline, with each field's text in a
// tooltip (<title>). No renderer is needed to read it.
func writeLayoutSVG(ctx context.Context, out string, doc *pdftext.Document, pageNum int) error {
	m, pages, err := readSetModel(ctx, doc)
	if err != nil {
		return withExitCode(2, err)
	}
	p := pages[pageNum-1]
	lp := layout.Analyze(p)
	pm := m.Pages[pageNum-1]
	var buf bytes.Buffer
	drawLayoutSVG(&buf, lp, pm)
	return durable.WriteFile(out, buf.Bytes(), 0o644)
}

func drawLayoutSVG(w io.Writer, lp *layout.Page, pm sheets.PageModel) {
	pw, ph := lp.Width, lp.Height
	if pw <= 0 || ph <= 0 {
		pw, ph = 612, 792
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.2f %.2f" width="%.0f" height="%.0f">`+"\n", pw, ph, pw, ph)
	fmt.Fprint(w, "<style>rect,line{fill:none;vector-effect:non-scaling-stroke}")
	for _, s := range svgStyle {
		fmt.Fprintf(w, ".%s{stroke:%s}", s.class, s.stroke)
	}
	fmt.Fprint(w, ".word{stroke-width:0.5}.tb{stroke-width:2}.pair{stroke-dasharray:4 2}.role{stroke-width:1.5;stroke-dasharray:8 3}text{font-family:sans-serif}</style>\n")
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
	for _, g := range layout.FindRoles(lp).Regions {
		rect("role", g.Box, g.Role.String())
	}
	tb := func(b sheets.Box) layout.Box { return layout.Box{X0: b.X0, Y0: b.Y0, X1: b.X1, Y1: b.Y1} }
	if pm.TitleBlock != (sheets.Box{}) {
		rect("tb", tb(pm.TitleBlock), "title block")
	}
	for _, f := range pm.Fields {
		rect("tb", tb(f.CaptionBox), f.Kind+" caption: "+f.Caption)
		if f.ValueBox != (sheets.Box{}) {
			rect("tb", tb(f.ValueBox), f.Kind+": "+f.Value)
		}
	}
	// Legend and what the set model read, top-left.
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
	legend("#000", fmt.Sprintf("page %d: sheet %q, title %q, scale %q, status %q", pm.Page, pm.SheetNumber, pm.SheetTitle, pm.Scale, pm.IssueStatus))
	fmt.Fprint(w, "</svg>\n")
}

// svgTarget checks the --svg path before any work: its folder must exist.
func svgTarget(path string) error {
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return fmt.Errorf("--svg %s: folder does not exist", path)
	}
	return nil
}
