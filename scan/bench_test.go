package scan_test

// Benchmarks of the whole review pipeline (bench/scan.sh runs them; the
// figures are in docs/bench-scan.md). Nothing here asserts a speed: the
// machines these run on are shared. Every benchmark only runs with -bench.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"planreview/scan"
	"planreview/scan/annotate"
	"planreview/scan/plangen"
	"planreview/store"
)

// stageClock is a scan.Progress that stamps each stage change.
type stageClock struct {
	names []string
	at    []time.Time
}

func (c *stageClock) Stage(name string) {
	c.names = append(c.names, name)
	c.at = append(c.at, time.Now())
}

func (c *stageClock) Pages(done, total int) {}

// durations returns each stage's time; the last stage ends at end.
func (c *stageClock) durations(end time.Time) map[string]time.Duration {
	out := map[string]time.Duration{}
	for i, name := range c.names {
		stop := end
		if i+1 < len(c.at) {
			stop = c.at[i+1]
		}
		out[name] += stop.Sub(c.at[i])
	}
	return out
}

var (
	pipelineOnce sync.Once
	pipeline     *scan.Pipeline
	pipelineErr  error
)

func benchPipeline(b *testing.B) *scan.Pipeline {
	b.Helper()
	pipelineOnce.Do(func() {
		pipeline, pipelineErr = scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	})
	if pipelineErr != nil {
		b.Fatal(pipelineErr)
	}
	return pipeline
}

// benchFile writes a plangen.Bench set (300 labels per page) to a temp file.
func benchFile(b *testing.B, pages int) (string, *plangen.File) {
	b.Helper()
	f, err := plangen.Bench(plangen.BenchOptions{Pages: pages, LabelsPerPage: 300, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "bench.pdf")
	if err := os.WriteFile(path, f.PDF, 0o644); err != nil {
		b.Fatal(err)
	}
	return path, f
}

// realisticFile pads plangen's residential set (5 sheets, planted
// violations, 300 filler labels per sheet) to pages by merging the sets of
// successive seeds; plangen.Options has no page count.
func realisticFile(b *testing.B, pages int) string {
	b.Helper()
	var parts []io.ReadSeeker
	for seed, n := int64(7), 0; n < pages; seed++ {
		set, err := plangen.Generate(plangen.Options{Variant: plangen.VariantResidential, FillerPerPage: 300, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range set.Files {
			parts = append(parts, bytes.NewReader(f.PDF))
			n += len(f.Pages)
		}
	}
	var out bytes.Buffer
	if err := api.MergeRaw(parts, &out, false, model.NewDefaultConfiguration()); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "realistic.pdf")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkPipeline100Pages runs the pipeline as the runner does (Review,
// then Annotate into a file) on 100-page sets and reports each stage's time
// per scan, measured through scan.Progress, and the review stages' share of
// extraction. The poppler case runs `pdftotext -bbox` on the same file: the
// reference for extraction.
func BenchmarkPipeline100Pages(b *testing.B) {
	sets := []struct {
		name string
		path func(*testing.B) string
	}{
		{"bench-300labels", func(b *testing.B) string { p, _ := benchFile(b, 100); return p }},
		{"realistic-residential", func(b *testing.B) string { return realisticFile(b, 100) }},
	}
	for _, set := range sets {
		b.Run(set.name, func(b *testing.B) {
			p := benchPipeline(b)
			path := set.path(b)
			dst := filepath.Join(b.TempDir(), "marked-up.pdf")
			in := []scan.Input{{FileID: "file_bench", Name: "set.pdf", Path: path}}
			total := map[string]time.Duration{}
			findings := 0
			b.ResetTimer()
			for b.Loop() {
				clock := &stageClock{}
				res, err := p.Review(context.Background(), in, clock)
				if err != nil {
					b.Fatal(err)
				}
				clock.Stage(store.StageAnnotating)
				for _, f := range res.Files {
					if err := p.Annotate(context.Background(), res, f, dst, annotate.Summary{JobID: "job_bench", VersionID: "ver_bench"}); err != nil {
						b.Fatal(err)
					}
				}
				for name, d := range clock.durations(time.Now()) {
					total[name] += d
				}
				findings = len(res.Findings)
			}
			n := float64(b.N)
			for _, name := range store.WorkStages {
				b.ReportMetric(float64(total[name].Nanoseconds())/n, name+"-ns/op")
			}
			if e := total[store.StageExtracting]; e > 0 {
				b.ReportMetric(float64(total[store.StageClassifying]+total[store.StageReviewing])/float64(e), "review/extract")
			}
			b.ReportMetric(float64(findings), "findings")
			if in, out := fileSize(b, path), fileSize(b, dst); in > 0 {
				b.ReportMetric(float64(out-in), "marked-up-added-bytes")
			}
		})
		b.Run(set.name+"/poppler-pdftotext-bbox", func(b *testing.B) {
			tool, err := exec.LookPath("pdftotext")
			if err != nil {
				b.Skip("pdftotext (poppler-utils) is not installed")
			}
			path := set.path(b)
			b.ResetTimer()
			for b.Loop() {
				if out, err := exec.Command(tool, "-bbox", path, os.DevNull).CombinedOutput(); err != nil {
					b.Fatalf("pdftotext: %v\n%s", err, out)
				}
			}
		})
	}
}

func fileSize(b *testing.B, path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}

// syntheticFindings spreads n findings over the file's pages, each anchored
// on a label of the page (ground truth boxes), severities in rotation.
func syntheticFindings(f *plangen.File, fileID string, n int) []store.Finding {
	severities := []string{"critical", "high", "medium", "low", "info"}
	out := make([]store.Finding, n)
	for i := range out {
		page := &f.Pages[i%len(f.Pages)]
		label := page.Labels[(i/len(f.Pages)*7)%len(page.Labels)]
		r := label.Rect
		out[i] = store.Finding{
			ID: fmt.Sprintf("fnd_bench%05d", i), Number: i + 1, RuleID: "bench.rule",
			Title: "Synthetic finding " + fmt.Sprint(i+1), Severity: severities[i%len(severities)],
			Rationale:     "The value shown does not meet the governing requirement for this element.",
			GoverningRefs: "IRC 2021 R311.7.5.1", FileID: fileID,
			Sheet: store.SheetRef{Page: page.Number, SheetNumber: page.SheetNumber, SheetTitle: page.SheetTitle},
			Anchors: []store.Anchor{{Page: page.Number, Text: label.Text, Rect: [4]float64(r),
				BBox: store.BBox{Left: label.BBox.Left, Top: label.BBox.Top, Width: label.BBox.Width, Height: label.BBox.Height}}},
		}
	}
	return out
}

// heapPeak runs f and samples the heap every half millisecond; it returns
// the highest heap occupancy (live and not yet collected) and the highest
// live heap after a collection, both above what was live before f.
func heapPeak(f func()) (peakHeap, peakLive uint64) {
	runtime.GC()
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(samples)
	base, baseLive := samples[0].Value.Uint64(), samples[1].Value.Uint64()
	stop := make(chan struct{})
	done := make(chan struct{})
	var top, topLive uint64
	go func() {
		defer close(done)
		t := time.NewTicker(500 * time.Microsecond)
		defer t.Stop()
		for {
			metrics.Read(samples)
			top = max(top, samples[0].Value.Uint64())
			topLive = max(topLive, samples[1].Value.Uint64())
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	sub := func(a, b uint64) uint64 {
		if a < b {
			return 0
		}
		return a - b
	}
	return sub(top, base), sub(topLive, baseLive)
}

// BenchmarkAnnotate500Findings is the annotating stage inside the pipeline:
// (*scan.Pipeline).Annotate with 500 findings spread over a 100-page
// plangen.Bench file (seed 7, 300 labels a page), written to a file as the
// runner does. It reports the heap peak above the heap before the call
// (sampled every 0.5 ms), at the default GOGC (what the process reaches) and
// at GOGC=10 (close to what the stage really holds), both also as a multiple
// of the file size. SCAN_BENCH_BULK_FILE may name the same set with bulk
// added (bench/scanbench gen -kind bulk -pages 100 -seed 7): the same labels,
// so the same findings, on a bigger file.
func BenchmarkAnnotate500Findings(b *testing.B) {
	path, f := benchFile(b, 100)
	b.Run("bench100", func(b *testing.B) { annotateBench(b, path, f) })
	if bulk := os.Getenv("SCAN_BENCH_BULK_FILE"); bulk != "" {
		b.Run("bench100-bulk", func(b *testing.B) { annotateBench(b, bulk, f) })
	}
}

func annotateBench(b *testing.B, path string, f *plangen.File) {
	p := benchPipeline(b)
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	size := float64(info.Size())
	const fileID = "file_bench"
	res := scan.Result{
		Files:     []scan.Reviewed{{Input: scan.Input{FileID: fileID, Name: "set.pdf", Path: path}}},
		Findings:  syntheticFindings(f, fileID, 500),
		CodeBasis: scan.CodeBasis{Lines: []string{"IBC 2021", "IRC 2021"}},
	}
	dst := filepath.Join(b.TempDir(), "marked-up.pdf")
	annotateOnce := func() {
		if err := p.Annotate(context.Background(), res, res.Files[0], dst, annotate.Summary{JobID: "job_bench", VersionID: "ver_bench"}); err != nil {
			b.Fatal(err)
		}
	}
	var peakHeap, peakLive uint64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h, _ := heapPeak(annotateOnce)
		peakHeap = max(peakHeap, h)
	}
	b.StopTimer()
	old := debug.SetGCPercent(10)
	_, peakLive = heapPeak(annotateOnce)
	_, l2 := heapPeak(annotateOnce)
	debug.SetGCPercent(old)
	peakLive = max(peakLive, l2)
	b.ReportMetric(size/1e6, "file-MB")
	b.ReportMetric(float64(peakHeap)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(peakHeap)/size, "peak-heap/filesize")
	b.ReportMetric(float64(peakLive)/1e6, "peak-live-gogc10-MB")
	b.ReportMetric(float64(peakLive)/size, "peak-live/filesize")
}
