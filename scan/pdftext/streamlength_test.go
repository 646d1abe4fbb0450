package pdftext

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"planreview/internal/pdfgen"
)

// withContentLength builds a one-page PDF whose content stream declares
// length instead of its real one (same number of digits, so the
// cross-reference offsets stay right).
func withContentLength(t *testing.T, compress bool, declared func(real int) int) []byte {
	t.Helper()
	d := pdfgen.New()
	d.Compress = compress
	f := d.StandardFont("Helvetica")
	content := "BT /F1 10 Tf 100 700 Td (FIRST) Tj 0 -20 Td (SECOND) Tj 0 -20 Td (THIRD) Tj ET"
	d.AddPage(pdfgen.PageSpec{MediaBox: letter, Content: content, Fonts: map[string]int{"F1": f}})
	pdf := d.Bytes()
	re := regexp.MustCompile(`/Length (\d+) >>\nstream\n`) // the page's content: the only stream
	m := re.FindSubmatchIndex(pdf)
	if m == nil {
		t.Fatal("content stream not found")
	}
	var real int
	fmt.Sscan(string(pdf[m[2]:m[3]]), &real)
	want := fmt.Sprintf("%0*d", m[3]-m[2], declared(real))
	if len(want) != m[3]-m[2] {
		t.Fatalf("declared length %s changes the digit count", want)
	}
	return append(append(append([]byte(nil), pdf[:m[2]]...), want...), pdf[m[3]:]...)
}

func TestWrongStreamLengthReadsToEndstream(t *testing.T) {
	cases := map[string]func(int) int{
		"too short":    func(n int) int { return n / 2 },
		"too long":     func(n int) int { return n + 9 },
		"right":        func(n int) int { return n },
		"past the end": func(n int) int { return nines(n) },
	}
	for name, declared := range cases {
		t.Run(name, func(t *testing.T) {
			for _, compress := range []bool{false, true} {
				p := page1(t, withContentLength(t, compress, declared))
				if got := strings.Join(texts(p), " "); got != "FIRST SECOND THIRD" {
					t.Errorf("compressed=%v: words = %q, want FIRST SECOND THIRD", compress, got)
				}
			}
		})
	}
}

// nines is the largest number with as many digits as n: a length that runs
// far past the stream's end.
func nines(n int) int {
	m := 9
	for m < n {
		m = m*10 + 9
	}
	return m
}
