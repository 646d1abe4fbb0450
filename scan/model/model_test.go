package model_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"planreview/scan/model"
	"planreview/scan/pdftext"
	"planreview/scan/sheets"
)

const corpusDir = "../../../shared/corpus"

func readSource(t *testing.T, name string) model.Source {
	t.Helper()
	path := filepath.Join(corpusDir, name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("corpus file not available: %v", err)
	}
	ctx := context.Background()
	doc, err := pdftext.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	src := model.Source{ID: name}
	for n := 1; n <= doc.NumPages(); n++ {
		p, err := doc.Page(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		src.Pages = append(src.Pages, *p)
	}
	return src
}

// A set is read once into one model: every sheet linked to its file's
// reading, numbered by the set's scheme, values carrying their words.
func TestBuildReadsSetOnce(t *testing.T) {
	src := readSource(t, "us_va_stcloud_bldg28_renovation_cds.pdf")
	set, err := model.Build(context.Background(), []model.Source{src})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Files) != 1 || len(set.Sheets) != len(src.Pages) {
		t.Fatalf("files %d sheets %d, want 1 and %d", len(set.Files), len(set.Sheets), len(src.Pages))
	}
	f := set.Files[0]
	if f.DocType != sheets.DocPermitSet {
		t.Errorf("doc type %q, want %q", f.DocType, sheets.DocPermitSet)
	}
	if !f.SchemeLearned() {
		t.Errorf("scheme not learned: %d numbered of %d read", f.NumberedPages, f.ReadablePages)
	}
	indexRows := 0
	for i, s := range set.Sheets {
		if s.File != f || s.Model == nil || s.Model != &f.Pages[i] {
			t.Fatalf("sheet %d not linked to its file's reading", i+1)
		}
		if s.Ident.Number == "" || len(s.Ident.NumberWords) == 0 {
			t.Errorf("sheet %d: no number (or no evidence words)", i+1)
		}
		indexRows += len(s.Index)
		v := s.Values()
		if v.Number.Text != s.Ident.Number || v.Number.State != model.Read || v.Number.Confidence <= 0 {
			t.Errorf("sheet %d: number value %+v", i+1, v.Number)
		}
	}
	t.Logf("%d index rows", indexRows)
}

// Build stops when its context is cancelled.
func TestBuildCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := model.Build(ctx, []model.Source{{ID: "f", Pages: []pdftext.Page{{Number: 1}}}})
	if err == nil {
		t.Fatal("no error from a cancelled build")
	}
}

// A scanned set is "could not read" everywhere, never "not printed": each
// sheet's values and a region over the whole page say so.
func TestBuildUnreadableIsAValue(t *testing.T) {
	src := readSource(t, "yale_TC_scanned_floorplans_8p.pdf")
	set, err := model.Build(context.Background(), []model.Source{src})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range set.Sheets {
		v := s.Values()
		for name, val := range map[string]model.Value{"number": v.Number, "title": v.Title, "scale": v.Scale, "status": v.Status} {
			if val.State != model.Unreadable {
				t.Errorf("sheet %d %s: %v, want could not read", i+1, name, val.State)
			}
		}
		if len(s.UnreadRegions()) == 0 {
			t.Errorf("sheet %d: no region marked not readable", i+1)
		}
	}
}

// The set's stamps are each sheet's stamps grouped by text and place: a
// stamp on several sheets is one, listing them all.
func TestSetStampsGroupSheetStamps(t *testing.T) {
	src := readSource(t, "us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh.pdf")
	set, err := model.Build(context.Background(), []model.Source{src})
	if err != nil {
		t.Fatal(err)
	}
	perSheet := 0
	for _, s := range set.Sheets {
		perSheet += len(s.Stamps())
	}
	grouped := 0
	for _, st := range set.Stamps() {
		grouped += len(st.Sheets)
		t.Logf("stamp %q on %d sheet(s)", st.Text, len(st.Sheets))
	}
	if grouped != perSheet {
		t.Errorf("set stamps list %d sheet stamps, the sheets carry %d", grouped, perSheet)
	}
}
