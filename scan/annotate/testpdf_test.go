package annotate

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/font"

	"planreview/scan/pdftext"
)

// testWord is text placed at a known baseline position in user space.
type testWord struct {
	text       string
	x, y, size float64
}

// rect is the word's box: advance width by ascender/descender of Helvetica.
func (w testWord) rect() pdftext.Rect {
	width, err := font.TextWidthFloat(w.text, "Helvetica", w.size)
	if err != nil {
		panic(err)
	}
	return pdftext.Rect{w.x, w.y - 0.207*w.size, w.x + width, w.y + 0.718*w.size}
}

type testPage struct {
	media  [4]float64
	crop   *[4]float64
	rotate int
	words  []testWord
	// padding adds incompressible bytes to the content stream, so benchmark
	// files have a realistic size per page.
	padding int
}

type testDoc struct {
	pages []testPage
	// rootRotate is put on the page tree root, for pages to inherit.
	rootRotate int
	xrefStream bool
	// badStartXRef points startxref at garbage, a file pdfcpu must repair.
	badStartXRef bool
	version      string
	// junkPrefix puts bytes before the header, as some mail gateways do.
	junkPrefix string
	// foreignNote adds a reviewer's own Text annotation to the first page,
	// which a re-render must keep.
	foreignNote bool
}

// build writes a small, valid PDF with Helvetica text at known positions.
func (d testDoc) build(tb testing.TB) []byte {
	tb.Helper()
	var buf bytes.Buffer
	buf.WriteString(d.junkPrefix)
	version := d.version
	if version == "" {
		version = "1.7"
	}
	fmt.Fprintf(&buf, "%%PDF-%s\n%%\xe2\xe3\xcf\xd3\n", version)
	offsets := map[int]int{}
	obj := func(nr int, body string) {
		offsets[nr] = buf.Len()
		fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", nr, body)
	}
	const catalog, pagesNr, fontNr, firstPage = 1, 2, 3, 4
	n := len(d.pages)
	kids := make([]string, n)
	for i := range d.pages {
		kids[i] = fmt.Sprintf("%d 0 R", firstPage+2*i)
	}
	obj(catalog, "<< /Type /Catalog /Pages 2 0 R >>")
	rootExtra := ""
	if d.rootRotate != 0 {
		rootExtra = fmt.Sprintf(" /Rotate %d", d.rootRotate)
	}
	obj(pagesNr, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d%s >>", strings.Join(kids, " "), n, rootExtra))
	obj(fontNr, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	seed := uint32(1)
	for i, p := range d.pages {
		pageNr, contentNr := firstPage+2*i, firstPage+2*i+1
		extra := ""
		if p.crop != nil {
			c := *p.crop
			extra += fmt.Sprintf(" /CropBox [%s %s %s %s]", num(c[0]), num(c[1]), num(c[2]), num(c[3]))
		}
		if p.rotate != 0 {
			extra += fmt.Sprintf(" /Rotate %d", p.rotate)
		}
		if i == 0 && d.foreignNote {
			extra += fmt.Sprintf(" /Annots [%d 0 R]", firstPage+2*n)
		}
		m := p.media
		obj(pageNr, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [%s %s %s %s]%s /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>",
			num(m[0]), num(m[1]), num(m[2]), num(m[3]), extra, contentNr))
		var cs strings.Builder
		cs.WriteString("0.8 G 0.5 w\n")
		fmt.Fprintf(&cs, "%s %s %s %s re S\n", num(m[0]+10), num(m[1]+10), num(m[2]-m[0]-20), num(m[3]-m[1]-20))
		for _, w := range p.words {
			fmt.Fprintf(&cs, "BT /F1 %s Tf 0 g %s %s Td (%s) Tj ET\n", num(w.size), num(w.x), num(w.y), escapeLiteral([]byte(w.text)))
		}
		if p.padding > 0 {
			// A comment line of pseudo-random printable bytes: ignored by
			// renderers, poorly compressible like real linework.
			cs.WriteString("%")
			for j := 0; j < p.padding; j++ {
				seed = seed*1664525 + 1013904223
				cs.WriteByte(byte(33 + seed>>24%90))
				if j%100 == 99 {
					cs.WriteString("\n%")
				}
			}
			cs.WriteString("\n")
		}
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write([]byte(cs.String()))
		zw.Close()
		offsets[contentNr] = buf.Len()
		fmt.Fprintf(&buf, "%d 0 obj\n<< /Length %d /Filter /FlateDecode >>\nstream\n", contentNr, z.Len())
		buf.Write(z.Bytes())
		buf.WriteString("\nendstream\nendobj\n")
	}
	size := firstPage + 2*n
	if d.foreignNote {
		obj(size, "<< /Type /Annot /Subtype /Text /Rect [20 20 40 40] /T (Jane Reviewer) /NM (note-1) /Contents (Check this) >>")
		size++
	}
	xref := buf.Len()
	if d.xrefStream {
		var data bytes.Buffer
		data.Write([]byte{0, 0, 0, 0, 0xff})
		for nr := 1; nr < size; nr++ {
			o := offsets[nr]
			data.Write([]byte{1, byte(o >> 16), byte(o >> 8), byte(o), 0})
		}
		offsets[size] = buf.Len()
		o := buf.Len()
		data.Write([]byte{1, byte(o >> 16), byte(o >> 8), byte(o), 0})
		fmt.Fprintf(&buf, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 3 1] /Root 1 0 R /Length %d >>\nstream\n", size, size+1, data.Len())
		buf.Write(data.Bytes())
		buf.WriteString("\nendstream\nendobj\n")
	} else {
		fmt.Fprintf(&buf, "xref\n0 %d\n0000000000 65535 f\r\n", size)
		for nr := 1; nr < size; nr++ {
			fmt.Fprintf(&buf, "%010d 00000 n\r\n", offsets[nr])
		}
		fmt.Fprintf(&buf, "trailer\n<< /Size %d /Root 1 0 R >>\n", size)
	}
	if d.badStartXRef {
		xref += 7
	}
	fmt.Fprintf(&buf, "startxref\n%d\n%%%%EOF\n", xref)
	return buf.Bytes()
}
