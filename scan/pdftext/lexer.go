package pdftext

import (
	"bytes"
	"strconv"
)

// tokenKind is the type of one content-stream token.
type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokNumber
	tokString // literal or hex string, already decoded to bytes
	tokName   // without the leading slash
	tokArrayOpen
	tokArrayClose
	tokDictOpen
	tokDictClose
	tokKeyword // operators, true/false/null, CMap keywords
)

// token is one lexical element. Its byte slices alias either the input or
// the lexer's scratch buffer, so they are only valid until the next call that
// resets the scratch (see lexer.resetScratch).
type token struct {
	kind tokenKind
	num  float64
	b    []byte
}

// lexer tokenises PDF content streams and CMaps. It is written for speed on
// label-dense sheets: no allocation per token, strings decoded into a scratch
// arena that the interpreter resets once per operator.
type lexer struct {
	data    []byte
	pos     int
	scratch []byte
}

func newLexer(data []byte) *lexer {
	return &lexer{data: data, scratch: make([]byte, 0, 256)}
}

func (lx *lexer) resetScratch() { lx.scratch = lx.scratch[:0] }

func isWhite(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// next returns the next token; tokEOF at the end of the data.
func (lx *lexer) next() token {
	d := lx.data
	for lx.pos < len(d) {
		c := d[lx.pos]
		if isWhite(c) {
			lx.pos++
			continue
		}
		if c == '%' {
			for lx.pos < len(d) && d[lx.pos] != '\n' && d[lx.pos] != '\r' {
				lx.pos++
			}
			continue
		}
		break
	}
	if lx.pos >= len(d) {
		return token{kind: tokEOF}
	}
	c := d[lx.pos]
	switch {
	case c == '/':
		lx.pos++
		start := lx.pos
		for lx.pos < len(d) && !isWhite(d[lx.pos]) && !isDelim(d[lx.pos]) {
			lx.pos++
		}
		name := d[start:lx.pos]
		if bytes.IndexByte(name, '#') >= 0 {
			name = lx.unescapeName(name)
		}
		return token{kind: tokName, b: name}
	case c == '(':
		lx.pos++
		return token{kind: tokString, b: lx.literalString()}
	case c == '<':
		if lx.pos+1 < len(d) && d[lx.pos+1] == '<' {
			lx.pos += 2
			return token{kind: tokDictOpen}
		}
		lx.pos++
		return token{kind: tokString, b: lx.hexString()}
	case c == '>':
		if lx.pos+1 < len(d) && d[lx.pos+1] == '>' {
			lx.pos += 2
			return token{kind: tokDictClose}
		}
		lx.pos++
		return lx.next() // stray '>': skip it
	case c == '[':
		lx.pos++
		return token{kind: tokArrayOpen}
	case c == ']':
		lx.pos++
		return token{kind: tokArrayClose}
	case c == '{' || c == '}' || c == ')':
		// PostScript procedure braces (Type 4 functions in CMaps) and stray
		// parentheses carry no text: treat them as separators.
		lx.pos++
		return lx.next()
	case c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'):
		return lx.number()
	}
	start := lx.pos
	for lx.pos < len(d) && !isWhite(d[lx.pos]) && !isDelim(d[lx.pos]) {
		lx.pos++
	}
	return token{kind: tokKeyword, b: d[start:lx.pos]}
}

func (lx *lexer) number() token {
	d := lx.data
	start := lx.pos
	neg := false
	if d[lx.pos] == '+' || d[lx.pos] == '-' {
		neg = d[lx.pos] == '-'
		lx.pos++
		// Some producers write "--5"; accept repeated signs like Acrobat does.
		for lx.pos < len(d) && (d[lx.pos] == '-' || d[lx.pos] == '+') {
			lx.pos++
		}
	}
	var intPart float64
	digits := 0
	for lx.pos < len(d) && d[lx.pos] >= '0' && d[lx.pos] <= '9' {
		intPart = intPart*10 + float64(d[lx.pos]-'0')
		lx.pos++
		digits++
	}
	if lx.pos < len(d) && d[lx.pos] == '.' {
		lx.pos++
		scale := 0.1
		for lx.pos < len(d) && d[lx.pos] >= '0' && d[lx.pos] <= '9' {
			intPart += float64(d[lx.pos]-'0') * scale
			scale *= 0.1
			lx.pos++
			digits++
		}
	}
	if digits > 17 {
		// Long digit strings lose precision with the fast path: parse exactly.
		if v, err := strconv.ParseFloat(string(bytes.TrimLeft(d[start:lx.pos], "+-")), 64); err == nil {
			intPart = v
		}
	}
	// A number glued to a keyword ("12Tf" does not occur, but "1.2.3" does in
	// broken files): swallow the rest as part of the number.
	for lx.pos < len(d) && !isWhite(d[lx.pos]) && !isDelim(d[lx.pos]) {
		lx.pos++
	}
	if digits == 0 {
		return token{kind: tokNumber, num: 0}
	}
	if neg {
		intPart = -intPart
	}
	return token{kind: tokNumber, num: intPart}
}

func (lx *lexer) literalString() []byte {
	d := lx.data
	start := len(lx.scratch)
	depth := 1
	for lx.pos < len(d) {
		c := d[lx.pos]
		lx.pos++
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return lx.scratch[start:len(lx.scratch):len(lx.scratch)]
			}
		case '\\':
			if lx.pos >= len(d) {
				continue
			}
			e := d[lx.pos]
			lx.pos++
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if lx.pos < len(d) && d[lx.pos] == '\n' {
					lx.pos++
				}
				continue
			case '\n':
				continue
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for i := 0; i < 2 && lx.pos < len(d) && d[lx.pos] >= '0' && d[lx.pos] <= '7'; i++ {
						v = v*8 + int(d[lx.pos]-'0')
						lx.pos++
					}
					c = byte(v)
				} else {
					c = e
				}
			}
		}
		lx.scratch = append(lx.scratch, c)
	}
	return lx.scratch[start:len(lx.scratch):len(lx.scratch)]
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func (lx *lexer) hexString() []byte {
	d := lx.data
	start := len(lx.scratch)
	var hi byte
	half := false
	for lx.pos < len(d) {
		c := d[lx.pos]
		lx.pos++
		if c == '>' {
			break
		}
		v, ok := unhex(c)
		if !ok {
			continue
		}
		if half {
			lx.scratch = append(lx.scratch, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	if half {
		lx.scratch = append(lx.scratch, hi<<4)
	}
	return lx.scratch[start:len(lx.scratch):len(lx.scratch)]
}

func (lx *lexer) unescapeName(name []byte) []byte {
	start := len(lx.scratch)
	for i := 0; i < len(name); i++ {
		if name[i] == '#' && i+2 < len(name) {
			h, ok1 := unhex(name[i+1])
			l, ok2 := unhex(name[i+2])
			if ok1 && ok2 {
				lx.scratch = append(lx.scratch, h<<4|l)
				i += 2
				continue
			}
		}
		lx.scratch = append(lx.scratch, name[i])
	}
	return lx.scratch[start:len(lx.scratch):len(lx.scratch)]
}

// skipInlineImage moves past the binary data of an inline image (after the
// ID operator) to just after its EI operator. The data may contain anything,
// so EI only counts when it stands alone between white space and what
// follows looks like content again.
func (lx *lexer) skipInlineImage() {
	d := lx.data
	if lx.pos < len(d) && isWhite(d[lx.pos]) {
		lx.pos++
	}
	for i := lx.pos; i+1 < len(d); i++ {
		if d[i] != 'E' || d[i+1] != 'I' {
			continue
		}
		if i > 0 && !isWhite(d[i-1]) {
			continue
		}
		if i+2 < len(d) && !isWhite(d[i+2]) {
			continue
		}
		if !plausibleContentAfter(d[min(i+2, len(d)):]) {
			continue
		}
		lx.pos = i + 2
		return
	}
	lx.pos = len(d)
}

// plausibleContentAfter reports whether the bytes after a candidate EI look
// like PDF operators rather than more binary image data.
func plausibleContentAfter(b []byte) bool {
	n := min(len(b), 32)
	for _, c := range b[:n] {
		if c > 127 || (c < 32 && !isWhite(c)) {
			return false
		}
	}
	return true
}
