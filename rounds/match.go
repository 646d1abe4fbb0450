package rounds

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Sheet matching thresholds. A renumbered sheet keeps nearly all of its
// words (similarity near 1); two different sheets of one set share their
// title block, which is left out of the comparison (see boilerplate), and
// seldom half of the rest.
const (
	minSheetSimilarity = 0.6
	titleBonus         = 0.1
	// A word on more than this share of the sheets (both rounds, at least
	// minSheetsForBoilerplate of them) is the set's boilerplate: title
	// block, firm name, project name.
	boilerplateShare        = 0.5
	minSheetsForBoilerplate = 4
)

// Finding matching: the evidence of a persisting finding shares most of
// its words with the earlier one (a small edit near it changes few).
const minEvidenceSimilarity = 0.6

// SheetPair is a sheet of the previous round and the sheet of the next
// round that is the same sheet.
type SheetPair struct {
	Prev, Next int
	// Renumbered: both print a sheet number and the numbers differ; the
	// pair was matched by title and content.
	Renumbered bool
	Revised    bool
	// WordsChanged, RevisionChanged say why a revised sheet is revised.
	WordsChanged, RevisionChanged bool
}

// SheetMatch pairs the sheets of two rounds.
type SheetMatch struct {
	Pairs   []SheetPair // in the next round's order
	Added   []int       // next-round sheets with no earlier sheet
	Removed []int       // previous-round sheets with no later sheet
	next    map[int]int // prev index -> next index
}

// NextOf is the next round's sheet matched to the previous round's sheet
// i, or -1.
func (m SheetMatch) NextOf(i int) int {
	if n, ok := m.next[i]; ok {
		return n
	}
	return -1
}

// MatchSheets pairs the sheets of two rounds: by sheet number first, then
// the rest by title and content (a renumbered sheet, or pages that print no
// number), never by page index.
func MatchSheets(prev, next []Sheet) SheetMatch {
	for i := range prev {
		prev[i].Prepare()
	}
	for i := range next {
		next[i].Prepare()
	}
	m := SheetMatch{next: map[int]int{}}
	usedPrev := make([]bool, len(prev))
	usedNext := make([]bool, len(next))
	pair := func(a, b int, renumbered bool) {
		usedPrev[a], usedNext[b] = true, true
		m.next[a] = b
		p := SheetPair{Prev: a, Next: b, Renumbered: renumbered}
		p.WordsChanged = prev[a].digest != next[b].digest
		p.RevisionChanged = normText(prev[a].Revision) != normText(next[b].Revision)
		p.Revised = p.WordsChanged || p.RevisionChanged
		m.Pairs = append(m.Pairs, p)
	}

	// By number. A number printed on several pages of a round (a sheet
	// split over two pages, a repeated cover) is paired by content among
	// the pages that print it.
	byKey := map[string][2][]int{}
	for i, s := range prev {
		if s.key != "" {
			e := byKey[s.key]
			e[0] = append(e[0], i)
			byKey[s.key] = e
		}
	}
	for i, s := range next {
		if s.key != "" {
			if e, ok := byKey[s.key]; ok {
				e[1] = append(e[1], i)
				byKey[s.key] = e
			}
		}
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		e := byKey[k]
		if len(e[0]) == 1 && len(e[1]) == 1 {
			pair(e[0][0], e[1][0], false)
			continue
		}
		for _, c := range rankPairs(e[0], e[1], func(a, b int) float64 { return jaccard(prev[a].set, next[b].set) }, 0) {
			if !usedPrev[c.a] && !usedNext[c.b] {
				pair(c.a, c.b, false)
			}
		}
	}

	// By title and content, among what is left.
	var restPrev, restNext []int
	for i := range prev {
		if !usedPrev[i] {
			restPrev = append(restPrev, i)
		}
	}
	for i := range next {
		if !usedNext[i] {
			restNext = append(restNext, i)
		}
	}
	if len(restPrev) > 0 && len(restNext) > 0 {
		common := boilerplate(prev, next)
		content := func(s *Sheet) []uint64 {
			if len(common) == 0 {
				return s.set
			}
			out := make([]uint64, 0, len(s.set))
			for _, h := range s.set {
				if !common[h] {
					out = append(out, h)
				}
			}
			return out
		}
		prevSets := map[int][]uint64{}
		for _, i := range restPrev {
			prevSets[i] = content(&prev[i])
		}
		nextSets := map[int][]uint64{}
		for _, i := range restNext {
			nextSets[i] = content(&next[i])
		}
		score := func(a, b int) float64 {
			// A sheet that prints no words matches nothing by content.
			if len(prevSets[a]) == 0 || len(nextSets[b]) == 0 {
				return 0
			}
			s := jaccard(prevSets[a], nextSets[b])
			if t := normText(prev[a].Title); t != "" && t == normText(next[b].Title) {
				s += titleBonus
			}
			return s
		}
		for _, c := range rankPairs(restPrev, restNext, score, minSheetSimilarity) {
			if !usedPrev[c.a] && !usedNext[c.b] {
				pair(c.a, c.b, prev[c.a].key != "" && next[c.b].key != "" && prev[c.a].key != next[c.b].key)
			}
		}
	}

	m.Removed, m.Added = unused(usedPrev), unused(usedNext)
	slices.SortFunc(m.Pairs, func(a, b SheetPair) int { return a.Next - b.Next })
	return m
}

// boilerplate is the words printed on most sheets of the two rounds (the
// title block's), which say nothing about which sheet a page is.
func boilerplate(prev, next []Sheet) map[uint64]bool {
	total := len(prev) + len(next)
	if total < minSheetsForBoilerplate {
		return nil
	}
	counts := map[uint64]int{}
	for _, set := range [][]Sheet{prev, next} {
		for i := range set {
			for _, h := range set[i].set {
				counts[h]++
			}
		}
	}
	out := map[uint64]bool{}
	for h, n := range counts {
		if float64(n) > boilerplateShare*float64(total) {
			out[h] = true
		}
	}
	return out
}

type candidate struct {
	a, b  int
	score float64
}

// rankPairs scores every pair and returns those at or above min, best
// first; ties go to the pair closest in order, then the earliest.
func rankPairs(as, bs []int, score func(a, b int) float64, min float64) []candidate {
	var out []candidate
	for _, a := range as {
		for _, b := range bs {
			// min 0 ranks every pair (pages of one number); otherwise a
			// pair must score at least min and above nothing.
			s := score(a, b)
			if min == 0 || (s >= min && s > 0) {
				out = append(out, candidate{a, b, s})
			}
		}
	}
	slices.SortStableFunc(out, func(x, y candidate) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		if c := cmp.Compare(abs(x.a-x.b), abs(y.a-y.b)); c != 0 {
			return c
		}
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		return cmp.Compare(x.b, y.b)
	})
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func normText(s string) string {
	f := strings.Fields(s)
	for i, w := range f {
		f[i] = normWord(w)
	}
	return strings.Join(strings.Fields(strings.Join(f, " ")), " ")
}

// Finding is what matching reads of a finding.
type Finding struct {
	RuleID string
	// Sheet indexes the finding's sheet in its round's sheets; -1 for a
	// finding on the set as a whole.
	Sheet    int
	Evidence string // the text of its evidence anchors
}

// FindingPair is a finding of the previous round and the same finding in
// the next one.
type FindingPair struct{ Prev, Next int }

// FindingMatch pairs the findings of two rounds.
type FindingMatch struct {
	Pairs    []FindingPair // in the next round's order
	New      []int         // next-round findings with no earlier one
	Resolved []int         // previous-round findings not found again
}

// MatchFindings pairs findings of two rounds: same rule, on sheets that
// MatchSheets paired (or both on the set as a whole), with evidence whose
// words mostly agree. Among several candidates the most similar wins, then
// the one at the same place in its sheet's order.
func MatchFindings(sm SheetMatch, prev, next []Finding) FindingMatch {
	type group struct{ prev, next []int }
	groups := map[string]*group{}
	keyOf := func(rule string, sheet int) string { return rule + "\x00" + strconv.Itoa(sheet) }
	var order []string
	for i, f := range prev {
		sheet := -1
		if f.Sheet >= 0 {
			if sheet = sm.NextOf(f.Sheet); sheet < 0 {
				continue // its sheet is gone: resolved
			}
		}
		k := keyOf(f.RuleID, sheet)
		if groups[k] == nil {
			groups[k] = &group{}
			order = append(order, k)
		}
		groups[k].prev = append(groups[k].prev, i)
	}
	for i, f := range next {
		k := keyOf(f.RuleID, f.Sheet)
		if g := groups[k]; g != nil {
			g.next = append(g.next, i)
		}
	}
	tokens := func(s string) []string { return strings.Fields(normText(s)) }
	prevTok := make([][]string, len(prev))
	for i := range prev {
		prevTok[i] = tokens(prev[i].Evidence)
	}
	nextTok := make([][]string, len(next))
	for i := range next {
		nextTok[i] = tokens(next[i].Evidence)
	}
	usedPrev := make([]bool, len(prev))
	usedNext := make([]bool, len(next))
	var fm FindingMatch
	for _, k := range order {
		g := groups[k]
		if len(g.next) == 0 {
			continue
		}
		rank := map[int]int{}
		for r, i := range g.prev {
			rank[i] = r
		}
		for r, i := range g.next {
			rank[i] = r
		}
		var cands []candidate
		for _, a := range g.prev {
			for _, b := range g.next {
				if s := evidenceSimilarity(prevTok[a], nextTok[b]); s >= minEvidenceSimilarity {
					cands = append(cands, candidate{a, b, s})
				}
			}
		}
		slices.SortStableFunc(cands, func(x, y candidate) int {
			if c := cmp.Compare(y.score, x.score); c != 0 {
				return c
			}
			return cmp.Compare(abs(rank[x.a]-rank[x.b]), abs(rank[y.a]-rank[y.b]))
		})
		for _, c := range cands {
			if !usedPrev[c.a] && !usedNext[c.b] {
				usedPrev[c.a], usedNext[c.b] = true, true
				fm.Pairs = append(fm.Pairs, FindingPair{Prev: c.a, Next: c.b})
			}
		}
	}
	slices.SortFunc(fm.Pairs, func(a, b FindingPair) int { return a.Next - b.Next })
	fm.New, fm.Resolved = unused(usedNext), unused(usedPrev)
	return fm
}

// evidenceSimilarity is the Dice coefficient of two evidence texts' words
// as multisets. Evidence of one or two words must agree exactly: there a
// changed word is a different subject (sheet S-001 is not sheet S-002).
func evidenceSimilarity(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	if len(a) <= 2 || len(b) <= 2 {
		if slices.Equal(a, b) {
			return 1
		}
		return 0
	}
	count := map[string]int{}
	for _, w := range a {
		count[w]++
	}
	both := 0
	for _, w := range b {
		if count[w] > 0 {
			count[w]--
			both++
		}
	}
	return 2 * float64(both) / float64(len(a)+len(b))
}

// unused is the indexes a matching left unpaired, in order.
func unused(used []bool) []int {
	var out []int
	for i, u := range used {
		if !u {
			out = append(out, i)
		}
	}
	return out
}
