package cmd

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"planreview/scan/model"
	"planreview/scan/pdftext"
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

// readModel extracts every page and builds the set's document model, as
// the review reads it. A page that failed on its own reads as a page
// without text. Pages are extracted on every core; their layouts are left
// to the model, which analyses only the pages it needs one for (laying
// out every page here cost Purdue's 14 sheets some 90 ms of CPU more).
func readModel(ctx context.Context, doc *pdftext.Document) (*model.Set, error) {
	src := model.Source{ID: "file", Pages: make([]pdftext.Page, 0, doc.NumPages())}
	for p := range doc.PagesConcurrently(ctx, runtime.GOMAXPROCS(0), nil) {
		if err := ctx.Err(); err != nil && p.Err != nil {
			return nil, err
		}
		src.Pages = append(src.Pages, *p)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return model.Build(ctx, []model.Source{src})
}

func writeInspectSheets(ctx context.Context, w io.Writer, file string, doc *pdftext.Document, asJSON bool) error {
	set, err := readModel(ctx, doc)
	if err != nil {
		return withExitCode(2, err)
	}
	f := set.Files[0]
	if asJSON {
		out := sheetsJSON{DocType: f.DocType, JurisdictionHints: f.JurisdictionHints, CodesStated: f.CodesStated,
			Pages: make([]sheetsPageJSON, len(f.Sheets))}
		if out.JurisdictionHints == nil {
			out.JurisdictionHints = []string{}
		}
		if out.CodesStated == nil {
			out.CodesStated = []string{}
		}
		for i, s := range f.Sheets {
			v := s.Values()
			out.Pages[i] = sheetsPageJSON{Page: s.Model.Page, TextLayer: s.Model.TextLayer, SheetNumber: nullable(v.Number.Text),
				SheetTitle: nullable(v.Title.Text), Scale: nullable(v.Scale.Text), IssueStatus: nullable(v.Status.Text)}
		}
		b, err := json.Marshal(out)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	fmt.Fprintf(w, "%s: %d page(s), %s\n", file, len(f.Sheets), f.DocType)
	if f.Scheme != "" {
		fmt.Fprintf(w, "  numbering scheme: %s\n", f.Scheme)
	}
	for _, h := range f.JurisdictionHints {
		fmt.Fprintf(w, "  hint: %s\n", h)
	}
	for _, c := range f.CodesStated {
		fmt.Fprintf(w, "  code stated: %s\n", c)
	}
	// value prints a value with how it was read: its source and confidence,
	// or why there is none ("not printed", "could not read").
	value := func(v model.Value) string {
		if v.State != model.Read {
			return "— (" + v.State.String() + ")"
		}
		return fmt.Sprintf("%s (%s, %.2f)", v.Text, v.Source, v.Confidence)
	}
	for _, s := range f.Sheets {
		pm, v := s.Model, s.Values()
		fmt.Fprintf(w, "\npage %d (text %s): sheet %s  %s\n", pm.Page, pm.TextLayer, value(v.Number), value(v.Title))
		fmt.Fprintf(w, "  scale %s", value(v.Scale))
		if len(pm.ViewScales) > 0 {
			fmt.Fprintf(w, " (views: %s)", strings.Join(pm.ViewScales, "; "))
		}
		fmt.Fprintf(w, "; status %s\n", value(v.Status))
		for _, fl := range pm.Fields {
			fmt.Fprintf(w, "  %-12s %q → %q\n", fl.Kind, fl.Caption, fl.Value)
		}
		// Outlined text comes in hundreds of places (every pipe label):
		// the count, and the largest few where to look.
		var outlined []model.Region
		for _, g := range s.UnreadRegions() {
			if g.Role == model.RoleOutlinedText {
				outlined = append(outlined, g)
				continue
			}
			fmt.Fprintf(w, "  %s at %.0f,%.0f-%.0f,%.0f\n", g.Role, g.Box.X0, g.Box.Y0, g.Box.X1, g.Box.Y1)
		}
		if len(outlined) > 0 {
			slices.SortStableFunc(outlined, func(a, b model.Region) int {
				return cmp.Compare(b.Box.Width()*b.Box.Height(), a.Box.Width()*a.Box.Height())
			})
			fmt.Fprintf(w, "  %s: %d region(s), the largest at", model.RoleOutlinedText, len(outlined))
			for _, g := range outlined[:min(len(outlined), 3)] {
				fmt.Fprintf(w, " %.0f,%.0f-%.0f,%.0f", g.Box.X0, g.Box.Y0, g.Box.X1, g.Box.Y1)
			}
			fmt.Fprintln(w)
		}
		for _, e := range s.Index {
			fmt.Fprintf(w, "  index row   %s  %s\n", e.Number, e.Title)
		}
	}
	return nil
}
