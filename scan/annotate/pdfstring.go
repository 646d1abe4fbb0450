package annotate

import (
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"
)

// textString encodes s as a PDF text string (annotation /Contents, /T, /NM).
// Plain ASCII stays a readable literal; anything else becomes UTF-16BE with a
// byte-order mark, the one encoding every viewer decodes for non-Latin text.
func textString(s string) types.Object {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if isPlainASCII(s) {
		return types.StringLiteral(escapeLiteral([]byte(s)))
	}
	units := utf16.Encode([]rune(s))
	b := make([]byte, 0, 2+2*len(units))
	b = append(b, 0xFE, 0xFF)
	for _, u := range units {
		b = append(b, byte(u>>8), byte(u))
	}
	return types.HexLiteral(hex.EncodeToString(b))
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x7F || (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
			return false
		}
	}
	return true
}

// escapeLiteral escapes bytes for a PDF literal string "( … )". Everything
// outside printable ASCII is written in octal so that neither line-ending
// normalisation nor a careless editor can change the bytes.
func escapeLiteral(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for _, c := range b {
		switch {
		case c == '(' || c == ')' || c == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '\r':
			sb.WriteString(`\r`)
		case c == '\t':
			sb.WriteString(`\t`)
		case c < 0x20 || c >= 0x7F:
			sb.WriteByte('\\')
			sb.WriteString(strconv.FormatInt(int64(c)|0o1000, 8)[1:])
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// winAnsi converts text for the standard-14 fonts, which only know
// WinAnsiEncoding. Letters outside it lose their accents (č → c) rather than
// vanish; what still has no equivalent becomes '?'. Control characters turn
// into spaces so they cannot upset the layout.
func winAnsi(s string) []byte {
	s = norm.NFC.String(strings.ToValidUTF8(s, "?"))
	enc := charmap.Windows1252
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r < 0x20 || r == 0x7F {
			out = append(out, ' ')
			continue
		}
		if b, ok := enc.EncodeRune(r); ok {
			out = append(out, b)
			continue
		}
		out = append(out, fallbackWinAnsi(r)...)
	}
	return out
}

func fallbackWinAnsi(r rune) []byte {
	switch r {
	case '\u2010', '\u2011', '\u2012', '\u2212':
		return []byte{'-'}
	case '\u00A0', '\u2002', '\u2003', '\u2009', '\u202F':
		return []byte{' '}
	case '\u2264':
		return []byte("<=")
	case '\u2265':
		return []byte(">=")
	}
	var base []byte
	for _, d := range norm.NFKD.String(string(r)) {
		if unicode.Is(unicode.Mn, d) {
			continue
		}
		if b, ok := charmap.Windows1252.EncodeRune(d); ok && d >= 0x20 {
			base = append(base, b)
			continue
		}
		return []byte{'?'}
	}
	if len(base) == 0 {
		return []byte{'?'}
	}
	return base
}

// num formats a coordinate for a content stream: three decimals are far below
// a printer's resolution and keep the streams short.
func num(f float64) string {
	s := strconv.FormatFloat(f, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

// pdfNumber is num as a PDF object, for /Rect, /BBox and friends.
func pdfNumber(f float64) types.Object {
	if f == float64(int64(f)) && f > -1e15 && f < 1e15 {
		return types.Integer(int(f))
	}
	v, _ := strconv.ParseFloat(num(f), 64)
	return types.Float(v)
}

func pdfNumbers(fs ...float64) types.Array {
	a := make(types.Array, len(fs))
	for i, f := range fs {
		a[i] = pdfNumber(f)
	}
	return a
}

func pdfRect(b box) types.Array { return pdfNumbers(b.llx, b.lly, b.urx, b.ury) }
