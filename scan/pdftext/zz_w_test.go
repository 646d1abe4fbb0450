package pdftext

import (
	"math/rand/v2"
	"os"
	"testing"

	"planreview/scan/pdftext/internal/pdfgen"
)

func TestZZWriteRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 7))
	d := pdfgen.New()
	d.Compress = false
	for range 8 {
		d.AddPage(randomTextPage(r, d, false))
	}
	os.WriteFile("/tmp/random.pdf", d.Bytes(), 0o644)
}
