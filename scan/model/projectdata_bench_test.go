package model

import (
	"context"
	"sync"
	"testing"

	"planreview/scan/plangen"
)

// BenchmarkProjectDataTextHeavy reads the project data (facts and area
// lists) of ten text-heavy pages whose layout is already analysed: the
// cost the project-data checks add to a review.
func BenchmarkProjectDataTextHeavy(b *testing.B) {
	f, err := plangen.Bench(plangen.BenchOptions{Pages: 10, TextHeavy: true, SkipPDF: true})
	if err != nil {
		b.Fatal(err)
	}
	set, err := Build(context.Background(), []Source{{ID: "bench", Pages: f.TextPages()}})
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range set.Sheets {
		if s.Readable {
			s.Layout()
		}
	}
	for b.Loop() {
		// Each round reads afresh, with a memo of its own.
		set.memoOnce, set.memo = sync.Once{}, nil
		for _, s := range set.Sheets {
			s.project = sheetProjectData{}
			s.ProjectFacts()
		}
	}
}
