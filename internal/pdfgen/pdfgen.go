// Package pdfgen writes small, exact PDF files for tests and benchmarks:
// every font kind, Form XObjects, page rotation, broken
// cross-reference tables, truncation, encryption, and whole generated plan
// sets. The output is deterministic for a given input.
package pdfgen

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"sort"
	"strings"
)

// Doc is a PDF under construction: numbered objects, a page tree and a
// catalog. Object 1 is the catalog and object 2 the page tree.
type Doc struct {
	objects [][]byte // index = object number - 1
	pages   []int
	// Compress flate-encodes content streams.
	Compress bool
	// CatalogExtra holds further catalog entries (e.g. /OCProperties).
	CatalogExtra string
}

// New starts a document.
func New() *Doc {
	d := &Doc{Compress: true}
	d.Reserve() // 1: catalog
	d.Reserve() // 2: page tree
	return d
}

// Reserve allocates an object number to be filled with Set.
func (d *Doc) Reserve() int {
	d.objects = append(d.objects, nil)
	return len(d.objects)
}

// Set fills object n with body (a PDF object without "obj"/"endobj").
func (d *Doc) Set(n int, body string) { d.objects[n-1] = []byte(body) }

// Add stores a new object and returns its number.
func (d *Doc) Add(body string) int {
	n := d.Reserve()
	d.Set(n, body)
	return n
}

// AddStream stores a stream object; extra holds further dictionary entries.
func (d *Doc) AddStream(extra string, data []byte, compress bool) int {
	filter := ""
	if compress {
		var buf bytes.Buffer
		w := zlib.NewWriter(&buf)
		w.Write(data)
		w.Close()
		data = buf.Bytes()
		filter = "/Filter /FlateDecode "
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "<< %s%s/Length %d >>\nstream\n", filter, extra, len(data))
	b.Write(data)
	b.WriteString("\nendstream")
	n := d.Reserve()
	d.objects[n-1] = b.Bytes()
	return n
}

// PageSpec describes one page.
type PageSpec struct {
	MediaBox [4]float64
	CropBox  *[4]float64
	Rotate   int
	Content  string
	Fonts    map[string]int // resource name → font object
	XObjects map[string]int // resource name → XObject
	// Properties are marked-content property lists (optional content groups).
	Properties map[string]int
	Annots     []int
	ExtraDict  string
}

// AddPage appends a page and returns its object number.
func (d *Doc) AddPage(p PageSpec) int {
	content := d.AddStream("", []byte(p.Content), d.Compress)
	var b strings.Builder
	fmt.Fprintf(&b, "<< /Type /Page /Parent 2 0 R /MediaBox [%s] /Contents %d 0 R", nums(p.MediaBox[:]), content)
	if p.CropBox != nil {
		fmt.Fprintf(&b, " /CropBox [%s]", nums(p.CropBox[:]))
	}
	if p.Rotate != 0 {
		fmt.Fprintf(&b, " /Rotate %d", p.Rotate)
	}
	b.WriteString(" /Resources << ")
	if len(p.Fonts) > 0 {
		b.WriteString("/Font << " + refs(p.Fonts) + ">> ")
	}
	if len(p.XObjects) > 0 {
		b.WriteString("/XObject << " + refs(p.XObjects) + ">> ")
	}
	if len(p.Properties) > 0 {
		b.WriteString("/Properties << " + refs(p.Properties) + ">> ")
	}
	b.WriteString(">>")
	if len(p.Annots) > 0 {
		b.WriteString(" /Annots [")
		for _, a := range p.Annots {
			fmt.Fprintf(&b, "%d 0 R ", a)
		}
		b.WriteString("]")
	}
	b.WriteString(p.ExtraDict + " >>")
	n := d.Add(b.String())
	d.pages = append(d.pages, n)
	return n
}

func refs(m map[string]int) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "/%s %d 0 R ", k, m[k])
	}
	return b.String()
}

func nums(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = num(x)
	}
	return strings.Join(s, " ")
}

func num(x float64) string {
	s := fmt.Sprintf("%.4f", x)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Bytes serialises the document with a correct cross-reference table.
func (d *Doc) Bytes() []byte {
	var kids strings.Builder
	for _, p := range d.pages {
		fmt.Fprintf(&kids, "%d 0 R ", p)
	}
	d.Set(1, "<< /Type /Catalog /Pages 2 0 R "+d.CatalogExtra+">>")
	d.Set(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), len(d.pages)))
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(d.objects))
	for i, body := range d.objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", i+1)
		if body == nil {
			body = []byte("null")
		}
		b.Write(body)
		b.WriteString("\nendobj\n")
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(d.objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] >>\nstartxref\n%d\n%%%%EOF\n", len(d.objects)+1, xref)
	return b.Bytes()
}

// BreakXRef returns pdf with every cross-reference offset shifted, as
// files edited by careless tools are: readers must rebuild the table by
// scanning for objects.
func BreakXRef(pdf []byte) []byte {
	i := bytes.LastIndex(pdf, []byte("\nxref\n"))
	if i < 0 {
		return pdf
	}
	out := append([]byte(nil), pdf[:i]...)
	rest := string(pdf[i:])
	lines := strings.Split(rest, "\n")
	for j, l := range lines {
		if len(l) == 18 && strings.HasSuffix(l, " 00000 n") {
			var off int
			fmt.Sscanf(l[:10], "%d", &off)
			lines[j] = fmt.Sprintf("%010d 00000 n", off+7)
		}
	}
	return append(out, strings.Join(lines, "\n")...)
}

// Truncate cuts pdf to frac of its length.
func Truncate(pdf []byte, frac float64) []byte {
	return append([]byte(nil), pdf[:int(float64(len(pdf))*frac)]...)
}

// Escape writes s as a PDF literal string body (no parentheses).
func Escape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return r.Replace(s)
}
