package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"planreview/scan/model"
	"planreview/scan/pdftext"
	"planreview/scan/sheets"
)

// The labelled key of the real corpus: written by reading the sheets (text
// and rendered pages), never from the engine's output.
const corpusKey = "../testdata/corpus-sheets.json"

type keyFile struct {
	File    string    `json:"file"`
	DocType string    `json:"docType"`
	Pages   []keyPage `json:"pages"`
}

type keyPage struct {
	Page                    int      `json:"page"`
	TextLayer               string   `json:"textLayer"`
	SheetNumber             *string  `json:"sheetNumber"`
	SheetNumberAlternatives []string `json:"sheetNumberAlternatives"`
	SheetTitle              *string  `json:"sheetTitle"`
	SheetTitleAlternatives  []string `json:"sheetTitleAlternatives"`
	Scale                   *string  `json:"scale"`
	ScaleAlternatives       []string `json:"scaleAlternatives"`
	IssueStatus             *string  `json:"issueStatus"`
	IssueStatusAlternatives []string `json:"issueStatusAlternatives"`
}

// Targets of issue 9, measured over the corpus files the reader was tuned on.
const (
	targetNumber = 0.97
	targetTitle  = 0.90
	targetScale  = 0.90
)

// firstLook lists the files whose keys were written before the engine ever
// ran on them, with what the reader got right on that first look
// (docs/quality.md). They measure whether a change generalises to sets the
// reader was not tuned on, so they stay out of the totals held to the
// targets; each must only not fall below its first-look figures (and, like
// every file, get its document type right and invent no sheet number).
var firstLook = map[string]sheetScore{
	"us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh.pdf":            {numRight: 14, numTotal: 14, titleRight: 13, titleTotal: 14, scaleRight: 8, scaleTotal: 9},
	"us_ct_kent_substance_abuse_center_plumbing_cd_addendum1_3sh.pdf": {numRight: 2, numTotal: 3, titleRight: 0, titleTotal: 3, scaleRight: 0, scaleTotal: 3},
	"us_ca_carlsbad_sfr_asbuilt_907_orchid_4sh.pdf":                   {numRight: 2, numTotal: 4, titleRight: 0, titleTotal: 4, scaleRight: 3, scaleTotal: 4},
	"us_ca_la_lausd_madison_ms_fire_protection_fp2_20_1sh.pdf":        {numRight: 1, numTotal: 1, titleRight: 0, titleTotal: 1, scaleRight: 1, scaleTotal: 1},
}

// sheetScore counts what the reader got right on one file or a group.
type sheetScore struct {
	numRight, numTotal, numFalse int
	titleRight, titleTotal       int
	scaleRight, scaleTotal       int
}

func (a *sheetScore) add(b sheetScore) {
	a.numRight, a.numTotal, a.numFalse = a.numRight+b.numRight, a.numTotal+b.numTotal, a.numFalse+b.numFalse
	a.titleRight, a.titleTotal = a.titleRight+b.titleRight, a.titleTotal+b.titleTotal
	a.scaleRight, a.scaleTotal = a.scaleRight+b.scaleRight, a.scaleTotal+b.scaleTotal
}

// TestCorpusSheetModel scores the set model against the labelled key on
// every corpus file and prints per-file accuracy; the targets hold over the
// tuned files, the first-look files are held to their first-look figures.
func TestCorpusSheetModel(t *testing.T) {
	files := readCorpusKey[keyFile](t, corpusKey)
	var tuned, first sheetScore
	var docWrong []string
	t.Logf("%-50s %-20s %8s %6s %8s %8s %9s %7s", "file", "docType", "number", "false", "title", "scale", "textLayer", "status")
	for _, kf := range files {
		path := filepath.Join(corpusDir, kf.File)
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s: missing from the corpus folder", kf.File)
			continue
		}
		m, err := readModel(path)
		docType := m.DocType
		if err != nil {
			if !errors.Is(err, pdftext.ErrNotPDF) {
				t.Errorf("%s: %v", kf.File, err)
				continue
			}
			docType = "not_pdf"
		}
		if docType != kf.DocType {
			docWrong = append(docWrong, fmt.Sprintf("%s: %s, key says %s", kf.File, docType, kf.DocType))
		}
		var nr, nt, nf, tr, tt, sr, st, lr, ir, it int
		for _, kp := range kf.Pages {
			var got pageValues
			if kp.Page-1 < len(m.Pages) {
				got = m.Pages[kp.Page-1]
			}
			if got.TextLayer == kp.TextLayer || got.TextLayer == "" && kp.TextLayer == sheets.TextNone {
				lr++
			}
			if kp.SheetNumber == nil {
				if got.SheetNumber != "" {
					nf++
					t.Logf("  %s p%d: number %q where the sheet prints none", kf.File, kp.Page, got.SheetNumber)
				}
			} else {
				nt++
				if matches(got.SheetNumber, *kp.SheetNumber, kp.SheetNumberAlternatives, numberNorm) {
					nr++
				} else {
					t.Logf("  %s p%d: number %q, key %q", kf.File, kp.Page, got.SheetNumber, *kp.SheetNumber)
				}
			}
			if kp.SheetTitle != nil {
				tt++
				if matches(got.SheetTitle, *kp.SheetTitle, kp.SheetTitleAlternatives, textNorm) {
					tr++
				} else {
					t.Logf("  %s p%d: title %q, key %q", kf.File, kp.Page, got.SheetTitle, *kp.SheetTitle)
				}
			}
			if kp.IssueStatus != nil {
				it++
				if matches(got.IssueStatus, *kp.IssueStatus, kp.IssueStatusAlternatives, textNorm) {
					ir++
				} else {
					t.Logf("  %s p%d: status %q, key %q (not a target)", kf.File, kp.Page, got.IssueStatus, *kp.IssueStatus)
				}
			} else if got.IssueStatus != "" {
				t.Logf("  %s p%d: status %q where the key reads none (not a target)", kf.File, kp.Page, got.IssueStatus)
			}
			if kp.Scale != nil {
				st++
				if matches(got.Scale, *kp.Scale, kp.ScaleAlternatives, scaleNorm) {
					sr++
				} else {
					t.Logf("  %s p%d: scale %q, key %q", kf.File, kp.Page, got.Scale, *kp.Scale)
				}
			}
		}
		mark := ""
		fs := sheetScore{numRight: nr, numTotal: nt, numFalse: nf, titleRight: tr, titleTotal: tt, scaleRight: sr, scaleTotal: st}
		if fl, ok := firstLook[kf.File]; ok {
			mark = " (first look)"
			first.add(fs)
			if nr < fl.numRight || tr < fl.titleRight || sr < fl.scaleRight {
				t.Errorf("%s: number %s, title %s, scale %s: below its first look (number %s, title %s, scale %s)", kf.File,
					frac(nr, nt), frac(tr, tt), frac(sr, st), frac(fl.numRight, fl.numTotal), frac(fl.titleRight, fl.titleTotal), frac(fl.scaleRight, fl.scaleTotal))
			}
		} else {
			tuned.add(fs)
		}
		t.Logf("%-50s %-20s %8s %6d %8s %8s %9s %7s%s", kf.File, docType, frac(nr, nt), nf, frac(tr, tt), frac(sr, st), frac(lr, len(kf.Pages)), frac(ir, it), mark)
	}
	logTotal(t, "TOTAL (tuned files)", tuned)
	logTotal(t, "TOTAL (first look)", first)
	t.Logf("document types wrong: %d", len(docWrong))
	for _, d := range docWrong {
		t.Errorf("document type: %s", d)
	}
	if n := tuned.numFalse + first.numFalse; n > 0 {
		t.Errorf("%d pages that print no sheet number got one", n)
	}
	if pct(tuned.numRight, tuned.numTotal) < 100*targetNumber {
		t.Errorf("sheet number right on %.1f%% of pages, target %.0f%%", pct(tuned.numRight, tuned.numTotal), 100*targetNumber)
	}
	if pct(tuned.titleRight, tuned.titleTotal) < 100*targetTitle {
		t.Errorf("title right on %.1f%% of pages, target %.0f%%", pct(tuned.titleRight, tuned.titleTotal), 100*targetTitle)
	}
	if pct(tuned.scaleRight, tuned.scaleTotal) < 100*targetScale {
		t.Errorf("scale right on %.1f%% of sheets, target %.0f%%", pct(tuned.scaleRight, tuned.scaleTotal), 100*targetScale)
	}
}

func logTotal(t *testing.T, label string, s sheetScore) {
	t.Logf("%s number %s (%.1f%%), numbers on pages printing none: %d, title %s (%.1f%%), scale %s (%.1f%%)", label,
		frac(s.numRight, s.numTotal), pct(s.numRight, s.numTotal), s.numFalse, frac(s.titleRight, s.titleTotal), pct(s.titleRight, s.titleTotal),
		frac(s.scaleRight, s.scaleTotal), pct(s.scaleRight, s.scaleTotal))
}

// pageValues are a sheet's values as the model reads them.
type pageValues struct {
	TextLayer, SheetNumber, SheetTitle, Scale, IssueStatus string
}

type setValues struct {
	DocType string
	Pages   []pageValues
}

// readModel reads a file's model as the review does (model.Build) and
// returns its values.
func readModel(path string) (setValues, error) {
	ctx := context.Background()
	doc, err := pdftext.Open(ctx, path)
	if err != nil {
		return setValues{}, err
	}
	defer doc.Close()
	src := model.Source{ID: path, Pages: make([]pdftext.Page, doc.NumPages())}
	for n := range src.Pages {
		p, err := doc.Page(ctx, n+1)
		if err != nil {
			return setValues{}, err
		}
		src.Pages[n] = *p
	}
	set, err := model.Build(ctx, []model.Source{src})
	if err != nil {
		return setValues{}, err
	}
	out := setValues{DocType: set.Files[0].DocType}
	for _, s := range set.Sheets {
		v := s.Values()
		out.Pages = append(out.Pages, pageValues{TextLayer: s.Model.TextLayer, SheetNumber: v.Number.Text,
			SheetTitle: v.Title.Text, Scale: v.Scale.Text, IssueStatus: v.Status.Text})
	}
	return out, nil
}

func matches(got, want string, alts []string, norm func(string) string) bool {
	if got == "" {
		return false
	}
	g := norm(got)
	for _, w := range append([]string{want}, alts...) {
		if g == norm(w) {
			return true
		}
	}
	return false
}

var dashes = strings.NewReplacer("\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2212", "-")

// numberNorm compares sheet numbers without case, spaces or dash variants.
func numberNorm(s string) string {
	return strings.ReplaceAll(strings.ToUpper(dashes.Replace(strings.TrimSpace(s))), " ", "")
}

// textNorm compares titles by their letters and digits: case, whitespace
// and punctuation do not count.
func textNorm(s string) string {
	var sb strings.Builder
	for _, w := range strings.FieldsFunc(strings.ToUpper(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(w)
	}
	return sb.String()
}

// scaleNorm compares scales without case, spaces, dash or quote variants.
func scaleNorm(s string) string {
	s = strings.NewReplacer("″", `"`, "′", "'", "’", "'", "”", `"`, " ", "").Replace(dashes.Replace(s))
	return strings.ToUpper(s)
}

func frac(a, b int) string { return fmt.Sprintf("%d/%d", a, b) }

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

// readCorpusKey reads the files of a corpus key (a JSON object whose
// "files" lists them); the test is skipped without the corpus folder.
func readCorpusKey[F any](t *testing.T, path string) []F {
	t.Helper()
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("corpus folder absent")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var key struct {
		Files []F `json:"files"`
	}
	if err := json.Unmarshal(raw, &key); err != nil {
		t.Fatal(err)
	}
	return key.Files
}
