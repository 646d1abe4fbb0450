package chat_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"planreview/chat"
)

// The share of the corpus questions the built-in answerer (no model) must
// get right over all files (the target), and the floor for each
// file, so a set whose reading collapses fails even while the others
// carry the total. Measured 2026-11-27: 104/104.
const (
	minCorpusAccuracy = 0.90
	minFileAccuracy   = 0.80
)

// TestCorpusQuestionSets asks each corpus file of testdata/questions the
// questions written for it by reading its sheets. A question is right when
// the answer holds one of its expected texts (case and spacing aside), at
// least one citation is on the expected page (when one is given), and
// every citation is text of its page; "NOTSAID" expects exactly "The plans
// do not say." with no citation. It prints each file's accuracy.
func TestCorpusQuestionSets(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "questions", "*.tsv"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no question sets: %v", err)
	}
	total, right := 0, 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".tsv") + ".pdf"
		qs := readQuestions(t, file)
		if len(qs) < 15 {
			t.Errorf("%s: %d questions, want at least 15", file, len(qs))
		}
		ix, _ := corpusIndex(t, name)
		n := 0
		for _, q := range qs {
			a := ix.Answer(q.question, nil)
			if why := judge(ix, q, a); why != "" {
				t.Logf("%s: %q: %s\n    answer: %s", name, q.question, why, a.Answer)
				continue
			}
			n++
		}
		acc := float64(n) / float64(len(qs))
		fmt.Printf("chat questions %-55s %2d/%2d right (%.0f%%)\n", name, n, len(qs), 100*acc)
		if acc < minFileAccuracy {
			t.Errorf("%s: %.0f%% of the questions right, want at least %.0f%%", name, 100*acc, 100*minFileAccuracy)
		}
		total += len(qs)
		right += n
	}
	all := float64(right) / float64(total)
	fmt.Printf("chat questions %-55s %2d/%2d right (%.1f%%)\n", "all", right, total, 100*all)
	if all < minCorpusAccuracy {
		t.Errorf("%.1f%% of all questions right, want at least %.0f%%", 100*all, 100*minCorpusAccuracy)
	}
}

type corpusQuestion struct {
	question string
	want     []string
	page     int
}

func readQuestions(t *testing.T, path string) []corpusQuestion {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusQuestion
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.Split(text, "\t")
		if len(parts) != 3 {
			t.Fatalf("%s:%d: want question, expected and page separated by tabs", path, line)
		}
		page, err := strconv.Atoi(parts[2])
		if err != nil {
			t.Fatalf("%s:%d: page %q", path, line, parts[2])
		}
		out = append(out, corpusQuestion{question: parts[0], want: strings.Split(parts[1], "|"), page: page})
	}
	return out
}

// judge says what is wrong with an answer ("" when it is right).
func judge(ix *chat.Index, q corpusQuestion, a chat.Answer) string {
	for _, c := range a.Citations {
		if pi := ix.PageIndex(c.FileID, c.Page); !ix.Verify(pi, c.Excerpt) {
			return fmt.Sprintf("citation %+v is not text of its page", c)
		}
	}
	if len(q.want) == 1 && q.want[0] == "NOTSAID" {
		if a.Answer != chat.NotSaid || len(a.Citations) != 0 {
			return "want no answer"
		}
		return ""
	}
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	found := false
	for _, w := range q.want {
		if strings.Contains(norm(a.Answer), norm(w)) {
			found = true
		}
	}
	if !found {
		return fmt.Sprintf("lacks %q", q.want)
	}
	if q.page > 0 {
		for _, c := range a.Citations {
			if c.Page == q.page {
				return ""
			}
		}
		return fmt.Sprintf("no citation on page %d (%d citations)", q.page, len(a.Citations))
	}
	return ""
}
