package sheets_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"planreview/scan/pdftext"
	"planreview/scan/sheets"
)

// corpusDir is the real corpus of plan PDFs.
const corpusDir = "../../../shared/corpus"

// TestPageFieldsAreReadFields: the fields the set model keeps for later
// readers (the chat index) are exactly what ReadFields reads on the page,
// on every page of every corpus file; sideways sheets, read turned, say
// they have none to give.
func TestPageFieldsAreReadFields(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	if len(files) == 0 {
		t.Skip("corpus folder absent")
	}
	ctx := context.Background()
	checked := 0
	for _, path := range files {
		doc, err := pdftext.Open(ctx, path)
		if err != nil {
			continue // files the extractor rejects are covered elsewhere
		}
		var pages []*pdftext.Page
		for n := 1; n <= doc.NumPages(); n++ {
			p, err := doc.Page(ctx, n)
			if err != nil {
				p = &pdftext.Page{Number: n}
			}
			pages = append(pages, p)
		}
		doc.Close()
		m := sheets.ReadSet(pages)
		for i, p := range pages {
			pm := m.Pages[i]
			if !pm.PageFieldsRead {
				continue
			}
			checked++
			if want := sheets.ReadFields(p); !reflect.DeepEqual(pm.PageFields, want) {
				t.Errorf("%s page %d: PageFields %d fields, ReadFields %d", filepath.Base(path), p.Number, len(pm.PageFields), len(want))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no page checked")
	}
	t.Logf("%d pages checked", checked)
}
