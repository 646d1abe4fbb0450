package cmd

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
)

// inspectPage is one page of `inspect --json`: the extractor's page plus
// its error, which the library keeps out of JSON.
type inspectPage struct {
	*pdftext.Page
	Error string `json:"error,omitempty"`
}

func newInspectCmd() *cobra.Command {
	var (
		pageNum  int
		asJSON   bool
		asSheets bool
		asLayout bool
		asFacts  bool
		svgOut   string
	)
	c := &cobra.Command{
		Use:   "inspect FILE.pdf",
		Short: "Show what the review engine sees of a PDF: pages, sizes, words and boxes",
		Long: `Inspect extracts every page of a PDF the way a scan does and prints a
per-page summary, or with --json one object:
  {"file", "pageCount", "pages": [{page, width, height, rotate, readable, reason,
   words: [{text, bbox: {left, top, width, height}, rect: [llx, lly, urx, ury], fontSize}]}]}
bbox is in fractions of the displayed page (top-left origin), rect in PDF user
space. A file that cannot be read exits with status 2.`,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			oneShotHeap()
			doc, err := pdftext.Open(ctx, args[0])
			if err != nil {
				if errors.Is(err, pdftext.ErrNotPDF) || errors.Is(err, pdftext.ErrInvalid) || errors.Is(err, pdftext.ErrEncrypted) {
					err = fmt.Errorf("%s: %w", args[0], err) // os errors already name the file
				}
				return withExitCode(2, err)
			}
			defer doc.Close()
			first, last := 1, doc.NumPages()
			if cmd.Flags().Changed("page") {
				if pageNum < 1 || pageNum > doc.NumPages() {
					return withExitCode(2, fmt.Errorf("page %d out of range: the file has %d pages", pageNum, doc.NumPages()))
				}
				first, last = pageNum, pageNum
			}
			if asLayout {
				if svgOut == "" {
					return withExitCode(2, errors.New("--layout needs --svg OUT.svg"))
				}
				if err := svgTarget(svgOut); err != nil {
					return withExitCode(2, err)
				}
				n := 1
				if cmd.Flags().Changed("page") {
					n = pageNum
				}
				if err := writeLayoutSVG(ctx, svgOut, doc, n); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "page %d drawn to %s\n", n, svgOut)
				return nil
			}
			w := bufio.NewWriter(cmd.OutOrStdout())
			defer w.Flush()
			if asSheets {
				return writeInspectSheets(ctx, w, args[0], doc, asJSON)
			}
			if asFacts {
				return writeInspectFacts(ctx, w, args[0], doc, asJSON)
			}
			if asJSON {
				return writeInspectJSON(cmd, w, args[0], doc, first, last)
			}
			return writeInspectText(cmd, w, args[0], doc, first, last)
		},
	}
	c.Flags().IntVar(&pageNum, "page", 0, "inspect only this page (1-based)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON with every word and its boxes")
	c.Flags().BoolVar(&asLayout, "layout", false, "draw one page's layout (words, blocks, tables, label/value pairs, title-block fields) as boxes; needs --svg")
	c.Flags().StringVar(&svgOut, "svg", "", "with --layout: the SVG file to write (page 1 unless --page)")
	c.Flags().BoolVar(&asSheets, "sheets", false, "show how the engine reads the set: document type, jurisdiction hints, each sheet's number, title, scale and status")
	c.Flags().BoolVar(&asFacts, "facts", false, "show the code-analysis and project-data facts the checks read (occupancy, construction type, sprinklers, codes, stories, height, areas) with page, sheet and text")
	return c
}

// writeInspectJSON streams the JSON object page by page, so a 300-sheet set
// is never held in memory at once.
func writeInspectJSON(cmd *cobra.Command, w io.Writer, file string, doc *pdftext.Document, first, last int) error {
	name, _ := json.Marshal(file)
	fmt.Fprintf(w, `{"file":%s,"pageCount":%d,"pages":[`, name, doc.NumPages())
	for n := first; n <= last; n++ {
		p, err := doc.Page(cmd.Context(), n)
		if err != nil {
			return withExitCode(2, err)
		}
		out := inspectPage{Page: p}
		if p.Err != nil {
			out.Error = p.Err.Error()
		}
		b, err := json.Marshal(out)
		if err != nil {
			return err
		}
		if n > first {
			io.WriteString(w, ",")
		}
		w.Write(b)
	}
	_, err := io.WriteString(w, "]}\n")
	return err
}

// maxPreviewLines is how many reading-order lines the text summary shows
// per page.
const maxPreviewLines = 8

func writeInspectText(cmd *cobra.Command, w io.Writer, file string, doc *pdftext.Document, first, last int) error {
	fmt.Fprintf(w, "%s: %d page(s)\n", file, doc.NumPages())
	for n := first; n <= last; n++ {
		p, err := doc.Page(cmd.Context(), n)
		if err != nil {
			return withExitCode(2, err)
		}
		fmt.Fprintf(w, "\npage %d: %.0f x %.0f pt (%.1f x %.1f in), rotate %d\n",
			p.Number, p.Width, p.Height, p.Width/72, p.Height/72, p.Rotate)
		switch {
		case p.Err != nil:
			fmt.Fprintf(w, "  error: %v\n", p.Err)
			continue
		case !p.Readable:
			fmt.Fprintf(w, "  not machine-readable: %s\n", p.Reason)
			continue
		}
		minSize, maxSize := p.Words[0].FontSize, p.Words[0].FontSize
		for _, word := range p.Words {
			minSize, maxSize = min(minSize, word.FontSize), max(maxSize, word.FontSize)
		}
		// Lines and blocks are the layout's, the ones every reader reads.
		lp := layout.AnalyzeLines(p)
		fmt.Fprintf(w, "  %d words, %d lines, %d blocks, font size %.1f–%.1f pt\n",
			len(p.Words), len(lp.Lines), len(lp.Blocks), minSize, maxSize)
		for i, li := range lp.ReadingOrder() {
			if i == maxPreviewLines {
				fmt.Fprintf(w, "  … %d more lines\n", len(lp.Lines)-maxPreviewLines)
				break
			}
			line := lp.Lines[li]
			words := make([]string, len(line.Words))
			for j, wi := range line.Words {
				words[j] = p.Words[wi].Text
			}
			if len(words) == 0 {
				continue
			}
			b := p.Words[line.Words[0]].BBox
			fmt.Fprintf(w, "  [%.3f %.3f] %s\n", b.Left, b.Top, strings.Join(words, " "))
		}
	}
	return nil
}
