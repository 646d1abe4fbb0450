package model_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"planreview/scan/model"
	"planreview/scan/pdftext"
)

// The labelled key of the seal blocks in the corpus: written by looking at
// the rendered title blocks before the model's seal reading ran.
const corpusSealKey = "../testdata/corpus-seals.json"

type sealKeyFile struct {
	File      string `json:"file"`
	SealBlock bool   `json:"sealBlock"`
	SealEmpty *bool  `json:"sealEmpty"`
	Expected  string `json:"expected"`
}

func readSealKey(t *testing.T) []sealKeyFile {
	t.Helper()
	raw, err := os.ReadFile(corpusSealKey)
	if err != nil {
		t.Fatal(err)
	}
	var key struct {
		Schema string        `json:"schema"`
		Files  []sealKeyFile `json:"files"`
	}
	if err := json.Unmarshal(raw, &key); err != nil || key.Schema != "corpus-seals-v1" {
		t.Fatalf("%s: not a corpus-seals-v1 key (%v)", corpusSealKey, err)
	}
	return key.Files
}

// TestCorpusSealBlocks scores the seal blocks the model reads against the
// key, per file: a file the key gives a seal block must have one read
// (empty or filled as the key says) on its sheets with a title block, or
// "could not read" where the key says the text cannot be read; a file
// without one must have none read as empty. An empty block read where the
// key has none, or where the key's is filled, is a false empty: the one
// mistake a check built on it could turn into a wrong finding, so none is
// allowed.
func TestCorpusSealBlocks(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("corpus not present")
	}
	if testing.Short() {
		t.Skip("reads the whole corpus")
	}
	key := readSealKey(t)
	agree, falseEmpty := 0, 0
	for _, kf := range key {
		set, err := buildCorpusSet(filepath.Join(corpusDir, kf.File))
		if errors.Is(err, pdftext.ErrNotPDF) {
			agree++
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", kf.File, err)
		}
		counts := map[model.SealState]int{}
		for _, s := range set.Sheets {
			for _, b := range s.SealBlocks() {
				counts[b.State]++
				if testing.Verbose() && b.State != model.SealUnreadable || b.Reason != "the page's text was not read in full" {
					t.Logf("  %s p%d: %s %q box %.0f,%.0f-%.0f,%.0f words %d images %d ink %d %s",
						kf.File, s.Page.Number, b.State, b.Caption, b.Box.X0, b.Box.Y0, b.Box.X1, b.Box.Y1,
						len(b.ContentWords), len(b.Images), b.InkCells, b.Reason)
				}
			}
		}
		var ok bool
		switch {
		case kf.Expected == "unreadable":
			ok = counts[model.SealEmpty] == 0 && counts[model.SealFilled] == 0
		case !kf.SealBlock:
			ok = counts[model.SealEmpty] == 0
		case kf.SealEmpty != nil && *kf.SealEmpty:
			ok = counts[model.SealEmpty] > 0 && counts[model.SealFilled] == 0
		default:
			ok = counts[model.SealFilled] > 0 && counts[model.SealEmpty] == 0
		}
		if ok {
			agree++
		}
		wrongEmpty := counts[model.SealEmpty] > 0 && (!kf.SealBlock || kf.SealEmpty == nil || !*kf.SealEmpty)
		if wrongEmpty {
			falseEmpty++
		}
		t.Logf("%-62s key block=%-5v empty=%-5v read empty %2d filled %2d unreadable %2d agree=%v",
			kf.File, kf.SealBlock, kf.SealEmpty != nil && *kf.SealEmpty, counts[model.SealEmpty], counts[model.SealFilled], counts[model.SealUnreadable], ok)
	}
	t.Logf("TOTAL seal blocks: %d of %d files agree with the key, %d false empty", agree, len(key), falseEmpty)
	if falseEmpty > 0 {
		t.Errorf("%d files with a seal block read as empty that the key says is not", falseEmpty)
	}
}
