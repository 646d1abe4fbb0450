package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"planreview/scan/model"
	"planreview/scan/pdftext"
	"planreview/scan/rules"
)

// factsJSON is `inspect --facts --json`: every code-analysis and
// project-data fact the review engine reads from the file.
type factsJSON struct {
	File  string       `json:"file"`
	Facts []model.Fact `json:"facts"`
}

// writeInspectFacts classifies the file as a one-file set, exactly as a
// review does, and prints the facts the checks read, with page, sheet and
// the words each came from.
func writeInspectFacts(ctx context.Context, w io.Writer, file string, doc *pdftext.Document, asJSON bool) error {
	pages := make([]pdftext.Page, doc.NumPages())
	for n := 1; n <= doc.NumPages(); n++ {
		p, err := doc.Page(ctx, n)
		if err != nil {
			return withExitCode(2, err)
		}
		pages[n-1] = *p
	}
	c, err := rules.Classify(ctx, rules.PlanSet{Files: []rules.File{{ID: file, Pages: pages}}})
	if err != nil {
		return err
	}
	facts := c.Model().Facts()
	if asJSON {
		if facts == nil {
			facts = []model.Fact{}
		}
		b, err := json.Marshal(factsJSON{File: file, Facts: facts})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	fmt.Fprintf(w, "%s: %d fact(s)\n", file, len(facts))
	for _, f := range facts {
		kind := f.Kind
		if f.AreaKind != "" {
			kind += "/" + f.AreaKind
		}
		var extra []string
		if f.Level != "" {
			extra = append(extra, "level "+f.Level)
		}
		if f.Qualifier != "" {
			extra = append(extra, f.Qualifier)
		}
		value := f.Value
		if f.Unit != "" {
			unit := f.Unit
			if unit == "ft-in" {
				unit = "ft"
			}
			value = fmt.Sprintf("%s (%g %s", f.Value, f.Number, unit)
			if f.Canonical != 0 && f.Canonical != f.Number {
				unit := "sq ft"
				if f.Kind == model.FactBuildingHeight {
					unit = "in"
				}
				value += fmt.Sprintf(" = %g %s", f.Canonical, unit)
			}
			value += ")"
		}
		sheet := f.Sheet
		if sheet == "" {
			sheet = "—"
		}
		line := fmt.Sprintf("  page %d sheet %s  %-22s %s", f.Page, sheet, kind, value)
		if len(extra) > 0 {
			line += " [" + strings.Join(extra, ", ") + "]"
		}
		fmt.Fprintf(w, "%s\n    %q\n", line, f.Text)
	}
	return nil
}
