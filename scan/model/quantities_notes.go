package model

import (
	"strings"

	"planreview/scan/units"
	"planreview/textmatch"
)

// The note reader: a value printed in a line of text with its element,
// before it ("42" HIGH GUARDRAIL") or after it ("GUARD HEIGHT: 42"",
// "14 RISERS @ 7 1/2"", "HANDRAIL 36" HIGH"). Each kind gives its element's
// words; the reader, the value forms and the context are shared.

// noteForm is one way a kind's value is printed in a line: an expression
// with a "value" group, and what the text after the match must not be.
type noteForm struct {
	re *textmatch.Regexp
	// notAfter rules out a match by the text that follows it (a slope "PER
	// FOOT" after a rise, "WIDTH" after a tread).
	notAfter *textmatch.Regexp
	// notOnLine rules out a match by its line (a baluster's spacing on a
	// guard's line, the drop "ABOVE GRADE" that requires a guard).
	notOnLine *textmatch.Regexp
	// alone: a word that names the element only in a stair's note ("RISE",
	// "RUN"); the match needs a stair around it and no roof or duct.
	alone *textmatch.Regexp
}

// noteKind is a kind's vocabulary for the note reader.
type noteKind struct {
	kind QuantityKind
	keys []string // upper case; a line without one holds none of the kind
	// parse reads the value (nil: an imperial length).
	parse func(string) (float64, error)
	// lineContext: the context that matters is the value's own line (a
	// door's or window's), not the block around it.
	lineContext bool
	// otherOnLine rules out every match of the kind on a line that names
	// another element (headroom said of a door or an attic hatch, a
	// cabinet's door).
	otherOnLine *textmatch.Regexp
	forms       []noteForm
}

// GuardLookAlike reports whether text names a guard that is not a floor's
// or a stair's (a corner guard, a bollard, a handrail).
func GuardLookAlike(text string) bool { return guardLookRe.MatchString(text) }

// The value patterns: a length or an area, captured as "value".
const (
	lengthValue = `(?P<value>` + units.ImperialLengthPattern + `)`
	areaValue   = `(?P<value>` + units.AreaSqFtPattern + `)`
	slopeValue  = `(?P<value>` + units.SlopePattern + `)`
	// connector between an element and its value.
	connector = `\s*(?:TO\s+BE\s+|@|AT\s+|OF\s+|=|:|X\s+)?\s*`
)

func forms(res ...string) []noteForm {
	out := make([]noteForm, len(res))
	for i, r := range res {
		out[i] = noteForm{re: textmatch.MustCompile(`(?i)` + r)}
	}
	return out
}

var (
	riserAfterRe   = textmatch.MustCompile(`(?i)^\s*(?:PER\b|/|IN\s+\d|:\s*\d|(?:AT|@)\s+(?:THE\s+)?(?:THRESHOLD|DOOR|CURB|SILL|ENTRY))`)
	treadAfterRe   = textmatch.MustCompile(`(?i)^\s*(?:WIDTH|LENGTH|WIDE\b|THICK|NOSING|OF\s+(?:DUCT|PIPE|CONDUIT))`)
	ceilingAfterRe = textmatch.MustCompile(`(?i)^\s*(?:JOISTS?|FAN|LIGHT|DIFFUSER|REGISTER|ACCESS|HATCH|MOUNT|TILE|GRID|BOARD)`)
	riseAloneRe    = textmatch.MustCompile(`(?i)\bRISE\b`)
	runAloneRe     = textmatch.MustCompile(`(?i)\bRUN\b`)
	roofContextRe  = textmatch.MustCompile(`(?i)\bROOF|\bPITCH\b|\bSLOPE\b|\bRAFTER`)
	nonStairRunRe  = textmatch.MustCompile(`(?i)\b(?:DUCT|PIPE|CONDUIT|WIRE|CABLE|GUTTER|DOWNSPOUT)\b`)
	// A pipe's, a sprinkler's or a duct's riser is not a stair's.
	pipeRiserLineRe = textmatch.MustCompile(`(?i)\b(?:FIRE|SPRINKLER|STANDPIPE|WATER|GAS|PIPE|PLUMBING|DRAIN|VENT|ELEC\.?|ELECTRICAL|CONDUIT|DUCT|MECH\.?)\s+RISERS?\b|\bRISER\s+(?:DIAGRAM|ROOM|PIPE)|\bDIA\b|Ø`)
	nosingProjRe    = textmatch.MustCompile(`(?i)\bNOSING\s+PROJECTION`)
	// Guards that are not a floor's guard, and the words of a guard's
	// other measures (its openings, its posts) or of the drop that
	// requires it ("GUARD AT 30" ABOVE GRADE", "MORE THAN 30"").
	guardLookRe      = textmatch.MustCompile(`(?i)\b(?:CORNER|WALL|WHEEL|TREE|FINGER|CRASH|EDGE|KICK|SPLASH|DOOR)\s+GUARDS?|\bBOLLARD|\bBUMPER|\bHANDRAIL`)
	guardNotHeightRe = textmatch.MustCompile(`(?i)\bSPACING|\bBALUSTER|\bPICKET|\bOPENING|\bSPHERE|\bPOST|\b(?:CORNER|WALL|WHEEL|TREE|FINGER)\s+GUARDS?|\bBOLLARD|\bBUMPER|\bMORE\s+THAN\b|\bABOVE\s+(?:THE\s+)?(?:FINISH(?:ED)?\s+)?(?:GRADE|FLOOR\s+OR\s+GRADE|ADJACENT)|\bGRADE\s+BELOW|\bDROP\b`)
	// Headroom is the stairs' word; said of a door, an attic's access or
	// equipment, it is another clearance.
	headroomOtherRe = textmatch.MustCompile(`(?i)\bDOOR|\bATTIC|\bACCESS|\bHATCH|\bCRAWL|\bGARAGE|\bEQUIP|\bMECH|\bUNIT\b|\bAPPLIANCE|\bFURNACE|\bHEATER|\bBEAM`)
	onCentreRe      = textmatch.MustCompile(`(?i)\bO\.?\s?C\.?(?:\s|$)|ON\s+CENTER`)
	doorNotEgressRe = textmatch.MustCompile(`(?i)\bCABINET|\bACCESS\s+PANEL`)
)

// The element-then-value forms.
var afterKinds = []noteKind{
	{kind: RiserHeight, keys: []string{"RISE"},
		forms: []noteForm{
			// 14 RISERS @ 7 1/2" · RISER HEIGHT: 7 3/4" · MAX. RISER 8" · RISERS X 7 1/2"
			{re: textmatch.MustCompile(`(?i)(?:\b\d{1,2}\s+(?:EQ(?:UAL)?\.?\s+)?)?\b(?:MAX(?:IMUM)?\.?\s+)?RISERS?(?:\s+HEIGHT|\s+HT\.?)?` + connector + lengthValue),
				notAfter: riserAfterRe, notOnLine: pipeRiserLineRe},
			// RISE: 7 1/2"
			{re: textmatch.MustCompile(`(?i)\bRISE\s*[:=]\s*` + lengthValue), notAfter: riserAfterRe, alone: riseAloneRe},
		}},
	{kind: TreadDepth, keys: []string{"TREAD", "RUN"},
		forms: []noteForm{
			// TREAD 10" · 14 TREADS @ 10" · MIN. TREAD DEPTH OF 9"
			{re: textmatch.MustCompile(`(?i)(?:\b\d{1,2}\s+)?\b(?:MIN(?:IMUM)?\.?\s+)?TREADS?(?:\s+DEPTH|\s+RUN)?` + connector + lengthValue),
				notAfter: treadAfterRe, notOnLine: nosingProjRe},
			// RUN: 9 1/2"
			{re: textmatch.MustCompile(`(?i)\bRUN\s*[:=]\s*` + lengthValue), notAfter: treadAfterRe, alone: runAloneRe},
		}},
	{kind: Headroom, keys: []string{"HEAD"}, otherOnLine: headroomOtherRe,
		forms: forms(`\b(?:MIN(?:IMUM)?\.?\s+)?(?:CLEAR\s+)?HEAD\s*ROOM\s*(?:@|AT|=|:|OF|MIN\.?|CLEAR)?\s*` + lengthValue)},
	{kind: GuardHeight, keys: []string{"GUARD", "RAILING"},
		forms: []noteForm{
			// GUARD HEIGHT 36" · GUARDRAIL TO BE 36" HIGH · RAILING @ 42"
			{re: textmatch.MustCompile(`(?i)\b(?:GUARD\s*RAILS?|GUARDS?|RAILINGS?)(?:\s+HEIGHT|\s+HT\.?)?` + connector + lengthValue),
				notOnLine: guardNotHeightRe},
		}},
	{kind: HandrailHeight, keys: []string{"HANDRAIL"},
		forms: forms(
			// HANDRAIL HEIGHT 36"
			`\bHANDRAILS?\s+(?:HEIGHT|HT\.?)`+connector+lengthValue,
			// HANDRAIL 36" HIGH · HANDRAIL TO BE 33" ABOVE NOSING
			`\bHANDRAILS?\s+(?:TO\s+BE\s+|@\s*|AT\s+)?`+lengthValue+`\s*(?:HIGH|HT\b|ABOVE|ABV|A\.?F\.?F)`)},
	{kind: CeilingHeight, keys: []string{"CLG", "CEIL"},
		forms: forms(`\b(?:CEILING|CLG)\.?\s*(?:HEIGHT|HT|HGT)\b\.?` + connector + lengthValue)},
	{kind: DoorClearWidth, keys: []string{"DOOR"}, lineContext: true, otherOnLine: doorNotEgressRe,
		forms: forms(
			// FRONT DOOR 2'-10" CLEAR · DOOR 36" CLEAR
			`(?:\b(?:EGRESS|ENTRY|ENTRANCE|FRONT|MAIN|EXIT)\s+)?\bDOORS?\b[^0-9]{0,25}?`+lengthValue+`\s*CLEAR\b`,
			// DOOR CLEAR WIDTH: 32"
			`\bDOORS?\s+CLEAR\s+(?:WIDTH|OPENING)\s*[:=]?\s*`+lengthValue)},
	{kind: EscapeOpeningArea, keys: []string{"EGRESS", "ESCAPE", "E.E.R.O", "EERO"}, parse: units.ParseAreaSqFt, lineContext: true,
		forms: forms(`\b(?:EGRESS|ESCAPE|E\.?E\.?R\.?O\.?)\b[^0-9]{0,40}?OPENING\s*(?:AREA)?\s*[:=@]?\s*` + areaValue)},
	{kind: EscapeSillHeight, keys: []string{"SILL"}, lineContext: true,
		forms: forms(`\b(?:EGRESS|ESCAPE|E\.?E\.?R\.?O\.?)\b.*?\bSILL(?:\s+HEIGHT|\s+HT\.?)?\s*[:=@]?\s*` + lengthValue)},
	// STAIR WIDTH 36" · STAIRWAY CLEAR WIDTH: 44"
	{kind: StairWidth, keys: []string{"WIDTH"},
		forms: forms(`\bSTAIR(?:WAY)?S?\s+(?:CLEAR\s+)?WIDTH(?:\s+PROVIDED)?\s*(?:@|AT|=|:|CLEAR)?\s*` + lengthValue)},
	// HALLWAY WIDTH 3'-0" · CORRIDOR CLEAR WIDTH: 44"
	{kind: CorridorWidth, keys: []string{"WIDTH"},
		forms: forms(`\b(?:CORRIDORS?|HALL(?:WAY)?S?)\s+(?:CLEAR\s+)?WIDTH(?:\s+PROVIDED)?\s*[:=@]?\s*` + lengthValue)},
	// RAMP SLOPE 1:12 · RAMP @ 8.33% · RAMP DN 1:20
	{kind: RampSlope, keys: []string{"RAMP"}, parse: units.ParseSlope, lineContext: true,
		forms: forms(`\bRAMP\b[^0-9]{0,20}?(?:SLOPE|@)?\s*[:=]?\s*` + slopeValue)},
	// TOTAL RISE 9'-2"
	{kind: FlightRise, keys: []string{"RISE"},
		forms: forms(`\bTOTAL\s+RISE\s*[:=\-]?\s*` + lengthValue)},
	// BALUSTER SPACING 4" CLEAR · GUARD OPENINGS MAX 4"
	{kind: GuardOpening, keys: []string{"BALUSTER", "PICKET", "SPINDLE", "OPENING"},
		forms: []noteForm{{re: textmatch.MustCompile(`(?i)\b(?:BALUSTERS?|PICKETS?|SPINDLES?)\s+(?:CLEAR\s+)?(?:SPACING|OPENINGS?|GAPS?)\s*(?:MAX\.?)?\s*[:=@]?\s*` + lengthValue + `(?:\s+(?:CLEAR|MAX)\b\.?)?|\bGUARD(?:RAIL)?\s+OPENINGS?\s*(?:MAX\.?)?\s*[:=@]?\s*` + lengthValue + `(?:\s+(?:CLEAR|MAX)\b\.?)?`),
			// On-centre spacing is not the opening between balusters.
			notOnLine: onCentreRe}}},
}

// The value-before-element forms.
var beforeKinds = []noteKind{
	{kind: RiserHeight, keys: []string{"RISE"},
		// 7 1/4" RISE · 7 3/4" MAX. RISER · 7" RISERS
		forms: []noteForm{{re: textmatch.MustCompile(`(?i)` + lengthValue + `\s*(?:MAX(?:IMUM)?\.?\s+|TYP(?:ICAL)?\.?\s+)?RISE(?:RS?)?\b`),
			notAfter: riserAfterRe, alone: riseAloneRe}}},
	{kind: TreadDepth, keys: []string{"TREAD", "RUN"},
		// 10" RUN · 11" MIN. TREAD · 10" TREADS
		forms: []noteForm{{re: textmatch.MustCompile(`(?i)` + lengthValue + `\s*(?:MIN(?:IMUM)?\.?\s+|TYP(?:ICAL)?\.?\s+)?(?:TREADS?|RUN)\b`),
			notAfter: treadAfterRe, alone: runAloneRe}}},
	{kind: Headroom, keys: []string{"HEAD"}, otherOnLine: headroomOtherRe,
		// 6'-8" MIN. HEADROOM · 6'-6" CLEAR HEADROOM
		forms: forms(lengthValue + `\s*(?:MIN(?:IMUM)?\.?\s+)?(?:CLEAR\s+)?HEAD\s*ROOM\b`)},
	{kind: GuardHeight, keys: []string{"GUARD", "RAILING"},
		// 42" HIGH GUARDRAIL · 36" MIN. GUARD · 36" HIGH RAILING
		forms: []noteForm{{re: textmatch.MustCompile(`(?i)` + lengthValue + `\s*(?:HIGH|HT\.?|TALL)?\s*(?:MIN(?:IMUM)?\.?\s+)?(?:HIGH\s+)?(?:GUARD\s*RAILS?|GUARDS?|RAILINGS?)\b`)}}},
	{kind: HandrailHeight, keys: []string{"HANDRAIL"},
		// 36" HIGH HANDRAIL
		forms: forms(lengthValue + `\s*(?:HIGH|HT\.?)\s+HANDRAILS?\b`)},
	// 44" MIN. CLEAR STAIR WIDTH
	{kind: StairWidth, keys: []string{"WIDTH"},
		forms: forms(lengthValue + `\s*(?:MIN(?:IMUM)?\.?\s+)?(?:CLEAR\s+)?STAIR(?:WAY)?\s+WIDTH\b`)},
	// 44" MIN. CLEAR CORRIDOR WIDTH
	{kind: CorridorWidth, keys: []string{"WIDTH"},
		forms: forms(lengthValue + `\s*(?:MIN(?:IMUM)?\.?\s+)?(?:CLEAR\s+)?(?:CORRIDOR|HALL(?:WAY)?)\s+WIDTH\b`)},
	{kind: CeilingHeight, keys: []string{"CLG", "CEIL"},
		// 8'-0" CLG. · 9' CEILING · 7'-6" CLG. HT.
		forms: []noteForm{{re: textmatch.MustCompile(`(?i)` + lengthValue + `\s*(?:A\.?F\.?F\.?\s*)?(?:CLG|CEILING|CEIL)\b\.?(?:\s*(?:HEIGHT|HT|HGT)\b\.?)?`),
			notAfter: ceilingAfterRe}}},
}

// readNotes runs the kinds' forms over every line of every block.
func (pt *pageText) readNotes(ks []noteKind) []Quantity {
	var out []Quantity
	for _, nk := range ks {
		km := maskOf(nk.keys...)
		if pt.keys&km == 0 {
			continue
		}
		for bi := range pt.blocks {
			b := &pt.blocks[bi]
			for _, li := range b.lines {
				l := pt.lines[li]
				if l.keys&km == 0 {
					continue
				}
				seen := map[int]bool{}
				for _, f := range nk.forms {
					re := f.re.Regexp()
					for _, m := range re.FindAllStringSubmatchIndex(l.text, -1) {
						// Alternatives may each carry a "value": the one
						// that took part is the value.
						vi := -1
						for i, name := range re.SubexpNames() {
							if name == "value" && m[2*i] >= 0 {
								vi = i
								break
							}
						}
						if vi < 0 || seen[m[2*vi]] {
							continue
						}
						q, ok := pt.noteQuantity(nk, f, b, l, m, vi)
						if !ok {
							continue
						}
						seen[m[2*vi]] = true
						out = append(out, q)
					}
				}
			}
		}
	}
	return out
}

func (pt *pageText) noteQuantity(nk noteKind, f noteForm, b *qBlock, l qLine, m []int, vi int) (Quantity, bool) {
	match := l.text[m[0]:m[1]]
	raw := strings.TrimSpace(l.text[m[2*vi]:m[2*vi+1]])
	if f.notAfter != nil && f.notAfter.MatchString(l.text[m[1]:]) || f.notOnLine != nil && f.notOnLine.MatchString(l.text) {
		return Quantity{}, false
	}
	if nk.kind == GuardHeight && guardLookRe.MatchString(match) || nk.otherOnLine != nil && nk.otherOnLine.MatchString(l.text) {
		return Quantity{}, false
	}
	ctx := pt.context(b)
	if f.alone != nil && f.alone.MatchString(match) &&
		(!stairContextRe.MatchString(ctx) || roofContextRe.MatchString(ctx) || nonStairRunRe.MatchString(ctx)) {
		return Quantity{}, false
	}
	parse := nk.parse
	if parse == nil {
		parse = units.ParseImperialLength
	}
	v, err := parse(raw)
	if err != nil {
		return Quantity{}, false
	}
	around := ctx
	if nk.lineContext {
		around = l.text
	}
	tags := pt.tags(around, l.text)
	// A sloped ceiling, a beam or a soffit is said in the value's own
	// block ("VAULTED" over "9'-0" CLG."), not in a neighbour's.
	if !nk.lineContext && pt.sloped(b) {
		tags |= TagSloped
	}
	return Quantity{Kind: nk.kind, Value: round(v), Printed: raw, Text: match, Words: l.wordsIn(m[0], m[1]),
		Printing: PrintedNote, Bound: boundOf(match), Tags: tags}, true
}

// sloped reports whether the block's own lines say a ceiling is sloped or
// obstructed (read once per block).
func (pt *pageText) sloped(b *qBlock) bool {
	if b.sloped == 0 {
		b.sloped = 1
		for _, li := range b.lines {
			if slopedRe.MatchString(pt.lines[li].text) {
				b.sloped = 2
				break
			}
		}
	}
	return b.sloped == 2
}
