package pdfgen

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// StandardFont adds a non-embedded standard 14 font without /Widths: the
// reader must take widths from the font's AFM metrics.
func (d *Doc) StandardFont(base string) int {
	return d.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>", base))
}

// WidthsFont adds a simple TrueType font (not embedded) with explicit
// /Widths for codes 32–126, all equal to width (glyph units), and a
// descriptor with the given ascent and descent.
func (d *Doc) WidthsFont(base string, width int, ascent, descent int) int {
	ws := make([]string, 95)
	for i := range ws {
		ws[i] = fmt.Sprint(width)
	}
	fd := d.Add(fmt.Sprintf("<< /Type /FontDescriptor /FontName /%s /Flags 32 /FontBBox [-200 -300 1200 1000] /ItalicAngle 0 /Ascent %d /Descent %d /CapHeight 700 /StemV 80 >>", base, ascent, descent))
	return d.Add(fmt.Sprintf("<< /Type /Font /Subtype /TrueType /BaseFont /%s /FirstChar 32 /LastChar 126 /Widths [%s] /Encoding /WinAnsiEncoding /FontDescriptor %d 0 R >>",
		base, strings.Join(ws, " "), fd))
}

// DifferencesFont adds a simple font whose /Differences renames codes:
// diffs maps a code to a glyph name (e.g. 1 → "fi"). Widths are 600.
func (d *Doc) DifferencesFont(base string, diffs map[int]string) int {
	var b strings.Builder
	for code := range 256 {
		if n, ok := diffs[code]; ok {
			fmt.Fprintf(&b, "%d /%s ", code, n)
		}
	}
	ws := make([]string, 256)
	for i := range ws {
		ws[i] = "600"
	}
	fd := d.Add(fmt.Sprintf("<< /Type /FontDescriptor /FontName /%s /Flags 32 /FontBBox [0 -200 1000 800] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>", base))
	enc := d.Add(fmt.Sprintf("<< /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [%s] >>", b.String()))
	return d.Add(fmt.Sprintf("<< /Type /Font /Subtype /TrueType /BaseFont /%s /FirstChar 0 /LastChar 255 /Widths [%s] /Encoding %d 0 R /FontDescriptor %d 0 R >>",
		base, strings.Join(ws, " "), enc, fd))
}

// CIDFont is a Type0 font with Identity-H encoding, a /W array and a
// ToUnicode CMap: each rune of its alphabet gets CID index+1 and the
// width in widths (glyph units) at the same index.
type CIDFont struct {
	Obj      int
	alphabet map[rune]uint16
}

// NewCIDFont adds a Type0/CIDFontType2 font covering alphabet.
func (d *Doc) NewCIDFont(base string, alphabet []rune, widths []int) *CIDFont {
	f := &CIDFont{alphabet: map[rune]uint16{}}
	var w, bf strings.Builder
	w.WriteString("1 [")
	for i, r := range alphabet {
		cid := uint16(i + 1)
		f.alphabet[r] = cid
		fmt.Fprintf(&w, "%d ", widths[i])
		u := utf16.Encode([]rune{r})
		dst := ""
		for _, x := range u {
			dst += fmt.Sprintf("%04X", x)
		}
		fmt.Fprintf(&bf, "<%04X> <%s>\n", cid, dst)
	}
	w.WriteString("]")
	cmap := fmt.Sprintf(`/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
%d beginbfchar
%sendbfchar
endcmap
CMapName currentdict /CMap defineresource pop
end
end
`, len(alphabet), bf.String())
	toUni := d.AddStream("", []byte(cmap), true)
	fd := d.Add(fmt.Sprintf("<< /Type /FontDescriptor /FontName /%s /Flags 4 /FontBBox [-100 -250 1100 950] /ItalicAngle 0 /Ascent 900 /Descent -250 /CapHeight 700 /StemV 80 >>", base))
	cid := d.Add(fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /%s /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor %d 0 R /DW 1000 /W [%s] /CIDToGIDMap /Identity >>",
		base, fd, w.String()))
	f.Obj = d.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /%s /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>", base, cid, toUni))
	return f
}

// Hex encodes s as a hex string operand for this font (two bytes a rune).
func (f *CIDFont) Hex(s string) string {
	var b strings.Builder
	b.WriteByte('<')
	for _, r := range s {
		fmt.Fprintf(&b, "%04X", f.alphabet[r])
	}
	b.WriteByte('>')
	return b.String()
}

// Type3Font adds a Type 3 font whose glyphs for 'A'–'Z' are filled boxes,
// in a 1000-unit glyph space (FontMatrix 0.001) with width 700.
func (d *Doc) Type3Font() int {
	procs := map[string]int{}
	var diffs, procRefs strings.Builder
	diffs.WriteString("65 ")
	for c := 'A'; c <= 'Z'; c++ {
		name := string(c)
		procs[name] = d.AddStream("", []byte("700 0 0 0 600 700 d1 50 0 500 700 re f"), false)
		diffs.WriteString("/" + name + " ")
		fmt.Fprintf(&procRefs, "/%s %d 0 R ", name, procs[name])
	}
	ws := make([]string, 26)
	for i := range ws {
		ws[i] = "700"
	}
	return d.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type3 /FontBBox [0 0 700 700] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << %s>> /Encoding << /Type /Encoding /Differences [%s] >> /FirstChar 65 /LastChar 90 /Widths [%s] /Resources << >> >>",
		procRefs.String(), diffs.String(), strings.Join(ws, " ")))
}

// Form adds a Form XObject with the given content, matrix and fonts.
func (d *Doc) Form(content string, matrix [6]float64, bbox [4]float64, fonts map[string]int, xobjects map[string]int) int {
	res := ""
	if len(fonts) > 0 {
		res += "/Font << " + refs(fonts) + ">> "
	}
	if len(xobjects) > 0 {
		res += "/XObject << " + refs(xobjects) + ">> "
	}
	extra := fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [%s] /Matrix [%s] /Resources << %s>> ", nums(bbox[:]), nums(matrix[:]), res)
	return d.AddStream(extra, []byte(content), d.Compress)
}

// Image adds a 2×2 grey image XObject.
func (d *Doc) Image() int {
	return d.AddStream("/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 ", []byte{0, 255, 255, 0}, false)
}
