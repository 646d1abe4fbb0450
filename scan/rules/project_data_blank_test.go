package rules

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"planreview/scan/plangen"
)

// The rule's cases are the tests below (TestEveryRuleIsTested).
func init() { dedicatedTests = append(dedicatedTests, "completeness-project-data-blank") }

func blankLabels(fs []Finding) []string {
	var out []string
	for _, f := range byRule(fs, "completeness-project-data-blank") {
		if len(f.Anchors) > 0 {
			out = append(out, f.Anchors[0].Text)
		}
	}
	sort.Strings(out)
	return out
}

func TestProjectDataBlankPDF(t *testing.T) {
	plan := plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.")}
	cover := func(labels []plangen.LabelSpec, strokes []plangen.Stroke) plangen.SheetSpec {
		return plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
			Labels: append(labels, plangen.Notes(700, 140, "APPLICABLE CODES: 2021 IBC", "SCOPE OF WORK: NEW OFFICE BUILDING")...), Strokes: strokes}
	}

	// A project-data column: values on their lines, three printed blank
	// (dashes, a placeholder, a bare unit) and one label with nothing
	// beside it.
	column := plangen.Notes(120, 140,
		"PROJECT DATA",
		"OWNER: ACME HOLDINGS LLC",
		"APN: 123-456-78",
		"OCCUPANCY: --",
		"CONSTRUCTION TYPE: TBD",
		"BUILDING HEIGHT: FT",
		"ZONING:",
		"LOT AREA: 6,000 SF",
		"NUMBER OF STORIES: 2",
	)
	fs := reviewPDF(t, cover(column, nil), plan)
	got := blankLabels(fs)
	want := []string{"BUILDING HEIGHT: FT", "CONSTRUCTION TYPE: TBD", "OCCUPANCY: --", "ZONING:"}
	if !slices.Equal(got, want) {
		t.Errorf("blank fields: %v, want %v", got, want)
	}
	// One finding per blank field: the stated checks leave occupancy and
	// construction type to the blank check.
	for _, id := range []string{"completeness-occupancy-stated", "completeness-construction-type-stated"} {
		if n := len(byRule(fs, id)); n != 0 {
			t.Errorf("%s: %d findings beside the blank field's", id, n)
		}
	}
	// The sprinklers are not printed at all: that is the stated check's.
	if n := len(byRule(fs, "completeness-sprinklers-stated")); n != 1 {
		t.Errorf("sprinklers stated: %d findings", n)
	}

	// Look-alikes: answers (N/A, NONE), a dash for a level without area,
	// a value under its label, and the same fields filled elsewhere.
	answers := plangen.Notes(120, 140,
		"PROJECT DATA",
		"OWNER: ACME HOLDINGS LLC",
		"SPRINKLERS: N/A",
		"FIRE ALARM: NONE",
		"BASEMENT AREA: -",
		"FIRST FLOOR AREA: 1,200 SF",
		"OCCUPANCY: B",
		"CONSTRUCTION TYPE: V-B",
	)
	answers = append(answers, plangen.LabelSpec{Text: "LEGAL DESCRIPTION:", Left: 120, Top: 400, Size: 10},
		plangen.LabelSpec{Text: "LOT 4, BLOCK 2, OAK TRACT", Left: 120, Top: 414, Size: 14})
	fs = reviewPDF(t, cover(answers, nil), plan)
	if got := blankLabels(fs); len(got) != 0 {
		t.Errorf("answers read as blanks: %v", got)
	}

	// A sprinkler caption printed blank in a filled column is not a
	// statement: one finding, the blank one.
	spr := plangen.Notes(120, 140, "PROJECT DATA", "OCCUPANCY: B", "CONSTRUCTION TYPE: V-B", "SPRINKLERED:", "NUMBER OF STORIES: 1")
	fs = reviewPDF(t, cover(spr, nil), plan)
	if got := blankLabels(fs); !slices.Equal(got, []string{"SPRINKLERED:"}) {
		t.Errorf("blank sprinkler caption: %v", got)
	}
	if n := len(byRule(fs, "completeness-sprinklers-stated")); n != 0 {
		t.Errorf("sprinklers stated: %d findings beside the blank field's", n)
	}

	// A blank form (no label filled) with labels alone: nothing says the
	// values are beside the labels, so nothing is reported blank.
	form := plangen.Notes(120, 140, "PROJECT DATA", "OWNER:", "APN:", "ZONING:")
	if got := blankLabels(reviewPDF(t, cover(form, nil), plan)); len(got) != 0 {
		t.Errorf("labels of an unfilled form: %v", got)
	}

	// Labels without colons in one column, values in a column of their
	// own to the right: two printed blank (a dash, a bare unit).
	var twoColumns []plangen.LabelSpec
	for i, r := range [][2]string{{"OCCUPANCY", "B"}, {"CONSTRUCTION TYPE", "--"}, {"SPRINKLERED", "YES"},
		{"BUILDING HEIGHT", "FT"}, {"NUMBER OF STORIES", "2"}} {
		top := 140 + float64(i)*22
		twoColumns = append(twoColumns, plangen.LabelSpec{Text: r[0], Left: 120, Top: top}, plangen.LabelSpec{Text: r[1], Left: 330, Top: top})
	}
	fs = reviewPDF(t, cover(twoColumns, nil), plan)
	if got := blankLabels(fs); !slices.Equal(got, []string{"BUILDING HEIGHT FT", "CONSTRUCTION TYPE --"}) {
		t.Errorf("blank fields in a two-column block: %v", got)
	}
	// A heading that names a field, over a paragraph: no label at all.
	heading := append([]plangen.LabelSpec{{Text: "ZONING", Left: 120, Top: 140, Size: 14}},
		plangen.Notes(120, 165, "THE PROJECT COMPLIES WITH THE ZONING ORDINANCE OF THE CITY.", "NO VARIANCE IS REQUESTED.")...)
	if got := blankLabels(reviewPDF(t, cover(heading, nil), plan)); len(got) != 0 {
		t.Errorf("a heading as a blank field: %v", got)
	}

	// A ruled data table: the APN cell has nothing beside it, the others
	// are filled.
	labels, rules := plangen.Table(120, 400, []float64{200, 260},
		[]string{"OWNER", "ACME HOLDINGS LLC"},
		[]string{"APN", ""},
		[]string{"LOT AREA", "6,000 SF"},
		[]string{"OCCUPANCY", "B"},
		[]string{"SPRINKLERED", "N/A"})
	fs = reviewPDF(t, cover(labels, rules), plan)
	if got := blankLabels(fs); !slices.Equal(got, []string{"APN"}) {
		t.Errorf("blank table cell: %v", got)
	}
}

func TestProjectDataBlankTitleBlockPDF(t *testing.T) {
	// The title block's own fields are the title-block checks': a blank
	// "PROJECT ADDRESS:" there is not project data.
	fs := reviewPDF(t, plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: append(plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS."),
			plangen.Notes(plangen.PageWidth-330, plangen.PageHeight-460, "CLIENT: ACME", "PROJECT ADDRESS:", "DRAWN BY: JS")...)})
	for _, a := range blankLabels(fs) {
		if strings.Contains(a, "ADDRESS") {
			t.Errorf("title-block field reported as project data: %v", a)
		}
	}
	// The same fields in the drawing area are project data.
	fs = reviewPDF(t, plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "CLIENT: ACME", "PROJECT ADDRESS:", "DRAWN BY: JS")})
	if got := blankLabels(fs); !slices.Equal(got, []string{"PROJECT ADDRESS:"}) {
		t.Errorf("blank address in the drawing area: %v", got)
	}
}

func TestProjectDataBlankCouldNotReadPDF(t *testing.T) {
	// A cover whose text layer is not read in full: its blanks are not
	// judged, and the coverage finding says so.
	labels := plangen.Notes(120, 140, "PROJECT DATA", "OWNER: ACME HOLDINGS LLC", "APN: 123-456-78", "OCCUPANCY: --")
	for i := 0; i < 80; i++ {
		labels = append(labels, plangen.LabelSpec{Text: string(rune('A' + i%26)), Left: 700 + float64(i%20)*30, Top: 300 + float64(i/20)*40, Size: 9})
	}
	plan := plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.")}
	fs := reviewPDF(t, plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: labels}, plan)
	if got := blankLabels(fs); len(got) != 0 {
		t.Errorf("blank fields on a cover not read in full: %v", got)
	}
	got := byRule(fs, "coverage-checks-not-covered")
	if len(got) != 1 || !strings.Contains(got[0].Rationale, "blank project-data fields") {
		t.Errorf("could not read: %+v", got)
	}
}

func TestProjectDataBlankStatedElsewherePDF(t *testing.T) {
	// The cover's lot area is printed blank, the site plan states it: the
	// set states the lot area, so the blank repeat is no missing
	// information. The cover's blank height is not stated anywhere.
	column := plangen.Notes(120, 140, "PROJECT DATA", "OWNER: ACME HOLDINGS LLC", "APN: 123-456-78", "LOT AREA: SF", "BUILDING HEIGHT: FT")
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
			Labels: append(column, plangen.Notes(700, 140, "APPLICABLE CODES: 2021 IBC")...)},
		plangen.SheetSpec{Number: "A-001", Title: "SITE PLAN", Date: "2026-03-02", Scale: "1\" = 20'-0\"",
			Labels: plangen.Notes(120, 140, "LOT AREA: 6,000 SF", "ZONING: R-1")},
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.")})
	if got := blankLabels(fs); !slices.Equal(got, []string{"BUILDING HEIGHT: FT"}) {
		t.Errorf("blank fields: %v", got)
	}
}
