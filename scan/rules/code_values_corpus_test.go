package rules

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"planreview/scan/pdftext"
)

// corpusReadings runs every value reader over every page of a corpus file
// (limits not applied): what the readers read on a real sheet.
func corpusReadings(t *testing.T, name string) map[string][]valueReading {
	t.Helper()
	path := filepath.Join("../../../shared/corpus", name)
	if _, err := os.Stat(path); err != nil {
		t.Skip("corpus not present")
	}
	doc, err := pdftext.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	var pages []pdftext.Page
	for p := range doc.Pages(context.Background()) {
		pages = append(pages, *p)
	}
	c, err := Classify(context.Background(), PlanSet{Files: []File{{ID: "f", Pages: pages}}})
	if err != nil {
		t.Fatal(err)
	}
	e := loadAll(t)
	out := map[string][]valueReading{}
	ids := make([]string, 0, len(valueReaders))
	for id := range valueReaders {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		var r *Rule
		for _, rr := range e.rules {
			if rr.ID == id {
				r = rr
			}
		}
		if r == nil {
			continue
		}
		for _, pv := range c.pages {
			if !pv.readable || !pv.mayHoldValues() {
				continue
			}
			out[id] = append(out[id], valueReaders[id](pv, pv.layoutPage(), r)...)
		}
	}
	return out
}

func TestCorpusValueReadingsDump(t *testing.T) {
	name := os.Getenv("CORPUS_FILE")
	if name == "" {
		t.Skip("set CORPUS_FILE")
	}
	for id, rs := range corpusReadings(t, name) {
		for _, r := range rs {
			t.Logf("%s p%d %q -> %s (%.2f in)", id, r.pv.page.Number, r.text, r.raw, r.value)
		}
	}
}
