package pdftext

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"
)

// The base encodings of simple fonts (PDF 32000-1 Annex D) as glyph names per
// code. Unicode values come from the glyph names, so a /Differences array and
// a base encoding go through the same lookup.

// asciiGlyphNames are the names of codes 32–126 shared by the Standard and
// WinAnsi encodings (Standard differs at 39 and 96, patched below).
var asciiGlyphNames = strings.Fields(`space exclam quotedbl numbersign dollar percent ampersand quotesingle
parenleft parenright asterisk plus comma hyphen period slash zero one two three four five six seven eight nine
colon semicolon less equal greater question at A B C D E F G H I J K L M N O P Q R S T U V W X Y Z
bracketleft backslash bracketright asciicircum underscore grave a b c d e f g h i j k l m n o p q r s t u v w x y z
braceleft bar braceright asciitilde`)

// winAnsiHigh names codes 128–255 of WinAnsiEncoding. The unused codes show a bullet, as the PDF reference notes and Acrobat and
// poppler do.
var winAnsiHigh = strings.Fields(`Euro bullet quotesinglbase florin quotedblbase ellipsis dagger daggerdbl circumflex perthousand
Scaron guilsinglleft OE bullet Zcaron bullet bullet quoteleft quoteright quotedblleft quotedblright bullet endash emdash tilde trademark
scaron guilsinglright oe bullet zcaron Ydieresis space exclamdown cent sterling currency yen brokenbar section dieresis copyright
ordfeminine guillemotleft logicalnot hyphen registered macron degree plusminus twosuperior threesuperior acute mu paragraph
periodcentered cedilla onesuperior ordmasculine guillemotright onequarter onehalf threequarters questiondown Agrave Aacute
Acircumflex Atilde Adieresis Aring AE Ccedilla Egrave Eacute Ecircumflex Edieresis Igrave Iacute Icircumflex Idieresis Eth
Ntilde Ograve Oacute Ocircumflex Otilde Odieresis multiply Oslash Ugrave Uacute Ucircumflex Udieresis Yacute Thorn germandbls
agrave aacute acircumflex atilde adieresis aring ae ccedilla egrave eacute ecircumflex edieresis igrave iacute icircumflex
idieresis eth ntilde ograve oacute ocircumflex otilde odieresis divide oslash ugrave uacute ucircumflex udieresis yacute thorn
ydieresis`)

// macRomanHigh names codes 128–255 of MacRomanEncoding.
var macRomanHigh = strings.Fields(`Adieresis Aring Ccedilla Eacute Ntilde Odieresis Udieresis aacute agrave acircumflex adieresis
atilde aring ccedilla eacute egrave ecircumflex edieresis iacute igrave icircumflex idieresis ntilde oacute ograve ocircumflex
odieresis otilde uacute ugrave ucircumflex udieresis dagger degree cent sterling section bullet paragraph germandbls registered
copyright trademark acute dieresis notequal AE Oslash infinity plusminus lessequal greaterequal yen mu partialdiff summation
product pi integral ordfeminine ordmasculine Omega ae oslash questiondown exclamdown logicalnot radical florin approxequal
Delta guillemotleft guillemotright ellipsis space Agrave Atilde Otilde OE oe endash emdash quotedblleft quotedblright
quoteleft quoteright divide lozenge ydieresis Ydieresis fraction currency guilsinglleft guilsinglright fi fl daggerdbl
periodcentered quotesinglbase quotedblbase perthousand Acircumflex Ecircumflex Aacute Edieresis Egrave Iacute Icircumflex
Idieresis Igrave Oacute Ocircumflex apple Ograve Uacute Ucircumflex Ugrave dotlessi circumflex tilde macron breve dotaccent
ring cedilla hungarumlaut ogonek caron`)

// standardHigh names the codes of StandardEncoding above 160 that are used.
var standardHigh = map[int]string{
	161: "exclamdown", 162: "cent", 163: "sterling", 164: "fraction", 165: "yen", 166: "florin", 167: "section",
	168: "currency", 169: "quotesingle", 170: "quotedblleft", 171: "guillemotleft", 172: "guilsinglleft",
	173: "guilsinglright", 174: "fi", 175: "fl", 177: "endash", 178: "dagger", 179: "daggerdbl",
	180: "periodcentered", 182: "paragraph", 183: "bullet", 184: "quotesinglbase", 185: "quotedblbase",
	186: "quotedblright", 187: "guillemotright", 188: "ellipsis", 189: "perthousand", 191: "questiondown",
	193: "grave", 194: "acute", 195: "circumflex", 196: "tilde", 197: "macron", 198: "breve", 199: "dotaccent",
	200: "dieresis", 202: "ring", 203: "cedilla", 205: "hungarumlaut", 206: "ogonek", 207: "caron",
	208: "emdash", 225: "AE", 227: "ordfeminine", 232: "Lslash", 233: "Oslash", 234: "OE", 235: "ordmasculine",
	241: "ae", 245: "dotlessi", 248: "lslash", 249: "oslash", 250: "oe", 251: "germandbls",
}

type encodingTable [256]string

var (
	standardEncoding encodingTable
	winAnsiEncoding  encodingTable
	macRomanEncoding encodingTable
	// glyphUnicode maps glyph names to text; filled from the tables above
	// plus glyphExtras, and consulted after the uniXXXX / uXXXX forms.
	glyphUnicode = map[string]string{}
	// winAnsiCodeOf is the WinAnsi code of a rune, for standard-14 widths
	// (pdfcpu's core font metrics are indexed by WinAnsi code).
	winAnsiCodeOf = map[rune]int{}
)

// glyphExtras are common glyph names outside the three Latin tables.
var glyphExtras = map[string]string{
	"ff": "ff", "ffi": "ffi", "ffl": "ffl", "fi": "fi", "fl": "fl", "st": "st",
	"nbspace": "\u00a0", "sfthyphen": "\u00ad", "minus": "\u2212", "fraction": "\u2044",
	"Lslash": "Ł", "lslash": "ł", "Dcroat": "Đ", "dcroat": "đ", "dotlessi": "ı", "dotlessj": "ȷ",
	"Delta": "∆", "Omega": "Ω", "pi": "π", "mu": "µ", "notequal": "≠", "infinity": "∞",
	"lessequal": "≤", "greaterequal": "≥", "partialdiff": "∂", "summation": "∑", "product": "∏",
	"integral": "∫", "approxequal": "≈", "radical": "√", "lozenge": "◊", "apple": "\uf8ff",
	"degree": "°", "diameter": "⌀", "Ohm": "Ω", "plusminus": "±", "multiply": "×", "divide": "÷",
	"quotesingle": "'", "quoteright": "\u2019", "quoteleft": "\u2018", "grave": "`",
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "theta": "θ", "lambda": "λ",
	"sigma": "σ", "tau": "τ", "phi": "φ", "omega": "ω", "Phi": "Φ", "Sigma": "Σ", "Theta": "Θ",
	"arrowright": "→", "arrowleft": "←", "arrowup": "↑", "arrowdown": "↓", "bullet": "•",
	"Euro": "€", "Ng": "Ŋ", "ng": "ŋ", "IJ": "Ĳ", "ij": "ĳ", "kgreenlandic": "ĸ", "napostrophe": "ŉ",
	"Ldot": "Ŀ", "ldot": "ŀ", "Hbar": "Ħ", "hbar": "ħ", "Tbar": "Ŧ", "tbar": "ŧ", "longs": "ſ",
	"commaaccent": "\u0326", "space": " ", "hyphen": "-", "periodcentered": "·", "middot": "·",
}

// diacriticSuffixes turn composed glyph names ("Abreve", "scommaaccent") into
// text by composing the base letter with a combining mark.
var diacriticSuffixes = []struct {
	suffix string
	mark   rune
}{
	{"commaaccent", 0x326}, {"hungarumlaut", 0x30B}, {"circumflex", 0x302}, {"dotaccent", 0x307},
	{"dieresis", 0x308}, {"cedilla", 0x327}, {"ogonek", 0x328}, {"macron", 0x304}, {"acute", 0x301},
	{"grave", 0x300}, {"tilde", 0x303}, {"breve", 0x306}, {"caron", 0x30C}, {"ring", 0x30A},
}

func init() {
	fill := func(t *encodingTable, high []string, dec *charmap.Charmap) {
		for i, n := range asciiGlyphNames {
			t[32+i] = n
		}
		for i, n := range high {
			if n == "-" {
				continue
			}
			code := 128 + i
			t[code] = n
			if dec != nil {
				if r := dec.DecodeByte(byte(code)); r != utf8.RuneError && (r < 0x80 || r > 0x9F) {
					if _, seen := glyphUnicode[n]; !seen {
						glyphUnicode[n] = string(r)
					}
				}
			}
		}
	}
	for i, n := range asciiGlyphNames {
		glyphUnicode[n] = string(rune(32 + i))
	}
	fill(&winAnsiEncoding, winAnsiHigh, charmap.Windows1252)
	winAnsiEncoding[127] = "bullet"
	fill(&macRomanEncoding, macRomanHigh, charmap.Macintosh)
	// WinAnsi 0xA0 and 0xAD repeat space and hyphen: keep ASCII meanings.
	glyphUnicode["space"], glyphUnicode["hyphen"] = " ", "-"
	for i, n := range asciiGlyphNames {
		standardEncoding[32+i] = n
	}
	standardEncoding[39], standardEncoding[96] = "quoteright", "quoteleft"
	for code, n := range standardHigh {
		standardEncoding[code] = n
	}
	for n, s := range glyphExtras {
		glyphUnicode[n] = s
	}
	for code := 32; code < 256; code++ {
		r := charmap.Windows1252.DecodeByte(byte(code))
		if r != utf8.RuneError {
			if _, ok := winAnsiCodeOf[r]; !ok {
				winAnsiCodeOf[r] = code
			}
		}
	}
}

// glyphNameToText maps a glyph name to text following the Adobe Glyph List
// conventions: known names, uniXXXX[XXXX...], uXXXX[XX], composed Latin
// names, and suffixes such as ".sc" or "_" ligature joins.
func glyphNameToText(name string) (string, bool) {
	if name == "" || name == ".notdef" {
		return "", false
	}
	if s, ok := glyphUnicode[name]; ok {
		return s, true
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		return glyphNameToText(name[:i])
	}
	if strings.Contains(name, "_") {
		var b strings.Builder
		for part := range strings.SplitSeq(name, "_") {
			s, ok := glyphNameToText(part)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	}
	if strings.HasPrefix(name, "uni") && len(name) >= 7 && (len(name)-3)%4 == 0 {
		var b strings.Builder
		for i := 3; i < len(name); i += 4 {
			v, err := strconv.ParseUint(name[i:i+4], 16, 32)
			if err != nil || (v >= 0xD800 && v <= 0xDFFF) {
				return "", false
			}
			b.WriteRune(rune(v))
		}
		return b.String(), true
	}
	if name[0] == 'u' && len(name) >= 5 && len(name) <= 7 {
		if v, err := strconv.ParseUint(name[1:], 16, 32); err == nil && v <= 0x10FFFF && (v < 0xD800 || v > 0xDFFF) {
			return string(rune(v)), true
		}
	}
	for _, d := range diacriticSuffixes {
		if len(name) > len(d.suffix) && strings.HasSuffix(name, d.suffix) {
			base := name[:len(name)-len(d.suffix)]
			if bs, ok := glyphUnicode[base]; ok && utf8.RuneCountInString(bs) == 1 {
				return norm.NFC.String(bs + string(d.mark)), true
			}
		}
	}
	return "", false
}
