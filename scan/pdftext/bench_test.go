package pdftext

import (
	"context"
	"os/exec"
	"testing"

	"planreview/scan/pdftext/internal/pdfgen"
)

// The benchmark sets of the extraction issue, smaller page counts so one
// iteration stays short (bench/pdftext.sh runs the full 100- and 20-sheet
// sets against pdftotext with peak memory): ARCH D sheets with ~300
// labels, and text-heavy sheets with ~3,000 labels and a font switch each.
var benchSets = []struct {
	name string
	opts pdfgen.PlanSetOptions
}{
	{"archd_300_labels", pdfgen.PlanSetOptions{Pages: 10, LabelsPerPage: 300, Seed: 11}},
	{"textheavy_3000_labels", pdfgen.PlanSetOptions{Pages: 2, LabelsPerPage: 3000, FontSize: 5, SwitchFonts: true, Seed: 12}},
}

// BenchmarkExtract times open + extraction of every page; compare with
// BenchmarkPoppler on the same files: go test ./scan/pdftext -bench . -run '^$'
func BenchmarkExtract(b *testing.B) {
	for _, s := range benchSets {
		path := writeTemp(b, s.name+".pdf", pdfgen.PlanSet(s.opts))
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			words := 0
			for b.Loop() {
				doc, err := Open(context.Background(), path)
				if err != nil {
					b.Fatal(err)
				}
				words = 0
				for p := range doc.Pages(context.Background()) {
					if p.Err != nil {
						b.Fatal(p.Err)
					}
					words += len(p.Words)
				}
				doc.Close()
			}
			b.ReportMetric(float64(words)/float64(s.opts.Pages), "words/page")
		})
	}
}

// BenchmarkPoppler runs `pdftotext -bbox` on the same generated files.
func BenchmarkPoppler(b *testing.B) {
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		b.Skip("pdftotext not installed")
	}
	for _, s := range benchSets {
		path := writeTemp(b, s.name+".pdf", pdfgen.PlanSet(s.opts))
		b.Run(s.name, func(b *testing.B) {
			for b.Loop() {
				if err := exec.Command(bin, "-bbox", path, "/dev/null").Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
