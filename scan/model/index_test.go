package model_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"planreview/scan/model"
	"planreview/scan/pdftext"
	"planreview/scan/plangen"
)

// indexWord places a word by its top-left corner and size in points on a
// page of the given size, the way an extractor reports it.
func indexWord(text string, left, top, width, height, pw, ph float64) pdftext.Word {
	return pdftext.Word{Text: text, Norm: text, FontSize: height,
		BBox:     pdftext.BBox{Left: left / pw, Top: top / ph, Width: width / pw, Height: height / ph},
		Rect:     pdftext.Rect{left, ph - top - height, left + width, ph - top},
		Baseline: [4]float64{left, top + 0.8*height, left + width, top + 0.8*height}}
}

// indexPhrase places the words of text left to right from (left, top).
func indexPhrase(text string, left, top, size, pw, ph float64) []pdftext.Word {
	var out []pdftext.Word
	for _, w := range strings.Fields(text) {
		width := float64(len(w)) * size * 0.55
		out = append(out, indexWord(w, left, top, width, size, pw, ph))
		left += width + size*0.28
	}
	return out
}

// readAlone is the index the model reads on a page filed alone: a set of
// one sheet shows no numbering scheme of its own.
func readAlone(t *testing.T, p pdftext.Page) []model.IndexEntry {
	t.Helper()
	set, err := model.Build(context.Background(), []model.Source{{ID: "alone.pdf", Pages: []pdftext.Page{p}}})
	if err != nil {
		t.Fatal(err)
	}
	return set.Sheets[0].Index
}

// TestIndexOfASheetAlone: a set too small to show its scheme reads full
// NCS numbers standing in a column under an index heading, each with its
// title; finish tags, repeated callouts, untitled numbers and a column
// under no heading are no index.
func TestIndexOfASheetAlone(t *testing.T) {
	const pw, ph = 2592.0, 1728.0
	build := func(heading string, rows ...string) pdftext.Page {
		p := pdftext.Page{Number: 1, Width: pw, Height: ph, Readable: true}
		if heading != "" {
			p.Words = append(p.Words, indexPhrase(heading, 80, 100, 16, pw, ph)...)
		}
		for i, r := range rows {
			f := strings.Fields(r)
			p.Words = append(p.Words, indexPhrase(f[0], 80, 130+float64(i)*24, 14, pw, ph)...)
			p.Words = append(p.Words, indexPhrase(strings.Join(f[1:], " "), 190, 130+float64(i)*24, 14, pw, ph)...)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		page pdftext.Page
		want int
	}{
		{"index", build("SHEET INDEX", "G-001 COVER", "A-101 PLAN", "A-201 SECTIONS"), 3},
		{"no heading", build("", "G-001 COVER", "A-101 PLAN", "A-201 SECTIONS"), 0},
		{"finish tags", build("FINISH SCHEDULE", "P-1 PAINT", "P-2 PAINT", "RB-1 BASE"), 0},
		{"repeated tags under a heading", build("DRAWING LIST", "A-101 PLAN", "A-101 PLAN", "A-101 PLAN"), 0},
		// One number listed twice in a real list: the list stands, both
		// rows kept (the review reports the repeat).
		{"index with a number listed twice", build("SHEET INDEX", "G-001 COVER", "A-101 PLAN", "A-101 PLAN", "A-201 SECTIONS", "A-301 DETAILS"), 5},
		{"untitled numbers", build("SHEET INDEX", "A-101", "A-102", "A-103"), 0},
	} {
		if got := readAlone(t, tc.page); len(got) != tc.want {
			t.Errorf("%s: %d entries, want %d: %+v", tc.name, len(got), tc.want, got)
		}
	}
}

func TestIsIndexHeading(t *testing.T) {
	for text, want := range map[string]bool{
		"SHEET INDEX": true, "Drawing List": true, "INDEX TO SHEETS": true, "Contents": true, "INDEX": true,
		"LIST OF DRAWINGS": true, "SCHEDULE OF DRAWINGS": true, "LIſT OF DRAWINGS": true,
		"SHEET NUMBER": false, "DRAWING TITLE": false, "DOOR SCHEDULE": false, "INDEX OF ABBREVIATIONS": false,
	} {
		if got := model.IsIndexHeading(text); got != want {
			t.Errorf("IsIndexHeading(%q) = %v, want %v", text, got, want)
		}
	}
}

// A row typed in another font (its number's box of another height) that
// continues the index at its pitch, in its number and title columns, is a
// row; a number of that height elsewhere (two pitches down, or with its
// text out of the title column) is not.
func TestIndexRowAtPitchInAnotherType(t *testing.T) {
	const pw, ph = 792.0, 612.0
	build := func(extra ...[3]string) pdftext.Page {
		p := pdftext.Page{Number: 1, Width: pw, Height: ph, Readable: true}
		p.Words = append(p.Words, indexPhrase("Contents", 35, 410, 12, pw, ph)...)
		for i, r := range []string{"G-001 Title", "G-002 Notes", "W-001 Wiring Diagram", "S-001 Roof Section 1"} {
			f := strings.Fields(r)
			top := 437.5 + float64(i)*15.7
			p.Words = append(p.Words, indexPhrase(f[0], 35, top, 15.7, pw, ph)...)
			p.Words = append(p.Words, indexPhrase(strings.Join(f[1:], " "), 98, top, 15.7, pw, ph)...)
		}
		for _, e := range extra {
			var top, titleX float64
			fmt.Sscan(e[0], &top, &titleX)
			p.Words = append(p.Words, indexPhrase(e[1], 35, top, 10.3, pw, ph)...)
			p.Words = append(p.Words, indexPhrase(e[2], titleX, top, 10.3, pw, ph)...)
		}
		return p
	}
	numbers := func(p pdftext.Page) []string {
		var out []string
		for _, e := range readAlone(t, p) {
			out = append(out, e.Number)
		}
		return out
	}
	// Baselines at 0.8 of the type height: the last row's is
	// 437.5+3*15.7+12.56 = 497.16, the next at 512.86, a 10.3 pt row's top
	// 512.86-8.24 = 504.62.
	if got := numbers(build([3]string{"504.6 98", "S-999", "ENLARGED DETAILS"})); len(got) != 5 || got[4] != "S-999" {
		t.Errorf("row at the pitch: %v, want the four rows and S-999", got)
	}
	for name, extra := range map[string][3]string{
		"two pitches down":             {"520.3 98", "S-999", "ENLARGED DETAILS"},
		"text out of the title column": {"504.6 160", "S-999", "ENLARGED DETAILS"},
	} {
		if got := numbers(build(extra)); len(got) != 4 {
			t.Errorf("%s: %v, want the four rows only", name, got)
		}
	}
}

// TestIndexOfGeneratedSets: the cover of a generated set lists its sheets
// from G-001; no drawing sheet holds an index.
func TestIndexOfGeneratedSets(t *testing.T) {
	for _, variant := range []string{plangen.VariantResidential, plangen.VariantCommercial} {
		gen, err := plangen.Generate(plangen.Options{Variant: variant, FillerPerPage: 80, SkipPDF: true})
		if err != nil {
			t.Fatal(err)
		}
		var pages []pdftext.Page
		for _, p := range gen.Files[0].Pages {
			pages = append(pages, p.TextPage())
		}
		set, err := model.Build(context.Background(), []model.Source{{ID: "cover.pdf", Pages: pages}})
		if err != nil {
			t.Fatal(err)
		}
		if idx := set.Sheets[0].Index; len(idx) < 4 || idx[0].Number != "G-001" {
			t.Errorf("%s index: %+v", variant, idx)
		}
		for _, s := range set.Sheets[1:] {
			if len(s.Index) > 0 {
				t.Errorf("%s: index on a drawing sheet: %+v", s.Ident.Number, s.Index)
			}
		}
	}
}

// TestIndexOfACoverFiledApart: a cover filed as a file of its own, too
// small to show a numbering scheme, reads its index against the numbers
// of the set's other files.
func TestIndexOfACoverFiledApart(t *testing.T) {
	gen, err := plangen.Generate(plangen.Options{Variant: plangen.VariantCommercial, FillerPerPage: 80, SkipPDF: true})
	if err != nil {
		t.Fatal(err)
	}
	var pages []pdftext.Page
	for _, p := range gen.Files[0].Pages {
		pages = append(pages, p.TextPage())
	}
	set, err := model.Build(context.Background(), []model.Source{
		{ID: "cover.pdf", Pages: pages[:1]}, {ID: "drawings.pdf", Pages: pages[1:]}})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, e := range set.Sheets[0].Index {
		listed[e.Key] = true
	}
	for _, s := range set.Sheets[1:] {
		if s.Ident.Key != "" && !listed[s.Ident.Key] {
			t.Errorf("%s is not read from the cover's index %+v", s.Ident.Number, set.Sheets[0].Index)
		}
	}
}
