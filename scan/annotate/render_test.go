package annotate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

var severityCycle = []string{"critical", "high", "medium", "low", "info"}

// planSheetWords are the "violations" of a generated sheet: words at spots
// that exercise tag placement (top edge, right edge, corners, middle).
func planSheetWords(m [4]float64) []testWord {
	w, h := m[2]-m[0], m[3]-m[1]
	x0, y0 := m[0], m[1]
	return []testWord{
		{"STAIR-1", x0 + 0.10*w, y0 + 0.50*h, 10},
		{"RISER=8.25\"", x0 + 0.45*w, y0 + 0.55*h, 9},
		{"HANDRAIL", x0 + 0.02*w, y0 + h - 12, 10},    // near the top edge: tag goes below
		{"GUARD(36)", x0 + w - 60, y0 + 0.30*h, 8},    // near the right edge
		{"EXIT\\WIDTH", x0 + 0.70*w, y0 + 0.04*h, 12}, // near the bottom
	}
}

// planSet is a generated plan set with known violations on every page.
func planSet(pages int, media [4]float64, crop *[4]float64, rotate int) testDoc {
	var d testDoc
	for i := 0; i < pages; i++ {
		d.pages = append(d.pages, testPage{media: media, crop: crop, rotate: rotate, words: planSheetWords(visibleArea(media, crop))})
	}
	return d
}

func visibleArea(media [4]float64, crop *[4]float64) [4]float64 {
	if crop == nil {
		return media
	}
	return *crop
}

// marksFor puts one mark on every word of every page.
func marksFor(d testDoc) []Mark {
	var marks []Mark
	n := 0
	for pi, p := range d.pages {
		for _, w := range p.words {
			n++
			marks = append(marks, Mark{
				Page: pi + 1, Rect: w.rect(), Number: n,
				FindingID:     fmt.Sprintf("fnd_%03d", n),
				Severity:      severityCycle[n%len(severityCycle)],
				Title:         "Violation at " + w.text,
				GoverningRefs: "IBC 2021 \u00a71011.5.2",
				Rationale:     "The measured value does not meet the governing requirement.",
				SheetNumber:   fmt.Sprintf("A-%d01", pi+1),
			})
		}
	}
	return marks
}

var testSummary = Summary{
	JobID: "job_123", VersionID: "ver_456", FileName: "plans.pdf",
	CodeBasis:   []string{"2021 International Building Code", "City amendments snapshot 2024-03 (certified)"},
	GeneratedAt: time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC),
}

func render(t testing.TB, in []byte, marks []Mark) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := Render(context.Background(), bytes.NewReader(in), &out, marks, testSummary); err != nil {
		t.Fatalf("Render: %v", err)
	}
	return out.Bytes()
}

// squareAnnot is a Square read back from a written file.
type squareAnnot struct {
	page     int
	nm       string
	rect     box
	rd       [4]float64
	color    [3]float64
	bbox     box
	matrix   [6]float64
	contents string
	author   string
	popup    bool // a Popup pointing back, with the same text
}

// readBack opens out with pdfcpu, validates it, and returns its pages and
// the planreview Squares on them.
func readBack(t testing.TB, out []byte) (*model.Context, []page, []squareAnnot) {
	t.Helper()
	return readBackChecked(t, out, true)
}

// pdfcpuValidates reports whether pdfcpu's validator accepts a file. Some
// real drawings break its stricter rules already (a measure dictionary's
// precision, say); their marked-up copies can be no better.
func pdfcpuValidates(in []byte) error {
	conf := readConfiguration()
	conf.Cmd = model.VALIDATE
	ctx, err := api.ReadContext(bytes.NewReader(in), conf)
	if err != nil {
		return err
	}
	return api.ValidateContext(ctx)
}

// readBackChecked is readBack, with pdfcpu's validation only when validate
// is set.
func readBackChecked(t testing.TB, out []byte, validate bool) (*model.Context, []page, []squareAnnot) {
	t.Helper()
	conf := readConfiguration()
	if validate {
		conf.Cmd = model.VALIDATE
	}
	ctx, err := api.ReadContext(bytes.NewReader(out), conf)
	if err != nil {
		t.Fatalf("pdfcpu cannot read the marked-up copy: %v", err)
	}
	if validate {
		if err := api.ValidateContext(ctx); err != nil {
			t.Fatalf("pdfcpu rejects the marked-up copy: %v", err)
		}
	}
	xt := ctx.XRefTable
	pages, _, err := collectPages(xt)
	if err != nil {
		t.Fatal(err)
	}
	var squares []squareAnnot
	for pi, p := range pages {
		o, found := p.dict.Find("Annots")
		if !found {
			continue
		}
		arr, err := xt.DereferenceArray(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range arr {
			d, err := xt.DereferenceDict(e)
			if err != nil {
				t.Fatal(err)
			}
			if d.Subtype() == nil || *d.Subtype() != "Square" {
				continue
			}
			s := squareAnnot{page: pi + 1}
			s.author, _ = xt.DereferenceStringOrHexLiteral(d["T"], model.V10, nil)
			if s.author != Author {
				continue // the file's own markups
			}
			s.nm, _ = xt.DereferenceStringOrHexLiteral(d["NM"], model.V10, nil)
			s.contents, _ = xt.DereferenceStringOrHexLiteral(d["Contents"], model.V10, nil)
			s.rect = numbersBox(t, xt, d["Rect"])
			copy(s.rd[:], numbers(t, xt, d["RD"]))
			copy(s.color[:], numbers(t, xt, d["C"]))
			if pop := d.IndirectRefEntry("Popup"); pop != nil {
				pd, err := xt.DereferenceDict(*pop)
				if err == nil && pd != nil && pd.IndirectRefEntry("Parent") != nil {
					popupText, _ := xt.DereferenceStringOrHexLiteral(pd["Contents"], model.V10, nil)
					s.popup = popupText == s.contents
				}
			}
			apd, err := xt.DereferenceDict(d["AP"])
			if err != nil || apd == nil {
				t.Fatalf("page %d %s: no /AP: %v", pi+1, s.nm, err)
			}
			sd, _, err := xt.DereferenceStreamDict(apd["N"])
			if err != nil || sd == nil {
				t.Fatalf("page %d %s: no /AP /N stream: %v", pi+1, s.nm, err)
			}
			s.bbox = numbersBox(t, xt, sd.Dict["BBox"])
			copy(s.matrix[:], numbers(t, xt, sd.Dict["Matrix"]))
			squares = append(squares, s)
		}
	}
	return ctx, pages, squares
}

func numbers(t testing.TB, xt *model.XRefTable, o types.Object) []float64 {
	t.Helper()
	a, err := xt.DereferenceArray(o)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(a))
	for i, e := range a {
		if out[i], err = xt.DereferenceNumber(e); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func numbersBox(t testing.TB, xt *model.XRefTable, o types.Object) box {
	n := numbers(t, xt, o)
	if len(n) != 4 {
		t.Fatalf("rectangle has %d numbers", len(n))
	}
	return boxFromRect([4]float64{n[0], n[1], n[2], n[3]})
}

// geometryCase is one page setup the marks must survive.
type geometryCase struct {
	name       string
	media      [4]float64
	crop       *[4]float64
	rotate     int
	rootRotate int
	xrefStream bool
}

func geometryCases() []geometryCase {
	tabloid := [4]float64{0, 0, 1224, 792}
	offsetMedia := [4]float64{-100, 250, 692, 862}
	crop := [4]float64{150, 60, 1100, 700}
	var cases []geometryCase
	for _, r := range []int{0, 90, 180, 270} {
		cases = append(cases,
			geometryCase{name: fmt.Sprintf("rotate%d", r), media: tabloid, rotate: r},
			geometryCase{name: fmt.Sprintf("rotate%d-cropbox-offset", r), media: tabloid, crop: &crop, rotate: r},
		)
	}
	cases = append(cases,
		geometryCase{name: "mediabox-offset", media: offsetMedia},
		geometryCase{name: "inherited-rotate270", media: tabloid, rootRotate: 270},
		geometryCase{name: "xref-stream-rotate90", media: tabloid, rotate: 90, xrefStream: true},
	)
	return cases
}

func (c geometryCase) doc() testDoc {
	d := planSet(3, c.media, c.crop, c.rotate)
	d.rootRotate = c.rootRotate
	d.xrefStream = c.xrefStream
	return d
}

func TestEveryAnnotationContainsItsEvidence(t *testing.T) {
	for _, c := range geometryCases() {
		t.Run(c.name, func(t *testing.T) {
			d := c.doc()
			in := d.build(t)
			marks := marksFor(d)
			out := render(t, in, marks)
			if !bytes.HasPrefix(out, in) {
				t.Error("the original bytes are not kept as the first revision")
			}
			_, pages, squares := readBack(t, out)
			if len(pages) <= len(d.pages) {
				t.Fatalf("%d pages, want the %d sheets plus a summary", len(pages), len(d.pages))
			}
			for _, p := range pages[len(d.pages):] {
				if p.geom.rotate != 0 {
					t.Errorf("summary page rotated %d", p.geom.rotate)
				}
			}
			byNM := map[string]squareAnnot{}
			for _, s := range squares {
				if _, dup := byNM[s.nm]; dup {
					t.Errorf("duplicate /NM %q", s.nm)
				}
				byNM[s.nm] = s
			}
			if len(squares) != len(marks) {
				t.Errorf("%d squares for %d marks", len(squares), len(marks))
			}
			for _, m := range marks {
				s, ok := byNM[m.FindingID]
				if !ok {
					t.Errorf("no annotation with /NM %q", m.FindingID)
					continue
				}
				evidence := boxFromRect(m.Rect)
				if s.page != m.Page {
					t.Errorf("%s on page %d, want %d", m.FindingID, s.page, m.Page)
				}
				if !s.rect.contains(evidence) {
					t.Errorf("%s: /Rect %v does not contain the evidence %v", m.FindingID, s.rect, evidence)
				}
				square := box{s.rect.llx + s.rd[0], s.rect.lly + s.rd[3], s.rect.urx - s.rd[2], s.rect.ury - s.rd[1]}
				if !square.contains(evidence) {
					t.Errorf("%s: square %v (from /RD) does not contain the evidence %v", m.FindingID, square, evidence)
				}
				if !s.popup {
					t.Errorf("%s: no popup", m.FindingID)
				}
				if !bytes.Contains([]byte(s.contents), []byte(m.Title)) || !bytes.Contains([]byte(s.contents), []byte("1011.5.2")) {
					t.Errorf("%s: contents %q lack title or refs", m.FindingID, s.contents)
				}
				r, g, b, _ := SeverityColor(m.Severity)
				if !near(s.color[0], r) || !near(s.color[1], g) || !near(s.color[2], b) {
					t.Errorf("%s: /C %v for %s", m.FindingID, s.color, m.Severity)
				}
				geom := pages[m.Page-1].geom
				if s.matrix != geom.formMatrix() {
					t.Errorf("%s: /Matrix %v on a page rotated %d", m.FindingID, s.matrix, geom.rotate)
				}
				dw, dh := geom.boxToDisplay(s.rect).width(), geom.boxToDisplay(s.rect).height()
				if !near(s.bbox.width(), dw) || !near(s.bbox.height(), dh) {
					t.Errorf("%s: /BBox %vx%v does not fill /Rect shown as %vx%v", m.FindingID, s.bbox.width(), s.bbox.height(), dw, dh)
				}
			}
		})
	}
}

func near(a, b float64) bool { return a-b < 0.01 && b-a < 0.01 }

func TestTagSitsBesideTheSquare(t *testing.T) {
	// Away from the edges the tag is at the square's left as displayed,
	// within its band, whatever the rotation.
	for _, r := range []int{0, 90, 180, 270} {
		g := pageGeometry{media: box{0, 0, 1224, 792}, crop: box{100, 50, 1200, 780}, rotate: r}
		l := layoutMark(g, box{500, 400, 560, 410}, 42)
		if !near(l.tagD.urx, l.squareD.llx) || l.tagD.lly < l.squareD.lly-0.01 || l.tagD.ury > l.squareD.ury+0.01 {
			t.Errorf("rotate %d: tag %v, square %v (display space)", r, l.tagD, l.squareD)
		}
		if !l.rect.contains(l.square) {
			t.Errorf("rotate %d: rect %v lacks square %v", r, l.rect, l.square)
		}
	}
	// At the left edge it goes to the right; it always stays on the page.
	g := pageGeometry{media: box{0, 0, 612, 792}, crop: box{0, 0, 612, 792}}
	l := layoutMark(g, box{2, 300, 40, 310}, 7)
	if !near(l.tagD.llx, l.squareD.urx) {
		t.Errorf("left edge: tag %v, square %v", l.tagD, l.squareD)
	}
	for _, ev := range []box{{-1, 300, 40, 310}, {600, 300, 611, 310}, {0, 300, 612, 310}} {
		l := layoutMark(g, ev, 123)
		if l.tagD.llx < 0 || l.tagD.urx > 612 {
			t.Errorf("evidence %v at the side: tag %v leaves the page", ev, l.tagD)
		}
		if !l.rect.contains(ev) {
			t.Errorf("evidence %v: rect %v", ev, l.rect)
		}
	}
}

// TestMarksKeepToTheirLine: on a sheet index, lines 1.2 times their height
// apart, a mark on one row (square, padding, border and tag) stays clear of
// the rows above and below, on Letter and on an A1 sheet, whatever the
// rotation; the text is never under more than the square's own band.
func TestMarksKeepToTheirLine(t *testing.T) {
	for _, media := range []box{{0, 0, 612, 792}, {0, 0, 2384, 1684}} {
		for _, r := range []int{0, 90, 180, 270} {
			g := pageGeometry{media: media, crop: media, rotate: r}
			for _, size := range []float64{6, 10, 18} {
				// A row in user space, upright on the displayed sheet.
				row := g.boxFromDisplay(box{300, 400, 420, 400 + size})
				l := layoutMark(g, row, 17)
				gap := 0.2 * size // between this row and the next, either side
				if l.rectD.ury > 400+size+gap+0.01 || l.rectD.lly < 400-gap-0.01 {
					t.Errorf("%vx%v rotate %d, %v pt rows: mark spans %v-%v, rows above and below begin at %v and %v",
						media.urx, media.ury, r, size, l.rectD.lly, l.rectD.ury, 400+size+gap, 400-gap)
				}
				if l.tagFontSize < minTagFontSize {
					t.Errorf("tag font %v pt", l.tagFontSize)
				}
			}
		}
	}
}

func TestRepeatedAnchorsGetDerivedNames(t *testing.T) {
	d := planSet(2, [4]float64{0, 0, 612, 792}, nil, 0)
	w1, w2 := d.pages[0].words[0], d.pages[1].words[1]
	marks := []Mark{
		{Page: 1, Rect: w1.rect(), Number: 1, FindingID: "fnd_a", Severity: "high", Title: "A"},
		{Page: 2, Rect: w2.rect(), Number: 1, FindingID: "fnd_a", Severity: "high", Title: "A"},
		{Page: 2, Rect: w1.rect(), Number: 1, FindingID: "fnd_a", Severity: "high", Title: "A"},
		{Page: 0, Number: 2, FindingID: "fnd_b", Severity: "info", Title: "No anchor"},
	}
	_, _, squares := readBack(t, render(t, d.build(t), marks))
	var names []string
	for _, s := range squares {
		names = append(names, s.nm)
	}
	want := []string{"fnd_a", "fnd_a#2", "fnd_a#3"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("names %v, want %v", names, want)
	}
}

func TestRenderingAgainReplacesOwnMarksAndKeepsOthers(t *testing.T) {
	d := planSet(2, [4]float64{0, 0, 612, 792}, nil, 90)
	d.foreignNote = true
	marks := marksFor(d)
	once := render(t, d.build(t), marks)
	twice := render(t, once, marks[:3])
	qpdfAccepts(t, twice)
	ctx, pages, squares := readBack(t, twice)
	if len(squares) != 3 {
		t.Errorf("%d squares after re-rendering with 3 marks", len(squares))
	}
	kinds := map[string]int{}
	for _, p := range pages[:2] {
		arr, _ := ctx.XRefTable.DereferenceArray(p.dict["Annots"])
		for _, e := range arr {
			ad, _ := ctx.XRefTable.DereferenceDict(e)
			kinds[*ad.Subtype()]++
		}
	}
	if kinds["Text"] != 1 || kinds["Popup"] != 3 || kinds["Square"] != 3 {
		t.Errorf("annotations after re-render: %v", kinds)
	}
	// The earlier summary went too: the sheets plus one new summary page.
	if len(pages) != len(d.pages)+1 {
		t.Errorf("%d pages after re-rendering %d sheets", len(pages), len(d.pages))
	}
	if n := ctx.PageCount; n != len(pages) {
		t.Errorf("page tree /Count says %d pages, the tree has %d", n, len(pages))
	}
}

func TestMarksOnAnEarlierSummaryStayOnTheList(t *testing.T) {
	d := planSet(1, [4]float64{0, 0, 612, 792}, nil, 0)
	once := render(t, d.build(t), marksFor(d))
	m := Mark{Page: 2, Rect: [4]float64{100, 100, 200, 120}, Number: 1, FindingID: "f", Severity: "low", Title: "On the old summary"}
	marks := []Mark{m}
	twice := render(t, once, marks)
	if marks[0].Page != 2 {
		t.Error("Render changed the caller's marks")
	}
	qpdfAccepts(t, twice)
	ctx, pages, squares := readBack(t, twice)
	if len(squares) != 0 || len(pages) != 2 || ctx.PageCount != 2 {
		t.Errorf("%d squares, %d pages (count %d); want 0 squares, sheet + summary", len(squares), len(pages), ctx.PageCount)
	}
}

func TestFilesAnUpdateCannotExtendAreRewritten(t *testing.T) {
	doc := planSet(2, [4]float64{0, 0, 612, 792}, nil, 0)
	cases := []struct {
		name  string
		input func(t *testing.T) []byte
	}{
		{"broken startxref", func(t *testing.T) []byte {
			d := doc
			d.badStartXRef = true
			return d.build(t)
		}},
		{"bytes before the header", func(t *testing.T) []byte {
			d := doc
			d.junkPrefix = "X-Mailer: junk\r\n\r\n"
			return d.build(t)
		}},
		{"encrypted with an owner password only", func(t *testing.T) []byte {
			var enc bytes.Buffer
			conf := model.NewAESConfiguration("", "owner-secret", 256)
			if err := api.Encrypt(bytes.NewReader(doc.build(t)), &enc, conf); err != nil {
				t.Fatalf("encrypting the fixture: %v", err)
			}
			return enc.Bytes()
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := c.input(t)
			marks := marksFor(doc)
			out := render(t, in, marks)
			if bytes.HasPrefix(out, in) {
				t.Error("expected a whole rewrite")
			}
			_, _, squares := readBack(t, out)
			if len(squares) != len(marks) {
				t.Errorf("%d squares for %d marks", len(squares), len(marks))
			}
			for _, s := range squares {
				if !strings.Contains(s.contents, "Violation at") {
					t.Errorf("%s: contents %q unreadable", s.nm, s.contents)
				}
			}
			qpdfAccepts(t, out)
		})
	}
}

func TestOldFilesAreRaisedToPDF14(t *testing.T) {
	d := planSet(1, [4]float64{0, 0, 612, 792}, nil, 0)
	d.version = "1.3"
	ctx, _, _ := readBack(t, render(t, d.build(t), marksFor(d)))
	if v := ctx.XRefTable.Version(); v < model.V14 {
		t.Errorf("version %v after marking up a 1.3 file", v)
	}
}

func TestInvalidInput(t *testing.T) {
	d := planSet(1, [4]float64{0, 0, 612, 792}, nil, 0)
	in := d.build(t)
	good := marksFor(d)[0]
	cases := []struct {
		name  string
		input []byte
		mark  func(Mark) Mark
		want  error
	}{
		{"unknown severity", in, func(m Mark) Mark { m.Severity = "severe"; return m }, ErrInvalidMark},
		{"no finding id", in, func(m Mark) Mark { m.FindingID = " "; return m }, ErrInvalidMark},
		{"page beyond the file", in, func(m Mark) Mark { m.Page = 2; return m }, ErrInvalidMark},
		{"negative page", in, func(m Mark) Mark { m.Page = -1; return m }, ErrInvalidMark},
		{"zero number", in, func(m Mark) Mark { m.Number = 0; return m }, ErrInvalidMark},
		{"NaN rect", in, func(m Mark) Mark { m.Rect[1] = math.NaN(); return m }, ErrInvalidMark},
		{"not a PDF", []byte("<html><body>404</body></html>"), func(m Mark) Mark { return m }, ErrUnreadablePDF},
		// Cut to the header: nothing to repair. (A file cut later keeps
		// its pages and is repaired; see TestDamagedPageTrees.)
		{"truncated PDF", in[:40], func(m Mark) Mark { return m }, ErrUnreadablePDF},
	}
	twoFindingsOneNumber := []Mark{good, good}
	twoFindingsOneNumber[1].FindingID = "another"
	oneFindingTwoNumbers := []Mark{good, good}
	oneFindingTwoNumbers[1].Number = 2
	for name, marks := range map[string][]Mark{
		"two findings, one number": twoFindingsOneNumber,
		"one finding, two numbers": oneFindingTwoNumbers,
	} {
		t.Run(name, func(t *testing.T) {
			err := Render(context.Background(), bytes.NewReader(in), io.Discard, marks, testSummary)
			if !errors.Is(err, ErrInvalidMark) {
				t.Errorf("err = %v, want ErrInvalidMark", err)
			}
		})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Render(context.Background(), bytes.NewReader(c.input), &out, []Mark{c.mark(good)}, testSummary)
			if !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
		})
	}
}

func TestCancelledContext(t *testing.T) {
	d := planSet(1, [4]float64{0, 0, 612, 792}, nil, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Render(ctx, bytes.NewReader(d.build(t)), io.Discard, marksFor(d), testSummary)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

func TestRenderFileIsAtomic(t *testing.T) {
	dir := t.TempDir()
	d := planSet(1, [4]float64{0, 0, 612, 792}, nil, 0)
	src := filepath.Join(dir, "in.pdf")
	dst := filepath.Join(dir, "out.pdf")
	in := d.build(t)
	if err := os.WriteFile(src, in, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := []Mark{{Page: 1, Number: 1, FindingID: "x", Severity: "nope"}}
	if err := RenderFile(context.Background(), src, dst, bad, testSummary); err == nil {
		t.Fatal("expected an error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a failed render left files behind: %v", entries)
	}
	if err := RenderFile(context.Background(), src, dst, marksFor(d), testSummary); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(dst)
	readBack(t, out)
	if err := RenderFile(context.Background(), src, src, marksFor(d), testSummary); err == nil {
		t.Error("rendering onto the original succeeded")
	}
	if again, _ := os.ReadFile(src); !bytes.Equal(again, in) {
		t.Error("the original upload changed")
	}
}

func TestConcurrentRenders(t *testing.T) {
	d := planSet(3, [4]float64{0, 0, 1224, 792}, nil, 90)
	in := d.build(t)
	marks := marksFor(d)
	want := render(t, in, marks)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out bytes.Buffer
			if err := Render(context.Background(), bytes.NewReader(in), &out, marks, testSummary); err != nil {
				errs <- err
				return
			}
			if !bytes.Equal(out.Bytes(), want) {
				errs <- errors.New("concurrent render differs from a serial one")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestAFileWithoutFindingsStillGetsItsSummary(t *testing.T) {
	d := planSet(2, [4]float64{0, 0, 612, 792}, nil, 0)
	out := render(t, d.build(t), nil)
	qpdfAccepts(t, out)
	_, pages, squares := readBack(t, out)
	if len(squares) != 0 || len(pages) != 3 {
		t.Errorf("%d squares, %d pages; want none and the sheets plus a summary", len(squares), len(pages))
	}
}

// TestFindingsAboutAWholeSheetGetAMarginTag: a finding no words anchor (a
// title block with no sheet number) is tagged in its sheet's top-right
// margin, and its summary row links to that sheet; rendered, the tag shows
// in the severity's colour.
func TestFindingsAboutAWholeSheetGetAMarginTag(t *testing.T) {
	d := planSet(2, [4]float64{0, 0, 612, 792}, nil, 0)
	marks := []Mark{
		{Page: 1, Rect: d.pages[0].words[0].rect(), Number: 1, FindingID: "fnd_a", Severity: "high", Title: "Anchored"},
		{Page: 2, Number: 2, FindingID: "fnd_b", Severity: "critical", Title: "Title block has no sheet number"},
		{Page: 2, Number: 3, FindingID: "fnd_c", Severity: "low", Title: "Second sheet-level finding"},
	}
	out := render(t, d.build(t), marks)
	qpdfAccepts(t, out)
	ctx, pages, squares := readBack(t, out)
	if len(squares) != 3 {
		t.Fatalf("%d squares, want 3", len(squares))
	}
	g := pages[1].geom
	first, second := layoutSheetTag(g, 2, 0), layoutSheetTag(g, 3, 1)
	if first.tagD.urx > 612 || first.tagD.ury > 792 || first.tagD.llx < 306 || first.tagD.lly < 700 {
		t.Errorf("sheet tag at %v: want the top-right margin", first.tagD)
	}
	if first.tagD.lly < second.tagD.ury {
		t.Errorf("two sheet tags overlap: %v and %v", first.tagD, second.tagD)
	}
	// The summary's rows link to pages 1 and 2.
	linked := map[int]bool{}
	for _, p := range pages[2:] {
		arr, _ := ctx.XRefTable.DereferenceArray(p.dict["Annots"])
		for _, e := range arr {
			ad, _ := ctx.XRefTable.DereferenceDict(e)
			if ad == nil || *ad.Subtype() != "Link" {
				continue
			}
			dest, _ := ctx.XRefTable.DereferenceArray(ad["Dest"])
			for i, sheet := range pages[:2] {
				if len(dest) > 0 && dest[0] == types.Object(sheet.ref) {
					linked[i+1] = true
				}
			}
		}
	}
	if !linked[1] || !linked[2] {
		t.Errorf("summary links to pages %v, want 1 and 2", linked)
	}
	if _, err := exec.LookPath("pdftoppm"); err == nil {
		path := filepath.Join(t.TempDir(), "marked.pdf")
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		img := renderPage(t, path, 2, 72)
		x, y := first.tagD.llx+1.5, 792-(first.tagD.lly+first.tagD.ury)/2
		if !colourNear(img, x, y, severityStyles["critical"].color) {
			t.Errorf("no critical colour at the sheet tag (%.0f,%.0f)", x, y)
		}
	}
}
