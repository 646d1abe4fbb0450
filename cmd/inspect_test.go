package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"planreview/internal/pdfgen"
	"strings"
	"testing"
)

// tinyPDF writes a PDF with one page per entry of contents (Helvetica as
// /F1) with a correct cross-reference table, so the inspect tests need no
// fixture files.
func tinyPDF(t *testing.T, rotate int, contents ...string) string {
	t.Helper()
	d := pdfgen.New()
	font := d.StandardFont("Helvetica")
	for _, c := range contents {
		d.AddPage(pdfgen.PageSpec{MediaBox: [4]float64{0, 0, 612, 792}, Rotate: rotate, Content: c, Fonts: map[string]int{"F1": font}})
	}
	p := filepath.Join(t.TempDir(), "tiny.pdf")
	if err := os.WriteFile(p, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runInspect(t *testing.T, args ...string) (string, error) {
	t.Helper()
	c := newInspectCmd()
	var out bytes.Buffer
	c.SetOut(&out)
	c.SetErr(&out)
	c.SetArgs(args)
	err := c.Execute()
	return out.String(), err
}

func TestInspectJSON(t *testing.T) {
	file := tinyPDF(t, 90, "BT /F1 10 Tf 100 700 Td (Hello World) Tj ET", "0 0 m 10 10 l S")
	out, err := runInspect(t, file, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		PageCount int `json:"pageCount"`
		Pages     []struct {
			Page     int     `json:"page"`
			Width    float64 `json:"width"`
			Height   float64 `json:"height"`
			Rotate   int     `json:"rotate"`
			Readable bool    `json:"readable"`
			Reason   string  `json:"reason"`
			Words    []struct {
				Text string `json:"text"`
				BBox struct {
					Left, Top, Width, Height float64
				} `json:"bbox"`
				Rect     [4]float64 `json:"rect"`
				FontSize float64    `json:"fontSize"`
			} `json:"words"`
		} `json:"pages"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if got.PageCount != 2 || len(got.Pages) != 2 {
		t.Fatalf("pages = %d/%d", got.PageCount, len(got.Pages))
	}
	p := got.Pages[0]
	if p.Page != 1 || p.Width != 792 || p.Height != 612 || p.Rotate != 90 || !p.Readable || len(p.Words) != 2 {
		t.Fatalf("page 1 = %+v", p)
	}
	w := p.Words[0]
	if w.Text != "Hello" || w.FontSize != 10 || w.Rect[0] != 100 || w.BBox.Left <= 0 || w.BBox.Width <= 0 {
		t.Fatalf("word = %+v", w)
	}
	if q := got.Pages[1]; q.Readable || q.Reason != "no_text_objects" || q.Words == nil {
		t.Fatalf("page 2 = %+v", q)
	}
}

func TestInspectTextAndPageFlag(t *testing.T) {
	file := tinyPDF(t, 0, "BT /F1 10 Tf 100 700 Td (Page one) Tj ET", "BT /F1 12 Tf 72 72 Td (Sheet A-101) Tj ET")
	out, err := runInspect(t, file, "--page", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 page(s)", "page 2: 612 x 792 pt", "2 words, 1 lines, 1 blocks", "Sheet A-101"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Page one") {
		t.Errorf("--page 2 printed page 1:\n%s", out)
	}
}

func TestInspectUnreadableFileExits2(t *testing.T) {
	notPDF := filepath.Join(t.TempDir(), "plans.pdf")
	os.WriteFile(notPDF, []byte("<html>404</html>"), 0o644)
	cases := []struct {
		name string
		args []string
		msg  string
	}{
		{"not a PDF", []string{notPDF}, "not a PDF"},
		{"missing file", []string{filepath.Join(t.TempDir(), "nope.pdf")}, "no such file"},
		{"page out of range", []string{tinyPDF(t, 0, "BT ET"), "--page", "3"}, "out of range"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runInspect(t, tc.args...)
			var ee *ExitError
			if !errors.As(err, &ee) || ee.Code != 2 || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want exit 2 with %q", err, tc.msg)
			}
		})
	}
}
