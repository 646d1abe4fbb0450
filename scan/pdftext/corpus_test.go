package pdftext

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir holds real plan PDFs shared by the team (see its README.md);
// tests that need it skip when it is absent.
const corpusDir = "../../../shared/corpus"

func corpusFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(corpusDir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus file %s not available", name)
	}
	return p
}

const minAgreement = 0.98

// TestCorpusAgreesWithPoppler compares every corpus PDF that poppler finds
// words in (the text PDFs; scans, outlined sheets and non-PDFs drop out).
func TestCorpusAgreesWithPoppler(t *testing.T) {
	if !havePoppler() {
		t.Skip("pdftotext not installed")
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	if len(files) == 0 {
		t.Skip("corpus not available")
	}
	var rows []agreement
	for _, path := range files {
		name := filepath.Base(path)
		if err := exec.Command("pdftotext", "-q", "-l", "1", path, "/dev/null").Run(); err != nil {
			continue // not a PDF poppler reads: covered by TestCorpusNotAPDF
		}
		if countPopplerWords(t, path) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			a := compareWithPoppler(t, path)
			rows = append(rows, a)
			switch {
			case a.ratio() < minAgreement:
				t.Errorf("%s: %.2f%% of poppler's words found (want ≥ %.0f%%); first misses:\n  %s",
					name, 100*a.ratio(), 100*minAgreement, strings.Join(a.misses, "\n  "))
			case os.Getenv("PDFTEXT_MISSES") != "": // go test -v: list what differs
				t.Logf("first misses:\n  %s", strings.Join(a.misses, "\n  "))
			}
		})
	}
	if len(rows) < 9 {
		t.Errorf("only %d corpus files with text compared; the corpus README lists 9", len(rows))
	}
	logAgreementTable(t, rows)
}

func countPopplerWords(t *testing.T, path string) int {
	n := 0
	for _, p := range popplerWords(t, path) {
		n += len(p.words)
	}
	return n
}

func logAgreementTable(t *testing.T, rows []agreement) {
	var b strings.Builder
	b.WriteString("\n| file | pages | poppler words | our words | matched | agreement |\n|---|---:|---:|---:|---:|---:|\n")
	for _, a := range rows {
		b.WriteString(formatRow(a))
	}
	t.Log(b.String())
}

func TestCorpusUnreadablePages(t *testing.T) {
	cases := []struct {
		name   string
		reason string
	}{
		{"yale_TC_scanned_floorplans_8p.pdf", ReasonImageOnly},
		{"measurex_kirkland-sample-plans.pdf", ReasonNoTextObjects},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Open(context.Background(), corpusFile(t, tc.name))
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			if doc.NumPages() == 0 {
				t.Fatal("no pages")
			}
			for p := range doc.Pages(context.Background()) {
				if p.Err != nil || p.Readable || p.Reason != tc.reason {
					t.Errorf("page %d: readable=%v reason=%q err=%v, want unreadable %q", p.Number, p.Readable, p.Reason, p.Err, tc.reason)
				}
			}
		})
	}
}

func TestCorpusNotAPDF(t *testing.T) {
	_, err := Open(context.Background(), corpusFile(t, "measurex_vancouver-dwelling-plans_FAKE_HTML.pdf"))
	if !errors.Is(err, ErrNotPDF) {
		t.Fatalf("err = %v, want ErrNotPDF", err)
	}
}
