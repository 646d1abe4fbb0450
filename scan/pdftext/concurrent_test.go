package pdftext

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"planreview/internal/pdfgen"
)

// Pages read on several workers are the pages read one after another:
// same words, lines, segments and errors, in page order, and the same
// budget usage.
func TestPagesConcurrentlyMatchesPages(t *testing.T) {
	paths := []string{writeTemp(t, "set.pdf", pdfgen.PlanSet(pdfgen.PlanSetOptions{Pages: 7, LabelsPerPage: 120, SwitchFonts: true, Seed: 3}))}
	for _, name := range []string{"ca_calgary_sample_dp_bp_house_26p.pdf", "us_va_stcloud_bldg28_renovation_cds.pdf"} {
		if p := filepath.Join(corpusDir, name); fileExists(p) && !testing.Short() {
			paths = append(paths, p)
		}
	}
	ctx := context.Background()
	for _, path := range paths {
		seqDoc, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		var seq []*Page
		for p := range seqDoc.Pages(ctx) {
			seq = append(seq, p)
		}
		seqDoc.Close()
		for _, workers := range []int{2, 3} {
			doc, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			var got []*Page
			thenRan := make([]bool, doc.NumPages())
			for p := range doc.PagesConcurrently(ctx, workers, func(p *Page) { thenRan[p.Number-1] = true }) {
				got = append(got, p)
			}
			if len(got) != len(seq) {
				t.Fatalf("%s, %d workers: %d pages, want %d", path, workers, len(got), len(seq))
			}
			for i := range seq {
				if !reflect.DeepEqual(got[i], seq[i]) {
					t.Errorf("%s, %d workers: page %d differs from the sequential read", filepath.Base(path), workers, i+1)
				}
				if !thenRan[i] {
					t.Errorf("%s: then did not run on page %d", filepath.Base(path), i+1)
				}
			}
			// What a page decodes and resolves depends on what the
			// reader's caches hold, so those may come out higher; the
			// rest is the page's own.
			gu, wu := doc.Usage(), seqUsage(t, path)
			if gu.ContentBytes < wu.ContentBytes || gu.Resolves < wu.Resolves {
				t.Errorf("%s: usage %+v below the sequential read's %+v", filepath.Base(path), gu, wu)
			}
			gu.ContentBytes, gu.Resolves = wu.ContentBytes, wu.Resolves
			if gu != wu {
				t.Errorf("%s: usage %+v, want the sequential read's %+v", filepath.Base(path), gu, wu)
			}
			doc.Close()
		}
	}
}

func seqUsage(t *testing.T, path string) Usage {
	doc, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	for range doc.Pages(context.Background()) {
	}
	return doc.Usage()
}

// A consumer that stops early, a context that ends and a panic in then
// all end the sequence with every worker stopped.
func TestPagesConcurrentlyStops(t *testing.T) {
	path := writeTemp(t, "set.pdf", pdfgen.PlanSet(pdfgen.PlanSetOptions{Pages: 12, LabelsPerPage: 80, Seed: 5}))
	doc, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()

	n := 0
	for p := range doc.PagesConcurrently(context.Background(), 2, nil) {
		if n++; p.Number != n {
			t.Fatalf("page %d yielded as number %d", n, p.Number)
		}
		if n == 3 {
			break
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last *Page
	count := 0
	for p := range doc.PagesConcurrently(ctx, 2, nil) {
		count++
		last = p
		if count == 2 {
			cancel()
		}
	}
	if count == 12 || last == nil || !errors.Is(last.Err, context.Canceled) {
		t.Errorf("after cancel: %d pages, last error %v; want the sequence to end on a context error", count, last.Err)
	}

	func() {
		defer func() {
			v := recover()
			pe, ok := v.(*PanicError)
			if !ok || !strings.Contains(pe.Error(), "boom on 4") {
				t.Errorf("recovered %v, want the worker's panic", v)
			}
		}()
		for range doc.PagesConcurrently(context.Background(), 2, func(p *Page) {
			if p.Number == 4 {
				panic("boom on 4")
			}
		}) {
		}
		t.Error("no panic")
	}()
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Over a budget, the concurrent read gives the sequential read's verdict:
// the same pages, the same page over the budget, the same error.
func TestPagesConcurrentlyBudgetVerdict(t *testing.T) {
	path := writeTemp(t, "set.pdf", pdfgen.PlanSet(pdfgen.PlanSetOptions{Pages: 9, LabelsPerPage: 150, SwitchFonts: true, Seed: 8}))
	for _, b := range []Budgets{{ResolvesPerPage: 12}, {ContentBytesPerPage: 9000}, {OpsPerPage: 600}} {
		read := func(workers int) (out []string) {
			doc, err := OpenWithBudgets(context.Background(), path, b)
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			for p := range doc.PagesConcurrently(context.Background(), workers, nil) {
				out = append(out, fmt.Sprintf("%d %d %v", p.Number, len(p.Words), p.Err))
			}
			return out
		}
		seq, par := read(1), read(2)
		if !slices.Equal(seq, par) {
			t.Errorf("budgets %+v: concurrent read %q, sequential %q", b, par, seq)
		}
	}
}
