package annotate

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// benchSet is the performance case: a 100-sheet set (24×36 in
// sheets) with 500 findings; padding sets the bytes of linework per sheet.
func benchSet(tb testing.TB, padding int) (path string, size int64, marks []Mark) {
	tb.Helper()
	d := planSet(100, [4]float64{0, 0, 2592, 1728}, nil, 0)
	for i := range d.pages {
		d.pages[i].padding = padding
		d.pages[i].rotate = []int{0, 90, 180, 270}[i%4]
	}
	in := d.build(tb)
	path = filepath.Join(tb.TempDir(), "set.pdf")
	if err := os.WriteFile(path, in, 0o644); err != nil {
		tb.Fatal(err)
	}
	marks = marksFor(d)
	if len(marks) != 500 {
		tb.Fatalf("%d marks, want 500", len(marks))
	}
	return path, int64(len(in)), marks
}

func renderOnce(tb testing.TB, path string, marks []Mark) {
	src, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	if err := Render(context.Background(), src, io.Discard, marks, testSummary); err != nil {
		tb.Fatal(err)
	}
}

func copyOnce(tb testing.TB, path string) {
	src, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	if _, err := io.Copy(io.Discard, src); err != nil {
		tb.Fatal(err)
	}
}

// memoryUse is what one render cost in memory beyond the heap before it.
type memoryUse struct {
	peakLive  uint64 // highest live heap seen, above the starting live heap
	allocated uint64 // everything allocated, garbage included
}

// measureMemory runs f with the collector set to run often (GOGC=10), so
// that the live heap it samples every half millisecond tracks what f really
// holds rather than garbage awaiting collection.
func measureMemory(f func()) memoryUse {
	old := debug.SetGCPercent(10)
	defer debug.SetGCPercent(old)
	runtime.GC()
	samples := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/heap/allocs:bytes"},
	}
	metrics.Read(samples)
	baseLive, baseAllocs := samples[0].Value.Uint64(), samples[1].Value.Uint64()
	var peak uint64
	sample := func() {
		metrics.Read(samples)
		peak = max(peak, samples[0].Value.Uint64())
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(500 * time.Microsecond)
		defer t.Stop()
		for {
			sample()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	sample()
	use := memoryUse{allocated: samples[1].Value.Uint64() - baseAllocs}
	if peak > baseLive {
		use.peakLive = peak - baseLive
	}
	return use
}

// benchSizes are kilobytes of linework per sheet: 8, 25 and 50 MB sets.
var benchSizes = []int{80, 250, 500}

func BenchmarkRender100Pages500Marks(b *testing.B) {
	for _, kb := range benchSizes {
		b.Run(fmt.Sprintf("%dkB-per-page", kb), func(b *testing.B) {
			path, size, marks := benchSet(b, kb*1000)
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				renderOnce(b, path, marks)
			}
			b.StopTimer()
			use := measureMemory(func() { renderOnce(b, path, marks) })
			b.ReportMetric(float64(use.peakLive)/float64(size), "peak-live/filesize")
			b.ReportMetric(float64(size)/1e6, "file-MB")
		})
	}
}

func BenchmarkPlainCopy100Pages(b *testing.B) {
	for _, kb := range benchSizes {
		b.Run(fmt.Sprintf("%dkB-per-page", kb), func(b *testing.B) {
			path, size, _ := benchSet(b, kb*1000)
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				copyOnce(b, path)
			}
		})
	}
}

// BenchmarkRenderCorpus500Marks marks the largest corpus set (8 A1 sheets,
// 3.9 MB, hybrid scan and vector) with 500 findings.
func BenchmarkRenderCorpus500Marks(b *testing.B) {
	path := filepath.Join(corpusDir, "za_crayfish_inn_architectural_plans.pdf")
	in, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("corpus not available: %v", err)
	}
	pctx, err := readPDF(context.Background(), bytes.NewReader(in))
	if err != nil {
		b.Fatal(err)
	}
	pages, _, err := collectPages(pctx.XRefTable)
	if err != nil {
		b.Fatal(err)
	}
	var marks []Mark
	for i := range 500 {
		p := pages[i%len(pages)]
		c := p.geom.crop
		x := c.llx + float64(i%20)*c.width()/21 + 10
		y := c.lly + float64(i/20%25)*c.height()/26 + 10
		marks = append(marks, Mark{Page: i%len(pages) + 1, Rect: [4]float64{x, y, x + 40, y + 9}, Number: i + 1,
			FindingID: fmt.Sprintf("fnd_%d", i), Severity: severityCycle[i%5], Title: "Finding", Rationale: "Because."})
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		renderOnce(b, path, marks)
	}
	b.StopTimer()
	use := measureMemory(func() { renderOnce(b, path, marks) })
	b.ReportMetric(float64(use.peakLive)/float64(len(in)), "peak-live/filesize")
}

// TestPerformanceBudget holds the budget: 500 findings on a 100-page
// set in under 2 s and under 2× the file size in extra memory. It takes the
// median of five runs because the build machines are shared.
func TestPerformanceBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("performance budget skipped in -short mode")
	}
	path, size, marks := benchSet(t, 80_000)
	const runs = 5
	durations := make([]time.Duration, runs)
	copies := make([]time.Duration, runs)
	peaks := make([]uint64, runs)
	allocs := make([]uint64, runs)
	for i := range runs {
		start := time.Now()
		copyOnce(t, path)
		copies[i] = time.Since(start)
		start = time.Now()
		renderOnce(t, path, marks)
		durations[i] = time.Since(start)
		use := measureMemory(func() { renderOnce(t, path, marks) })
		peaks[i], allocs[i] = use.peakLive, use.allocated
	}
	d, p := median(durations), median(peaks)
	ratio := float64(p) / float64(size)
	t.Logf("file %.1f MB, 100 pages, 500 marks: render median %v (plain copy %v), peak live heap %.1f MB = %.2f× file size, allocated %.1f MB = %.2f×",
		float64(size)/1e6, d, median(copies), float64(p)/1e6, ratio, float64(median(allocs))/1e6, float64(median(allocs))/float64(size))
	if d > 2*time.Second {
		t.Errorf("median %v exceeds 2 s", d)
	}
	if ratio > 2 {
		t.Errorf("peak extra heap %.2f× the file size exceeds 2×", ratio)
	}
}

func median[T int64 | uint64 | time.Duration](v []T) T {
	s := append([]T(nil), v...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}
