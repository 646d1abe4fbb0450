package pdftext

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"planreview/internal/pdfgen"
)

var updateFuzzSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite testdata/fuzz/FuzzExtract from the generators")

// fuzzSeeds are small generated PDFs covering every parser path: fonts of
// each kind, forms, rotation, inline images, repairs and truncation.
func fuzzSeeds() map[string][]byte {
	d := pdfgen.New()
	d.Compress = false
	f := d.StandardFont("Helvetica")
	cid := d.NewCIDFont("SeedCID", []rune("AB1"), []int{500, 600, 700})
	t3 := d.Type3Font()
	form := d.Form("BT /F1 8 Tf 0 0 Td (form) Tj ET", [6]float64{1, 0, 0, 1, 5, 5}, [4]float64{0, 0, 50, 50}, map[string]int{"F1": f}, nil)
	fonts := map[string]int{"F1": f, "C1": cid.Obj, "T3": t3}
	content := fmt.Sprintf("BT /F1 10 Tf 1 0 0 1 72 700 Tm [(Hel) -20 (lo)] TJ 12 TL T* (next) ' 1 2 (q) \" /C1 9 Tf %s Tj /T3 12 Tf (AB) Tj ET "+
		"q 0 1 -1 0 300 300 cm /Fm Do Q BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI /P <</MCID 0>> BDC EMC", cid.Hex("AB1"))
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Rotate: 90, Content: content, Fonts: fonts, XObjects: map[string]int{"Fm": form}})
	rich := d.Bytes()
	return map[string][]byte{
		"hello":      helloPDF(),
		"rich":       rich,
		"brokenxref": pdfgen.BreakXRef(rich),
		"truncated":  pdfgen.Truncate(rich, 0.7),
		"plans":      pdfgen.PlanSet(pdfgen.PlanSetOptions{Pages: 1, LabelsPerPage: 12, Width: 300, Height: 400, Seed: 9}),
		"notpdf":     []byte("<html>not a pdf</html>"),
	}
}

// TestWriteFuzzSeeds regenerates the committed seed corpus:
// go test ./scan/pdftext -run WriteFuzzSeeds -update-fuzz-seeds
func TestWriteFuzzSeeds(t *testing.T) {
	if !*updateFuzzSeeds {
		t.Skip("pass -update-fuzz-seeds to rewrite testdata/fuzz/FuzzExtract")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzExtract")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range fuzzSeeds() {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzExtract opens and extracts arbitrary input: it must never panic (not
// even one the page boundary recovers), hang past its deadline, or return an
// untyped error or an out-of-page box.
// CI runs it briefly: go test ./scan/pdftext -run '^$' -fuzz FuzzExtract -fuzztime 30s
func FuzzExtract(f *testing.F) {
	for _, data := range fuzzSeeds() {
		f.Add(data)
	}
	// Real sheets, when the shared corpus is here: the mutator starts from
	// every structure real producers write.
	corpus, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	for _, path := range corpus {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		doc, err := OpenReader(ctx, bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if !typedError(err) {
				t.Fatalf("untyped open error: %v", err)
			}
			return
		}
		for p := range doc.Pages(ctx) {
			if p.Err != nil && !typedError(p.Err) {
				t.Fatalf("page %d: untyped error: %v", p.Number, p.Err)
			}
			if p.Err != nil && strings.Contains(p.Err.Error(), "extractor failure") {
				// A panic the page boundary caught: typed, but a bug of ours.
				t.Fatalf("page %d: %v", p.Number, p.Err)
			}
			for _, w := range p.Words {
				b := w.BBox
				for _, v := range []float64{b.Left, b.Top, b.Width, b.Height} {
					if math.IsNaN(v) || v < 0 || v > 1 {
						t.Fatalf("page %d word %q: bbox %+v outside the page", p.Number, w.Text, b)
					}
				}
				if b.Left+b.Width > 1+2e-6 || b.Top+b.Height > 1+2e-6 { // fractions are rounded to 1e-6
					t.Fatalf("page %d word %q: bbox %+v outside the page", p.Number, w.Text, b)
				}
			}
		}
	})
}

func typedError(err error) bool {
	return errors.Is(err, ErrNotPDF) || errors.Is(err, ErrInvalid) || errors.Is(err, ErrEncrypted) || errors.Is(err, ErrTooComplex) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}
