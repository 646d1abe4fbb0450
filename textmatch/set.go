package textmatch

import (
	"strings"
	"sync"
	"sync/atomic"
)

// Set groups Regexps whose prefilters run together. A rule engine tries
// dozens of patterns on every line of a plan set; with a Set, Scan reads a
// line once and records which of all the members' literals it holds, and
// each member's prefilter becomes a few bit tests instead of a pass over
// the line.
//
// A Set is safe for concurrent use. Members may be compiled at any time: a
// Present from a Scan that came before a member was compiled does not know
// that member's literals, and MayMatch then checks the text itself.
type Set struct {
	mu    sync.Mutex
	lits  []string // upper-case ASCII; a literal's bit in Present is its index + 1
	ids   map[string]int
	table atomic.Pointer[setTable] // nil after a Compile until the next Scan builds it

	// members are the Set's Regexps; a member's bit in a Possible is its
	// index + 1 (Regexp.member). pending are the members whose literals
	// are not in lits yet (register, when the table is next built).
	members []*Regexp
	pending []*Regexp
}

// setTable finds every literal of the Set in one pass: literals are looked
// up by their first two bytes (one byte for one-byte literals), so each
// position of a text costs a table read and a rare comparison.
type setTable struct {
	lits   []string
	single [256][]int32
	start  []int32 // 1<<16 + 1 offsets into ids, by first two upper-cased bytes
	ids    []int32
}

// Present records which literals of a Set one text holds.
type Present struct {
	set  *Set
	n    int      // literals known when the text was scanned
	bits []uint64 // bit 0: the text holds U+212A or U+017F; bit i+1: literal i
}

// NewSet returns an empty Set.
func NewSet() *Set { return &Set{ids: map[string]int{}} }

// Compile compiles expr like the package's Compile and makes it a member.
func (s *Set) Compile(expr string) (*Regexp, error) {
	r, err := Compile(expr)
	if err != nil {
		return nil, err
	}
	s.add(r)
	return r, nil
}

// MustCompile is the package's MustCompile, made a member: its literals
// join the Set when the Set next builds its table (its first Scan), so
// declaring patterns costs nothing until a Scan needs them.
func (s *Set) MustCompile(expr string) *Regexp {
	r := MustCompile(expr)
	s.add(r)
	return r
}

// MustCompileFunc is MustCompileFunc for a member of s.
func (s *Set) MustCompileFunc(expr func() string) *Regexp {
	r := MustCompileFunc(expr)
	s.add(r)
	return r
}

func (s *Set) add(r *Regexp) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.set = s
	s.members = append(s.members, r)
	r.member = len(s.members)
	s.pending = append(s.pending, r)
	s.table.Store(nil)
}

// register gives the pending members' literals their ids and the members
// their Present bits; s.mu is held.
func (s *Set) register() {
	for _, r := range s.pending {
		p := r.parse()
		bits := []int{}
		if len(p.need) > 0 && p.foldsKS {
			bits = append(bits, 0)
		}
		for _, lit := range p.need {
			id, ok := s.ids[lit]
			if !ok {
				id = len(s.lits)
				s.ids[lit] = id
				s.lits = append(s.lits, lit)
			}
			bits = append(bits, id+1)
		}
		r.bits.Store(&bits)
	}
	s.pending = nil
}

// ScanAll scans each text, in one allocation for all of them.
func (s *Set) ScanAll(texts []string) []Present {
	t := s.current()
	words := (len(t.lits) + 1 + 63) / 64
	slab := make([]uint64, words*len(texts))
	out := make([]Present, len(texts))
	for i, text := range texts {
		bits := slab[i*words : (i+1)*words : (i+1)*words]
		t.scan(text, bits)
		out[i] = Present{set: s, n: len(t.lits), bits: bits}
	}
	return out
}

// Scan records which of the Set's literals text holds.
func (s *Set) Scan(text string) Present {
	return s.ScanAll([]string{text})[0]
}

// MayMatch reports whether r can match text, given the Present that r's
// Set recorded for text. It is the same necessary condition every find
// method checks; a false answer means no match. When p comes from another
// Set, or r was compiled after the scan, it checks text directly.
func (r *Regexp) MayMatch(text string, p Present) bool {
	bits := r.bits.Load()
	if r.set == nil || r.set != p.set || bits == nil {
		return r.mayMatch(text)
	}
	if len(*bits) == 0 {
		return true // no literal to look for: no prefilter
	}
	for _, b := range *bits {
		if b > p.n {
			return r.mayMatch(text)
		}
		if p.bits[b>>6]&(1<<(b&63)) != 0 {
			return true
		}
	}
	return false
}

func (s *Set) current() *setTable {
	if t := s.table.Load(); t != nil {
		return t
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.table.Load(); t != nil {
		return t
	}
	s.register()
	t := &setTable{lits: append([]string(nil), s.lits...), start: make([]int32, 1<<16+1)}
	for id, lit := range t.lits {
		if len(lit) == 1 {
			t.single[lit[0]] = append(t.single[lit[0]], int32(id))
		} else {
			t.start[pairKey(lit[0], lit[1])+1]++
		}
	}
	for k := 1; k < len(t.start); k++ {
		t.start[k] += t.start[k-1]
	}
	t.ids = make([]int32, t.start[len(t.start)-1])
	next := append([]int32(nil), t.start[:1<<16]...)
	for id, lit := range t.lits {
		if len(lit) > 1 {
			k := pairKey(lit[0], lit[1])
			t.ids[next[k]] = int32(id)
			next[k]++
		}
	}
	s.table.Store(t)
	return t
}

func pairKey(c0, c1 byte) int { return int(c0)<<8 | int(c1) }

func (t *setTable) scan(s string, bits []uint64) {
	nonASCII := false
	for i := 0; i < len(s); i++ {
		c0 := upperASCII(s[i])
		if c0 >= 0x80 {
			nonASCII = true // literals are ASCII: none starts here
			continue
		}
		for _, id := range t.single[c0] {
			bits[(id+1)>>6] |= 1 << ((id + 1) & 63)
		}
		if i+1 == len(s) {
			break
		}
		k := pairKey(c0, upperASCII(s[i+1]))
		for _, id := range t.ids[t.start[k]:t.start[k+1]] {
			lit := t.lits[id]
			if len(s)-i >= len(lit) && equalFoldASCII(s[i+2:i+len(lit)], lit[2:]) {
				bits[(id+1)>>6] |= 1 << ((id + 1) & 63)
			}
		}
	}
	if nonASCII && (strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f")) {
		bits[0] |= 1
	}
}

// Union is the Present of several texts of one ScanAll taken together: it
// holds a literal when one of the texts does. Presents of different Sets
// give an empty Present, on which MayMatchAny rules nothing out.
func Union(ps []Present) Present {
	if len(ps) == 0 {
		return Present{}
	}
	u := Present{set: ps[0].set, n: ps[0].n, bits: make([]uint64, len(ps[0].bits))}
	for _, p := range ps {
		if p.set != u.set {
			return Present{}
		}
		u.n = min(u.n, p.n)
		for i := range min(len(u.bits), len(p.bits)) {
			u.bits[i] |= p.bits[i]
		}
	}
	return u
}

// MayMatchAny reports whether r can match one of the texts whose Presents
// u is the Union of: false means MayMatch is false on every one of them,
// so a caller can skip them all (a page's lines, for a rule whose literals
// the page does not hold).
func (r *Regexp) MayMatchAny(u Present) bool {
	bits := r.bits.Load()
	if r.set == nil || r.set != u.set || bits == nil || len(*bits) == 0 {
		return true
	}
	for _, b := range *bits {
		if b > u.n || u.bits[b>>6]&(1<<(b&63)) != 0 {
			return true
		}
	}
	return false
}

// Possible records which members of a Set may match one of the texts of a
// Union: a caller that tries many members on many texts (a page's lines)
// skips, for one bit test, every member none of whose literals the texts
// hold.
type Possible struct {
	n    int      // members known when it was made
	bits []uint64 // bit i+1: member i may match
}

// Possible returns the members that MayMatchAny of the texts whose Presents
// u is the Union of.
func (s *Set) Possible(u Present) Possible {
	s.mu.Lock()
	members := s.members[:len(s.members):len(s.members)]
	s.mu.Unlock()
	p := Possible{n: len(members), bits: make([]uint64, (len(members)+1+63)/64)}
	for i, r := range members {
		if r.MayMatchAny(u) {
			p.bits[(i+1)>>6] |= 1 << ((i + 1) & 63)
		}
	}
	return p
}

// PossibleIn reports whether r may match one of the texts p was made for:
// false means MayMatch is false on each of them. A Regexp of no Set (or
// without a prefilter), or a member compiled after p was made, may.
func (r *Regexp) PossibleIn(p Possible) bool {
	m := r.member
	if m == 0 || m > p.n {
		return true
	}
	return p.bits[m>>6]&(1<<(m&63)) != 0
}
