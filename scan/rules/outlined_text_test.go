package rules

import (
	"strings"
	"testing"

	"planreview/scan/pdftext"
)

// outlinedNotesPage is textPage n with a notes block of text stroked as
// lines (an SHX font drawn as strokes): per character a stem, a diagonal
// and a bar, in rows, where the text layer has no words.
func outlinedNotesPage(n int, sheetNumber string, notes ...string) pdftext.Page {
	p := textPage(n, sheetNumber, notes...)
	const size = 6.0
	for row := 0; row < 12; row++ {
		y := float32(400 + row*11)
		for c := 0; c < 40; c++ {
			if c%6 == 5 {
				continue // a word space
			}
			x := float32(1400 + float64(c)*size)
			p.SmallPaths = append(p.SmallPaths,
				pdftext.SmallPath{X0: x, Y0: y, X1: x, Y1: y + size, Pieces: 1, Shape: pdftext.ShapeVertical},
				pdftext.SmallPath{X0: x, Y0: y, X1: x + 0.7*size, Y1: y + size, Pieces: 1, Shape: pdftext.ShapeRising},
				pdftext.SmallPath{X0: x, Y0: y + size/2, X1: x + 0.5*size, Y1: y + size/2, Pieces: 1, Shape: pdftext.ShapeHorizontal})
		}
	}
	return p
}

// TestOutlinedNotesCouldNotBeRead: a sheet whose notes are drawn as
// outlines is reported as read in part, because of the outlines; the
// title block check does not call its number missing (it could not be
// read), while a sheet read in full without one still is.
func TestOutlinedNotesCouldNotBeRead(t *testing.T) {
	e := loadAll(t)
	notes := []string{"1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "2. PROVIDE BLOCKING AT ALL GRAB BARS."}
	fs := reviewPages(t, e, codePage(OccupancyResidential), textPage(2, "A-101", notes...), textPage(3, "A-102", notes...),
		outlinedNotesPage(4, "", notes...), textPage(5, "", notes...))
	got := byRule(fs, "completeness-title-block-sheet-number")
	if len(got) != 1 || got[0].Page != 5 {
		t.Errorf("sheet number findings: %+v", got)
	}
	cov := byRule(fs, "coverage-checks-not-covered")
	if len(cov) != 1 || !strings.Contains(cov[0].Rationale, "Page 4 draws part of the text as outlines") || strings.Contains(cov[0].Rationale, "scattered") {
		t.Errorf("coverage: %+v", cov)
	}
}

// TestLostLettersCoverage: a sheet whose fonts lose letters is covered as
// read in part for that reason, not as scattered words.
func TestLostLettersCoverage(t *testing.T) {
	e := loadAll(t)
	notes := []string{"1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "2. PROVIDE BLOCKING AT ALL GRAB BARS."}
	lossy := textPage(3, "A-102", notes...)
	lossy.Glyphs, lossy.UnmappedGlyphs = 1000, 50
	fs := reviewPages(t, e, codePage(OccupancyResidential), textPage(2, "A-101", notes...), lossy)
	cov := byRule(fs, "coverage-checks-not-covered")
	if len(cov) != 1 || !strings.Contains(cov[0].Rationale, "Page 3 (sheet A-102) sets text in fonts some of whose letters do not read back") {
		t.Errorf("coverage: %+v", cov)
	}
}
