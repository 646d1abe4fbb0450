package pdftext

import (
	"fmt"
	"strings"
	"testing"
)

func tokensOf(src string) []string {
	lx := newLexer([]byte(src))
	var out []string
	for {
		t := lx.next()
		switch t.kind {
		case tokEOF:
			return out
		case tokNumber:
			out = append(out, fmt.Sprintf("n:%g", t.num))
		case tokString:
			out = append(out, fmt.Sprintf("s:%q", t.b))
		case tokName:
			out = append(out, "/"+string(t.b))
		case tokKeyword:
			out = append(out, "k:"+string(t.b))
		case tokArrayOpen:
			out = append(out, "[")
		case tokArrayClose:
			out = append(out, "]")
		case tokDictOpen:
			out = append(out, "<<")
		case tokDictClose:
			out = append(out, ">>")
		}
	}
}

func TestLexer(t *testing.T) {
	cases := []struct {
		src  string
		want string
	}{
		{"12 -3.5 .25 +4 -.5 --2 1.2.3", "n:12 n:-3.5 n:0.25 n:4 n:-0.5 n:-2 n:1.2"},
		{`(a\(b\)c) (x\n\101\7y) (nested (paren) ok) (line\` + "\n" + `join)`, `s:"a(b)c" s:"x\nA\ay" s:"nested (paren) ok" s:"linejoin"`},
		{"<48656c6C6f> <4 8 6> <>", `s:"Hello" s:"H` + "`" + `" s:""`},
		{"/Name /A#20B /F1 Tf", "/Name /A B /F1 k:Tf"},
		{"[(A) -120 (B)] TJ % comment Tj\nET", `[ s:"A" n:-120 s:"B" ] k:TJ k:ET`},
		{"<< /Type /X /N [1 2] >> BDC", "<< /Type /X /N [ n:1 n:2 ] >> k:BDC"},
		{"T* ' \"", `k:T* k:' k:"`},
	}
	for _, tc := range cases {
		if got := strings.Join(tokensOf(tc.src), " "); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestSkipInlineImage(t *testing.T) {
	// Binary data holding "EI" inside a byte run must not end the image.
	src := "BI /W 2 /H 2 ID \x00EI\xffEI\x01 EI Q (after) Tj"
	lx := newLexer([]byte(src))
	for {
		tok := lx.next()
		if tok.kind == tokKeyword && string(tok.b) == "ID" {
			break
		}
	}
	lx.skipInlineImage()
	if got := strings.Join(tokensOf(string(lx.data[lx.pos:])), " "); got != `k:Q s:"after" k:Tj` {
		t.Fatalf("after image: %s", got)
	}
}

func TestParseCMap(t *testing.T) {
	src := `/CIDInit /ProcSet findresource begin 12 dict begin begincmap
2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange
2 beginbfchar <41> <0041> <8140> <D83DDE00> endbfchar
2 beginbfrange <42> <44> <0062> <8141> <8143> [<0031> <00660069> <0033>] endbfrange
1 begincidrange <9000> <90FF> 500 endcidrange
1 begincidchar <45> 77 endcidchar
endcmap`
	c := parseCMap([]byte(src))
	text := map[uint32]string{0x41: "A", 0x8140: "😀", 0x42: "b", 0x44: "d", 0x8141: "1", 0x8142: "fi", 0x8143: "3"}
	for code, want := range text {
		if got, ok := c.text(code); !ok || got != want {
			t.Errorf("text(%#x) = %q, %v; want %q", code, got, ok, want)
		}
	}
	if _, ok := c.text(0x45); ok {
		t.Errorf("code 0x45 has no text mapping")
	}
	if got := c.cid(0x9005); got != 505 {
		t.Errorf("cid(0x9005) = %d, want 505", got)
	}
	if got := c.cid(0x45); got != 77 {
		t.Errorf("cid(0x45) = %d, want 77", got)
	}
	// Mixed one- and two-byte codes split by the codespace ranges.
	s := []byte{0x41, 0x81, 0x40, 0x42}
	var codes []uint32
	for len(s) > 0 {
		code, n := c.nextCode(s)
		codes = append(codes, code)
		s = s[n:]
	}
	if fmt.Sprint(codes) != fmt.Sprint([]uint32{0x41, 0x8140, 0x42}) {
		t.Errorf("codes = %x", codes)
	}
}

func TestGlyphNames(t *testing.T) {
	cases := map[string]string{
		"A": "A", "quoteright": "\u2019", "fi": "fi", "uni00E9": "é", "uni00660069": "fi",
		"u1F600": "😀", "Scommaaccent": "Ș", "Lslash": "Ł", "a.sc": "a", "f_f_i": "ffi", "bullet": "•",
		"degree": "°", "ydieresis": "ÿ", "Euro": "€",
	}
	for name, want := range cases {
		if got, ok := glyphNameToText(name); !ok || got != want {
			t.Errorf("glyphNameToText(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"", ".notdef", "g123", "uniD800"} {
		if got, ok := glyphNameToText(name); ok {
			t.Errorf("glyphNameToText(%q) = %q, want no text", name, got)
		}
	}
}
