package scan_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"planreview/scan"
	"planreview/store"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
	"planreview/scan/rules"
	"planreview/scan/sheets"
)

// BenchmarkReviewStagesVsExtraction splits a 100-page review into what
// issue 10 compares: extraction plus layout (pdftext, layout.Analyze of
// every page) against the review stages (the set model, the engine's
// classification and the checks). It reports each part per scan and
// review/(extract+layout), in wall time and in the process's CPU time
// (steadier on a shared machine); the figures go in docs/benchmarks.md.
func BenchmarkReviewStagesVsExtraction(b *testing.B) {
	for _, set := range []struct {
		name string
		path func(*testing.B) string
	}{
		{"bench-300labels", func(b *testing.B) string { p, _ := benchFile(b, 100); return p }},
		{"realistic-residential", func(b *testing.B) string { return realisticFile(b, 100) }},
	} {
		b.Run(set.name, func(b *testing.B) {
			path := set.path(b)
			eng, err := rules.Load(rules.Packs(), []string{"ibc-2021", "irc-2021"})
			if err != nil {
				b.Fatal(err)
			}
			var extract, lay, model, classify, review time.Duration
			// The same stages in CPU time of the process (GC included).
			var extractCPU, layCPU, classifyCPU, reviewCPU time.Duration
			ctx := context.Background()
			b.ResetTimer()
			for b.Loop() {
				t0, c0 := time.Now(), processCPU()
				doc, err := pdftext.Open(ctx, path)
				if err != nil {
					b.Fatal(err)
				}
				var pages []pdftext.Page
				for p := range doc.Pages(ctx) {
					pages = append(pages, *p)
				}
				doc.Close()
				t1, c1 := time.Now(), processCPU()
				layouts := make([]*layout.Page, len(pages))
				for i := range pages {
					layouts[i] = layout.Analyze(&pages[i])
				}
				t2, c2 := time.Now(), processCPU()
				ptrs := make([]*pdftext.Page, len(pages))
				for i := range pages {
					ptrs[i] = &pages[i]
				}
				sheets.ReadSet(ptrs)
				t3, c3 := time.Now(), processCPU()
				c, err := rules.Classify(ctx, rules.PlanSet{Files: []rules.File{{ID: "file_bench", Pages: pages, Layouts: layouts}}})
				if err != nil {
					b.Fatal(err)
				}
				t4, c4 := time.Now(), processCPU()
				if _, err := eng.ReviewClassified(ctx, c); err != nil {
					b.Fatal(err)
				}
				t5, c5 := time.Now(), processCPU()
				extractCPU += c1 - c0
				layCPU += c2 - c1
				classifyCPU += c4 - c3
				reviewCPU += c5 - c4
				extract += t1.Sub(t0)
				lay += t2.Sub(t1)
				model += t3.Sub(t2)
				classify += t4.Sub(t3) // includes the set model again, as the scan runs it
				review += t5.Sub(t4)
			}
			n := float64(b.N)
			b.ReportMetric(float64(extract.Nanoseconds())/n, "extract-ns/op")
			b.ReportMetric(float64(lay.Nanoseconds())/n, "layout-ns/op")
			b.ReportMetric(float64(model.Nanoseconds())/n, "setmodel-ns/op")
			b.ReportMetric(float64(classify.Nanoseconds())/n, "classify-ns/op")
			b.ReportMetric(float64(review.Nanoseconds())/n, "review-ns/op")
			b.ReportMetric(float64((classify+review).Nanoseconds())/float64((extract+lay).Nanoseconds()), "review/(extract+layout)")
			b.ReportMetric(float64((classify-model+review).Nanoseconds())/float64((extract+lay+model).Nanoseconds()), "checks/(extract+layout+model)")
			if extractCPU+layCPU > 0 {
				b.ReportMetric(float64((classifyCPU+reviewCPU).Nanoseconds())/float64((extractCPU+layCPU).Nanoseconds()), "cpu-review/(extract+layout)")
				b.ReportMetric(float64((classifyCPU+reviewCPU).Nanoseconds())/n, "cpu-review-ns/op")
				b.ReportMetric(float64((extractCPU+layCPU).Nanoseconds())/n, "cpu-extract+layout-ns/op")
			}
		})
	}
}

// cpuStageClock is a scan.Progress that stamps each stage change with the
// wall clock and the process's CPU time.
type cpuStageClock struct {
	names []string
	at    []time.Time
	cpu   []time.Duration
}

func (c *cpuStageClock) Stage(name string) {
	c.names = append(c.names, name)
	c.at = append(c.at, time.Now())
	c.cpu = append(c.cpu, processCPU())
}

func (c *cpuStageClock) Pages(done, total int) {}

// add adds each stage's wall and CPU time to wall and cpu; the last stage
// ends at end / endCPU.
func (c *cpuStageClock) add(wall, cpu map[string]time.Duration, end time.Time, endCPU time.Duration) {
	for i, name := range c.names {
		stop, stopCPU := end, endCPU
		if i+1 < len(c.at) {
			stop, stopCPU = c.at[i+1], c.cpu[i+1]
		}
		wall[name] += stop.Sub(c.at[i])
		cpu[name] += stopCPU - c.cpu[i]
	}
}

// BenchmarkReviewCorpus runs the whole pipeline (Pipeline.Review) on the
// corpus sets of the speed target, as the server runs it ("serve": the
// chat index, and pages read one after another under the heap limit) and
// as the `review` command does ("review": no chat index, pages read on
// every core), and reports each stage's wall and CPU time per scan, read
// through scan.Progress: preparing and extracting (opening, extraction and
// layout), classifying, reviewing and indexing, and the stages' share of
// extraction plus layout, in wall and in CPU time. Where extraction runs on
// every core its wall time is below its CPU time, and the wall share is
// the larger; in serve's pipeline it is the other way round.
// bench/review.sh compares the whole command with pdftotext -bbox; this is
// its split.
func BenchmarkReviewCorpus(b *testing.B) {
	corpus := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		corpus = "/work/shared/corpus"
	}
	for _, name := range []string{"ca_calgary_sample_dp_bp_house_26p", "us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh", "us_va_stcloud_bldg28_renovation_cds"} {
		path := filepath.Join(corpus, name+".pdf")
		if _, err := os.Stat(path); err != nil {
			b.Skipf("corpus set missing: %v", err)
		}
		for _, run := range []struct {
			name string
			p    *scan.Pipeline
		}{{"serve", corpusPipeline(b, true)}, {"review", corpusPipeline(b, false)}} {
			b.Run(name[:strings.IndexByte(name[3:], '_')+3]+"/"+run.name, func(b *testing.B) {
				p := run.p
				wall, cpu := map[string]time.Duration{}, map[string]time.Duration{}
				ctx := context.Background()
				for b.Loop() {
					clock := &cpuStageClock{}
					if _, err := p.Review(ctx, []scan.Input{{FileID: "file_bench", Name: name, Path: path}}, clock); err != nil {
						b.Fatal(err)
					}
					clock.add(wall, cpu, time.Now(), processCPU())
				}
				n := float64(b.N)
				for _, s := range []string{store.StagePreparing, store.StageExtracting, store.StageClassifying, store.StageReviewing, store.StageIndexing} {
					b.ReportMetric(float64(wall[s].Microseconds())/1000/n, s+"-ms/op")
					b.ReportMetric(float64(cpu[s].Microseconds())/1000/n, s+"-cpu-ms/op")
				}
				share := func(m map[string]time.Duration) float64 {
					after := m[store.StageClassifying] + m[store.StageReviewing] + m[store.StageIndexing]
					return float64(after) / float64(m[store.StagePreparing]+m[store.StageExtracting])
				}
				b.ReportMetric(share(wall), "review/(extract+layout)")
				b.ReportMetric(share(cpu), "cpu-review/(extract+layout)")
			})
		}
	}
}

// corpusPipeline is a pipeline set up as `serve` sets up its own with the
// default configuration (serve: the chat index, and a heap limit,
// scan.memory_limit_mb's 384 MiB, under which pages are read one after
// another), or as the review command does (no chat index, no limit).
func corpusPipeline(b *testing.B, serve bool) *scan.Pipeline {
	b.Helper()
	p, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		b.Fatal(err)
	}
	if serve {
		p.HeapLimit = 384 << 20
	} else {
		p.NoChatIndex = true
	}
	return p
}
