package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"planreview/scan/layout"
	"planreview/scan/sheets"
	"planreview/textmatch"
)

// A site plan that gives no distance from the building to any lot line.
// The construction documents' site plan must show the distances from the
// lot lines (IRC 2021 R106.2, IBC 2021 107.2.6); an examiner sends back a
// plot plan that dimensions only the lot.
//
// The check reads the dimension strings of a sheet or view titled as a
// site or plot plan: texts that are a length alone ("123'-10\"",
// "62.50'"), with or without a bearing ("N 89°59'00\" E 120.00'"). It
// reports when every one of them is a lot line's length and nothing on the
// page names a setback. A length is a lot line's when the layout says so:
// the lengths stand on the outside of the drawing, one side each (the
// horizontal ones along its top and bottom, the vertical ones along its
// sides), and the drawing's width and height on paper are to each other as
// the lengths they print (one scale both ways: setbacks between a house
// and its lines are not); a bearing printed with every length says it
// outright. Anything else (a setback labelled as such, a dimension inside
// the lot, a second plan view on the sheet whose dimensions cannot be told
// apart) leaves the check silent. Every site plan of the file must be so
// before the file is reported: one dimensioned site plan answers it.
//
// A civil, landscape or utility sheet is not the building's site plan
// (civil sets put dimensions on a layout plan of their own), and a
// vicinity map is no site plan. A site plan whose text layer was not read
// in full is "could not read", in the file's coverage finding.

var (
	sitePlanTitleRe   = textmatch.MustCompile(`(?i)\b(?:SITE|PLOT)\s+PLAN\b`)
	sitePlanCaptionRe = textmatch.MustCompile(`(?i)^(?:\d{1,2}\s+)?(?:(?:PROPOSED|EXISTING|ARCHITECTURAL|OVERALL|NEW)\s+)?(?:SITE|PLOT)\s+PLAN[,.:]?$`)
	// notSitePlanRe: plans of the site that are not the building's site
	// plan (their own sheets in a civil or landscape set), and parts of
	// one.
	notSitePlanRe = textmatch.MustCompile(`(?i)\b(?:UTILITY|UTILITIES|GRADING|DRAINAGE|LANDSCAPE|PLANTING|EROSION|DEMOLITION|DEMO|LIGHTING|PHOTOMETRIC|ELECTRICAL|IRRIGATION|STAGING|LOGISTICS|KEY|ENLARGED|PARTIAL|FIRE|STORM|SEWER|PAVING|STRIPING|VICINITY|LOCATION)\b`)
	// otherViewRe: a caption of another drawing on the sheet, whose
	// dimensions the site plan's cannot be told apart from.
	otherViewRe = textmatch.MustCompile(`(?i)^(?:\d{1,2}\s+)?(?:[A-Z0-9]+\s+){0,3}(?:FLOOR|ROOF|FOUNDATION|FRAMING|CEILING)\s+PLAN[,.]?$|^(?:\d{1,2}\s+)?(?:[A-Z]+\s+){0,2}(?:ELEVATION|SECTION)S?[,.]?$`)
	// setbackWordRe: the page names a distance to a line (a setback, a
	// yard, "TO P.L."): the site plan gives distances, labelled.
	setbackWordRe = textmatch.MustCompile(`(?i)\bSET\s*-?\s*BACKS?\b|\bYARD\b|\b(?:TO|FROM)\s+(?:THE\s+)?(?:P\.?\s?L\.?|PROP(?:ERTY|\.)?\s+LINE|LOT\s+LINE|R\.?O\.?W\.?)(?:\W|$)|\bP\.?L\.?\s+TO\b`)
	// A bearing: N 89°59'00" E.
	bearingPattern = `[NS]\s*\d{1,3}\s*°\s*(?:\d{1,2}\s*['’]\s*)?(?:\d{1,2}(?:\.\d+)?\s*(?:"|”|'')\s*)?[EW]`
	// A length in feet: 123'-10", 62'-9 3/4", 120.50', 63'-5 ".
	feetPattern = `(\d{1,4}(?:\.\d{1,2})?)\s*['’]\s*(?:-\s*)?(?:(\d{1,2})(?:\s+\d{1,2}/\d{1,2}|\s*[¼½¾⅛⅜⅝⅞])?\s*(?:"|”|'')?)?`
	// lengthInTextRe: a length in feet anywhere in a text; scaleStatementRe:
	// a scale ("SCALE: 1/4\" = 1'-0\"", "1\" = 20'").
	lengthInTextRe   = textmatch.MustCompile(`(?i)\d\s*['’]|\b\d+(?:\.\d+)?\s*(?:FT|FEET)\b`)
	scaleStatementRe = textmatch.MustCompile(`(?i)\bSCALE\b|=`)
	// bareDimensionRe: a text that is a length alone, a bearing on either
	// side of it.
	bareDimensionRe = textmatch.MustCompile(`^\s*(` + bearingPattern + `\s*)?` + feetPattern + `\s*(` + bearingPattern + `)?\s*$`)
)

// siteDimension is one length printed on a site plan.
type siteDimension struct {
	line    int    // layout line
	text    string // as the finding quotes it: 63'-5", or the bearing's line as printed
	feet    float64
	bearing bool
	box     layout.Box
	angle   float64
	words   []int
}

// sitePlanReading is what one site-plan page says of distances to lines.
type sitePlanReading struct {
	pv        *pageView
	titled    []int // the title's or caption's words
	lotLines  []siteDimension
	lotOnly   bool    // every dimension is a lot line's length, no setback named
	certainty float64 // how sure the lot-line reading is
}

// isSitePlan reports whether a page is a site or plot plan (by its title,
// else a view caption standing alone), with the words that say so.
func (pv *pageView) isSitePlan() ([]int, bool) {
	switch pv.Ident.Type {
	case sheets.TypeCivil, sheets.TypeLandscape, sheets.TypeSurvey, sheets.TypeElectrical, sheets.TypeMechanical,
		sheets.TypePlumbing, sheets.TypeFireProtection, sheets.TypeStructural:
		return nil, false
	}
	if sitePlanTitleRe.MatchString(pv.Ident.Title) && !notSitePlanRe.MatchString(pv.Ident.Title) {
		return pv.Ident.TitleWords, true
	}
	if !pv.Readable {
		return nil, false
	}
	lp := pv.Layout()
	for li := range lp.Lines {
		l := &lp.Lines[li]
		if l.Angle == 0 && len(l.Words) <= 5 && sitePlanCaptionRe.MatchString(strings.TrimSpace(l.Text)) {
			return l.Words, true
		}
	}
	return nil, false
}

// readSitePlan reads a site plan's dimension strings.
func readSitePlan(pv *pageView, titled []int) sitePlanReading {
	rd := sitePlanReading{pv: pv, titled: titled}
	lp := pv.Layout()
	// The whole page is read, title block included: a title block prints
	// no bare length, and a setback or another view named anywhere on
	// the sheet is reason enough to stay silent.
	var dims []siteDimension
	for li := range lp.Lines {
		l := &lp.Lines[li]
		text := strings.TrimSpace(l.Text)
		if setbackWordRe.MatchString(text) {
			return rd // the distances are labelled
		}
		if len(l.Words) <= 5 && otherViewRe.MatchString(text) {
			return rd // another drawing's dimensions on the sheet
		}
		if pv.Explains(l.Words) {
			continue
		}
		m := bareDimensionRe.FindStringSubmatch(text)
		if m == nil {
			// A length inside other words ("(E) 10'-0\"", "25 FT") is a
			// distance this check cannot place: another dimension
			// string, so the plan may give the distances. The scale
			// statement is no distance.
			if lengthInTextRe.MatchString(text) && !scaleStatementRe.MatchString(text) {
				return rd
			}
			continue
		}
		ft, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			continue
		}
		if m[3] != "" {
			in, _ := strconv.ParseFloat(m[3], 64)
			ft += in / 12
		}
		// Quoted in one form whatever the font left of it ("128'-1 \""
		// where a fraction glyph did not extract).
		quoted := m[2] + "'"
		if m[3] != "" {
			quoted += "-" + m[3] + `"`
		}
		bearing := m[1] != "" || m[4] != ""
		if bearing {
			quoted = strings.Join(strings.Fields(text), " ")
		}
		dims = append(dims, siteDimension{line: li, text: quoted, feet: ft, bearing: bearing, box: l.Box, angle: l.Angle, words: l.Words})
	}
	rd.lotLines = dims
	rd.certainty = lotLineCertainty(dims)
	rd.lotOnly = rd.certainty > 0
	return rd
}

// lotLineCertainty says how sure it is that every dimension is a lot
// line's length (0: not so, or cannot tell).
func lotLineCertainty(dims []siteDimension) float64 {
	if len(dims) < 3 || len(dims) > 8 {
		return 0
	}
	allBearings := true
	for _, d := range dims {
		allBearings = allBearings && d.bearing
		if d.feet < 10 {
			return 0 // no lot line is that short
		}
	}
	if allBearings {
		return 0.9 // a bearing is a line's: a survey's lot lines
	}
	b := dims[0].box
	for _, d := range dims[1:] {
		b = b.Union(d.box)
	}
	tol := 0.1 * max(b.Width(), b.Height())
	sides := map[string]bool{}
	var horiz, vert []float64
	for _, d := range dims {
		a := math.Mod(d.angle+360, 180)
		switch {
		case a <= 20 || a >= 160: // reads along a horizontal line
			switch {
			case d.box.Y0-b.Y0 <= tol:
				sides["top"] = true
			case b.Y1-d.box.Y1 <= tol:
				sides["bottom"] = true
			default:
				return 0 // inside the drawing
			}
			horiz = append(horiz, d.feet)
		case a >= 70 && a <= 110: // along a vertical line
			switch {
			case d.box.X0-b.X0 <= tol:
				sides["left"] = true
			case b.X1-d.box.X1 <= tol:
				sides["right"] = true
			default:
				return 0
			}
			vert = append(vert, d.feet)
		default:
			if !d.bearing {
				return 0 // an oblique line: which it is cannot be told
			}
		}
	}
	if len(sides) < 3 || len(horiz) == 0 || len(vert) == 0 {
		return 0
	}
	// One scale both ways: the drawing's extent over the lengths it
	// prints along it.
	sh := b.Width() / mean(horiz)
	sv := b.Height() / mean(vert)
	if sh <= 0 || sv <= 0 || max(sh, sv)/min(sh, sv) > 1.3 {
		return 0
	}
	if len(sides) == 4 {
		return 0.85
	}
	return 0.7
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// sitePlanPages are the file's site plans: those read in full, and those
// that could not be.
func sitePlanPages(pages []*pageView) (read, unread []*pageView, titled map[*pageView][]int) {
	titled = map[*pageView][]int{}
	for _, pv := range pages {
		words, ok := pv.isSitePlan()
		if !ok {
			continue
		}
		titled[pv] = words
		if pv.ReadInFull() {
			read = append(read, pv)
		} else {
			unread = append(unread, pv)
		}
	}
	return read, unread, titled
}

// checkSitePlanSetbacks reports a file whose site plans dimension only the
// lot: no distance from the building to any lot line.
func checkSitePlanSetbacks(rv *review, r *Rule) []observation {
	var out []observation
	for _, pages := range rv.filePages() {
		fi := pages[0].FileIndex
		if !rv.underUSCodes(fi) {
			continue // the requirement is the US codes'
		}
		read, unread, titled := sitePlanPages(pages)
		if len(read) == 0 || len(unread) > 0 {
			continue // none, or one not read: the coverage finding says so
		}
		var readings []sitePlanReading
		lotOnly := true
		for _, pv := range read {
			rd := readSitePlan(pv, titled[pv])
			lotOnly = lotOnly && rd.lotOnly
			readings = append(readings, rd)
		}
		if !lotOnly {
			continue
		}
		rd := readings[0]
		var lengths []string
		var words []int
		for _, d := range rd.lotLines {
			lengths = append(lengths, d.text)
			words = append(words, d.words...)
		}
		out = append(out, observation{page: rd.pv, words: rd.titled,
			also:       []evidenceRef{{page: rd.pv, words: words}},
			confidence: rd.certainty,
			vars:       map[string]string{"lengths": strings.Join(lengths, ", "), "count": strconv.Itoa(len(rd.lotLines))},
			evidence:   "site plan without setbacks"})
	}
	return out
}

// sitePlanCoverage is the sentence naming the site plans whose distances
// to the lot lines could not be checked because their text layer was not
// read in full.
func (rv *review) sitePlanCoverage(pages []*pageView) []string {
	if len(pages) == 0 {
		return nil
	}
	fi := pages[0].FileIndex
	if !rv.underUSCodes(fi) || !rv.checkActive("site_plan_setbacks") {
		return nil
	}
	_, unread, _ := sitePlanPages(pages)
	if len(unread) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("Whether the site plan gives the distances from the lot lines was not checked: %s not read in full.", pageList(unread))}
}

// checkActive reports whether a rule of the loaded packs runs the check.
func (rv *review) checkActive(check string) bool {
	for _, r := range rv.eng.rules {
		if r.Check == check {
			return true
		}
	}
	return false
}

// underUSCodes reports whether file fi is reviewed under a US code: the
// codes held, or a US state's code of record without a pack (the finding
// then cites that code, without a section).
func (rv *review) underUSCodes(fi int) bool {
	if fi >= len(rv.scopes) {
		return false
	}
	fs := rv.scopes[fi]
	return fs.Class == ScopeInScope || fs.Class == ScopeCodesNotHeld && fs.CodeOfRecord != ""
}
