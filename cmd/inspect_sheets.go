package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"planreview/scan/pdftext"
	"planreview/scan/sheets"
)

// sheetsJSON is `inspect --sheets --json`, exactly the contract's object.
type sheetsJSON struct {
	DocType           string           `json:"docType"`
	JurisdictionHints []string         `json:"jurisdictionHints"`
	CodesStated       []string         `json:"codesStated"`
	Pages             []sheetsPageJSON `json:"pages"`
}

type sheetsPageJSON struct {
	Page        int     `json:"page"`
	TextLayer   string  `json:"textLayer"`
	SheetNumber *string `json:"sheetNumber"`
	SheetTitle  *string `json:"sheetTitle"`
	Scale       *string `json:"scale"`
	IssueStatus *string `json:"issueStatus"`
}

// nullable is nil for a value the sheet does not print.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// readSetModel extracts every page and reads the set model. A page that
// failed on its own reads as a page without text.
func readSetModel(ctx context.Context, doc *pdftext.Document) (sheets.SetModel, []*pdftext.Page, error) {
	pages := make([]*pdftext.Page, doc.NumPages())
	for n := 1; n <= doc.NumPages(); n++ {
		p, err := doc.Page(ctx, n)
		if err != nil {
			return sheets.SetModel{}, nil, err
		}
		pages[n-1] = p
	}
	return sheets.ReadSet(pages), pages, nil
}

func writeInspectSheets(ctx context.Context, w io.Writer, file string, doc *pdftext.Document, asJSON bool) error {
	m, _, err := readSetModel(ctx, doc)
	if err != nil {
		return withExitCode(2, err)
	}
	if asJSON {
		out := sheetsJSON{DocType: m.DocType, JurisdictionHints: m.JurisdictionHints, CodesStated: m.CodesStated,
			Pages: make([]sheetsPageJSON, len(m.Pages))}
		if out.JurisdictionHints == nil {
			out.JurisdictionHints = []string{}
		}
		if out.CodesStated == nil {
			out.CodesStated = []string{}
		}
		for i, p := range m.Pages {
			out.Pages[i] = sheetsPageJSON{Page: p.Page, TextLayer: p.TextLayer, SheetNumber: nullable(p.SheetNumber),
				SheetTitle: nullable(p.SheetTitle), Scale: nullable(p.Scale), IssueStatus: nullable(p.IssueStatus)}
		}
		b, err := json.Marshal(out)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	fmt.Fprintf(w, "%s: %d page(s), %s\n", file, len(m.Pages), m.DocType)
	if m.Scheme != "" {
		fmt.Fprintf(w, "  numbering scheme: %s\n", m.Scheme)
	}
	for _, h := range m.JurisdictionHints {
		fmt.Fprintf(w, "  hint: %s\n", h)
	}
	for _, c := range m.CodesStated {
		fmt.Fprintf(w, "  code stated: %s\n", c)
	}
	dash := func(s string) string {
		if s == "" {
			return "—"
		}
		return s
	}
	for _, p := range m.Pages {
		fmt.Fprintf(w, "\npage %d (text %s): sheet %s  %s\n", p.Page, p.TextLayer, dash(p.SheetNumber), dash(p.SheetTitle))
		fmt.Fprintf(w, "  scale %s", dash(p.Scale))
		if len(p.ViewScales) > 0 {
			fmt.Fprintf(w, " (views: %s)", strings.Join(p.ViewScales, "; "))
		}
		fmt.Fprintf(w, "; status %s\n", dash(p.IssueStatus))
		for _, f := range p.Fields {
			fmt.Fprintf(w, "  %-12s %q → %q\n", f.Kind, f.Caption, f.Value)
		}
	}
	return nil
}
