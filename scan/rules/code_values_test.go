package rules

import (
	"sort"
	"strings"
	"testing"

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

// codeRuleHits lists "rule sheet: anchor text" for the findings of the
// rules that have value readers.
func codeRuleHits(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if valueReaders[f.RuleID] == nil {
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

func TestCodeValuesResidentialPDF(t *testing.T) {
	doorLabels, doorRules := table(120, 900, []float64{60, 220, 160, 120, 200},
		[]string{"MARK", "LOCATION", "SIZE", "TYPE", "REMARKS"},
		[]string{"101", "FRONT ENTRY", `2'-6" X 6'-8"`, "A", "SOLID CORE"},
		[]string{"102", "BEDROOM 2", `2'-6" X 6'-8"`, "B", ""},
		[]string{"103", "REAR ENTRY", "3068", "A", ""},
		[]string{"104", "ENTRY CLOSET", `2'-0" X 6'-8"`, "C", ""})
	// A frame schedule and a window schedule are not door widths.
	frameLabels, frameRules := table(900, 900, []float64{60, 220, 160},
		[]string{"DOOR", "LOCATION", "FRAME WIDTH"},
		[]string{"101", "FRONT ENTRY", `2'-4"`})
	windowLabels, windowRules := table(1400, 900, []float64{60, 220, 160, 160},
		[]string{"MARK", "LOCATION", "SIZE", "ROUGH OPENING"},
		[]string{"W1", "BEDROOM 2 EGRESS", `2'-0" X 3'-0"`, `2'-1" X 3'-1"`})
	roomLabels, roomRules := table(120, 900, []float64{60, 220, 120, 160},
		[]string{"NO.", "ROOM NAME", "FLOOR", "CEILING HEIGHT"},
		[]string{"101", "LIVING", "CPT", `6'-10"`},
		[]string{"102", "BATH", "TILE", `6'-8"`},
		[]string{"103", "BEDROOM", "CPT", `8'-0"`},
		[]string{"104", "DEN (E)", "CPT", `6'-6"`})
	fs := reviewPDF(t,
		codeSheet(OccupancyResidential),
		plangen.SheetSpec{Number: "A-301", Title: "BUILDING SECTIONS", Date: "2026-03-02", Scale: scale14,
			Labels: concatLabels(
				plangen.Notes(120, 140, "MAIN STAIR", "15 RISERS", `8 1/4" RISE`, `9" RUN`, `6'-4" MIN. HEADROOM`),
				plangen.Notes(900, 140, "DECK NOTES", `32" HIGH GUARDRAIL`, `HANDRAIL 39" ABOVE NOSING`),
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
				plangen.Notes(1500, 700, "STAIR C", `1 1/8" TREAD`, `7 1/2" RISERS`, `10 1/2" TREADS`))},
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
