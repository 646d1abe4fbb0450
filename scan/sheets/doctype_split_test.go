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

// classifyDocAllCounts is classifyDoc as it was, every count taken on every
// phrase, for TestDocTypeShortcutsAreExact.
func classifyDocAllCounts(pages []*pdftext.Page, models []PageModel, reads []pageRead) string {
	readable := 0
	for _, p := range pages {
		if p != nil && p.Readable && len(p.Words) > 0 {
			readable++
		}
	}
	if readable == 0 {
		return unreadableType(pages)
	}
	var civil, building, construction, letter, spec, sheetLike, words, pagesLetter int
	for i, p := range pages {
		if p == nil || len(p.Words) == 0 {
			continue
		}
		words += len(p.Words)
		if p.Width <= 700 && p.Height <= 1100 || p.Height <= 700 && p.Width <= 1100 {
			pagesLetter++
		}
		m := models[i]
		if m.SheetNumber != "" || len(m.Fields) >= 3 {
			sheetLike++
		}
		for _, q := range reads[i].phrases {
			t := q.Text
			civil += len(civilRe.FindAllStringIndex(t, -1))
			building += len(buildingRe.FindAllStringIndex(t, -1))
			construction += len(constructionRe.FindAllStringIndex(t, -1))
			if letterRe.MatchString(t) {
				letter++
			}
			if specHeadRe.MatchString(t) || specWordsRe.MatchString(t) {
				spec++
			}
		}
	}
	allLetter := pagesLetter == readable
	switch {
	case allLetter && letter >= 2 && sheetLike == 0:
		return DocLetter
	case allLetter && spec >= 3 && sheetLike*2 < readable:
		return DocSpecOrForm
	case civil >= 8 && civil > building:
		return DocCivil
	case construction < 2 && sheetLike == 0:
		return DocNonConstruction
	case len(pages) == 1:
		return DocSingleSheet
	}
	return DocPermitSet
}

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
		var pages []*pdftext.Page
		for n := 1; n <= doc.NumPages(); n++ {
			p, err := doc.Page(ctx, n)
			if err != nil {
				p = &pdftext.Page{Number: n}
			}
			pages = append(pages, p)
			if len(p.Words) == 0 {
				continue
			}
			for _, q := range buildPhrases(p) {
				texts = append(texts, q.Text)
			}
		}
		doc.Close()
		// The document type with counts taken only where they decide it
		// is the type with every count taken.
		reads := make([]pageRead, len(pages))
		for i, p := range pages {
			if len(p.Words) > 0 {
				reads[i] = pageRead{phrases: buildPhrases(p)}
			}
		}
		m := ReadSet(pages)
		for _, subset := range [][]*pdftext.Page{pages, pages[:1]} {
			got := classifyDoc(subset, m.Pages, reads)
			if want := classifyDocAllCounts(subset, m.Pages, reads); got != want {
				t.Errorf("%s (%d pages): document type %s, with every count %s", filepath.Base(path), len(subset), got, want)
			}
		}
	}
	for _, s := range texts {
		if got, want := specHeadRe.MatchString(s) || specWordsRe.MatchString(s), specOneRe.MatchString(s); got != want {
			t.Errorf("%q: split spec match %v, one alternation %v", s, got, want)
		}
		if strings.ContainsAny(s, "0123456789") {
			continue
		}
		for name, re := range map[string]*regexp.Regexp{"address": addressRe.Regexp(), "metric": metricRe.Regexp(), "imperial": imperialRe.Regexp()} {
			if m := re.FindString(s); m != "" {
				t.Errorf("%q without a digit: %s expression matched %q", s, name, m)
			}
		}
	}
	t.Logf("%d phrases compared", len(texts))
}
