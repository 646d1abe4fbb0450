package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// testFile writes a PDF object by object, for cross-reference sections of
// every kind.
type testFile struct {
	b       bytes.Buffer
	offsets map[int]int
}

func newTestFile() *testFile {
	f := &testFile{offsets: map[int]int{}}
	f.b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	return f
}

func (f *testFile) obj(n int, body string) {
	f.offsets[n] = f.b.Len()
	fmt.Fprintf(&f.b, "%d 0 obj\n%s\nendobj\n", n, body)
}

func (f *testFile) stream(n int, dict string, data []byte) {
	f.offsets[n] = f.b.Len()
	fmt.Fprintf(&f.b, "%d 0 obj\n<< %s /Length %d >>\nstream\n", n, dict, len(data))
	f.b.Write(data)
	f.b.WriteString("\nendstream\nendobj\n")
}

// table writes a classic section listing nums (0 as the free head) and
// returns its offset.
func (f *testFile) table(nums []int, trailer string) int {
	at := f.b.Len()
	f.b.WriteString("xref\n")
	slices.Sort(nums)
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		fmt.Fprintf(&f.b, "%d %d\n", nums[i], j-i+1)
		for _, n := range nums[i : j+1] {
			if n == 0 {
				f.b.WriteString("0000000000 65535 f \n")
			} else {
				fmt.Fprintf(&f.b, "%010d 00000 n \n", f.offsets[n])
			}
		}
		i = j + 1
	}
	fmt.Fprintf(&f.b, "trailer\n<< %s >>\n", trailer)
	return at
}

// xrefRow is an xref stream entry: type, field 2, field 3.
type xrefRow struct {
	num       int
	typ, a, b int
}

// xrefStream writes xref stream n with rows (its own row added) and
// returns its offset.
func (f *testFile) xrefStream(n int, rows []xrefRow, dict string) int {
	at := f.b.Len()
	rows = append(rows, xrefRow{n, 1, at, 0})
	slices.SortFunc(rows, func(x, y xrefRow) int { return x.num - y.num })
	var data []byte
	var index []string
	for i, r := range rows {
		if i == 0 || r.num != rows[i-1].num+1 {
			index = append(index, fmt.Sprint(r.num), "0")
		}
		index[len(index)-1] = fmt.Sprint(atoi(index[len(index)-1]) + 1)
		data = append(data, byte(r.typ), byte(r.a>>24), byte(r.a>>16), byte(r.a>>8), byte(r.a), byte(r.b>>8), byte(r.b))
	}
	f.stream(n, fmt.Sprintf("/Type /XRef /W [1 4 2] /Index [%s] %s", strings.Join(index, " "), dict), data)
	return at
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// objectStream writes object stream n holding bodies (object number to
// body) in the order of nums, and returns their rows.
func (f *testFile) objectStream(n int, nums []int, bodies map[int]string) []xrefRow {
	var head, body strings.Builder
	var rows []xrefRow
	for i, m := range nums {
		fmt.Fprintf(&head, "%d %d ", m, body.Len())
		body.WriteString(bodies[m] + "\n")
		rows = append(rows, xrefRow{m, 2, n, i})
	}
	f.stream(n, fmt.Sprintf("/Type /ObjStm /N %d /First %d", len(nums), head.Len()), []byte(head.String()+body.String()))
	return rows
}

func (f *testFile) end(xref int) []byte {
	fmt.Fprintf(&f.b, "startxref\n%d\n%%%%EOF\n", xref)
	return slices.Clone(f.b.Bytes())
}

// The objects of a one-page document saying what its content says.
func docObjects(text string) (map[int]string, []byte) {
	return map[int]string{
		1: "<< /Type /Catalog /Pages 2 0 R >>",
		2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		5: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}, []byte("BT /F1 12 Tf 72 700 Td (" + text + ") Tj ET")
}

func classicFile(text string) []byte {
	f := newTestFile()
	objs, content := docObjects(text)
	for _, n := range []int{1, 2, 3} {
		f.obj(n, objs[n])
	}
	f.stream(4, "", content)
	f.obj(5, objs[5])
	return f.end(f.table([]int{0, 1, 2, 3, 4, 5}, "/Size 6 /Root 1 0 R"))
}

// xrefStreamFile keeps the dictionaries in an object stream, listed by an
// xref stream, or with hybrid, by a classic table whose trailer points to
// the xref stream for the compressed objects.
func xrefStreamFile(text string, hybrid bool) []byte {
	f := newTestFile()
	objs, content := docObjects(text)
	f.stream(4, "", content)
	rows := f.objectStream(6, []int{1, 2, 3, 5}, objs)
	if !hybrid {
		rows = append(rows, xrefRow{0, 0, 0, 65535}, xrefRow{4, 1, f.offsets[4], 0}, xrefRow{6, 1, f.offsets[6], 0})
		return f.end(f.xrefStream(7, rows, "/Size 8 /Root 1 0 R"))
	}
	stm := f.xrefStream(7, rows, "/Size 8 /Root 1 0 R")
	return f.end(f.table([]int{0, 4, 6, 7}, fmt.Sprintf("/Size 8 /Root 1 0 R /XRefStm %d", stm)))
}

// withUpdate appends an incremental update that replaces the content.
func withUpdate(pdf []byte, text string) []byte {
	prev := bytes.LastIndex(pdf, []byte("startxref\n"))
	var prevXRef int
	fmt.Sscan(string(pdf[prev+len("startxref\n"):]), &prevXRef)
	f := &testFile{offsets: map[int]int{}}
	f.b.Write(pdf)
	_, content := docObjects(text)
	f.stream(4, "", content)
	return f.end(f.table([]int{4}, fmt.Sprintf("/Size 8 /Root 1 0 R /Prev %d", prevXRef)))
}

func pageText(t *testing.T, doc *Document) string {
	t.Helper()
	p, err := doc.Page(context.Background(), 1)
	if err != nil || p.Err != nil {
		t.Fatalf("page 1: %v %v", err, p.Err)
	}
	var words []string
	for _, w := range p.Words {
		words = append(words, w.Text)
	}
	return strings.Join(words, " ")
}

func TestLazyOpenReadsEveryKindOfXRef(t *testing.T) {
	for _, tc := range []struct {
		name string
		pdf  []byte
		want string
	}{
		{"classic table", classicFile("Hello lazy"), "Hello lazy"},
		{"xref stream and object stream", xrefStreamFile("Hello stream", false), "Hello stream"},
		{"hybrid", xrefStreamFile("Hello hybrid", true), "Hello hybrid"},
		{"update over a classic table", withUpdate(classicFile("Old text"), "New text"), "New text"},
		{"update over an xref stream", withUpdate(xrefStreamFile("Old text", false), "Newer text"), "Newer text"},
		{"two updates", withUpdate(withUpdate(classicFile("First"), "Second"), "Third"), "Third"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := openBytes(t, tc.pdf)
			if doc.obj.xref.entries == nil {
				t.Fatal("opened with the whole-file read, want the lazy table")
			}
			if got := pageText(t, doc); got != tc.want {
				t.Errorf("text %q, want %q", got, tc.want)
			}
			if doc.obj.xref.useFull.Load() {
				t.Error("fell back to the whole-file read")
			}
			assertLikeFullRead(t, tc.pdf)
		})
	}
}

// assertLikeFullRead checks that every object of pdf resolves lazily to
// what pdfcpu's whole-file read makes of it.
func assertLikeFullRead(t *testing.T, pdf []byte) {
	t.Helper()
	ctx := context.Background()
	full, err := pdfcpu.ReadWithContext(ctx, bytes.NewReader(pdf), readConfig(DefaultBudgets()))
	if err != nil {
		t.Fatalf("pdfcpu read: %v", err)
	}
	lazy, _, err := openLazy(ctx, pdf, memFile(pdf), readConfig(DefaultBudgets()), func(io.ReaderAt) (*model.XRefTable, error) { return nil, errors.New("no fallback here") })
	if err != nil {
		t.Fatalf("lazy open: %v", err)
	}
	lazy.release() // objects read through the source, as after an open
	for n := range full.XRefTable.Table {
		ref := types.IndirectRef{ObjectNumber: types.Integer(n)}
		want, werr := full.XRefTable.Dereference(ref)
		got, gerr := lazy.dereference(ref)
		if sd, ok := got.(types.StreamDict); ok {
			got = lazy.withData(ref, sd) // read when decoded
		}
		switch want.(type) {
		case types.ObjectStreamDict, types.XRefStreamDict:
			continue // kept whole by pdfcpu, never read by the extractor
		}
		if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("object %d: lazily %v (%v), whole-file read %v (%v)", n, got, gerr, want, werr)
		}
	}
	if lazy.useFull.Load() {
		t.Error("the lazy table fell back to the whole-file read")
	}
}

func TestLazyObjectsMatchTheWholeFileReadOnTheCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	if len(files) == 0 {
		t.Skip("corpus not available")
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte("%PDF-")) {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) { assertLikeFullRead(t, data) })
	}
}

func TestLazyOpenLeavesBrokenOffsetsToTheWholeFileRead(t *testing.T) {
	pdf := shiftOffsets(classicFile("Shifted"), 7)
	_, _, err := openLazy(context.Background(), pdf, memFile(pdf), readConfig(DefaultBudgets()), nil)
	if !errors.Is(err, errNotLazy) {
		t.Fatalf("lazy open of shifted offsets: %v, want errNotLazy", err)
	}
	doc := openBytes(t, pdf)
	if doc.obj.xref.entries != nil {
		t.Error("opened lazily, want the whole-file read")
	}
	if got := pageText(t, doc); got != "Shifted" {
		t.Errorf("text %q", got)
	}
}

// shiftOffsets moves every in-use offset of the file's last table by d
// bytes, as careless editing tools leave them.
func shiftOffsets(pdf []byte, d int) []byte {
	i := bytes.LastIndex(pdf, []byte("\nxref\n"))
	lines := strings.Split(string(pdf[i:]), "\n")
	for j, l := range lines {
		if strings.HasSuffix(l, " 00000 n ") {
			lines[j] = fmt.Sprintf("%010d 00000 n ", atoi(l[:10])+d)
		}
	}
	return append(slices.Clone(pdf[:i]), strings.Join(lines, "\n")...)
}

// brokenObjectFile is a one-page file whose object 6 is body, used as the
// page's second content stream, or with asResources, as its resources.
func brokenObjectFile(body string, asResources bool) []byte {
	f := newTestFile()
	objs, content := docObjects("Still read")
	if asResources {
		objs[3] = strings.Replace(objs[3], "/Resources << /Font << /F1 5 0 R >> >>", "/Resources 6 0 R", 1)
	} else {
		objs[3] = strings.Replace(objs[3], "/Contents 4 0 R", "/Contents [4 0 R 6 0 R]", 1)
	}
	for _, n := range []int{1, 2, 3, 5} {
		f.obj(n, objs[n])
	}
	f.stream(4, "", content)
	f.obj(6, body)
	return f.end(f.table([]int{0, 1, 2, 3, 4, 5, 6}, "/Size 7 /Root 1 0 R"))
}

func TestLazyOpenFallsBackOnAnObjectThatDoesNotParse(t *testing.T) {
	// pdfcpu's parser refuses object 6 (an unterminated array), which its
	// whole-file read skips: the lazy table meets it on the page and
	// switches to that read.
	doc := openBytes(t, brokenObjectFile("<< /A [1 2 >>", false))
	if doc.obj.xref.entries == nil || doc.obj.xref.useFull.Load() {
		t.Fatal("want a lazy open")
	}
	if got := pageText(t, doc); got != "Still read" {
		t.Errorf("text %q", got)
	}
	if !doc.obj.xref.useFull.Load() {
		t.Error("the object that does not parse did not switch to the whole-file read")
	}
}

// A stream whose /Filter is a number fails pdfcpu's whole-file read.
const unreadableStream = "<< /Filter 7 /Length 5 >>\nstream\nBT ET\nendstream"

func TestLazyOpenFailsLikeTheWholeFileReadWhereTheOpenNeedsTheObject(t *testing.T) {
	pdf := brokenObjectFile(unreadableStream, true)
	if _, err := pdfcpu.ReadWithContext(context.Background(), bytes.NewReader(pdf), readConfig(DefaultBudgets())); err == nil {
		t.Fatal("pdfcpu reads the file: the test needs one it refuses")
	}
	if _, err := OpenReader(context.Background(), bytes.NewReader(pdf), int64(len(pdf))); !errors.Is(err, ErrInvalid) {
		t.Fatalf("open: %v, want ErrInvalid", err)
	}
}

func TestLazyOpenReadsPastAnUnreadableObjectThePagesNeed(t *testing.T) {
	// pdfcpu refuses the whole file for one unreadable stream; past the
	// open, the page reads what it can, as poppler does.
	doc := openBytes(t, brokenObjectFile(unreadableStream, false))
	if got := pageText(t, doc); got != "Still read" {
		t.Errorf("text %q", got)
	}
	if doc.obj.xref.useFull.Load() {
		t.Error("switched to a whole-file read that failed")
	}
}

func TestLazyOpenFailsLikeTheWholeFileRead(t *testing.T) {
	// An object stream that does not parse fails pdfcpu's read; the lazy
	// open, which leaves it to that read, fails the same way.
	f := newTestFile()
	objs, content := docObjects("x")
	f.stream(4, "", content)
	rows := f.objectStream(6, []int{1, 2, 3, 5}, objs)
	f.offsets[8] = f.b.Len()
	f.b.WriteString("8 0 obj\n<< /Type /ObjStm /N 1 /First 99 /Length 3 >>\nstream\nabc\nendstream\nendobj\n")
	rows = append(rows, xrefRow{0, 0, 0, 65535}, xrefRow{4, 1, f.offsets[4], 0}, xrefRow{6, 1, f.offsets[6], 0}, xrefRow{8, 1, f.offsets[8], 0}, xrefRow{9, 2, 8, 0})
	pdf := f.end(f.xrefStream(7, rows, "/Size 10 /Root 1 0 R"))

	_, wantErr := pdfcpu.ReadWithContext(context.Background(), bytes.NewReader(pdf), readConfig(DefaultBudgets()))
	_, err := OpenReader(context.Background(), bytes.NewReader(pdf), int64(len(pdf)))
	if wantErr == nil || !errors.Is(err, ErrInvalid) {
		t.Fatalf("open: %v (pdfcpu: %v), want ErrInvalid", err, wantErr)
	}
}

func TestLazyOpenKeepsTheObjectBudget(t *testing.T) {
	b := DefaultBudgets()
	b.Objects = 5
	for _, pdf := range [][]byte{classicFile("budget"), xrefStreamFile("budget", false)} {
		_, _, err := openLazy(context.Background(), pdf, memFile(pdf), readConfig(b), nil)
		if !errors.Is(err, ErrTooComplex) && !errors.Is(err, errNotLazy) {
			t.Errorf("lazy open over the object budget: %v", err)
		}
		if _, err := OpenReaderWithBudgets(context.Background(), bytes.NewReader(pdf), int64(len(pdf)), b); err == nil {
			t.Error("open over the object budget succeeded")
		}
	}
}

func TestLazyResolutionIsSafeForConcurrentUse(t *testing.T) {
	for _, pdf := range [][]byte{xrefStreamFile("Concurrent", false), withUpdate(classicFile("a"), "Concurrent")} {
		doc := openBytes(t, pdf)
		want := map[int]types.Object{}
		reference := openBytes(t, pdf)
		for n := range 9 {
			want[n], _ = reference.obj.xref.dereference(types.IndirectRef{ObjectNumber: types.Integer(n)})
		}
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := range 9 {
					n := (i + w) % 9
					// Workers share the table (each has its own meter).
					got, _ := doc.obj.xref.dereference(types.IndirectRef{ObjectNumber: types.Integer(n)})
					if !reflect.DeepEqual(got, want[n]) {
						t.Errorf("object %d: %v, want %v", n, got, want[n])
					}
				}
			})
		}
		wg.Wait()
		for p := range doc.PagesConcurrently(context.Background(), 4, nil) {
			if p.Err != nil || len(p.Words) == 0 || p.Words[0].Text != "Concurrent" {
				t.Errorf("page %d: %v %v", p.Number, p.Err, p.Words)
			}
		}
	}
}

func TestLazyOpenRefusesAStreamWhoseLengthIsItself(t *testing.T) {
	// A length object that is the stream itself would recurse without end.
	f := newTestFile()
	objs, content := docObjects("Loop")
	for _, n := range []int{1, 2, 3, 5} {
		f.obj(n, objs[n])
	}
	f.offsets[4] = f.b.Len()
	fmt.Fprintf(&f.b, "4 0 obj\n<< /Length 4 0 R >>\nstream\n%s\nendstream\nendobj\n", content)
	pdf := f.end(f.table([]int{0, 1, 2, 3, 4, 5}, "/Size 6 /Root 1 0 R"))
	doc, err := OpenReader(context.Background(), bytes.NewReader(pdf), int64(len(pdf)))
	if err != nil {
		return // refused, as pdfcpu's read refuses it
	}
	if p, _ := doc.Page(context.Background(), 1); p == nil {
		t.Error("no page")
	}
}
