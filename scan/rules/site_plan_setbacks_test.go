package rules

import (
	"strings"
	"testing"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
	"planreview/scan/plangen"
)

// The rule's cases are the tests below (TestEveryRuleIsTested).
func init() { dedicatedTests = append(dedicatedTests, "completeness-site-plan-setbacks") }

// turnWords turns the words of a label to read bottom to top (a length
// written along a vertical lot line), as a CAD program prints them.
func turnWords(p *pdftext.Page, text string) {
	for i := range p.Words {
		w := &p.Words[i]
		if w.Text != text {
			continue
		}
		wpt, hpt := w.BBox.Width*p.Width, w.BBox.Height*p.Height
		w.BBox.Width, w.BBox.Height = hpt/p.Width, wpt/p.Height
		w.Angle = 90
	}
}

// degreeSigns writes the degree signs the generator cannot (it writes
// ASCII only, "^" in their place).
func degreeSigns(p *pdftext.Page) {
	for i := range p.Words {
		w := &p.Words[i]
		w.Text = strings.ReplaceAll(w.Text, "^", "°")
		w.Norm = strings.ReplaceAll(w.Norm, "^", "°")
	}
}

func TestSitePlanSetbacksPDF(t *testing.T) {
	plan := plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "APPLICABLE CODES: 2021 IRC", "OCCUPANCY: R-3")}
	// A lot 60 ft wide and 120 ft deep drawn at 10 pt to the foot: the
	// lengths along its top and bottom, and (turned) along its sides.
	lot := func(extra ...plangen.LabelSpec) []plangen.LabelSpec {
		return append([]plangen.LabelSpec{
			{Text: "60'-0\"", Left: 680, Top: 180, Size: 9},
			{Text: "59'-9\"", Left: 680, Top: 1410, Size: 9},
			{Text: "120'-0\"", Left: 385, Top: 780, Size: 9},
			{Text: "119'-6\"", Left: 1005, Top: 780, Size: 9},
			{Text: "(N) ONE STORY RESIDENCE", Left: 580, Top: 700, Size: 12},
		}, extra...)
	}
	review := func(number, title string, labels []plangen.LabelSpec, also ...plangen.SheetSpec) []Finding {
		pages := specPages(t, append([]plangen.SheetSpec{{Number: number, Title: title, Date: "2026-03-02", Scale: "1\" = 20'-0\"", Labels: labels}}, also...)...)
		turnWords(&pages[0], "120'-0\"")
		turnWords(&pages[0], "119'-6\"")
		return reviewPages(t, loadAll(t), pages...)
	}

	// True: the lot's four lengths and nothing else.
	got := byRule(review("A-001", "SITE PLAN", lot(), plan), "completeness-site-plan-setbacks")
	if len(got) != 1 || got[0].SheetNumber != "A-001" || got[0].Confidence < 0.8 || !strings.Contains(got[0].Rationale, "120'-0\"") {
		t.Fatalf("lot lengths only: %+v", got)
	}
	if got[0].Anchors[0].Text != "SITE PLAN" {
		t.Errorf("anchored on %q, want the site plan's title", got[0].Anchors[0].Text)
	}

	// True: bearings and distances of a surveyed lot, all written level.
	bearings := []plangen.LabelSpec{
		{Text: "N 89^59'00\" E 60.00'", Left: 620, Top: 180, Size: 9},
		{Text: "S 89^59'00\" W 60.00'", Left: 620, Top: 1410, Size: 9},
		{Text: "N 00^01'00\" W 120.00'", Left: 200, Top: 780, Size: 9},
		{Text: "S 00^01'00\" E 120.00'", Left: 1010, Top: 780, Size: 9},
	}
	pages := specPages(t, plangen.SheetSpec{Number: "A-001", Title: "PLOT PLAN", Date: "2026-03-02", Labels: bearings}, plan)
	degreeSigns(&pages[0])
	if got := byRule(reviewPages(t, loadAll(t), pages...), "completeness-site-plan-setbacks"); len(got) != 1 {
		t.Errorf("bearings only: %v", anchorTexts(got))
	}

	// Look-alikes.
	for name, tc := range map[string]struct {
		number, title string
		labels        []plangen.LabelSpec
	}{
		"setbacks labelled": {"A-001", "SITE PLAN", lot(plangen.LabelSpec{Text: "20'-0\" FRONT SETBACK", Left: 640, Top: 300, Size: 9})},
		"house dimensioned to the lines": {"A-001", "SITE PLAN", lot(
			plangen.LabelSpec{Text: "25'-0\"", Left: 690, Top: 400, Size: 9},
			plangen.LabelSpec{Text: "12'-6\"", Left: 460, Top: 720, Size: 9})},
		"distances inside other words": {"A-001", "SITE PLAN", lot(
			plangen.LabelSpec{Text: "(E) 10'-0\"", Left: 690, Top: 400, Size: 9})},
		"distances in feet without a foot mark": {"A-001", "SITE PLAN", lot(
			plangen.LabelSpec{Text: "25 FT", Left: 690, Top: 400, Size: 9})},
		"vicinity map":             {"A-001", "VICINITY MAP", lot()},
		"civil site plan":          {"C-101", "SITE PLAN", lot()},
		"grading plan":             {"A-001", "GRADING PLAN", lot()},
		"site plan and floor plan": {"A-001", "SITE PLAN", lot(plangen.LabelSpec{Text: "FLOOR PLAN", Left: 1500, Top: 1300, Size: 20})},
	} {
		if got := byRule(review(tc.number, tc.title, tc.labels, plan), "completeness-site-plan-setbacks"); len(got) != 0 {
			t.Errorf("%s: %v", name, anchorTexts(got))
		}
	}

	// Setbacks printed on all four sides of a house, no lot lengths: the
	// drawing's width and height are not to each other as the lengths.
	setbacks := []plangen.LabelSpec{
		{Text: "25'-0\"", Left: 680, Top: 180, Size: 9},
		{Text: "30'-0\"", Left: 680, Top: 1410, Size: 9},
		{Text: "12'-0\"", Left: 385, Top: 780, Size: 9},
		{Text: "15'-0\"", Left: 1005, Top: 780, Size: 9},
	}
	pages = specPages(t, plangen.SheetSpec{Number: "A-001", Title: "SITE PLAN", Date: "2026-03-02", Labels: setbacks}, plan)
	turnWords(&pages[0], "12'-0\"")
	turnWords(&pages[0], "15'-0\"")
	if got := byRule(reviewPages(t, loadAll(t), pages...), "completeness-site-plan-setbacks"); len(got) != 0 {
		t.Errorf("setbacks read as lot lines: %v", anchorTexts(got))
	}
}

func TestLotLineCertainty(t *testing.T) {
	// A dimension inside the drawing is not a lot line's.
	dims := []siteDimension{
		{feet: 60, box: layout.Box{X0: 680, Y0: 180, X1: 720, Y1: 190}},
		{feet: 60, box: layout.Box{X0: 680, Y0: 1410, X1: 720, Y1: 1420}},
		{feet: 120, angle: 90, box: layout.Box{X0: 385, Y0: 780, X1: 395, Y1: 820}},
		{feet: 120, angle: 90, box: layout.Box{X0: 1005, Y0: 780, X1: 1015, Y1: 820}},
	}
	if c := lotLineCertainty(dims); c < 0.8 {
		t.Errorf("four sides, one scale: %v", c)
	}
	if c := lotLineCertainty(append(dims, siteDimension{feet: 25, box: layout.Box{X0: 690, Y0: 400, X1: 720, Y1: 410}})); c != 0 {
		t.Errorf("with a dimension inside: %v", c)
	}
	if c := lotLineCertainty(dims[:2]); c != 0 {
		t.Errorf("two lengths: %v", c)
	}
}

func TestSitePlanSetbacksCouldNotReadPDF(t *testing.T) {
	// A site plan whose text layer is not read in full (a font whose
	// glyphs map back to single letters): no finding, the coverage
	// finding names it.
	var letters []plangen.LabelSpec
	for i := 0; i < 80; i++ {
		letters = append(letters, plangen.LabelSpec{Text: string(rune('A' + i%26)), Left: 300 + float64(i%20)*30, Top: 300 + float64(i/20)*40, Size: 9})
	}
	plan := plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "APPLICABLE CODES: 2021 IRC", "OCCUPANCY: R-3")}
	fs := reviewPDF(t, plangen.SheetSpec{Number: "A-001", Title: "SITE PLAN", Date: "2026-03-02", Labels: letters}, plan)
	if got := byRule(fs, "completeness-site-plan-setbacks"); len(got) != 0 {
		t.Errorf("finding on a site plan not read in full: %v", anchorTexts(got))
	}
	got := byRule(fs, "coverage-checks-not-covered")
	if len(got) != 1 || !strings.Contains(got[0].Rationale, "distances from the lot lines was not checked") {
		t.Errorf("could not read: %+v", got)
	}
}
