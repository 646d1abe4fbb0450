package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"planreview/scan/model"
	"planreview/scan/pdftext"
	"planreview/scan/sheets"
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
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("corpus folder absent")
	}
	raw, err := os.ReadFile(corpusIndexKey)
	if err != nil {
		t.Fatal(err)
	}
	var key struct {
		Files []indexKeyFile `json:"files"`
	}
	if err := json.Unmarshal(raw, &key); err != nil {
		t.Fatal(err)
	}
	var total indexScore
	t.Logf("%-66s %5s %6s %6s %7s %8s", "file", "rows", "found", "title", "missed", "invented")
	for _, kf := range key.Files {
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
	t.Logf("TOTAL index rows found %s (%.1f%%), title wrong %d, missed %d, invented %d",
		frac(total.found, total.rows), pct(total.found, total.rows), total.titleWrong, total.missed, total.invented)
	if pct(total.found, total.rows) < 100*targetIndexRows {
		t.Errorf("index rows found %s (%.1f%%), target %.0f%%", frac(total.found, total.rows), pct(total.found, total.rows), 100*targetIndexRows)
	}
	if total.invented > 0 {
		t.Errorf("%d index rows invented, target none", total.invented)
	}
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
		var read []sheets.IndexEntry
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
func matchIndexRow(row indexKeyRow, read []sheets.IndexEntry, used []bool) rowMatch {
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

func readTitles(row indexKeyRow, read []sheets.IndexEntry) string {
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
	ctx := context.Background()
	doc, err := pdftext.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	src := model.Source{ID: path, Pages: make([]pdftext.Page, doc.NumPages())}
	for n := range src.Pages {
		p, err := doc.Page(ctx, n+1)
		if err != nil {
			return nil, err
		}
		src.Pages[n] = *p
	}
	return model.Build(ctx, []model.Source{src})
}
