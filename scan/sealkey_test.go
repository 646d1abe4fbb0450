package scan_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planreview/scan"
)

// TestCorpusSealKey scores the seal check on the corpus against
// testdata/corpus-seals.json, a key written by looking at every file's
// title blocks before the engine read any seal block. Per file the key
// expects a finding (a set issued for permit whose seal blocks are empty,
// naming the sheets), silence, or nothing at all because the pages cannot
// be read. A finding on a file the key keeps silent is a false finding and
// fails the test (precision first); a file the key expects a finding on and
// the review does not report is a miss, counted against recall.
func TestCorpusSealKey(t *testing.T) {
	corpus := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("corpus not present: ../../shared/corpus")
	}
	if testing.Short() {
		t.Skip("reviews the whole corpus")
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "corpus-seals.json"))
	if err != nil {
		t.Fatal(err)
	}
	var key struct {
		Schema string `json:"schema"`
		Files  []struct {
			File        string   `json:"file"`
			Expected    string   `json:"expected"`
			EmptySheets []string `json:"emptySheets"`
		} `json:"files"`
	}
	if err := json.Unmarshal(raw, &key); err != nil || key.Schema != "corpus-seals-v1" {
		t.Fatalf("not a corpus-seals-v1 key (%v)", err)
	}
	pipeline, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	var findings, trueFindings, expected, found int
	for _, kf := range key.Files {
		res, err := pipeline.Review(context.Background(), []scan.Input{{FileID: "file_1", Name: kf.File, Path: filepath.Join(corpus, kf.File)}}, nopProgress{})
		if err != nil {
			if kf.Expected == "unreadable" {
				continue
			}
			t.Fatalf("%s: %v", kf.File, err)
		}
		var got []string
		for _, f := range res.Findings {
			if f.RuleID == "completeness-seal-block-empty" {
				got = append(got, f.Rationale)
			}
		}
		findings += len(got)
		if kf.Expected == "finding" {
			expected++
			if len(got) == 1 && namesAll(got[0], kf.EmptySheets) {
				found++
				trueFindings++
			}
		}
		t.Logf("%-62s expected %-10s findings %d %s", kf.File, kf.Expected, len(got), strings.Join(got, " | "))
	}
	t.Logf("TOTAL seal findings %d, true %d; sets with an empty seal block on a permit issue found %d of %d", findings, trueFindings, found, expected)
	if trueFindings != findings {
		t.Errorf("%d seal findings the key does not hold", findings-trueFindings)
	}
	if found < expected {
		t.Errorf("found %d of the %d sets the key expects a finding on", found, expected)
	}
}

// namesAll reports whether the rationale names every sheet.
func namesAll(rationale string, sheets []string) bool {
	for _, s := range sheets {
		if !strings.Contains(rationale, s) {
			return false
		}
	}
	return true
}
