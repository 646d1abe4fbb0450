package pdftext

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	pdffont "github.com/pdfcpu/pdfcpu/pkg/font"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

type fontKind uint8

const (
	fontSimple fontKind = iota
	fontType0
	fontType3
)

// font is everything the extractor needs from a font dictionary, resolved
// once per font object: widths in text space units, text per code, and the
// vertical extent poppler uses for word boxes.
type font struct {
	kind fontKind

	// Simple and Type 3 fonts: per-code width and text.
	widths  [256]float64
	texts   [256]string
	hasText [256]bool

	// Type0 fonts.
	encoding  *cmap // code → CID (and code lengths)
	toUnicode *cmap
	ucs2Codes bool // predefined UCS2/UTF16 CMaps: the code is the text
	// unknownCIDs marks predefined CMaps other than Identity (Shift-JIS,
	// GBK, UCS2 ...): their code → CID tables are not bundled, so glyphs
	// take the default width.
	unknownCIDs bool
	// codeText memoises code → text: ToUnicode ranges build their text on
	// each lookup, and a sheet repeats the same codes thousands of times.
	codeText  map[uint32]string
	cidWidths map[uint32]float64
	cidRanges []cidWidthRange
	defaultW  float64
	vertical  bool
	defaultW2 float64 // vertical displacement (DW2 second entry), text space

	ascent, descent float64
	// fontMatrix is Type 3 only: glyph space to text space.
	fontMatrix [6]float64
	// sizeScale is poppler's Type 3 guess of the glyph scale, applied to the
	// font size used to decide word breaks and box heights.
	sizeScale float64
}

type cidWidthRange struct {
	lo, hi uint32
	w      float64
}

// glyph is one decoded character code.
type glyph struct {
	code  uint32
	n     int // bytes consumed
	width float64
	text  string
}

// next decodes the first character code of s.
func (f *font) next(s []byte) glyph {
	if f.kind != fontType0 {
		c := s[0]
		return glyph{code: uint32(c), n: 1, width: f.widths[c], text: f.texts[c]}
	}
	code, n := f.encoding.nextCode(s)
	g := glyph{code: code, n: n}
	if f.unknownCIDs {
		g.width = f.defaultW // the code → CID table is not bundled
	} else {
		g.width = f.cidWidth(f.encoding.cid(code))
	}
	if t, ok := f.codeText[code]; ok {
		g.text = t
		return g
	}
	if t, ok := f.toUnicode.text(code); ok {
		g.text = t
	} else if f.ucs2Codes {
		g.text = string(rune(code))
	}
	if f.codeText == nil {
		f.codeText = map[uint32]string{}
	}
	if len(f.codeText) < 1<<16 { // a hostile four-byte codespace stays bounded
		f.codeText[code] = g.text
	}
	return g
}

func (f *font) cidWidth(cid uint32) float64 {
	if w, ok := f.cidWidths[cid]; ok {
		return w
	}
	// Ranges are sorted by their first CID; the last one starting at or
	// before cid is the only candidate when ranges do not overlap, and
	// /W ranges that overlap are malformed anyway.
	i := sort.Search(len(f.cidRanges), func(i int) bool { return f.cidRanges[i].lo > cid }) - 1
	if i >= 0 && cid <= f.cidRanges[i].hi {
		return f.cidRanges[i].w
	}
	return f.defaultW
}

// Poppler's built-in vertical metrics of the standard 14 fonts, used for
// non-embedded fonts whose descriptors are not trusted.
var base14Extents = map[string][2]float64{
	"Courier": {0.629, -0.157}, "Courier-Bold": {0.629, -0.157}, "Courier-Oblique": {0.629, -0.157},
	"Courier-BoldOblique": {0.629, -0.157}, "Helvetica": {0.718, -0.207}, "Helvetica-Bold": {0.718, -0.207},
	"Helvetica-Oblique": {0.718, -0.207}, "Helvetica-BoldOblique": {0.718, -0.207},
	"Times-Roman": {0.683, -0.217}, "Times-Bold": {0.676, -0.205}, "Times-Italic": {0.683, -0.205},
	"Times-BoldItalic": {0.699, -0.205}, "Symbol": {1.010, -0.293}, "ZapfDingbats": {0.820, -0.143},
}

// base14Name maps a BaseFont to a standard 14 font name, with the aliases
// Acrobat and poppler accept (Arial, TimesNewRoman, CourierNew and their
// style suffixes). "" when it is not one.
func base14Name(baseFont string) string {
	name := strings.ReplaceAll(baseFont, " ", "")
	if _, ok := base14Extents[name]; ok {
		return name
	}
	family, style := name, ""
	if i := strings.IndexAny(name, ",-"); i >= 0 {
		family, style = name[:i], name[i+1:]
	}
	family = strings.TrimSuffix(family, "MT")
	family = strings.TrimSuffix(family, "PS")
	bold := strings.Contains(style, "Bold")
	italic := strings.Contains(style, "Italic") || strings.Contains(style, "Oblique")
	switch family {
	case "Arial", "Helvetica":
		return pick(bold, italic, "Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique")
	case "Courier", "CourierNew":
		return pick(bold, italic, "Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique")
	case "Times", "TimesNewRoman":
		return pick(bold, italic, "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic")
	case "Symbol":
		return "Symbol"
	case "ZapfDingbats":
		return "ZapfDingbats"
	}
	return ""
}

func pick(bold, italic bool, regular, b, i, bi string) string {
	switch {
	case bold && italic:
		return bi
	case bold:
		return b
	case italic:
		return i
	}
	return regular
}

// Font descriptor flags (PDF 32000-1 table 123).
const (
	flagFixedPitch = 1 << 0
	flagSerif      = 1 << 1
	flagSymbolic   = 1 << 2
	flagItalic     = 1 << 6
	flagForceBold  = 1 << 18
)

// loadFont builds a font from its dictionary. It never fails: missing parts
// fall back to defaults the way viewers do, so one odd font cannot hide the
// rest of the page.
func (o objects) loadFont(obj types.Object) *font {
	d := o.dict(obj)
	f := &font{ascent: 0.95, descent: -0.35, sizeScale: 1, defaultW: 1}
	if d == nil {
		return f
	}
	switch o.name(d["Subtype"]) {
	case "Type0":
		o.loadType0(f, d)
	case "Type3":
		o.loadSimple(f, d, true)
	default:
		o.loadSimple(f, d, false)
	}
	return f
}

// readDescriptor applies the font descriptor's ascent and descent with
// poppler's sanity checks, and reports flags and whether a font program is
// embedded.
func (o objects) readDescriptor(f *font, fd types.Dict) (flags int, embedded bool, missingWidth float64) {
	if fd == nil {
		return 0, false, 0
	}
	flags = int(o.numberOr(fd["Flags"], 0))
	if v, ok := o.number(fd["Ascent"]); ok {
		t := v * 0.001
		if t < 0 {
			t = -t
		}
		if t != 0 && t < 3 {
			f.ascent = t
		}
	}
	if v, ok := o.number(fd["Descent"]); ok {
		t := v * 0.001
		if t > 0 {
			t = -t
		}
		if t != 0 && t > -3 {
			f.descent = t
		}
	}
	for _, k := range []string{"FontFile", "FontFile2", "FontFile3"} {
		if _, ok := fd[k]; ok {
			embedded = true
		}
	}
	return flags, embedded, o.numberOr(fd["MissingWidth"], 0)
}

func (o objects) loadSimple(f *font, d types.Dict, type3 bool) {
	baseFont := o.name(d["BaseFont"])
	std := base14Name(baseFont)
	if ext, ok := base14Extents[std]; ok {
		f.ascent, f.descent = ext[0], ext[1]
	}
	fd := o.dict(d["FontDescriptor"])
	flags, embedded, missingWidth := o.readDescriptor(f, fd)
	if std != "" && !embedded {
		ext := base14Extents[std]
		f.ascent, f.descent = ext[0], ext[1]
	}

	scale := 0.001
	if type3 {
		f.kind = fontType3
		f.fontMatrix = [6]float64{0.001, 0, 0, 0.001, 0, 0}
		if m := o.numbers(d["FontMatrix"]); len(m) == 6 {
			copy(f.fontMatrix[:], m)
		}
		scale = f.fontMatrix[0]
	}

	// Encoding: base table, then the font program's own encoding for
	// embedded Type 1, then /Differences.
	var names encodingTable
	symbolic := flags&flagSymbolic != 0 && flags&(1<<5) == 0
	switch {
	case type3:
		// Type 3 fonts have no base encoding; only /Differences names glyphs.
	case std == "Symbol" || std == "ZapfDingbats":
		// Their built-in encodings name symbols poppler maps through its own
		// tables; keep codes as text below.
	case o.name(d["Subtype"]) == "TrueType" && symbolic:
	default:
		names = standardEncoding
	}
	if fd != nil {
		if ff := fd["FontFile"]; ff != nil {
			if _, data, err := o.stream(ff); err == nil {
				applyType1BuiltinEncoding(&names, data)
			}
		}
	}
	encObj := o.resolve(d["Encoding"])
	switch e := encObj.(type) {
	case types.Name:
		applyBaseEncoding(&names, string(e))
	case types.Dict:
		if base := o.name(e["BaseEncoding"]); base != "" {
			applyBaseEncoding(&names, base)
		}
		code := 0
		for _, item := range o.array(e["Differences"]) {
			switch v := o.resolve(item).(type) {
			case types.Integer:
				code = int(v)
			case types.Float:
				code = int(v)
			case types.Name:
				if code >= 0 && code < 256 {
					names[code] = string(v)
				}
				code++
			}
		}
	}

	toUni := o.toUnicode(d)
	for code := range 256 {
		if t, ok := toUni.text(uint32(code)); ok {
			f.texts[code], f.hasText[code] = t, true
			continue
		}
		if t, ok := glyphNameToText(names[code]); ok {
			f.texts[code], f.hasText[code] = t, true
			continue
		}
		if std == "Symbol" && !embedded {
			if r, ok := symbolEncoding[code]; ok {
				f.texts[code], f.hasText[code] = string(r), true
				continue
			}
		}
		if names[code] == "" && code >= 32 && (code < 127 || code > 159) && !type3 {
			// No name at all: take the code as Latin-1, as poppler does
			// for symbolic and unknown encodings.
			f.texts[code], f.hasText[code] = string(rune(code)), true
		}
	}

	// Widths: /Widths, else standard-14 metrics, else a substitute
	// standard font chosen from the descriptor flags, as poppler does.
	first := int(o.numberOr(d["FirstChar"], 0))
	widths := o.array(d["Widths"])
	missing := missingWidth * scale
	if len(widths) > 0 {
		for code := range 256 {
			f.widths[code] = missing
		}
		for i, w := range widths {
			code := first + i
			if code < 0 || code > 255 {
				continue
			}
			v, _ := o.number(w)
			f.widths[code] = v * scale
		}
		if type3 {
			f.sizeScale = type3SizeScale(f, names)
		}
		return
	}
	metricFont := std
	if metricFont == "" {
		metricFont = substituteBase14(flags, baseFont)
	}
	for code := range 256 {
		f.widths[code] = base14Width(metricFont, code, names[code], f.texts[code])
	}
}

// substituteBase14 chooses the standard font whose widths stand in for a
// font without /Widths, from its flags and name.
func substituteBase14(flags int, baseFont string) string {
	bold := flags&flagForceBold != 0 || strings.Contains(baseFont, "Bold")
	italic := flags&flagItalic != 0 || strings.Contains(baseFont, "Italic") || strings.Contains(baseFont, "Oblique")
	switch {
	case flags&flagFixedPitch != 0:
		return pick(bold, italic, "Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique")
	case flags&flagSerif != 0:
		return pick(bold, italic, "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic")
	}
	return pick(bold, italic, "Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique")
}

// base14Width is a glyph's width in text space units from pdfcpu's AFM
// metrics of the standard 14 fonts, which are indexed by WinAnsi code (or
// the font's own code for Symbol and ZapfDingbats).
func base14Width(std string, code int, name, text string) float64 {
	if std == "Symbol" || std == "ZapfDingbats" {
		w, err := pdffont.CharWidth(std, rune(code))
		if err != nil {
			return 0.5
		}
		return float64(w) * 0.001
	}
	r := rune(-1)
	if t, ok := glyphNameToText(name); ok && len([]rune(t)) == 1 {
		r = []rune(t)[0]
	} else if len([]rune(text)) == 1 {
		r = []rune(text)[0]
	}
	wa, ok := winAnsiCodeOf[r]
	if !ok {
		// Outside WinAnsi (e.g. Lslash): an accented letter is as wide as its
		// base letter, anything else gets the AFM's generic width.
		wa = code
		if r >= 0 {
			if base := []rune(decomposeBase(r)); len(base) > 0 {
				if c, ok := winAnsiCodeOf[base[0]]; ok {
					wa = c
				}
			}
		}
	}
	w, err := pdffont.CharWidth(std, rune(wa))
	if err != nil {
		return 0.5
	}
	return float64(w) * 0.001
}

// type3SizeScale reproduces poppler's guess of a Type 3 font's glyph scale
// from the width of 'm' (or any letter, or any glyph), so word breaking and
// box heights agree with it.
func type3SizeScale(f *font, names encodingTable) float64 {
	mCode, letterCode, anyCode := -1, -1, -1
	for code := range 256 {
		n := names[code]
		if n == "m" {
			mCode = code
		}
		if letterCode < 0 && len(n) == 1 && ((n[0] >= 'A' && n[0] <= 'Z') || (n[0] >= 'a' && n[0] <= 'z')) {
			letterCode = code
		}
		if anyCode < 0 && n != "" && f.widths[code] > 0 {
			anyCode = code
		}
	}
	s := 1.0
	switch {
	case mCode >= 0 && f.widths[mCode] > 0:
		s = f.widths[mCode] / 0.6
	case letterCode >= 0 && f.widths[letterCode] > 0:
		s = f.widths[letterCode] / 0.5
	case anyCode >= 0 && f.widths[anyCode] > 0:
		s = f.widths[anyCode] / 0.5
	}
	if fm := f.fontMatrix; fm[0] != 0 {
		s *= abs(fm[3] / fm[0])
	}
	return s
}

func applyBaseEncoding(t *encodingTable, name string) {
	switch name {
	case "WinAnsiEncoding":
		*t = winAnsiEncoding
	case "MacRomanEncoding":
		*t = macRomanEncoding
	case "StandardEncoding":
		*t = standardEncoding
	}
}

// applyType1BuiltinEncoding reads "dup <code> /<name> put" entries from the
// clear-text part of an embedded Type 1 font program: subset fonts usually
// carry their real encoding there, not in the PDF.
func applyType1BuiltinEncoding(t *encodingTable, program []byte) {
	head := program[:min(len(program), 64<<10)]
	i := bytes.Index(head, []byte("/Encoding"))
	if i < 0 {
		return
	}
	rest := head[i:]
	if end := bytes.Index(rest, []byte("readonly def")); end >= 0 {
		rest = rest[:end]
	} else if end := bytes.Index(rest, []byte("eexec")); end >= 0 {
		rest = rest[:end]
	}
	if bytes.Contains(rest[:min(len(rest), 40)], []byte("StandardEncoding")) {
		return
	}
	fields := bytes.Fields(rest)
	for j := 0; j+3 < len(fields); j++ {
		if string(fields[j]) != "dup" || len(fields[j+2]) < 2 || fields[j+2][0] != '/' {
			continue
		}
		code, err := strconv.Atoi(string(fields[j+1]))
		if err != nil || code < 0 || code > 255 {
			continue
		}
		t[code] = string(fields[j+2][1:])
	}
}

func (o objects) toUnicode(d types.Dict) *cmap {
	obj, ok := d["ToUnicode"]
	if !ok {
		return nil
	}
	if _, isName := o.resolve(obj).(types.Name); isName {
		return nil // a name (/Identity-H): no CMap; loadType0 decides what it means
	}
	return o.cmapStream(obj)
}

func (o objects) loadType0(f *font, d types.Dict) {
	f.kind = fontType0
	f.defaultW = 1
	f.defaultW2 = -1
	switch e := o.resolve(d["Encoding"]).(type) {
	case types.Name:
		name := string(e)
		f.vertical = strings.HasSuffix(name, "-V")
		f.encoding = &cmap{identity: true}
		if name != "Identity-H" && name != "Identity-V" {
			f.unknownCIDs = true
			f.ucs2Codes = strings.Contains(name, "UCS2") || strings.Contains(name, "UTF16")
		}
	case types.StreamDict:
		f.encoding = o.cmapStream(d["Encoding"])
		if f.encoding == nil {
			f.encoding = &cmap{identity: true}
		}
		if parent := o.name(e.Dict["UseCMap"]); parent == "Identity-H" || parent == "Identity-V" {
			f.encoding.identityParent = true
		}
		f.vertical = f.encoding.vertical || o.numberOr(e.Dict["WMode"], 0) == 1
	default:
		f.encoding = &cmap{identity: true}
	}
	f.toUnicode = o.toUnicode(d)
	if f.toUnicode == nil && !f.unknownCIDs {
		// "/ToUnicode /Identity-H" (a name, not a CMap): the producer says
		// the codes are the text. Poppler reads Adobe-Identity codes as
		// Unicode when no CMap stream is given; done here only where the
		// file says so.
		if n := o.name(d["ToUnicode"]); n == "Identity-H" || n == "Identity-V" {
			f.ucs2Codes = true
		}
	}
	if f.unknownCIDs && !f.ucs2Codes && f.toUnicode != nil && len(f.toUnicode.codespaces) > 0 {
		// A ToUnicode CMap declares the same code lengths as the encoding
		// it accompanies (one-byte ASCII, two-byte Shift-JIS ...).
		f.encoding = &cmap{codespaces: f.toUnicode.codespaces}
	}

	desc := o.array(d["DescendantFonts"])
	if len(desc) == 0 {
		return
	}
	cf := o.dict(desc[0])
	if cf == nil {
		return
	}
	o.readDescriptor(f, o.dict(cf["FontDescriptor"]))
	if v, ok := o.number(cf["DW"]); ok {
		f.defaultW = v * 0.001
	}
	if dw2 := o.numbers(cf["DW2"]); len(dw2) == 2 {
		f.defaultW2 = dw2[1] * 0.001
	}
	f.cidWidths = map[uint32]float64{}
	w := o.array(cf["W"])
	for i := 0; i < len(w); {
		first, ok := o.number(w[i])
		if !ok || i+1 >= len(w) {
			break
		}
		if arr := o.array(w[i+1]); arr != nil {
			for j, x := range arr {
				v, _ := o.number(x)
				f.cidWidths[uint32(first)+uint32(j)] = v * 0.001
			}
			i += 2
			continue
		}
		if i+2 >= len(w) {
			break
		}
		last, _ := o.number(w[i+1])
		v, _ := o.number(w[i+2])
		if last >= first && last-first < maxCMapRangeSpan {
			f.cidRanges = append(f.cidRanges, cidWidthRange{lo: uint32(first), hi: uint32(last), w: v * 0.001})
		}
		i += 3
	}
	sort.Slice(f.cidRanges, func(i, j int) bool { return f.cidRanges[i].lo < f.cidRanges[j].lo })
}
