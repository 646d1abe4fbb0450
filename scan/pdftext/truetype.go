package pdftext

import (
	"encoding/binary"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

var programBufs sync.Pool

// maxPooledProgram bounds a font program buffer kept in programBufs.
const maxPooledProgram = 8 << 20

// maxFontProgram bounds the embedded TrueType program read for its cmap; a
// real subset font is tens of kilobytes, a full CJK font a few megabytes.
const maxFontProgram = 16 << 20

// trueTypeCIDText builds CID → text for a CIDFontType2 that has no
// ToUnicode CMap, from the Unicode cmap table of its embedded TrueType
// program, inverted (glyph → code point), through /CIDToGIDMap. This is
// what poppler does for such fonts (GfxCIDFont reads the font's cmap when
// the PDF gives no mapping), so text that viewers copy correctly is not
// reported as unmapped. nil when the font has no usable program or cmap.
func (o objects) trueTypeCIDText(cidFont types.Dict) map[uint32]string {
	if o.name(cidFont["Subtype"]) != "CIDFontType2" {
		return nil
	}
	fd := o.dict(cidFont["FontDescriptor"])
	if fd == nil || fd["FontFile2"] == nil {
		return nil
	}
	if sd, ok := o.resolve(fd["FontFile2"]).(types.StreamDict); !ok || encodedLength(sd) > maxFontProgram {
		return nil
	}
	// The program is only read for its cmap here: it is decoded into a
	// pooled buffer, not a fresh one per font and reader.
	var buf []byte
	if b, ok := programBufs.Get().(*[]byte); ok {
		buf = *b
	}
	_, program, err := o.streamAppend(buf[:0], fd["FontFile2"])
	defer func() {
		if cap(program) <= maxPooledProgram {
			program = program[:0]
			programBufs.Put(&program)
		}
	}()
	if err != nil && len(program) == 0 {
		return nil
	}
	gidRune := trueTypeGlyphRunes(program)
	if len(gidRune) == 0 {
		return nil
	}
	out := make(map[uint32]string, len(gidRune))
	switch m := o.resolve(cidFont["CIDToGIDMap"]).(type) {
	case types.StreamDict:
		_, table, err := o.stream(cidFont["CIDToGIDMap"])
		if err != nil && len(table) == 0 {
			return nil
		}
		for cid := 0; 2*cid+1 < len(table) && cid < 1<<16; cid++ {
			gid := uint32(binary.BigEndian.Uint16(table[2*cid:]))
			if r, ok := gidRune[gid]; ok {
				out[uint32(cid)] = string(r)
			}
		}
	default: // /Identity or absent: CID = GID
		_ = m
		for gid, r := range gidRune {
			out[gid] = string(r)
		}
	}
	return out
}

// trueTypeGlyphRunes reads a TrueType (or OpenType with glyf) program's
// Unicode cmap subtable (platform 3 encoding 1 or 10, or platform 0) and
// returns glyph id → the smallest code point that maps to it. Malformed
// tables yield what was read before the damage.
func trueTypeGlyphRunes(font []byte) map[uint32]rune {
	if len(font) < 12 {
		return nil
	}
	numTables := int(binary.BigEndian.Uint16(font[4:]))
	var cmap []byte
	for i := 0; i < numTables; i++ {
		rec := 12 + 16*i
		if rec+16 > len(font) {
			return nil
		}
		if string(font[rec:rec+4]) != "cmap" {
			continue
		}
		off := int(binary.BigEndian.Uint32(font[rec+8:]))
		n := int(binary.BigEndian.Uint32(font[rec+12:]))
		if off < 0 || n < 0 || off > len(font) || n > len(font)-off {
			return nil
		}
		cmap = font[off : off+n]
	}
	if len(cmap) < 4 {
		return nil
	}
	// Pick the best Unicode subtable: full repertoire (3,10 / 0,4+) over BMP.
	best, bestRank := -1, 0
	nSub := int(binary.BigEndian.Uint16(cmap[2:]))
	for i := 0; i < nSub; i++ {
		rec := 4 + 8*i
		if rec+8 > len(cmap) {
			break
		}
		platform := binary.BigEndian.Uint16(cmap[rec:])
		encoding := binary.BigEndian.Uint16(cmap[rec+2:])
		rank := 0
		switch {
		case platform == 3 && encoding == 10, platform == 0 && encoding >= 4:
			rank = 3
		case platform == 3 && encoding == 1, platform == 0:
			rank = 2
		}
		if rank > bestRank {
			best, bestRank = int(binary.BigEndian.Uint32(cmap[rec+4:])), rank
		}
	}
	if best < 0 || best+4 > len(cmap) {
		return nil
	}
	out := map[uint32]rune{}
	add := func(r rune, gid uint32) {
		if gid == 0 || r < 0x20 || (r >= 0xD800 && r < 0xE000) || r > 0x10FFFF {
			return
		}
		if old, ok := out[gid]; !ok || r < old {
			out[gid] = r
		}
	}
	sub := cmap[best:]
	switch binary.BigEndian.Uint16(sub) {
	case 4:
		if len(sub) < 14 {
			return nil
		}
		segX2 := int(binary.BigEndian.Uint16(sub[6:]))
		ends, starts := 14, 14+segX2+2
		deltas, offsets := starts+segX2, starts+2*segX2
		if offsets+segX2 > len(sub) {
			return nil
		}
		for s := 0; s < segX2/2; s++ {
			end := int(binary.BigEndian.Uint16(sub[ends+2*s:]))
			start := int(binary.BigEndian.Uint16(sub[starts+2*s:]))
			delta := int(binary.BigEndian.Uint16(sub[deltas+2*s:]))
			ro := int(binary.BigEndian.Uint16(sub[offsets+2*s:]))
			for c := start; c <= end && c != 0xFFFF; c++ {
				var gid int
				if ro == 0 {
					gid = (c + delta) & 0xFFFF
				} else {
					at := offsets + 2*s + ro + 2*(c-start)
					if at+2 > len(sub) {
						break
					}
					gid = int(binary.BigEndian.Uint16(sub[at:]))
					if gid != 0 {
						gid = (gid + delta) & 0xFFFF
					}
				}
				add(rune(c), uint32(gid))
			}
		}
	case 12:
		if len(sub) < 16 {
			return nil
		}
		n := int(binary.BigEndian.Uint32(sub[12:]))
		for g := 0; g < n && 16+12*g+12 <= len(sub); g++ {
			rec := sub[16+12*g:]
			start := binary.BigEndian.Uint32(rec)
			end := binary.BigEndian.Uint32(rec[4:])
			gid := binary.BigEndian.Uint32(rec[8:])
			if end < start || end-start > 1<<16 {
				continue
			}
			for c := start; c <= end; c++ {
				add(rune(c), gid+(c-start))
			}
		}
	case 6:
		if len(sub) < 10 {
			return nil
		}
		first := int(binary.BigEndian.Uint16(sub[6:]))
		count := int(binary.BigEndian.Uint16(sub[8:]))
		for i := 0; i < count && 10+2*i+2 <= len(sub); i++ {
			add(rune(first+i), uint32(binary.BigEndian.Uint16(sub[10+2*i:])))
		}
	}
	return out
}
