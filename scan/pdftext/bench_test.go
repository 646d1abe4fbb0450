package pdftext

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"planreview/internal/pdfgen"
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

// BenchmarkExtractCorpus times open + extraction of the corpus sets of the
// speed target, one page after another and on every core
// (PagesConcurrently), reporting the process's CPU time per run beside the
// wall time: with 2 cores, parallel extraction shortens the wall time and
// must not cost CPU.
func BenchmarkExtractCorpus(b *testing.B) {
	for _, name := range []string{"ca_calgary_sample_dp_bp_house_26p", "us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh", "us_va_stcloud_bldg28_renovation_cds"} {
		path := filepath.Join(corpusDir, name+".pdf")
		if _, err := os.Stat(path); err != nil {
			b.Skipf("corpus file %s not available", name)
		}
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%s/workers=%d", name[:strings.IndexByte(name[3:], '_')+3], workers), func(b *testing.B) {
				var cpu time.Duration
				for b.Loop() {
					c0 := processCPU()
					doc, err := Open(context.Background(), path)
					if err != nil {
						b.Fatal(err)
					}
					for p := range doc.PagesConcurrently(context.Background(), workers, nil) {
						if p.Err != nil {
							b.Fatal(p.Err)
						}
					}
					doc.Close()
					cpu += processCPU() - c0
				}
				b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// processCPU is the CPU time (user and system) the test process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkOpenCorpus times the open alone (cross-reference table,
// trailer, catalog and page tree) on the corpus sets of the speed target:
// the part of a fresh process's run spent on one core before the pages
// are read on all of them.
func BenchmarkOpenCorpus(b *testing.B) {
	for _, name := range []string{"ca_calgary_sample_dp_bp_house_26p", "us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh", "us_va_stcloud_bldg28_renovation_cds"} {
		path := filepath.Join(corpusDir, name+".pdf")
		if _, err := os.Stat(path); err != nil {
			b.Skipf("corpus file %s not available", name)
		}
		b.Run(name[:strings.IndexByte(name[3:], '_')+3], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				doc, err := Open(context.Background(), path)
				if err != nil {
					b.Fatal(err)
				}
				doc.Close()
			}
		})
	}
}
