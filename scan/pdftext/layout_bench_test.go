package pdftext_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"planreview/internal/pdfgen"
	"planreview/scan/layout"
	"planreview/scan/pdftext"
)

// BenchmarkLayout times, on the same generated files in one run,
// extraction alone, extraction plus layout.Analyze of every page, and
// poppler's `pdftotext -bbox` (the reference): the layout's targets are
// extraction plus layout ≤ 1.0× poppler and ≤ 1.5× extraction alone.
// go test ./scan/pdftext -run '^$' -bench Layout -benchtime 5x
func BenchmarkLayout(b *testing.B) {
	sets := []struct {
		name string
		opts pdfgen.PlanSetOptions
	}{
		{"archd_300_labels", pdfgen.PlanSetOptions{Pages: 10, LabelsPerPage: 300, Seed: 11}},
		{"textheavy_3000_labels", pdfgen.PlanSetOptions{Pages: 2, LabelsPerPage: 3000, FontSize: 5, SwitchFonts: true, Seed: 12}},
	}
	for _, s := range sets {
		path := filepath.Join(b.TempDir(), s.name+".pdf")
		if err := os.WriteFile(path, pdfgen.PlanSet(s.opts), 0o644); err != nil {
			b.Fatal(err)
		}
		for _, mode := range []string{"extract", "extract+layout"} {
			b.Run(s.name+"/"+mode, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					doc, err := pdftext.Open(context.Background(), path)
					if err != nil {
						b.Fatal(err)
					}
					for p := range doc.Pages(context.Background()) {
						if p.Err != nil {
							b.Fatal(p.Err)
						}
						if mode == "extract+layout" {
							layout.Analyze(p)
						}
					}
					doc.Close()
				}
			})
		}
		b.Run(s.name+"/poppler", func(b *testing.B) {
			bin, err := exec.LookPath("pdftotext")
			if err != nil {
				b.Skip("pdftotext not installed")
			}
			for b.Loop() {
				if err := exec.Command(bin, "-bbox", path, "/dev/null").Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAnalyzeOnly times layout.Analyze alone on pages extracted once.
func BenchmarkAnalyzeOnly(b *testing.B) {
	for _, s := range []struct {
		name string
		opts pdfgen.PlanSetOptions
	}{
		{"archd_300_labels", pdfgen.PlanSetOptions{Pages: 10, LabelsPerPage: 300, Seed: 11}},
		{"textheavy_3000_labels", pdfgen.PlanSetOptions{Pages: 2, LabelsPerPage: 3000, FontSize: 5, SwitchFonts: true, Seed: 12}},
	} {
		path := filepath.Join(b.TempDir(), s.name+".pdf")
		if err := os.WriteFile(path, pdfgen.PlanSet(s.opts), 0o644); err != nil {
			b.Fatal(err)
		}
		doc, err := pdftext.Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		var pages []*pdftext.Page
		for p := range doc.Pages(context.Background()) {
			pages = append(pages, p)
		}
		doc.Close()
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range pages {
					layout.Analyze(p)
				}
			}
		})
	}
}
