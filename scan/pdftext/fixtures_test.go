package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"planreview/internal/pdfgen"
)

var letter = [4]float64{0, 0, 612, 792}

// onePage builds a one-page letter PDF with the given content and fonts.
func onePage(content string, fonts map[string]int, d *pdfgen.Doc) []byte {
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: content, Fonts: fonts})
	return d.Bytes()
}

func openBytes(t testing.TB, pdf []byte) *Document {
	t.Helper()
	doc, err := OpenReader(context.Background(), bytes.NewReader(pdf), int64(len(pdf)))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return doc
}

func page1(t testing.TB, pdf []byte) *Page {
	t.Helper()
	doc := openBytes(t, pdf)
	p, err := doc.Page(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if p.Err != nil {
		t.Fatalf("page error: %v", p.Err)
	}
	return p
}

// box is a word box in displayed-page points: xMin, yMin, xMax, yMax.
type box [4]float64

func pointsBox(p *Page, w Word) box {
	b := w.BBox
	return box{b.Left * p.Width, b.Top * p.Height, (b.Left + b.Width) * p.Width, (b.Top + b.Height) * p.Height}
}

func near(a, b box, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

func texts(p *Page) []string {
	out := make([]string, len(p.Words))
	for i, w := range p.Words {
		out[i] = w.Text
	}
	return out
}

func findWord(p *Page, text string) (Word, bool) {
	for _, w := range p.Words {
		if w.Text == text {
			return w, true
		}
	}
	return Word{}, false
}

// Helvetica AFM widths used below: H 722, e 556, l 222, o 556.
const helloWidth = (722 + 556 + 222 + 222 + 556) / 1000.0

func TestFontsAndOperators(t *testing.T) {
	type want struct {
		text string
		box  box // displayed points; zero box = only check the text
	}
	cases := []struct {
		name  string
		build func(d *pdfgen.Doc) []byte
		want  []want
	}{
		{
			name: "standard 14 font without Widths uses AFM metrics",
			build: func(d *pdfgen.Doc) []byte {
				return onePage("BT /F1 10 Tf 100 700 Td (Hello) Tj ET", map[string]int{"F1": d.StandardFont("Helvetica")}, d)
			},
			want: []want{{"Hello", box{100, 92 - 7.18, 100 + 10*helloWidth, 92 + 2.07}}},
		},
		{
			name: "CID font with W widths and Identity-H",
			build: func(d *pdfgen.Doc) []byte {
				f := d.NewCIDFont("TestCID", []rune("AB"), []int{400, 900})
				return onePage(fmt.Sprintf("BT /C1 20 Tf 50 500 Td %s Tj ET", f.Hex("ABBA")), map[string]int{"C1": f.Obj}, d)
			},
			// widths 0.4+0.9+0.9+0.4 = 2.6 em; ascent 0.9, descent -0.25
			want: []want{{"ABBA", box{50, 292 - 18, 50 + 52, 292 + 5}}},
		},
		{
			name: "simple font with Widths and descriptor metrics",
			build: func(d *pdfgen.Doc) []byte {
				return onePage("BT /F1 10 Tf 10 20 Td (abc) Tj ET", map[string]int{"F1": d.WidthsFont("Narrow", 500, 800, -200)}, d)
			},
			want: []want{{"abc", box{10, 772 - 8, 25, 772 + 2}}},
		},
		{
			name: "TJ kerning splits words at wide gaps only",
			build: func(d *pdfgen.Doc) []byte {
				return onePage("BT /F1 10 Tf 100 700 Td [(Hel) 20 (lo) -3000 (World)] TJ ET", map[string]int{"F1": d.StandardFont("Helvetica")}, d)
			},
			want: []want{{"Hello", box{100, 84.82, 100 + 10*helloWidth - 0.2, 94.07}}, {"World", box{}}},
		},
		{
			name: "Tc Tw Tz TL T* ' and \" operators",
			build: func(d *pdfgen.Doc) []byte {
				return onePage(`BT /F1 10 Tf 14 TL 100 700 Td (one) Tj T* (two) Tj (three) ' 5 0 (four five) " 200 Tz 0 Tc 0 Tw 0 -14 TD (wide) Tj ET`,
					map[string]int{"F1": d.StandardFont("Courier")}, d)
			},
			want: []want{
				{"one", box{100, 92 - 6.29, 118, 92 + 1.57}},
				{"two", box{100, 106 - 6.29, 118, 106 + 1.57}},
				{"three", box{100, 120 - 6.29, 130, 120 + 1.57}},
				{"four", box{100, 134 - 6.29, 124, 134 + 1.57}},
				{"five", box{100 + 24 + 6 + 5, 134 - 6.29, 100 + 24 + 6 + 5 + 24, 134 + 1.57}},
				{"wide", box{100, 148 - 6.29, 148, 148 + 1.57}},
			},
		},
		{
			name: "Ts rise and Tm with scaling",
			build: func(d *pdfgen.Doc) []byte {
				return onePage("BT /F1 1 Tf 10 0 0 10 100 700 Tm 0.5 Ts (Hello) Tj ET", map[string]int{"F1": d.StandardFont("Helvetica")}, d)
			},
			want: []want{{"Hello", box{100, 87 - 7.18, 100 + 10*helloWidth, 87 + 2.07}}},
		},
		{
			name: "Form XObject text through its Matrix and the CTM",
			build: func(d *pdfgen.Doc) []byte {
				f1 := d.StandardFont("Helvetica")
				inner := d.Form("BT /F1 10 Tf 0 0 Td (Hello) Tj ET", [6]float64{2, 0, 0, 2, 10, 0}, [4]float64{0, 0, 100, 100}, map[string]int{"F1": f1}, nil)
				outer := d.Form("q 1 0 0 1 0 100 cm /Inner Do Q", [6]float64{1, 0, 0, 1, 0, 0}, [4]float64{0, 0, 300, 300}, nil, map[string]int{"Inner": inner})
				d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: "q 1 0 0 1 100 500 cm /Outer Do Q", XObjects: map[string]int{"Outer": outer}})
				return d.Bytes()
			},
			// origin (100+10, 500+100) = (110, 600) → y = 192; size 20
			want: []want{{"Hello", box{110, 192 - 14.36, 110 + 20*helloWidth, 192 + 4.14}}},
		},
		{
			name: "Type 3 font",
			build: func(d *pdfgen.Doc) []byte {
				return onePage("BT /T3 12 Tf 100 100 Td (ABC) Tj ET", map[string]int{"T3": d.Type3Font()}, d)
			},
			want: []want{{"ABC", box{100, 0, 100 + 3*0.7*12, 0}}},
		},
		{
			name: "Differences, ligature glyph names and NFKC search form",
			build: func(d *pdfgen.Doc) []byte {
				f := d.DifferencesFont("Lig", map[int]string{1: "fi", 2: "uni00E9", 3: "Eacute"})
				return onePage(`BT /F1 10 Tf 100 700 Td (\001nal caf\002 \003t\002) Tj ET`, map[string]int{"F1": f}, d)
			},
			want: []want{{"final", box{100, 0, 100 + 4*6, 0}}, {"café", box{}}, {"Été", box{}}},
		},
		{
			name: "inline images skipped, ActualText replaces its span's glyphs",
			build: func(d *pdfgen.Doc) []byte {
				content := "/Span <</ActualText (x) /MCID 3>> BDC BT /F1 10 Tf 100 700 Td (Hello) Tj ET EMC " +
					"q 10 0 0 10 0 0 cm BI /W 4 /H 1 /BPC 8 /CS /G ID \x00ET(\xff)Tj\n EI Q /OC /L1 BDC BT /F1 10 Tf 100 600 Td (World) Tj ET EMC"
				d.Compress = false
				return onePage(content, map[string]int{"F1": d.StandardFont("Helvetica")}, d)
			},
			want: []want{{"x", box{100, 84.82, 100 + 10*helloWidth, 94.07}}, {"World", box{}}},
		},
		{
			name: "mirrored text",
			build: func(d *pdfgen.Doc) []byte {
				return onePage("BT /F1 10 Tf -1 0 0 1 300 700 Tm (ab) Tj ET", map[string]int{"F1": d.StandardFont("Courier")}, d)
			},
			want: []want{{"a", box{294, 92 - 6.29, 300, 92 + 1.57}}, {"b", box{288, 92 - 6.29, 294, 92 + 1.57}}},
		},
		{
			name: "annotation appearance text",
			build: func(d *pdfgen.Doc) []byte {
				f1 := d.StandardFont("Helvetica")
				ap := d.Form("BT /F1 10 Tf 2 2 Td (Hello) Tj ET", [6]float64{1, 0, 0, 1, 0, 0}, [4]float64{0, 0, 100, 20}, map[string]int{"F1": f1}, nil)
				annot := d.Add(fmt.Sprintf("<< /Type /Annot /Subtype /FreeText /Rect [200 300 300 320] /AP << /N %d 0 R >> >>", ap))
				d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: "", Annots: []int{annot}})
				return d.Bytes()
			},
			want: []want{{"Hello", box{202, 490 - 7.18, 202 + 10*helloWidth, 490 + 2.07}}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pdf := tc.build(pdfgen.New())
			if havePoppler() {
				// Every fixture is also checked against poppler as reference.
				if a := compareWithPoppler(t, writeTemp(t, "fixture.pdf", pdf)); a.ratio() < 1 {
					t.Errorf("poppler agreement %.0f%%, misses %v", 100*a.ratio(), a.misses)
				}
			}
			p := page1(t, pdf)
			if !p.Readable {
				t.Fatalf("page not readable: %q", p.Reason)
			}
			if len(p.Words) != len(tc.want) {
				t.Fatalf("words = %q, want %d words", texts(p), len(tc.want))
			}
			for _, w := range tc.want {
				got, ok := findWord(p, w.text)
				if !ok {
					t.Fatalf("word %q not found in %q", w.text, texts(p))
				}
				if w.box == (box{}) {
					continue
				}
				gb := pointsBox(p, got)
				check := w.box
				if check[1] == 0 && check[3] == 0 { // only the horizontal extent is known
					check[1], check[3] = gb[1], gb[3]
				}
				if !near(gb, check, 0.05) {
					t.Errorf("%q box = %.2f, want %.2f", w.text, gb, check)
				}
			}
		})
	}
}

func TestNormKeepsOriginal(t *testing.T) {
	d := pdfgen.New()
	f := d.NewCIDFont("Lig", []rune("\ufb01nal"), []int{500, 500, 500, 500, 500})
	p := page1(t, onePage(fmt.Sprintf("BT /C1 10 Tf 100 700 Td %s Tj ET", f.Hex("\ufb01nal")), map[string]int{"C1": f.Obj}, d))
	if len(p.Words) != 1 || p.Words[0].Text != "\ufb01nal" || p.Words[0].Norm != "final" {
		t.Fatalf("words = %+v, want Text ﬁnal with Norm final", p.Words)
	}
}

func TestRotatedPages(t *testing.T) {
	// The same word at user-space (100, 700) on a letter page, displayed with
	// each /Rotate: its displayed box turns with the page, its user-space
	// Rect does not.
	wantRect := Rect{100, 700 - 2.07, 100 + 10*helloWidth, 700 + 7.18}
	cases := []struct {
		rotate        int
		width, height float64
		box           box
	}{
		{0, 612, 792, box{100, 92 - 7.18, 100 + 10*helloWidth, 92 + 2.07}},
		{90, 792, 612, box{700 - 2.07, 100, 700 + 7.18, 100 + 10*helloWidth}},
		{180, 612, 792, box{512 - 10*helloWidth, 700 - 2.07, 512, 700 + 7.18}},
		{270, 792, 612, box{92 - 7.18, 512 - 10*helloWidth, 92 + 2.07, 512}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.rotate), func(t *testing.T) {
			d := pdfgen.New()
			d.AddPage(pdfgen.PageSpec{MediaBox: letter, Rotate: tc.rotate, Content: "BT /F1 10 Tf 100 700 Td (Hello) Tj ET",
				Fonts: map[string]int{"F1": d.StandardFont("Helvetica")}})
			pdf := d.Bytes()
			if havePoppler() {
				if a := compareWithPoppler(t, writeTemp(t, "rotated.pdf", pdf)); a.ratio() < 1 {
					t.Errorf("poppler agreement %.0f%%, misses %v", 100*a.ratio(), a.misses)
				}
			}
			w, h, rot, err := openBytes(t, pdf).PageSize(1)
			if err != nil || w != tc.width || h != tc.height || rot != tc.rotate {
				t.Fatalf("PageSize = %g %g %d %v", w, h, rot, err)
			}
			p := page1(t, pdf)
			if p.Rotate != tc.rotate || p.Width != tc.width || p.Height != tc.height {
				t.Fatalf("page = %v° %gx%g, want %v° %gx%g", p.Rotate, p.Width, p.Height, tc.rotate, tc.width, tc.height)
			}
			if len(p.Words) != 1 {
				t.Fatalf("words = %q", texts(p))
			}
			if got := pointsBox(p, p.Words[0]); !near(got, tc.box, 0.05) {
				t.Errorf("box = %.2f, want %.2f", got, tc.box)
			}
			for i := range wantRect {
				if math.Abs(p.Words[0].Rect[i]-wantRect[i]) > 0.05 {
					t.Fatalf("rect = %v, want %v", p.Words[0].Rect, wantRect)
				}
			}
		})
	}
}

func TestVerticalWriting(t *testing.T) {
	d := pdfgen.New()
	f := d.NewCIDFont("Tate", []rune("AB"), []int{1000, 1000})
	pdf := onePage(fmt.Sprintf("BT /V1 10 Tf 300 700 Td %s Tj ET", f.Hex("ABAB")), map[string]int{"V1": f.Obj}, d)
	pdf = bytes.Replace(pdf, []byte("/Identity-H"), []byte("/Identity-V"), 1)
	if havePoppler() {
		if a := compareWithPoppler(t, writeTemp(t, "vertical.pdf", pdf)); a.ratio() < 1 {
			t.Errorf("poppler agreement %.0f%%, misses %v", 100*a.ratio(), a.misses)
		}
	}
	p := page1(t, pdf)
	if len(p.Words) != 1 || p.Words[0].Text != "ABAB" {
		t.Fatalf("words = %q, want one vertical word ABAB", texts(p))
	}
	if b := pointsBox(p, p.Words[0]); b[3]-b[1] < 3*(b[2]-b[0]) {
		t.Fatalf("box %.1f is not a vertical run", b)
	}
}

func TestPredefinedCMapUsesToUnicodeCodespace(t *testing.T) {
	d := pdfgen.New()
	f := d.NewCIDFont("Mincho", []rune("AB"), []int{500, 500})
	pdf := onePage(fmt.Sprintf("BT /C1 10 Tf 100 700 Td %s Tj ET", f.Hex("ABBA")), map[string]int{"C1": f.Obj}, d)
	pdf = bytes.Replace(pdf, []byte("/Identity-H"), []byte("/90ms-RKSJ-H"), 1)
	p := page1(t, pdf)
	if len(p.Words) != 1 || p.Words[0].Text != "ABBA" {
		t.Fatalf("words = %q, want ABBA", texts(p))
	}
	// The code → CID table of 90ms-RKSJ-H is not bundled: default widths.
	if b := pointsBox(p, p.Words[0]); math.Abs(b[2]-b[0]-40) > 0.01 {
		t.Fatalf("width %.2f, want 40 (4 glyphs at the default 1000)", b[2]-b[0])
	}
}

func TestLayersOffByDefaultAreLeftOut(t *testing.T) {
	d := pdfgen.New()
	f := d.StandardFont("Helvetica")
	on := d.Add("<< /Type /OCG /Name (A-ANNO-TEXT) >>")
	off := d.Add("<< /Type /OCG /Name (A-ANNO-REDLINE) >>")
	offMember := d.Add(fmt.Sprintf("<< /Type /OCMD /OCGs [%d 0 R] /P /AnyOn >>", off))
	hiddenForm := d.AddStream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 100 100] /OC %d 0 R /Resources << /Font << /F1 %d 0 R >> >> ", off, f),
		[]byte("BT /F1 10 Tf 0 0 Td (FormHidden) Tj ET"), false)
	d.CatalogExtra = fmt.Sprintf("/OCProperties << /OCGs [%d 0 R %d 0 R] /D << /OFF [%d 0 R] >> >> ", on, off, off)
	d.AddPage(pdfgen.PageSpec{
		MediaBox: letter,
		Content: "/OC /L1 BDC BT /F1 10 Tf 100 700 Td (Visible) Tj ET EMC " +
			"/OC /L2 BDC BT /F1 10 Tf 100 600 Td (Hidden) Tj ET EMC " +
			"/OC /L3 BDC BT /F1 10 Tf 100 500 Td (Member) Tj ET EMC " +
			"q 1 0 0 1 100 400 cm /Fm Do Q BT /F1 10 Tf 100 300 Td (After) Tj ET",
		Fonts:      map[string]int{"F1": f},
		XObjects:   map[string]int{"Fm": hiddenForm},
		Properties: map[string]int{"L1": on, "L2": off, "L3": offMember},
	})
	pdf := d.Bytes()
	if havePoppler() {
		if a := compareWithPoppler(t, writeTemp(t, "layers.pdf", pdf)); a.ratio() < 1 || a.ourWords != a.popplerWords {
			t.Errorf("poppler agreement %.0f%% (%d words vs %d), misses %v", 100*a.ratio(), a.ourWords, a.popplerWords, a.misses)
		}
	}
	if got := strings.Join(texts(page1(t, pdf)), " "); got != "Visible After" {
		t.Fatalf("words = %q, want the visible layer only", got)
	}
}

func TestFreeTextWithoutAppearance(t *testing.T) {
	d := pdfgen.New()
	annots := []int{
		d.Add("<< /Type /Annot /Subtype /FreeText /Rect [100 500 300 540] /Contents (PROVIDE FIRE DAMPER) /DA (/Helv 12 Tf 0 g) >>"),
		d.Add("<< /Type /Annot /Subtype /FreeText /Rect [300 300 380 400] /Contents (SEE DETAIL 5/A-501 FOR GUARD HEIGHT) /DA (0 g /TiRo 9 Tf) /BS << /W 2 >> >>"),
		d.Add("<< /Type /Annot /Subtype /FreeText /Rect [50 50 150 90] /Contents (HIDDEN NOTE) /F 2 >>"),
	}
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: "", Annots: annots})
	pdf := d.Bytes()
	if havePoppler() {
		if a := compareWithPoppler(t, writeTemp(t, "freetext.pdf", pdf)); a.ratio() < 1 || a.ourWords != a.popplerWords {
			t.Errorf("poppler agreement %.0f%% (%d words vs %d), misses %v", 100*a.ratio(), a.ourWords, a.popplerWords, a.misses)
		}
	}
	got := strings.Join(texts(page1(t, pdf)), " ")
	for _, w := range []string{"PROVIDE", "DAMPER", "5/A-501", "HEIGHT"} {
		if !strings.Contains(got, w) {
			t.Errorf("words %q lack %q", got, w)
		}
	}
	if strings.Contains(got, "HIDDEN") {
		t.Errorf("hidden annotation read: %q", got)
	}
}

func TestCropBoxOrigin(t *testing.T) {
	d := pdfgen.New()
	crop := [4]float64{50, 100, 562, 742}
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, CropBox: &crop, Content: "BT /F1 10 Tf 100 700 Td (Hello) Tj ET",
		Fonts: map[string]int{"F1": d.StandardFont("Helvetica")}})
	p := page1(t, d.Bytes())
	if p.Width != 512 || p.Height != 642 {
		t.Fatalf("size %gx%g, want 512x642", p.Width, p.Height)
	}
	want := box{50, 42 - 7.18, 50 + 10*helloWidth, 42 + 2.07}
	if got := pointsBox(p, p.Words[0]); !near(got, want, 0.05) {
		t.Errorf("box = %.2f, want %.2f", got, want)
	}
}

// helloPDF is a small two-page document used by the robustness tests.
func helloPDF() []byte {
	d := pdfgen.New()
	f := d.StandardFont("Helvetica")
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: "BT /F1 10 Tf 100 700 Td (Hello) Tj ET", Fonts: map[string]int{"F1": f}})
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: "BT /F1 10 Tf 100 700 Td (World) Tj ET", Fonts: map[string]int{"F1": f}})
	return d.Bytes()
}

func encrypt(t *testing.T, pdf []byte, user, owner string, aes bool, keyLength int) []byte {
	t.Helper()
	api.DisableConfigDir() // no pdfcpu config written under $HOME by tests
	var conf *model.Configuration
	if aes {
		conf = model.NewAESConfiguration(user, owner, keyLength)
	} else {
		conf = model.NewRC4Configuration(user, owner, keyLength)
	}
	var out bytes.Buffer
	if err := api.Encrypt(bytes.NewReader(pdf), &out, conf); err != nil {
		t.Fatalf("encrypt: %v", err)
	}
	return out.Bytes()
}

func TestEncryptedWithEmptyUserPassword(t *testing.T) {
	cases := []struct {
		name string
		aes  bool
		bits int
	}{
		{"RC4-40", false, 40},
		{"RC4-128", false, 128},
		{"AES-128", true, 128},
		{"AES-256", true, 256},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pdf := encrypt(t, helloPDF(), "", "owner-secret", tc.aes, tc.bits)
			if bytes.Contains(pdf, []byte("(Hello)")) {
				t.Fatal("fixture is not encrypted")
			}
			doc := openBytes(t, pdf)
			var got []string
			for p := range doc.Pages(context.Background()) {
				if p.Err != nil {
					t.Fatal(p.Err)
				}
				got = append(got, texts(p)...)
			}
			if strings.Join(got, " ") != "Hello World" {
				t.Fatalf("words = %q", got)
			}
		})
	}
}

func TestUserPasswordIsErrEncrypted(t *testing.T) {
	pdf := encrypt(t, helloPDF(), "open-sesame", "owner-secret", true, 256)
	_, err := OpenReader(context.Background(), bytes.NewReader(pdf), int64(len(pdf)))
	if !errors.Is(err, ErrEncrypted) {
		t.Fatalf("err = %v, want ErrEncrypted", err)
	}
}

func TestBrokenXRefIsRepaired(t *testing.T) {
	pdf := pdfgen.BreakXRef(helloPDF())
	doc := openBytes(t, pdf)
	if doc.NumPages() != 2 {
		t.Fatalf("pages = %d", doc.NumPages())
	}
	p, _ := doc.Page(context.Background(), 2)
	if p.Err != nil || strings.Join(texts(p), " ") != "World" {
		t.Fatalf("page 2 = %q, err %v", texts(p), p.Err)
	}
}

func TestMalformedInputsGiveTypedErrors(t *testing.T) {
	good := helloPDF()
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNotPDF},
		{"html", []byte("<!DOCTYPE html><html><body>404</body></html>"), ErrNotPDF},
		{"header only", []byte("%PDF-1.7\n"), ErrInvalid},
		{"garbage after header", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte{0xff, 0x00, '('}, 500)...), ErrInvalid},
	}
	for _, frac := range []float64{0.1, 0.3, 0.6, 0.9} {
		cases = append(cases, struct {
			name string
			data []byte
			want error
		}{fmt.Sprintf("truncated %.0f%%", frac*100), pdfgen.Truncate(good, frac), ErrInvalid})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := OpenReader(context.Background(), bytes.NewReader(tc.data), int64(len(tc.data)))
			if err != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("err = %v, want %v", err, tc.want)
				}
				t.Logf("open: %v", err)
				return
			}
			// Repaired (the cut only lost the cross-reference table): every
			// page reads its original text or carries a typed error.
			original := []string{"Hello", "World"}
			for p := range doc.Pages(context.Background()) {
				t.Logf("page %d: %q err=%v", p.Number, texts(p), p.Err)
				if p.Err != nil {
					if !errors.Is(p.Err, ErrInvalid) {
						t.Fatalf("page %d err = %v, want ErrInvalid", p.Number, p.Err)
					}
					continue
				}
				if got := strings.Join(texts(p), " "); got != original[p.Number-1] {
					t.Fatalf("page %d = %q, want %q or an error", p.Number, got, original[p.Number-1])
				}
			}
		})
	}
}

func TestLostPageTree(t *testing.T) {
	t.Run("missing kid keeps its page number", func(t *testing.T) {
		pdf := helloPDF()
		// Point page 1 of the tree at an object that does not exist.
		pdf = regexp.MustCompile(`/Kids \[(\d+) 0 R`).ReplaceAll(pdf, []byte("/Kids [999 0 R"))
		doc := openBytes(t, pdf)
		if doc.NumPages() != 2 {
			t.Fatalf("pages = %d, want 2", doc.NumPages())
		}
		p1, _ := doc.Page(context.Background(), 1)
		p2, _ := doc.Page(context.Background(), 2)
		if !errors.Is(p1.Err, ErrInvalid) || p2.Err != nil || strings.Join(texts(p2), " ") != "World" {
			t.Fatalf("page 1 err %v; page 2 %q err %v", p1.Err, texts(p2), p2.Err)
		}
	})
	t.Run("no page tree: pages found by type", func(t *testing.T) {
		pdf := bytes.Replace(helloPDF(), []byte("/Pages 2 0 R >>"), []byte("/Pages 77 0 R >>"), 1)
		doc := openBytes(t, pdf)
		var got []string
		for p := range doc.Pages(context.Background()) {
			got = append(got, texts(p)...)
		}
		if strings.Join(got, " ") != "Hello World" {
			t.Fatalf("words = %q", got)
		}
	})
}

func TestPageErrorDoesNotStopOthers(t *testing.T) {
	d := pdfgen.New()
	f := d.StandardFont("Helvetica")
	bad := d.Add("<< /Filter /FlateDecode /Length 12 >>\nstream\nnot-flate!!!\nendstream")
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: "", ExtraDict: ""})
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: "BT /F1 10 Tf 100 700 Td (Fine) Tj ET", Fonts: map[string]int{"F1": f}})
	pdf := d.Bytes()
	// Point page 1's contents at the broken stream.
	loc := regexp.MustCompile(`/Contents \d+ 0 R`).FindIndex(pdf)
	pdf = append(append(append([]byte(nil), pdf[:loc[0]]...), fmt.Sprintf("/Contents %d 0 R", bad)...), pdf[loc[1]:]...)
	doc := openBytes(t, pdf)
	var errs, words int
	for p := range doc.Pages(context.Background()) {
		if p.Err != nil {
			errs++
			if !errors.Is(p.Err, ErrInvalid) {
				t.Errorf("page %d err = %v, want ErrInvalid", p.Number, p.Err)
			}
		}
		words += len(p.Words)
	}
	if errs != 1 || words != 1 {
		t.Fatalf("errors = %d, words = %d; want 1 and 1", errs, words)
	}
}

func TestUnreadablePageReasons(t *testing.T) {
	cases := []struct {
		name    string
		content string
		images  bool
		reason  string
	}{
		{"scan", "q 612 0 0 792 0 0 cm /Im Do Q", true, ReasonImageOnly},
		{"inline image", "q 10 0 0 10 0 0 cm BI /W 2 /H 1 /BPC 8 /CS /G ID \x00\x00 EI Q", false, ReasonImageOnly},
		{"outlines", "0 0 m 100 100 l 50 0 l h f 10 10 m 20 20 l S", false, ReasonNoTextObjects},
		{"blank", "", false, ReasonNoTextObjects},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := pdfgen.New()
			d.Compress = false
			spec := pdfgen.PageSpec{MediaBox: letter, Content: tc.content}
			if tc.images {
				spec.XObjects = map[string]int{"Im": d.Image()}
			}
			d.AddPage(spec)
			p := page1(t, d.Bytes())
			if p.Readable || p.Reason != tc.reason {
				t.Fatalf("readable=%v reason=%q, want %q", p.Readable, p.Reason, tc.reason)
			}
		})
	}
}

func TestTextWithoutUnicodeIsUnmapped(t *testing.T) {
	d := pdfgen.New()
	f := d.NewCIDFont("NoUni", []rune("AB"), []int{500, 500})
	pdf := onePage(fmt.Sprintf("BT /C1 10 Tf 100 700 Td %s Tj ET", f.Hex("ABBA")), map[string]int{"C1": f.Obj}, d)
	pdf = regexp.MustCompile(`/ToUnicode \d+ 0 R`).ReplaceAll(pdf, nil)
	p := page1(t, pdf)
	if p.Readable || p.Reason != ReasonUnmappedText {
		t.Fatalf("readable=%v reason=%q words=%q, want unreadable %q", p.Readable, p.Reason, texts(p), ReasonUnmappedText)
	}
	if p.Glyphs != 4 || p.UnmappedGlyphs != 4 {
		t.Errorf("glyphs %d, unmapped %d: want 4 and 4", p.Glyphs, p.UnmappedGlyphs)
	}
}

func TestDeadlineStopsHostilePage(t *testing.T) {
	// A page that draws a form which draws itself through a chain of
	// forms, each many times: exponential work without the limits.
	d := pdfgen.New()
	f := d.StandardFont("Helvetica")
	prev := d.Form("BT /F1 1 Tf (x) Tj ET", [6]float64{1, 0, 0, 1, 0, 0}, [4]float64{0, 0, 1, 1}, map[string]int{"F1": f}, nil)
	for range 12 {
		prev = d.Form(strings.Repeat("/X Do ", 10), [6]float64{1, 0, 0, 1, 0, 0}, [4]float64{0, 0, 1, 1}, nil, map[string]int{"X": prev})
	}
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: "/X Do", XObjects: map[string]int{"X": prev}})
	doc := openBytes(t, d.Bytes())
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := doc.Page(ctx, 1)
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Fatalf("took %v after a 200ms deadline", elapsed)
	}
	if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, errTooComplex) {
		// Finishing within the deadline is also fine; the limits held.
		t.Logf("page finished: %v", err)
	}
}

// TestReadingOrder: words come line by line, a block's lines together.
func TestReadingOrder(t *testing.T) {
	d := pdfgen.New()
	content := "BT /F1 10 Tf 300 700 Td (right) Tj ET " +
		"BT /F1 10 Tf 100 700 Td (first line) Tj 0 -12 Td (second line) Tj ET " +
		"BT /F1 10 Tf 100 400 Td (other block) Tj ET"
	p := page1(t, onePage(content, map[string]int{"F1": d.StandardFont("Helvetica")}, d))
	got := strings.Join(texts(p), " ")
	if got != "first line second line right other block" {
		t.Fatalf("reading order = %q", got)
	}
}

func TestEmptyPDFHasZeroPages(t *testing.T) {
	doc := openBytes(t, pdfgen.New().Bytes())
	if n := doc.NumPages(); n != 0 {
		t.Fatalf("pages = %d, want 0 (the runner reports empty_pdf)", n)
	}
	if _, err := doc.Page(context.Background(), 1); err == nil {
		t.Fatal("page 1 of an empty PDF read without error")
	}
}

func TestSymbolFontText(t *testing.T) {
	d := pdfgen.New()
	f := d.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>")
	pdf := onePage(`BT /S 10 Tf 100 700 Td (f\26112\262 \306 \26130\260) Tj ET`, map[string]int{"S": f}, d)
	if havePoppler() {
		if a := compareWithPoppler(t, writeTemp(t, "symbol.pdf", pdf)); a.ratio() < 1 {
			t.Errorf("poppler agreement %.0f%%, misses %v", 100*a.ratio(), a.misses)
		}
	}
	p := page1(t, pdf)
	if got := strings.Join(texts(p), " "); got != "φ±12″ ∅ ±30°" {
		t.Fatalf("words = %q", got)
	}
}
