package chat_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"planreview/chat"
	"planreview/scan"
)

type quiet struct{}

func (quiet) Stage(string)   {}
func (quiet) Pages(int, int) {}

var (
	corpusMu    sync.Mutex
	corpusCache = map[string]*chat.Index{}
)

// corpusIndex reviews a corpus file with the real pipeline and returns its
// decoded chat index; the test skips when the corpus is absent.
func corpusIndex(t testing.TB, name string) (*chat.Index, scan.Result) {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "corpus", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("corpus file %s absent", name)
	}
	p, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Review(context.Background(), []scan.Input{{FileID: "file_test", Name: name, Path: path}}, quiet{})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := chat.Decode(res.ChatIndex)
	if err != nil {
		t.Fatal(err)
	}
	return ix, res
}

func TestCorpusAnswersPrint(t *testing.T) {
	for _, name := range []string{"ca_calgary_sample_dp_bp_house_26p.pdf", "us_va_stcloud_bldg28_renovation_cds.pdf"} {
		ix, res := corpusIndex(t, name)
		t.Logf("%s: %d pages %d units %d findings, index %d bytes", name, len(ix.Pages), len(ix.Units), len(ix.Findings), len(res.ChatIndex))
		for _, q := range []string{
			"which occupancy and construction type does the code analysis state?",
			"what is the stair riser height on the section?",
			"which sheets show the wildfire notes?",
			"what are the high findings?",
			"what findings are there?",
			"what is the capital of France",
			"what is the roof slope?",
			"what is the project address?",
			"which sheets show the window schedule?",
			"what is the finish of the floor in room 101?",
			"who is the architect?",
			"which building code applies to the construction?",
			"how many risers does the main stair have?",
			"what is the municipal address?",
			"what are the medium findings?",
			"what are the low findings on AF600?",
			"what is the ceiling height?",
			"what insulation is used in the attic?",
		} {
			a := ix.Answer(q, nil)
			t.Logf("Q: %s\nA: %s\n   %+v", q, a.Answer, a.Citations)
		}
	}
}

func TestCorpusDebug(t *testing.T) {
	ix, _ := corpusIndex(t, os.Getenv("CORPUS"))
	for _, f := range ix.Findings[:min(6, len(ix.Findings))] {
		t.Logf("%s page %d anchors %q", f.Title, f.Page, f.Anchors)
	}
	for i, p := range ix.Pages {
		if i < 3 {
			for _, l := range p.Lines {
				t.Logf("p%d: %s", p.Page, l)
			}
		}
	}
}
