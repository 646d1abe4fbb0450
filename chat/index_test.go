package chat_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"planreview/chat"
)

func TestEncodeRoundTrip(t *testing.T) {
	ix := testIndex(true)
	raw, err := ix.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := chat.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Pages, ix.Pages) || !reflect.DeepEqual(back.Findings, ix.Findings) || !reflect.DeepEqual(back.Facts, ix.Facts) || len(back.Units) != len(ix.Units) {
		t.Fatalf("round trip changed the index")
	}
	for _, q := range []string{"riser height", "occupancy group", "what are the high findings?", "capital of France"} {
		if a, b := ix.Answer(q, nil), back.Answer(q, nil); !reflect.DeepEqual(a, b) {
			t.Errorf("%q: %+v after decoding, %+v before", q, b, a)
		}
	}
	for _, bad := range [][]byte{nil, []byte("PRCI"), []byte("XXXX\x01abc"), append(raw[:len(raw)/2:len(raw)/2], 0)} {
		if _, err := chat.Decode(bad); err == nil {
			t.Errorf("Decode(%d bytes) accepted a broken index", len(bad))
		}
	}
}

// TestDecodeFormat1 reads an index stored in format 1 (written before
// format 2, by the pipeline on a generated set with findings): it answers
// as the same index in the current format does, and writing it again gives the same
// bytes.
func TestDecodeFormat1(t *testing.T) {
	v1, err := os.ReadFile(filepath.Join("testdata", "index-v1.prci"))
	if err != nil {
		t.Fatal(err)
	}
	if v1[4] != 1 {
		t.Fatalf("fixture is format %d, want 1", v1[4])
	}
	old, err := chat.Decode(v1)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := old.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if v2[4] != 3 || len(v2) >= len(v1) {
		t.Errorf("re-encoded as format %d in %d bytes (format 1: %d)", v2[4], len(v2), len(v1))
	}
	back, err := chat.Decode(v2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Pages, old.Pages) || !reflect.DeepEqual(back.Units, old.Units) || !reflect.DeepEqual(back.Findings, old.Findings) {
		t.Fatal("format 2 holds another index than format 1")
	}
	again, err := back.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, v2) { // same postings: they are all encoded
		t.Error("the index read from format 2 encodes differently from the one read from format 1")
	}
	if len(old.Findings) == 0 || len(old.Units) < 100 {
		t.Fatalf("fixture too small: %d findings, %d units", len(old.Findings), len(old.Units))
	}
	for _, q := range []string{"What are the high findings?", "What is the stair riser height?", "Which sheets show the door schedule?",
		"What is the occupancy group?", "What is the capital of France?"} {
		if a, b := old.Answer(q, nil), back.Answer(q, nil); !reflect.DeepEqual(a, b) {
			t.Errorf("%q: %+v from format 2, %+v from format 1", q, b, a)
		}
	}
}

func TestVerifyExcerpts(t *testing.T) {
	ix := testIndex(false)
	for _, tc := range []struct {
		page    int
		excerpt string
		ok      bool
	}{
		{0, "STAIR RISER HEIGHT 7 3/4 INCH", true},
		{0, "MAXIMUM. 3. GUARD HEIGHT", true}, // across a line break
		{0, "GENERAL NOTES … GUARD HEIGHT 36", true},
		{1, "OCCUPANCY GROUP: R-3 | CONSTRUCTION TYPE: V-B", true},
		{0, "OCCUPANCY GROUP: R-3", false}, // on the other page
		{0, "STAIR RISER HEIGHT 8 INCH", false},
		{0, "", false},
		{5, "GENERAL NOTES", false},
	} {
		if got := ix.Verify(tc.page, tc.excerpt); got != tc.ok {
			t.Errorf("Verify(%d, %q) = %t, want %t", tc.page, tc.excerpt, got, tc.ok)
		}
	}
}

func TestBuiltinAnswers(t *testing.T) {
	ix := testIndex(false)
	for _, tc := range []struct {
		question, want string
		cites          int
	}{
		{"What are the high findings on A0.1?", "The review has 1 high finding on A0.1: (1) Riser height over the limit [high, sheet A0.1 (GENERAL NOTES), page 1].", 1},
		{"Any low findings?", "The review has no low findings.", 0},
		{"What is the capital of France?", chat.NotSaid, 0},
		{"?", chat.NotSaid, 0},
	} {
		a := ix.Answer(tc.question, nil)
		if a.Answer != tc.want || len(a.Citations) != tc.cites {
			t.Errorf("%q:\n got  %q (%d citations)\n want %q (%d)", tc.question, a.Answer, len(a.Citations), tc.want, tc.cites)
		}
	}
	code := ix.Answer("Which occupancy and construction type does the code analysis state?", nil)
	for _, want := range []string{"Sheet A0.0 (CODE ANALYSIS), page 2", "OCCUPANCY GROUP: R-3", "CONSTRUCTION TYPE: V-B"} {
		if !strings.Contains(code.Answer, want) || len(code.Citations) == 0 {
			t.Errorf("code analysis answer %q lacks %q", code.Answer, want)
		}
	}
	// A follow-up with words of its own is answered from them alone.
	a := ix.Answer("and the maximum?", []chat.Message{{Role: "user", Content: "What is the stair riser height?"}, {Role: "assistant", Content: "…"}})
	if len(a.Citations) == 0 || a.Citations[0].SheetNumber != "A0.1" {
		t.Errorf("follow-up: %+v", a)
	}
}

func TestHeldTopicsAreSaid(t *testing.T) {
	ix := chat.Build(nil, nil, []string{"life-safety.stairs"})
	a := ix.Answer("What are the findings?", nil)
	if want := "The review has no findings. Findings on life-safety.stairs are withheld until certified local law covers them."; a.Answer != want {
		t.Errorf("answer %q, want %q", a.Answer, want)
	}
}

// FuzzDecode feeds Decode damaged stored indexes: it must return an error
// or an index that answers, never panic or allocate without bound.
func FuzzDecode(f *testing.F) {
	raw, err := testIndex(true).Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add([]byte("PRCI\x01"))
	f.Add([]byte("PRCI\x02"))
	if v1, err := os.ReadFile(filepath.Join("testdata", "index-v1.prci")); err == nil {
		f.Add(v1)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := chat.Decode(data)
		if err != nil {
			return
		}
		for _, q := range []string{"riser height", "what are the high findings on A0.1?", "which sheets show notes?"} {
			a := ix.Answer(q, nil)
			for _, c := range a.Citations {
				if pi := ix.PageIndex(c.FileID, c.Page); !ix.Verify(pi, c.Excerpt) {
					t.Fatalf("citation %+v not on its page", c)
				}
			}
		}
	})
}
