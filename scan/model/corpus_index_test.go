package model_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"planreview/scan/model"
	"planreview/scan/pdftext"
)

// The labelled key of the sheet indexes printed in the corpus: written by
// reading the pages (text and rendered images) before the engine's index
// reading was looked at.
const corpusIndexKey = "../testdata/corpus-index.json"

// targetIndexRows is the share of index rows the model must read with their
// number and title (issue 19); no row may be invented.
const targetIndexRows = 0.95

type indexKeyFile struct {
	File            string     `json:"file"`
	Indexes         []indexKey `json:"indexes"`
	ListedNotInFile []string   `json:"listedNotInFile"`
}

type indexKey struct {
	Page    int           `json:"page"`
	Heading *string       `json:"heading"`
	Rows    []indexKeyRow `json:"rows"`
}

type indexKeyRow struct {
	Number string   `json:"number"`
	Title  string   `json:"title"`
	Group  string   `json:"group"`
	Range  []string `json:"range"`
}

// indexScore counts one file's (or all files') index rows.
type indexScore struct {
	rows, found, titleWrong, missed, invented int
}

func (a *indexScore) add(b indexScore) {
	a.rows += b.rows
	a.found += b.found
	a.titleWrong += b.titleWrong
	a.missed += b.missed
	a.invented += b.invented
}

// TestCorpusIndexRows scores the index rows the model reads (Sheet.Index on
// every page of every corpus file) against the key: a key row is found when
// an entry read on its page has its number and title (numbers compared
// without case, spaces or dash variants, titles by their letters and
// digits); a range row ("21-23") is found as itself or as one entry per
// sheet it stands for. An entry that matches no key row is invented.
func TestCorpusIndexRows(t *testing.T) {
	key := readIndexKey(t)
	var total indexScore
	t.Logf("%-66s %5s %6s %6s %7s %8s", "file", "rows", "found", "title", "missed", "invented")
	for _, kf := range key {
		path := filepath.Join(corpusDir, kf.File)
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s: missing from the corpus folder", kf.File)
			continue
		}
		set, err := buildCorpusSet(path)
		if errors.Is(err, pdftext.ErrNotPDF) {
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", kf.File, err)
			continue
		}
		fs := scoreIndexes(t, kf, set)
		total.add(fs)
		t.Logf("%-66s %5d %6d %6d %7d %8d", kf.File, fs.rows, fs.found, fs.titleWrong, fs.missed, fs.invented)
	}
	holdIndexTarget(t, "corpus files", total)
}

// TestIndexByStructure reads the corpus indexes as they would stand in
// sets the model was not tuned on: the same files' words with every index
// heading replaced by words in no heading list ("ISSUED SET AS FOLLOWS"),
// and the files cut to part of their pages (the first half, the cover and
// the second half, the odd pages, the even pages), so that an index lists
// sheets the file lacks and a discipline's index stands without the set's.
// Every file of three pages or more is cut, so rows read from schedules
// and legends in the cut sets count as invented. The index must be read by
// its structure (a column of the set's numbers with titles, confirmed by
// the sheets it matches): 95% of the rows of the index pages kept, none
// invented.
func TestIndexByStructure(t *testing.T) {
	key := readIndexKey(t)
	var total indexScore
	for _, kf := range key {
		pages, err := corpusPages(filepath.Join(corpusDir, kf.File))
		if errors.Is(err, pdftext.ErrNotPDF) || err == nil && len(pages) < 3 {
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", kf.File, err)
			continue
		}
		for _, cut := range cutsOf(len(pages)) {
			for _, unheaded := range []bool{false, true} {
				variant, vkey := cutSet(t, kf, pages, cut.pages, unheaded)
				set, err := model.Build(context.Background(), []model.Source{{ID: kf.File, Pages: variant}})
				if err != nil {
					t.Fatal(err)
				}
				sc := scoreIndexes(t, vkey, set)
				total.add(sc)
				if sc.rows > 0 || sc.invented > 0 {
					t.Logf("%-56s %-18s headings %-8s rows %2d found %2d title wrong %d missed %2d invented %d",
						kf.File, cut.name, map[bool]string{false: "kept", true: "replaced"}[unheaded], sc.rows, sc.found, sc.titleWrong, sc.missed, sc.invented)
				}
			}
		}
	}
	holdIndexTarget(t, "cut sets, headings kept and replaced", total)
}

// holdIndexTarget logs a total and fails it below the target: 95% of the
// rows found with number and title, none invented.
func holdIndexTarget(t *testing.T, label string, total indexScore) {
	t.Helper()
	t.Logf("TOTAL (%s) index rows found %s (%.1f%%), title wrong %d, missed %d, invented %d", label,
		frac(total.found, total.rows), pct(total.found, total.rows), total.titleWrong, total.missed, total.invented)
	if pct(total.found, total.rows) < 100*targetIndexRows {
		t.Errorf("%s: index rows found %s (%.1f%%), target %.0f%%", label, frac(total.found, total.rows), pct(total.found, total.rows), 100*targetIndexRows)
	}
	if total.invented > 0 {
		t.Errorf("%s: %d index rows invented, target none", label, total.invented)
	}
}

type pageCut struct {
	name  string
	pages []int // 1-based, in order
}

// cutsOf are the parts of an n-page file the cut sets keep.
func cutsOf(n int) []pageCut {
	var first, coverLast, odd, even []int
	for p := 1; p <= n; p++ {
		if p <= n/2+1 {
			first = append(first, p)
		}
		if p == 1 || p > n/2 {
			coverLast = append(coverLast, p)
		}
		if p%2 == 1 {
			odd = append(odd, p)
		} else {
			even = append(even, p)
		}
	}
	return []pageCut{{"first half", first}, {"cover+second half", coverLast}, {"odd pages", odd}, {"even pages", even}}
}

// cutSet keeps the given pages of a file (their words copied, each index
// heading replaced when unheaded) and the key's indexes on them, renumbered.
func cutSet(t *testing.T, kf indexKeyFile, pages []pdftext.Page, keep []int, unheaded bool) ([]pdftext.Page, indexKeyFile) {
	t.Helper()
	var out []pdftext.Page
	vkey := indexKeyFile{File: kf.File}
	for _, n := range keep {
		p := pages[n-1]
		p.Words = append([]pdftext.Word(nil), p.Words...)
		for _, ix := range kf.Indexes {
			if ix.Page != n {
				continue
			}
			if unheaded && ix.Heading != nil && replaceWords(&p, strings.Fields(*ix.Heading)) == 0 {
				t.Fatalf("%s p%d: heading %q not among the page's words", kf.File, n, *ix.Heading)
			}
			ix.Page = len(out) + 1
			vkey.Indexes = append(vkey.Indexes, ix)
		}
		out = append(out, p)
	}
	return out, vkey
}

// replaceWords replaces each run of words reading seq on the page by words
// that make no index heading, and returns how many runs it replaced.
func replaceWords(p *pdftext.Page, seq []string) int {
	neutral := []string{"ISSUED", "SET", "AS", "FOLLOWS"}
	n := 0
	for i := 0; i+len(seq) <= len(p.Words); i++ {
		match := true
		for k, w := range seq {
			if p.Words[i+k].Text != w {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		for k := range seq {
			w := neutral[k%len(neutral)]
			p.Words[i+k].Text, p.Words[i+k].Norm = w, w
		}
		n++
	}
	return n
}

// readIndexKey reads the corpus index key; the test is skipped without the
// corpus folder.
func readIndexKey(t *testing.T) []indexKeyFile {
	t.Helper()
	return readCorpusKey[indexKeyFile](t, corpusIndexKey)
}

// scoreIndexes compares, page by page, the index rows the model read on a
// file with the key's, logging every miss, wrong title and invented row.
func scoreIndexes(t *testing.T, kf indexKeyFile, set *model.Set) indexScore {
	t.Helper()
	var sc indexScore
	keyed := map[int][]indexKeyRow{}
	for _, ix := range kf.Indexes {
		keyed[ix.Page] = append(keyed[ix.Page], ix.Rows...)
	}
	pages := map[int]bool{}
	for p := range keyed {
		pages[p] = true
	}
	for i, s := range set.Sheets {
		if len(s.Index) > 0 {
			pages[i+1] = true
		}
	}
	order := make([]int, 0, len(pages))
	for p := range pages {
		order = append(order, p)
	}
	sort.Ints(order)
	for _, p := range order {
		var read []model.IndexEntry
		if p-1 < len(set.Sheets) {
			read = set.Sheets[p-1].Index
		}
		used := make([]bool, len(read))
		for _, row := range keyed[p] {
			sc.rows++
			switch matchIndexRow(row, read, used) {
			case rowFound:
				sc.found++
			case rowTitleWrong:
				sc.titleWrong++
				t.Logf("  %s p%d: row %s %q read with another title (%s)", kf.File, p, row.Number, row.Title, readTitles(row, read))
			default:
				sc.missed++
				t.Logf("  %s p%d: row %s %q not read", kf.File, p, row.Number, row.Title)
			}
		}
		for j, e := range read {
			if !used[j] {
				sc.invented++
				t.Logf("  %s p%d: invented row %s %q", kf.File, p, e.Number, e.Title)
			}
		}
	}
	return sc
}

type rowMatch int

const (
	rowMissed rowMatch = iota
	rowTitleWrong
	rowFound
)

// matchIndexRow finds a key row among the entries read on its page, marking
// the entries it takes as used: first an entry with its number and title,
// then (a range row) one entry per member sheet with the title, then an
// entry with its number and another title.
func matchIndexRow(row indexKeyRow, read []model.IndexEntry, used []bool) rowMatch {
	num := numberNorm(row.Number)
	title := textNorm(row.Title)
	for j, e := range read {
		if !used[j] && numberNorm(e.Number) == num && textNorm(e.Title) == title {
			used[j] = true
			return rowFound
		}
	}
	if len(row.Range) > 0 {
		var take []int
		titled := true
		for _, n := range row.Range {
			k := -1
			for j, e := range read {
				if !used[j] && numberNorm(e.Number) == numberNorm(n) && !contains(take, j) {
					k = j
					if textNorm(e.Title) == title {
						break
					}
				}
			}
			if k < 0 {
				take = nil
				break
			}
			take = append(take, k)
			titled = titled && textNorm(read[k].Title) == title
		}
		if len(take) == len(row.Range) {
			for _, j := range take {
				used[j] = true
			}
			if titled {
				return rowFound
			}
			return rowTitleWrong
		}
	}
	for j, e := range read {
		if !used[j] && numberNorm(e.Number) == num {
			used[j] = true
			return rowTitleWrong
		}
	}
	return rowMissed
}

func readTitles(row indexKeyRow, read []model.IndexEntry) string {
	nums := append([]string{row.Number}, row.Range...)
	var out []string
	for _, e := range read {
		for _, n := range nums {
			if numberNorm(e.Number) == numberNorm(n) {
				out = append(out, fmt.Sprintf("%s %q", e.Number, e.Title))
				break
			}
		}
	}
	return fmt.Sprint(out)
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// buildCorpusSet builds the model of one corpus file as the review does.
func buildCorpusSet(path string) (*model.Set, error) {
	pages, err := corpusPages(path)
	if err != nil {
		return nil, err
	}
	return model.Build(context.Background(), []model.Source{{ID: path, Pages: pages}})
}

// corpusPages extracts every page of a corpus file.
func corpusPages(path string) ([]pdftext.Page, error) {
	ctx := context.Background()
	doc, err := pdftext.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	pages := make([]pdftext.Page, doc.NumPages())
	for n := range pages {
		p, err := doc.Page(ctx, n+1)
		if err != nil {
			return nil, err
		}
		pages[n] = *p
	}
	return pages, nil
}
