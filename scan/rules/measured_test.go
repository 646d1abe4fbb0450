package rules

import (
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"planreview/scan/plangen"
)

// codeSheet is a cover sheet stating the codes and the occupancy.
func codeSheet(occupancy string) plangen.SheetSpec {
	lines := []string{"CODE ANALYSIS", "APPLICABLE CODES: 2021 IRC", "OCCUPANCY: R-3", "CONSTRUCTION TYPE: V-B", "SPRINKLERED: NO"}
	if occupancy == OccupancyCommercial {
		lines = []string{"CODE ANALYSIS", "APPLICABLE CODES: 2021 IBC", "OCCUPANCY GROUP: B", "CONSTRUCTION TYPE: II-B", "SPRINKLERED: YES"}
	}
	return plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Scale: "NTS",
		Labels: plangen.Notes(120, 140, lines...)}
}

// measuredRules are the ids of the packs' measured rules.
var measuredRules = func() map[string]bool {
	lib, err := LoadLibrary(Packs())
	if err != nil {
		panic(err)
	}
	out := map[string]bool{}
	for _, p := range lib.packs {
		for _, r := range p.Rules {
			if r.Measure != "" {
				out[r.ID] = true
			}
		}
	}
	return out
}()

// codeRuleHits lists "rule sheet: anchor text" for the findings of the
// measured rules.
func codeRuleHits(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if !measuredRules[f.RuleID] {
			continue
		}
		text := ""
		if len(f.Anchors) > 0 {
			text = f.Anchors[0].Text
		}
		out = append(out, f.RuleID+" "+f.SheetNumber+": "+text)
	}
	sort.Strings(out)
	return out
}

func TestMeasuredResidentialPDF(t *testing.T) {
	doorLabels, doorRules := plangen.Table(120, 900, []float64{60, 220, 160, 120, 200},
		[]string{"MARK", "LOCATION", "SIZE", "TYPE", "REMARKS"},
		[]string{"101", "FRONT ENTRY", `2'-6" X 6'-8"`, "A", "SOLID CORE"},
		[]string{"102", "BEDROOM 2", `2'-6" X 6'-8"`, "B", ""},
		[]string{"103", "REAR ENTRY", "2668", "A", ""},
		[]string{"104", "ENTRY CLOSET", `2'-0" X 6'-8"`, "C", ""})
	// A frame schedule and a window schedule are not door widths.
	frameLabels, frameRules := plangen.Table(900, 900, []float64{60, 220, 160},
		[]string{"DOOR", "LOCATION", "FRAME WIDTH"},
		[]string{"101", "FRONT ENTRY", `2'-4"`})
	windowLabels, windowRules := plangen.Table(1400, 900, []float64{60, 220, 160, 160},
		[]string{"MARK", "LOCATION", "SIZE", "ROUGH OPENING"},
		[]string{"W1", "BEDROOM 2 EGRESS", `2'-0" X 3'-0"`, `2'-1" X 3'-1"`})
	roomLabels, roomRules := plangen.Table(120, 900, []float64{60, 220, 120, 160},
		[]string{"NO.", "ROOM NAME", "FLOOR", "CEILING HEIGHT"},
		[]string{"101", "LIVING", "CPT", `6'-10"`},
		[]string{"102", "BATH", "TILE", `6'-8"`},
		[]string{"103", "BEDROOM", "CPT", `8'-0"`},
		[]string{"104", "DEN (E)", "CPT", `6'-6"`})
	fs := reviewPDF(t,
		codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-301", Title: "BUILDING SECTIONS", Date: "2026-03-02", Scale: scale14,
			Labels: concatLabels(
				plangen.Notes(120, 140, "MAIN STAIR", "15 RISERS", `8 1/4" RISE`, `9" RUN`, `6'-4" MIN. HEADROOM`, `HANDRAIL 39" ABOVE NOSING`),
				plangen.Notes(900, 140, "DECK NOTES", `32" HIGH GUARDRAIL`),
				plangen.Notes(1500, 140, "BEDROOM 3", `6'-10" CLG.`))},
		// Look-alikes: an existing stair, a roof's rise, a window's head
		// height, a corner guard, a bathroom's ceiling, joist spacing, a
		// metric stair, a tread's thickness.
		plangen.SheetSpec{Number: "A-302", Title: "WALL SECTIONS", Date: "2026-03-02", Scale: scale14,
			Labels: concatLabels(
				plangen.Notes(120, 140, "EXISTING STAIR TO REMAIN", "15 RISERS", `8 1/2" RISE`, `9" RUN`),
				plangen.Notes(900, 140, "ROOF FRAMING", `4" RISE PER FOOT`, `2X8 @ 16" CEILING JOISTS`),
				plangen.Notes(1500, 140, `6'-8" HEAD HEIGHT`, `4" CORNER GUARD`),
				plangen.Notes(120, 700, "BATH", `6'-10" CLG.`),
				plangen.Notes(900, 700, "STAIR B", "14 RISERS x 210mm HIGH", "TREADS X 230mm"),
				plangen.Notes(1500, 700, "STAIR C", `1 1/8" TREAD`, `7 1/2" RISERS`, `10 1/2" TREADS`, `36" TREAD WIDTH`,
					`1 1/2" HANDRAIL`, `HANDRAIL 34"-38" ABOVE NOSING`, `WINDERS: 6" MIN. TREAD AT NARROW END`),
				plangen.Notes(120, 1200, "PORCH STAIR", `1" RISE AT THRESHOLD`),
				plangen.Notes(900, 1200, "DECK NOTES", `GUARD AT 30" ABOVE GRADE`, `8" DUCT RUN`))},
		plangen.SheetSpec{Number: "A-601", Title: "DOOR AND WINDOW SCHEDULES", Date: "2026-03-02", Scale: "NTS",
			Labels:  concatLabels(plangen.Notes(120, 860, "DOOR SCHEDULE"), doorLabels, frameLabels, windowLabels),
			Strokes: append(append(doorRules, frameRules...), windowRules...)},
		plangen.SheetSpec{Number: "A-602", Title: "ROOM FINISH SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: roomLabels, Strokes: roomRules},
	)
	got := codeRuleHits(fs)
	want := []string{
		`irc-r305.1-ceiling-height A-301: 6'-10" CLG.`,
		`irc-r305.1-ceiling-height A-602: LIVING 6'-10"`,
		`irc-r311.2-egress-door-width A-601: 2'-6" X 6'-8"`,
		`irc-r311.2-egress-door-width A-601: 2668`,
		`irc-r311.7.2-headroom A-301: 6'-4" MIN. HEADROOM`,
		`irc-r311.7.5.1-riser-height A-301: 8 1/4" RISE`,
		`irc-r311.7.5.2-tread-depth A-301: 9" RUN`,
		`irc-r311.7.8.1-handrail-height A-301: HANDRAIL 39" ABOVE`,
		`irc-r312.1.2-guard-height A-301: 32" HIGH GUARDRAIL`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("code-rule findings:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	for _, f := range fs {
		if f.RuleID == "irc-r311.2-egress-door-width" && !strings.Contains(f.Rationale, "leaf width in the door schedule") {
			t.Errorf("door rationale does not say what was read: %s", f.Rationale)
		}
	}
}

func concatLabels(groups ...[]plangen.LabelSpec) []plangen.LabelSpec {
	var out []plangen.LabelSpec
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func TestMeasuredCommercialPDF(t *testing.T) {
	doorLabels, doorRules := plangen.Table(120, 900, []float64{60, 220, 120, 120, 200},
		[]string{"DOOR NO.", "ROOM", "WIDTH", "HEIGHT", "REMARKS"},
		[]string{"100A", "MAIN ENTRANCE", `2'-6"`, `7'-0"`, ""},
		// A 2'-8" leaf may give less than 32 in clear, but the clear
		// width is not what the schedule says: not reported.
		[]string{"100B", "EXIT STAIR 1", `2'-8"`, `7'-0"`, ""},
		[]string{"105", "OFFICE", `2'-6"`, `7'-0"`, ""},
		[]string{"106", "EXIT CORRIDOR", `3'-0"`, `7'-0"`, "PAIR"})
	roomLabels, roomRules := plangen.Table(1200, 900, []float64{60, 220, 120, 160},
		[]string{"NO.", "ROOM NAME", "CEILING", "CLG. HT."},
		[]string{"101", "CORRIDOR", "ACT-1", `7'-2"`},
		[]string{"102", "KITCHEN", "GYP", `7'-2"`},
		[]string{"103", "CONFERENCE", "ACT-1", `6'-10"`},
		[]string{"104", "OFFICE", "ACT-1", `9'-0"`})
	fs := reviewPDF(t,
		codeSheet(OccupancyCommercial),
		plangen.SheetSpec{Number: "A-501", Title: "STAIR SECTIONS", Date: "2026-03-02", Scale: scale14,
			Labels: concatLabels(
				plangen.Notes(120, 140, "STAIR 1", "22 RISERS", `7 1/2" MAX. RISER`, `11" MIN. TREAD`),
				// The open side of a stair may have a 34 in guard under the
				// IRC; the IBC's 42 in guard is read the same way.
				plangen.Notes(900, 140, "MEZZANINE EDGE", `36" HIGH GUARDRAIL`),
				// A sprinkler riser's size is not a stair riser under 4 in.
				plangen.Notes(1800, 700, "SPRINKLER RISER AT STAIR 2", "RISER:", `2"`),
				// A stated maximum is not a riser under the 4 in minimum.
				plangen.Notes(1800, 1100, "STAIR 2 LANDING", `1 1/2" MAX. RISE`))},
		plangen.SheetSpec{Number: "A-601", Title: "SCHEDULES", Date: "2026-03-02", Scale: "NTS",
			Labels:  concatLabels(roomLabels, doorLabels),
			Strokes: append(doorRules, roomRules...)},
	)
	got := codeRuleHits(fs)
	want := []string{
		`ibc-1003.2-egress-ceiling-height A-601: CORRIDOR 7'-2"`,
		`ibc-1010.1.1-door-clear-width A-601: 2'-6"`,
		`ibc-1011.5.2-riser-max A-501: 7 1/2" MAX. RISER`,
		`ibc-1015.3-guard-height A-501: 36" HIGH GUARDRAIL`,
		`ibc-1208.2-ceiling-height A-601: CONFERENCE 6'-10"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("code-rule findings:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	for _, f := range fs {
		// 6'-10" lies below the rule's doubtful band (7'-0" rooms exist):
		// full confidence.
		if f.RuleID == "ibc-1208.2-ceiling-height" && f.Confidence != 0.8 {
			t.Errorf("conference room at 6'-10\": confidence %v, want 0.8", f.Confidence)
		}
	}
}

// A stair guard may be 34 in on the open side of a stair (IRC R312.1.2
// exception): a guard height read in a stair's note is not judged.
func TestMeasuredStairGuardPDF(t *testing.T) {
	fs := reviewPDF(t,
		codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-301", Title: "STAIR SECTION", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "STAIR NOTES", "15 RISERS", `34" HIGH GUARDRAIL`)},
	)
	if got := codeRuleHits(fs); len(got) != 0 {
		t.Errorf("stair guard: %v", got)
	}
}

// An amended limit applies to values read by the readers as to the
// pack's own patterns.
func TestMeasuredAmendedLimit(t *testing.T) {
	e := loadAll(t)
	j, err := e.ForJurisdiction(Jurisdiction{Overrides: map[string]Override{
		"irc-r311.7.5.1-riser-height": {Values: map[string]string{"max": `7 1/2"`}, SetBy: "Test County amendment"}}})
	if err != nil {
		t.Fatal(err)
	}
	note := textPage(2, "A-301", "MAIN STAIR", "15 RISERS", `7 5/8" RISE`)
	if got := codeRuleHits(reviewPages(t, e, codePage(OccupancyResidential), note)); len(got) != 0 {
		t.Errorf("model code: %v", got)
	}
	got := codeRuleHits(reviewPages(t, j, codePage(OccupancyResidential), note))
	if len(got) != 1 || !strings.HasPrefix(got[0], "irc-r311.7.5.1-riser-height A-301") {
		t.Errorf("amended: %v", got)
	}
}

// A stair's data given as labelled values and as a schedule's columns;
// a plumbing riser's size is not a stair riser.
func TestMeasuredLabelledPDF(t *testing.T) {
	stairLabels, stairRules := plangen.Table(120, 900, []float64{120, 120, 120, 160},
		[]string{"STAIR", "RISER", "TREAD", "WIDTH"},
		[]string{"S1", `7 1/2"`, `11"`, `3'-8"`},
		[]string{"S2", `8"`, `9 1/2"`, `3'-0"`})
	fs := reviewPDF(t,
		codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-501", Title: "STAIR DETAILS", Date: "2026-03-02", Scale: scale14,
			Labels: concatLabels(stairLabels,
				plangen.Notes(1400, 140, "STAIR DATA", "HEADROOM:", `6'-6"`),
				plangen.Notes(1400, 700, "WATER RISER:", `2"`)),
			Strokes: stairRules},
	)
	got := codeRuleHits(fs)
	want := []string{
		`irc-r311.7.2-headroom A-501: HEADROOM: 6'-6"`,
		`irc-r311.7.5.1-riser-height A-501: 8"`,
		`irc-r311.7.5.2-tread-depth A-501: 9 1/2"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("code-rule findings:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// The IRC asks for one egress door: a compliant entry door in the schedule
// silences a narrower second entry.
func TestMeasuredOneEgressDoorPDF(t *testing.T) {
	doorLabels, doorRules := plangen.Table(120, 900, []float64{60, 220, 160},
		[]string{"MARK", "LOCATION", "SIZE"},
		[]string{"101", "FRONT ENTRY", "3068"},
		[]string{"102", "REAR ENTRY", `2'-6" X 6'-8"`})
	fs := reviewPDF(t, codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-601", Title: "DOOR SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels: concatLabels(plangen.Notes(120, 860, "DOOR SCHEDULE"), doorLabels), Strokes: doorRules})
	if got := codeRuleHits(fs); len(got) != 0 {
		t.Errorf("one compliant egress door: %v", got)
	}
}

// Window schedules: the net clear opening of the rows marked as emergency
// escape openings; not a unit or rough-opening size, not an unmarked
// window, not a metric schedule.
func TestMeasuredEscapeOpeningPDF(t *testing.T) {
	winLabels, winRules := plangen.Table(120, 900, []float64{60, 180, 160, 220, 100},
		[]string{"MARK", "ROOM", "SIZE", "NET CLEAR OPENING (SF)", "EGRESS"},
		[]string{"W1", "BEDROOM 1", "3050", "5.2", "YES"},
		[]string{"W2", "BEDROOM 2", "3040", "4.5", "YES"},
		[]string{"W3", "BATH", "2030", "2.0", "NO"},
		[]string{"W4", "LIVING", "4050", "4.0", ""},
		[]string{"W5", "BEDROOM 3", "3050", "5.9", "YES"})
	roughLabels, roughRules := plangen.Table(1000, 900, []float64{60, 180, 220},
		[]string{"MARK", "ROOM", "ROUGH OPENING"},
		[]string{"W6", "BEDROOM 4 EGRESS", `2'-0" X 3'-0"`})
	metricLabels, metricRules := plangen.Table(1600, 900, []float64{60, 180, 220},
		[]string{"MARK", "ROOM", "NET CLEAR OPENING"},
		[]string{"W7", "BEDROOM 5 EGRESS", "0.40 M2"})
	fs := reviewPDF(t, codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-602", Title: "WINDOW SCHEDULE", Date: "2026-03-02", Scale: "NTS",
			Labels:  concatLabels(plangen.Notes(120, 860, "WINDOW SCHEDULE"), winLabels, plangen.Notes(1000, 860, "WINDOW SCHEDULE"), roughLabels, plangen.Notes(1600, 860, "WINDOW SCHEDULE"), metricLabels),
			Strokes: append(append(winRules, roughRules...), metricRules...)})
	got := byRule(fs, "irc-r310.2.1-eero-area")
	var texts []string
	for _, f := range got {
		texts = append(texts, f.Anchors[0].Text)
	}
	sort.Strings(texts)
	if strings.Join(texts, ",") != "4.5,5.2" {
		t.Fatalf("escape openings: %v", texts)
	}
	for _, f := range got {
		want := 0.85
		if f.Anchors[0].Text == "5.2" {
			want = 0.6 // 5.0 sq ft is enough at grade floor: the doubtful band
		}
		if f.Confidence != want {
			t.Errorf("%s: confidence %v, want %v", f.Anchors[0].Text, f.Confidence, want)
		}
	}
}

// A label alone on its line with its value just under or over it, as on
// stair sections; a label with no value near it, or near an existing
// stair, reads nothing.
func TestMeasuredStackedPDF(t *testing.T) {
	fs := reviewPDF(t, codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-301", Title: "STAIR SECTION", Date: "2026-03-02", Scale: scale14,
			Labels: concatLabels(plangen.Notes(120, 140, "STAIR A", "HEADROOM", `6'-4"`),
				plangen.Notes(900, 140, "STAIR B", `8"`, "MAX. RISER"),
				plangen.Notes(1500, 140, "STAIR C", "RISER HEIGHT", `7 1/2"`, "TREAD DEPTH", "SEE DETAIL"),
				plangen.Notes(120, 700, "EXISTING STAIR", "RISER", `8 1/2"`))})
	got := codeRuleHits(fs)
	want := []string{
		`irc-r311.7.2-headroom A-301: HEADROOM 6'-4"`,
		`irc-r311.7.5.1-riser-height A-301: MAX. RISER 8"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("code-rule findings:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// A measured rule names a quantity the model reads and contexts it knows;
// the loader says which, with file and line.
func TestMeasuredRuleValidation(t *testing.T) {
	header := "pack: p\nkind: completeness\nrules:\n"
	good := `  - id: ok-rule
    title: T
    topic: t
    severity: low
    confidence: 0.5
    governingRefs: [{code: IBC, edition: "2021", section: "1"}]
    measure: riser-height
    except: [existing, stair]
    condition: {max: '7 3/4"'}
    rationale: '{value} ({measured}) over {limit}: {text}'
`
	tests := []struct {
		name, body, want string
	}{
		{"unknown measure", strings.Replace(good, "measure: riser-height", "measure: riser-hieght", 1), `p/r.yaml:10: rule ok-rule: measure "riser-hieght": the model reads ceiling-height (ceiling height)`},
		{"unknown context", strings.Replace(good, "[existing, stair]", "[existing, stairs]", 1), `p/r.yaml:11: rule ok-rule: unknown context "stairs"`},
		{"except and only", good + "    only: [stair]\n", `rule ok-rule: a context is both excepted and required`},
		{"measure and match", good + "    match: {pattern: 'X {length}'}\n", `rule ok-rule: give one of measure, match or check`},
		{"except without measure", strings.Replace(good, "measure: riser-height", "match: {pattern: 'X {length}'}", 1), `rule ok-rule: except and only qualify a measure`},
		{"no limit", strings.Replace(good, "condition: {max: '7 3/4\"'}", "condition: {present: true}", 1), `rule ok-rule: a measure needs a condition with min or max`},
		{"limit in another unit", strings.Replace(good, `max: '7 3/4"'`, `max: '5 SF'`, 1), `rule ok-rule: limit "5 SF" is not a length`},
		{"area measure", strings.Replace(strings.Replace(good, "measure: riser-height", "measure: escape-opening-area", 1), `max: '7 3/4"'`, `min: '5.7 SF'`, 1), ""},
		{"oneSuffices without measure", strings.Replace(strings.Replace(good, "measure: riser-height\n    except: [existing, stair]", "match: {pattern: 'X {length}'}", 1), `{max: '7 3/4"'}`, `{max: '7 3/4"', oneSuffices: true}`, 1), `rule ok-rule: oneSuffices qualifies a measure`},
	}
	for _, tc := range tests {
		_, err := Load(fstest.MapFS{"p/r.yaml": {Data: []byte(header + tc.body)}}, nil)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
	if _, err := Load(fstest.MapFS{"p/r.yaml": {Data: []byte(header + good)}}, nil); err != nil {
		t.Errorf("valid pack: %v", err)
	}
}

// Look-alikes the rules must not judge: a legend's sample room tag, an
// existing stair's note, a metric sheet's stair and guard.
func TestMeasuredLookAlikesPDF(t *testing.T) {
	meanings := []string{"ROOM NAME TAG", "CEILING HEIGHT TAG", "DOOR TAG DESIGNATION", "WINDOW TAG DESIGNATION", "SECTION INDICATOR"}
	var legend []plangen.LabelSpec
	for i, m := range meanings {
		legend = append(legend, plangen.LabelSpec{Text: m, Left: 300, Top: 140 + float64(i)*22, Size: 9})
	}
	for i, s := range []string{"NAME", `6'-0" CLG.`, "101", "A", "1"} {
		legend = append(legend, plangen.LabelSpec{Text: s, Left: 200, Top: 140 + float64(i)*22, Size: 9})
	}
	fs := reviewPDF(t, codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: concatLabels(plangen.Notes(200, 110, "LEGEND"), legend,
				plangen.Notes(1200, 700, "EXISTING STAIR TO REMAIN", `8 1/2" RISE`, `HANDRAIL HEIGHT 40"`))},
		plangen.SheetSpec{Number: "A-201", Title: "STAIR SECTION", Date: "2026-03-02", Scale: "1:50",
			Labels: plangen.Notes(120, 140, "STAIR 1", "17 RISERS @ 210 MM", "TREAD 230 MM", "GUARD HEIGHT 0.8 M", "CEILING HEIGHT 2.0 M")})
	if got := codeRuleHits(fs); len(got) != 0 {
		t.Errorf("look-alikes judged: %v", got)
	}
}
