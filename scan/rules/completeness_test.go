package rules

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"planreview/scan/pdftext"
)

func TestUnreadablePagesAreReported(t *testing.T) {
	e := loadAll(t)
	scan := pdftext.Page{Number: 2, Width: testW, Height: testH, Readable: false, Reason: pdftext.ReasonImageOnly}
	fs := reviewPages(t, e, codePage(OccupancyResidential), scan)
	got := byRule(fs, "coverage-unreadable-page")
	if len(got) != 1 || got[0].Severity != SeverityInfo || got[0].Page != 2 || !strings.Contains(got[0].Rationale, "image_only") {
		t.Fatalf("unreadable page findings: %+v", got)
	}
	if len(byRule(fs, "coverage-no-readable-pages")) != 0 {
		t.Error("a set with a readable page reported as unreviewed")
	}

	// Nothing readable: never an empty, clean-looking result.
	fs = reviewPages(t, e, scan, pdftext.Page{Number: 3, Readable: false, Reason: pdftext.ReasonNoTextObjects})
	none := byRule(fs, "coverage-no-readable-pages")
	if len(none) != 1 || none[0].Severity != SeverityHigh {
		t.Fatalf("no-readable-pages finding: %+v", none)
	}
	if n := len(byRule(fs, "coverage-unreadable-page")); n != 2 {
		t.Errorf("%d unreadable-page findings, want 2", n)
	}
	for _, f := range fs {
		if strings.HasPrefix(f.RuleID, "completeness-") {
			t.Errorf("completeness rule %s judged a set it could not read", f.RuleID)
		}
	}
}

func TestSheetIndexChecks(t *testing.T) {
	e := loadAll(t)
	cover := codePage(OccupancyResidential, "SHEET INDEX", "G-001 COVER SHEET", "A-101 FLOOR PLAN", "A-102 ROOF PLAN")
	// A-101 repeats the index; the missing sheet is still reported once.
	plan := textPage(2, "A-101", "SHEET INDEX", "G-001 COVER SHEET", "A-101 FLOOR PLAN", "A-102 ROOF PLAN")
	fs := reviewPages(t, e, cover, plan, textPage(3, "A-103"), textPage(4, "A-103"))

	missing := byRule(fs, "completeness-sheet-index-missing-sheet")
	if len(missing) != 1 || !strings.Contains(missing[0].Rationale, "A-102 (ROOF PLAN)") || missing[0].Page != 1 {
		t.Fatalf("missing: %+v", missing)
	}
	if a := missing[0].Anchors; len(a) != 1 || a[0].Text != "A-102 ROOF PLAN" {
		t.Errorf("missing-sheet anchor %+v", a)
	}
	unlisted := byRule(fs, "completeness-sheet-not-in-index")
	if len(unlisted) != 1 || unlisted[0].SheetNumber != "A-103" || unlisted[0].Page != 3 {
		t.Fatalf("unlisted: %+v", unlisted)
	}
	dup := byRule(fs, "completeness-duplicate-sheet-number")
	if len(dup) != 1 || dup[0].Page != 4 || !strings.Contains(dup[0].Rationale, "page 3") {
		t.Fatalf("duplicates: %+v", dup)
	}
	// Titles come from the index when the title block has none.
	for _, f := range fs {
		if f.SheetNumber == "A-103" && f.SheetTitle != "TEST SHEET A-103" {
			t.Errorf("sheet title %q", f.SheetTitle)
		}
	}
}

func TestTitleBlockChecks(t *testing.T) {
	e := loadAll(t)
	// Pages with ten words or more: a page with a handful of words reads
	// as a raster drawing with stamps, whose title block is not asked for.
	notes := []string{"1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "2. PROVIDE BLOCKING AT ALL GRAB BARS."}
	// A number-like word in the notes, outside any title block, is not the
	// sheet's number.
	bare := textPage(2, "", append([]string{"PLAN NOTES", "A-201"}, notes...)...)
	noFields := textPage(3, "", append([]string{"NOTES"}, notes...)...)
	// Only the number, big, in the title block corner.
	noFields.Words = append(noFields.Words, pdftext.Word{Text: "A-301", Norm: "A-301", FontSize: 40,
		BBox: pdftext.BBox{Left: 0.88, Top: 0.9, Width: 0.04, Height: 0.023}})
	// A floor plan whose title block has a title but no scale.
	unscaled := textPage(4, "A-401", notes...)
	for i, w := range unscaled.Words {
		if w.Text == "TEST" {
			unscaled.Words[i].Text, unscaled.Words[i].Norm = "FLOOR", "FLOOR"
		}
		if w.Text == "SHEET" && i > 0 && unscaled.Words[i-1].Text == "FLOOR" {
			unscaled.Words[i].Text, unscaled.Words[i].Norm = "PLAN", "PLAN"
		}
		if w.Text == "SCALE:" || w.Text == "1/4\"" || w.Text == "=" || w.Text == "1'-0\"" {
			unscaled.Words[i].Text, unscaled.Words[i].Norm = "-", "-"
		}
	}
	fs := reviewPages(t, e, codePage(OccupancyResidential), bare, noFields, unscaled)

	if got := byRule(fs, "completeness-title-block-sheet-number"); len(got) != 1 || got[0].Page != 2 {
		t.Errorf("sheet number findings: %+v", got)
	}
	for _, id := range []string{"completeness-title-block-sheet-title", "completeness-title-block-date"} {
		got := byRule(fs, id)
		if len(got) != 1 || got[0].Page != 3 || got[0].SheetNumber != "A-301" {
			t.Errorf("%s: %+v", id, got)
		}
	}
	// The scale is asked of sheets whose title names a scaled view; a
	// sheet without a title cannot say whether it is a diagram.
	if got := byRule(fs, "completeness-title-block-scale"); len(got) != 1 || got[0].Page != 4 {
		t.Errorf("scale: %+v", got)
	}
	// The cover (G-001) is exempt from the scale rule; the full title
	// block of textPage satisfies every field.
	for _, f := range fs {
		if f.Page == 1 && strings.HasPrefix(f.RuleID, "completeness-title-block") {
			t.Errorf("cover: %s", f.RuleID)
		}
	}
}

func TestCodeAnalysisChecks(t *testing.T) {
	e := loadAll(t)
	// A cover read in full (notes in its drawing area) that states none of
	// the code analysis.
	cover := textPage(1, "G-001", "GENERAL NOTES", "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "2. PROVIDE BLOCKING AT ALL GRAB BARS.")
	fs := reviewPages(t, e, cover, textPage(2, "A-101", "PLAN"))
	for _, id := range []string{"completeness-code-edition-stated", "completeness-occupancy-stated",
		"completeness-construction-type-stated", "completeness-sprinklers-stated"} {
		got := byRule(fs, id)
		if len(got) != 1 || got[0].Page != 1 || len(got[0].Anchors) != 0 {
			t.Errorf("%s: %+v", id, got)
		}
	}
	fs = reviewPages(t, e, codePage(OccupancyCommercial), textPage(2, "A-101", "PLAN"))
	for _, f := range fs {
		if strings.HasPrefix(f.RuleID, "completeness-") && f.RuleID != "completeness-sheet-not-in-index" {
			t.Errorf("complete code analysis: %s: %s", f.RuleID, f.Rationale)
		}
	}
}

func TestFingerprintsSurviveResubmittal(t *testing.T) {
	e := loadAll(t)
	first := reviewPages(t, e, codePage(OccupancyResidential), textPage(2, "A-201", `14 RISERS @ 8"`, `TREAD 9"`))

	// The resubmittal: another file id, the note moved and re-spaced, a page
	// inserted before the stair sheet.
	moved := textPage(3, "A-201", "REVISED NOTES", "SEE STRUCTURAL", `14  RISERS  @  8"`, `TREAD 9"`)
	set := PlanSet{Files: []File{{ID: "file_other", Pages: []pdftext.Page{codePage(OccupancyResidential), textPage(2, "A-101"), moved}}}}
	second, err := e.Review(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	fp := func(fs []Finding, id string) string {
		got := byRule(fs, id)
		if len(got) != 1 {
			t.Fatalf("%s: %d findings", id, len(got))
		}
		return got[0].Fingerprint
	}
	for _, id := range []string{"irc-r311.7.5.1-riser-height", "irc-r311.7.5.2-tread-depth"} {
		if a, b := fp(first, id), fp(second, id); a != b {
			t.Errorf("%s: fingerprint changed %s → %s", id, a, b)
		}
	}
	if fp(first, "irc-r311.7.5.1-riser-height") == fp(first, "irc-r311.7.5.2-tread-depth") {
		t.Error("two rules share a fingerprint")
	}
	// Two identical notes on one sheet are two findings with two fingerprints.
	twice := reviewPages(t, e, codePage(OccupancyResidential), textPage(2, "A-201", `RISER 8"`, `RISER 8"`))
	got := byRule(twice, "irc-r311.7.5.1-riser-height")
	if len(got) != 2 || got[0].Fingerprint == got[1].Fingerprint {
		t.Errorf("duplicate notes: %+v", got)
	}
}

func TestOrderingIsDeterministic(t *testing.T) {
	e := loadAll(t)
	pages := []pdftext.Page{codePage(OccupancyCommercial, "OCCUPANT LOAD: 320 EXITS PROVIDED: 1"),
		textPage(2, "A-201", `RISER 8"`, `HANDRAIL HEIGHT 40"`, "NOT FOR CONSTRUCTION")}
	a := reviewPages(t, e, pages...)
	for range 5 {
		if b := reviewPages(t, e, pages...); !reflect.DeepEqual(a, b) {
			t.Fatal("two reviews of one set differ")
		}
	}
	for i := 1; i < len(a); i++ {
		if SeverityRank(a[i-1].Severity) > SeverityRank(a[i].Severity) {
			t.Fatalf("not sorted by severity: %s before %s", a[i-1].Severity, a[i].Severity)
		}
	}
	if a[0].Severity != SeverityCritical {
		t.Errorf("first finding %s, want the critical exits finding", a[0].RuleID)
	}
}

func TestReviewHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := loadAll(t).Review(ctx, PlanSet{Files: []File{{ID: "f", Pages: []pdftext.Page{codePage(OccupancyResidential)}}}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func TestLoadSelectsAdoptedPacks(t *testing.T) {
	e, err := Load(Packs(), []string{"IRC-2021"})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.CodeBasis(); !reflect.DeepEqual(got, []string{"2021 International Residential Code (IRC), as adopted"}) {
		t.Errorf("code basis %q", got)
	}
	for _, r := range e.Rules() {
		if strings.HasPrefix(r.ID, "ibc-") {
			t.Errorf("IBC rule %s active without IBC adopted", r.ID)
		}
	}
	if n := len(e.Rules()); n < 25 {
		t.Errorf("%d rules", n)
	}
	if _, err := Load(Packs(), []string{"ibc-2018"}); err == nil || !strings.Contains(err.Error(), "ibc-2018") {
		t.Errorf("unknown adopted code: err = %v", err)
	}
}

func TestPackValidationNamesFileAndLine(t *testing.T) {
	header := "pack: p\nkind: completeness\nrules:\n"
	good := `  - id: ok-rule
    title: T
    topic: t
    severity: low
    confidence: 0.5
    governingRefs: [{code: IBC, edition: "2021", section: "1"}]
    match: {pattern: 'X {length}'}
    condition: {max: '3"'}
    rationale: '{value} over {limit}'
`
	tests := []struct {
		name, body, want string
	}{
		{"unknown field", good + "    condtion: {max: 1}\n", `p/r.yaml:13: unknown field "condtion"`},
		{"bad severity", strings.Replace(good, "severity: low", "severity: urgent", 1), `p/r.yaml:7: rule ok-rule: severity "urgent"`},
		{"confidence range", strings.Replace(good, "confidence: 0.5", "confidence: 1.5", 1), `p/r.yaml:8: rule ok-rule: confidence "1.5"`},
		{"bad regexp", strings.Replace(good, "'X {length}'", "'X ( {length}'", 1), `p/r.yaml:10: rule ok-rule: pattern does not compile`},
		{"bad limit", strings.Replace(good, `max: '3"'`, `max: 'three'`, 1), `p/r.yaml:11: rule ok-rule: limit "three" is not a length`},
		{"unknown check", strings.Replace(good, "match: {pattern: 'X {length}'}\n    condition: {max: '3\"'}", "check: telepathy", 1), `p/r.yaml:10: rule ok-rule: unknown check "telepathy"`},
		{"unknown template var", strings.Replace(good, "{value} over {limit}", "{value} over {ceiling}", 1), `p/r.yaml:12: rule ok-rule: rationale uses {ceiling}`},
		{"no refs", strings.Replace(good, `    governingRefs: [{code: IBC, edition: "2021", section: "1"}]`+"\n", "", 1), `p/r.yaml:4: rule ok-rule: governingRefs`},
		{"sheet type", good + "    appliesTo: {sheetTypes: [architecture]}\n", `p/r.yaml:13: unknown sheet type "architecture"`},
		{"duplicate id", good + good, `p/r.yaml:13: duplicate rule id "ok-rule" (first at p/r.yaml:4)`},
		{"unknown param", strings.Replace(good, "match: {pattern: 'X {length}'}\n    condition: {max: '3\"'}", "check: stair_rise\n    params: {max: '7\"', maxx: '8\"'}", 1), `rule ok-rule: check stair_rise takes no param "maxx"`},
		{"bad param", strings.Replace(good, "match: {pattern: 'X {length}'}\n    condition: {max: '3\"'}", "check: title_block\n    params: {field: colour}", 1), `rule ok-rule: param field: "colour": want one of number, title, date, scale`},
		{"yaml syntax", good + "  - id: [unclosed\n", `p/r.yaml:12: yaml: line 12: did not find expected`},
	}
	for _, tc := range tests {
		fsys := fstest.MapFS{"p/r.yaml": {Data: []byte(header + tc.body)}}
		_, err := Load(fsys, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
	fsys := fstest.MapFS{"p/r.yaml": {Data: []byte(header + good)}}
	if _, err := Load(fsys, nil); err != nil {
		t.Errorf("valid pack: %v", err)
	}
}

func TestReviewConcurrently(t *testing.T) {
	e := loadAll(t)
	set := PlanSet{Files: []File{{ID: "f", Pages: []pdftext.Page{codePage(OccupancyResidential),
		textPage(2, "A-201", `RISER 8"`, `TREAD 9"`)}}}}
	want, err := e.Review(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			got, err := e.Review(context.Background(), set)
			if err == nil && !reflect.DeepEqual(got, want) {
				err = errors.New("concurrent review differs")
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	topics := e.Topics()
	if len(topics) < 5 || topics[0] > topics[len(topics)-1] {
		t.Errorf("topics %v", topics)
	}
}

func TestLibraryBuildsEnginesPerJurisdiction(t *testing.T) {
	lib, err := LoadLibrary(Packs())
	if err != nil {
		t.Fatal(err)
	}
	if got := lib.CodePacks(); !reflect.DeepEqual(got, []string{"ibc-2021", "irc-2021"}) {
		t.Errorf("code packs %v", got)
	}
	both, err := lib.Engine([]string{"ibc-2021", "irc-2021"})
	if err != nil {
		t.Fatal(err)
	}
	none, err := lib.Engine(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(none.CodeBasis()) != 0 || len(none.Rules()) >= len(both.Rules()) {
		t.Errorf("completeness-only engine: %d rules, basis %v", len(none.Rules()), none.CodeBasis())
	}
	for _, r := range none.Rules() {
		if r.Pack != "completeness" {
			t.Errorf("rule %s from %s without adopting it", r.ID, r.Pack)
		}
	}
}

// TestReviewSurvivesOddPages: malformed extractor output never panics.
func TestReviewSurvivesOddPages(t *testing.T) {
	e := loadAll(t)
	odd := []pdftext.Page{
		{Number: 1, Readable: true},                                    // readable, no words
		{Number: 2, Readable: true, Words: []pdftext.Word{{Text: ""}}}, // zero-size page, empty word
		{Number: 3, Readable: true, Width: 100, Height: 100, Words: []pdftext.Word{{Text: `7¾"`, Norm: `73⁄4"`}}},
		{Number: 4, Readable: true, Width: 100, Height: 100, Words: []pdftext.Word{
			{Text: "RISER", BBox: pdftext.BBox{Left: 2, Top: -1, Width: -3}}, {Text: `99999999999999999999"`}}},
		{Number: 5, Readable: true, Err: errors.New("broken content stream"), Words: []pdftext.Word{{Text: "A-101"}}},
	}
	fs, err := e.Review(context.Background(), PlanSet{Files: []File{{ID: "odd", Pages: odd}, {ID: "empty"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := byRule(fs, "coverage-unreadable-page")
	if len(got) != 2 || !strings.Contains(got[1].Rationale, "broken content stream") {
		t.Errorf("unreadable: %+v", got)
	}
}

// TestPresenceConditions exercises present (set and sheet scope) and absent
// rules from a pack written for the test.
func TestPresenceConditions(t *testing.T) {
	pack := `pack: t
kind: completeness
rules:
  - id: t-smoke-alarms-noted
    title: Smoke alarms not noted
    topic: t
    severity: low
    confidence: 0.5
    governingRefs: [{code: IRC, edition: "2021", section: R314}]
    match: {pattern: '\bSMOKE\s+ALARMS?\b'}
    condition: {present: true}
    rationale: 'No smoke alarm note in the set.'
  - id: t-north-arrow-per-sheet
    title: Plan without a north arrow
    topic: t
    severity: low
    confidence: 0.5
    governingRefs: [{code: IBC, edition: "2021", section: 107.2.1}]
    appliesTo: {sheetTypes: [architectural]}
    match: {pattern: '\bNORTH\b'}
    condition: {present: true, scope: sheet}
    rationale: 'Sheet {sheet} has no north arrow.'
  - id: t-void-stamp
    title: Void stamp
    topic: t
    severity: high
    confidence: 0.9
    governingRefs: [{code: IBC, edition: "2021", section: "107.1"}]
    match: {pattern: '\bVOID\b'}
    condition: {absent: true}
    rationale: 'Sheet {sheet} says "{text}".'
`
	e, err := Load(fstest.MapFS{"t/t.yaml": {Data: []byte(pack)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fs := reviewPages(t, e, textPage(1, "G-001", "NOTES"), textPage(2, "A-101", "NORTH"), textPage(3, "A-102", "PLAN VOID"))
	if got := byRule(fs, "t-smoke-alarms-noted"); len(got) != 1 || got[0].Page != 1 || len(got[0].Anchors) != 0 {
		t.Errorf("set-scope presence: %+v", got)
	}
	if got := byRule(fs, "t-north-arrow-per-sheet"); len(got) != 1 || got[0].SheetNumber != "A-102" {
		t.Errorf("sheet-scope presence: %+v", got)
	}
	if got := byRule(fs, "t-void-stamp"); len(got) != 1 || got[0].Rationale != `Sheet A-102 says "VOID".` {
		t.Errorf("absent: %+v", got)
	}
	fs = reviewPages(t, e, textPage(1, "G-001", "SMOKE ALARMS PER R314"), textPage(2, "A-101", "NORTH"))
	for _, f := range fs {
		t.Errorf("compliant set: %s", f.RuleID)
	}
}

// TestStateCodesStated: state and city codes written out count as code
// statements, and with an adoption table's bases (ForJurisdiction) they
// are judged through the model code they are based on.
func TestStateCodesStated(t *testing.T) {
	e := loadAll(t)
	for _, stated := range []string{"2022 CALIFORNIA BUILDING CODE", "FLORIDA BUILDING CODE 8TH EDITION (2023)", "2022 NYC BUILDING CODE", "2019 CRC",
		// The adoption table's names and abbreviations.
		"2021 VIRGINIA CONSTRUCTION CODE", "VCC 2018", "2022 CT STATE BUILDING CODE", "2018 NCBC",
		"OREGON STRUCTURAL SPECIALTY CODE, 2022 EDITION", "2018 NORTH CAROLINA STATE BUILDING CODE"} {
		fs := reviewPages(t, e, textPage(1, "G-001", "APPLICABLE CODES: "+stated), textPage(2, "A-101", "PLAN"))
		if got := byRule(fs, "completeness-code-edition-stated"); len(got) != 0 {
			t.Errorf("%q: code edition reported as not stated", stated)
		}
	}
	base := func(code, edition string) (string, string, bool) {
		switch code + " " + edition {
		case "CBC 2022":
			return "IBC", "2021", true
		case "CRC 2019":
			return "IRC", "2018", true
		}
		return "", "", false
	}
	j, err := e.ForJurisdiction(Jurisdiction{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	fs := reviewPages(t, j, textPage(1, "G-001", "APPLICABLE CODES: 2022 CALIFORNIA BUILDING CODE, 2019 CALIFORNIA RESIDENTIAL CODE"), textPage(2, "A-101", "PLAN"))
	got := byRule(fs, "completeness-code-edition-current")
	if len(got) != 1 || !strings.Contains(got[0].Rationale, "CRC 2019 (based on IRC 2018)") || !strings.Contains(got[0].Rationale, "IRC 2021") {
		t.Errorf("code-edition-current through the bases: %+v", got)
	}
	// Under a state's codes (as presumed from the plans), a stated earlier
	// edition of them is not current; a state's codes named as a whole
	// are not judged.
	va, err := e.ForJurisdiction(Jurisdiction{Base: adoptions().Base, Adopted: []AdoptedCode{{Code: "VCC", Edition: "2021"}, {Code: "VRC", Edition: "2021"}}})
	if err != nil {
		t.Fatal(err)
	}
	fs = reviewPages(t, va, textPage(1, "G-001", "APPLICABLE CODES: 2018 VIRGINIA RESIDENTIAL CODE, 2021 VCC, 2021 VIRGINIA UNIFORM STATEWIDE BUILDING CODE"), textPage(2, "A-101", "PLAN"))
	got = byRule(fs, "completeness-code-edition-current")
	if len(got) != 1 || !strings.Contains(got[0].Rationale, "VRC 2018") || !strings.Contains(got[0].Rationale, "VRC 2021") {
		t.Errorf("a Virginia code of an earlier edition: %+v", got)
	}
	// Without the bases (no jurisdiction) a state code is a statement only.
	fs = reviewPages(t, e, textPage(1, "G-001", "APPLICABLE CODES: 2019 CALIFORNIA RESIDENTIAL CODE"), textPage(2, "A-101", "PLAN"))
	if got := byRule(fs, "completeness-code-edition-current"); len(got) != 0 {
		t.Errorf("judged without a jurisdiction: %+v", got)
	}
}

// TestSetLevelConfidence: a "not stated anywhere" finding is as sure as the
// share of the set that was read.
func TestSetLevelConfidence(t *testing.T) {
	e := loadAll(t)
	cover := textPage(1, "G-001", "GENERAL NOTES", "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "2. PROVIDE BLOCKING AT ALL GRAB BARS.")
	scanned := pdftext.Page{Number: 3, Width: testW, Height: testH, Reason: "image_only"}
	full := byRule(reviewPages(t, e, cover, textPage(2, "A-101", "PLAN")), "completeness-occupancy-stated")
	part := byRule(reviewPages(t, e, cover, textPage(2, "A-101", "PLAN"), scanned), "completeness-occupancy-stated")
	if len(full) != 1 || len(part) != 1 || full[0].Confidence != 0.75 || part[0].Confidence != 0.5 {
		t.Errorf("confidence read in full %+v, with a third unread %+v", full, part)
	}
	if nr := byRule(reviewPages(t, e, scanned), "coverage-no-readable-pages"); len(nr) != 1 || nr[0].Confidence != 1 {
		t.Errorf("no readable pages: %+v", nr)
	}
}

// TestOutlinedSheetNumberIsNotMissing: a sheet whose number is drawn as
// outlines where the set prints its numbers is reported as not read, not
// as a title block without a sheet number; a sheet whose number cell is
// empty still is.
func TestOutlinedSheetNumberIsNotMissing(t *testing.T) {
	e := loadAll(t)
	notes := []string{"1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS.", "2. PROVIDE BLOCKING AT ALL GRAB BARS."}
	outlined := outlinedNumberPage(4, notes...)
	empty := textPage(5, "", notes...)
	fs := reviewPages(t, e, codePage(OccupancyResidential), textPage(2, "A-101", notes...), textPage(3, "A-102", notes...), outlined, empty)
	got := byRule(fs, "completeness-title-block-sheet-number")
	if len(got) != 1 || got[0].Page != 5 {
		t.Errorf("sheet number findings: %+v", got)
	}
	cov := byRule(fs, "coverage-checks-not-covered")
	if len(cov) != 1 || !strings.Contains(cov[0].Rationale, "drawn as outlines") || !strings.Contains(cov[0].Rationale, "page 4") {
		t.Errorf("coverage: %+v", cov)
	}
}

// TestStateBuildingCodeWithoutPackGoverns: a set that states another
// state's building code (with its edition before or after the name) is
// reviewed by the document checks only, even when it also names the
// model-code edition that code is based on; a presumed state code without
// a pack (JobContext.NotHeld) does the same.
func TestStateBuildingCodeWithoutPackGoverns(t *testing.T) {
	e := loadAll(t)
	stair := textPage(2, "A-201", "STAIR NOTES", `14 RISERS @ 8"`)
	for _, stated := range []string{"2014 INDIANA BUILDING CODE", "INDIANA BUILDING CODE, 2014 EDITION", "INDIANA BUILDING CODE 2014 (BASED ON 2012 IBC)"} {
		fs := reviewPages(t, e, textPage(1, "G-001", "APPLICABLE CODES: "+stated, "OCCUPANCY: B"), stair)
		if got := byRule(fs, "ibc-1011.5.2-riser-max"); len(got) != 0 {
			t.Errorf("%q: IBC 2021 applied to a set under a state code without a pack", stated)
		}
		if got := byRule(fs, "scope-codes-not-applied"); len(got) != 1 || !strings.Contains(got[0].Rationale, "INDIANA BUILDING CODE") {
			t.Errorf("%q: codes-not-applied %+v", stated, got)
		}
	}
	// The model code stated alone is still reviewed.
	fs := reviewPages(t, e, textPage(1, "G-001", "APPLICABLE CODES: 2021 IBC", "OCCUPANCY: B"), stair)
	if got := byRule(fs, "ibc-1011.5.2-riser-max"); len(got) != 1 {
		t.Errorf("2021 IBC: riser finding %+v", got)
	}
	c, err := Classify(context.Background(), PlanSet{Files: []File{{ID: "f", Pages: []pdftext.Page{textPage(1, "G-001", "OCCUPANCY: B"), stair}}}})
	if err != nil {
		t.Fatal(err)
	}
	c.Job = JobContext{NotHeld: []string{"California Building Code 2025 (based on IBC 2024)"}}
	fs, err = e.ReviewClassified(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if got := byRule(fs, "ibc-1011.5.2-riser-max"); len(got) != 0 {
		t.Errorf("presumed code without a pack: IBC 2021 applied")
	}
	if got := byRule(fs, "scope-codes-not-applied"); len(got) != 1 || !strings.Contains(got[0].Rationale, "based on IBC 2024") {
		t.Errorf("presumed code without a pack: codes-not-applied %+v", got)
	}
}

// outlinedNumberPage is textPage n with no sheet number in its text and
// the number's strokes drawn where textPage prints numbers.
func outlinedNumberPage(n int, notes ...string) pdftext.Page {
	p := textPage(n, "", notes...)
	x, y := float64(testW-330), float64(testH-186)
	for c := 0; c < 5; c++ {
		l := x + float64(c)*28
		p.Segments = append(p.Segments,
			pdftext.Segment{X0: l, Y0: y, X1: l, Y1: y + 20}, pdftext.Segment{X0: l, Y0: y, X1: l + 14, Y1: y},
			pdftext.Segment{X0: l, Y0: y + 10, X1: l + 12, Y1: y + 10}, pdftext.Segment{X0: l + 14, Y0: y, X1: l + 14, Y1: y + 20})
	}
	return p
}
