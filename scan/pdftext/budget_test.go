package pdftext

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// budgetMargin is how far below every default budget the largest corpus
// figure must stay: the defaults are for hostile files, never for real
// sheets (docs/budgets.md lists the figures).
const budgetMargin = 4

// TestCorpusWithinBudgets measures every corpus PDF against the default
// budgets: no real sheet may come within budgetMargin of one.
func TestCorpusWithinBudgets(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	if len(files) == 0 {
		t.Skip("corpus not available")
	}
	b := DefaultBudgets()
	var peak Usage
	for _, path := range files {
		name := filepath.Base(path)
		doc, err := Open(context.Background(), path)
		if errors.Is(err, ErrNotPDF) {
			continue // an HTML page saved as .pdf: nothing to measure
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for p := range doc.Pages(context.Background()) {
			if errors.Is(p.Err, ErrTooComplex) {
				t.Errorf("%s page %d: %v", name, p.Number, p.Err)
			}
		}
		u := doc.Usage()
		doc.Close()
		t.Logf("%-48s %+v", name, u)
		peak = Usage{
			ContentBytes: max(peak.ContentBytes, u.ContentBytes), Ops: max(peak.Ops, u.Ops),
			FormDepth: max(peak.FormDepth, u.FormDepth), Forms: max(peak.Forms, u.Forms),
			InlineImages: max(peak.InlineImages, u.InlineImages), Resolves: max(peak.Resolves, u.Resolves),
			PageTreeNodes: max(peak.PageTreeNodes, u.PageTreeNodes), Objects: max(peak.Objects, u.Objects),
			ObjectSpan: max(peak.ObjectSpan, u.ObjectSpan),
		}
	}
	t.Logf("peak %+v", peak)
	for _, c := range []struct {
		name          string
		used, allowed int64
	}{
		{"content bytes per page", peak.ContentBytes, b.ContentBytesPerPage},
		{"operators per page", int64(peak.Ops), int64(b.OpsPerPage)},
		{"form depth", int64(peak.FormDepth), int64(b.FormDepth)},
		{"forms per page", int64(peak.Forms), int64(b.FormsPerPage)},
		{"inline images per page", int64(peak.InlineImages), int64(b.InlineImagesPerPage)},
		{"objects resolved per page", int64(peak.Resolves), int64(b.ResolvesPerPage)},
		{"page-tree nodes", int64(peak.PageTreeNodes), int64(b.PageTreeNodes)},
		{"objects", int64(peak.Objects), int64(b.Objects)},
		{"object span", peak.ObjectSpan, b.ObjectSpan},
	} {
		if c.used*budgetMargin > c.allowed {
			t.Errorf("%s: the corpus reaches %d, within %dx of the budget %d", c.name, c.used, budgetMargin, c.allowed)
		}
	}
}
