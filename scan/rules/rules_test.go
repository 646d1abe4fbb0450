package rules

import (
	"strings"
	"testing"
)

// ruleCase is one rule's firing and compliant line, on sheet A-201 of a set
// whose cover states the given occupancy.
type ruleCase struct {
	rule      string
	occupancy string
	fire      []string // lines that must fire the rule
	pass      []string // lines that must not
}

var ruleCases = []ruleCase{
	{"irc-r311.7.5.1-riser-height", OccupancyResidential, []string{`14 RISERS @ 8"`, `RISER HEIGHT: 7 7/8"`}, []string{`14 RISERS @ 7 3/4"`, `RISER 7-1/2 IN`, `14 RISERS`, `RISER 200 MM`}},
	{"irc-r311.7.5.1-riser-computed", OccupancyResidential, []string{`TOTAL RISE 9'-0" 13 RISERS`}, []string{`TOTAL RISE 9'-0" 14 RISERS`}},
	{"irc-r311.7.5.1-riser-uniformity", OccupancyResidential, []string{`RISERS 7" TO 7 1/2"`, `TOTAL RISE 8'-0" 12 RISERS @ 7 1/2"`}, []string{`RISERS 7 1/4" TO 7 1/2"`, `TOTAL RISE 7'-6" 12 RISERS @ 7 1/2"`}},
	{"irc-r311.7.5.2-tread-depth", OccupancyResidential, []string{`TREAD 9 1/2"`, `13 TREADS @ 9"`}, []string{`TREAD 10"`, `TREAD 10 1/2"`, `WINDER TREAD 6"`}},
	{"irc-r311.7.2-headroom", OccupancyResidential, []string{`HEADROOM 6'-6"`, `HEAD ROOM: 78"`}, []string{`HEADROOM 6'-8"`, `HEADROOM 7'-0" MIN.`}},
	{"irc-r311.7.1-stair-width", OccupancyResidential, []string{`STAIR WIDTH 34"`}, []string{`STAIR WIDTH 3'-0"`, `STAIR WIDTH 42"`}},
	{"irc-r311.7.8.1-handrail-height", OccupancyResidential, []string{`HANDRAIL HEIGHT 40"`, `HANDRAIL HT. 32"`}, []string{`HANDRAIL HEIGHT 34"`, `HANDRAIL HEIGHT 38"`, `HANDRAIL 1 1/2" DIA.`}},
	{"irc-r311.8.1-ramp-slope", OccupancyResidential, []string{"RAMP SLOPE 1:10", "RAMP @ 12%"}, []string{"RAMP SLOPE 1:12", "RAMP SLOPE 8.33%", "RAMP 1:20"}},
	{"irc-r312.1.2-guard-height", OccupancyResidential, []string{`GUARD HEIGHT 32"`, `GUARDRAIL 34"`}, []string{`GUARD HEIGHT 36"`, `GUARD AT STAIR 34"`, `CORNER GUARD 24"`}},
	{"irc-r312.1.3-guard-openings", OccupancyResidential, []string{`BALUSTER SPACING 4 1/2" CLEAR`, `GUARD OPENINGS MAX 5"`}, []string{`BALUSTER SPACING 3 3/4" CLEAR`, `BALUSTERS @ 5" O.C.`, `STAIR BALUSTER SPACING 4 1/4"`}},
	{"irc-r310.2.1-eero-area", OccupancyResidential, []string{"EGRESS WINDOW NET CLEAR OPENING 4.8 SF", "EGRESS OPENING 5.2 SQ FT"}, []string{"EGRESS WINDOW NET CLEAR OPENING 5.7 SF", "EGRESS OPENING 6 SF"}},
	{"irc-r310.2.3-eero-sill-height", OccupancyResidential, []string{`EGRESS WINDOW SILL HEIGHT 48"`}, []string{`EGRESS WINDOW SILL HEIGHT 44"`, `KITCHEN WINDOW SILL HEIGHT 48"`}},
	{"irc-r305.1-ceiling-height", OccupancyResidential, []string{`CEILING HEIGHT 6'-10"`}, []string{`CEILING HEIGHT 7'-0"`, `CEILING HEIGHT AT BEAM 6'-6"`, `BATH CEILING HEIGHT 6'-8"`}},
	{"irc-r311.2-egress-door-width", OccupancyResidential, []string{`FRONT DOOR 2'-6" CLEAR`, `EGRESS DOOR CLEAR WIDTH 30"`}, []string{`FRONT DOOR 2'-8" CLEAR`, `CLOSET DOOR 2'-0" CLEAR`}},
	{"irc-r311.6-hallway-width", OccupancyResidential, []string{`HALLWAY WIDTH 2'-10"`}, []string{`HALLWAY WIDTH 3'-0"`, `HALL WIDTH 42"`}},

	{"ibc-1011.5.2-riser-max", OccupancyCommercial, []string{`22 RISERS @ 7 1/4"`, `RISER 8"`}, []string{`22 RISERS @ 7"`, `RISER 6 3/4"`}},
	{"ibc-1011.5.2-riser-min", OccupancyCommercial, []string{`RISER 3 1/2"`}, []string{`RISER 4"`, `FIRE RISER 2 1/2"`, `RISER 2" DIA`}},
	{"ibc-1011.5.2-riser-computed", OccupancyCommercial, []string{`TOTAL RISE 12'-0" 18 RISERS`}, []string{`TOTAL RISE 12'-0" 21 RISERS`}},
	{"ibc-1011.5.4-riser-uniformity", OccupancyCommercial, []string{`RISERS 6" TO 6 1/2"`}, []string{`RISERS 6 1/4" TO 6 1/2"`}},
	{"irc-r311.7.3-flight-rise", OccupancyResidential, []string{`TOTAL RISE 13'-0"`}, []string{`TOTAL RISE 12'-7"`, `TOTAL RISE 13'-0" (2 FLIGHTS)`, `TOTAL RISE 13'-0" WITH LANDING`}},
	{"ibc-1011.8-flight-rise", OccupancyCommercial, []string{`TOTAL RISE 13'-4"`}, []string{`TOTAL RISE 12'-0"`, `TOTAL RISE 14'-0" AT LANDING`}},
	{"ibc-1011.5.2-tread-depth", OccupancyCommercial, []string{`TREAD 10 1/2"`, `TREAD 9"`}, []string{`TREAD 11"`}},
	{"ibc-1011.3-headroom", OccupancyCommercial, []string{`HEADROOM 6'-6"`}, []string{`HEADROOM 80"`, `HEADROOM 7'-0"`}},
	{"ibc-1011.2-stair-width", OccupancyCommercial, []string{`STAIR WIDTH 40"`, `STAIR WIDTH 32"`}, []string{`STAIR WIDTH 44"`, `STAIR WIDTH 5'-0"`}},
	{"ibc-1014.2-handrail-height", OccupancyCommercial, []string{`HANDRAIL HEIGHT 39"`}, []string{`HANDRAIL HEIGHT 36"`}},
	{"ibc-1015.3-guard-height", OccupancyCommercial, []string{`GUARD HEIGHT 36"`, `GUARD HEIGHT 34"`}, []string{`GUARD HEIGHT 42"`, `GUARD HEIGHT 3'-6"`}},
	{"ibc-1015.4-guard-openings", OccupancyCommercial, []string{`BALUSTER SPACING 4 1/2" CLEAR`}, []string{`BALUSTER SPACING 3 1/2" CLEAR`, `PICKETS @ 6" O.C.`}},
	{"ibc-1010.1.1-door-clear-width", OccupancyCommercial, []string{`DOOR 2'-6" CLEAR`, `DOOR CLEAR WIDTH 30"`}, []string{`DOOR 2'-10" CLEAR`, `STORAGE CLOSET DOOR 2'-0" CLEAR`}},
	{"ibc-1020.2-corridor-width", OccupancyCommercial, []string{`CORRIDOR WIDTH 34"`, `CORRIDOR WIDTH 40"`}, []string{`CORRIDOR WIDTH 44"`, `CORRIDOR WIDTH 6'-0"`}},
	{"ibc-1012.2-ramp-slope", OccupancyCommercial, []string{"RAMP SLOPE 1:6", "RAMP SLOPE 1:10"}, []string{"RAMP SLOPE 1:12", "RAMP SLOPE 1:16"}},
	{"ibc-1208.2-ceiling-height", OccupancyCommercial, []string{`CEILING HEIGHT 7'-0"`, `CLG. HT. 6'-10"`}, []string{`CEILING HEIGHT 7'-6"`, `TOILET RM CEILING HEIGHT 7'-0"`, `CORRIDOR CEILING HEIGHT 7'-0"`}},
	{"ibc-1003.2-egress-ceiling-height", OccupancyCommercial, []string{`CORRIDOR CEILING HEIGHT 7'-0"`, `EXIT STAIR CLG. HT. 6'-10"`}, []string{`CORRIDOR CEILING HEIGHT 8'-0"`, `CORRIDOR CEILING HEIGHT AT BEAM 7'-0"`}},
	{"ibc-1006.3.3-exits-for-occupant-load", OccupancyCommercial, []string{"OCCUPANT LOAD: 320 EXITS PROVIDED: 1", "OCCUPANT LOAD: 650 NUMBER OF EXITS: 2"}, []string{"OCCUPANT LOAD: 320 EXITS PROVIDED: 2", "OCCUPANT LOAD: 40 EXITS PROVIDED: 1"}},
	{"ibc-1005.3.1-stair-capacity-factor", OccupancyCommercial, []string{"STAIR CAPACITY FACTOR: 0.15 IN/OCC", "STAIRS 0.2 IN. PER OCCUPANT"}, []string{"STAIR CAPACITY FACTOR: 0.3 IN/OCC"}},
	{"ibc-1005.3.2-other-capacity-factor", OccupancyCommercial, []string{"DOOR CAPACITY FACTOR: 0.1 IN/OCC"}, []string{"DOOR CAPACITY FACTOR: 0.2 IN/OCC"}},
	{"ibc-1005.3.1-stair-capacity-width", OccupancyCommercial, []string{`OCCUPANT LOAD: 320 STAIR EGRESS WIDTH PROVIDED: 60"`}, []string{`OCCUPANT LOAD: 320 STAIR EGRESS WIDTH PROVIDED: 8'-0"`}},
	{"ibc-1005.3.2-other-capacity-width", OccupancyCommercial, []string{`OCCUPANT LOAD: 320 DOOR EGRESS WIDTH PROVIDED: 48"`}, []string{`OCCUPANT LOAD: 320 DOOR EGRESS WIDTH PROVIDED: 72"`}},

	{"completeness-preliminary-stamp", OccupancyResidential, []string{"NOT FOR CONSTRUCTION", "PRELIMINARY", "PRELIMINARY SET"}, []string{"ISSUED FOR PERMIT", "PRELIMINARY GEOTECHNICAL REPORT BY OTHERS"}},
	{"completeness-code-edition-current", OccupancyResidential, []string{"DESIGNED TO THE 2018 IRC", "IRC 2015 AS AMENDED", "2018 INTERNATIONAL RESIDENTIAL CODE"},
		[]string{"DESIGNED TO THE 2021 IRC", "2017 NEC", "2021 IRC, 2018 IFC", "5TH EDITION (2014) FBC", "PER IRC 2003.2 AND 2021 IRC", "SEE IBC 1905.1.7"}},
	{"completeness-reference-to-missing-sheet", OccupancyResidential, []string{"SEE 3/A-501", "SEE SHEET S-301"}, []string{"SEE 3/A-201", "SEE G-001", `1/4" = 1'-0"`}},
}

// TestRulesFireAndStaySilent runs every case on a two-sheet set: a cover
// with a full code analysis and a sheet index, and A-201 with the line.
func TestRulesFireAndStaySilent(t *testing.T) {
	e := loadAll(t)
	for _, tc := range ruleCases {
		for _, fire := range []bool{true, false} {
			lines := tc.pass
			if fire {
				lines = tc.fire
			}
			for _, line := range lines {
				cover := codePage(tc.occupancy, "SHEET INDEX", "G-001 COVER", "A-201 STAIRS")
				sheet := textPage(2, "A-201", "PLAN NOTES", line)
				fs := reviewPages(t, e, cover, sheet)
				got := byRule(fs, tc.rule)
				if fire && len(got) == 0 {
					t.Errorf("%s: %q did not fire", tc.rule, line)
				}
				if !fire && len(got) > 0 {
					t.Errorf("%s: %q fired: %s", tc.rule, line, got[0].Rationale)
				}
				for _, f := range got {
					if f.Rationale == "" || strings.Contains(f.Rationale, "{") {
						t.Errorf("%s: rationale %q", tc.rule, f.Rationale)
					}
					if len(f.Anchors) == 0 {
						t.Errorf("%s: no anchor", tc.rule)
					}
				}
			}
		}
	}
}

// TestRulesStayOnTheirOccupancy: IRC rules are silent on a commercial set
// and IBC rules on a residential one; neither runs when occupancy is unknown.
func TestRulesStayOnTheirOccupancy(t *testing.T) {
	e := loadAll(t)
	line := `14 RISERS @ 8"`
	for _, tc := range []struct {
		cover   []string
		wantIRC bool
		wantIBC bool
	}{
		{[]string{"OCCUPANCY: R-3"}, true, false},
		{[]string{"APPLICABLE CODES: 2021 IRC"}, true, false},
		{[]string{"OCCUPANCY GROUP: B"}, false, true},
		{[]string{"APPLICABLE CODES: 2021 IBC", "OCCUPANCY: R-2"}, false, true},
		{[]string{"APPLICABLE CODES: 2021 IBC"}, false, true},
		{[]string{"GENERAL NOTES"}, false, false},
	} {
		fs := reviewPages(t, e, textPage(1, "G-001", tc.cover...), textPage(2, "A-201", line))
		if got := len(byRule(fs, "irc-r311.7.5.1-riser-height")) > 0; got != tc.wantIRC {
			t.Errorf("%v: IRC riser rule fired=%v", tc.cover, got)
		}
		if got := len(byRule(fs, "ibc-1011.5.2-riser-max")) > 0; got != tc.wantIBC {
			t.Errorf("%v: IBC riser rule fired=%v", tc.cover, got)
		}
	}
}

// TestEveryRuleIsTested keeps the tables honest: each active rule has a
// firing case here or a dedicated test.
func TestEveryRuleIsTested(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range ruleCases {
		covered[tc.rule] = true
	}
	for _, id := range dedicatedTests {
		covered[id] = true
	}
	for _, r := range loadAll(t).Rules() {
		if !covered[r.ID] {
			t.Errorf("rule %s has no test", r.ID)
		}
	}
}

// dedicatedTests lists rules tested outside ruleCases (completeness_test.go
// and the golden sets).
var dedicatedTests = []string{
	"coverage-unreadable-page", "coverage-no-readable-pages", "scope-not-reviewed", "scope-codes-not-applied", "coverage-code-analysis-unread", "completeness-unfinished-text", "consistency-tag-not-in-schedule", "consistency-schedule-mark-not-on-plans", "consistency-scale-conflict", "consistency-schedule-mark-repeated", "completeness-issue-status", "completeness-empty-schedule-cell", "completeness-index-title-mismatch", "completeness-reference-to-missing-document",
	"completeness-reference-to-missing-drawing", "consistency-room-number-repeated",
	"completeness-sheet-index-missing-sheet", "completeness-sheet-not-in-index",
	"completeness-duplicate-sheet-number", "completeness-title-block-sheet-number",
	"completeness-title-block-sheet-title", "completeness-title-block-date",
	"completeness-title-block-scale", "completeness-code-edition-stated",
	"completeness-occupancy-stated", "completeness-construction-type-stated",
	"completeness-sprinklers-stated",
	// outcomes_test.go
	"completeness-sheet-index-absent", "completeness-index-duplicate-entry",
	"completeness-index-placeholder-title", "coverage-checks-not-covered",
	"consistency-area-total", "consistency-floor-area-plan", "consistency-stories-plans", "consistency-height-elevations", // projectdata_test.go
}

// TestImplausibleValuesAreNotEvidence: dimensions that cannot be what the
// rule measures (a tread thickness, a total rise) are ignored.
func TestImplausibleValuesAreNotEvidence(t *testing.T) {
	e := loadAll(t)
	for _, tc := range []struct{ rule, line string }{
		{"irc-r311.7.5.2-tread-depth", `TREAD 1 1/8" THICK OAK`},
		{"irc-r311.7.5.1-riser-height", `14 RISERS 9'-1" TOTAL`},
		{"irc-r312.1.2-guard-height", `GUARD 2X4 CAP 1 1/2"`},
	} {
		fs := reviewPages(t, e, codePage(OccupancyResidential, "SHEET INDEX", "G-001 COVER", "A-201 STAIRS"),
			textPage(2, "A-201", tc.line))
		if got := byRule(fs, tc.rule); len(got) > 0 {
			t.Errorf("%s fired on %q: %s", tc.rule, tc.line, got[0].Rationale)
		}
	}
}

// TestDoubtfulBandLowersConfidence: a value an unshown exception could
// excuse is reported at the band's confidence, a clear violation at the
// rule's.
func TestDoubtfulBandLowersConfidence(t *testing.T) {
	e := loadAll(t)
	for _, tc := range []struct {
		occupancy, rule, line string
		want                  float64
	}{
		{OccupancyResidential, "irc-r311.8.1-ramp-slope", "RAMP SLOPE 1:10", 0.6},
		{OccupancyResidential, "irc-r311.8.1-ramp-slope", "RAMP SLOPE 1:6", 0.85},
		{OccupancyResidential, "irc-r310.2.1-eero-area", "EGRESS OPENING 5.2 SF", 0.6},
		{OccupancyResidential, "irc-r310.2.1-eero-area", "EGRESS OPENING 4.8 SF", 0.85},
		{OccupancyCommercial, "ibc-1011.5.2-riser-max", `RISER 7 1/2"`, 0.6},
		{OccupancyCommercial, "ibc-1011.5.2-riser-max", `RISER 8"`, 0.85},
		{OccupancyCommercial, "ibc-1015.3-guard-height", `GUARD HEIGHT 36"`, 0.6},
		{OccupancyCommercial, "ibc-1015.3-guard-height", `GUARD HEIGHT 30"`, 0.85},
	} {
		fs := reviewPages(t, e, codePage(tc.occupancy), textPage(2, "A-201", tc.line))
		got := byRule(fs, tc.rule)
		if len(got) != 1 || got[0].Confidence != tc.want {
			t.Errorf("%s on %q: %+v, want confidence %v", tc.rule, tc.line, got, tc.want)
		}
	}
}

// TestCapacityFactorsFollowSprinklersAndVoiceAlarm: the reduced factors
// need both systems stated; sprinklers alone only lower the confidence.
func TestCapacityFactorsFollowSprinklersAndVoiceAlarm(t *testing.T) {
	e := loadAll(t)
	for _, tc := range []struct {
		name  string
		extra []string
		rule  string
		line  string
		want  float64 // 0: no finding
	}{
		{"voice alarm, 0.2 stairs", []string{"EMERGENCY VOICE/ALARM COMMUNICATION SYSTEM"}, "ibc-1005.3.1-stair-capacity-factor", "STAIR CAPACITY FACTOR: 0.2 IN/OCC", 0},
		{"sprinklers only, 0.2 stairs", nil, "ibc-1005.3.1-stair-capacity-factor", "STAIR CAPACITY FACTOR: 0.2 IN/OCC", 0.6},
		{"sprinklers only, 0.15 stairs", nil, "ibc-1005.3.1-stair-capacity-factor", "STAIR CAPACITY FACTOR: 0.15 IN/OCC", 0.85},
		{"voice alarm, 70 in for 320", []string{"EMERGENCY VOICE/ALARM COMMUNICATION SYSTEM"}, "ibc-1005.3.1-stair-capacity-width", `OCCUPANT LOAD: 320 STAIR EGRESS WIDTH PROVIDED: 70"`, 0},
		{"sprinklers only, 70 in for 320", nil, "ibc-1005.3.1-stair-capacity-width", `OCCUPANT LOAD: 320 STAIR EGRESS WIDTH PROVIDED: 70"`, 0.6},
		{"sprinklers only, 60 in for 320", nil, "ibc-1005.3.1-stair-capacity-width", `OCCUPANT LOAD: 320 STAIR EGRESS WIDTH PROVIDED: 60"`, 0.85},
	} {
		fs := reviewPages(t, e, codePage(OccupancyCommercial, append(tc.extra, tc.line)...))
		got := byRule(fs, tc.rule)
		switch {
		case tc.want == 0 && len(got) != 0:
			t.Errorf("%s: fired: %s", tc.name, got[0].Rationale)
		case tc.want != 0 && (len(got) != 1 || got[0].Confidence != tc.want):
			t.Errorf("%s: %+v, want confidence %v", tc.name, got, tc.want)
		}
	}
}
