package pdftext

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"planreview/internal/pdfgen"
)

// randomTextPage draws text with random operators and state: fonts of
// every kind, sizes, Tc, Tw, Tz, Ts, TL, T*, ', ", TJ kerning, rotated and
// scaled text matrices, nested q/cm and a Form XObject.
func randomTextPage(r *rand.Rand, d *pdfgen.Doc, diagonal bool) pdfgen.PageSpec {
	alphabet := []rune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-'/.")
	widths := make([]int, len(alphabet))
	for i := range widths {
		widths[i] = 400 + r.IntN(500)
	}
	cid := d.NewCIDFont("RandCID", alphabet, widths)
	fonts := map[string]int{
		"F1": d.StandardFont("Helvetica"),
		"F2": d.StandardFont("Times-Bold"),
		"F3": d.WidthsFont("Narrow", 450, 880, -220),
		"F4": cid.Obj,
		"F5": d.StandardFont("Courier"),
	}
	word := func() string {
		n := 1 + r.IntN(8)
		var b strings.Builder
		for range n {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	var c strings.Builder
	for range 40 {
		font := fmt.Sprintf("F%d", 1+r.IntN(5))
		size := 4 + r.Float64()*20
		angle := float64(r.IntN(4)) * math.Pi / 2
		if diagonal && r.IntN(6) == 0 {
			angle = r.Float64() * 2 * math.Pi // diagonal text
		}
		sx := 0.5 + r.Float64()
		cos, sin := math.Cos(angle), math.Sin(angle)
		x, y := 50+r.Float64()*500, 50+r.Float64()*700
		fmt.Fprintf(&c, "q %.3f 0 0 %.3f 0 0 cm BT /%s %.2f Tf %.2f Tc %.2f Tw %.0f Tz %.2f TL %.2f Ts ",
			sx, sx, font, size, r.Float64()*2-0.5, r.Float64()*4, 70+r.Float64()*60, size*1.2, r.Float64()*2-1)
		fmt.Fprintf(&c, "%.4f %.4f %.4f %.4f %.2f %.2f Tm ", cos, sin, -sin, cos, x/sx, y/sx)
		show := func(s string) string {
			if font == "F4" {
				return cid.Hex(s)
			}
			return "(" + pdfgen.Escape(s) + ")"
		}
		for range 1 + r.IntN(4) {
			switch r.IntN(5) {
			case 0:
				fmt.Fprintf(&c, "%s Tj ", show(word()+" "+word()))
			case 1:
				fmt.Fprintf(&c, "[%s %d %s] TJ ", show(word()), r.IntN(1200)-300, show(word()))
			case 2:
				fmt.Fprintf(&c, "T* %s Tj ", show(word()))
			case 3:
				fmt.Fprintf(&c, "%s ' ", show(word()))
			default:
				fmt.Fprintf(&c, "%.1f %.1f %s \" ", r.Float64()*3, r.Float64(), show(word()+" "+word()))
			}
		}
		c.WriteString("ET Q\n")
	}
	return pdfgen.PageSpec{MediaBox: letter, Rotate: 90 * r.IntN(4), Content: c.String(), Fonts: fonts}
}

// TestRandomPagesAgreeWithPoppler is a differential test: pages of random
// text operators, compared with pdftotext word by word. Axis-aligned text
// must agree like real sheets; dense diagonal text is only reported: there
// poppler's line building (baseline buckets, first-word ranges) decides
// merges that our simpler line model approximates.
func TestRandomPagesAgreeWithPoppler(t *testing.T) {
	if !havePoppler() {
		t.Skip("pdftotext not installed")
	}
	for _, diagonal := range []bool{false, true} {
		r := rand.New(rand.NewPCG(42, 7))
		d := pdfgen.New()
		for range 8 {
			d.AddPage(randomTextPage(r, d, diagonal))
		}
		a := compareWithPoppler(t, writeTemp(t, "random.pdf", d.Bytes()))
		t.Logf("random pages (diagonal text: %v): %d poppler words, %d ours, %.2f%% matched",
			diagonal, a.popplerWords, a.ourWords, 100*a.ratio())
		switch {
		case !diagonal && a.ratio() < minAgreement:
			t.Errorf("agreement %.2f%%; misses:\n  %s", 100*a.ratio(), strings.Join(a.misses, "\n  "))
		case os.Getenv("PDFTEXT_MISSES") != "": // go test -v: list what differs
			t.Logf("first misses:\n  %s", strings.Join(a.misses, "\n  "))
		}
	}
}
