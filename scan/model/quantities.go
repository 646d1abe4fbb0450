package model

// Quantities: the dimensions a sheet prints that the building codes
// measure (riser height, tread depth, headroom, guard and handrail
// heights, ceiling heights, door clear widths, emergency escape openings),
// read once per sheet as typed values with their evidence and the context
// the codes' exceptions need.
//
// Sheets print a value in a few ways, whatever the element: the value
// before the element ("42" HIGH GUARDRAIL", "7 1/4" RISE", "8'-0" CLG."),
// the element then the value ("HANDRAIL 36" HIGH", "RISER 7 3/4"",
// "14 RISERS @ 7 1/2"", "CEILING HEIGHT: 8'-0""), a label with its value
// beside, under or over it ("HEADROOM" over "6'-8"", a "RISER" column),
// and schedule columns named by their header cells (door sizes, net clear
// openings, room ceiling heights). One reader per way of printing, shared
// by the kinds; each kind gives only its words.
//
// What is not read, on purpose:
//   - metric values (mm, m): the IRC and IBC are imperial codes, and a
//     metric sheet is from a jurisdiction they do not govern;
//   - values outside the range an element of the kind can have (a
//     "TREAD 1 1/8"" is a thickness, "RISERS 9'-1"" a total rise);
//   - text in a legend, symbol key or abbreviation list (a sample);
//   - "HEAD HEIGHT" (the top of an opening, not stair headroom), pipe and
//     sprinkler risers, a roof's rise, a duct's run, corner and wall
//     guards, a guard "AT 30" ABOVE GRADE" (the drop that requires it);
//   - a door's frame, rough or masonry opening, pairs of doors, and doors
//     not named as entries or exits in a schedule;
//   - window unit and rough-opening sizes (only a net clear opening column
//     is read, on rows marked as escape openings).
//
// Context the codes' exceptions turn on is typed (Tags), never left to a
// pattern over the line: existing or demolition, at a stair, a sloped or
// obstructed ceiling, a spiral stair or winders, the kind of space, an
// egress door or window.

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"planreview/scan/layout"
	"planreview/textmatch"
)

// QuantityKind names what a quantity measures.
type QuantityKind string

const (
	RiserHeight       QuantityKind = "riser-height"
	TreadDepth        QuantityKind = "tread-depth"
	Headroom          QuantityKind = "headroom"
	GuardHeight       QuantityKind = "guard-height"
	HandrailHeight    QuantityKind = "handrail-height"
	CeilingHeight     QuantityKind = "ceiling-height"
	DoorClearWidth    QuantityKind = "door-clear-width"
	EscapeOpeningArea QuantityKind = "escape-opening-area"
	EscapeSillHeight  QuantityKind = "escape-sill-height"
	StairWidth        QuantityKind = "stair-width"
	CorridorWidth     QuantityKind = "corridor-width"
	RampSlope         QuantityKind = "ramp-slope"
	FlightRise        QuantityKind = "flight-rise"
	GuardOpening      QuantityKind = "guard-opening"
)

// Units a quantity's value is held in.
const (
	UnitInches     = "length" // inches
	UnitSquareFeet = "area"   // square feet
	UnitSlope      = "slope"  // rise over run
)

// kindInfo is what the readers know of a kind: its unit and the range an
// element of the kind can have (values outside are something else).
type kindInfo struct {
	unit     string
	lo, hi   float64
	describe string
}

var kinds = map[QuantityKind]kindInfo{
	RiserHeight:       {UnitInches, 1, 12, "stair riser height"},
	TreadDepth:        {UnitInches, 6, 30, "stair tread depth"},
	Headroom:          {UnitInches, 60, 180, "stair headroom"},
	GuardHeight:       {UnitInches, 20, 72, "guard height"},
	HandrailHeight:    {UnitInches, 24, 48, "handrail height"},
	CeilingHeight:     {UnitInches, 60, 360, "ceiling height"},
	DoorClearWidth:    {UnitInches, 18, 96, "door clear width (or leaf width where only that is given)"},
	EscapeOpeningArea: {UnitSquareFeet, 1, 40, "emergency escape opening net clear area"},
	EscapeSillHeight:  {UnitInches, 12, 84, "emergency escape opening sill height"},
	StairWidth:        {UnitInches, 18, 240, "stair width"},
	CorridorWidth:     {UnitInches, 24, 240, "hallway or corridor width"},
	RampSlope:         {UnitSlope, 0.005, 0.5, "ramp slope"},
	FlightRise:        {UnitInches, 12, 480, "a stair's stated total rise"},
	GuardOpening:      {UnitInches, 1, 12, "the clear opening between a guard's balusters"},
}

// QuantityKinds lists the kinds the model reads, sorted.
func QuantityKinds() []QuantityKind {
	out := make([]QuantityKind, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Describe says what a quantity of kind k is.
func (k QuantityKind) Describe() string { return kinds[k].describe }

// Known reports whether the model reads quantities of kind k.
func (k QuantityKind) Known() bool { _, ok := kinds[k]; return ok }

// Unit is the unit k's values are held in (UnitInches, UnitSquareFeet).
func (k QuantityKind) Unit() string { return kinds[k].unit }

// Printing says how a quantity was printed.
type Printing uint8

const (
	// PrintedNote: in a line of text with its element, the value before
	// ("42" HIGH GUARDRAIL") or after it ("HANDRAIL 36" HIGH").
	PrintedNote Printing = iota
	// PrintedLabelled: a label with its value beside, under or over it,
	// or a table column headed by the label.
	PrintedLabelled
	// PrintedSchedule: a schedule's column named by its header, on a row
	// the reader identified (an entry door, an escape window, a room).
	PrintedSchedule
)

func (p Printing) String() string {
	switch p {
	case PrintedLabelled:
		return "labelled"
	case PrintedSchedule:
		return "schedule"
	}
	return "note"
}

// Bound says whether the sheet states the value as a limit.
type Bound uint8

const (
	BoundNone Bound = iota
	BoundMax        // "7 3/4" MAX. RISER"
	BoundMin        // "11" MIN. TREAD"
)

// Tag is typed context around a quantity that a code's exception or scope
// turns on.
type Tag uint32

const (
	// TagExisting: about existing conditions or demolition (the block, the
	// schedule row, or the sheet's title): not what the submittal proposes.
	TagExisting Tag = 1 << iota
	// TagStair: at a stair or its open side (a guard there may be lower;
	// a ceiling over a stair is the stair's headroom).
	TagStair
	// TagSloped: a sloped or vaulted ceiling, or one under a beam, soffit,
	// duct, bulkhead or drop: measured elsewhere by the codes.
	TagSloped
	// TagProtrusion: a sprinkler, light or fixture under the ceiling.
	TagProtrusion
	TagSpiral
	TagWinder
	// TagEgress: the door or window serves egress (an entry or exit door, a
	// window marked as an emergency escape opening).
	TagEgress
	// Spaces, where the reader knows the room.
	TagBath
	TagKitchen
	TagLaundry
	TagStorage
	TagUtility
	TagGarage
	TagAttic
	TagBasement
	TagOutdoor
	TagMezzanine
	// TagEgressPath: a corridor, exit, exit passageway or stair enclosure.
	TagEgressPath
	// TagProvided: a width stated as provided (a code analysis's egress
	// capacity), which may total several stairs or corridors.
	TagProvided
	// TagLanding: a stated total rise whose line names landings or
	// flights: it may span more than one flight.
	TagLanding
)

var tagNames = map[string]Tag{
	"existing":    TagExisting,
	"stair":       TagStair,
	"sloped":      TagSloped,
	"protrusion":  TagProtrusion,
	"spiral":      TagSpiral,
	"winder":      TagWinder,
	"egress":      TagEgress,
	"bath":        TagBath,
	"kitchen":     TagKitchen,
	"laundry":     TagLaundry,
	"storage":     TagStorage,
	"utility":     TagUtility,
	"garage":      TagGarage,
	"attic":       TagAttic,
	"basement":    TagBasement,
	"outdoor":     TagOutdoor,
	"mezzanine":   TagMezzanine,
	"egress-path": TagEgressPath,
	"provided":    TagProvided,
	"landing":     TagLanding,
}

// ParseTag returns the tag named name (as rule packs write it).
func ParseTag(name string) (Tag, bool) {
	t, ok := tagNames[name]
	return t, ok
}

// TagNames lists the tag names, sorted.
func TagNames() []string {
	out := make([]string, 0, len(tagNames))
	for n := range tagNames {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Quantity is one dimension a sheet prints, read as a typed value.
type Quantity struct {
	Kind QuantityKind
	// Value in the kind's unit: inches or square feet.
	Value float64
	// Printed is the value as printed ("7 3/4"", "2668", "5.2 SF"); Text
	// the evidence as printed (the value with its element or label).
	Printed, Text string
	// Where says what a schedule value is, for a rationale ("leaf width in
	// the door schedule", "LIVING, room schedule"); empty for notes.
	Where    string
	Words    []int
	Box      layout.Box
	Printing Printing
	Bound    Bound
	Tags     Tag
}

// Has reports whether the quantity carries every tag of t.
func (q Quantity) Has(t Tag) bool { return q.Tags&t == t }

// Any reports whether the quantity carries any tag of t.
func (q Quantity) Any(t Tag) bool { return q.Tags&t != 0 }

// Quantities returns the quantities the sheet prints, read from its layout
// on first use: every kind, in reading order of the readers (notes, then
// labels, then schedules); a value read twice (a label's pair and its
// line) is kept once.
func (s *Sheet) Quantities() []Quantity {
	if !s.quantitiesRead {
		s.quantitiesRead = true
		if s.Readable {
			s.quantities = readQuantities(s)
		}
	}
	return s.quantities
}

// QuantitiesOf returns the sheet's quantities of one kind.
func (s *Sheet) QuantitiesOf(k QuantityKind) []Quantity {
	var out []Quantity
	for _, q := range s.Quantities() {
		if q.Kind == k {
			out = append(out, q)
		}
	}
	return out
}

var existingRe = textmatch.MustCompile(`(?i)\bEXIST(?:ING|\.|G\.?)?(?:\b|$)|\(E\)|\bEX\.|\bDEMO(?:LITION|LISH)?\b|\bAS[-\s]BUILT\b|\bTO\s+REMAIN\b|\bTO\s+BE\s+REMOVED\b`)

// NamesExisting reports whether text names existing conditions or
// demolition ("EXISTING STAIR TO REMAIN", "(E)", "DEMO PLAN").
func NamesExisting(text string) bool { return existingRe.MatchString(text) }

func readQuantities(s *Sheet) []Quantity {
	if !mayHold(s) {
		return nil
	}
	pt := newPageText(s)
	var out []Quantity
	out = append(out, pt.readNotes(afterKinds)...)
	out = append(out, pt.readLabelled()...)
	out = append(out, pt.readNotes(beforeKinds)...)
	out = append(out, pt.readSchedules()...)
	// Checked per kind: plausible, not a legend's sample, read once.
	kept := out[:0]
	taken := map[QuantityKind]map[int]bool{}
	for _, q := range out {
		ki := kinds[q.Kind]
		if q.Value < ki.lo-1e-9 || q.Value > ki.hi+1e-9 {
			continue
		}
		if pt.titleExisting {
			q.Tags |= TagExisting
		}
		t := taken[q.Kind]
		if t == nil {
			t = map[int]bool{}
			taken[q.Kind] = t
		}
		dup := false
		for _, w := range q.Words {
			dup = dup || t[w]
		}
		if dup || s.Explains(q.Words) {
			continue
		}
		for _, w := range q.Words {
			t[w] = true
		}
		q.Box = pt.boxOf(q.Words)
		kept = append(kept, q)
	}
	return kept
}

// --- units ---------------------------------------------------------------

// --- the page's text -------------------------------------------------------

// qLine is a layout line read as the rules read words (Norm: fractions
// spelled out, dashes unified), with each word's offset.
type qLine struct {
	words  []int
	starts []int
	text   string
	keys   keyMask // the kinds' words the line holds
	box    layout.Box
}

func (l qLine) wordsIn(start, end int) []int {
	var out []int
	for k, w := range l.words {
		ws := l.starts[k]
		we := len(l.text)
		if k+1 < len(l.starts) {
			we = l.starts[k+1] - 1
		}
		if ws < end && we > start {
			out = append(out, w)
		}
	}
	return out
}

// qBlock is a layout block: its lines (indexes into pageText.lines) and,
// on demand, the text around it.
type qBlock struct {
	lines []int
	box   layout.Box
	lineH float64
	ctx   *string
	// sloped: 0 not yet read, 1 no, 2 the block says a ceiling is sloped
	// or obstructed.
	sloped uint8
}

// pageText is a sheet's drawing text (stamps left out) as the readers use
// it, built once per sheet.
type pageText struct {
	s             *Sheet
	lp            *layout.Page
	lines         []qLine
	blocks        []qBlock
	keys          keyMask // the kinds' words the page holds
	titleExisting bool
	aroundTags    map[string]Tag
}

func newPageText(s *Sheet) *pageText {
	lp := s.Layout()
	pt := &pageText{s: s, lp: lp, titleExisting: existingRe.MatchString(s.Ident.Title)}
	// The lines' texts and word offsets are cut from two page-wide slabs
	// (one string, one offset slice) instead of allocated line by line: a
	// drawing has thousands of short lines.
	size, nwords, nlines := 0, 0, 0
	for _, l := range lp.Lines {
		if l.Layer == layout.LayerOverlay {
			continue
		}
		nlines++
		nwords += len(l.Words)
		for _, w := range l.Words {
			size += len(pt.word(w)) + 1
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	starts := make([]int, 0, nwords)
	spans := make([][2]int, 0, nlines)
	pt.lines = make([]qLine, 0, nlines)
	byLine := make([]int, len(lp.Lines))
	for li, l := range lp.Lines {
		byLine[li] = -1
		if l.Layer == layout.LayerOverlay {
			continue
		}
		byLine[li] = len(pt.lines)
		from, first := sb.Len(), len(starts)
		for k, w := range l.Words {
			if k > 0 {
				sb.WriteByte(' ')
			}
			starts = append(starts, sb.Len()-from)
			sb.WriteString(pt.word(w))
		}
		spans = append(spans, [2]int{from, sb.Len()})
		pt.lines = append(pt.lines, qLine{words: l.Words, starts: starts[first:len(starts):len(starts)], box: l.Box})
	}
	all := sb.String()
	for k, sp := range spans {
		l := &pt.lines[k]
		l.text = all[sp[0]:sp[1]]
		l.keys = keysIn(l.text)
		pt.keys |= l.keys
	}
	pt.blocks = make([]qBlock, 0, len(lp.Blocks))
	for _, b := range lp.Blocks {
		qb := qBlock{box: b.Box, lines: make([]int, 0, len(b.Lines))}
		for _, li := range b.Lines {
			if k := byLine[li]; k >= 0 {
				qb.lines = append(qb.lines, k)
				qb.lineH = max(qb.lineH, pt.lines[k].box.Height())
			}
		}
		if len(qb.lines) > 0 {
			pt.blocks = append(pt.blocks, qb)
		}
	}
	return pt
}

// word is word w as the rules read words (Norm: fractions spelled out,
// dashes unified).
func (pt *pageText) word(w int) string {
	if t := pt.lp.Words[w].Norm; t != "" {
		return t
	}
	return pt.lp.Words[w].Text
}

// text reads words as one line of normalised text.
func (pt *pageText) text(words []int) string {
	if len(words) == 1 {
		return pt.word(words[0])
	}
	var b strings.Builder
	for k, w := range words {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(pt.word(w))
	}
	return b.String()
}

// allKeys: every word without which a page holds no quantity.
var allKeys = []string{"RISE", "TREAD", "RUN", "HEAD", "GUARD", "RAILING", "HANDRAIL", "CLG", "CEIL", "DOOR", "WINDOW", "EGRESS", "ESCAPE", "E.E.R.O", "EERO", "SILL",
	"WIDTH", "RAMP", "BALUSTER", "PICKET", "SPINDLE", "OPENING"}

// mayHold is the cheap test, on the page's words, that it can hold a
// quantity at all: a drawing without one of the kinds' words is not read.
func mayHold(s *Sheet) bool {
	for i := range s.Page.Words {
		w := &s.Page.Words[i]
		t := w.Norm
		if t == "" {
			t = w.Text
		}
		if len(t) >= 3 && keysIn(t) != 0 {
			return true
		}
	}
	return false
}

// keyMask is a set of allKeys, one bit each.
type keyMask uint32

var keyBits = func() map[string]keyMask {
	m := make(map[string]keyMask, len(allKeys))
	for i, k := range allKeys {
		m[k] = 1 << i
	}
	return m
}()

// maskOf is the set of keys (each one of allKeys).
func maskOf(keys ...string) keyMask {
	var m keyMask
	for _, k := range keys {
		m |= keyBits[k]
	}
	return m
}

// keysIn is the set of allKeys text holds, in any case.
func keysIn(text string) keyMask {
	upper := text
	if strings.IndexFunc(text, unicode.IsLower) >= 0 {
		upper = strings.ToUpper(text)
	}
	var m keyMask
	for i, k := range allKeys {
		if strings.Contains(upper, k) {
			m |= 1 << i
		}
	}
	return m
}

func (pt *pageText) boxOf(words []int) layout.Box {
	var b layout.Box
	for i, w := range words {
		box := pt.lp.WordBox(w)
		if i == 0 {
			b = box
		} else {
			b = b.Union(box)
		}
	}
	return b
}

// context is the block's text with the lines around it: a stacked stair
// annotation ("MAIN STAIR" over "15 RISERS" over "7 1/4" RISE") is often
// drawn with gaps the layout reads as separate blocks, so the lines within
// six line heights above and below the block (and overlapping it across)
// count too.
func (pt *pageText) context(b *qBlock) string {
	if b.ctx != nil {
		return *b.ctx
	}
	bb, h := b.box, b.lineH
	var texts []string
	for _, l := range pt.lines {
		lb := l.box
		if lb.Y1 >= bb.Y0-6*h && lb.Y0 <= bb.Y1+6*h && lb.X0 < bb.X1+h && lb.X1 > bb.X0-h {
			texts = append(texts, l.text)
		}
	}
	t := strings.Join(texts, "\n")
	b.ctx = &t
	return t
}

// around is the text of the lines within reach of a box (a few lines of
// note text either way).
func (pt *pageText) around(b layout.Box) string {
	const reach = 120.0 // points
	var texts []string
	for _, l := range pt.lines {
		if l.box.Y1 >= b.Y0-reach && l.box.Y0 <= b.Y1+reach && l.box.X0 < b.X1+reach && l.box.X1 > b.X0-reach {
			texts = append(texts, l.text)
		}
	}
	return strings.Join(texts, "\n")
}

// --- context -----------------------------------------------------------------

var (
	stairContextRe  = textmatch.MustCompile(`(?i)\bSTAIR|\bOPEN\s+SIDE|\bRISERS?\b|\bTREADS?\b|\bNOSING|\bLANDING\b|\bFLIGHT\b`)
	slopedRe        = textmatch.MustCompile(`(?i)\bSLOP|\bVAULT|\bCATHEDRAL|\bBEAM|\bSOFFIT|\bDUCT|\bBULKHEAD|\bDROP|\bFURR|\bPLENUM|\bABOVE\s+CEILING|\bA\.?C\.?T\.?\s+ABOVE|\bUNDER`)
	protrusionRe    = textmatch.MustCompile(`(?i)\bSPRINKLER|\bLIGHT|\bFIXTURE`)
	spiralRe        = textmatch.MustCompile(`(?i)\bSPIRAL`)
	winderRe        = textmatch.MustCompile(`(?i)\bWINDER`)
	providedRe      = textmatch.MustCompile(`(?i)\bPROVIDED\b`)
	landingRe       = textmatch.MustCompile(`(?i)\bLANDINGS?\b|\bFLIGHTS\b`)
	egressElementRe = textmatch.MustCompile(`(?i)\b(?:ENTRY|ENTRANCE|FRONT\s+DOOR|MAIN\s+DOOR|EGRESS|EXIT|ESCAPE|E\.?E\.?R\.?O\.?)\b|\b(?:FRONT|MAIN)\s+DOOR`)
	spaceRes        = []struct {
		tag Tag
		re  *textmatch.Regexp
	}{
		{TagBath, textmatch.MustCompile(`(?i)\bBATH|\bTOILET|\bLAV\b|\bW\.?C\.?\b|\bPOWDER`)},
		{TagKitchen, textmatch.MustCompile(`(?i)\bKITCHEN|\bKIT\b|\bBREAK\s*ROOM|\bPANTRY`)},
		{TagLaundry, textmatch.MustCompile(`(?i)\bLAUNDRY|\bLNDRY`)},
		{TagStorage, textmatch.MustCompile(`(?i)\bSTOR|\bCLOSET|\bCLOS?\.?\b|\bW\.?I\.?C\b|\bPANTRY`)},
		{TagUtility, textmatch.MustCompile(`(?i)\bMECH|\bELEC|\bJAN|\bUTIL|\bSHAFT|\bCHASE`)},
		{TagGarage, textmatch.MustCompile(`(?i)\bGARAGE|\bCARPORT`)},
		{TagAttic, textmatch.MustCompile(`(?i)\bATTIC|\bCRAWL`)},
		{TagBasement, textmatch.MustCompile(`(?i)\bBASEMENT`)},
		{TagOutdoor, textmatch.MustCompile(`(?i)\bPORCH|\bDECK|\bPATIO`)},
		{TagMezzanine, textmatch.MustCompile(`(?i)\bMEZZANINE`)},
		{TagEgressPath, textmatch.MustCompile(`(?i)\bCORRIDOR|\bEXIT\b|\bEGRESS|\bSTAIR|\bPASSAGE`)},
	}
)

// tags reads the typed context of a value from the text around it (block
// context or schedule row: the room, the stair, existing work) and its own
// line (what the element itself is). Blocks' contexts repeat from value to
// value: each is read once.
func (pt *pageText) tags(around, line string) Tag {
	t, ok := pt.aroundTags[around]
	if !ok {
		t = aroundTags(around)
		if pt.aroundTags == nil {
			pt.aroundTags = map[string]Tag{}
		}
		pt.aroundTags[around] = t
	}
	return t | lineTags(line)
}

func aroundTags(around string) Tag {
	var t Tag
	if existingRe.MatchString(around) {
		t |= TagExisting
	}
	if stairContextRe.MatchString(around) {
		t |= TagStair
	}
	if spiralRe.MatchString(around) {
		t |= TagSpiral
	}
	for _, s := range spaceRes {
		if s.re.MatchString(around) {
			t |= s.tag
		}
	}
	return t
}

func lineTags(line string) Tag {
	var t Tag
	if slopedRe.MatchString(line) {
		t |= TagSloped
	}
	if protrusionRe.MatchString(line) {
		t |= TagProtrusion
	}
	if winderRe.MatchString(line) {
		t |= TagWinder
	}
	if providedRe.MatchString(line) {
		t |= TagProvided
	}
	if landingRe.MatchString(line) {
		t |= TagLanding
	}
	if egressElementRe.MatchString(line) {
		t |= TagEgress
	}
	return t
}

var (
	maxWordRe = textmatch.MustCompile(`(?i)\bMAX(?:IMUM)?\b`)
	minWordRe = textmatch.MustCompile(`(?i)\bMIN(?:IMUM)?\b`)
)

func boundOf(text string) Bound {
	switch {
	case maxWordRe.MatchString(text):
		return BoundMax
	case minWordRe.MatchString(text):
		return BoundMin
	}
	return BoundNone
}

// round keeps values to a thousandth: float noise from fractions is not
// a measurement.
func round(v float64) float64 { return math.Round(v*1e6) / 1e6 }
