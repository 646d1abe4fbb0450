// Package rounds compares two submittal rounds of a plan set: which sheets
// were added, removed, revised or left as they were, and which findings are
// new, persisting or resolved. Identity never rests on page indexes or
// coordinates: a sheet is matched by its number, or, renumbered, by its
// title and the words it prints; a finding by its rule, its matched sheet
// and the words of its evidence, tolerant of small edits near them.
package rounds

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sheet is what a round keeps of one page of its set for the next round's
// comparison.
type Sheet struct {
	FileID string
	Page   int    // 1-based within the file
	Number string // as printed; "" when the page prints none
	Title  string
	// Revision is the text of the page's title-block revision rows
	// ("" when it has none).
	Revision string
	// Words are the page's words in extraction order, with their boxes
	// (fractions of the displayed page, top-left origin).
	Words []Word

	// Derived once by Prepare.
	key    string
	digest string
	set    []uint64 // sorted distinct hashes of the normalised words
}

// Word is one word of a sheet and its box.
type Word struct {
	Text                     string
	Left, Top, Width, Height float32
}

// Box is a region of a page as fractions of the displayed page.
type Box struct {
	Left   float64 `json:"left"`
	Top    float64 `json:"top"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Prepare derives what matching reads (key, word digest and word set).
// Match calls it; it is idempotent.
func (s *Sheet) Prepare() {
	if s.digest != "" || s.set != nil {
		return
	}
	s.key = NumberKey(s.Number)
	digest := make([]uint64, 0, len(s.Words))
	hashes := make([]uint64, 0, len(s.Words))
	for _, w := range s.Words {
		// The digest keeps punctuation: a "?" struck from a note is a
		// revision; the set for similarity does not.
		if h, ok := wordHash(w.Text, false); ok {
			digest = append(digest, h)
		}
		if h, ok := wordHash(w.Text, true); ok {
			hashes = append(hashes, h)
		}
	}
	// The digest is of the words as a multiset: the same sheet extracted
	// in another order (a re-saved PDF) is the same sheet.
	slices.Sort(digest)
	sum := sha256.New()
	var buf [8]byte
	for _, h := range digest {
		binary.BigEndian.PutUint64(buf[:], h)
		sum.Write(buf[:])
	}
	s.digest = hex.EncodeToString(sum.Sum(nil)[:16])
	slices.Sort(hashes)
	s.set = slices.Compact(hashes)
	if s.set == nil {
		s.set = []uint64{}
	}
}

// wordHash is the FNV-1a hash of a word upper-cased, without allocating:
// of its letters and digits only (alnum), or of all its characters but
// surrounding space. ok is false when nothing is left.
func wordHash(text string, alnum bool) (uint64, bool) {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	n := 0
	for _, r := range strings.TrimSpace(text) {
		if alnum && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			continue
		}
		var enc [utf8.UTFMax]byte
		for _, b := range enc[:utf8.EncodeRune(enc[:], unicode.ToUpper(r))] {
			h ^= uint64(b)
			h *= prime
		}
		n++
	}
	return h, n > 0
}

// Digest is the digest of the sheet's words as a multiset.
func (s *Sheet) Digest() string { s.Prepare(); return s.digest }

// NumberKey is a sheet number reduced to what identifies it: upper case,
// no spaces, dots or dashes ("A-101", "a101" and "A 101" are one sheet).
func NumberKey(n string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(n) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// normWord is a word as compared: upper case, letters and digits only.
func normWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			b.WriteRune(unicode.ToUpper(r))
		case unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// jaccard is |a∩b| / |a∪b| of two sorted distinct hash sets.
func jaccard(a, b []uint64) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	i, j, both := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			both++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}
