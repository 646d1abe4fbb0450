package sheets

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"planreview/scan/pdftext"
)

// specOneRe is the spec-or-form expression as one alternation, the form
// specHeadRe and specWordsRe were split from.
var specOneRe = regexp.MustCompile(`(?i)^\s*(?:SECTION\s+\d{2}\s?\d{2}\s?\d{2}|PART\s+[123]\s*[-–]?\s*(?:GENERAL|PRODUCTS|EXECUTION)|\d+\.\d+\s+[A-Z][A-Z ]+$)|\bAPPLICATION\s+FORM\b|\bSIGNATURE\s+OF\s+APPLICANT\b|\bCHECKLIST\b`)

// TestDocTypeShortcutsAreExact: the split spec expressions match exactly
// the lines the one alternation matched, and a phrase without an ASCII
// digit never holds an address or a measurement (so skipping those
// expressions there changes nothing), on built-in lines and on every
// phrase of the corpus.
func TestDocTypeShortcutsAreExact(t *testing.T) {
	texts := []string{"SECTION 09 21 16", "  PART 2 - PRODUCTS", "1.2 SUBMITTALS", "see section 09 21 16",
		"BUILDING PERMIT APPLICATION FORM", "SIGNATURE OF APPLICANT", "CHECKLIST", "1.2 Submittals here 3",
		"FLOOR PLAN", "123 MAIN ST", "12'-6\"", "3000 mm", "1/4\" = 1'-0\"", "ſection", "KITCHEN 120 SF"}
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "corpus", "*.pdf"))
	ctx := context.Background()
	for _, path := range files {
		doc, err := pdftext.Open(ctx, path)
		if err != nil {
			continue
		}
		for n := 1; n <= doc.NumPages(); n++ {
			p, err := doc.Page(ctx, n)
			if err != nil || len(p.Words) == 0 {
				continue
			}
			for _, q := range buildPhrases(p) {
				texts = append(texts, q.Text)
			}
		}
		doc.Close()
	}
	for _, s := range texts {
		if got, want := specHeadRe.MatchString(s) || specWordsRe.MatchString(s), specOneRe.MatchString(s); got != want {
			t.Errorf("%q: split spec match %v, one alternation %v", s, got, want)
		}
		if strings.ContainsAny(s, "0123456789") {
			continue
		}
		for name, re := range map[string]*regexp.Regexp{"address": addressRe.Regexp, "metric": metricRe.Regexp, "imperial": imperialRe.Regexp} {
			if m := re.FindString(s); m != "" {
				t.Errorf("%q without a digit: %s expression matched %q", s, name, m)
			}
		}
	}
	t.Logf("%d phrases compared", len(texts))
}
