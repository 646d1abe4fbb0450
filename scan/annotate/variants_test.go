package annotate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planreview/scan/hostile"
	"planreview/scan/pdftext"
)

// TestRepairedCorpusVariants: damaged copies of the corpus files that the
// extractor reads (pdfcpu repairs their cross-reference data) get a marked-up
// copy whose structure qpdf accepts. The variants are the hostile-PDF
// suite's (a cut at 60% and 20 bit flips, seeded by the file's index) and
// the kinds a wider sweep found failing before the annotator rebuilt lost
// page tree roots and numbered its objects past every dangling reference:
// a root cut off at 80% or garbled by a flip, a catalog whose /Pages key a
// flip garbled, and a cut at 5% that left references to lost objects.
func TestRepairedCorpusVariants(t *testing.T) {
	if testing.Short() {
		t.Skip("reads and marks up about 80 damaged files")
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	if len(files) == 0 {
		t.Skip("corpus not available")
	}
	requireTool(t, "qpdf")
	read, marked := 0, 0
	for i, path := range files {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(raw, []byte("%PDF-")) {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(path), ".pdf")
		variants := map[string][]byte{}
		for _, frac := range []float64{0.05, 0.6, 0.8} {
			variants[fmt.Sprintf("%s cut at %.0f%%", name, frac*100)] = hostile.Truncated(raw, frac)
		}
		for _, seed := range []int{i, i*100 + 16, i*100 + 21} {
			variants[fmt.Sprintf("%s flips seed %d", name, seed)] = hostile.BitFlipped(raw, 20, uint64(seed))
		}
		for vname, in := range variants {
			doc, err := pdftext.OpenReader(t.Context(), bytes.NewReader(in), int64(len(in)))
			if err != nil || doc.NumPages() == 0 {
				continue // the scan fails with a contract code before annotating
			}
			read++
			var marks []Mark
			for p := 1; p <= doc.NumPages(); p++ {
				marks = append(marks, Mark{Number: p, FindingID: fmt.Sprintf("fnd_%d", p), Severity: "high",
					Title: "Check", Page: p, Rect: pdftext.Rect{72, 72, 144, 96}})
			}
			var out bytes.Buffer
			if err := Render(t.Context(), bytes.NewReader(in), &out, marks, testSummary); err != nil {
				t.Errorf("%s: the extractor reads %d pages, annotating fails: %v", vname, doc.NumPages(), err)
				continue
			}
			marked++
			if !bytes.HasPrefix(out.Bytes(), in) {
				// Rewritten whole (the repaired ones): qpdf reads the new
				// structure. An update keeps the original byte for byte,
				// which qpdf would only judge again.
				qpdfStructureSound(t, vname, in, out.Bytes())
			}
		}
	}
	t.Logf("%d damaged variants read by the extractor, %d marked up", read, marked)
}

// qpdfStructureSound fails the test when qpdf finds errors in the marked-up
// copy beyond stream data it carries unchanged from a damaged original (a
// flipped bit inside compressed page content stays there: rewriting a
// drawing is not the annotator's to do; the extractor read what it could).
func qpdfStructureSound(t *testing.T, name string, in, out []byte) {
	t.Helper()
	dir := t.TempDir()
	inPath, outPath := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "out.pdf")
	if err := os.WriteFile(inPath, in, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outPath, out, 0o644); err != nil {
		t.Fatal(err)
	}
	rc, msg := qpdfCheck(t, outPath)
	if rc != 2 {
		return // clean, or warnings only
	}
	if inRC, _ := qpdfCheck(t, inPath); inRC == 0 {
		t.Errorf("%s: qpdf --check passes the input, fails the copy:\n%s", name, msg)
		return
	}
	for line := range strings.SplitSeq(msg, "\n") {
		if strings.HasPrefix(line, "ERROR:") && !strings.Contains(line, "decoding") && !strings.Contains(line, "converting") {
			t.Errorf("%s: qpdf --check: %s", name, line)
		}
	}
}
