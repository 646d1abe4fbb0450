package layout

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"planreview/scan/pdftext"
)

// corpusDir holds the real plan PDFs shared by the team (see its README);
// tests that need it skip when it is absent.
const corpusDir = "../../../shared/corpus"

func corpusFiles(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	if len(files) == 0 {
		t.Skip("corpus not available")
	}
	return files
}

// corpusPages extracts every page of a corpus file; nil when it is not a
// PDF the extractor opens.
func corpusPages(t testing.TB, path string) []*pdftext.Page {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("corpus file %s not available", filepath.Base(path))
	}
	doc, err := pdftext.Open(context.Background(), path)
	if err != nil {
		return nil
	}
	defer doc.Close()
	var pages []*pdftext.Page
	for p := range doc.Pages(context.Background()) {
		pages = append(pages, p)
	}
	return pages
}
