package pdftext

import (
	"sort"
	"unicode/utf16"
)

// codespace is one codespace range of a CMap: codes of n bytes in [lo, hi].
type codespace struct {
	lo, hi uint32
	n      int
}

// codeRange maps a contiguous run of codes to consecutive values: CIDs for
// an encoding CMap, UTF-16 strings whose last unit increments for ToUnicode.
type codeRange struct {
	lo, hi uint32
	cid    uint32   // encoding CMaps
	dst    []uint16 // ToUnicode: destination of lo
	dsts   []string // ToUnicode: explicit destination per code (array form)
}

// cmap is a parsed CMap (PDF 32000-1 9.7.5 and 9.10.3). One type serves
// both the encoding CMaps of Type0 fonts (code → CID) and ToUnicode maps
// (code → text). It is parsed once per stream object and cached.
type cmap struct {
	codespaces []codespace
	singles    map[uint32]uint32 // cidchar
	ranges     []codeRange       // cidrange or bfrange, sorted by lo
	uniSingles map[uint32]string // bfchar
	vertical   bool
	// identity marks Identity-H/V: two-byte codes equal to CIDs.
	identity bool
	// identityParent is set by "/Identity-H usecmap": codes the CMap does
	// not map itself are their own CIDs.
	identityParent bool
}

// nextCode splits the first character code off s using the codespace ranges,
// falling back to the shortest code length when no range matches (as Acrobat
// does with broken CMaps).
func (c *cmap) nextCode(s []byte) (code uint32, n int) {
	if c == nil || c.identity || len(c.codespaces) == 0 {
		// Identity CMaps and CMaps without codespaces use two-byte codes.
		if len(s) >= 2 {
			return uint32(s[0])<<8 | uint32(s[1]), 2
		}
		return uint32(s[0]), 1
	}
	shortest := 4
	for _, cs := range c.codespaces {
		shortest = min(shortest, cs.n)
		if cs.n > len(s) {
			continue
		}
		var v uint32
		for i := 0; i < cs.n; i++ {
			v = v<<8 | uint32(s[i])
		}
		if v >= cs.lo && v <= cs.hi {
			return v, cs.n
		}
	}
	n = min(max(shortest, 1), len(s))
	for i := 0; i < n; i++ {
		code = code<<8 | uint32(s[i])
	}
	return code, n
}

// cid maps a code to its CID through an encoding CMap.
func (c *cmap) cid(code uint32) uint32 {
	if c == nil || c.identity {
		return code
	}
	if v, ok := c.singles[code]; ok {
		return v
	}
	if r := c.findRange(code); r != nil {
		return r.cid + (code - r.lo)
	}
	if c.identityParent {
		return code
	}
	return 0
}

// text maps a code to Unicode text through a ToUnicode CMap.
func (c *cmap) text(code uint32) (string, bool) {
	if c == nil {
		return "", false
	}
	if s, ok := c.uniSingles[code]; ok {
		return s, true
	}
	r := c.findRange(code)
	if r == nil {
		return "", false
	}
	off := code - r.lo
	if r.dsts != nil {
		if int(off) < len(r.dsts) {
			return r.dsts[off], true
		}
		return "", false
	}
	if len(r.dst) == 0 {
		return "", false
	}
	u := make([]uint16, len(r.dst))
	copy(u, r.dst)
	u[len(u)-1] += uint16(off)
	return string(utf16.Decode(u)), true
}

func (c *cmap) findRange(code uint32) *codeRange {
	i := sort.Search(len(c.ranges), func(i int) bool { return c.ranges[i].hi >= code })
	if i < len(c.ranges) && c.ranges[i].lo <= code {
		return &c.ranges[i]
	}
	return nil
}

func bytesToCode(b []byte) uint32 {
	var v uint32
	for _, x := range b[:min(len(b), 4)] {
		v = v<<8 | uint32(x)
	}
	return v
}

// utf16Text decodes a ToUnicode destination. Destinations are UTF-16BE; an
// odd single byte is taken as a code point, which some producers write.
func utf16Text(b []byte) string {
	if len(b) == 1 {
		return string(rune(b[0]))
	}
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	return string(utf16.Decode(u))
}

func utf16Units(b []byte) []uint16 {
	if len(b) == 1 {
		return []uint16{uint16(b[0])}
	}
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	return u
}

// maxCMapRangeSpan bounds one range so a hostile CMap cannot make lookups
// or memory explode; real CMaps stay within a 2-byte row.
const maxCMapRangeSpan = 1 << 24

// parseCMap reads the CMap operators the extractor needs from data. It never
// fails: whatever parses is kept, as viewers do.
func parseCMap(data []byte) *cmap {
	c := &cmap{singles: map[uint32]uint32{}, uniSingles: map[uint32]string{}}
	lx := newLexer(data)
	var stack []token
	// Operands are copied out of the scratch arena because CMap sections
	// span many tokens.
	push := func(t token) {
		if t.b != nil {
			t.b = append([]byte(nil), t.b...)
		}
		stack = append(stack, t)
	}
	for {
		lx.resetScratch()
		t := lx.next()
		switch t.kind {
		case tokEOF:
			sort.Slice(c.ranges, func(i, j int) bool { return c.ranges[i].lo < c.ranges[j].lo })
			return c
		case tokKeyword:
			switch string(t.b) {
			case "endcodespacerange":
				for i := 0; i+1 < len(stack); i += 2 {
					lo, hi := stack[i], stack[i+1]
					if lo.kind == tokString && hi.kind == tokString && len(lo.b) > 0 && len(lo.b) <= 4 {
						c.codespaces = append(c.codespaces, codespace{lo: bytesToCode(lo.b), hi: bytesToCode(hi.b), n: len(lo.b)})
					}
				}
			case "endcidchar":
				for i := 0; i+1 < len(stack); i += 2 {
					if stack[i].kind == tokString && stack[i+1].kind == tokNumber {
						c.singles[bytesToCode(stack[i].b)] = uint32(max(stack[i+1].num, 0))
					}
				}
			case "endcidrange":
				for i := 0; i+2 < len(stack); i += 3 {
					lo, hi, v := stack[i], stack[i+1], stack[i+2]
					if lo.kind == tokString && hi.kind == tokString && v.kind == tokNumber {
						c.addRange(codeRange{lo: bytesToCode(lo.b), hi: bytesToCode(hi.b), cid: uint32(max(v.num, 0))})
					}
				}
			case "endbfchar":
				for i := 0; i+1 < len(stack); i += 2 {
					src, dst := stack[i], stack[i+1]
					if src.kind != tokString {
						continue
					}
					switch dst.kind {
					case tokString:
						c.uniSingles[bytesToCode(src.b)] = utf16Text(dst.b)
					case tokName:
						if s, ok := glyphNameToText(string(dst.b)); ok {
							c.uniSingles[bytesToCode(src.b)] = s
						}
					}
				}
			case "endbfrange":
				c.bfRanges(stack)
			case "usecmap":
				// Predefined parents are not bundled; only Identity matters.
				if len(stack) > 0 && stack[len(stack)-1].kind == tokName {
					n := string(stack[len(stack)-1].b)
					if n == "Identity-H" || n == "Identity-V" {
						c.identityParent = true
					}
				}
			case "def":
				if len(stack) >= 2 && stack[len(stack)-2].kind == tokName && string(stack[len(stack)-2].b) == "WMode" {
					c.vertical = stack[len(stack)-1].num == 1
				}
			}
			stack = stack[:0]
		default:
			push(t)
		}
		if len(stack) > 1<<16 {
			stack = stack[:0] // a runaway section: drop it rather than grow
		}
	}
}

func (c *cmap) addRange(r codeRange) {
	if r.hi < r.lo || r.hi-r.lo > maxCMapRangeSpan {
		return
	}
	c.ranges = append(c.ranges, r)
}

// bfRanges handles both bfrange forms: "<lo> <hi> <dst>" and
// "<lo> <hi> [<d0> <d1> ...]".
func (c *cmap) bfRanges(stack []token) {
	for i := 0; i+2 < len(stack); {
		lo, hi := stack[i], stack[i+1]
		if lo.kind != tokString || hi.kind != tokString {
			i++
			continue
		}
		r := codeRange{lo: bytesToCode(lo.b), hi: bytesToCode(hi.b)}
		if stack[i+2].kind == tokArrayOpen {
			j := i + 3
			for ; j < len(stack) && stack[j].kind != tokArrayClose; j++ {
				if stack[j].kind == tokString {
					r.dsts = append(r.dsts, utf16Text(stack[j].b))
				}
			}
			c.addRange(r)
			i = j + 1
			continue
		}
		if stack[i+2].kind == tokString {
			r.dst = utf16Units(stack[i+2].b)
			if r.lo == r.hi {
				c.uniSingles[r.lo] = utf16Text(stack[i+2].b)
			} else {
				c.addRange(r)
			}
		}
		i += 3
	}
}
