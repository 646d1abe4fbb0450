package scan_test

import (
	"context"
	"testing"
	"time"

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
