package annotate

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// objectHeader matches "12 0 obj" at the start of an xref stream section.
var objectHeader = regexp.MustCompile(`^\s*\d+\s+\d+\s+obj\b`)

// xrefKind tells what the original's last cross-reference section is, which
// the update's own section then matches: a classic table after a table, a
// stream after a stream.
type xrefKind int

const (
	xrefUnusable xrefKind = iota
	xrefTable
	xrefStream
)

// lastXRefKind looks at the bytes startxref points at. pdfcpu quietly
// repairs files whose offsets are wrong; an update chained to such a section
// would send other readers to the same broken data, so those files are
// rewritten whole instead.
func lastXRefKind(pctx *model.Context, src io.ReadSeeker) xrefKind {
	if pctx.Read.RepairOffset != 0 || pctx.Write.OffsetPrevXRef == nil {
		return xrefUnusable
	}
	// With bytes before the header, offsets in the file may count from the
	// header instead of the file's start; which one a reader assumes for an
	// update is anyone's guess.
	header := make([]byte, 5)
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return xrefUnusable
	}
	if _, err := io.ReadFull(src, header); err != nil || string(header) != "%PDF-" {
		return xrefUnusable
	}
	off := *pctx.Write.OffsetPrevXRef
	if off <= 0 || off >= pctx.Read.FileSize {
		return xrefUnusable
	}
	if _, err := src.Seek(off, io.SeekStart); err != nil {
		return xrefUnusable
	}
	head := make([]byte, 64)
	n, _ := io.ReadFull(src, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("xref")):
		return xrefTable
	case objectHeader.Match(head):
		return xrefStream
	}
	return xrefUnusable
}

// updateKind is how the marked-up copy is written: xrefUnusable means a
// whole rewrite; encrypted files are rewritten too, because pdfcpu's writer
// encrypts new strings and streams and this one does not.
func updateKind(pctx *model.Context, src io.ReadSeeker) xrefKind {
	if pctx.XRefTable.Encrypt != nil {
		return xrefUnusable
	}
	return lastXRefKind(pctx, src)
}

// writeWhole lets pdfcpu write the whole document: the fallback for inputs
// an update cannot extend.
func writeWhole(dst io.Writer, pctx *model.Context) error {
	if f, ok := dst.(*os.File); ok {
		pctx.Write.Fp = f // pdfcpu reads the written size from it
	}
	pctx.Write.Writer = bufio.NewWriter(dst)
	err := pdfcpu.WriteContext(pctx)
	if ferr := pctx.Write.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("annotate: write: %w", err)
	}
	return nil
}

// countingWriter tracks the offset every object and the xref section need.
type countingWriter struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

func (c *countingWriter) AvailableBuffer() []byte { return c.w.AvailableBuffer() }

func (c *countingWriter) WriteString(s string) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.WriteString(s)
	c.n += int64(n)
	c.err = err
	return n, err
}

// writeIncrement copies src unchanged to dst and appends one update holding
// the new and changed objects.
func writeIncrement(src io.ReadSeeker, dst io.Writer, pctx *model.Context, objs *objectSet, kind xrefKind) error {
	size, err := src.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	last := make([]byte, 1)
	if _, err := src.Seek(size-1, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.ReadFull(src, last); err != nil {
		return err
	}
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return err
	}
	cw := &countingWriter{w: bufio.NewWriterSize(dst, 256<<10)}
	copied, err := io.Copy(cw, src)
	if err != nil {
		return fmt.Errorf("annotate: copy original: %w", err)
	}
	if copied != size {
		return fmt.Errorf("annotate: copied %d of %d bytes", copied, size)
	}
	if last[0] != '\n' && last[0] != '\r' {
		_, _ = cw.WriteString("\n")
	}

	offsets := make(map[int]int64, len(objs.offsets)+len(objs.changed)+1)
	gens := make(map[int]int, len(offsets))
	base := cw.n
	for nr, off := range objs.offsets {
		offsets[nr] = base + off
		gens[nr] = 0
	}
	_, _ = cw.Write(objs.written.Bytes())
	for _, nr := range objs.sortedChanged() {
		c := objs.changed[nr]
		offsets[nr] = cw.n
		gens[nr] = c.gen
		writeObject(cw, nr, c.gen, c.obj)
	}

	trailer := types.Dict{
		"Size": types.Integer(objs.next),
		"Root": *pctx.XRefTable.Root,
		"Prev": types.Integer(*pctx.Write.OffsetPrevXRef),
	}
	if pctx.XRefTable.Info != nil {
		trailer["Info"] = *pctx.XRefTable.Info
	}
	trailer["ID"] = updatedID(pctx.XRefTable.ID, size, objs.next)

	xrefOffset := cw.n
	if kind == xrefStream {
		writeXRefStream(cw, objs, offsets, gens, trailer)
	} else {
		writeXRefTable(cw, offsets, gens, trailer)
	}
	_, _ = cw.WriteString("startxref\n" + strconv.FormatInt(xrefOffset, 10) + "\n%%EOF\n")
	if cw.err != nil {
		return fmt.Errorf("annotate: write: %w", cw.err)
	}
	if err := cw.w.Flush(); err != nil {
		return fmt.Errorf("annotate: write: %w", err)
	}
	return nil
}

// updatedID keeps the document's permanent identifier and gives this
// revision a new second one, as the spec asks of an updated file.
func updatedID(id types.Array, size int64, next int) types.Array {
	first := types.Object(nil)
	if len(id) == 2 {
		first = id[0]
	}
	h := md5.New()
	if first != nil {
		h.Write([]byte(first.PDFString()))
	}
	fmt.Fprintf(h, "%d/%d/planreview", size, next)
	rev := types.HexLiteral(fmt.Sprintf("%X", h.Sum(nil)))
	if first == nil {
		first = rev
	}
	return types.Array{first, rev}
}

// runs groups sorted object numbers into contiguous subsections.
func runs(nrs []int) [][2]int {
	var out [][2]int
	for _, nr := range nrs {
		if len(out) > 0 && out[len(out)-1][0]+out[len(out)-1][1] == nr {
			out[len(out)-1][1]++
			continue
		}
		out = append(out, [2]int{nr, 1})
	}
	return out
}

func sortedKeys(m map[int]int64) []int {
	nrs := make([]int, 0, len(m))
	for nr := range m {
		nrs = append(nrs, nr)
	}
	sort.Ints(nrs)
	return nrs
}

func writeXRefTable(cw *countingWriter, offsets map[int]int64, gens map[int]int, trailer types.Dict) {
	_, _ = cw.WriteString("xref\n")
	nrs := sortedKeys(offsets)
	i := 0
	for _, r := range runs(nrs) {
		_, _ = cw.WriteString(strconv.Itoa(r[0]) + " " + strconv.Itoa(r[1]) + "\n")
		for j := 0; j < r[1]; j++ {
			nr := nrs[i]
			i++
			// Entries are exactly 20 bytes, ending in CR LF.
			_, _ = fmt.Fprintf(cw, "%010d %05d n\r\n", offsets[nr], gens[nr])
		}
	}
	_, _ = cw.WriteString("trailer\n")
	_, _ = cw.Write(append(appendObject(cw.AvailableBuffer(), trailer), '\n'))
}

// writeXRefStream writes the update's cross-reference stream; the stream
// object lists itself.
func writeXRefStream(cw *countingWriter, objs *objectSet, offsets map[int]int64, gens map[int]int, trailer types.Dict) {
	self := objs.next
	selfOffset := cw.n
	offsets[self] = selfOffset
	gens[self] = 0
	nrs := sortedKeys(offsets)

	// Fields: type 1 (in use) in 1 byte, offset in 8, generation in 2.
	var data bytes.Buffer
	var index types.Array
	i := 0
	for _, r := range runs(nrs) {
		index = append(index, types.Integer(r[0]), types.Integer(r[1]))
		for j := 0; j < r[1]; j++ {
			nr := nrs[i]
			i++
			data.WriteByte(1)
			data.Write(binary.BigEndian.AppendUint64(nil, uint64(offsets[nr])))
			data.Write(binary.BigEndian.AppendUint16(nil, uint16(gens[nr])))
		}
	}
	d := types.Dict{
		"Type":  types.Name("XRef"),
		"W":     types.Array{types.Integer(1), types.Integer(8), types.Integer(2)},
		"Index": index,
	}
	for k, v := range trailer {
		d[k] = v
	}
	d["Size"] = types.Integer(self + 1)
	sd, err := objs.newStream(d, data.Bytes(), true)
	if err != nil {
		cw.err = err
		return
	}
	writeObject(cw, self, 0, sd)
}
