package annotate

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// requireTool skips the test when an external tool is not installed.
func requireTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed", name)
	}
}

// qpdfCheck runs qpdf --check and returns its exit code (0 clean, 3 warnings).
func qpdfCheck(t *testing.T, path string) (int, string) {
	t.Helper()
	out, err := exec.Command("qpdf", "--check", path).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &exit):
		return exit.ExitCode(), string(out)
	}
	t.Fatalf("qpdf: %v", err)
	return -1, ""
}

// qpdfAccepts fails the test when qpdf is installed and finds anything
// wrong with out.
func qpdfAccepts(t *testing.T, out []byte) {
	t.Helper()
	if _, err := exec.LookPath("qpdf"); err != nil {
		return
	}
	path := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	if rc, msg := qpdfCheck(t, path); rc != 0 {
		t.Errorf("qpdf --check exit %d:\n%s", rc, msg)
	}
}

// renderPage rasterises one page as a viewer shows it (CropBox, /Rotate)
// with pdftoppm at dpi.
func renderPage(t *testing.T, pdf string, page, dpi int) image.Image {
	t.Helper()
	prefix := filepath.Join(t.TempDir(), "page")
	cmd := exec.Command("pdftoppm", "-r", fmt.Sprint(dpi), "-png", "-cropbox", "-f", fmt.Sprint(page), "-l", fmt.Sprint(page), "-singlefile", pdf, prefix)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	f, err := os.Open(prefix + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// colourNear reports whether some pixel within one pixel of (x, y) has the
// colour c, allowing for anti-aliasing.
func colourNear(img image.Image, x, y float64, c rgb) bool {
	cx, cy := int(math.Floor(x)), int(math.Floor(y))
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			r, g, b, _ := img.At(cx+dx, cy+dy).RGBA()
			if math.Abs(float64(r>>8)-255*c[0]) < 40 && math.Abs(float64(g>>8)-255*c[1]) < 40 && math.Abs(float64(b>>8)-255*c[2]) < 40 {
				return true
			}
		}
	}
	return false
}

func TestMarkedUpFilesPassQPDFAndShowSeverityColours(t *testing.T) {
	requireTool(t, "qpdf")
	requireTool(t, "pdftoppm")
	const dpi = 72
	for _, c := range geometryCases() {
		t.Run(c.name, func(t *testing.T) {
			d := c.doc()
			marks := marksFor(d)
			out := render(t, d.build(t), marks)
			path := filepath.Join(t.TempDir(), "marked.pdf")
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			if rc, msg := qpdfCheck(t, path); rc != 0 {
				t.Fatalf("qpdf --check exit %d:\n%s", rc, msg)
			}
			_, pages, _ := readBack(t, out)
			images := map[int]image.Image{}
			for _, m := range marks {
				img, ok := images[m.Page]
				if !ok {
					img = renderPage(t, path, m.Page, dpi)
					images[m.Page] = img
				}
				checkMarkPixels(t, img, pages[m.Page-1].geom, m, dpi, true)
			}
		})
	}
}

// checkMarkPixels checks that the rendered page shows the mark's border and
// tag in its severity colour and, when asked, the tint inside the square.
func checkMarkPixels(t *testing.T, img image.Image, g pageGeometry, m Mark, dpi int, checkTint bool) {
	t.Helper()
	scale := float64(dpi) / 72
	_, pageH := g.displaySize()
	l := layoutMark(g, boxFromRect(m.Rect), m.Number)
	sev := severityStyles[m.Severity]
	toPixel := func(dx, dy float64) (float64, float64) { return dx * scale, (pageH - dy) * scale }
	lw := l.sideWidth
	sq := l.squareD
	spots := []struct {
		name   string
		dx, dy float64
	}{
		{"left border", sq.llx + lw/2, (sq.lly + sq.ury) / 2},
		{"right border", sq.urx - lw/2, (sq.lly + sq.ury) / 2},
		{"tag", l.tagD.llx + 1.5, (l.tagD.lly + l.tagD.ury) / 2},
	}
	if l.edgeWidth*scale >= 2 {
		// Thinner than two pixels, a band blends with the page around it.
		spots = append(spots, struct {
			name   string
			dx, dy float64
		}{"bottom border", (sq.llx + sq.urx) / 2, sq.lly + l.edgeWidth/2})
	}
	for _, s := range spots {
		x, y := toPixel(s.dx, s.dy)
		if !colourNear(img, x, y, sev.color) {
			r, g, b, _ := img.At(int(x), int(y)).RGBA()
			t.Errorf("%s (%s) page %d: %s at pixel (%.0f,%.0f) is (%d,%d,%d), want ~%v",
				m.FindingID, m.Severity, m.Page, s.name, x, y, r>>8, g>>8, b>>8, sev.color)
		}
	}
	if !checkTint {
		return
	}
	// Inside, the evidence keeps a light tint of the same hue.
	x, y := toPixel(sq.llx+lw+0.6, sq.lly+l.edgeWidth+0.6)
	tint := rgb{
		1 - tintOpacity*(1-sev.color[0]),
		1 - tintOpacity*(1-sev.color[1]),
		1 - tintOpacity*(1-sev.color[2]),
	}
	if !colourNear(img, x, y, tint) {
		t.Errorf("%s: no tint inside the square", m.FindingID)
	}
}

// corpusDir holds the real plan PDFs (see its README); tests skip without it.
const corpusDir = "../../../shared/corpus"

func TestEveryCorpusPDFYieldsAValidMarkedUpCopy(t *testing.T) {
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	hasQPDF := exec.LookPath
	_, qerr := hasQPDF("qpdf")
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".pdf" {
			continue
		}
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			srcPath := filepath.Join(corpusDir, name)
			in, err := os.ReadFile(srcPath)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(in, []byte("%PDF-")) {
				err := Render(t.Context(), bytes.NewReader(in), new(bytes.Buffer), nil, testSummary)
				if !errors.Is(err, ErrUnreadablePDF) {
					t.Errorf("not a PDF: err = %v, want ErrUnreadablePDF", err)
				}
				return
			}
			marks := corpusMarks(t, in)
			dst := filepath.Join(t.TempDir(), "marked.pdf")
			if err := RenderFile(t.Context(), srcPath, dst, marks, testSummary); err != nil {
				t.Fatalf("RenderFile: %v", err)
			}
			out, err := os.ReadFile(dst)
			if err != nil {
				t.Fatal(err)
			}
			mode := "rewritten whole"
			if bytes.HasPrefix(out, in) {
				mode = "incremental update"
			}
			t.Logf("%d pages, %d marks: %s, %d -> %d bytes", len(marks)/2, len(marks), mode, len(in), len(out))
			// A file pdfcpu's validator already refuses is held to qpdf and
			// poppler below, and to the same validator verdict as before.
			origErr := pdfcpuValidates(in)
			if origErr != nil {
				t.Logf("pdfcpu refuses the original too: %v", origErr)
			}
			_, pages, squares := readBackChecked(t, out, origErr == nil)
			if len(squares) != len(marks) {
				t.Errorf("%d squares for %d marks", len(squares), len(marks))
			}
			for _, s := range squares {
				if s.page > len(pages) {
					t.Errorf("square on page %d of %d", s.page, len(pages))
				}
			}
			if _, err := exec.LookPath("pdftoppm"); err == nil {
				// Page 1 only: rasterising every A1 sheet would cost more
				// than it proves beyond the generated sets.
				// The border must span over a pixel to show its pure colour.
				dpi := 50
				if pages[0].geom.shortSide() < 1000 {
					dpi = 72
				}
				img := renderPage(t, dst, 1, dpi)
				for _, m := range marks {
					if m.Page == 1 {
						checkMarkPixels(t, img, pages[0].geom, m, dpi, false)
					}
				}
			}
			if qerr == nil {
				// Warnings qpdf already had about the original (document
				// JavaScript, a scanner's quirks) are not ours to fix.
				if rc, msg := qpdfCheck(t, dst); rc != 0 {
					if origRC, _ := qpdfCheck(t, srcPath); rc != origRC {
						t.Errorf("qpdf --check exit %d (original %d):\n%s", rc, origRC, msg)
					}
				}
			}
		})
	}
}

// corpusMarks puts marks on every page of a real file: one in the middle of
// the visible area and one in its top-left corner, cycling severities.
func corpusMarks(t *testing.T, in []byte) []Mark {
	t.Helper()
	pctx, err := readPDF(t.Context(), bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	pages, _, err := collectPages(pctx.XRefTable)
	if err != nil {
		t.Fatal(err)
	}
	var marks []Mark
	for i, p := range pages {
		c := p.geom.crop
		cx, cy := (c.llx+c.urx)/2, (c.lly+c.ury)/2
		for j, r := range [][4]float64{
			{cx - 30, cy - 5, cx + 30, cy + 5},
			{c.llx + 5, c.ury - 15, c.llx + 60, c.ury - 5},
		} {
			n := len(marks) + 1
			marks = append(marks, Mark{
				Page: i + 1, Rect: r, Number: n, FindingID: fmt.Sprintf("fnd_%d_%d", i+1, j),
				Severity: severityCycle[n%len(severityCycle)],
				Title:    "Corpus check " + fmt.Sprint(n), GoverningRefs: "Test ref",
				Rationale: "Stra\u017ea \u010dez \u0161ir\u0161e (non-Latin popup text).", SheetNumber: "X-1",
			})
		}
	}
	return marks
}

func TestSummaryPageReadsBackAsText(t *testing.T) {
	requireTool(t, "pdftotext")
	d := planSet(2, [4]float64{0, 0, 1224, 792}, nil, 270)
	marks := marksFor(d)
	marks[0].Title = "Stopnišče: width < 1.2 m (€ cost)"
	out := render(t, d.build(t), marks)
	path := filepath.Join(t.TempDir(), "marked.pdf")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	first := fmt.Sprint(len(d.pages) + 1)
	text, err := exec.Command("pdftotext", "-f", first, "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	for _, want := range []string{
		"planreview findings summary", "File: plans.pdf", "Job: job_123", "Version: ver_456",
		"2021 International Building Code", "Findings: 10 (2 critical, 2 high, 2 medium, 2 low, 2 info)",
		"Stopnišce: width < 1.2 m (€ cost)", "IBC 2021 §1011.5.2", "A-201", "CRITICAL",
		"summary page 1 of 1",
	} {
		if !bytes.Contains(text, []byte(want)) {
			t.Errorf("summary text lacks %q:\n%s", want, text)
		}
	}
}

// TestInputsRestructuredByQPDF covers layouts the generator does not write:
// page objects inside object streams, linearized files, and both.
func TestInputsRestructuredByQPDF(t *testing.T) {
	requireTool(t, "qpdf")
	d := planSet(3, [4]float64{0, 0, 1224, 792}, &[4]float64{50, 40, 1200, 760}, 90)
	plain := filepath.Join(t.TempDir(), "plain.pdf")
	if err := os.WriteFile(plain, d.build(t), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"object streams":             {"--object-streams=generate"},
		"linearized":                 {"--linearize"},
		"linearized with objstreams": {"--linearize", "--object-streams=generate"},
		"qpdf rewrite, classic xref": {"--object-streams=disable"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			restructured := filepath.Join(t.TempDir(), "in.pdf")
			cmd := exec.Command("qpdf", append(append([]string{}, args...), plain, restructured)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("qpdf %v: %v\n%s", args, err, out)
			}
			in, err := os.ReadFile(restructured)
			if err != nil {
				t.Fatal(err)
			}
			marks := marksFor(d)
			out := render(t, in, marks)
			if !bytes.HasPrefix(out, in) {
				t.Error("expected an incremental update")
			}
			qpdfAccepts(t, out)
			_, _, squares := readBack(t, out)
			if len(squares) != len(marks) {
				t.Fatalf("%d squares for %d marks", len(squares), len(marks))
			}
			for i, s := range squares {
				if !s.rect.contains(boxFromRect(marks[i].Rect)) {
					t.Errorf("%s: rect %v lacks the evidence", s.nm, s.rect)
				}
			}
		})
	}
}
