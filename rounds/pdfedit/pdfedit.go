// Package pdfedit changes real PDFs the way an applicant's revised set
// changes them, for tests of resubmittal rounds: pages removed, reordered
// or inserted with pdfcpu, and words on a sheet edited glyph by glyph in its
// content stream (a corrected note, a new sheet number).
package pdfedit

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	pdfapi "github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

var configOnce sync.Once

// Config is pdfcpu's configuration for editing real sets as they are:
// relaxed validation, nothing optimised away, and no config directory in
// the tester's home.
func Config() *model.Configuration {
	configOnce.Do(pdfapi.DisableConfigDir)
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	conf.Optimize = false
	conf.OptimizeBeforeWriting = false
	conf.OptimizeResourceDicts = false
	conf.OptimizeDuplicateContentStreams = false
	return conf
}

// Collect is the PDF with the given pages in the given order (a page may
// be left out; none repeated).
func Collect(pdf []byte, pages ...int) ([]byte, error) {
	sel := make([]string, len(pages))
	for i, p := range pages {
		sel[i] = strconv.Itoa(p)
	}
	var out bytes.Buffer
	if err := pdfapi.Collect(bytes.NewReader(pdf), &out, sel, Config()); err != nil {
		return nil, fmt.Errorf("collect pages %v: %w", pages, err)
	}
	return out.Bytes(), nil
}

// Merge is the files one after the other.
func Merge(files ...[]byte) ([]byte, error) {
	readers := make([]io.ReadSeeker, len(files))
	for i, f := range files {
		readers[i] = bytes.NewReader(f)
	}
	var out bytes.Buffer
	if err := pdfapi.MergeRaw(readers, &out, false, Config()); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return out.Bytes(), nil
}

// ReplaceText rewrites the glyphs that spell old on a page so they spell
// new: glyph for glyph (same length), or removed when new is empty. The
// page's fonts' ToUnicode maps give each glyph's character and the code of
// the new one; it fails when old is not on the page or a new character is
// not in the font.
func ReplaceText(pdf []byte, page int, old, new string) ([]byte, error) {
	if new != "" && utf8.RuneCountInString(new) != utf8.RuneCountInString(old) {
		return nil, fmt.Errorf("%q and %q differ in length", old, new)
	}
	conf := Config()
	ctx, err := pdfapi.ReadContext(bytes.NewReader(pdf), conf)
	if err != nil {
		return nil, err
	}
	if err := ctx.EnsurePageCount(); err != nil {
		return nil, err
	}
	d, _, inh, err := ctx.PageDict(page, false)
	if err != nil {
		return nil, err
	}
	fonts := pageFontMaps(ctx, d, inh)
	content, err := ctx.PageContent(d, page)
	if err != nil {
		return nil, err
	}

	// The page's glyphs in drawing order: each hex string's two-byte codes
	// under the font selected last.
	type glyph struct {
		start, end int // the hex string holding it, in content
		font       string
		code       string
		r          rune
	}
	var glyphs []glyph
	for _, str := range contentStrings(content) {
		fm := fonts[str.font]
		if fm == nil || len(str.bytes)%2 != 0 {
			continue
		}
		for i := 0; i < len(str.bytes); i += 2 {
			code := fmt.Sprintf("%02X%02X", str.bytes[i], str.bytes[i+1])
			glyphs = append(glyphs, glyph{start: str.start, end: str.end, font: str.font, code: code, r: fm.toRune[code]})
		}
	}
	want := []rune(old)
	repl := []rune(new)
	edits := map[int]string{} // glyph index -> new code ("" removes)
	for i := 0; i+len(want) <= len(glyphs); i++ {
		match := true
		for j, r := range want {
			if glyphs[i+j].r != r {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		for j := range want {
			g := glyphs[i+j]
			if len(repl) == 0 {
				edits[i+j] = ""
				continue
			}
			code, ok := fonts[g.font].toCode[repl[j]]
			if !ok {
				return nil, fmt.Errorf("%q is not in font %s", repl[j], g.font)
			}
			edits[i+j] = code
		}
	}
	if len(edits) == 0 {
		return nil, fmt.Errorf("%q is not drawn on page %d", old, page)
	}
	// Rewrite each edited hex string (one or more glyphs).
	var out bytes.Buffer
	last := 0
	for i := 0; i < len(glyphs); {
		j := i
		for j < len(glyphs) && glyphs[j].start == glyphs[i].start {
			j++
		}
		changed := false
		var hex strings.Builder
		for k := i; k < j; k++ {
			code, ok := edits[k]
			if !ok {
				code = glyphs[k].code
			} else {
				changed = true
			}
			hex.WriteString(code)
		}
		if changed {
			out.Write(content[last:glyphs[i].start])
			out.WriteString("<" + hex.String() + ">")
			last = glyphs[i].end
		}
		i = j
	}
	out.Write(content[last:])

	sd, err := ctx.NewStreamDictForBuf(out.Bytes())
	if err != nil {
		return nil, err
	}
	if err := sd.Encode(); err != nil {
		return nil, err
	}
	ref, err := ctx.IndRefForNewObject(*sd)
	if err != nil {
		return nil, err
	}
	d["Contents"] = *ref
	var buf bytes.Buffer
	if err := pdfapi.WriteContext(ctx, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// contentString is one string operand of a content stream: where it is,
// its bytes, and the font selected when it is shown.
type contentString struct {
	start, end int
	bytes      []byte
	font       string
}

// contentStrings tokenises a content stream far enough to find its string
// operands (literal and hex) and the font each is shown in.
func contentStrings(c []byte) []contentString {
	var out []contentString
	font, lastName := "", ""
	isDelim := func(b byte) bool { return strings.IndexByte("()<>[]{}/% \t\r\n\f\x00", b) >= 0 }
	for i := 0; i < len(c); {
		switch b := c[i]; {
		case b == '%':
			for i < len(c) && c[i] != '\n' && c[i] != '\r' {
				i++
			}
		case b == '(':
			start, depth := i, 1
			var buf []byte
			i++
			for i < len(c) && depth > 0 {
				ch := c[i]
				switch {
				case ch == '\\' && i+1 < len(c):
					i++
					e := c[i]
					switch e {
					case 'n':
						buf = append(buf, '\n')
					case 'r':
						buf = append(buf, '\r')
					case 't':
						buf = append(buf, '\t')
					case 'b':
						buf = append(buf, '\b')
					case 'f':
						buf = append(buf, '\f')
					case '\r', '\n':
						if e == '\r' && i+1 < len(c) && c[i+1] == '\n' {
							i++
						}
					default:
						if e >= '0' && e <= '7' {
							v, n := 0, 0
							for n < 3 && i < len(c) && c[i] >= '0' && c[i] <= '7' {
								v = v*8 + int(c[i]-'0')
								i++
								n++
							}
							i--
							buf = append(buf, byte(v))
						} else {
							buf = append(buf, e)
						}
					}
				case ch == '(':
					depth++
					buf = append(buf, ch)
				case ch == ')':
					depth--
					if depth > 0 {
						buf = append(buf, ch)
					}
				default:
					buf = append(buf, ch)
				}
				i++
			}
			out = append(out, contentString{start: start, end: i, bytes: buf, font: font})
		case b == '<' && i+1 < len(c) && c[i+1] == '<':
			i += 2
		case b == '<':
			start := i
			j := bytes.IndexByte(c[i:], '>')
			if j < 0 {
				return out
			}
			hex := strings.Join(strings.Fields(string(c[i+1:i+j])), "")
			if len(hex)%2 == 1 {
				hex += "0"
			}
			raw := make([]byte, len(hex)/2)
			for k := range raw {
				v, _ := strconv.ParseUint(hex[2*k:2*k+2], 16, 8)
				raw[k] = byte(v)
			}
			i += j + 1
			out = append(out, contentString{start: start, end: i, bytes: raw, font: font})
		case b == '/':
			j := i + 1
			for j < len(c) && !isDelim(c[j]) {
				j++
			}
			lastName = string(c[i+1 : j])
			i = j
		case isDelim(b):
			i++
		default:
			j := i
			for j < len(c) && !isDelim(c[j]) {
				j++
			}
			if string(c[i:j]) == "Tf" {
				font = lastName
			}
			i = j
		}
	}
	return out
}

type fontMap struct {
	toRune map[string]rune
	toCode map[rune]string
}

// pageFontMaps reads the ToUnicode map of each font of the page's
// resources (two-byte codes, as Identity-H fonts use).
func pageFontMaps(ctx *model.Context, page types.Dict, inh *model.InheritedPageAttrs) map[string]*fontMap {
	var res types.Dict
	if o, ok := page.Find("Resources"); ok {
		res, _ = ctx.DereferenceDict(o)
	}
	if res == nil && inh != nil {
		res = inh.Resources
	}
	out := map[string]*fontMap{}
	if res == nil {
		return out
	}
	fo, ok := res.Find("Font")
	if !ok {
		return out
	}
	fd, err := ctx.DereferenceDict(fo)
	if err != nil || fd == nil {
		return out
	}
	bfchar := regexp.MustCompile(`<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]{4,8})>`)
	bfrange := regexp.MustCompile(`<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]{4})>`)
	for name, o := range fd {
		f, err := ctx.DereferenceDict(o)
		if err != nil || f == nil {
			continue
		}
		tu, ok := f.Find("ToUnicode")
		if !ok {
			continue
		}
		sd, _, err := ctx.DereferenceStreamDict(tu)
		if err != nil || sd == nil {
			continue
		}
		if err := sd.Decode(); err != nil {
			continue
		}
		fm := &fontMap{toRune: map[string]rune{}, toCode: map[rune]string{}}
		add := func(code int, u int) {
			c := fmt.Sprintf("%04X", code)
			fm.toRune[c] = rune(u)
			if _, ok := fm.toCode[rune(u)]; !ok {
				fm.toCode[rune(u)] = c
			}
		}
		text := string(sd.Content)
		for _, block := range strings.Split(text, "beginbfrange")[1:] {
			block, _, _ = strings.Cut(block, "endbfrange")
			for _, m := range bfrange.FindAllStringSubmatch(block, -1) {
				lo, _ := strconv.ParseInt(m[1], 16, 32)
				hi, _ := strconv.ParseInt(m[2], 16, 32)
				u, _ := strconv.ParseInt(m[3], 16, 32)
				for c := lo; c <= hi; c++ {
					add(int(c), int(u+c-lo))
				}
			}
		}
		for _, block := range strings.Split(text, "beginbfchar")[1:] {
			block, _, _ = strings.Cut(block, "endbfchar")
			for _, m := range bfchar.FindAllStringSubmatch(block, -1) {
				c, _ := strconv.ParseInt(m[1], 16, 32)
				u, _ := strconv.ParseInt(m[2][:4], 16, 32)
				add(int(c), int(u))
			}
		}
		out[name] = fm
	}
	return out
}
