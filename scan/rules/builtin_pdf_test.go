package rules

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"planreview/scan/pdftext"
	"planreview/scan/plangen"
)

// reviewPDF writes the sheets as a real PDF, extracts it and reviews it:
// the checks' true cases and look-alikes through the whole word → layout →
// model → check path.
func reviewPDF(t *testing.T, specs ...plangen.SheetSpec) []Finding {
	t.Helper()
	return reviewPages(t, loadAll(t), specPages(t, specs...)...)
}

// specPages writes the sheets as a real PDF and extracts its pages.
func specPages(t *testing.T, specs ...plangen.SheetSpec) []pdftext.Page {
	t.Helper()
	f, err := plangen.Sheets("test.pdf", specs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "test.pdf")
	if err := os.WriteFile(path, f.PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	return pdfPages(t, path)
}

// pdfPages extracts every page of the PDF at path.
func pdfPages(t *testing.T, path string) []pdftext.Page {
	t.Helper()
	doc, err := pdftext.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	var pages []pdftext.Page
	for p := range doc.Pages(context.Background()) {
		pages = append(pages, *p)
	}
	return pages
}

func anchorTexts(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		text := ""
		if len(f.Anchors) > 0 {
			text = f.Anchors[0].Text
		}
		out = append(out, f.SheetNumber+": "+text)
	}
	return out
}

const scale14 = `1/4" = 1'-0"`

func TestUnfinishedTextPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140,
				"GENERAL NOTES",
				"1. ANY NOTED FOOTING LEVELS ARE BASED ON F.F.L. XX.XX.",
				"? GROUNDING ELECTRODE",
				"RESPONSIBLE DESIGNER: #",
				"2. ALLOCATE 120V FOR WATER BOTTLE FILLER. LOCATION TO BE DETERMINED.",
				"3. KITCHEN UNITS BY SPECIALIST TO LATER DETAIL",
				"1 VA TO VERIFY NUMBER AND LOCATIONS",
				"2 VERIFY BLOCKING REQ'D AND LOCATIONS WITH VA",
				"4. PROVIDE ____ LF OF FIRE BLOCKING AT SOFFITS")},
		// Look-alikes: sizes, a legend's abbreviations, a contractor's
		// standing instructions, numbered marks, a disclaimer.
		plangen.SheetSpec{Number: "A-102", Title: "ROOF PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: append(plangen.Notes(120, 140,
				"2X4 STUD WALL @ 16\" O.C.",
				"48X48 U.F.W. / 60X24 M.F.W.",
				"FIELD VERIFY ALL NEW CONDITIONS. NOTIFY ARCHITECT OF ANY DISCREPANCIES.",
				"THE CONTRACTOR SHALL VERIFY ALL JOB SITE CONDITIONS AND RELATED DIMENSIONS.",
				"BEDROOM #2",
				"#5 BARS @ 12\" O.C. EACH WAY",
				"DIMENSIONS ARE SUBJECT TO INDEPENDENT VERIFICATION",
				"COLOR TO BE SELECTED BY OWNER",
				"CABINET HARDWARE: TBD BY OWNER",
				"TILE FINISH T.B.D. (OWNER SELECTION)",
				"SPECIAL INSPECTOR: ________ DATE: ______",
				"APPROVED BY ________",
				"GENERAL CONTRACTOR: TO BE DETERMINED",
				"CONTRACTOR: TBD",
				"2. VERIFY ROUGH OPENING W/ WINDOW MFR.",
				"Name - Title ____________ Signature ____________ Date ______",
				"5. PAINT COLOR TBD"),
				plangen.Notes(900, 140, "ABBREVIATIONS", "TBD TO BE DETERMINED", "VIF VERIFY IN FIELD", "TBD")...)},
		// The owner's choice of a size the code governs is still open.
		plangen.SheetSpec{Number: "A-103", Title: "SECOND FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "5. EGRESS WINDOW SIZE TBD BY OWNER")},
	)
	got := byRule(fs, "completeness-unfinished-text")
	want := map[string]bool{"F.F.L. XX.XX": false, "? GROUNDING": false, "DESIGNER: #": false, "TO BE DETERMINED": false, "VA TO VERIFY": false, "PROVIDE ____ LF": false, "EGRESS WINDOW SIZE TBD": false}
	for _, f := range got {
		if f.SheetNumber != "A-101" && f.SheetNumber != "A-103" {
			t.Errorf("look-alike flagged on %s: %s", f.SheetNumber, f.Rationale)
			continue
		}
		for k := range want {
			if len(f.Anchors) > 0 && strings.Contains(f.Anchors[0].Text, k) {
				want[k] = true
			}
		}
	}
	for k, found := range want {
		if !found {
			t.Errorf("placeholder %q not reported; got %v", k, anchorTexts(got))
		}
	}
	// One finding per kind of placeholder and sheet.
	if len(got) != 7 {
		t.Errorf("%d findings, want 7 (one per kind and sheet): %v", len(got), anchorTexts(got))
	}
}

func TestSheetReferencesPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140,
				"1. FOR STAIR DETAILS SEE SHEET A-501.",
				"3/A-502",
				"2. SEE SHEET A-102 FOR ROOF DRAINAGE.",
				"REFER TO RAFT SLAB DETAILS ON DRAWINGS S3.01 & S3.11",
				"EQUIPMENT A1015 BY OWNER",
				"1/2\" GYP. BD. ON 2X4 STUDS",
				"PANEL EL1-15")},
		plangen.SheetSpec{Number: "A-102", Title: "ROOF PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "SEE FLOOR PLAN FOR DIMENSIONS")},
	)
	got := byRule(fs, "completeness-reference-to-missing-sheet")
	targets := map[string]bool{}
	for _, f := range got {
		for _, want := range []string{"A-501", "A-502"} {
			if strings.Contains(f.Rationale, "sheet "+want+" is not") {
				targets[want] = true
			}
		}
	}
	// Without a sheet index, the set's own numbers are the list: S3.01 is
	// not shaped like this set's numbers, A1015 and EL1-15 are not written
	// as references.
	if len(got) != 2 || !targets["A-501"] || !targets["A-502"] {
		t.Errorf("references: %v", anchorTexts(got))
	}
}

// A callout whose sheet part has no designator letter is a reference only
// by the set's own scheme: "SEE 3/13" in a set numbered 10 to 12, "SEE
// DETAIL 2/5.1.09" beside 5.1.00; never a dimension, a scale, a date, a
// number of another shape, nor a plain number in a set with letters.
func TestSchemeCalloutsPDF(t *testing.T) {
	missing := func(fs []Finding) []string {
		var out []string
		for _, f := range byRule(fs, "completeness-reference-to-missing-sheet") {
			out = append(out, f.Rationale)
		}
		return out
	}
	lookAlikes := []string{
		"SEE 3/4\" PLYWOOD SHEATHING",
		"SEE 5/16\" GAP AT SILL",
		"SCALE 1/8\" = 1'-0\"",
		"SEE 3/14/2026 REVISION",
		"SEE 1/16 MM GAP",
		"SEE 2/11 FOR FLASHING",
		"RATIO 3/15",
		"SEE 3/100 FOR BRACING",
	}
	numeric := reviewPDF(t,
		plangen.SheetSpec{Number: "10", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, append([]string{"1. FOR STAIR DETAILS SEE 3/13."}, lookAlikes...)...)},
		plangen.SheetSpec{Number: "11", Title: "ROOF PLAN", Date: "2026-03-02", Scale: scale14},
		plangen.SheetSpec{Number: "12", Title: "SECTIONS", Date: "2026-03-02", Scale: scale14},
	)
	if got := missing(numeric); len(got) != 1 || !strings.Contains(got[0], "sheet 13 is not") {
		t.Errorf("numeric set: want only the reference to sheet 13, got %q", got)
	}
	dotted := reviewPDF(t,
		plangen.SheetSpec{Number: "5.1.00", Title: "GROUND FLOOR PLAN", Date: "2026-03-02", Scale: "1:50",
			Labels: plangen.Notes(120, 140, "SEE DETAIL 2/5.1.09", "SEE 3/12.05.26", "SEE 1/51")},
		plangen.SheetSpec{Number: "5.1.01", Title: "FIRST FLOOR PLAN", Date: "2026-03-02", Scale: "1:50"},
	)
	if got := missing(dotted); len(got) != 1 || !strings.Contains(got[0], "sheet 5.1.09 is not") {
		t.Errorf("dotted set: want only the reference to sheet 5.1.09, got %q", got)
	}
	lettered := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "SEE 3/13", "SEE 2/102")},
		plangen.SheetSpec{Number: "A-102", Title: "ROOF PLAN", Date: "2026-03-02", Scale: scale14},
	)
	if got := missing(lettered); len(got) != 0 {
		t.Errorf("lettered set: plain numbers are not its sheets, got %q", got)
	}
}

func TestOpeningTagsPDF(t *testing.T) {
	tags := func(marks ...string) []plangen.LabelSpec {
		var out []plangen.LabelSpec
		for i, m := range marks {
			out = append(out, plangen.LabelSpec{Text: m, Left: 300 + float64(i)*180, Top: 600})
		}
		return out
	}
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "GROUND FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: append(tags("W01", "W02", "W05", "W02"), plangen.Notes(120, 140, "W1 WALL TYPE, SEE ASSEMBLIES")...)},
		plangen.SheetSpec{Number: "A-601", Title: "WINDOW SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: append(plangen.Notes(120, 140, "WINDOW SCHEDULE", "MARK", "W01", "W02", "W03"),
				plangen.Notes(400, 184, "3'-0\" X 4'-0\" CASEMENT", "2'-0\" X 3'-0\" AWNING", "6'-0\" X 4'-0\" SLIDER")...)},
	)
	notInSched := byRule(fs, "consistency-tag-not-in-schedule")
	if len(notInSched) != 1 || notInSched[0].SheetNumber != "A-101" || notInSched[0].Anchors[0].Text != "W05" {
		t.Errorf("tags not in schedule: %v", anchorTexts(notInSched))
	}
	notOnPlans := byRule(fs, "consistency-schedule-mark-not-on-plans")
	if len(notOnPlans) != 1 || notOnPlans[0].SheetNumber != "A-601" || notOnPlans[0].Anchors[0].Text != "W03" {
		t.Errorf("marks on no plan: %v", anchorTexts(notOnPlans))
	}
	if got := byRule(fs, "consistency-schedule-mark-repeated"); len(got) != 0 {
		t.Errorf("repeated marks in a schedule without any: %v", anchorTexts(got))
	}

	// One mark listed for two openings; and a schedule sheet that also
	// draws every window tagged with its mark (each mark twice), which is
	// not a repetition.
	plan := plangen.SheetSpec{Number: "A-101", Title: "GROUND FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: tags("W01", "W02", "W03", "W04")}
	fs = reviewPDF(t, plan,
		plangen.SheetSpec{Number: "A-601", Title: "WINDOW SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: plangen.Notes(120, 140, "WINDOW SCHEDULE", "MARK", "W01", "W02", "W03", "W04", "W05", "W06", "W01")})
	if got := byRule(fs, "consistency-schedule-mark-repeated"); len(got) != 1 || got[0].Anchors[0].Text != "W01" {
		t.Errorf("repeated mark: %v", anchorTexts(got))
	}
	fs = reviewPDF(t, plan,
		plangen.SheetSpec{Number: "A-601", Title: "WINDOW SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: append(plangen.Notes(120, 140, "WINDOW SCHEDULE", "MARK", "W01", "W02", "W03", "W04"), tags("W01", "W02", "W03", "W04")...)})
	if got := byRule(fs, "consistency-schedule-mark-repeated"); len(got) != 0 {
		t.Errorf("tagged elevations beside the table: %v", anchorTexts(got))
	}

	// A clerestory window tagged on the exterior elevations only is shown;
	// a mark tagged nowhere is not.
	fs = reviewPDF(t, plan,
		plangen.SheetSpec{Number: "A-201", Title: "EXTERIOR ELEVATIONS", Date: "2026-03-02", Scale: scale14, Labels: tags("W05", "W01")},
		plangen.SheetSpec{Number: "A-601", Title: "WINDOW SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: plangen.Notes(120, 140, "WINDOW SCHEDULE", "MARK", "W01", "W02", "W03", "W04", "W05", "W06")})
	if got := byRule(fs, "consistency-schedule-mark-not-on-plans"); len(got) != 1 || got[0].Anchors[0].Text != "W06" {
		t.Errorf("marks shown nowhere: %v", anchorTexts(got))
	}
}

func TestScaleConflictPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "S2.01", Title: "FOOTING PLAN", Date: "2026-03-02", Scale: "1:200 AT A1 SHEET | 1:400 AT A3 SHEET",
			Labels: plangen.Notes(120, 140, "FOOTING PLAN", "SCALE 1 : 100 AT A1")},
		// Look-alike: the same plan at one scale, its A3 reduction at another.
		plangen.SheetSpec{Number: "S2.02", Title: "SLAB PLAN", Date: "2026-03-02", Scale: "1:100 AT A1 SHEET | 1:200 AT A3 SHEET",
			Labels: plangen.Notes(120, 140, "SLAB PLAN", "SCALE 1 : 100 AT A1")},
		// Views at several scales: a detail sheet, a plan with a detail.
		plangen.SheetSpec{Number: "S5.01", Title: "DETAILS", Date: "2026-03-02", Scale: "AS SHOWN @ A1",
			Labels: plangen.Notes(120, 140, "1 FOOTING DETAIL", "SCALE 1:10 @ A1", "2 SLAB EDGE DETAIL", "SCALE 1:20 @ A1", "3 PLAN", "SCALE 1:100 @ A1")},
		plangen.SheetSpec{Number: "S2.03", Title: "FOOTING PLAN", Date: "2026-03-02", Scale: "1:100 AT A1",
			Labels: plangen.Notes(120, 140, "FOOTING PLAN", "SCALE 1:100 AT A1", "DETAIL A", "SCALE 1:20 AT A1")},
	)
	got := byRule(fs, "consistency-scale-conflict")
	if len(got) != 1 || got[0].SheetNumber != "S2.01" {
		t.Errorf("scale conflicts: %v", anchorTexts(got))
	}
}

func TestIssueStatusPDF(t *testing.T) {
	stamp := func(text string) plangen.LabelSpec {
		return plangen.LabelSpec{Text: text, Left: plangen.PageWidth - 330, Top: plangen.PageHeight - 420, Size: 14}
	}
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{stamp("REVISION SET 1 (PREBID ADDENDUM)")}},
		plangen.SheetSpec{Number: "A-102", Title: "ROOF PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{stamp("DESIGN DEVELOPMENT")}},
		plangen.SheetSpec{Number: "A-103", Title: "CEILING PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{stamp("90% CONSTRUCTION DOCUMENTS")}},
		// A set issued for the permit and another purpose at once.
		plangen.SheetSpec{Number: "A-204", Title: "DETAILS", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{stamp("PERMIT / BID SET")}},
		plangen.SheetSpec{Number: "A-205", Title: "DETAILS", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{stamp("ISSUED FOR REVIEW & PERMIT")}},
		// Look-alikes: the statuses a permit set carries, and a note that
		// is no stamp.
		plangen.SheetSpec{Number: "A-201", Title: "ELEVATIONS", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{stamp("ISSUED FOR PERMIT")}},
		plangen.SheetSpec{Number: "A-202", Title: "SECTIONS", Date: "2026-03-02", Scale: scale14,
			Labels: append([]plangen.LabelSpec{stamp("CONSTRUCTION DOCUMENTS")}, plangen.Notes(120, 140, "NOTE: DRAWING IS FOR REFERENCE ONLY.")...)},
		// A bid issue in the revision history of a sheet since issued for
		// permit is history.
		plangen.SheetSpec{Number: "A-203", Title: "DETAILS", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{stamp("ISSUED FOR BID 01/02/26"),
				{Text: "ISSUED FOR PERMIT 03/02/26", Left: plangen.PageWidth - 330, Top: plangen.PageHeight - 396, Size: 10}}},
	)
	got := byRule(fs, "completeness-issue-status")
	sheetsFlagged := map[string]bool{}
	for _, f := range got {
		sheetsFlagged[f.SheetNumber] = true
	}
	if len(got) != 3 || !sheetsFlagged["A-101"] || !sheetsFlagged["A-102"] || !sheetsFlagged["A-103"] {
		t.Errorf("issue status: %v", anchorTexts(got))
	}
	if n := len(byRule(fs, "completeness-preliminary-stamp")); n != 0 {
		t.Errorf("%d preliminary-stamp findings on a set with none", n)
	}
}

func TestEmptySchedulePDF(t *testing.T) {
	widths := []float64{60, 220, 120, 120, 120, 120}
	header := []string{"SYM.", "CIRCUIT", "CONDUCTOR", "SIZE (AWG)", "RACEWAY", "AMPACITY"}
	blankLabels, blankRules := plangen.Table(120, 200, widths, header,
		[]string{"1", "PV DC SOURCE CIRCUITS", "", "", "", ""},
		[]string{"2", "PV DC OUTPUT CIRCUITS", "", "", "", ""},
		[]string{"3", "INVERTER AC OUTPUT", "", "", "", ""})
	fullLabels, fullRules := plangen.Table(120, 200, widths, header,
		[]string{"1", "PV DC SOURCE CIRCUITS", "CU", "10", "EMT", "40"},
		[]string{"2", "PV DC OUTPUT CIRCUITS", "CU", "8", "EMT", "55"},
		[]string{"3", "INVERTER AC OUTPUT", "CU", "6", "EMT", ""})
	// A revision table is blank until the set is revised.
	revLabels, revRules := plangen.Table(1400, 200, []float64{60, 120, 300, 60},
		[]string{"REV", "DATE", "DESCRIPTION", "BY"}, []string{"", "", "", ""}, []string{"", "", "", ""})
	// An installation certificate and a special inspection log are
	// filled in the field by the installer and the inspector.
	certLabels, certRules := plangen.Table(120, 700, []float64{200, 100, 100, 100, 100, 100},
		[]string{"INSULATION INSTALLED", "R-VALUE", "THICKNESS", "MFR.", "INSTALLER", "HERS VERIFIED"},
		[]string{"ATTIC", "R-38", "", "", "", ""}, []string{"WALLS", "R-21", "", "", "", ""}, []string{"FLOOR", "R-19", "", "", "", ""})
	logLabels, logRules := plangen.Table(1400, 700, []float64{300, 80, 80, 160, 100},
		[]string{"VERIFICATION AND INSPECTION", "CONT.", "PERIODIC", "INSPECTOR", "INITIALS"},
		[]string{"VERIFY REINFORCEMENT", "", "X", "", ""}, []string{"CONCRETE PLACEMENT", "X", "", "", ""}, []string{"ANCHORS CAST IN CONCRETE", "", "X", "", ""})
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "E-601", Title: "CONDUCTOR SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: blankLabels, Strokes: blankRules},
		plangen.SheetSpec{Number: "E-602", Title: "CONDUCTOR SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: append(append(append(fullLabels, revLabels...), certLabels...), logLabels...), Strokes: append(append(append(fullRules, revRules...), certRules...), logRules...)},
	)
	// The inspector's task "VERIFY REINFORCEMENT" is no open question.
	if got := byRule(fs, "completeness-unfinished-text"); len(got) != 0 {
		t.Errorf("special inspection tasks as unfinished text: %v", anchorTexts(got))
	}
	got := byRule(fs, "completeness-empty-schedule-cell")
	if len(got) != 1 || got[0].SheetNumber != "E-601" || !strings.Contains(got[0].Anchors[0].Text, "CONDUCTOR") {
		t.Errorf("empty schedules: %v", anchorTexts(got))
	}
}

func TestSetIndexPDF(t *testing.T) {
	// A cover whose drawing index lists the set's short numbers after the
	// titles, under discipline headings, with a range and a sheet of two
	// subjects; sheets 1-6 carry "Drawing Name:" title blocks.
	row := func(title, number string, top float64) []plangen.LabelSpec {
		return []plangen.LabelSpec{{Text: title, Left: 200, Top: top}, {Text: number, Left: 520, Top: top}}
	}
	var index []plangen.LabelSpec
	index = append(index, plangen.LabelSpec{Text: "DRAWING INDEX", Left: 200, Top: 300, Size: 16})
	index = append(index, plangen.LabelSpec{Text: "FLOOR PLANS", Left: 200, Top: 330})
	for i, r := range [][2]string{{"SITE PLAN", "1"}, {"MAIN FLOOR PLAN", "2"}, {"ROOF PLAN", "3"}, {"DECK DETAILS AND PLAN", "4"},
		{"GENERAL NOTES", "5"}, {"CONSTRUCTION ASSEMBLIES", "5"}, {"DETAILS", "6-7"}, {"ELECTRICAL PLAN", "9"}} {
		index = append(index, row(r[0], r[1], 360+float64(i)*24)...)
	}
	specs := []plangen.SheetSpec{{Number: "", Title: "COVER", Labels: index}}
	titles := []string{"SITE PLAN", "MAIN FLOOR PLAN", "ROOF PLAN", "DECK PLAN AND SECTION", "GENERAL NOTES & CONSTRUCTION ASSEMBLIES", "DETAILS", "DETAILS", "WINDOW SCHEDULE"}
	for i, title := range titles {
		specs = append(specs, plangen.SheetSpec{Number: strconv.Itoa(i + 1), Title: title, Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{{Text: "Drawing Name: " + title, Left: plangen.PageWidth - 700, Top: plangen.PageHeight - 420}}})
	}
	fs := reviewPDF(t, specs...)
	mismatch := byRule(fs, "completeness-index-title-mismatch")
	if len(mismatch) != 1 || mismatch[0].SheetNumber != "4" {
		t.Errorf("title mismatches: %v", anchorTexts(mismatch))
	}
	missing := byRule(fs, "completeness-sheet-index-missing-sheet")
	if len(missing) != 1 || !strings.Contains(missing[0].Rationale, "lists 9") {
		t.Errorf("missing: %v", anchorTexts(missing))
	}
	unlisted := byRule(fs, "completeness-sheet-not-in-index")
	if len(unlisted) != 1 || unlisted[0].SheetNumber != "8" {
		t.Errorf("unlisted: %v", anchorTexts(unlisted))
	}
	if dup := byRule(fs, "completeness-duplicate-sheet-number"); len(dup) != 0 {
		t.Errorf("a sheet with two subjects is not a duplicate: %v", anchorTexts(dup))
	}
}

func TestCodeAnalysisPairsPDF(t *testing.T) {
	// The code analysis prints each value under its label, as title-block
	// style tables do; the line patterns alone would read none of them.
	below := func(left float64, label, value string) []plangen.LabelSpec {
		return []plangen.LabelSpec{{Text: label, Left: left, Top: 300, Size: 10}, {Text: value, Left: left, Top: 318, Size: 14}}
	}
	var block []plangen.LabelSpec
	block = append(block, plangen.LabelSpec{Text: "CODE ANALYSIS", Left: 200, Top: 260, Size: 16})
	block = append(block, below(200, "OCCUPANCY GROUP:", "R-3")...)
	block = append(block, below(420, "CONSTRUCTION TYPE:", "V-B")...)
	block = append(block, below(640, "SPRINKLERED:", "NO")...)
	block = append(block, plangen.Notes(200, 380, "APPLICABLE CODES: 2021 IRC")...)
	stair := plangen.Notes(120, 140, "STAIR NOTES", "14 RISERS @ 8 1/4\"")
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: block},
		plangen.SheetSpec{Number: "A-301", Title: "STAIR SECTION", Date: "2026-03-02", Scale: scale14, Labels: stair},
	)
	for _, id := range []string{"completeness-occupancy-stated", "completeness-construction-type-stated", "completeness-sprinklers-stated"} {
		if got := byRule(fs, id); len(got) != 0 {
			t.Errorf("%s on a set that states it under its label", id)
		}
	}
	// The occupancy read from the pair makes the set residential.
	if got := byRule(fs, "irc-r311.7.5.1-riser-height"); len(got) != 1 {
		t.Errorf("IRC riser rule: %v", anchorTexts(got))
	}
	// The same cover without the values: each field is reported missing.
	// (Under the building code: the IRC has no construction types.)
	empty := []plangen.LabelSpec{{Text: "CODE ANALYSIS", Left: 200, Top: 260, Size: 16}}
	empty = append(empty, plangen.Notes(200, 300, "PROJECT: NEW RESIDENCE", "APPLICABLE CODES: 2021 IBC", "SCOPE OF WORK: NEW SINGLE FAMILY DWELLING")...)
	fs = reviewPDF(t,
		plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: empty},
		plangen.SheetSpec{Number: "A-301", Title: "STAIR SECTION", Date: "2026-03-02", Scale: scale14, Labels: stair},
	)
	for _, id := range []string{"completeness-occupancy-stated", "completeness-construction-type-stated", "completeness-sprinklers-stated"} {
		if got := byRule(fs, id); len(got) != 1 {
			t.Errorf("%s: %d findings on a cover that does not state it", id, len(got))
		}
	}
}

func TestMissingDocumentsPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140,
				"ENGINEERED TRUSSES @ 24\" O.C. PER LAYOUTS",
				"ENGINEERED TRUSSES @ 24\" O.C. PER LAYOUTS",
				"FOOTINGS PER SOILS REPORT BY GEOTECH INC.",
				// Look-alikes: instructions about products, not documents
				// the permit relies on.
				"INSTALL PER MANUFACTURER'S SPECIFICATIONS.",
				"ALL OMISSIONS OR CONFLICTS BETWEEN THE DRAWINGS AND SPECIFICATIONS SHALL BE BROUGHT TO THE ARCHITECT.")},
		// The structural calculations are in the set: references to them
		// are not findings.
		plangen.SheetSpec{Number: "S-001", Title: "STRUCTURAL CALCULATIONS", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, "BEAMS PER STRUCTURAL CALCULATIONS")},
	)
	got := byRule(fs, "completeness-reference-to-missing-document")
	kinds := map[string]bool{}
	for _, f := range got {
		for _, k := range []string{"truss layouts", "soils report", "structural engineer", "specifications", "calculations"} {
			if strings.Contains(f.Rationale, "relies on "+k) {
				kinds[k] = true
			}
		}
	}
	if len(got) != 2 || !kinds["truss layouts"] || !kinds["soils report"] {
		t.Errorf("missing documents: %v", anchorTexts(got))
	}
}

func TestCodeAnalysisOutcomesPDF(t *testing.T) {
	plan := plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "2. PROVIDE BLOCKING AT ALL GRAB BARS.")}
	// Missing: the cover is read in full and states none of it; each
	// finding says where it belongs.
	fs := reviewPDF(t, plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: plangen.Notes(200, 300, "PROJECT: NEW RESIDENCE", "SCOPE OF WORK: NEW SINGLE FAMILY DWELLING WITH ATTACHED GARAGE")}, plan)
	if got := byRule(fs, "completeness-occupancy-stated"); len(got) != 1 || !strings.Contains(got[0].Rationale, "on G-001") {
		t.Errorf("missing: %+v", got)
	}
	if got := byRule(fs, "coverage-code-analysis-unread"); len(got) != 0 {
		t.Errorf("unread reported for a cover read in full")
	}
	// Could not read: the cover carries only its title block (a scanned
	// cover under a vector title block): no "not stated", one info.
	fs = reviewPDF(t, plangen.SheetSpec{Number: "G-001", Title: "COVER"}, plan)
	for _, f := range fs {
		if f.Topic == "completeness.code-analysis" {
			t.Errorf("%s on a set whose cover could not be read", f.RuleID)
		}
	}
	if got := byRule(fs, "coverage-code-analysis-unread"); len(got) != 1 || got[0].Severity != SeverityInfo || got[0].SheetNumber != "G-001" {
		t.Errorf("could not read: %+v", got)
	}
	// Not asked: a sheet of a set without a building (no floor plan, no
	// architectural sheet).
	fs = reviewPDF(t, plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: plangen.Notes(200, 300, "PV SYSTEM DESIGN", "ROOF MOUNTED PHOTOVOLTAIC SYSTEM, 7.2 KW DC")},
		plangen.SheetSpec{Number: "E-001", Title: "SINGLE LINE DIAGRAM", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "2. LABEL ALL DISCONNECTS.")})
	for _, f := range fs {
		if f.Topic == "completeness.code-analysis" || f.RuleID == "coverage-code-analysis-unread" {
			t.Errorf("%s on a set with no building", f.RuleID)
		}
	}
}

func TestSetIndexNCSWithDuplicatePDF(t *testing.T) {
	// An NCS index in two columns with a number listed twice and a short
	// number (E1): the check still runs, row by row, titles after numbers.
	var index []plangen.LabelSpec
	index = append(index, plangen.LabelSpec{Text: "SHEET INDEX", Left: 200, Top: 300, Size: 16})
	col := func(left float64, rows ...[2]string) {
		for i, r := range rows {
			index = append(index, plangen.LabelSpec{Text: r[0] + " " + r[1], Left: left, Top: 340 + float64(i)*24})
		}
	}
	col(200, [2]string{"G-001", "COVER SHEET"}, [2]string{"A-101", "FLOOR PLAN"}, [2]string{"A-101", "FLOOR PLAN"}, [2]string{"A-102", "ROOF PLAN"})
	col(520, [2]string{"A-201", "ELEVATIONS"}, [2]string{"A-301", "SECTIONS"}, [2]string{"E1", "ELECTRICAL PLAN"})
	specs := []plangen.SheetSpec{{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: index}}
	for _, n := range [][2]string{{"A-101", "FLOOR PLAN"}, {"A-201", "ELEVATIONS"}, {"A-301", "SECTIONS"}, {"E1", "ELECTRICAL PLAN"}, {"A-401", "DETAILS"}} {
		specs = append(specs, plangen.SheetSpec{Number: n[0], Title: n[1], Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{{Text: "SHEET TITLE: " + n[1], Left: plangen.PageWidth - 700, Top: plangen.PageHeight - 420}}})
	}
	fs := reviewPDF(t, specs...)
	missing := byRule(fs, "completeness-sheet-index-missing-sheet")
	if len(missing) != 1 || !strings.Contains(missing[0].Rationale, "A-102") {
		t.Errorf("missing: %v", anchorTexts(missing))
	}
	unlisted := byRule(fs, "completeness-sheet-not-in-index")
	if len(unlisted) != 1 || unlisted[0].SheetNumber != "A-401" {
		t.Errorf("unlisted: %v", anchorTexts(unlisted))
	}
	if got := byRule(fs, "completeness-index-title-mismatch"); len(got) != 0 {
		t.Errorf("titles paired across columns: %v", anchorTexts(got))
	}
	// The number listed twice is a finding of its own, on its second row.
	if dup := byRule(fs, "completeness-index-duplicate-entry"); len(dup) != 1 || !strings.Contains(dup[0].Rationale, "lists A-101 twice") {
		t.Errorf("duplicate: %v", anchorTexts(dup))
	}
}

func TestDrawingKindReferencesPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140,
				"1. SEE REFLECTED CEILING PLAN FOR CEILING HEIGHTS.",
				"2. FOR WALL FINISHES AND BASE TYPES SEE INTERIOR",
				"ELEVATIONS AND THE ROOM FINISH SCHEDULE.",
				"3. SEE MECHANICAL DRAWINGS FOR DUCT ROUTING.",
				// Look-alikes: kinds the set has (a structural sheet,
				// a roof plan, a wall section drawn here), a kind named
				// with its sheet or as on this sheet, a document.
				"4. REFER TO STRUCTURAL DRAWINGS FOR BEAM SIZES.",
				"5. SEE ROOF PLAN FOR DRAINAGE.",
				"6. SEE WALL SECTIONS FOR INSULATION.",
				"7. SEE REFLECTED CEILING PLAN 3/A-102 AT LOBBY.",
				"8. SEE DETAILS THIS SHEET.",
				"TYPICAL WALL SECTION")},
		plangen.SheetSpec{Number: "A-102", Title: "ROOF PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "COORDINATE WITH MECHANICAL DRAWINGS FOR CURBS.")},
		plangen.SheetSpec{Number: "S-101", Title: "FOUNDATION PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "TOP OF FOOTING -2'-0\"")},
	)
	got := byRule(fs, "completeness-reference-to-missing-drawing")
	kinds := map[string]string{}
	for _, f := range got {
		for _, k := range []string{"reflected ceiling plans", "interior elevations", "mechanical drawings"} {
			if strings.Contains(f.Rationale, "refers to "+k+" (") {
				kinds[k] = f.Rationale
			}
		}
	}
	if len(got) != 3 || len(kinds) != 3 {
		t.Fatalf("drawing references: %v", anchorTexts(got))
	}
	if !strings.Contains(kinds["mechanical drawings"], "(and 1 more such note)") {
		t.Errorf("mechanical: %s", kinds["mechanical drawings"])
	}
	if r := kinds["interior elevations"]; !strings.Contains(r, "SEE INTERIOR ELEVATIONS AND THE ROOM FINISH SCHEDULE.") {
		t.Errorf("a note wrapped over two lines: %s", r)
	}
	for _, f := range got {
		if f.Page != 1 || len(f.Anchors) == 0 || !strings.HasPrefix(f.Anchors[0].Text, "SEE") {
			t.Errorf("anchor: page %d %v", f.Page, anchorTexts([]Finding{f}))
		}
	}
}

func TestStackedCalloutsPDF(t *testing.T) {
	at := func(text string, left, top, size float64) plangen.LabelSpec {
		return plangen.LabelSpec{Text: text, Left: left, Top: top, Size: size}
	}
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{
				// A detail mark over its sheet in a bubble; a matchline's tag.
				at("7", 409, 300, 9), at("A-213", 400, 311, 9),
				at("A-105", 600, 500, 12), at("MATCH LINE", 590, 526, 12),
				// A bubble drops the hyphen the title block prints.
				at("B", 1209, 500, 9), at("A302", 1200, 511, 9),
				// Look-alikes: a mark over a sheet in the set, a room name
				// over its number, a door mark over a short number, an
				// equipment code under a mark, a grid bubble well above a
				// number, a number beside (not over) a sheet number, and a
				// matchline tagged with this sheet's own number.
				at("2", 809, 300, 9), at("A-102", 800, 311, 9),
				at("OFFICE", 1000, 300, 9), at("101", 1006, 311, 9),
				at("4", 1204, 300, 9), at("A-2", 1200, 311, 9),
				at("1", 1406, 300, 9), at("A1015", 1400, 311, 9),
				at("C", 409, 700, 12), at("A-301", 400, 760, 12),
				at("12", 600, 700, 9), at("A-401", 680, 711, 9),
				at("A-101", 900, 700, 12), at("MATCH LINE", 890, 726, 12),
			}},
		plangen.SheetSpec{Number: "A-102", Title: "ROOF PLAN", Date: "2026-03-02", Scale: scale14},
	)
	got := byRule(fs, "completeness-reference-to-missing-sheet")
	want := map[string]bool{"A-213": false, "A-105": false, "A302": false}
	for _, f := range got {
		for k := range want {
			if strings.Contains(f.Rationale, "sheet "+k+" is not") {
				want[k] = true
			}
		}
	}
	if len(got) != 3 || !want["A-213"] || !want["A-105"] || !want["A302"] {
		t.Errorf("stacked references: %v", anchorTexts(got))
	}
}

// A set with a page not read could hold the drawing the note points at:
// the kind is not reported.
func TestDrawingKindReferencesUnreadPagePDF(t *testing.T) {
	pages := specPages(t, plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "1. SEE REFLECTED CEILING PLAN FOR CEILING HEIGHTS.")})
	scanned := pages[0]
	scanned.Number, scanned.Words, scanned.Readable = 2, nil, false
	fs := reviewPages(t, loadAll(t), pages[0], scanned)
	if got := byRule(fs, "completeness-reference-to-missing-drawing"); len(got) != 0 {
		t.Errorf("reported with a page unread: %v", anchorTexts(got))
	}
	if got := byRule(reviewPages(t, loadAll(t), pages[0]), "completeness-reference-to-missing-drawing"); len(got) != 1 {
		t.Errorf("the same sheet alone: %v", anchorTexts(got))
	}
}

// A view of the kind drawn on a sheet titled as another is the kind: the
// floor plan sheet also draws the reflected ceiling plan. A caption is
// not a pointer.
func TestDrawingKindCaptionPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: append(plangen.Notes(120, 140, "1. SEE REFLECTED CEILING PLAN FOR CEILING HEIGHTS."),
				plangen.LabelSpec{Text: "FIRST FLOOR REFLECTED CEILING PLAN SCALE: 1/8\" = 1'-0\"", Left: 900, Top: 900},
				// A key plan's caption names a drawing; it points nowhere.
				plangen.LabelSpec{Text: "REFERENCE SITE PLAN", Left: 900, Top: 1100},
				// A kind named with its sheet is the sheet check's.
				plangen.LabelSpec{Text: "SEE EXTERIOR ELEVATIONS, SHEET A-201.", Left: 120, Top: 400},
				// Notes whose heading runs into their first note.
				plangen.LabelSpec{Text: "REFER TO GENERAL NOTES FOR CONCRETE COVER.", Left: 120, Top: 300},
				plangen.LabelSpec{Text: "GENERAL NOTES: 1. ALL WORK SHALL COMPLY WITH THE CODES ADOPTED.", Left: 120, Top: 1300})},
	)
	if got := byRule(fs, "completeness-reference-to-missing-drawing"); len(got) != 0 {
		t.Errorf("kind drawn on the sheet: %v", anchorTexts(got))
	}
}

// A structural package relying on the architect's, the MEP and (in one
// note listing both) the civil and landscape drawings: reported (an examiner wants the drawings the notes rely on in the
// submittal); its own kinds (framing, foundation) are not.
func TestDrawingKindOtherDisciplinesPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "S-101", Title: "FOUNDATION PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140,
				"1. SEE ARCHITECTURAL DRAWINGS FOR DIMENSIONS NOT SHOWN.",
				"2. REFER TO MEP DRAWINGS FOR SLEEVES AND OPENINGS.",
				"3. SEE FRAMING PLANS FOR HOLDOWNS.",
				"4. FOOTINGS AS SHOWN ON FOUNDATION PLAN.",
				"5. EQUIPMENT PADS PER UNITS SHOWN ON CIVIL/LANDSCAPE DRAWINGS.")},
		plangen.SheetSpec{Number: "S-201", Title: "ROOF FRAMING PLAN", Date: "2026-03-02", Scale: scale14},
	)
	got := byRule(fs, "completeness-reference-to-missing-drawing")
	var kinds []string
	for _, f := range got {
		kinds = append(kinds, f.Rationale)
	}
	all := strings.Join(kinds, "|")
	if len(got) != 3 || !strings.Contains(all, "refers to architectural drawings (") ||
		!strings.Contains(all, "refers to MEP drawings (") ||
		!strings.Contains(all, "refers to civil drawings and landscape drawings (") {
		t.Errorf("other disciplines: %v", kinds)
	}
}

func TestCodeAnalysisTableRowsPDF(t *testing.T) {
	// A ruled code-analysis table: each value in the cell right of its
	// label, in the same type, without a digit ("V-B", "B", "YES").
	rows := func(occ, ctype, spr string) ([]plangen.LabelSpec, []plangen.Stroke) {
		return plangen.Table(120, 600, []float64{260, 300}, []string{"CODE ANALYSIS", ""},
			[]string{"OCCUPANCY CLASSIFICATION", occ},
			[]string{"CONSTRUCTION TYPE", ctype},
			[]string{"SPRINKLERED", spr},
			[]string{"NUMBER OF STORIES", "1"})
	}
	plan := plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.")}
	ids := []string{"completeness-occupancy-stated", "completeness-construction-type-stated", "completeness-sprinklers-stated"}
	labels, rules := rows("B", "II-B", "YES")
	fs := reviewPDF(t, plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: append(labels, plangen.Notes(120, 140, "APPLICABLE CODES: 2021 IBC")...), Strokes: rules}, plan)
	for _, id := range ids {
		if got := byRule(fs, id); len(got) != 0 {
			t.Errorf("%s on a set that states it in its code-analysis table", id)
		}
	}
	// The same table with its value cells left blank: each is missing.
	// (A bare "SPRINKLERED" caption is read as a statement by the line
	// patterns of facts.go, so only the first two are asserted here.)
	labels, rules = rows("", "", "")
	fs = reviewPDF(t, plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02",
		Labels: append(labels, plangen.Notes(120, 140, "APPLICABLE CODES: 2021 IBC")...), Strokes: rules}, plan)
	for _, id := range ids[:2] {
		if got := byRule(fs, id); len(got) != 1 {
			t.Errorf("%s: %d findings on a table whose value cells are blank", id, len(got))
		}
	}
}

func TestDeferredSubmittalListPDF(t *testing.T) {
	notes := plangen.SheetSpec{Number: "S-1", Title: "ROOF FRAMING PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140,
			"1. PRE-MANUFACTURED TRUSSES @ 24\" O.C. PER MANUFACTURER'S CALCULATIONS.",
			"2. FIRE SPRINKLERS (NFPA 13D): DEFERRED SUBMITTAL.")}
	cover := func(lines ...string) plangen.SheetSpec {
		return plangen.SheetSpec{Number: "T-1", Title: "TITLE SHEET", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, append([]string{"PROJECT DATA", "SCOPE OF WORK: NEW SINGLE FAMILY DWELLING"}, lines...)...)}
	}
	kinds := func(fs []Finding) map[string]bool {
		out := map[string]bool{}
		for _, f := range byRule(fs, "completeness-reference-to-missing-document") {
			for _, k := range []string{"truss layouts", "deferred submittals"} {
				if strings.Contains(f.Rationale, "relies on "+k) {
					out[k] = true
				}
			}
		}
		return out
	}
	// The cover lists the deferred items: the notes defer what the list
	// names, which is what the building official approves.
	got := kinds(reviewPDF(t, cover("DEFERRED SUBMITTALS", "1. FIRE SPRINKLER SYSTEM (NFPA 13D)", "2. PRE-MANUFACTURED ROOF TRUSSES",
		"DEFERRED SUBMITTAL DOCUMENTS SHALL BE SUBMITTED TO THE ARCHITECT FOR REVIEW."), notes))
	if len(got) != 0 {
		t.Errorf("deferred items listed on the cover reported: %v", got)
	}
	// A list that does not name the trusses: the truss note relies on a
	// document neither submitted nor deferred.
	got = kinds(reviewPDF(t, cover("DEFERRED SUBMITTALS: FIRE SPRINKLER SYSTEM"), notes))
	if !got["truss layouts"] || got["deferred submittals"] {
		t.Errorf("list without trusses: %v", got)
	}
	// No list: a note deferring something is a finding (the list is what
	// is missing), and so is the truss note.
	got = kinds(reviewPDF(t, cover("DEFERRED SUBMITTAL DOCUMENTS SHALL BE SUBMITTED TO THE ARCHITECT FOR REVIEW."), notes))
	if !got["truss layouts"] || !got["deferred submittals"] {
		t.Errorf("no list: %v", got)
	}
}

func TestPreliminaryStampNotesPDF(t *testing.T) {
	stamp := func(text string) plangen.LabelSpec {
		return plangen.LabelSpec{Text: text, Left: plangen.PageWidth - 330, Top: plangen.PageHeight - 420, Size: 14}
	}
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: []plangen.LabelSpec{stamp("PRELIMINARY - NOT FOR CONSTRUCTION")}},
		plangen.SheetSpec{Number: "A-102", Title: "ROOF PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "THIS SHEET IS NOT FOR CONSTRUCTION")},
		// Look-alikes: standing notes of a sheet issued for permit.
		plangen.SheetSpec{Number: "A-201", Title: "ELEVATIONS", Date: "2026-03-02", Scale: scale14,
			Labels: append([]plangen.LabelSpec{stamp("ISSUED FOR PERMIT")}, plangen.Notes(120, 140,
				"1. DRAWINGS ARE NOT FOR CONSTRUCTION UNTIL APPROVED BY THE BUILDING DEPARTMENT.",
				"2. WORK SHOWN DASHED BY OTHERS IS NOT FOR CONSTRUCTION UNDER THIS PERMIT.",
				"3. SHEETS MARKED 'NOT FOR CONSTRUCTION' SHALL NOT BE USED IN THE FIELD.",
				"4. NOT FOR CONSTRUCTION UNLESS SIGNED AND SEALED BY THE ENGINEER OF RECORD.")...)},
	)
	got := byRule(fs, "completeness-preliminary-stamp")
	if len(got) != 2 || got[0].SheetNumber == "A-201" || got[1].SheetNumber == "A-201" {
		t.Fatalf("stamps: %v", anchorTexts(got))
	}
	for _, f := range got {
		if f.SheetNumber == "A-101" && f.Anchors[0].Text != "PRELIMINARY - NOT FOR CONSTRUCTION" {
			t.Errorf("anchor %q, want the whole stamp", f.Anchors[0].Text)
		}
	}
}

func TestConstructionTypeResidentialCodePDF(t *testing.T) {
	plan := plangen.SheetSpec{Number: "A1.0", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "1. EXT. WALLS: 2X6 @ 16\" O.C. W/ R-21 BATT.")}
	cover := func(lines ...string) plangen.SheetSpec {
		return plangen.SheetSpec{Number: "A0.0", Title: "COVER SHEET", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, append([]string{"PROJECT INFORMATION", "FIRE SPRINKLERS: NOT REQUIRED"}, lines...)...)}
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  int
	}{
		// A house under the residential code: the IRC has no construction
		// types.
		{"IRC house", []string{"OCCUPANCY GROUP: R-3 (SFD), U (GARAGE)", "CODES: 2021 IRC AS AMENDED BY THE STATE OF IDAHO; 2021 IECC; 2020 NEC"}, 0},
		{"IRC without a group", []string{"SCOPE: NEW SINGLE FAMILY RESIDENCE", "CODES: 2021 IRC, 2020 NEC"}, 0},
		// An R-3 under the building code, and a business occupancy with
		// the IRC listed beside: the type is asked for.
		{"IBC R-3", []string{"OCCUPANCY GROUP: R-3", "CODES: 2021 IBC"}, 1},
		{"IBC B", []string{"OCCUPANCY GROUP: B", "CODES: 2021 IBC, 2021 IRC"}, 1},
	} {
		fs := reviewPDF(t, cover(c.lines...), plan)
		if got := byRule(fs, "completeness-construction-type-stated"); len(got) != c.want {
			t.Errorf("%s: %d construction-type findings, want %d", c.name, len(got), c.want)
		}
	}
}

func TestSetIndexSeparateSubmittalsPDF(t *testing.T) {
	// Rows the index itself marks as submitted apart are not missing
	// sheets; a sheet merely missing still is, and so is a sheet whose
	// title is the deferred-submittal list.
	var index []plangen.LabelSpec
	index = append(index, plangen.LabelSpec{Text: "SHEET INDEX", Left: 200, Top: 300, Size: 16})
	for i, r := range [][2]string{{"G0.1", "COVER SHEET"}, {"G0.2", "DEFERRED SUBMITTALS"}, {"A1.1", "FLOOR PLAN"}, {"A1.2", "ROOF PLAN"},
		{"C1.0", "GRADING & DRAINAGE PLAN (BY OTHERS)"}, {"FP1.0", "FIRE SPRINKLER PLAN (DEFERRED SUBMITTAL)"}, {"L1.0", "LANDSCAPE PLAN - UNDER SEPARATE PERMIT"}} {
		index = append(index, plangen.LabelSpec{Text: r[0], Left: 200, Top: 340 + float64(i)*24}, plangen.LabelSpec{Text: r[1], Left: 300, Top: 340 + float64(i)*24})
	}
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "G0.1", Title: "COVER SHEET", Date: "2026-03-02", Labels: index},
		plangen.SheetSpec{Number: "A1.1", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14})
	var listed []string
	for _, f := range byRule(fs, "completeness-sheet-index-missing-sheet") {
		listed = append(listed, f.Rationale)
	}
	if len(listed) != 2 || !strings.Contains(strings.Join(listed, " "), "lists A1.2") || !strings.Contains(strings.Join(listed, " "), "lists G0.2") {
		t.Errorf("missing: %v", listed)
	}
}

func TestIndexTitleSpellingsPDF(t *testing.T) {
	// Index title, title-block title: the same title written short or
	// long is no contradiction; another subject or level is.
	pairs := [][3]string{
		{"A-1", "1ST FLOOR PLAN", "FIRST FLOOR PLAN"},
		{"A-2", "ELECTRICAL PLAN", "ELECT. PLAN"},
		{"A-3", "FOUNDATION PLAN", "FNDN. PLAN & DETAILS"},
		{"A-4", "INTERIOR ELEVATIONS", "ENLARGED PLANS & INT. ELEVS."},
		{"A-5", "WALL SECTIONS", "DETAILS"},
		{"A-6", "FIRST FLOOR PLAN", "2ND FLOOR PLAN"},
		{"A-7", "CAL GREEN CHECKLIST", "CALGREEN CHECKLIST"},
	}
	index := []plangen.LabelSpec{{Text: "SHEET INDEX", Left: 1300, Top: 300, Size: 16},
		{Text: "T-1", Left: 1300, Top: 340}, {Text: "TITLE SHEET", Left: 1400, Top: 340}}
	for i, p := range pairs {
		index = append(index, plangen.LabelSpec{Text: p[0], Left: 1300, Top: 364 + float64(i)*24}, plangen.LabelSpec{Text: p[1], Left: 1400, Top: 364 + float64(i)*24})
	}
	specs := []plangen.SheetSpec{{Number: "T-1", Title: "TITLE SHEET", Date: "2026-03-02", Labels: index}}
	for _, p := range pairs {
		specs = append(specs, plangen.SheetSpec{Number: p[0], Title: p[2], Date: "2026-03-02", Scale: scale14})
	}
	got := byRule(reviewPDF(t, specs...), "completeness-index-title-mismatch")
	flagged := map[string]bool{}
	for _, f := range got {
		flagged[f.SheetNumber] = true
	}
	if len(got) != 2 || !flagged["A-5"] || !flagged["A-6"] {
		t.Errorf("title mismatches: %v", anchorTexts(got))
	}
}

func TestCodeAnalysisUSPhrasingsPDF(t *testing.T) {
	// Code-analysis blocks as US covers print them: each states all three
	// facts, so none is reported missing.
	plan := plangen.SheetSpec{Number: "A1.0", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "1. EXT. WALLS: 2X6 @ 16\" O.C.")}
	for _, lines := range [][]string{
		{"OCC. GROUP: R3", "CONSTRUCTION TYPE: V-B", "FIRE SPRINKLERS: NONE"},
		{"OCCUPANCY CLASSIFICATION: R-3/U", "CONSTRUCTION: V-B", "SPRINKLER SYSTEM: NOT REQUIRED"},
		{"OCCUPANCY: B / S-1", "BUILDING TYPE: II-B", "AUTOMATIC SPRINKLER SYSTEM: YES PER NFPA 13"},
		// Each label over its value, in the same type.
		{"OCCUPANCY GROUP", "R-3", "CONSTRUCTION TYPE", "V-B", "SPRINKLERED", "NO"},
		{"OCCUPANCY: R-3", "TYPE VB CONSTRUCTION", "FIRE SPRINKLERS: NO"},
	} {
		fs := reviewPDF(t, plangen.SheetSpec{Number: "A0.0", Title: "COVER SHEET", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, append(append([]string{"CODE ANALYSIS"}, lines...), "2021 IBC")...)}, plan)
		for _, f := range fs {
			if f.Topic == "completeness.code-analysis" {
				t.Errorf("%v: %s", lines, f.RuleID)
			}
		}
	}
}

func TestEnergyCertificateInSetPDF(t *testing.T) {
	// The REScheck certificate is a page of the file: the plan's reference
	// to it is answered. Without it, the reference is a finding.
	plan := plangen.SheetSpec{Number: "A1.0", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "INSULATION PER REScheck: R-49 CEILING, R-21 WALLS")}
	cert := plangen.SheetSpec{Labels: plangen.Notes(120, 140, "REScheck Software Version 4.7.2", "Compliance Certificate",
		"Project: SMITH RESIDENCE", "Energy Code: 2021 IECC", "Envelope PASSES: Design 5% better than code")}
	if got := byRule(reviewPDF(t, plan, cert), "completeness-reference-to-missing-document"); len(got) != 0 {
		t.Errorf("certificate in the file reported missing: %v", anchorTexts(got))
	}
	if got := byRule(reviewPDF(t, plan), "completeness-reference-to-missing-document"); len(got) != 1 {
		t.Errorf("certificate not in the file: %v", anchorTexts(got))
	}
}

// TestSheetReferenceLookAlikesPDF: abbreviations with a slash ("W/ R-19"),
// a document named like a sheet ("SEE T-24 FORMS") and a sheet the index
// lists as by others are not references to missing sheets; a letter
// callout and a written reference still are.
func TestSheetReferenceLookAlikesPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-1", Title: "COVER SHEET", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, "SHEET INDEX", "A-1 COVER SHEET", "A-2 FLOOR PLAN", "C1.0 GRADING PLAN (BY OTHERS)")},
		plangen.SheetSpec{Number: "A-2", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140,
				"1. EXTERIOR WALLS 2X6 @ 16\" O.C. W/ R-19 INSULATION.",
				"2. HERS VERIFICATION REQUIRED. SEE T-24 FORMS.",
				"3. REFER TO C1.0 FOR GRADING.",
				"4. FOR STAIR SECTION SEE SHEET A-3.",
				"B/A-4")},
	)
	got := byRule(fs, "completeness-reference-to-missing-sheet")
	var targets []string
	for _, f := range got {
		for _, tgt := range []string{"R-19", "T-24", "C1.0", "A-3", "A-4"} {
			if strings.Contains(f.Rationale, "sheet "+tgt+" is not") {
				targets = append(targets, tgt)
			}
		}
	}
	sort.Strings(targets)
	if strings.Join(targets, " ") != "A-3 A-4" {
		t.Errorf("references: %v (%v)", targets, anchorTexts(got))
	}
}

// TestCodeStatementsUSPhrasingsPDF: codes stated with their edition in the
// ways US covers print them count as stated.
func TestCodeStatementsUSPhrasingsPDF(t *testing.T) {
	plan := plangen.SheetSpec{Number: "A1.0", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: plangen.Notes(120, 140, "1. EXT. WALLS: 2X6 @ 16\" O.C.")}
	for _, code := range []string{
		"INTERNATIONAL RESIDENTIAL CODE, 2021 EDITION",
		"INTERNATIONAL BUILDING CODE (2021)",
		"2021 OREGON RESIDENTIAL SPECIALTY CODE (ORSC)",
		"FLORIDA BUILDING CODE - RESIDENTIAL, 8TH EDITION (2023)",
	} {
		fs := reviewPDF(t, plangen.SheetSpec{Number: "A0.0", Title: "COVER SHEET", Date: "2026-03-02",
			Labels: plangen.Notes(120, 140, "CODE ANALYSIS", "APPLICABLE CODES:", code, "OCCUPANCY: R-3", "CONSTRUCTION TYPE: V-B", "SPRINKLERED: NO")}, plan)
		if got := byRule(fs, "completeness-code-edition-stated"); len(got) != 0 {
			t.Errorf("%s: %s", code, got[0].Rationale)
		}
	}
}
