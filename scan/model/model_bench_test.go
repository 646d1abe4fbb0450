package model_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"planreview/scan/layout"
	"planreview/scan/model"
	"planreview/scan/pdftext"
	"planreview/scan/sheets"
)

// BenchmarkBuildCorpus times the document model on the sets of the speed
// target beside their extraction (same run): extraction alone, the set
// reading alone (sheets.ReadSet) and the whole model (model.Build), which
// is what `inspect --sheets` and the review read.
func BenchmarkBuildCorpus(b *testing.B) {
	for _, name := range []string{"ca_calgary_sample_dp_bp_house_26p.pdf", "us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh.pdf"} {
		path := filepath.Join(corpusDir, name)
		if _, err := os.Stat(path); err != nil {
			b.Skip("corpus folder absent")
		}
		var src model.Source
		b.Run("extract/"+name, func(b *testing.B) {
			for b.Loop() {
				src = extract(b, path)
			}
		})
		b.Run("readset/"+name, func(b *testing.B) {
			ps := make([]*pdftext.Page, len(src.Pages))
			for i := range src.Pages {
				ps[i] = &src.Pages[i]
			}
			for b.Loop() {
				sheets.ReadSet(ps)
			}
		})
		// As the review builds it: every page's layout analysed by the
		// scan right after extraction, before the model is read.
		b.Run("build-scanned/"+name, func(b *testing.B) {
			scanned := laidOut(src)
			for b.Loop() {
				if _, err := model.Build(context.Background(), []model.Source{scanned}); err != nil {
					b.Fatal(err)
				}
			}
		})
		// What the checks ask of every sheet (Set.ReadRegions), on a model
		// built afresh, untimed, for each round: the readings are kept.
		b.Run("regions/"+name, func(b *testing.B) {
			scanned := laidOut(src)
			for b.Loop() {
				b.StopTimer()
				set, err := model.Build(context.Background(), []model.Source{scanned})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				set.ReadRegions()
			}
		})
		b.Run("build/"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := model.Build(context.Background(), []model.Source{src}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// laidOut is src with every page's layout analysed, as the scan leaves it.
func laidOut(src model.Source) model.Source {
	src.Layouts = make([]*layout.Page, len(src.Pages))
	for i := range src.Pages {
		src.Layouts[i] = layout.Analyze(&src.Pages[i])
	}
	return src
}

func extract(b *testing.B, path string) model.Source {
	ctx := context.Background()
	doc, err := pdftext.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer doc.Close()
	src := model.Source{ID: path, Pages: make([]pdftext.Page, doc.NumPages())}
	for i := range src.Pages {
		p, err := doc.Page(ctx, i+1)
		if err != nil {
			b.Fatal(err)
		}
		src.Pages[i] = *p
	}
	return src
}
