package pdftext

import (
	"encoding/binary"
	"testing"
)

// sfntWithCmap builds the smallest sfnt that holds one cmap table with one
// (3,1) format 4 subtable mapping the segments given.
func sfntWithCmap(segs [][3]int) []byte { // {start, end, idDelta}
	segs = append(segs, [3]int{0xFFFF, 0xFFFF, 1})
	n := len(segs)
	sub := make([]byte, 14+8*n+2)
	be := binary.BigEndian
	be.PutUint16(sub[0:], 4)
	be.PutUint16(sub[2:], uint16(len(sub)))
	be.PutUint16(sub[6:], uint16(2*n))
	for i, s := range segs {
		be.PutUint16(sub[14+2*i:], uint16(s[1]))
		be.PutUint16(sub[14+2*n+2+2*i:], uint16(s[0]))
		be.PutUint16(sub[14+4*n+2+2*i:], uint16(s[2]))
	}
	cmap := make([]byte, 12, 12+len(sub))
	be.PutUint16(cmap[2:], 1)
	be.PutUint16(cmap[4:], 3)
	be.PutUint16(cmap[6:], 1)
	be.PutUint32(cmap[8:], 12)
	cmap = append(cmap, sub...)
	font := make([]byte, 28, 28+len(cmap))
	be.PutUint16(font[4:], 1)
	copy(font[12:], "cmap")
	be.PutUint32(font[20:], 28)
	be.PutUint32(font[24:], uint32(len(cmap)))
	return append(font, cmap...)
}

func TestTrueTypeGlyphRunes(t *testing.T) {
	// 'A'..'C' → glyphs 3..5; 'a' → glyph 3 as well (the smaller code wins).
	font := sfntWithCmap([][3]int{{'A', 'C', 3 - 'A'}, {'a', 'a', 3 - 'a'}})
	got := trueTypeGlyphRunes(font)
	want := map[uint32]rune{3: 'A', 4: 'B', 5: 'C'}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for g, r := range want {
		if got[g] != r {
			t.Errorf("glyph %d: got %q, want %q", g, got[g], r)
		}
	}
	for _, bad := range [][]byte{nil, font[:20], font[:40], append([]byte{}, font[:len(font)-9]...)} {
		trueTypeGlyphRunes(bad) // truncated programs must not panic
	}
}
