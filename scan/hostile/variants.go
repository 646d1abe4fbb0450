package hostile

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

// Variant is a hostile change made to a real file: the file keeps its own
// pages, and the change is appended as an incremental update (or, for
// encryption, the file is rewritten), the way an editing tool would save
// it. Apply fails on a file it cannot change (pdfcpu cannot read it).
type Variant struct {
	Name     string
	Apply    func(pdf []byte) ([]byte, error)
	Outcomes []string
}

// Variants returns every variant kind. What a scan may end with: the text
// extractor does not decode images, so a file whose only hostile part is
// an image reads complete, and it is what comes after the scan (sheet
// images) that must stay within the ceiling.
func Variants() []Variant {
	any := []string{Complete, TooComplex}
	return []Variant{
		{"aes256_user_password", EncryptAES256, []string{EncryptedPDF}},
		{"jbig2_junk_globals", func(pdf []byte) ([]byte, error) { return WithPages(pdf, 1, jbig2JunkPage) }, any},
		{"filter_chain_2000", func(pdf []byte) ([]byte, error) { return WithPages(pdf, 1, filterChainPage(2000)) }, any},
		// Two pages: the sheet images render the first two; more pages of
		// the same add extraction time (about 1 s each), not memory.
		{"operators_9m_x2", func(pdf []byte) ([]byte, error) { return WithPages(pdf, 2, operatorPage(3_000_000)) }, any},
		{"flate_image_bomb", func(pdf []byte) ([]byte, error) { return WithPages(pdf, 1, imageBombPage("flate")) }, any},
		{"hex_image_bomb", func(pdf []byte) ([]byte, error) { return WithPages(pdf, 1, imageBombPage("hex")) }, any},
		{"runlength_image_bomb", func(pdf []byte) ([]byte, error) { return WithPages(pdf, 1, imageBombPage("runlength")) }, any},
		{"flate_content_bomb", func(pdf []byte) ([]byte, error) { return WithPages(pdf, 1, contentBombPage("flate")) }, any},
		{"hex_content_bomb", func(pdf []byte) ([]byte, error) { return WithPages(pdf, 1, contentBombPage("hex")) }, any},
		{"runlength_content_bomb", func(pdf []byte) ([]byte, error) { return WithPages(pdf, 1, contentBombPage("runlength")) }, any},
	}
}

// EncryptAES256 encrypts pdf with AES-256 under a user password: a file
// the appliance cannot open (encrypted_pdf) that still costs its key
// derivation and parsing.
func EncryptAES256(pdf []byte) ([]byte, error) {
	conf := model.NewAESConfiguration("user-secret", "owner-secret", 256)
	conf.ValidationMode = model.ValidationRelaxed
	var out bytes.Buffer
	if err := api.Encrypt(bytes.NewReader(pdf), &out, conf); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// pageMaker writes the objects of one hostile page into u (shared by
// every copy of the page) and returns the page's /Resources and /Contents
// values.
type pageMaker func(u *update) (resources, contents string)

// WithPages appends an incremental update to pdf that puts n copies of a
// hostile page before the file's own pages: a new catalog in place of the
// old one, whose page tree is the new pages followed by the old tree. The
// hostile pages come first, so they are the ones rendered first.
func WithPages(pdf []byte, n int, page pageMaker) ([]byte, error) {
	rootNum, pagesNum, count, size, err := pageTreeOf(pdf)
	if err != nil {
		return nil, err
	}
	u := &update{base: pdf, next: size}
	font := u.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	resources, contents := page(u)
	tree := u.reserve()
	kids := make([]string, 0, n+1)
	for range n {
		kids = append(kids, fmt.Sprintf("%d 0 R", u.add(fmt.Sprintf(
			"<< /Type /Page /Parent %d 0 R /MediaBox %s /Resources << /Font << /F1 %d 0 R >> %s >> /Contents %s >>",
			tree, mediaBox, font, resources, contents))))
	}
	kids = append(kids, fmt.Sprintf("%d 0 R", pagesNum))
	u.set(tree, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n+count))
	u.set(rootNum, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", tree))
	return u.bytes(rootNum), nil
}

var disableConfigDir sync.Once

// pageTreeOf reads pdf's catalog number, its page tree root's number, the
// page count and the next free object number.
func pageTreeOf(pdf []byte) (root, pages, count, size int, err error) {
	disableConfigDir.Do(api.DisableConfigDir)
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := api.ReadContext(bytes.NewReader(pdf), conf)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	if ctx.XRefTable.Root == nil || ctx.XRefTable.Size == nil {
		return 0, 0, 0, 0, errors.New("no catalog")
	}
	ref, err := ctx.XRefTable.Pages()
	if err != nil || ref == nil {
		return 0, 0, 0, 0, fmt.Errorf("no page tree: %v", err)
	}
	if err := ctx.EnsurePageCount(); err != nil {
		return 0, 0, 0, 0, err
	}
	size = max(*ctx.XRefTable.Size, len(ctx.XRefTable.Table))
	return ctx.XRefTable.Root.ObjectNumber.Value(), ref.ObjectNumber.Value(), ctx.PageCount, size, nil
}

// update is an incremental update: objects numbered from next (or
// replacing existing ones), written after the file with their own
// cross-reference section.
type update struct {
	base []byte
	next int
	objs map[int][]byte
	nums []int
}

func (u *update) set(n int, body string) { u.setBytes(n, []byte(body)) }

func (u *update) setBytes(n int, body []byte) {
	if u.objs == nil {
		u.objs = map[int][]byte{}
	}
	if _, ok := u.objs[n]; !ok {
		u.nums = append(u.nums, n)
	}
	u.objs[n] = body
}

func (u *update) reserve() int { return u.add("null") }

func (u *update) add(body string) int {
	n := u.next
	u.next++
	u.set(n, body)
	return n
}

func (u *update) stream(dict string, data []byte) int {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<< %s /Length %d >>\nstream\n", dict, len(data))
	b.Write(data)
	b.WriteString("\nendstream")
	n := u.next
	u.next++
	u.setBytes(n, b.Bytes())
	return n
}

var startxrefRE = regexp.MustCompile(`startxref\s+(\d+)`)

func (u *update) bytes(root int) []byte {
	var b bytes.Buffer
	b.Write(u.base)
	if !bytes.HasSuffix(u.base, []byte("\n")) {
		b.WriteByte('\n')
	}
	prev := 0
	if m := startxrefRE.FindAllSubmatch(u.base, -1); len(m) > 0 {
		prev, _ = strconv.Atoi(string(m[len(m)-1][1]))
	}
	offsets := map[int]int{}
	for _, n := range u.nums {
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", n)
		b.Write(u.objs[n])
		b.WriteString("\nendobj\n")
	}
	xref := b.Len()
	b.WriteString("xref\n0 1\n0000000000 65535 f \n")
	for _, n := range u.nums {
		fmt.Fprintf(&b, "%d 1\n%010d 00000 n \n", n, offsets[n])
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n", u.next, root, prev, xref)
	return b.Bytes()
}

// jbig2JunkPage draws a 20,000 × 20,000 JBIG2 image whose data and
// globals are random bytes: nothing the text extractor reads, everything
// a renderer's JBIG2 decoder has to try.
func jbig2JunkPage(u *update) (string, string) {
	globals := u.stream("", RandomAfterHeader(256<<10, 3))
	img := u.stream(fmt.Sprintf("/Type /XObject /Subtype /Image /Width 20000 /Height 20000 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /JBIG2Decode /DecodeParms << /JBIG2Globals %d 0 R >>", globals),
		RandomAfterHeader(1<<20, 4))
	return imageDrawn(u, img)
}

func imageDrawn(u *update, img int) (string, string) {
	c := u.stream("", []byte(textPage+"\nq 2592 0 0 1728 0 0 cm /Im0 Do Q"))
	return fmt.Sprintf("/XObject << /Im0 %d 0 R >>", img), fmt.Sprintf("%d 0 R", c)
}

// filterChainPage is a page of text whose content stream is compressed
// depth times over (/Filter [/FlateDecode ...] depth long).
func filterChainPage(depth int) pageMaker {
	return func(u *update) (string, string) {
		data := []byte(textPage)
		for range depth {
			data = deflate(data, 1)
		}
		c := u.stream("/Filter ["+strings.Repeat("/FlateDecode ", depth)+"]", data)
		return "", fmt.Sprintf("%d 0 R", c)
	}
}

// operatorPage draws reps short path segments (three operators each),
// within the operator budget but as much drawing as a page may hold.
func operatorPage(reps int) pageMaker {
	return func(u *update) (string, string) {
		c := u.stream("/Filter /FlateDecode", deflate([]byte("0 0 m 9 9 l S\n"), reps))
		return "", fmt.Sprintf("%d 0 R", c)
	}
}

// imageSide is the side of the bomb images: 16,000² RGB pixels, 768 MB
// decoded from a few hundred kilobytes.
const imageSide = 16000

// imageBombPage draws an RGB image of imageSide² pixels whose stream is a
// bomb under the named filter.
func imageBombPage(filter string) pageMaker {
	return func(u *update) (string, string) {
		dict, data := bomb(filter, imageSide*imageSide*3)
		img := u.stream(fmt.Sprintf("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 %s",
			imageSide, imageSide, dict), data)
		return imageDrawn(u, img)
	}
}

// contentBombPage is a page whose content stream is a bomb under the
// named filter, past the page's content budget.
func contentBombPage(filter string) pageMaker {
	return func(u *update) (string, string) {
		dict, data := bomb(filter, bombSize)
		c := u.stream(dict, data)
		return "", fmt.Sprintf("%d 0 R", c)
	}
}

// bomb is a stream of size spaces (in whole MiB) under filter: flate
// (zlib), hex (hex of the zlib) or runlength (128-byte runs: 2 bytes on
// disk each, so 64× smaller, then flate over it to keep the file small).
func bomb(filter string, size int) (dict string, data []byte) {
	mib := max(1, size>>20)
	switch filter {
	case "hex":
		return "/Filter [/ASCIIHexDecode /FlateDecode]", []byte(fmt.Sprintf("%x>", deflate(bytes.Repeat([]byte{' '}, 1<<20), mib)))
	case "runlength":
		var b bytes.Buffer
		zw, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
		run := bytes.Repeat([]byte{0x81, ' '}, (1<<20)/128) // 1 MiB decoded
		for range mib {
			zw.Write(run)
		}
		zw.Write([]byte{0x80}) // end of data
		zw.Close()
		return "/Filter [/FlateDecode /RunLengthDecode]", b.Bytes()
	default:
		return "/Filter /FlateDecode", deflate(bytes.Repeat([]byte{' '}, 1<<20), mib)
	}
}
