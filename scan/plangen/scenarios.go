package plangen

import "fmt"

const issueDate = "2026-03-02"

// note writes a label at (left, top) in the drawing area in the note font.
func (s *sheet) note(text string, left, top float64) Label {
	return s.text(text, "Helvetica", 14, left, top)
}

// plant writes a dimension or note that violates ruleID in the set and
// complies in the twin, and records the expected finding.
func (s *sheet) plant(ruleID, severity, bad, good string, left, top float64) Label {
	l := s.note(s.g.pick(bad, good), left, top)
	s.expect(ruleID, severity, l)
	return l
}

func (g *generator) fill(s *sheet) {
	if g.opts.FillerPerPage > 0 {
		s.filler(g.opts.FillerPerPage, 80, 700, PageWidth-420, PageHeight-120)
	}
}

// residential is a single-family dwelling designed to the 2021 IRC: cover
// sheet with index and code analysis, floor plan, stair section, details and
// a foundation plan.
func (g *generator) residential() error {
	g.set = &Set{Name: "residential", Variant: VariantResidential, Compliant: g.opts.Compliant,
		Adopted: []string{"ibc-2021", "irc-2021"}}
	if g.opts.Compliant {
		g.set.Name += "-compliant"
	}
	f := g.newFile("residential-permit-set.pdf")
	const project, address = "MARLOWE RESIDENCE", "418 ALDER STREET"

	cover := g.newSheet(f, "G-001", "COVER SHEET")
	cover.titleBlock(project, address, issueDate, "AS NOTED")
	rows := [][2]string{{"G-001", "COVER SHEET"}, {"A-101", "FLOOR PLAN"}}
	rows = append(rows, g.extraRows()...)
	rows = append(rows, [][2]string{{"A-201", "STAIR SECTION"}, {"A-301", "DETAILS"}}...)
	if g.opts.Compliant {
		rows = append(rows, [2]string{"S-101", "FOUNDATION PLAN"})
	} else {
		rows = append(rows, [2]string{"A-401", "INTERIOR ELEVATIONS"})
	}
	index := cover.sheetIndex(80, 120, rows)
	if r, ok := index["A-401"]; ok {
		cover.expect("completeness-sheet-index-missing-sheet", "medium", r[0], r[1])
	}
	cover.text("CODE ANALYSIS", "Helvetica-Bold", 16, 900, 120)
	codes := cover.note("APPLICABLE CODES:", 900, 150)
	stated := cover.after(codes, g.pick("2018 IRC", "2021 IRC"))
	cover.expect("completeness-code-edition-current", "medium", stated)
	cover.note("OCCUPANCY: R-3 SINGLE FAMILY DWELLING", 900, 174)
	// The IRC does not classify a dwelling by construction type: leaving
	// it out is no violation (the compliant set states it, as many do).
	if g.opts.Compliant {
		cover.note("CONSTRUCTION TYPE: V-B", 900, 198)
	}
	cover.note("SPRINKLERED: NO", 900, 222)
	cover.note("GENERAL NOTES", 900, 300)
	cover.note("1. ALL WORK SHALL COMPLY WITH THE ADOPTED CODES.", 900, 324)
	cover.note("2. VERIFY ALL DIMENSIONS IN THE FIELD.", 900, 348)

	plan := g.newSheet(f, "A-101", "FLOOR PLAN")
	plan.titleBlock(project, address, issueDate, `1/4" = 1'-0"`)
	plan.plant("irc-r310.2.1-eero-area", "high", "EGRESS WINDOW NET CLEAR OPENING 4.8 SF", "EGRESS WINDOW NET CLEAR OPENING 5.7 SF", 120, 140)
	plan.plant("irc-r310.2.3-eero-sill-height", "high", `EGRESS WINDOW SILL HEIGHT 48"`, `EGRESS WINDOW SILL HEIGHT 44"`, 120, 200)
	plan.plant("irc-r305.1-ceiling-height", "medium", `CEILING HEIGHT 6'-10"`, `CEILING HEIGHT 8'-0"`, 700, 140)
	plan.plant("irc-r311.2-egress-door-width", "high", `FRONT DOOR 2'-6" CLEAR`, `FRONT DOOR 2'-10" CLEAR`, 700, 200)
	plan.plant("irc-r311.6-hallway-width", "medium", `HALLWAY WIDTH 2'-10"`, `HALLWAY WIDTH 3'-6"`, 1300, 140)
	plan.plant("irc-r311.8.1-ramp-slope", "high", "RAMP SLOPE 1:10", "RAMP SLOPE 1:12", 1300, 200)
	ref := plan.note(g.pick("SEE 5/A-501", "SEE 5/A-301"), 1300, 260)
	plan.expect("completeness-reference-to-missing-sheet", "medium", ref)
	plan.note("BEDROOM 2", 400, 500)
	plan.note("KITCHEN", 800, 500)
	g.fill(plan)
	g.extraSheets(f, project, address)

	stair := g.newSheet(f, "A-201", "STAIR SECTION")
	stair.titleBlock(project, address, issueDate, `1/2" = 1'-0"`)
	stair.plant("irc-r311.7.5.1-riser-height", "high", `14 RISERS @ 8 1/4"`, `14 RISERS @ 7 1/2"`, 120, 140)
	stair.plant("irc-r311.7.5.2-tread-depth", "high", `TREAD 9"`, `TREAD 10 1/2"`, 120, 190)
	stair.plant("irc-r311.7.2-headroom", "high", `HEADROOM 6'-4"`, `HEADROOM 6'-8"`, 120, 240)
	stair.plant("irc-r311.7.1-stair-width", "high", `STAIR WIDTH 34"`, `STAIR WIDTH 3'-0"`, 120, 290)
	stair.plant("irc-r311.7.8.1-handrail-height", "medium", `HANDRAIL HEIGHT 40"`, `HANDRAIL HEIGHT 36"`, 120, 340)
	total := stair.note(g.pick(`TOTAL RISE 9'-2"`, `TOTAL RISE 8'-9"`), 800, 140)
	count := stair.note(g.pick("13 RISERS", "14 RISERS"), 800, 160)
	stair.expect("irc-r311.7.5.1-riser-computed", "high", total, count)
	total2 := stair.note(g.pick(`TOTAL RISE 7'-4"`, `TOTAL RISE 7'-9"`), 800, 300)
	count2 := stair.note(`12 RISERS @ 7 3/4"`, 800, 320)
	stair.expect("irc-r311.7.5.1-riser-uniformity", "medium", total2, count2)
	g.fill(stair)

	details := g.newSheet(f, "A-301", "DETAILS")
	details.titleBlock(project, address, issueDate, `1 1/2" = 1'-0"`)
	details.plant("irc-r312.1.2-guard-height", "high", `GUARD HEIGHT 32"`, `GUARD HEIGHT 36"`, 120, 140)
	details.plant("irc-r312.1.3-guard-openings", "high", `BALUSTER SPACING 4 1/2" CLEAR`, `BALUSTER SPACING 3 3/4" CLEAR`, 120, 200)
	details.plant("completeness-preliminary-stamp", "high", "NOT FOR CONSTRUCTION", "ISSUED FOR PERMIT", 1300, 140)
	details.note("5", 600, 400)
	details.note("GUARD ATTACHMENT DETAIL", 640, 400)
	g.fill(details)

	foundation := g.newSheet(f, "S-101", "FOUNDATION PLAN")
	scale := g.pick("", `1/4" = 1'-0"`)
	number := foundation.titleBlock(project, address, issueDate, scale)
	foundation.expect("completeness-title-block-scale", "low")
	foundation.expect("completeness-sheet-not-in-index", "low", number)
	foundation.note(`FOOTING 16" WIDE X 8" DEEP`, 120, 140)
	g.fill(foundation)
	return g.err
}

// commercial is a two-storey Group B office designed to the 2021 IBC, in
// two files: the main set and a stair detail file registered after it.
func (g *generator) commercial() error {
	g.set = &Set{Name: "commercial", Variant: VariantCommercial, Compliant: g.opts.Compliant,
		Adopted: []string{"ibc-2021", "irc-2021"}}
	if g.opts.Compliant {
		g.set.Name += "-compliant"
	}
	f := g.newFile("commercial-main.pdf")
	const project, address = "HARBOR POINT OFFICES", "77 QUAY ROAD"

	cover := g.newSheet(f, "G-001", "CODE ANALYSIS AND INDEX")
	cover.titleBlock(project, address, issueDate, "AS NOTED")
	rows := [][2]string{{"G-001", "CODE ANALYSIS AND INDEX"}, {"A-101", "FIRST FLOOR PLAN"}}
	rows = append(rows, g.extraRows()...)
	rows = append(rows, [][2]string{{"A-201", "STAIR PLANS AND SECTIONS"}, {"A-202", "STAIR DETAILS"}}...)
	index := cover.sheetIndex(80, 120, rows)
	cover.text("CODE ANALYSIS", "Helvetica-Bold", 16, 900, 120)
	codes := cover.note("APPLICABLE CODES:", 900, 150)
	cover.after(codes, "2021 IBC")
	cover.note("OCCUPANCY GROUP: B", 900, 174)
	cover.note("CONSTRUCTION TYPE: II-B", 900, 198)
	cover.note("SPRINKLERED: YES (NFPA 13)", 900, 222)
	load := cover.note("OCCUPANT LOAD: 320", 900, 246)
	exits := cover.note(g.pick("EXITS PROVIDED: 1", "EXITS PROVIDED: 2"), 900, 270)
	cover.expect("ibc-1006.3.3-exits-for-occupant-load", "critical", load, exits)
	factor := cover.note(g.pick("STAIR CAPACITY FACTOR: 0.15 IN/OCC", "STAIR CAPACITY FACTOR: 0.3 IN/OCC"), 900, 294)
	cover.expect("ibc-1005.3.1-stair-capacity-factor", "high", factor)
	cover.note("DOOR CAPACITY FACTOR: 0.2 IN/OCC", 900, 318)
	width := cover.note(g.pick(`STAIR EGRESS WIDTH PROVIDED: 60"`, `STAIR EGRESS WIDTH PROVIDED: 120"`), 900, 342)
	cover.expect("ibc-1005.3.1-stair-capacity-width", "high", load, width)

	plan := g.newSheet(f, "A-101", "FIRST FLOOR PLAN")
	plan.titleBlock(project, address, issueDate, `1/8" = 1'-0"`)
	plan.plant("ibc-1010.1.1-door-clear-width", "high", `DOOR 2'-6" CLEAR`, `DOOR 2'-10" CLEAR`, 120, 140)
	plan.plant("ibc-1020.2-corridor-width", "high", `CORRIDOR WIDTH 34"`, `CORRIDOR WIDTH 5'-0"`, 120, 200)
	plan.plant("ibc-1012.2-ramp-slope", "high", "RAMP SLOPE 1:6", "RAMP SLOPE 1:12", 700, 140)
	plan.plant("ibc-1208.2-ceiling-height", "medium", `CEILING HEIGHT 6'-10"`, `CEILING HEIGHT 9'-0"`, 700, 200)
	plan.note("OPEN OFFICE 110", 400, 500)
	plan.note("CONFERENCE 112", 800, 500)
	g.fill(plan)
	g.extraSheets(f, project, address)

	stair := g.newSheet(f, "A-201", "STAIR PLANS AND SECTIONS")
	stair.titleBlock(project, address, issueDate, `1/4" = 1'-0"`)
	stair.plant("ibc-1011.5.2-riser-max", "high", `22 RISERS @ 8"`, `22 RISERS @ 6 3/4"`, 120, 140)
	stair.plant("ibc-1011.5.2-riser-min", "medium", `RISER 3 1/2"`, `RISER 6"`, 120, 190)
	stair.plant("ibc-1011.5.2-tread-depth", "high", `TREAD 9"`, `TREAD 11"`, 120, 240)
	stair.plant("ibc-1011.3-headroom", "high", `HEADROOM 6'-6"`, `HEADROOM 7'-0"`, 120, 290)
	stair.plant("ibc-1011.2-stair-width", "high", `STAIR WIDTH 32"`, `STAIR WIDTH 48"`, 120, 340)
	stair.plant("ibc-1014.2-handrail-height", "medium", `HANDRAIL HEIGHT 39"`, `HANDRAIL HEIGHT 36"`, 120, 390)
	total := stair.note(`TOTAL RISE 12'-0"`, 800, 140)
	count := stair.note(g.pick("18 RISERS", "22 RISERS"), 800, 160)
	stair.expect("ibc-1011.5.2-riser-computed", "high", total, count)
	g.fill(stair)

	f2 := g.newFile("commercial-stair-details.pdf")
	detailNumber := g.pick("A-201", "A-202")
	details := g.newSheet(f2, detailNumber, "STAIR DETAILS")
	number := details.titleBlock(project, address, issueDate, `1 1/2" = 1'-0"`)
	details.expect("completeness-duplicate-sheet-number", "medium", number)
	if !g.opts.Compliant {
		r := index["A-202"]
		cover.expect("completeness-sheet-index-missing-sheet", "medium", r[0], r[1])
	}
	details.plant("ibc-1015.3-guard-height", "high", `GUARD HEIGHT 34"`, `GUARD HEIGHT 42"`, 120, 140)
	details.plant("ibc-1015.4-guard-openings", "high", `BALUSTER SPACING 4 1/2" CLEAR`, `BALUSTER SPACING 3 1/2" CLEAR`, 120, 200)
	ref := details.note(g.pick("SEE 3/A-501", "SEE 3/A-201"), 700, 140)
	details.expect("completeness-reference-to-missing-sheet", "medium", ref)
	g.fill(details)
	if g.err != nil {
		return fmt.Errorf("plangen: commercial set: %w", g.err)
	}
	return nil
}
