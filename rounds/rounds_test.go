package rounds

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// synthSet is a set of n busy sheets (words drawn from a drawing's
// vocabulary, a title block shared by every sheet) and three findings per
// sheet, as a round stores them.
func synthSet(rng *rand.Rand, n, words int) ([]Sheet, []Finding) {
	vocab := make([]string, 6000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("W%04X", rng.IntN(1<<16))
	}
	block := []string{"ACME", "ARCHITECTS", "PROJECT", "NO.", "2026-117", "DRAWN", "CHECKED", "SCALE", "DATE", "SHEET", "MAIN", "STREET", "LIBRARY"}
	var sheets []Sheet
	var findings []Finding
	for i := 0; i < n; i++ {
		s := Sheet{FileID: "file_1", Page: i + 1, Number: fmt.Sprintf("A-%03d", 101+i), Title: fmt.Sprintf("PLAN LEVEL %d", i+1)}
		for j := 0; j < words; j++ {
			s.Words = append(s.Words, Word{Text: vocab[rng.IntN(len(vocab))], Left: rng.Float32() * 0.8, Top: rng.Float32() * 0.8, Width: 0.03, Height: 0.01})
		}
		for j, w := range block {
			s.Words = append(s.Words, Word{Text: w, Left: 0.85, Top: 0.8 + float32(j)*0.01, Width: 0.05, Height: 0.008})
		}
		s.Words = append(s.Words, Word{Text: s.Number, Left: 0.9, Top: 0.95, Width: 0.04, Height: 0.01})
		sheets = append(sheets, s)
		for k := 0; k < 3; k++ {
			w := rng.IntN(words - 4)
			ev := s.Words[w].Text + " " + s.Words[w+1].Text + " " + s.Words[w+2].Text + " " + s.Words[w+3].Text
			findings = append(findings, Finding{RuleID: fmt.Sprintf("rule-%d", k), Sheet: i, Evidence: ev})
		}
	}
	return sheets, findings
}

// revise makes round 2 of a set: sheets reordered, some renumbered, some
// with a few words edited (one of them in a finding's evidence), two
// removed and two inserted. It returns round 2 and, for every round-1
// finding, the round-2 finding it is (-1 when its sheet was removed).
func revise(rng *rand.Rand, sheets []Sheet, findings []Finding) ([]Sheet, []Finding, []int, map[int]bool) {
	n := len(sheets)
	order := rng.Perm(n)
	var next []Sheet
	at := map[int]int{} // old sheet -> new index
	revised := map[int]bool{}
	for _, old := range order[2:] {
		s := sheets[old]
		s.Words = slices.Clone(s.Words)
		s.Page = len(next) + 1
		switch {
		case old%10 == 3: // renumbered
			s.Number = "X-" + s.Number
			s.Words[len(s.Words)-1].Text = s.Number
			revised[len(next)] = true
		case old%10 == 7: // a few words changed
			for k := 0; k < 5; k++ {
				s.Words[rng.IntN(len(s.Words)-20)].Text = "REVISED"
			}
			revised[len(next)] = true
		}
		s.digest, s.set = "", nil
		at[old] = len(next)
		next = append(next, s)
	}
	extra, _ := synthSet(rng, 2, len(sheets[0].Words)-14)
	for _, s := range extra {
		s.Number = "N-" + s.Number
		s.Page = len(next) + 1
		next = append(next, s)
	}
	var nextF []Finding
	want := make([]int, len(findings))
	for i, f := range findings {
		ni, ok := at[f.Sheet]
		if !ok {
			want[i] = -1
			continue
		}
		g := Finding{RuleID: f.RuleID, Sheet: ni, Evidence: f.Evidence}
		if i%9 == 0 { // a small edit near the evidence
			g.Evidence += " TYP."
		}
		want[i] = len(nextF)
		nextF = append(nextF, g)
	}
	// Round 2 lists its findings in its own order.
	perm := rng.Perm(len(nextF))
	shuffled := make([]Finding, len(nextF))
	moved := make([]int, len(nextF))
	for i, p := range perm {
		shuffled[p] = nextF[i]
		moved[i] = p
	}
	for i, w := range want {
		if w >= 0 {
			want[i] = moved[w]
		}
	}
	return next, shuffled, want, revised
}

func TestMatchingAcrossRounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	prev, prevF := synthSet(rng, 40, 400)
	next, nextF, want, revised := revise(rng, prev, prevF)

	sm := MatchSheets(prev, next)
	if len(sm.Removed) != 2 || len(sm.Added) != 2 {
		t.Fatalf("removed %v added %v, want two each", sm.Removed, sm.Added)
	}
	for _, p := range sm.Pairs {
		if prev[p.Prev].Title != next[p.Next].Title {
			t.Errorf("%s paired with %s", prev[p.Prev].Title, next[p.Next].Title)
		}
		if p.Revised != revised[p.Next] {
			t.Errorf("sheet %s revised = %v, want %v", next[p.Next].Number, p.Revised, revised[p.Next])
		}
		if p.Renumbered != (prev[p.Prev].Number != next[p.Next].Number) {
			t.Errorf("sheet %s renumbered = %v", next[p.Next].Number, p.Renumbered)
		}
	}
	fm := MatchFindings(sm, prevF, nextF)
	got := make([]int, len(prevF))
	for i := range got {
		got[i] = -1
	}
	for _, p := range fm.Pairs {
		got[p.Prev] = p.Next
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("finding %d (%s on %s): matched %d, want %d", i, prevF[i].RuleID, prev[prevF[i].Sheet].Number, got[i], want[i])
		}
	}
	if len(fm.New) != 0 {
		t.Errorf("new %v, want none: round 2 adds no finding", fm.New)
	}
}

func TestEvidenceOfFewWordsMustAgree(t *testing.T) {
	sm := MatchSheets([]Sheet{{Number: "G-001", Words: []Word{{Text: "INDEX"}}}}, []Sheet{{Number: "G-001", Words: []Word{{Text: "INDEX"}}}})
	fm := MatchFindings(sm, []Finding{{RuleID: "r", Sheet: 0, Evidence: "S-001"}}, []Finding{{RuleID: "r", Sheet: 0, Evidence: "S-002"}})
	if len(fm.Pairs) != 0 {
		t.Fatalf("S-001 and S-002 matched as one finding")
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sheets, _ := synthSet(rng, 3, 50)
	sheets[1].Revision = "A 2026-01-02 ISSUED FOR PERMIT"
	got, err := Decode(Encode(sheets))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[1].Revision != sheets[1].Revision || got[2].Words[7].Text != sheets[2].Words[7].Text ||
		abs32(got[0].Words[3].Left-sheets[0].Words[3].Left) > 1e-4 {
		t.Fatalf("round trip differs")
	}
	for _, bad := range [][]byte{nil, {9}, Encode(sheets)[:40]} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("Decode(%x) read a corrupt encoding", bad)
		}
	}
}

func TestChangesAreRegionsOfChangedWords(t *testing.T) {
	prev := Sheet{Words: []Word{{Text: "?", Left: 0.1, Top: 0.1, Width: 0.01, Height: 0.01}, {Text: "GROUNDING", Left: 0.12, Top: 0.1, Width: 0.05, Height: 0.01},
		{Text: "ELECTRODE", Left: 0.18, Top: 0.1, Width: 0.05, Height: 0.01}}}
	next := Sheet{Words: []Word{{Text: "GROUNDING", Left: 0.1201, Top: 0.1, Width: 0.05, Height: 0.01}, {Text: "ELECTRODE", Left: 0.18, Top: 0.1, Width: 0.05, Height: 0.01},
		{Text: "#6", Left: 0.5, Top: 0.5, Width: 0.02, Height: 0.01}, {Text: "CU", Left: 0.525, Top: 0.5, Width: 0.02, Height: 0.01}}}
	ch := Changes(&prev, &next)
	if len(ch) != 2 || ch[0].Kind != ChangeAdded || ch[1].Kind != ChangeRemoved || ch[0].BBox.Width < 0.04 {
		t.Fatalf("changes %+v, want the added '#6 CU' as one region and the removed '?'", ch)
	}
}

func abs32(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}

// BenchmarkCompare100Sheets compares two rounds of a 100-sheet set of busy
// sheets (1,500 words each, 300 findings) as GET /compare does: decode
// both rounds' stored sheets, match sheets and findings, and draw the
// changed regions of every revised sheet.
func BenchmarkCompare100Sheets(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	prev, prevF := synthSet(rng, 100, 1500)
	next, nextF, _, _ := revise(rng, prev, prevF)
	prevRaw, nextRaw := Encode(prev), Encode(next)
	b.SetBytes(int64(len(prevRaw) + len(nextRaw)))
	b.ResetTimer()
	for b.Loop() {
		p, err := Decode(prevRaw)
		if err != nil {
			b.Fatal(err)
		}
		n, err := Decode(nextRaw)
		if err != nil {
			b.Fatal(err)
		}
		sm := MatchSheets(p, n)
		MatchFindings(sm, prevF, nextF)
		for _, pair := range sm.Pairs {
			if pair.Revised {
				Changes(&p[pair.Prev], &n[pair.Next])
			}
		}
	}
}

// BenchmarkDecode100Sheets is the reference beside BenchmarkCompare100Sheets:
// reading the two stored rounds alone, the floor of any comparison.
func BenchmarkDecode100Sheets(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	prev, prevF := synthSet(rng, 100, 1500)
	next, _, _, _ := revise(rng, prev, prevF)
	prevRaw, nextRaw := Encode(prev), Encode(next)
	b.SetBytes(int64(len(prevRaw) + len(nextRaw)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Decode(prevRaw); err != nil {
			b.Fatal(err)
		}
		if _, err := Decode(nextRaw); err != nil {
			b.Fatal(err)
		}
	}
}
