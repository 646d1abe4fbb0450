package rules

import (
	"os"
	"strings"
	"testing"

	"planreview/scan/pdftext"
	"planreview/scan/plangen"
)

// The rule's cases are the tests below (TestEveryRuleIsTested).
func init() { dedicatedTests = append(dedicatedTests, "completeness-seal-block-empty") }

const sealRule = "completeness-seal-block-empty"

// The seal box of the built-in sheets' title strip (plangen's title block
// prints from x 2262): a ruled box under the project address, its caption
// in its top-left corner.
var sealBox = plangen.Area{X0: 2255, Y0: 200, X1: 2560, Y1: 420}

func boxStrokes(a plangen.Area) []plangen.Stroke {
	return []plangen.Stroke{{X0: a.X0, Y0: a.Y0, X1: a.X1, Y1: a.Y0}, {X0: a.X1, Y0: a.Y0, X1: a.X1, Y1: a.Y1},
		{X0: a.X1, Y0: a.Y1, X1: a.X0, Y1: a.Y1}, {X0: a.X0, Y0: a.Y1, X1: a.X0, Y1: a.Y0}}
}

// sealSheet is a sheet whose title strip has a box captioned caption and
// the issue status given; fill adds what the box holds.
func sealSheet(number, title, caption, status string, fill func(*plangen.SheetSpec)) plangen.SheetSpec {
	sp := plangen.SheetSpec{Number: number, Title: title, Date: "2026-03-02", Scale: scale14,
		Labels: append(plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS."),
			plangen.LabelSpec{Text: caption, Left: sealBox.X0 + 6, Top: sealBox.Y0 + 6, Size: 8},
			plangen.LabelSpec{Text: status, Left: 2262, Top: 1440, Size: 10}),
		Strokes: boxStrokes(sealBox)}
	if fill != nil {
		fill(&sp)
	}
	return sp
}

func sealFindings(t *testing.T, specs ...plangen.SheetSpec) []Finding {
	t.Helper()
	return byRule(reviewPDF(t, specs...), sealRule)
}

func TestSealBlockEmptyOnPermitSet(t *testing.T) {
	fs := sealFindings(t,
		sealSheet("A-101", "FLOOR PLAN", "SEAL", "ISSUED FOR PERMIT", nil),
		sealSheet("A-201", "ELEVATIONS", "SEAL", "ISSUED FOR PERMIT", nil))
	if len(fs) != 1 {
		t.Fatalf("%d findings, want one for the set: %v", len(fs), fs)
	}
	f := fs[0]
	for _, want := range []string{"A-101 and A-201", `"SEAL"`, "ISSUED FOR PERMIT", "2 sheet"} {
		if !strings.Contains(f.Rationale, want) {
			t.Errorf("rationale %q lacks %q", f.Rationale, want)
		}
	}
	if len(f.Anchors) == 0 || f.Anchors[0].Text != "SEAL" {
		t.Errorf("anchors = %v, want the caption first", f.Anchors)
	}
	if len(f.GoverningRefs) == 0 {
		t.Errorf("no governing section cited")
	}

	// A caption naming the professional and a header row of its own: the
	// seal's box is the cell below it.
	header := func(sp *plangen.SheetSpec) {
		sp.Strokes = append(sp.Strokes, plangen.Stroke{X0: sealBox.X0, Y0: sealBox.Y0 + 20, X1: sealBox.X1, Y1: sealBox.Y0 + 20})
	}
	fs = sealFindings(t,
		sealSheet("A-101", "FLOOR PLAN", "ARCHITECT'S SEAL", "PERMIT SET", header),
		sealSheet("A-201", "ELEVATIONS", "ARCHITECT'S SEAL", "PERMIT SET", header))
	if len(fs) != 1 {
		t.Errorf("header-row seal box: %d findings, want 1", len(fs))
	}
}

func TestSealBlockLookAlikes(t *testing.T) {
	inside := func(a plangen.Area) plangen.Area {
		return plangen.Area{X0: a.X0 + 60, Y0: a.Y0 + 40, X1: a.X0 + 200, Y1: a.Y0 + 180}
	}
	withImage := func(sp *plangen.SheetSpec) { sp.Images = append(sp.Images, inside(sealBox)) }
	withDrawing := func(sp *plangen.SheetSpec) {
		sp.Circles = append(sp.Circles, plangen.Circle{X: sealBox.X0 + 150, Y: sealBox.Y0 + 120, R: 70})
	}
	withSignature := func(sp *plangen.SheetSpec) {
		sp.Labels = append(sp.Labels, plangen.LabelSpec{Text: "JANE DOE, ARCHITECT C-12345", Left: sealBox.X0 + 20, Top: sealBox.Y0 + 150, Size: 9})
	}
	// A legend in the drawing area with a ruled "SEAL" sample, and a
	// sealant note; the title strip keeps no seal box.
	legend := func(sp *plangen.SheetSpec) {
		sp.Labels = sp.Labels[:1]
		sp.Labels = append(sp.Labels,
			plangen.LabelSpec{Text: "ISSUED FOR PERMIT", Left: 2262, Top: 1440, Size: 10},
			plangen.LabelSpec{Text: "LEGEND", Left: 400, Top: 400, Size: 12},
			plangen.LabelSpec{Text: "SEAL", Left: 406, Top: 426, Size: 8},
			plangen.LabelSpec{Text: "2. SEAL ALL PENETRATIONS WITH FIRE SEALANT.", Left: 120, Top: 170})
		sp.Strokes = boxStrokes(plangen.Area{X0: 400, Y0: 420, X1: 700, Y1: 640})
	}
	for _, tc := range []struct {
		name            string
		caption, status string
		fill            func(*plangen.SheetSpec)
	}{
		{"seal placed as an image", "SEAL", "ISSUED FOR PERMIT", withImage},
		{"seal drawn as paths", "SEAL", "ISSUED FOR PERMIT", withDrawing},
		{"signature and licence typed", "SEAL", "ISSUED FOR PERMIT", withSignature},
		{"issued for construction", "SEAL", "ISSUED FOR CONSTRUCTION", nil},
		{"preliminary", "SEAL", "PRELIMINARY - NOT FOR CONSTRUCTION", nil},
		{"as-built record", "SEAL", "AS-BUILT DRAWINGS", nil},
		{"no status", "SEAL", "", nil},
		{"a permit number field", "SEAL", "PERMIT NO.", nil},
		{"sealant caption", "SEALANT", "ISSUED FOR PERMIT", nil},
		{"SEAL in a legend, not the title block", "SEAL", "ISSUED FOR PERMIT", legend},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := sealFindings(t,
				sealSheet("A-101", "FLOOR PLAN", tc.caption, tc.status, tc.fill),
				sealSheet("A-201", "ELEVATIONS", tc.caption, tc.status, tc.fill))
			if len(fs) != 0 {
				t.Errorf("%d findings: %s", len(fs), fs[0].Rationale)
			}
		})
	}

	// One sheet sealed of two: the set is signed; its signer answers for
	// the other sheet.
	fs := sealFindings(t,
		sealSheet("A-101", "FLOOR PLAN", "SEAL", "ISSUED FOR PERMIT", withImage),
		sealSheet("A-201", "ELEVATIONS", "SEAL", "ISSUED FOR PERMIT", nil))
	if len(fs) != 0 {
		t.Errorf("one sheet sealed: %d findings", len(fs))
	}
}

// A set of one sheet without a title block: the ruled "SEAL" box in its
// corner is not a seal block of a title block, so nothing is reported.
func TestSealBlockWithoutTitleBlock(t *testing.T) {
	pages := specPages(t, sealSheet("A-101", "FLOOR PLAN", "SEAL", "ISSUED FOR PERMIT", nil))
	p := &pages[0]
	var kept []pdftext.Word
	for _, w := range p.Words {
		x, y := w.BBox.Left*p.Width, w.BBox.Top*p.Height
		if x < 2000 || (y > sealBox.Y0 && y < sealBox.Y1) || strings.Contains("ISSUED FOR PERMIT", w.Text) {
			kept = append(kept, w)
		}
	}
	p.Words = kept
	if fs := byRule(reviewPages(t, loadAll(t), pages...), sealRule); len(fs) != 0 {
		t.Errorf("%d findings on a sheet without a title block", len(fs))
	}
}

// A permit set whose seal caption has no box drawn around it: the seal
// block could not be read, which the coverage finding says, never "empty".
func TestSealBlockUnreadable(t *testing.T) {
	nobox := func(sp *plangen.SheetSpec) { sp.Strokes = nil }
	fs := reviewPDF(t,
		sealSheet("A-101", "FLOOR PLAN", "SEAL", "ISSUED FOR PERMIT", nobox),
		sealSheet("A-201", "ELEVATIONS", "SEAL", "ISSUED FOR PERMIT", nobox))
	if n := len(byRule(fs, sealRule)); n != 0 {
		t.Errorf("%d findings where the seal block could not be read", n)
	}
	var said bool
	for _, f := range byRule(fs, "coverage-checks-not-covered") {
		said = said || strings.Contains(f.Rationale, "seal block could not be read")
	}
	if !said {
		t.Errorf("coverage does not say the seal block could not be read")
	}
}

// Planted on real sheets: the corpus sets issued as CONSTRUCTION DOCUMENTS,
// their status words replaced by "PERMIT SET". St. Cloud's and its finish
// plan's title strips keep an empty STAMP cell on every sheet: one finding
// each, naming every sheet. Kaiser's strip has no seal box and Purdue's
// seal sits in the strip without a box: nothing.
func TestSealBlockPlantedPermitOnCorpus(t *testing.T) {
	for _, tc := range []struct {
		file   string
		sheets []string // nil: no finding
	}{
		{"us_va_stcloud_bldg28_renovation_cds.pdf", []string{"AF101", "AF600", "IF101", "IF111-A", "IF111-B", "QH111-A", "QH111-B"}},
		{"opentakeoff_va_finish_plan.pdf", []string{"AF101", "AF600"}},
		{"us_ca_kaiser_richmond_E201A_power_signal.pdf", nil},
		{"us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh.pdf", nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := "../../../shared/corpus/" + tc.file
			if _, err := os.Stat(path); err != nil {
				t.Skip("corpus not present")
			}
			pages := pdfPages(t, path)
			planted := 0
			for pi := range pages {
				ws := pages[pi].Words
				for i := 0; i+1 < len(ws); i++ {
					if strings.EqualFold(ws[i].Text, "CONSTRUCTION") && strings.EqualFold(ws[i+1].Text, "DOCUMENTS") {
						ws[i].Text, ws[i].Norm, ws[i+1].Text, ws[i+1].Norm = "PERMIT", "PERMIT", "SET", "SET"
						planted++
					}
				}
			}
			if planted == 0 {
				t.Fatal("no status planted")
			}
			fs := byRule(reviewPages(t, loadAll(t), pages...), sealRule)
			if tc.sheets == nil {
				if len(fs) != 0 {
					t.Errorf("%d findings: %s", len(fs), fs[0].Rationale)
				}
				return
			}
			if len(fs) != 1 {
				t.Fatalf("%d findings, want 1", len(fs))
			}
			t.Log(fs[0].Rationale)
			for _, s := range tc.sheets {
				if !strings.Contains(fs[0].Rationale, s) {
					t.Errorf("rationale does not name %s", s)
				}
			}
		})
	}
}

// A seal applied digitally: a signed signature field over the seal box, or
// an invisible one on the sheet, fills the block.
func TestSealBlockSignedDigitally(t *testing.T) {
	for name, sig := range map[string]pdftext.Box{
		"over the box": {X0: sealBox.X0 + 20, Y0: sealBox.Y0 + 30, X1: sealBox.X0 + 200, Y1: sealBox.Y0 + 200},
		"invisible":    {X0: 0, Y0: 1728, X1: 0, Y1: 1728},
	} {
		t.Run(name, func(t *testing.T) {
			pages := specPages(t,
				sealSheet("A-101", "FLOOR PLAN", "SEAL", "ISSUED FOR PERMIT", nil),
				sealSheet("A-201", "ELEVATIONS", "SEAL", "ISSUED FOR PERMIT", nil))
			if fs := byRule(reviewPages(t, loadAll(t), pages...), sealRule); len(fs) != 1 {
				t.Fatalf("unsigned: %d findings, want 1", len(fs))
			}
			for i := range pages {
				pages[i].Signatures = []pdftext.Box{sig}
			}
			if fs := byRule(reviewPages(t, loadAll(t), pages...), sealRule); len(fs) != 0 {
				t.Errorf("signed: %d findings", len(fs))
			}
		})
	}
}

// A permit set whose sheet prints its title-block number as outlines, no
// seal caption read on it: the seal block could not be read there.
func TestSealBlockOutlinedTitleBlock(t *testing.T) {
	permit := func(p pdftext.Page) pdftext.Page {
		x, top, size := float64(testW-330), float64(testH-290), 10.0
		for _, w := range []string{"PERMIT", "SET"} {
			width := float64(len(w)) * size * 0.55
			p.Words = append(p.Words, pdftext.Word{Text: w, Norm: w, FontSize: size,
				Rect: pdftext.Rect{x, testH - top - size, x + width, testH - top},
				BBox: pdftext.BBox{Left: x / testW, Top: top / testH, Width: width / testW, Height: size / testH}})
			x += width + size*0.3
		}
		return p
	}
	notes := []string{"1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "2. PROVIDE BLOCKING AT ALL GRAB BARS."}
	outlined := outlinedNumberPage(3, notes...)
	fs := reviewPages(t, loadAll(t), codePage(OccupancyResidential), permit(textPage(2, "A-101", notes...)), permit(textPage(4, "A-102", notes...)), permit(outlined))
	if n := len(byRule(fs, sealRule)); n != 0 {
		t.Errorf("%d seal findings", n)
	}
	var said string
	for _, f := range byRule(fs, "coverage-checks-not-covered") {
		said += f.Rationale
	}
	if !strings.Contains(said, "seal block could not be read") || !strings.Contains(said, "page 3") {
		t.Errorf("coverage %q does not say page 3's seal block could not be read", said)
	}
}
