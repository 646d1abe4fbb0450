package chat_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"planreview/chat"
	"planreview/scan"
	"planreview/scan/plangen"
)

// generatedIndex reviews a generated residential set with the real
// pipeline and returns its decoded chat index.
func generatedIndex(t *testing.T, compliant bool) (*chat.Index, scan.Result) {
	t.Helper()
	set, err := plangen.Generate(plangen.Options{Variant: plangen.VariantResidential, Compliant: compliant, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var inputs []scan.Input
	for i, f := range set.Files {
		path := filepath.Join(t.TempDir(), f.Name)
		if err := os.WriteFile(path, f.PDF, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, scan.Input{FileID: "file_" + string(rune('a'+i)), Name: f.Name, Path: path})
	}
	p, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Review(context.Background(), inputs, quiet{})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := chat.Decode(res.ChatIndex)
	if err != nil {
		t.Fatal(err)
	}
	return ix, res
}

func checkCitations(t *testing.T, ix *chat.Index, q string, a chat.Answer) {
	t.Helper()
	for _, c := range a.Citations {
		if pi := ix.PageIndex(c.FileID, c.Page); !ix.Verify(pi, c.Excerpt) {
			t.Errorf("%q: citation %+v is not text of its page", q, c)
		}
	}
}

// TestGeneratedSetQuestions asks a generated set (cover: "OCCUPANCY: R-3
// SINGLE FAMILY DWELLING", a sheet index naming A-401, which is not in the
// set) what a partner asks: project data from the typed facts, the review
// from the findings, and follow-ups that carry the question's intent but
// never its words.
func TestGeneratedSetQuestions(t *testing.T) {
	ix, res := generatedIndex(t, false)
	high := 0
	for _, f := range res.Findings {
		if f.Severity == "high" {
			high++
		}
	}
	if high < 2 {
		t.Fatalf("generated set has %d high findings, want several", high)
	}
	ask := func(q string, history ...string) chat.Answer {
		var h []chat.Message
		for _, c := range history {
			h = append(h, chat.Message{Role: "user", Content: c}, chat.Message{Role: "assistant", Content: "…"})
		}
		a := ix.Answer(q, h)
		checkCitations(t, ix, q, a)
		return a
	}
	for _, tc := range []struct {
		question string
		history  []string
		want     []string
		not      []string
		sheet    string // the first citation's sheet
	}{
		{question: "What occupancy group is this?", want: []string{"R-3"}, sheet: "G-001"},
		{question: "Is the house sprinklered?", want: []string{"NO"}, sheet: "G-001"},
		{question: "Which codes apply?", want: []string{"IRC"}, sheet: "G-001"},
		{question: "What is the scale of sheet A-101?", want: []string{`1/4" = 1'-0"`}, sheet: "A-101"},
		{question: "What is the title of sheet A-201?", want: []string{"STAIR SECTION"}, sheet: "A-201"},
		{question: "Summarize the critical findings", want: []string{"The review has"}, not: []string{"summar"}},
		{question: "What are the high findings?", history: []string{"Summarize the critical findings"},
			want: []string{"The review has " + strconv.Itoa(high) + " high findings"}, not: []string{"summar", "critical"}},
		{question: "Which sheets are missing?", want: []string{"A-401"}, sheet: "G-001"},
		{question: "and the medium ones?", history: []string{"What are the high findings?"}, want: []string{"medium finding"}, not: []string{"high"}},
		// The earlier turn's words ("occupancy", "group") do not leak:
		// this set states no construction type.
		{question: "and the construction type?", history: []string{"What occupancy group is this?"}, not: []string{"R-3", "OCCUPANCY"}},
		{question: "What is the capital of France?", history: []string{"What occupancy group is this?"}, want: []string{chat.NotSaid}},
	} {
		a := ask(tc.question, tc.history...)
		for _, w := range tc.want {
			if !strings.Contains(a.Answer, w) {
				t.Errorf("%q: answer %q lacks %q", tc.question, a.Answer, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(strings.ToLower(a.Answer), strings.ToLower(w)) {
				t.Errorf("%q: answer %q has %q", tc.question, a.Answer, w)
			}
		}
		if tc.sheet != "" && (len(a.Citations) == 0 || a.Citations[0].SheetNumber != tc.sheet) {
			t.Errorf("%q: citations %+v, want the first on %s", tc.question, a.Citations, tc.sheet)
		}
	}

	// The compliant twin states its construction type: the follow-up
	// finds it on the cover.
	twin, _ := generatedIndex(t, true)
	a := twin.Answer("and the construction type?", []chat.Message{{Role: "user", Content: "What occupancy group is this?"}})
	if !strings.Contains(a.Answer, "V-B") || strings.Contains(a.Answer, "R-3") || len(a.Citations) == 0 {
		t.Errorf("follow-up on the compliant set: %+v", a)
	}
}

// TestModelGetsFactsAndFindings: with a model configured, the typed facts
// a question asks about and the findings it names are in the model's
// context, and the model's citation of a fact is verified and kept.
func TestModelGetsFactsAndFindings(t *testing.T) {
	ix, _ := generatedIndex(t, false)
	fm := newFakeModel(t, func(req chatRequest) (string, int, time.Duration) {
		return `{"answer": "The cover states occupancy R-3.", "citations": ["P1"]}`, 200, 0
	})
	a, err := fm.model(5*time.Second).Answer(context.Background(), ix, "What occupancy group is this?", nil)
	if err != nil {
		t.Fatal(err)
	}
	user := fm.lastUser()
	if !strings.Contains(user, `"fact":"occupancy"`) || !strings.Contains(user, "R-3") {
		t.Errorf("model context lacks the occupancy fact: %s", user)
	}
	if len(a.Citations) != 1 || a.Citations[0].SheetNumber != "G-001" || !strings.Contains(a.Citations[0].Excerpt, "R-3") {
		t.Errorf("model answer %+v", a)
	}
	checkCitations(t, ix, "occupancy", a)

	fm2 := newFakeModel(t, func(req chatRequest) (string, int, time.Duration) {
		return `{"answer": "A-401 is listed but missing.", "citations": ["F1"]}`, 200, 0
	})
	a, err = fm2.model(5*time.Second).Answer(context.Background(), ix, "Which sheets are missing?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if user := fm2.lastUser(); !strings.Contains(user, "A-401") || strings.Contains(user, "Stair width") {
		t.Errorf("model context for missing sheets: %s", user)
	}
	if len(a.Citations) != 1 || a.Citations[0].SheetNumber != "G-001" {
		t.Errorf("model answer %+v", a)
	}
	checkCitations(t, ix, "missing", a)
}

// TestBlankTitleBlockFields: a real ADU sheet whose title block prints
// "Client:", "Building Designer:" and "Project Address:" with nothing
// filled in. Chat says they are left blank, citing the caption, and never
// offers the caption as the answer; what the sheet does not state at all
// is "The plans do not say."
func TestBlankTitleBlockFields(t *testing.T) {
	ix, _ := corpusIndex(t, "drawingparser_adu_existing_site_plan.pdf")
	for _, tc := range []struct{ question, want, cite string }{
		{"Who is the owner?", "The plans leave the owner blank", "Client:"},
		{"What is the project address?", "The plans leave the project address blank", "Project Address:"},
		{"Who is the building designer?", "The plans leave the designer blank", "Building Designer:"},
		{"What is the construction type?", chat.NotSaid, ""},
		{"Which sheets are missing?", "The review has no missing-sheet or missing-document findings.", ""},
	} {
		a := ix.Answer(tc.question, nil)
		checkCitations(t, ix, tc.question, a)
		if !strings.HasPrefix(a.Answer, tc.want) {
			t.Errorf("%q: answer %q, want %q", tc.question, a.Answer, tc.want)
		}
		if tc.cite != "" && (len(a.Citations) != 1 || a.Citations[0].Excerpt != tc.cite) {
			t.Errorf("%q: citations %+v, want one of %q", tc.question, a.Citations, tc.cite)
		}
		if tc.cite == "" && len(a.Citations) != 0 {
			t.Errorf("%q: citations %+v, want none", tc.question, a.Citations)
		}
	}
}
