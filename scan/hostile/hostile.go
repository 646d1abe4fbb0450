// Package hostile builds damaged and malicious PDFs for tests and
// benchmarks: decompression bombs, Form XObject fan-outs, broken page
// trees, junk after a header, and truncated or bit-flipped copies of real
// files. Every case is generated, so no hostile binary is checked in, and
// each states the outcomes the appliance may give it.
package hostile

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
)

// Case is one hostile input.
type Case struct {
	Name string
	// Make builds the file (some are 100 MB: build one at a time).
	Make func() []byte
	// Outcomes are what a scan of it may end with: "complete" (the file
	// was repaired the way viewers repair it) or a pipeline error code.
	Outcomes []string
}

// Outcome codes (the scan package's, repeated to keep this package a leaf).
const (
	Complete     = "complete"
	InvalidPDF   = "invalid_pdf"
	TooComplex   = "too_complex"
	EmptyPDF     = "empty_pdf"
	EncryptedPDF = "encrypted_pdf"
	TooManyPages = "too_many_pages"
)

// Generated returns every generated case (the corpus mutations come from
// Truncated and BitFlipped).
func Generated() []Case {
	return []Case{
		{"content_array_bomb", ContentArrayBomb, []string{TooComplex}},
		{"nested_filter_bomb", NestedFilterBomb, []string{TooComplex}},
		{"hex_flate_bomb", HexFlateBomb, []string{TooComplex}},
		{"tounicode_bomb", ToUnicodeBomb, []string{TooComplex}},
		{"form_fan_out", func() []byte { return FormFanOut(15, 10, 1) }, []string{TooComplex}},
		{"form_fan_out_50_pages", func() []byte { return FormFanOut(15, 10, 50) }, []string{TooComplex}},
		{"form_nesting", func() []byte { return FormChain(40) }, []string{TooComplex}},
		{"page_tree_cycle", PageTreeCycle, []string{Complete, InvalidPDF}},
		{"page_tree_lists_itself", PageTreeSelf, []string{Complete, InvalidPDF}},
		{"page_tree_missing_kid", MissingKid, []string{Complete, InvalidPDF}},
		{"page_tree_direct_kid", DirectKid, []string{Complete, InvalidPDF}},
		{"page_tree_root_lost", LostRoot, []string{Complete, InvalidPDF}},
		{"catalog_without_pages", CatalogWithoutPages, []string{Complete, InvalidPDF}},
		{"inline_kids_3m", func() []byte { return InlineKids(3_000_000) }, []string{TooComplex, InvalidPDF}},
		{"inline_kids_150k", func() []byte { return InlineKids(150_000) }, []string{TooComplex, TooManyPages}},
		{"random_after_header", func() []byte { return RandomAfterHeader(100_000_000, 1) }, []string{InvalidPDF}},
		{"object_flood", func() []byte { return ObjectFlood(250_000) }, []string{TooComplex}},
		{"xref_flood", func() []byte { return XrefFlood(4_000_000) }, []string{TooComplex}},
		{"object_without_end", func() []byte { return ObjectWithoutEnd(20 << 20) }, []string{InvalidPDF, TooComplex}},
	}
}

// Writer assembles a PDF from numbered objects with a correct
// cross-reference table.
type Writer struct {
	objs [][]byte
}

// Add appends an object and returns its number.
func (w *Writer) Add(body string) int {
	w.objs = append(w.objs, []byte(body))
	return len(w.objs)
}

// Reserve takes an object number to Set later (for references both ways).
func (w *Writer) Reserve() int { return w.Add("null") }

// Set replaces object n's body.
func (w *Writer) Set(n int, body string) { w.objs[n-1] = []byte(body) }

// Stream appends a stream object with the given extra dictionary entries.
func (w *Writer) Stream(dict string, data []byte) int {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<< %s /Length %d >>\nstream\n", dict, len(data))
	b.Write(data)
	b.WriteString("\nendstream")
	w.objs = append(w.objs, b.Bytes())
	return len(w.objs)
}

// Bytes writes the file with root as the catalog.
func (w *Writer) Bytes(root int) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(w.objs))
	for i, o := range w.objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", i+1)
		b.Write(o)
		b.WriteString("\nendobj\n")
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(w.objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(w.objs)+1, root, xref)
	return b.Bytes()
}

const mediaBox = "[0 0 2592 1728]" // a 36 × 24 in sheet

// textPage is the content of a page that reads: one label.
const textPage = "BT /F1 24 Tf 72 1600 Td (A-101 FLOOR PLAN) Tj ET"

// finish writes the page tree (one page drawing contents, a /Contents
// value, with font as /F1) and the catalog, and returns the file.
func (w *Writer) finish(font int, contents string) []byte {
	pages := w.Reserve()
	page := w.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %s /Resources << /Font << /F1 %d 0 R >> >> >>",
		pages, mediaBox, contents, font))
	w.Set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", page))
	return w.Bytes(w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages)))
}

var (
	bombOnce  sync.Once
	bombFlate []byte // zlib of bombSize spaces
)

// bombSize is what the shared flate bomb inflates to.
const bombSize = 250 << 20

// flateBomb is a zlib stream of 250 MiB of spaces (about 250 KB).
func flateBomb() []byte {
	bombOnce.Do(func() { bombFlate = deflate(bytes.Repeat([]byte{' '}, 1<<20), bombSize>>20) })
	return bombFlate
}

// deflate compresses times repetitions of block.
func deflate(block []byte, times int) []byte {
	var b bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	for range times {
		zw.Write(block)
	}
	zw.Close()
	return b.Bytes()
}

// ContentArrayBomb is a page whose /Contents array repeats one FlateDecode
// stream that inflates to 250 MiB, a thousand times: small on disk,
// unbounded if the parts are decoded into one buffer.
func ContentArrayBomb() []byte {
	w := &Writer{}
	font := w.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	bomb := w.Stream("/Filter /FlateDecode", flateBomb())
	text := w.Stream("", []byte(textPage))
	refs := []string{fmt.Sprintf("%d 0 R", text)}
	for range 1000 {
		refs = append(refs, fmt.Sprintf("%d 0 R", bomb))
	}
	return w.finish(font, "["+strings.Join(refs, " ")+"]")
}

// NestedFilterBomb is a content stream compressed twice over
// (/Filter [/FlateDecode /FlateDecode]): each stage is small, the last
// inflates to 250 MiB, through pdfcpu's filter pipeline rather than the
// extractor's own inflater.
func NestedFilterBomb() []byte {
	outer := deflate(flateBomb(), 1)
	w := &Writer{}
	font := w.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	c := w.Stream("/Filter [/FlateDecode /FlateDecode]", outer)
	return w.finish(font, fmt.Sprintf("%d 0 R", c))
}

// HexFlateBomb is the flate bomb under /ASCIIHexDecode
// (/Filter [/ASCIIHexDecode /FlateDecode]): a pipeline the extractor
// leaves to pdfcpu's filters, bounded by the same page budget.
func HexFlateBomb() []byte {
	hex := []byte(fmt.Sprintf("%x>", flateBomb()))
	w := &Writer{}
	font := w.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	c := w.Stream("/Filter [/ASCIIHexDecode /FlateDecode]", hex)
	return w.finish(font, fmt.Sprintf("%d 0 R", c))
}

// ToUnicodeBomb is a font whose /ToUnicode CMap inflates to 250 MiB: a
// stream the page reads only to map its text.
func ToUnicodeBomb() []byte {
	w := &Writer{}
	cmap := w.Stream("/Filter /FlateDecode", flateBomb())
	font := w.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode %d 0 R >>", cmap))
	c := w.Stream("", []byte(textPage))
	return w.finish(font, fmt.Sprintf("%d 0 R", c))
}

// FormFanOut is chain Form XObjects, each drawing the next fan times
// (fan^chain invocations for one page), on pages pages.
func FormFanOut(chain, fan, pages int) []byte {
	w := &Writer{}
	font := w.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	next := w.Stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox %s /Resources << /Font << /F1 %d 0 R >> >>", mediaBox, font),
		[]byte("BT /F1 1 Tf 10 10 Td (x) Tj ET"))
	for range chain - 1 {
		body := strings.Repeat("q /Fx Do Q\n", fan)
		next = w.Stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox %s /Resources << /XObject << /Fx %d 0 R >> >>", mediaBox, next),
			[]byte(body))
	}
	c := w.Stream("", []byte(textPage+"\n/Fx Do"))
	return pagesSharing(w, c, fmt.Sprintf("/Font << /F1 %d 0 R >> /XObject << /Fx %d 0 R >>", font, next), pages)
}

// FormChain is depth Form XObjects nested one inside the next, drawn once
// each.
func FormChain(depth int) []byte { return FormFanOut(depth, 1, 1) }

// pagesSharing writes n pages that all draw content with resources.
func pagesSharing(w *Writer, content int, resources string, n int) []byte {
	pages := w.Reserve()
	kids := make([]string, n)
	for i := range n {
		kids[i] = fmt.Sprintf("%d 0 R", w.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %d 0 R /Resources << %s >> >>",
			pages, mediaBox, content, resources)))
	}
	w.Set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	return w.Bytes(w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages)))
}

// treeWith writes two pages of text and a page tree built by kids, which
// gets the numbers of the root, an intermediate node and the two pages
// and returns the root's and the node's /Kids.
func treeWith(kids func(root, node, p1, p2 int) (rootKids, nodeKids string)) []byte {
	w := &Writer{}
	font := w.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	c := w.Stream("", []byte(textPage))
	root, node := w.Reserve(), w.Reserve()
	page := func(parent int) int {
		return w.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>",
			parent, mediaBox, c, font))
	}
	p1, p2 := page(root), page(node)
	rk, nk := kids(root, node, p1, p2)
	w.Set(root, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 2 >>", rk))
	w.Set(node, fmt.Sprintf("<< /Type /Pages /Parent %d 0 R /Kids [%s] /Count 1 >>", root, nk))
	return w.Bytes(w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", root)))
}

// PageTreeCycle: an intermediate node lists the root among its kids.
func PageTreeCycle() []byte {
	return treeWith(func(root, node, p1, p2 int) (string, string) {
		return fmt.Sprintf("%d 0 R %d 0 R", p1, node), fmt.Sprintf("%d 0 R %d 0 R", p2, root)
	})
}

// PageTreeSelf: the root and a node each list themselves.
func PageTreeSelf() []byte {
	return treeWith(func(root, node, p1, p2 int) (string, string) {
		return fmt.Sprintf("%d 0 R %d 0 R %d 0 R", root, p1, node), fmt.Sprintf("%d 0 R %d 0 R", node, p2)
	})
}

// MissingKid: the tree names an object the file does not have, between
// two real pages.
func MissingKid() []byte {
	return treeWith(func(root, node, p1, p2 int) (string, string) {
		return fmt.Sprintf("%d 0 R 9999 0 R %d 0 R", p1, node), fmt.Sprintf("%d 0 R", p2)
	})
}

// DirectKid: a page written inline in /Kids, not as a referenced object.
func DirectKid() []byte {
	return treeWith(func(root, node, p1, p2 int) (string, string) {
		return fmt.Sprintf("%d 0 R << /Type /Page /MediaBox %s >> %d 0 R", p1, mediaBox, node), fmt.Sprintf("%d 0 R", p2)
	})
}

// LostRoot: the catalog names a page tree root the file does not have (as
// when a truncation or a flipped bit takes it); the two pages are there,
// their /Parent pointing at the lost root.
func LostRoot() []byte { return orphanedPages("/Pages 9999 0 R") }

// CatalogWithoutPages: the catalog's /Pages key is garbled (a flipped bit
// makes it /Pagds); the pages are there.
func CatalogWithoutPages() []byte { return orphanedPages("/Pagds 9999 0 R") }

func orphanedPages(catalogEntry string) []byte {
	w := &Writer{}
	font := w.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	c := w.Stream("", []byte(textPage))
	for range 2 {
		w.Add(fmt.Sprintf("<< /Type /Page /Parent 9999 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>",
			mediaBox, c, font))
	}
	return w.Bytes(w.Add("<< /Type /Catalog " + catalogEntry + " >>"))
}

// InlineKids is a page tree whose root lists n inline page dictionaries.
func InlineKids(n int) []byte {
	var kids bytes.Buffer
	kids.Grow(n * 16)
	for range n {
		kids.WriteString("<</Type/Page>> ")
	}
	w := &Writer{}
	pages := w.Add(fmt.Sprintf("<< /Type /Pages /MediaBox %s /Count %d /Kids [%s] >>", mediaBox, n, kids.String()))
	return w.Bytes(w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages)))
}

// RandomAfterHeader is size bytes of noise after a %PDF-1.7 header.
func RandomAfterHeader(size int, seed uint64) []byte {
	b := make([]byte, size)
	r := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8)})
	r.Read(b)
	copy(b, "%PDF-1.7\n")
	return b
}

// ObjectWithoutEnd is a header, one object that never ends, and size bytes
// of noise: no stream, no endobj, no trailer.
func ObjectWithoutEnd(size int) []byte {
	b := RandomAfterHeader(size, 2)
	copy(b, "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\n")
	return b
}

// ObjectFlood is n tiny objects and an empty page tree: every object costs
// the parser memory, however small it is on disk.
func ObjectFlood(n int) []byte {
	w := &Writer{}
	for range n {
		w.Add("<< /A 1 >>")
	}
	pages := w.Add("<< /Type /Pages /Kids [] /Count 0 >>")
	return w.Bytes(w.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages)))
}

// XrefFlood is a file of two objects whose cross-reference table has n
// rows (free entries): 20 bytes each on disk, a table entry each in the
// parser.
func XrefFlood(n int) []byte {
	var b bytes.Buffer
	b.Grow(n*20 + 512)
	b.WriteString("%PDF-1.7\n")
	catalog := b.Len()
	b.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	pages := b.Len()
	b.WriteString("2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n%010d 00000 n \n%010d 00000 n \n", n, catalog, pages)
	for range n - 3 {
		b.WriteString("0000000000 00000 f \n")
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", n, xref)
	return b.Bytes()
}

// Truncated is pdf cut to frac of its length.
func Truncated(pdf []byte, frac float64) []byte {
	return bytes.Clone(pdf[:int(float64(len(pdf))*frac)])
}

// BitFlipped is pdf with flips single bits flipped at places drawn from
// seed (the %PDF- header is left alone: a file without one is not_a_pdf at
// upload).
func BitFlipped(pdf []byte, flips int, seed uint64) []byte {
	out := bytes.Clone(pdf)
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	for range flips {
		i := 8 + r.IntN(len(out)-8)
		out[i] ^= 1 << r.IntN(8)
	}
	return out
}
