package rounds

import (
	"encoding/binary"
	"errors"
	"math"
)

// formatVersion leads the encoding, so a later format can read this one.
const formatVersion = 1

// ErrCorrupt is an encoding that cannot be read.
var ErrCorrupt = errors.New("rounds: corrupt sheet encoding")

// Encode writes a round's sheets compactly: a 100-sheet set of busy
// sheets is a few megabytes, read back in milliseconds when the next
// round is compared. Boxes keep 1/65535 of the page, far below a word.
func Encode(sheets []Sheet) []byte {
	out := []byte{formatVersion}
	out = binary.AppendUvarint(out, uint64(len(sheets)))
	str := func(s string) {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	frac := func(f float32) {
		q := math.Round(float64(f) * 65535)
		out = binary.BigEndian.AppendUint16(out, uint16(min(max(q, 0), 65535)))
	}
	for _, s := range sheets {
		str(s.FileID)
		out = binary.AppendUvarint(out, uint64(s.Page))
		str(s.Number)
		str(s.Title)
		str(s.Revision)
		out = binary.AppendUvarint(out, uint64(len(s.Words)))
		for _, w := range s.Words {
			str(w.Text)
			frac(w.Left)
			frac(w.Top)
			frac(w.Width)
			frac(w.Height)
		}
	}
	return out
}

// Decode reads what Encode wrote.
func Decode(b []byte) ([]Sheet, error) {
	if len(b) == 0 || b[0] != formatVersion {
		return nil, ErrCorrupt
	}
	b = b[1:]
	// One string holds every text of the encoding; each word's text is a
	// slice of it (no allocation per word).
	all := string(b)
	base := len(b)
	bad := false
	uvarint := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			bad = true
			return 0
		}
		b = b[n:]
		return v
	}
	str := func() string {
		n := uvarint()
		if bad || n > uint64(len(b)) {
			bad = true
			return ""
		}
		at := base - len(b)
		b = b[n:]
		return all[at : at+int(n)]
	}
	frac := func() float32 {
		if len(b) < 2 {
			bad = true
			return 0
		}
		v := binary.BigEndian.Uint16(b)
		b = b[2:]
		return float32(float64(v) / 65535)
	}
	n := uvarint()
	if bad || n > uint64(len(b)) {
		return nil, ErrCorrupt
	}
	sheets := make([]Sheet, 0, n)
	for i := uint64(0); i < n && !bad; i++ {
		s := Sheet{FileID: str(), Page: int(uvarint()), Number: str(), Title: str(), Revision: str()}
		words := uvarint()
		if bad || words > uint64(len(b)) {
			return nil, ErrCorrupt
		}
		s.Words = make([]Word, 0, words)
		for j := uint64(0); j < words && !bad; j++ {
			s.Words = append(s.Words, Word{Text: str(), Left: frac(), Top: frac(), Width: frac(), Height: frac()})
		}
		sheets = append(sheets, s)
	}
	if bad || len(b) != 0 {
		return nil, ErrCorrupt
	}
	return sheets, nil
}
