package rules

import (
	"strconv"
	"strings"
	"testing"

	"planreview/scan/model"
	"planreview/scan/pdftext"
	"planreview/scan/plangen"
)

// The three outcomes of each check (outcomes.go), on built-in PDFs: a
// finding, "missing" (saying where it belongs), and "could not read"
// folded into one coverage info per file.

// coverNotes is a cover read in full: text in its drawing area.
var coverNotes = plangen.Notes(200, 300,
	"PROJECT: NEW RESIDENCE AT 12 MAIN STREET",
	"SCOPE OF WORK: NEW SINGLE FAMILY DWELLING WITH ATTACHED GARAGE",
	"OWNER: J. SMITH")

func drawing(number, title string, labels ...plangen.LabelSpec) plangen.SheetSpec {
	return plangen.SheetSpec{Number: number, Title: title, Date: "2026-03-02", Scale: scale14, Labels: labels}
}

func notCovered(t *testing.T, fs []Finding) string {
	t.Helper()
	got := byRule(fs, "coverage-checks-not-covered")
	if len(got) > 1 {
		t.Errorf("%d coverage findings for one file; want one", len(got))
	}
	if len(got) == 0 {
		return ""
	}
	if got[0].Severity != SeverityInfo {
		t.Errorf("coverage finding severity %s", got[0].Severity)
	}
	return got[0].Rationale
}

func TestSheetIndexAbsentOutcomesPDF(t *testing.T) {
	sheets := []plangen.SheetSpec{
		drawing("A-101", "FLOOR PLAN", plangen.Notes(120, 140, "1. PROVIDE BLOCKING AT ALL GRAB BARS.")...),
		drawing("A-201", "ELEVATIONS"),
		drawing("A-301", "SECTIONS"),
	}
	// Missing: a permit set read in full, its cover read, no index.
	fs := reviewPDF(t, append([]plangen.SheetSpec{{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: coverNotes}}, sheets...)...)
	got := byRule(fs, "completeness-sheet-index-absent")
	if len(got) != 1 || got[0].SheetNumber != "G-001" || !strings.Contains(got[0].Rationale, "cover sheet G-001") || got[0].Severity != SeverityLow {
		t.Fatalf("index absent: %+v", got)
	}
	if got[0].Confidence != 0.6 {
		t.Errorf("confidence %v on a set read in full; want the rule's 0.6", got[0].Confidence)
	}
	if s := notCovered(t, fs); s != "" {
		t.Errorf("coverage on a set read in full: %s", s)
	}

	// Could not read: an index heading whose rows are not sheet numbers.
	heading := append(append([]plangen.LabelSpec{}, coverNotes...), plangen.LabelSpec{Text: "SHEET INDEX", Left: 200, Top: 500, Size: 16})
	heading = append(heading, plangen.Notes(200, 540, "ARCHITECTURAL DRAWINGS BOUND SEPARATELY", "STRUCTURAL DRAWINGS BOUND SEPARATELY")...)
	fs = reviewPDF(t, append([]plangen.SheetSpec{{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: heading}}, sheets...)...)
	if got := byRule(fs, "completeness-sheet-index-absent"); len(got) != 0 {
		t.Errorf("index absent reported under an index heading: %v", anchorTexts(got))
	}
	if s := notCovered(t, fs); !strings.Contains(s, `"SHEET INDEX" on page 1 (sheet G-001) could not be read`) {
		t.Errorf("unread index: %q", s)
	}

	// Read by its shape: the cover lists the sheets under a heading that
	// is no index word ("DRAWINGS ENCLOSED"); the column of the set's
	// numbers with titles beside them is the index, and the sheet it
	// lists that the set lacks is reported.
	list := append(append([]plangen.LabelSpec{}, coverNotes...), plangen.LabelSpec{Text: "DRAWINGS ENCLOSED", Left: 200, Top: 500, Size: 16})
	list = append(list, plangen.Notes(200, 540, "A-101  FLOOR PLAN", "A-201  ELEVATIONS", "A-301  SECTIONS", "A-401  ROOF PLAN")...)
	fs = reviewPDF(t, append([]plangen.SheetSpec{{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: list}}, sheets...)...)
	if got := byRule(fs, "completeness-sheet-index-absent"); len(got) != 0 {
		t.Errorf("index absent on a cover listing the sheets: %v", anchorTexts(got))
	}
	if s := notCovered(t, fs); strings.Contains(s, "prints") {
		t.Errorf("a list read by its shape reported as unread: %q", s)
	}
	if got := byRule(fs, "completeness-sheet-index-missing-sheet"); len(got) != 1 || !strings.Contains(got[0].Rationale, "A-401") {
		t.Errorf("the listed sheet the set lacks: %+v", got)
	}

	// Look-alike: numbered notes on the cover of a set numbered 1, 2, 3
	// are notes, not a list of its sheets.
	numbered := []plangen.SheetSpec{{Number: "", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: append(append([]plangen.LabelSpec{}, coverNotes...), plangen.Notes(200, 500,
			"1. ALL WORK SHALL COMPLY WITH THE 2021 IRC AS AMENDED.", "2. VERIFY ALL DIMENSIONS BEFORE STARTING WORK.",
			"3. DO NOT SCALE THESE DRAWINGS.")...)}}
	for i, title := range []string{"SITE PLAN", "FLOOR PLAN", "ELEVATIONS"} {
		numbered = append(numbered, drawing(strconv.Itoa(i+1), title,
			plangen.LabelSpec{Text: "Drawing Name: " + title, Left: plangen.PageWidth - 700, Top: plangen.PageHeight - 420}))
	}
	fs = reviewPDF(t, numbered...)
	if s := notCovered(t, fs); strings.Contains(s, "prints") {
		t.Errorf("numbered notes read as a list of sheets: %q", s)
	}
	if got := byRule(fs, "completeness-sheet-index-absent"); len(got) != 1 {
		t.Errorf("index absent on a numbered set with notes on its cover: %v", anchorTexts(got))
	}

	// Could not read: the cover's text reads as scattered letters, so the
	// index may be on it.
	fs = reviewPDF(t, append([]plangen.SheetSpec{{Number: "G-001", Title: "COVER SHEET", Labels: scattered}}, sheets...)...)
	if got := byRule(fs, "completeness-sheet-index-absent"); len(got) != 0 {
		t.Errorf("index absent with the cover unread: %v", anchorTexts(got))
	}
	if s := notCovered(t, fs); !strings.Contains(s, "No sheet index was found, and the cover page 1 (sheet G-001) holds only scattered readable words") {
		t.Errorf("unread cover: %q", s)
	}
	// Neither: a cover with text only in its title-block zone (a scan under
	// a vector title block, or a cover that prints little) is not asked.
	fs = reviewPDF(t, append([]plangen.SheetSpec{{Number: "G-001", Title: "COVER SHEET"}}, sheets...)...)
	if got := byRule(fs, "completeness-sheet-index-absent"); len(got) != 0 {
		t.Errorf("index absent on a cover with text only in its title block: %v", anchorTexts(got))
	}
	if s := notCovered(t, fs); strings.Contains(s, "sheet index") {
		t.Errorf("index sentence on a cover with text only in its title block: %q", s)
	}

	// Not asked: two sheets, or no cover (a subset of a set).
	fs = reviewPDF(t, plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: coverNotes}, sheets[0])
	if got := byRule(fs, "completeness-sheet-index-absent"); len(got) != 0 {
		t.Errorf("index absent on a two-sheet set: %v", anchorTexts(got))
	}
	fs = reviewPDF(t, sheets...)
	if got := byRule(fs, "completeness-sheet-index-absent"); len(got) != 0 {
		t.Errorf("index absent on a set without a cover: %v", anchorTexts(got))
	}
}

func TestIndexDuplicateAndPlaceholderPDF(t *testing.T) {
	// An NCS index with a number listed twice, a placeholder title, a
	// reserved number and a sheet of two subjects listed on two rows: each
	// is judged on its own and the rest of the index is still checked.
	var index []plangen.LabelSpec
	index = append(index, plangen.LabelSpec{Text: "SHEET INDEX", Left: 200, Top: 300, Size: 16})
	for i, r := range [][2]string{{"G-001", "COVER SHEET"}, {"A-101", "FLOOR PLAN"}, {"A-101", "FLOOR PLAN"},
		{"A-102", "SHEET TITLE"}, {"A-103", "(RESERVED)"}, {"A-201", "ELEVATIONS"}, {"A-301", "SECTIONS"},
		{"A-301", "DETAILS"}, {"A-501", "SCHEDULES"}, {"A-601", "DOOR DETAILS"},
		// A typo: A-401's row printed with A-601's number.
		{"A-601", "ENLARGED PLANS"}} {
		index = append(index, plangen.LabelSpec{Text: r[0] + " " + r[1], Left: 200, Top: 340 + float64(i)*24})
	}
	caption := func(title string) plangen.LabelSpec {
		return plangen.LabelSpec{Text: "SHEET TITLE: " + title, Left: plangen.PageWidth - 700, Top: plangen.PageHeight - 420}
	}
	specs := []plangen.SheetSpec{{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: index}}
	for _, n := range [][2]string{{"A-101", "FLOOR PLAN"}, {"A-102", "ROOF PLAN"}, {"A-201", "ELEVATIONS"},
		{"A-301", "SECTIONS AND DETAILS"}, {"A-601", "DOOR DETAILS"}, {"A-401", "ENLARGED PLANS"}} {
		specs = append(specs, drawing(n[0], n[1], caption(n[1])))
	}
	fs := reviewPDF(t, specs...)
	dup := byRule(fs, "completeness-index-duplicate-entry")
	if len(dup) != 2 || !strings.Contains(dup[0].Rationale, "lists A-101 twice") || dup[0].SheetNumber != "G-001" ||
		!strings.Contains(dup[1].Rationale, `"ENLARGED PLANS" is the title of sheet A-401, which the index does not list`) ||
		!strings.Contains(dup[1].Anchors[0].Text, "ENLARGED") {
		t.Errorf("duplicates: %v", anchorTexts(dup))
		for _, f := range dup {
			t.Log(f.Rationale)
		}
	}
	ph := byRule(fs, "completeness-index-placeholder-title")
	if len(ph) != 1 || !strings.Contains(ph[0].Rationale, `A-102 with the placeholder title "SHEET TITLE"`) {
		t.Errorf("placeholders: %v", anchorTexts(ph))
	}
	if got := byRule(fs, "completeness-index-title-mismatch"); len(got) != 0 {
		t.Errorf("a placeholder or a two-subject sheet read as a title mismatch: %v", anchorTexts(got))
	}
	missing := byRule(fs, "completeness-sheet-index-missing-sheet")
	if len(missing) != 1 || !strings.Contains(missing[0].Rationale, "lists A-501") {
		t.Errorf("missing (A-501 only; A-103 is reserved): %v", anchorTexts(missing))
	}
	unlisted := byRule(fs, "completeness-sheet-not-in-index")
	if len(unlisted) != 1 || unlisted[0].SheetNumber != "A-401" {
		t.Errorf("unlisted: %v", anchorTexts(unlisted))
	}
}

func TestPlaceholderTitles(t *testing.T) {
	for _, tc := range []struct {
		title string
		want  bool
	}{
		{"SHEET TITLE", true}, {"Drawing Name", true}, {"TBD", true}, {"XXX", true}, {"---", true}, {"???", true},
		{"(RESERVED)", false}, {"NOT USED", false}, {"Title", false}, {"TITLE SHEET", false},
		{"FLOOR PLAN", false}, {"XX PLAN", false}, {"SHEET TITLE PLAN", false},
	} {
		if got := model.IsPlaceholderTitle(tc.title); got != tc.want {
			t.Errorf("model.IsPlaceholderTitle(%q) = %v, want %v", tc.title, got, tc.want)
		}
	}
}

// scattered is a page whose text reads as scattered letters (a font that
// maps back to text only in part): the set model reads it as partial.
var scattered = func() []plangen.LabelSpec {
	var lines []string
	for i := 0; i < 16; i++ {
		lines = append(lines, "R L U N G A P")
	}
	return plangen.Notes(120, 140, lines...)
}()

func TestNotCoveredPartialPagePDF(t *testing.T) {
	fs := reviewPDF(t,
		drawing("A-101", "FLOOR PLAN", plangen.Notes(120, 140, "1. SEE 3/A-501 FOR WALL TYPES.")...),
		drawing("A-102", "ROOF PLAN", scattered...),
		drawing("A-201", "ELEVATIONS"),
		drawing("A-301", "SECTIONS"),
	)
	s := notCovered(t, fs)
	if !strings.Contains(s, "Page 2 (sheet A-102) holds only scattered readable words") || !strings.Contains(s, "unfinished text") {
		t.Errorf("partial page: %q", s)
	}
	// A reference to a sheet "not in the set" is as sure as the share of
	// the set read: three of four pages.
	ref := byRule(fs, "completeness-reference-to-missing-sheet")
	if len(ref) != 1 || ref[0].Confidence != 0.56 {
		t.Errorf("reference confidence: %+v", ref)
	}
	// Could not read: no page's number was read; references and the index
	// were not checked against the set.
	fs = reviewPDF(t,
		plangen.SheetSpec{Title: "FLOOR PLAN", Labels: plangen.Notes(120, 140, "1. SEE 3/A-501 FOR WALL TYPES.")},
		plangen.SheetSpec{Title: "ELEVATIONS", Labels: plangen.Notes(120, 140, "1. ALL EXTERIOR FINISHES PER OWNER.")},
	)
	if s := notCovered(t, fs); !strings.Contains(s, "No sheet number could be read on any page") {
		t.Errorf("no numbers: %q", s)
	}
	// The same set read in full: no coverage finding, the rule's own
	// confidence.
	fs = reviewPDF(t,
		drawing("A-101", "FLOOR PLAN", plangen.Notes(120, 140, "1. SEE 3/A-501 FOR WALL TYPES.")...),
		drawing("A-201", "ELEVATIONS"),
	)
	if s := notCovered(t, fs); s != "" {
		t.Errorf("coverage on a set read in full: %q", s)
	}
	if ref := byRule(fs, "completeness-reference-to-missing-sheet"); len(ref) != 1 || ref[0].Confidence != 0.75 {
		t.Errorf("reference confidence: %+v", ref)
	}
}

func TestNotCoveredOpeningsPDF(t *testing.T) {
	tags := func(marks ...string) []plangen.LabelSpec {
		var out []plangen.LabelSpec
		for i, m := range marks {
			out = append(out, plangen.LabelSpec{Text: m, Left: 300 + float64(i)*160, Top: 500})
		}
		return out
	}
	// Could not read: the plans tag doors and windows, the set has no
	// schedule.
	fs := reviewPDF(t,
		drawing("A-101", "FLOOR PLAN", tags("D1", "D2", "W1", "W2")...),
		drawing("A-201", "ELEVATIONS"),
	)
	if s := notCovered(t, fs); !strings.Contains(s, "page 1 (sheet A-101) tags doors or windows (D1, D2, W1, W2), but no door or window schedule was found") {
		t.Errorf("tags without a schedule: %q", s)
	}
	// Could not read: the schedule is headed on a sheet not titled as one.
	headed := append(tags("D1", "D2", "W1", "W2"), plangen.Notes(1200, 300, "DOOR SCHEDULE", "D1", "D2", "W1")...)
	fs = reviewPDF(t,
		drawing("A-101", "FLOOR PLAN", tags("D1", "D2", "W1", "W2")...),
		drawing("A-501", "DETAILS", headed...),
	)
	if s := notCovered(t, fs); !strings.Contains(s, "A door or window schedule is headed on page 2 (sheet A-501), but that sheet is not titled as a schedule") {
		t.Errorf("schedule on an untitled sheet: %q", s)
	}
	// Look-alike: grid or room labels of other shapes are not door tags.
	fs = reviewPDF(t,
		drawing("A-101", "FLOOR PLAN", tags("A1", "B2", "C3", "E4")...),
		drawing("A-201", "ELEVATIONS"),
	)
	if s := notCovered(t, fs); s != "" {
		t.Errorf("grid labels read as door tags: %q", s)
	}
	// Could not read: a window schedule numbered 1, 2, 3 (numbered marks
	// are not compared).
	sched := append([]plangen.LabelSpec{{Text: "WINDOW SCHEDULE", Left: 200, Top: 260, Size: 16}},
		plangen.Notes(200, 300, "1", "2", "3", "4")...)
	fs = reviewPDF(t,
		drawing("A-101", "FLOOR PLAN", tags("1", "2", "3")...),
		drawing("A-601", "WINDOW SCHEDULE", sched...),
	)
	if s := notCovered(t, fs); !strings.Contains(s, "door or window schedule on page 2 (sheet A-601) was found, but its marks could not be read") {
		t.Errorf("numbered schedule: %q", s)
	}
	// Finding, not could-not-read: a schedule and plans that share marks.
	sched = append([]plangen.LabelSpec{{Text: "WINDOW SCHEDULE", Left: 200, Top: 260, Size: 16}},
		plangen.Notes(200, 300, "W1", "W2", "W3", "W4")...)
	fs = reviewPDF(t,
		drawing("A-101", "FLOOR PLAN", tags("W1", "W2", "W3", "W4", "W5")...),
		drawing("A-601", "WINDOW SCHEDULE", sched...),
	)
	if got := byRule(fs, "consistency-tag-not-in-schedule"); len(got) != 1 {
		t.Errorf("tag not in schedule: %v", anchorTexts(got))
	}
	if s := notCovered(t, fs); s != "" {
		t.Errorf("coverage where the check ran: %q", s)
	}
}

func TestNotCoveredStairsPDF(t *testing.T) {
	cover := plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: plangen.Notes(200, 300, "CODE ANALYSIS", "APPLICABLE CODES: 2021 IRC", "OCCUPANCY GROUP: R-3",
			"CONSTRUCTION TYPE: V-B", "SPRINKLERED: NO", "SHEET INDEX")}
	// Could not read: a stair section without a riser or tread value.
	fs := reviewPDF(t, cover, drawing("A-301", "STAIR SECTION", plangen.Notes(120, 140, "STAIR NOTES", "1. HANDRAIL BOTH SIDES.")...))
	if s := notCovered(t, fs); !strings.Contains(s, "Page 2 (sheet A-301) draws a stair, but no riser height or tread depth could be read") {
		t.Errorf("stair without values: %q", s)
	}
	// Read: the riser stated; the rule judges it, no coverage sentence.
	fs = reviewPDF(t, cover, drawing("A-301", "STAIR SECTION", plangen.Notes(120, 140, "STAIR NOTES", "14 RISERS @ 7 1/2\"")...))
	if s := notCovered(t, fs); strings.Contains(s, "stair") {
		t.Errorf("stair with values: %q", s)
	}
}

func TestNotCoveredDoorsPDF(t *testing.T) {
	// Read: a ruled door schedule with a size column; no coverage sentence.
	doorLabels, doorRules := plangen.Table(120, 900, []float64{60, 220, 160},
		[]string{"MARK", "LOCATION", "SIZE"},
		[]string{"101", "FRONT ENTRY", "3068"},
		[]string{"102", "BEDROOM", `2'-8" X 6'-8"`})
	fs := reviewPDF(t, codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-601", Title: "DOOR SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: concatLabels(plangen.Notes(120, 860, "DOOR SCHEDULE"), doorLabels), Strokes: doorRules})
	if s := notCovered(t, fs); strings.Contains(s, "door schedule") {
		t.Errorf("door schedule read: %q", s)
	}
	// Could not read: the same schedule printed without rules (no table).
	fs = reviewPDF(t, codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-601", Title: "DOOR SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: concatLabels(plangen.Notes(120, 860, "DOOR SCHEDULE"), doorLabels)})
	if s := notCovered(t, fs); !strings.Contains(s, "The door schedule on page 2 (sheet A-601) could not be read as a table") {
		t.Errorf("door schedule without rules: %q", s)
	}
	// Could not read: a table whose sizes are in no column named so.
	oddLabels, oddRules := plangen.Table(120, 900, []float64{60, 220, 160},
		[]string{"MARK", "LOCATION", "LEAF"},
		[]string{"101", "FRONT ENTRY", "3068"},
		[]string{"102", "BEDROOM", `2'-8" X 6'-8"`})
	fs = reviewPDF(t, codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-601", Title: "DOOR SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: concatLabels(plangen.Notes(120, 860, "DOOR SCHEDULE"), oddLabels), Strokes: oddRules})
	if s := notCovered(t, fs); !strings.Contains(s, "has no width or size column") {
		t.Errorf("door schedule without a size column: %q", s)
	}
}

func TestPageList(t *testing.T) {
	pages := func(numbers ...int) []*pageView {
		var out []*pageView
		for _, n := range numbers {
			out = append(out, &pageView{Sheet: &model.Sheet{Page: &pdftext.Page{Number: n}}})
		}
		return out
	}
	for _, tc := range []struct {
		in   []*pageView
		want string
	}{
		{pages(2), "page 2"},
		{pages(2, 3), "page 2 and page 3"},
		{pages(1, 2, 3, 4, 5, 8, 9), "pages 1–5, 8 and 9"},
		{pages(1, 3, 5, 7, 9), "pages 1, 3, 5, 7 and 9"},
	} {
		if got := pageList(tc.in); got != tc.want {
			t.Errorf("pageList = %q, want %q", got, tc.want)
		}
	}
}

func TestIndexMissingUndecidedPDF(t *testing.T) {
	// The index lists A-102, no sheet carries that number, and one page's
	// number could not be read (its text reads as scattered letters): the
	// page may be A-102, so no "missing" finding, one coverage sentence.
	index := []plangen.LabelSpec{{Text: "SHEET INDEX", Left: 200, Top: 300, Size: 16}}
	index = append(index, plangen.Notes(200, 340, "G-001 COVER SHEET", "A-101 FLOOR PLAN", "A-102 ROOF PLAN", "A-201 ELEVATIONS", "A-301 SECTIONS")...)
	cover := plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: index}
	fs := reviewPDF(t, cover, drawing("A-101", "FLOOR PLAN"), plangen.SheetSpec{Labels: scattered},
		drawing("A-201", "ELEVATIONS"), drawing("A-301", "SECTIONS"))
	if got := byRule(fs, "completeness-sheet-index-missing-sheet"); len(got) != 0 {
		t.Errorf("missing reported while a page's number was not read: %v", anchorTexts(got))
	}
	if s := notCovered(t, fs); !strings.Contains(s, "The sheet index on G-001 lists A-102, not among the sheet numbers read; page 3 has no sheet number that could be read, so whether that sheet is missing was not decided.") {
		t.Errorf("undecided: %q", s)
	}
	// A page without a number but titled otherwise is not the sheet: the
	// finding stands.
	fs = reviewPDF(t, cover, drawing("A-101", "FLOOR PLAN"),
		plangen.SheetSpec{Title: "SITE PHOTOGRAPHS", Date: "2026-03-02", Labels: plangen.Notes(120, 140, "PHOTO 1: NORTH FACADE OF THE EXISTING HOUSE", "PHOTO 2: SOUTH FACADE OF THE EXISTING HOUSE")},
		drawing("A-201", "ELEVATIONS"), drawing("A-301", "SECTIONS"))
	if got := byRule(fs, "completeness-sheet-index-missing-sheet"); len(got) != 1 || !strings.Contains(got[0].Rationale, "lists A-102") {
		t.Errorf("missing beside an unnumbered page of another title: %v", anchorTexts(got))
	}
	// Every page numbered: the finding.
	fs = reviewPDF(t, cover, drawing("A-101", "FLOOR PLAN"), drawing("A-201", "ELEVATIONS"), drawing("A-301", "SECTIONS"))
	if got := byRule(fs, "completeness-sheet-index-missing-sheet"); len(got) != 1 || !strings.Contains(got[0].Rationale, "lists A-102") {
		t.Errorf("missing: %v", anchorTexts(got))
	}
}

func TestUnreadablePagesGrouped(t *testing.T) {
	e := loadAll(t)
	pages := []pdftext.Page{codePage(OccupancyResidential)}
	for n := 2; n <= 9; n++ {
		pages = append(pages, pdftext.Page{Number: n, Width: testW, Height: testH, Readable: false, Reason: pdftext.ReasonImageOnly})
	}
	pages[5].Reason = pdftext.ReasonNoTextObjects // page 6: another reason
	fs := reviewPages(t, e, pages...)
	got := byRule(fs, "coverage-unreadable-page")
	if len(got) != 2 {
		t.Fatalf("%d unreadable findings for 8 pages of two reasons; want one per reason group of more than three, one per page otherwise: %v", len(got), got)
	}
	var texts []string
	for _, f := range got {
		texts = append(texts, f.Rationale)
	}
	joined := strings.Join(texts, "\n")
	if !strings.Contains(joined, "Pages 2–5 and 7–9 were not reviewed: image_only") || !strings.Contains(joined, "Page 6 was not reviewed: no_text_objects") {
		t.Errorf("rationales:\n%s", joined)
	}
}

func TestNotCoveredGuardsPDF(t *testing.T) {
	cover := plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: plangen.Notes(200, 300, "CODE ANALYSIS", "APPLICABLE CODES: 2021 IRC", "OCCUPANCY GROUP: R-3",
			"CONSTRUCTION TYPE: V-B", "SPRINKLERED: NO", "SHEET INDEX")}
	// Could not read: a deck with a guardrail and no height anywhere.
	fs := reviewPDF(t, cover, drawing("A-102", "DECK PLAN", plangen.Notes(120, 140, "DECK NOTES", "1. PROVIDE GUARDRAIL AT DECK EDGE PER DETAIL 4.")...))
	if s := notCovered(t, fs); !strings.Contains(s, "Page 2 (sheet A-102) names a guard, but no guard height could be read") {
		t.Errorf("guard without a height: %q", s)
	}
	// Read: the height stated; the rule judges it, no coverage sentence.
	fs = reviewPDF(t, cover, drawing("A-102", "DECK PLAN", plangen.Notes(120, 140, "DECK NOTES", "1. PROVIDE 36\" HIGH GUARDRAIL AT DECK EDGE.")...))
	if s := notCovered(t, fs); strings.Contains(s, "guard") {
		t.Errorf("guard with a height: %q", s)
	}
	// Look-alike: a corner guard is not a guard at a drop.
	fs = reviewPDF(t, cover, drawing("A-102", "FLOOR PLAN", plangen.Notes(120, 140, "1. STAINLESS STEEL CORNER GUARDS AT ALL OUTSIDE CORNERS.")...))
	if s := notCovered(t, fs); strings.Contains(s, "guard") {
		t.Errorf("corner guard read as a guard: %q", s)
	}
}
