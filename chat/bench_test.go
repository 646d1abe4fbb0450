package chat_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"planreview/chat"
	"planreview/scan"
	"planreview/scan/layout"
	"planreview/scan/plangen"
	"planreview/scan/sheets"
)

// benchSets are the 100-page benchmark set and the corpus's real sets.
func benchSets(b *testing.B) map[string]string {
	sets := map[string]string{}
	f, err := plangen.Bench(plangen.BenchOptions{Pages: 100, LabelsPerPage: 300, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "bench100.pdf")
	if err := os.WriteFile(path, f.PDF, 0o644); err != nil {
		b.Fatal(err)
	}
	sets["bench-100p"] = path
	for _, name := range []string{"ca_calgary_sample_dp_bp_house_26p.pdf", "us_va_stcloud_bldg28_renovation_cds.pdf", "za_crayfish_inn_architectural_plans.pdf"} {
		p := filepath.Join("..", "..", "shared", "corpus", name)
		if _, err := os.Stat(p); err == nil {
			sets[name] = p
		}
	}
	return sets
}

// BenchmarkIndexBuild times the chat index's parts on a reviewed set,
// against the set's extraction time, and reports the stored size against
// the PDF's: layout (layout.Analyze, the document model the index reads),
// fields (title-block captions), build (passages, pairs, rows, BM25
// postings) and encode (the stored form).
func BenchmarkIndexBuild(b *testing.B) {
	for name, path := range benchSets(b) {
		b.Run(name, func(b *testing.B) {
			p, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
			if err != nil {
				b.Fatal(err)
			}
			clock := &stageClock{}
			res, err := p.Review(context.Background(), []scan.Input{{FileID: "file_b", Name: name, Path: path}}, clock)
			if err != nil {
				b.Fatal(err)
			}
			extract := clock.extract
			var tLayout, tFields, tBuild, tEncode time.Duration
			var size int
			b.ResetTimer()
			for b.Loop() {
				var pages []chat.SourcePage
				t0 := time.Now()
				var layouts []*layout.Page
				for _, f := range res.Files {
					for i := range f.Pages {
						layouts = append(layouts, layout.Analyze(&f.Pages[i]))
					}
				}
				t1 := time.Now()
				for _, f := range res.Files {
					for i := range f.Pages {
						sp := chat.SourcePage{FileID: f.FileID, Text: &f.Pages[i], Fields: sheets.ReadFields(&f.Pages[i]), Layout: layouts[len(pages)]}
						if i < len(f.Sheets) {
							sp.SheetNumber, sp.SheetType, sp.SheetTitle = f.Sheets[i].Number, f.Sheets[i].Type, f.Sheets[i].Title
						}
						pages = append(pages, sp)
					}
				}
				t2 := time.Now()
				ix := chat.Build(pages, res.Findings, nil)
				t3 := time.Now()
				raw, err := ix.Encode()
				if err != nil {
					b.Fatal(err)
				}
				t4 := time.Now()
				tLayout += t1.Sub(t0)
				tFields += t2.Sub(t1)
				tBuild += t3.Sub(t2)
				tEncode += t4.Sub(t3)
				size = len(raw)
			}
			n := float64(b.N)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
			b.ReportMetric(float64(extract.Microseconds())/1000, "extract-ms")
			b.ReportMetric(ms(tLayout), "layout-ms")
			b.ReportMetric(ms(tFields), "fields-ms")
			b.ReportMetric(ms(tBuild), "build-ms")
			b.ReportMetric(ms(tEncode), "encode-ms")
			b.ReportMetric((ms(tBuild)+ms(tEncode))/(float64(extract.Microseconds())/1000), "index/extract")
			b.ReportMetric((ms(tLayout)+ms(tFields)+ms(tBuild)+ms(tEncode))/(float64(extract.Microseconds())/1000), "all/extract")
			st, _ := os.Stat(path)
			b.ReportMetric(float64(size), "index-bytes")
			b.ReportMetric(float64(size)/float64(st.Size()), "index/pdf")
		})
	}
}

// stageClock measures the extracting stage of a review.
type stageClock struct {
	start   time.Time
	extract time.Duration
}

func (c *stageClock) Stage(name string) {
	if name == "extracting" {
		c.start = time.Now()
	} else if !c.start.IsZero() && c.extract == 0 {
		c.extract = time.Since(c.start)
	}
}
func (c *stageClock) Pages(int, int) {}

// BenchmarkAnswer is the built-in answerer alone on a decoded index, the
// questions of the chat benchmark in rotation, 16 goroutines.
func BenchmarkAnswer(b *testing.B) {
	questions := []string{"What is the stair riser height on the section?", "Which sheets show the door schedule?",
		"What are the high findings?", "What is the capital of France?", "What is the guard height?"}
	for name, path := range benchSets(b) {
		b.Run(name, func(b *testing.B) {
			p, _ := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
			res, err := p.Review(context.Background(), []scan.Input{{FileID: "file_b", Name: name, Path: path}}, quiet{})
			if err != nil {
				b.Fatal(err)
			}
			ix, err := chat.Decode(res.ChatIndex)
			if err != nil {
				b.Fatal(err)
			}
			b.SetParallelism(8)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					ix.Answer(questions[i%len(questions)], nil)
					i++
				}
			})
		})
	}
}
