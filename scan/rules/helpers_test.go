package rules

import (
	"context"
	"strings"
	"testing"

	"planreview/scan/pdftext"
)

const testW, testH = 2592.0, 1728.0

// textPage builds a page from lines of text, the way an extractor would
// report them: one line per string, words left to right, plus the sheet
// number large in the bottom-right title block (when sheetNumber is set)
// with a date and a scale next to it.
func textPage(number int, sheetNumber string, lines ...string) pdftext.Page {
	p := pdftext.Page{Number: number, Width: testW, Height: testH, Readable: true}
	add := func(text string, left, top, size float64) {
		x := left
		for _, w := range strings.Fields(text) {
			width := float64(len(w)) * size * 0.55
			r := pdftext.Rect{x, testH - top - size, x + width, testH - top}
			p.Words = append(p.Words, pdftext.Word{Text: w, Norm: w, Rect: r, FontSize: size,
				BBox: pdftext.BBox{Left: x / testW, Top: top / testH, Width: width / testW, Height: size / testH}})
			x += width + size*0.3
		}
	}
	for i, l := range lines {
		add(l, 100, 100+float64(i)*30, 14)
	}
	if sheetNumber != "" {
		add("SHEET TITLE", testW-330, testH-330, 8)
		add("TEST SHEET "+sheetNumber, testW-330, testH-316, 18)
		add("DATE: 2026-03-02", testW-330, testH-262, 10)
		add(`SCALE: 1/4" = 1'-0"`, testW-330, testH-244, 10)
		add("SHEET", testW-330, testH-200, 8)
		add(sheetNumber, testW-330, testH-186, 40)
	}
	return p
}

// codePage is a cover sheet whose code analysis states everything, for the
// given occupancy ("residential" or "commercial").
func codePage(occupancy string, extra ...string) pdftext.Page {
	lines := []string{"CODE ANALYSIS"}
	if occupancy == OccupancyResidential {
		lines = append(lines, "APPLICABLE CODES: 2021 IRC", "OCCUPANCY: R-3", "CONSTRUCTION TYPE: V-B", "SPRINKLERED: NO")
	} else {
		lines = append(lines, "APPLICABLE CODES: 2021 IBC", "OCCUPANCY GROUP: B", "CONSTRUCTION TYPE: II-B", "SPRINKLERED: YES")
	}
	return textPage(1, "G-001", append(lines, extra...)...)
}

func loadAll(t *testing.T) *Engine {
	t.Helper()
	e, err := Load(Packs(), []string{"ibc-2021", "irc-2021"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func reviewPages(t *testing.T, e *Engine, pages ...pdftext.Page) []Finding {
	t.Helper()
	fs, err := e.Review(context.Background(), PlanSet{Files: []File{{ID: "file_1", Pages: pages}}})
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func byRule(fs []Finding, id string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.RuleID == id {
			out = append(out, f)
		}
	}
	return out
}
