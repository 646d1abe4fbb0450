package annotate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"

	"planreview/scan/hostile"
	"planreview/scan/pdftext"
)

// TestDamagedPageTrees: for page trees viewers repair (cycles, a tree that
// lists itself, a missing or inline kid) and for truncated and bit-flipped
// files, the marked-up copy is made for every page the extractor reads,
// with the same page count, and pdfcpu reads the copy back. This is what
// keeps "page tree node N is missing" from failing a scan that the
// extractor accepted. A file whose tree root is lost, or whose catalog has
// no /Pages, gets a new root over the pages the extractor read, and the
// marks land on them.
func TestDamagedPageTrees(t *testing.T) {
	plain := hostile.PageTreeCycle() // a sound file to cut and flip
	cases := map[string][]byte{
		"cycle":            hostile.PageTreeCycle(),
		"lists itself":     hostile.PageTreeSelf(),
		"missing kid":      hostile.MissingKid(),
		"inline kid":       hostile.DirectKid(),
		"root lost":        hostile.LostRoot(),
		"no /Pages":        hostile.CatalogWithoutPages(),
		"fan-out (1 page)": hostile.FormFanOut(3, 2, 1),
	}
	for _, frac := range []float64{0.5, 0.7, 0.9} {
		cases[fmt.Sprintf("truncated at %.0f%%", frac*100)] = hostile.Truncated(plain, frac)
	}
	for seed := range uint64(20) {
		cases[fmt.Sprintf("bit flips %d", seed)] = hostile.BitFlipped(plain, 3, seed)
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			doc, err := pdftext.OpenReader(context.Background(), bytes.NewReader(in), int64(len(in)))
			if err != nil {
				t.Skipf("the extractor rejects it (%v): the scan fails before annotating", err)
			}
			n := doc.NumPages()
			if n == 0 {
				t.Skip("no pages: empty_pdf before annotating")
			}
			var marks []Mark
			for p := 1; p <= n; p++ {
				marks = append(marks, Mark{Number: p, FindingID: fmt.Sprintf("fnd_%d", p), Severity: "high",
					Title: "t", Page: p, Rect: pdftext.Rect{72, 72, 144, 96}})
			}
			var out bytes.Buffer
			err = Render(context.Background(), bytes.NewReader(in), &out, marks, testSummary)
			if err != nil {
				t.Fatalf("extractor reads %d pages, annotating fails: %v", n, err)
			}
			pctx, err := api.ReadContext(bytes.NewReader(out.Bytes()), readConfiguration())
			if err != nil {
				t.Fatalf("pdfcpu cannot read the marked-up copy: %v", err)
			}
			pages, _, err := collectPages(pctx.XRefTable)
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) < n { // the copy adds summary pages
				t.Errorf("copy has %d pages, the extractor read %d", len(pages), n)
			}
			if name == "root lost" || name == "no /Pages" {
				b := &builder{xt: pctx.XRefTable}
				for i, p := range pages[:n] {
					kept, _ := b.withoutOwnAnnotations(p.dict)
					annots, _ := pctx.XRefTable.DereferenceArray(p.dict["Annots"])
					if len(annots)-len(kept) == 0 {
						t.Errorf("page %d of the rebuilt tree has no mark", i+1)
					}
				}
			}
			qpdfNoWorse(t, in, out.Bytes())
		})
	}
}

// qpdfNoWorse fails the test when qpdf is installed and finds more wrong
// with the marked-up copy than with its input: an update keeps the
// original's damage by design (the bytes are the upload's), but must add
// none, and a copy written whole must pass.
func qpdfNoWorse(t *testing.T, in, out []byte) {
	t.Helper()
	if _, err := exec.LookPath("qpdf"); err != nil {
		return
	}
	dir := t.TempDir()
	inPath, outPath := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "out.pdf")
	if err := os.WriteFile(inPath, in, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outPath, out, 0o644); err != nil {
		t.Fatal(err)
	}
	// qpdf exits 0 when clean, 3 with warnings, 2 with errors.
	worse := map[int]int{0: 0, 3: 1, 2: 2}
	inRC, _ := qpdfCheck(t, inPath)
	outRC, msg := qpdfCheck(t, outPath)
	if worse[outRC] > worse[inRC] {
		t.Errorf("qpdf --check: input exit %d, marked-up copy exit %d:\n%s", inRC, outRC, msg)
	}
}
