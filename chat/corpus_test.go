package chat_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

// TestCorpusAnswers asks a real construction set (US VA finish plans)
// questions whose answers were read off the sheets by hand.
func TestCorpusAnswers(t *testing.T) {
	ix, res := corpusIndex(t, "us_va_stcloud_bldg28_renovation_cds.pdf")
	if len(res.ChatIndex) == 0 || len(ix.Pages) != 7 {
		t.Fatalf("index of %d bytes, %d pages", len(res.ChatIndex), len(ix.Pages))
	}
	// The findings answer names what the review found on AF600, whatever
	// the rules of the day find there.
	lowOnAF600 := "no low findings"
	for _, f := range res.Findings {
		if f.Severity == "low" && f.Sheet.SheetNumber == "AF600" {
			lowOnAF600 = f.Title
			break
		}
	}
	for _, tc := range []struct {
		question, want string
		page           int
	}{
		{"How is the ceiling height measured?", "CEILING HEIGHTS ARE MEASURED FROM FINISH FLOOR", 1},
		{"What are the low findings on AF600?", lowOnAF600, 0},
		{"What is the capital of France?", chat.NotSaid, 0},
	} {
		a := ix.Answer(tc.question, nil)
		if !strings.Contains(a.Answer, tc.want) {
			t.Errorf("%q: answer %q lacks %q", tc.question, a.Answer, tc.want)
		}
		for _, c := range a.Citations {
			if pi := ix.PageIndex(c.FileID, c.Page); !ix.Verify(pi, c.Excerpt) {
				t.Errorf("%q: citation %+v is not text of its page", tc.question, c)
			}
		}
		if tc.page > 0 && (len(a.Citations) == 0 || a.Citations[0].Page != tc.page || a.Citations[0].SheetNumber != "AF101") {
			t.Errorf("%q: citations %+v, want first on page %d (AF101)", tc.question, a.Citations, tc.page)
		}
		if tc.want == chat.NotSaid && len(a.Citations) != 0 {
			t.Errorf("%q: citations %+v with no answer", tc.question, a.Citations)
		}
	}
}
