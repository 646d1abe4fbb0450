package annotate

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"strconv"
	"time"
)

// A text document is a new PDF of flowing text on US Letter pages (the
// correction letter), written with the same standard fonts, WinAnsi text
// and line wrapping as the findings summary, so it needs no font files and
// every word stays extractable and searchable.

// TextStyle is how a block is set.
type TextStyle int

// Block styles.
const (
	StyleBody    TextStyle = iota
	StyleTitle             // the document's title
	StyleHeading           // a section or sheet heading
	StyleItem              // a numbered item: Label hangs left of the text
	StyleMuted             // small grey print (notes, code basis lines)
	StyleBold              // a bold body line
)

// TextBlock is one paragraph of a text document.
type TextBlock struct {
	Style TextStyle
	Label string // StyleItem: the number printed in the hanging margin
	Text  string
	// Indent moves the block right, in points.
	Indent float64
	// KeepWithNext keeps a heading on the page of the block after it.
	KeepWithNext bool
}

// TextMeta is a text document's information dictionary and footer.
type TextMeta struct {
	Title, Subject, Author string
	Footer                 string // printed with "page i of n" on every page
	Created                time.Time
}

const (
	docPageW, docPageH = 612.0, 792.0 // US Letter
	docMargin          = 60.0
	docBody            = 10.5
	docLabelW          = 28.0
)

type docStyle struct {
	size     float64
	bold     bool
	ink      rgb
	before   float64 // space above, points
	leadFrac float64
}

var docStyles = map[TextStyle]docStyle{
	StyleBody:    {docBody, false, black, 3, 1.3},
	StyleTitle:   {17, true, black, 0, 1.25},
	StyleHeading: {12, true, black, 12, 1.25},
	StyleItem:    {docBody, false, black, 6, 1.3},
	StyleMuted:   {9, false, rgb{0.3, 0.3, 0.3}, 1, 1.3},
	StyleBold:    {docBody, true, black, 3, 1.3},
}

// WriteTextPDF lays the blocks out on Letter pages and writes the PDF.
func WriteTextPDF(w io.Writer, meta TextMeta, blocks []TextBlock) error {
	if meta.Created.IsZero() {
		meta.Created = time.Now()
	}
	pages := layoutText(blocks)
	for i, p := range pages {
		footer := fmt.Sprintf("%s \u00b7 page %d of %d", meta.Footer, i+1, len(pages))
		if meta.Footer == "" {
			footer = fmt.Sprintf("Page %d of %d", i+1, len(pages))
		}
		s := &summaryLayout{cur: p}
		s.text(docMargin, docMargin-18, 8, false, rgb{0.35, 0.35, 0.35}, winAnsi(footer))
	}
	return writeTextPDF(w, meta, pages)
}

func layoutText(blocks []TextBlock) []*[]byte {
	s := &summaryLayout{w: docPageW, h: docPageH, margin: docMargin, k: 1}
	s.newPage()
	bottom := docMargin + 6
	width := docPageW - 2*docMargin
	for i, b := range blocks {
		st := docStyles[b.Style]
		lead := st.size * st.leadFrac
		x := docMargin + b.Indent
		textW := width - b.Indent
		if b.Style == StyleItem {
			textW -= docLabelW
		}
		lines := wrap(b.Text, fontFor(st.bold), st.size, textW)
		need := st.before + lead
		if b.KeepWithNext && i+1 < len(blocks) {
			nx := docStyles[blocks[i+1].Style]
			need += float64(len(lines))*lead + nx.before + 2*nx.size*nx.leadFrac
		}
		if s.y-need < bottom && s.y < docPageH-docMargin {
			s.newPage()
		} else if s.y < docPageH-docMargin {
			s.y -= st.before
		}
		for li, line := range lines {
			if s.y-lead < bottom {
				s.newPage()
			}
			if li == 0 && b.Style == StyleItem && b.Label != "" {
				s.text(x, s.y-st.size, st.size, true, st.ink, winAnsi(b.Label))
			}
			lx := x
			if b.Style == StyleItem {
				lx += docLabelW
			}
			s.text(lx, s.y-st.size, st.size, st.bold, st.ink, line)
			s.y -= lead
		}
	}
	return s.pages
}

// writeTextPDF writes a complete PDF 1.7 file: catalog, page tree, the two
// standard fonts, one compressed content stream per page, and the
// information dictionary.
func writeTextPDF(w io.Writer, meta TextMeta, pages []*[]byte) error {
	bw := bufio.NewWriter(w)
	var offsets []int
	n := 0
	write := func(s string) { k, _ := bw.WriteString(s); n += k }
	obj := func(body string) int {
		offsets = append(offsets, n)
		write(strconv.Itoa(len(offsets)) + " 0 obj\n" + body + "\nendobj\n")
		return len(offsets)
	}
	write("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	const catalog, pageTree, fontRegular, fontBold, info = 1, 2, 3, 4, 5
	kids := bytes.Buffer{}
	for i := range pages {
		fmt.Fprintf(&kids, "%d 0 R ", 6+2*i)
	}
	obj(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R /Lang (en-US) >>", pageTree))
	obj(fmt.Sprintf("<< /Type /Pages /Count %d /Kids [%s] >>", len(pages), bytes.TrimSpace(kids.Bytes())))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /" + regularFont + " /Encoding /WinAnsiEncoding >>")
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /" + boldFont + " /Encoding /WinAnsiEncoding >>")
	date := pdfDate(meta.Created)
	obj(fmt.Sprintf("<< /Title (%s) /Subject (%s) /Author (%s) /Producer (planreview) /CreationDate (%s) >>",
		escapeLiteral(winAnsi(meta.Title)), escapeLiteral(winAnsi(meta.Subject)), escapeLiteral(winAnsi(meta.Author)), string(date)))
	for i, p := range pages {
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		if _, err := zw.Write(*p); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		obj(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %s %s] /Resources << /Font << /%s %d 0 R /%s %d 0 R >> >> /Contents %d 0 R >>",
			pageTree, num(docPageW), num(docPageH), regularFontKey, fontRegular, boldFontKey, fontBold, 7+2*i))
		offsets = append(offsets, n)
		write(fmt.Sprintf("%d 0 obj\n<< /Length %d /Filter /FlateDecode >>\nstream\n", len(offsets), z.Len()))
		k, _ := bw.Write(z.Bytes())
		n += k
		write("\nendstream\nendobj\n")
	}
	xref := n
	write(fmt.Sprintf("xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1))
	for _, off := range offsets {
		write(fmt.Sprintf("%010d 00000 n \n", off))
	}
	write(fmt.Sprintf("trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, catalog, info, xref))
	return bw.Flush()
}
