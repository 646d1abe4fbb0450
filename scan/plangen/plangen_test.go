package plangen

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"planreview/scan/layout"
)

func TestGenerateWritesValidPDFs(t *testing.T) {
	for _, tc := range []Options{
		{Variant: VariantResidential},
		{Variant: VariantResidential, Compliant: true},
		{Variant: VariantCommercial, FillerPerPage: 30},
		{Variant: VariantCommercial, Compliant: true},
		{Variant: VariantResidential, Rotate: 90},
		{Variant: VariantCommercial, Rotate: 270, ExtraSheets: 5},
	} {
		set, err := Generate(tc)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if tc.Compliant != (len(set.Expected) == 0) {
			t.Errorf("%s: %d expectations", set.Name, len(set.Expected))
		}
		for _, f := range set.Files {
			conf := model.NewDefaultConfiguration()
			ctx, err := api.ReadContext(bytes.NewReader(f.PDF), conf)
			if err != nil {
				t.Fatalf("%s: read back: %v", f.Name, err)
			}
			if err := api.ValidateContext(ctx); err != nil {
				t.Fatalf("%s: validate: %v", f.Name, err)
			}
			if ctx.PageCount != len(f.Pages) {
				t.Errorf("%s: %d pages in the PDF, %d in the ground truth", f.Name, ctx.PageCount, len(f.Pages))
			}
		}
	}
}

func TestGenerateRejectsBadOptions(t *testing.T) {
	for _, o := range []Options{{Variant: "industrial"}, {Rotate: 45}, {ExtraSheets: maxExtraSheets + 1}} {
		if _, err := Generate(o); err == nil {
			t.Errorf("%+v: want an error", o)
		}
	}
	if _, err := Bench(BenchOptions{Pages: 1, Rotate: 30}); err == nil {
		t.Error("Bench with Rotate 30: want an error")
	}
}

// TestGroundTruthBoxes checks the label and word boxes are consistent: words
// inside their label, label inside the page, fractions matching user space.
func TestGroundTruthBoxes(t *testing.T) {
	set, err := Generate(Options{Variant: VariantResidential, FillerPerPage: 50, SkipPDF: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.Files[0].Pages {
		for _, l := range p.Labels {
			if l.Rect[0] < 0 || l.Rect[2] > p.Width || l.Rect[1] < 0 || l.Rect[3] > p.Height {
				t.Errorf("label %q outside the page: %v", l.Text, l.Rect)
			}
			if got := strings.Join(wordsText(l), " "); got != strings.Join(strings.Fields(l.Text), " ") {
				t.Errorf("words %q of label %q", got, l.Text)
			}
			for _, w := range l.Words {
				if w.Rect[0] < l.Rect[0]-1e-9 || w.Rect[2] > l.Rect[2]+1e-9 {
					t.Errorf("word %q outside its label %q", w.Text, l.Text)
				}
				if math.Abs(w.BBox.Left*p.Width-w.Rect[0]) > 1e-6 || math.Abs((1-w.BBox.Top)*p.Height-w.Rect[3]) > 1e-6 {
					t.Errorf("word %q: bbox %v does not match rect %v", w.Text, w.BBox, w.Rect)
				}
			}
		}
	}
}

func wordsText(l Label) []string {
	var out []string
	for _, w := range l.Words {
		out = append(out, w.Text)
	}
	return out
}

// TestTextPageLabelsReadAsLines: labels written as separate text objects
// on one baseline are read as one line by the layout.
func TestTextPageLabelsReadAsLines(t *testing.T) {
	set, err := Generate(Options{Variant: VariantResidential, SkipPDF: true})
	if err != nil {
		t.Fatal(err)
	}
	tp := set.Files[0].Pages[0].TextPage()
	found := false
	for _, l := range layout.AnalyzeLines(&tp).Lines {
		if l.Text == "APPLICABLE CODES: 2018 IRC" {
			found = true
		}
	}
	if !found {
		t.Error("the code statement is not one line")
	}
}

func TestBenchCounts(t *testing.T) {
	for _, tc := range []BenchOptions{
		{Pages: 3, LabelsPerPage: 300},
		{Pages: 2, TextHeavy: true},
	} {
		f, err := Bench(tc)
		if err != nil {
			t.Fatal(err)
		}
		want := tc.LabelsPerPage
		if want == 0 {
			want = 3000
		}
		if len(f.Pages) != tc.Pages {
			t.Fatalf("%d pages", len(f.Pages))
		}
		for _, p := range f.Pages {
			// The title block adds its own labels.
			if n := len(p.Labels); n < want || n > want+12 {
				t.Errorf("page %d: %d labels, want %d + title block", p.Number, n, want)
			}
			fonts := map[string]bool{}
			for _, l := range p.Labels {
				fonts[l.Font] = true
			}
			if tc.TextHeavy && len(fonts) != len(fontOrder) {
				t.Errorf("text-heavy page uses fonts %v", fonts)
			}
			assertNoOverlap(t, p)
		}
		if len(f.PDF) == 0 {
			t.Error("no PDF")
		}
	}
}

func assertNoOverlap(t *testing.T, p Page) {
	t.Helper()
	for i := range p.Labels {
		a := p.Labels[i].Rect
		for j := i + 1; j < len(p.Labels) && j < i+60; j++ {
			b := p.Labels[j].Rect
			if a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3] {
				t.Errorf("page %d: labels %q and %q overlap", p.Number, p.Labels[i].Text, p.Labels[j].Text)
				return
			}
		}
	}
}

// TestGroundTruthAgainstPdftotext cross-checks the ground truth against an
// independent extractor when poppler's pdftotext is installed: every word it
// reports must be a ground-truth word within 0.5% of the page.
func TestGroundTruthAgainstPdftotext(t *testing.T) {
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext not installed")
	}
	for _, rot := range []int{0, 90, 180, 270} {
		t.Run(strconv.Itoa(rot), func(t *testing.T) { compareWithPdftotext(t, bin, rot) })
	}
}

func compareWithPdftotext(t *testing.T, bin string, rot int) {
	set, err := Generate(Options{Variant: VariantCommercial, Rotate: rot})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "set.pdf")
	if err := os.WriteFile(in, set.Files[0].PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-bbox", in, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	pageRe := regexp.MustCompile(`<page width="([\d.]+)" height="([\d.]+)">`)
	wordRe := regexp.MustCompile(`<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>`)
	pages := strings.Split(string(out), "<page ")[1:]
	if len(pages) != len(set.Files[0].Pages) {
		t.Fatalf("pdftotext saw %d pages", len(pages))
	}
	for pi, chunk := range pages {
		size := pageRe.FindStringSubmatch("<page " + chunk)
		if size == nil {
			t.Fatal("no page size")
		}
		// poppler reports the MediaBox size but places words as displayed.
		if sz := size[1] + "x" + size[2]; sz != "2592.000000x1728.000000" && sz != "1728.000000x2592.000000" {
			t.Errorf("rotate %d: page %s", rot, sz)
		}
		truth := set.Files[0].Pages[pi].TextPage()
		matched := 0
		for _, m := range wordRe.FindAllStringSubmatch(chunk, -1) {
			x0, _ := strconv.ParseFloat(m[1], 64)
			y1, _ := strconv.ParseFloat(m[4], 64)
			text := strings.NewReplacer("&quot;", `"`, "&amp;", "&", "&apos;", "'", "&lt;", "<", "&gt;", ">").Replace(m[5])
			ok := false
			for _, w := range truth.Words {
				bottom := (w.BBox.Top + w.BBox.Height) * PageHeight
				if w.Text == text && math.Abs(w.BBox.Left*PageWidth-x0) < 0.005*PageWidth &&
					math.Abs(bottom-y1) < 0.01*PageHeight {
					ok = true
					break
				}
			}
			if !ok {
				t.Errorf("rotate %d page %d: pdftotext word %q at x=%.1f has no ground-truth twin", rot, pi+1, text, x0)
			} else {
				matched++
			}
		}
		if matched < len(truth.Words)*9/10 {
			t.Errorf("page %d: only %d of %d words matched", pi+1, matched, len(truth.Words))
		}
	}
}

// BenchmarkBenchSets writes the extractor benchmark's two sets: 100 pages of
// ~300 labels, and 100 text-heavy pages of ~3,000 labels with a font switch
// per label.
func BenchmarkBenchSets(b *testing.B) {
	for _, opts := range []BenchOptions{{Pages: 100, LabelsPerPage: 300}, {Pages: 100, TextHeavy: true}} {
		b.Run(strconv.FormatBool(opts.TextHeavy), func(b *testing.B) {
			for b.Loop() {
				f, err := Bench(opts)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(f.PDF))/1e6, "MB")
			}
		})
	}
}

func TestWriteDir(t *testing.T) {
	set, err := Generate(Options{Variant: VariantCommercial})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := set.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range set.Files {
		data, err := os.ReadFile(filepath.Join(dir, f.Name+".truth.json"))
		if err != nil {
			t.Fatal(err)
		}
		var back File
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if len(back.Pages) != len(f.Pages) || back.Pages[0].Labels[0].Words[0].Text == "" {
			t.Errorf("%s: ground truth did not round-trip", f.Name)
		}
		if _, err := os.Stat(filepath.Join(dir, f.Name)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "commercial.expected.json")); err != nil {
		t.Error(err)
	}
	noPDF, err := Generate(Options{SkipPDF: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := noPDF.WriteDir(dir); err == nil {
		t.Error("writing a set without PDFs: want an error")
	}
}

func BenchmarkTextPagesTextHeavy(b *testing.B) {
	f, err := Bench(BenchOptions{Pages: 5, TextHeavy: true, SkipPDF: true})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = f.TextPages()
	}
}
