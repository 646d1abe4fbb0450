// Package chat answers questions about a scanned plan set from the set's
// own words: a retrieval index built at scan time (blocks, label/value
// pairs, table rows, title-block fields and findings, each with its file,
// page, sheet number and type), a deterministic answerer that needs no
// model, and an optional OpenAI-compatible model whose every citation is
// checked against the page text before anyone sees it.
//
// The index is stored with the version (store.PutChatIndex), so a chat call
// reads no PDF: it decodes the index once (kept in a small cache) and ranks
// units with BM25. Everything here is callable without HTTP; the API's chat
// endpoint and the hosted chat screen share it.
package chat

import (
	"container/heap"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Kind is what a unit of the index is.
type Kind uint8

// Unit kinds. A passage is a few consecutive lines of one layout block.
const (
	KindPassage Kind = iota + 1
	KindPair         // label and value as printed ("Occupancy Type: R-3")
	KindRow          // one row of a table, cells in order
	KindField        // a title-block field (caption and value)
)

// Page is one page of the set as chat sees it: where it is, which sheet it
// is, and its text as layout lines in reading order. The lines are the
// ground truth every excerpt is checked against.
type Page struct {
	FileID      string
	Page        int // 1-based within the file
	SheetNumber string
	SheetType   string
	SheetTitle  string
	Lines       []string
}

// Unit is one retrievable piece of a page. Excerpt is text of the page:
// fragments that are each a run of the page's text, joined by Sep (" … ")
// where the page has something else between them, or by CellSep between
// table cells.
type Unit struct {
	Kind    Kind
	Page    int // index into Index.Pages
	Label   string
	Value   string
	Excerpt string
	// Lines of a passage: [First, Last] indexes into the page's Lines.
	First, Last int
	// context is searched but not stored as text: the heading (first
	// line) of the unit's block, so "the general notes" finds note 12.
	context string
}

// Finding is a delivered finding as chat needs it.
type Finding struct {
	ID            string
	Severity      string
	Title         string
	Rationale     string
	GoverningRefs string
	Topic         string
	Source        string
	Page          int // index into Index.Pages; -1 when the finding has no page
	Anchors       []string
}

// Separators inside excerpts.
const (
	Sep     = " … "
	CellSep = " | "
)

// Index is the chat index of one scanned version.
type Index struct {
	Pages    []Page
	Units    []Unit
	Findings []Finding
	// Facts are the set's typed statements (occupancy, codes, address,
	// owner, scale…), each on its page.
	Facts []Fact
	// HeldTopics are the topics whose findings were withheld (no certified
	// local law covers them); chat says so instead of answering from them.
	HeldTopics []string

	postings map[string][]posting // term → units holding it
	unitLen  []int                // terms per unit
	avgLen   float64
	// pageText is each page's lines joined by spaces, normalised (see
	// pageTexts).
	pageText     []string
	pageTextOnce sync.Once
	// verifying caches verifyLines' page text while the index is built.
	verifying verifyText
	// kinds caches labelKind while the index is built: a title block's
	// captions repeat on every sheet, and each reading tries a dozen
	// expressions. The pages indexed on every core share one.
	kinds *kindMemo
}

type posting struct {
	unit int32
	tf   uint16
}

// buildPostings builds the inverted index from the units' text. Build
// calls it; Decode restores postings from the stored form instead.
//
// Terms are numbered as they are first seen, so counting a unit's terms and
// filling the postings touch slices, not maps: one map lookup per distinct
// short text (plan sets repeat captions, room names and tags on every
// sheet), one per term of a long one, and one map insertion per distinct
// term at the end.
func (ix *Index) buildPostings() {
	ix.unitLen = make([]int, len(ix.Units))
	var (
		terms []string
		ids   = map[string]int32{}
		df    []int32 // term → units holding it
		tf    []int32 // term → count in the current unit
	)
	// intern appends the numbers of the terms of s to dst.
	intern := func(dst []int32, s string) []int32 {
		eachToken(s, func(t string) {
			id, ok := ids[t]
			if !ok {
				id = int32(len(terms))
				ids[t] = id
				terms = append(terms, t)
				df = append(df, 0)
				tf = append(tf, 0)
			}
			dst = append(dst, id)
		})
		return dst
	}
	memo := map[string][]int32{}
	var long []int32
	termIDs := func(s string) []int32 {
		if s == "" {
			return nil
		}
		if len(s) > 64 {
			long = intern(long[:0], s)
			return long
		}
		t, ok := memo[s]
		if !ok {
			t = intern(nil, s)
			memo[s] = t
		}
		return t
	}
	titles := make([][]int32, len(ix.Pages))
	for i, p := range ix.Pages {
		titles[i] = intern(nil, p.SheetTitle)
	}
	// First pass: each unit's distinct terms and counts, in one flat list.
	type termCount struct{ term, n int32 }
	counted := make([]termCount, 0, 8*len(ix.Units)) // about a sheet title and a line each
	ends := make([]int, len(ix.Units))               // unit → end of its run in counted
	for u := range ix.Units {
		un := &ix.Units[u]
		start := len(counted)
		// A unit is searched by its excerpt, its sheet's title and its
		// block's heading: "the stair section" finds a note on sheet
		// A3.1 SECTIONS under STAIR NOTES.
		for part := range 3 {
			var t []int32
			switch part {
			case 0:
				t = termIDs(un.Excerpt)
			case 1:
				t = titles[un.Page]
			case 2:
				t = termIDs(un.context)
			}
			for _, id := range t {
				if tf[id] == 0 {
					counted = append(counted, termCount{term: id})
				}
				tf[id]++
			}
			ix.unitLen[u] += len(t)
		}
		for k := start; k < len(counted); k++ {
			id := counted[k].term
			counted[k].n = tf[id]
			tf[id] = 0
			df[id]++
		}
		ends[u] = len(counted)
	}
	// Second pass: every term's postings, units in order, cut from one
	// array.
	all := make([]posting, len(counted))
	next := make([]int32, len(terms)) // term → next free slot in all
	off := int32(0)
	for id, n := range df {
		next[id] = off
		off += n
	}
	start := 0
	for u, end := range ends {
		for _, c := range counted[start:end] {
			all[next[c.term]] = posting{unit: int32(u), tf: uint16(min(c.n, math.MaxUint16))}
			next[c.term]++
		}
		start = end
	}
	ix.postings = make(map[string][]posting, len(terms))
	off = 0
	for id, t := range terms {
		if df[id] > 0 { // a title of a page with no units
			ix.postings[t] = all[off : off+df[id] : off+df[id]]
			off += df[id]
		}
	}
	ix.setAvgLen()
}

func (ix *Index) setAvgLen() {
	total := 0
	for _, n := range ix.unitLen {
		total += n
	}
	if len(ix.unitLen) > 0 {
		ix.avgLen = float64(total) / float64(len(ix.unitLen))
	}
}

// pageTexts returns each page's lines joined by spaces, normalised: what
// Verify checks excerpts against (answers' citations, and the facts
// AddFact adds). They are made once, when first needed.
func (ix *Index) pageTexts() []string {
	ix.pageTextOnce.Do(func() {
		ix.pageText = make([]string, len(ix.Pages))
		for i, p := range ix.Pages {
			ix.pageText[i] = joinNormalized(p.Lines)
		}
	})
	return ix.pageText
}

// Verify reports whether excerpt is text of page pi: every fragment
// (split at Sep and CellSep) is a run of the page's text.
func (ix *Index) Verify(pi int, excerpt string) bool {
	pageText := ix.pageTexts()
	if pi < 0 || pi >= len(pageText) || strings.TrimSpace(excerpt) == "" {
		return false
	}
	for _, part := range strings.Split(excerpt, Sep) {
		for _, frag := range strings.Split(part, CellSep) {
			frag = normalizeSpace(frag)
			if frag == "" || !strings.Contains(pageText[pi], frag) {
				return false
			}
		}
	}
	return true
}

// PageIndex finds a page by file and page number; -1 when absent.
func (ix *Index) PageIndex(fileID string, page int) int {
	for i, p := range ix.Pages {
		if p.FileID == fileID && p.Page == page {
			return i
		}
	}
	return -1
}

func normalizeSpace(s string) string {
	// Most texts (page lines: words joined by single spaces) are already
	// so; they are returned as they are rather than split and joined
	// again. Anything that could be white space to fold (a control byte,
	// any non-ASCII byte, a space at an end or doubled) takes the long way.
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return foldSpace(s)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c < ' ' || c == ' ' && s[i+1] == ' ' {
			return foldSpace(s)
		}
	}
	return s
}

// foldSpace is strings.Join(strings.Fields(s), " ") made in one pass,
// without the slice of fields: each run of white space becomes one
// space, and none is kept at either end.
func foldSpace(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	appendWords(&sb, s)
	return sb.String()
}

// appendWords appends the words of s (split at white space as
// strings.Fields splits) to sb, a space before each unless sb is empty.
func appendWords(sb *strings.Builder, s string) {
	for w := range strings.FieldsSeq(s) {
		appendWord(sb, w)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func appendWord(sb *strings.Builder, w string) {
	if sb.Len() > 0 {
		sb.WriteByte(' ')
	}
	sb.WriteString(w)
}

// joinNormalized is normalizeSpace(strings.Join(lines, " ")). Page lines
// are words joined by single spaces, so it joins the non-empty ones unless
// one holds anything that could be white space to fold (a tab, a double
// space, any non-ASCII byte); then it folds them line by line.
func joinNormalized(lines []string) string {
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	for _, l := range lines {
		if l == "" {
			continue
		}
		fold := l[0] == ' ' || l[len(l)-1] == ' '
		for i := 0; i < len(l) && !fold; i++ {
			c := l[i]
			fold = c >= utf8.RuneSelf || c < ' ' || c == ' ' && l[i+1] == ' '
		}
		if fold {
			var sb strings.Builder
			sb.Grow(size)
			for _, l := range lines {
				appendWords(&sb, l)
			}
			return sb.String()
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	for _, l := range lines {
		if l == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(l)
	}
	return sb.String()
}

// hit is one ranked unit.
type hit struct {
	unit  int
	score float64
	// coverage is the share of the question's weight (IDF) the unit holds;
	// matched says which of the question's terms (bit i: term i).
	coverage float64
	matched  uint64
}

const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// idf is BM25's inverse document frequency; a term no unit holds gets the
// weight of the rarest possible term, so a question about something the
// plans never mention keeps most of its weight unmatched.
func (ix *Index) idf(term string) float64 {
	n := float64(len(ix.Units))
	df := float64(len(ix.postings[term]))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// search ranks units for query terms with BM25; kinds filters (nil: all).
func (ix *Index) search(terms []string, limit int) []hit {
	terms = uniq(terms)
	if len(terms) == 0 || len(ix.Units) == 0 {
		return nil
	}
	weights := make([]float64, len(terms))
	total := 0.0
	for i, t := range terms {
		weights[i] = ix.idf(t)
		total += weights[i]
	}
	at := make(map[int32]int, 256) // unit → index into hits
	hits := make([]hit, 0, 256)
	for i, t := range terms {
		for _, p := range ix.postings[t] {
			k, ok := at[p.unit]
			if !ok {
				k = len(hits)
				at[p.unit] = k
				hits = append(hits, hit{unit: int(p.unit)})
			}
			h := &hits[k]
			u := int(p.unit)
			tf := float64(p.tf)
			norm := bm25K1 * (1 - bm25B + bm25B*float64(ix.unitLen[u])/ix.avgLen)
			h.score += weights[i] * tf * (bm25K1 + 1) / (tf + norm)
			h.coverage += weights[i] / total
			if i < 64 {
				h.matched |= 1 << i
			}
		}
	}
	for k := range hits {
		// Short factual units (pairs, rows, fields) state what a question
		// asks more directly than a passage that mentions it.
		if ix.Units[hits[k].unit].Kind != KindPassage {
			hits[k].score *= 1.25
		}
		// Coordination: a unit holding more of the question's weight
		// ranks above one that repeats fewer of its words in less text
		// ("members spaced a maximum of 2 feet on center" over "Wood
		// Structural Member Type | Rafters" for how far apart members
		// are spaced).
		hits[k].score *= math.Sqrt(hits[k].coverage)
	}
	return topHits(hits, limit)
}

// better orders hits best first; ties by unit, so answers are stable.
func better(a, b hit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.unit < b.unit
}

// topHits returns the limit best hits, best first, in O(n log limit): a
// common word can match tens of thousands of units on a large set.
func topHits(hits []hit, limit int) []hit {
	if len(hits) > limit {
		h := hitHeap(hits[:0:0])
		for _, x := range hits {
			if len(h) < limit {
				heap.Push(&h, x)
			} else if better(x, h[0]) {
				h[0] = x
				heap.Fix(&h, 0)
			}
		}
		hits = h
	}
	sort.Slice(hits, func(a, b int) bool { return better(hits[a], hits[b]) })
	return hits
}

// hitHeap is a min-heap: the worst of the best at the top.
type hitHeap []hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func uniq(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Tokens splits text into lower-case search terms: words and numbers, a
// compound like "R-3", "V-B" or "A1.1" also whole, each word lightly
// stemmed so "risers" finds "RISER".
func Tokens(s string) []string {
	var out []string
	eachToken(s, func(t string) { out = append(out, t) })
	return out
}

// eachToken passes Tokens(s) to yield one by one (the index interns them
// without collecting them first).
func eachToken(s string, yield func(string)) {
	s = strings.ToLower(s)
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			eachTokenUnicode(s, yield)
			return
		}
	}
	// ASCII text (nearly all plan text), split byte by byte: the same
	// terms as eachTokenUnicode without its per-field slices.
	for i := 0; i < len(s); {
		for i < len(s) && isSeparator(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isSeparator(s[j]) {
			j++
		}
		field := s[i:j]
		i = j
		for len(field) > 0 && isTrimmed(field[0]) {
			field = field[1:]
		}
		for len(field) > 0 && isTrimmed(field[len(field)-1]) {
			field = field[:len(field)-1]
		}
		if field == "" {
			continue
		}
		if len(field) <= 12 && asciiParts(field, nil) > 1 {
			yield(field)
		}
		asciiParts(field, func(p string) { yield(stem(p)) })
	}
}

// asciiParts counts the runs of letters and digits in an ASCII field and
// passes each to yield (when not nil).
func asciiParts(field string, yield func(string)) int {
	n := 0
	for i := 0; i < len(field); {
		for i < len(field) && !asciiAlnum(field[i]) {
			i++
		}
		j := i
		for j < len(field) && asciiAlnum(field[j]) {
			j++
		}
		if j > i {
			n++
			if yield != nil {
				yield(field[i:j])
			}
		}
		i = j
	}
	return n
}

func asciiAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || 'A' <= c && c <= 'Z'
}

const (
	// separators end a field: white space and these.
	separators = ",;:()[]{}\"“”‘’!?<>=*#|…"
	// trimmed are stripped from both ends of a field.
	trimmed = ".'`-/_&+~@%"
)

// isSeparator and isTrimmed are separators (with white space) and
// trimmed for an ASCII byte.
func isSeparator(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r', ',', ';', ':', '(', ')', '[', ']', '{', '}', '"', '!', '?', '<', '>', '=', '*', '#', '|':
		return true
	}
	return false
}

func isTrimmed(c byte) bool {
	switch c {
	case '.', '\'', '`', '-', '/', '_', '&', '+', '~', '@', '%':
		return true
	}
	return false
}

// eachTokenUnicode is eachToken for lower-cased text that is not all
// ASCII.
func eachTokenUnicode(s string, yield func(string)) {
	for _, field := range strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(separators, r)
	}) {
		field = strings.Trim(field, trimmed)
		if field == "" {
			continue
		}
		parts := strings.FieldsFunc(field, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(parts) > 1 && utf8.RuneCountInString(field) <= 12 {
			yield(field)
		}
		for _, p := range parts {
			yield(stem(p))
		}
	}
}

// stem strips the common English inflections; plan text is mostly nouns
// in capitals, so plurals matter most.
func stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	case n > 5 && strings.HasSuffix(w, "ing"):
		return w[:n-3]
	case n > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		return w[:n-2]
	}
	return w
}
