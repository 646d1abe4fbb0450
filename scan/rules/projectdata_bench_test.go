package rules

import (
	"context"
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
	c, err := Classify(context.Background(), PlanSet{Files: []File{{ID: "bench", Pages: f.TextPages()}}})
	if err != nil {
		b.Fatal(err)
	}
	for _, pv := range c.pages {
		if pv.Readable {
			pv.Layout()
		}
	}
	for b.Loop() {
		readProjectData(c.pages)
	}
}
