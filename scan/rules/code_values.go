package rules

// Values the IBC/IRC rules measure, read where real sheets print them.
//
// The packs' line patterns read "KEYWORD value" (RISER 7 3/4", GUARD
// HEIGHT 36"), the phrasing the plan-set generator prints. Real sheets
// print the value first on stacked stair annotations ("15 RISERS" over
// "7 1/4" RISE" over "10" RUN"), put heights before the element ("42" HIGH
// GUARDRAIL", "6'-8" MIN. HEADROOM"), tag rooms with their ceiling height
// ("BEDROOM" over "8'-0" CLG."), and give door sizes, ceiling heights and
// net clear openings in schedules whose columns are named by their header
// cells. This file reads
// those as typed values from the page's layout (lines inside blocks, table
// cells by header) and hands them to the rule they belong to, which judges
// them against its own limits (min/max, so snapshot amendments still
// apply) and confidence bands.
//
// What is not read, on purpose:
//   - metric values (mm, m): the IRC and IBC are imperial codes, and a
//     metric sheet is from a jurisdiction they do not govern; converting
//     would invent an IRC finding on a foreign set;
//   - anything in a block or sheet about existing conditions or demolition:
//     an existing stair is not what the submittal proposes;
//   - "HEAD HEIGHT": on sections and elevations it is the top of a window
//     or door opening, not stair headroom;
//   - a door's frame, rough or masonry opening, and pairs of doors (the
//     leaf that must give the clear width is not known);
//   - window sizes for emergency escape openings: unit and rough-opening
//     sizes are not the net clear opening R310.2.1 measures (only a net
//     clear opening column is read, on rows marked as escape openings).
//
// A reader that finds no value says nothing: an unread value is not a
// finding.

import (
	"strconv"
	"strings"

	"planreview/lazyregexp"
	"planreview/scan/layout"
	"planreview/scan/textmatch"
)

// valueReading is one value a reader found for a rule.
type valueReading struct {
	pv    *pageView
	words []int
	text  string // the evidence as printed (normalised words)
	raw   string // the value as it reads in the rationale
	line  string // the whole line, row or pair it sits in: the rule's exclusion is tested on it
	value float64
}

// valueReader reads one kind of value from a page's layout.
type valueReader func(pv *pageView, lp *layout.Page, pn *pageNotes, r *Rule) []valueReading

// valueReaders maps a rule to the reader of its value, and the words (upper
// case) without one of which a page has nothing for it: the page's layout
// is analysed only when one is there. The rule keeps its own pattern for
// the generator's phrasing; these add the real sheets'.
var valueReaders = map[string]struct {
	keys []string
	read valueReader
	// oneSuffices: the code asks for one such element (one egress door
	// per dwelling), so any value read that complies silences the others.
	oneSuffices bool
}{
	"irc-r311.7.5.1-riser-height":      {riserKeys, readRiserNotes, false},
	"ibc-1011.5.2-riser-max":           {riserKeys, readRiserNotes, false},
	"ibc-1011.5.2-riser-min":           {riserKeys, readRiserNotes, false},
	"irc-r311.7.5.2-tread-depth":       {treadKeys, readTreadNotes, false},
	"ibc-1011.5.2-tread-depth":         {treadKeys, readTreadNotes, false},
	"irc-r311.7.2-headroom":            {headroomKeys, readHeadroomNotes, false},
	"ibc-1011.3-headroom":              {headroomKeys, readHeadroomNotes, false},
	"irc-r312.1.2-guard-height":        {guardKeys, readGuardNotes, false},
	"ibc-1015.3-guard-height":          {guardKeys, readGuardNotes, false},
	"irc-r311.7.8.1-handrail-height":   {handrailKeys, readHandrailNotes, false},
	"ibc-1014.2-handrail-height":       {handrailKeys, readHandrailNotes, false},
	"irc-r305.1-ceiling-height":        {ceilingKeys, readCeilingHeights, false},
	"ibc-1208.2-ceiling-height":        {ceilingKeys, readCeilingHeights, false},
	"ibc-1003.2-egress-ceiling-height": {ceilingKeys, readEgressCeilingHeights, false},
	"irc-r311.2-egress-door-width":     {doorKeys, readDoorSchedules, true},
	"ibc-1010.1.1-door-clear-width":    {doorKeys, readDoorSchedules, false},
	"irc-r310.2.1-eero-area":           {windowKeys, readEscapeOpeningAreas, false},
}

var (
	riserKeys    = []string{"RISE"}
	treadKeys    = []string{"TREAD", "RUN"}
	headroomKeys = []string{"HEADROOM", "HEAD ROOM"}
	guardKeys    = []string{"GUARD", "RAILING"}
	handrailKeys = []string{"HANDRAIL"}
	ceilingKeys  = []string{"CLG", "CEIL"}
	windowKeys   = []string{"WINDOW"}
	// A door schedule is titled so, or its mark column is headed so.
	doorKeys = []string{"DOOR SCHEDULE", "DOOR NO", "DOOR MARK", "DOOR #", "DOOR TYPE", "DOOR SIZE"}
)

// imperialLength is lengthPattern without its metric branch.
const imperialLength = `(?:` + inchNum + inchMark +
	`|\d+(?:\.\d+)?` + footMark + `(?:\s*-?\s*` + inchNum + inchMark + `)?)`

var (
	// existingRe marks a block or sheet about existing conditions.
	existingRe = lazyregexp.New(`(?i)\bEXIST(?:ING|\.|G\.?)?(?:\b|$)|\(E\)|\bEX\.|\bDEMO(?:LITION|LISH)?\b|\bAS[-\s]BUILT\b|\bTO\s+REMAIN\b|\bTO\s+BE\s+REMOVED\b`)
	// stairContextRe: the block is about a stair.
	stairContextRe = lazyregexp.New(`(?i)\bSTAIR|\bRISERS?\b|\bTREADS?\b|\bLANDING\b|\bFLIGHT\b`)
	roofContextRe  = lazyregexp.New(`(?i)\bROOF|\bPITCH\b|\bSLOPE\b|\bRAFTER`)

	riserNoteRes = mustAll(
		// 7 1/4" RISE · 7 3/4" MAX. RISER · 7" RISERS
		`(?P<value>`+imperialLength+`)\s*(?:MAX(?:IMUM)?\.?\s+|TYP(?:ICAL)?\.?\s+)?RISE(?:RS?)?\b`,
		// 14 RISERS X 7 1/2" HIGH · RISERS @ 7 1/2" (the pack reads "@")
		`\bRISERS?\s+X\s+(?P<value>`+imperialLength+`)`,
		// MAX. RISER 8" · MAXIMUM RISER HEIGHT OF 8"
		`\bMAX(?:IMUM)?\.?\s+RISER(?:\s+HEIGHT)?\s*(?:OF|=|:)?\s*(?P<value>`+imperialLength+`)`,
		// RISE: 7 1/2" (stair context only)
		`\bRISE\s*[:=]\s*(?P<value>`+imperialLength+`)`)
	treadNoteRes = mustAll(
		// 10" RUN · 11" MIN. TREAD · 10" TREADS
		`(?P<value>`+imperialLength+`)\s*(?:MIN(?:IMUM)?\.?\s+|TYP(?:ICAL)?\.?\s+)?(?:TREADS?|RUN)\b`,
		// TREADS X 10" · TREADS @ 10"
		`\bTREADS?\s+(?:X|@)\s+(?P<value>`+imperialLength+`)`,
		// MIN. TREAD 9" · MINIMUM TREAD DEPTH OF 9"
		`\bMIN(?:IMUM)?\.?\s+TREAD(?:\s+DEPTH)?\s*(?:OF|=|:)?\s*(?P<value>`+imperialLength+`)`,
		// RUN: 9 1/2" (stair context only)
		`\bRUN\s*[:=]\s*(?P<value>`+imperialLength+`)`)
	headroomNoteRes = mustAll(
		// 6'-8" MIN. HEADROOM · 6'-6" CLEAR HEADROOM
		`(?P<value>`+imperialLength+`)\s*(?:MIN(?:IMUM)?\.?\s+)?(?:CLEAR\s+)?HEAD\s*ROOM\b`,
		// MIN. HEADROOM 6'-6"
		`\bMIN(?:IMUM)?\.?\s+(?:CLEAR\s+)?HEAD\s*ROOM\s*(?:OF|=|:)?\s*(?P<value>`+imperialLength+`)`)
	guardNoteRes = mustAll(
		// 42" HIGH GUARDRAIL · 36" MIN. GUARD · 36" GUARD RAIL · 36" HIGH RAILING
		`(?P<value>`+imperialLength+`)\s*(?:HIGH|HT\.?|TALL)?\s*(?:MIN(?:IMUM)?\.?\s+)?(?:HIGH\s+)?(?:GUARD\s*RAILS?|GUARDS?|RAILINGS?)\b`,
		// RAILING 36" HIGH · GUARDRAIL TO BE 36" HIGH (not "GUARD AT 30"
		// ABOVE GRADE": the drop that requires a guard, not its height)
		`\b(?:GUARD\s*RAILS?|GUARDS?|RAILINGS?)\s+(?:TO\s+BE\s+|@\s*|AT\s+)?(?P<value>`+imperialLength+`)\s*(?:HIGH|HT\b|MIN)`)
	handrailNoteRes = mustAll(
		// 36" HIGH HANDRAIL
		`(?P<value>`+imperialLength+`)\s*(?:HIGH|HT\.?)\s+HANDRAILS?\b`,
		// HANDRAIL 36" HIGH · HANDRAIL TO BE 33" ABOVE NOSING
		`\bHANDRAILS?\s+(?:TO\s+BE\s+|@\s*|AT\s+)?(?P<value>`+imperialLength+`)\s*(?:HIGH|HT\b|ABOVE|A\.?F\.?F)`)
	ceilingNoteRes = mustAll(
		// 8'-0" CLG. · 9' CEILING · 7'-6" CLG. HT.
		`(?P<value>`+imperialLength+`)\s*(?:A\.?F\.?F\.?\s*)?(?:CLG|CEILING|CEIL)\b\.?(?:\s*(?:HEIGHT|HT|HGT)\b\.?)?`,
		// CLG. HGT. 7'-6" (the pack reads HT and HEIGHT)
		`\b(?:CLG|CEILING)\.?\s*HGT\.?\s*[:=@]?\s*(?P<value>`+imperialLength+`)`)

	// A slope or a pitch is not a riser; a thickness or width is not a
	// tread's depth; a joist or a fixture is not a ceiling height.
	riserAfterRe   = lazyregexp.New(`(?i)^\s*(?:PER\b|/|IN\s+\d|:\s*\d|(?:AT|@)\s+(?:THE\s+)?(?:THRESHOLD|DOOR|CURB|SILL|ENTRY))`)
	treadAfterRe   = lazyregexp.New(`(?i)^\s*(?:WIDTH|LENGTH|WIDE\b|THICK|NOSING|OF\s+(?:DUCT|PIPE|CONDUIT))`)
	ceilingAfterRe = lazyregexp.New(`(?i)^\s*(?:JOISTS?|FAN|LIGHT|DIFFUSER|REGISTER|ACCESS|HATCH|MOUNT|TILE|GRID|BOARD)`)
	// A run of a length that is not a stair (duct, pipe, wire).
	nonStairRunRe = lazyregexp.New(`(?i)\b(?:DUCT|PIPE|CONDUIT|WIRE|CABLE|GUTTER|DOWNSPOUT)\b`)
	stairGuardRe  = lazyregexp.New(`(?i)\bSTAIR|\bOPEN\s+SIDE|\bRISERS?\b|\bTREADS?\b|\bNOSING`)
	guardLookRe   = lazyregexp.New(`(?i)\b(?:CORNER|WALL|WHEEL|TREE|FINGER|CRASH|EDGE|KICK|SPLASH|DOOR)\s+GUARDS?|\bBOLLARD|\bBUMPER|\bHANDRAIL`)
)

func mustAll(patterns ...string) []*lazyregexp.Regexp {
	out := make([]*lazyregexp.Regexp, len(patterns))
	for i, p := range patterns {
		out[i] = lazyregexp.New(`(?i)` + p)
	}
	return out
}

var (
	maxWordRe = lazyregexp.New(`(?i)\bMAX(?:IMUM)?\b`)
	minWordRe = lazyregexp.New(`(?i)\bMIN(?:IMUM)?\b`)
)

// readValues returns the observations of the values the rule's readers
// found that the rule's own pattern did not already report (obs).
func (rv *review) readValues(r *Rule, obs []observation) []observation {
	reader, ok := valueReaders[r.ID]
	if !ok || r.Quantity != QuantityLength && r.Quantity != QuantityArea {
		return obs
	}
	taken := map[*pageView]map[int]bool{}
	for _, o := range obs {
		if o.page == nil {
			continue
		}
		if taken[o.page] == nil {
			taken[o.page] = map[int]bool{}
		}
		for _, w := range o.words {
			taken[o.page][w] = true
		}
	}
	var readings []valueReading
	for _, pv := range rv.pages {
		if !pv.Readable || !r.appliesToType(pv.Ident.Type) {
			continue
		}
		pn := rv.notesOf(pv)
		if pn.existingTitle || !pn.mayRead(reader.keys) {
			continue
		}
		for _, vr := range reader.read(pv, pv.Layout(), pn, r) {
			if r.Unless != nil && (r.Unless.Regexp().MatchString(vr.text) || r.Unless.Regexp().MatchString(vr.line)) {
				continue
			}
			if (r.PlausibleMin != nil && vr.value < *r.PlausibleMin) || (r.PlausibleMax != nil && vr.value > *r.PlausibleMax) {
				continue
			}
			// A stated maximum says nothing of a minimum ("1 1/2" MAX.
			// RISE" is no riser under 4 in), nor a stated minimum of a
			// maximum.
			if r.Max == nil && maxWordRe.MatchString(vr.text) || r.Min == nil && minWordRe.MatchString(vr.text) {
				continue
			}
			readings = append(readings, vr)
		}
	}
	if reader.oneSuffices {
		for _, vr := range readings {
			if violated, _ := r.violates(vr.value); !violated {
				return obs
			}
		}
	}
	for _, vr := range readings {
		pv := vr.pv
		{
			if overlaps(taken[pv], vr.words) {
				continue
			}
			violated, limit := r.violates(vr.value)
			if !violated {
				continue
			}
			vars := map[string]string{"text": vr.text, "value": vr.raw,
				"measured": FormatQuantity(r.Quantity, vr.value), "limit": FormatQuantity(r.Quantity, limit)}
			if r.Min != nil {
				vars["min"] = FormatQuantity(r.Quantity, *r.Min)
			}
			if r.Max != nil {
				vars["max"] = FormatQuantity(r.Quantity, *r.Max)
			}
			conf := 0.0
			if r.doubtful(vr.value) {
				conf = r.DoubtfulConfidence
			}
			if taken[pv] == nil {
				taken[pv] = map[int]bool{}
			}
			for _, w := range vr.words {
				taken[pv][w] = true
			}
			obs = append(obs, observation{page: pv, words: vr.words, vars: vars, confidence: conf,
				evidence: vr.text + "=" + FormatQuantity(r.Quantity, vr.value)})
		}
	}
	return obs
}

func overlaps(taken map[int]bool, words []int) bool {
	for _, w := range words {
		if taken[w] {
			return true
		}
	}
	return false
}

// normLine is a layout line's words read as the engine reads words (Norm:
// fractions spelled out, dashes unified), with each word's offset.
type normLine struct {
	words  []int
	starts []int
	text   string
}

func normText(lp *layout.Page, words []int) normLine {
	word := func(w int) string {
		if t := lp.Words[w].Norm; t != "" {
			return t
		}
		return lp.Words[w].Text
	}
	if len(words) == 1 {
		return normLine{words: words, starts: []int{0}, text: word(words[0])}
	}
	n := len(words)
	for _, w := range words {
		n += len(word(w))
	}
	var b strings.Builder
	b.Grow(n)
	nl := normLine{words: words, starts: make([]int, 0, len(words))}
	for k, w := range words {
		if k > 0 {
			b.WriteByte(' ')
		}
		nl.starts = append(nl.starts, b.Len())
		b.WriteString(word(w))
	}
	nl.text = b.String()
	return nl
}

func (nl normLine) wordsIn(start, end int) []int {
	var out []int
	for k, w := range nl.words {
		ws := nl.starts[k]
		we := len(nl.text)
		if k+1 < len(nl.starts) {
			we = nl.starts[k+1] - 1
		}
		if ws < end && we > start {
			out = append(out, w)
		}
	}
	return out
}

// noteBlock is one text block of the page: its lines and, on demand, the
// text around it (for context: is it about a stair, about existing
// conditions).
type noteBlock struct {
	lines []normLine
	upper []string // the lines' text in upper case, for the keyword prefilter
	box   layout.Box
	lineH float64
	page  *pageNotes
	ctx   *string
}

// pageNotes is a page's text in upper case (to decide cheaply whether a
// reader has anything to read) and, built on first use, its blocks with
// every line read once; shared by the readers of all rules in one review.
type pageNotes struct {
	upper  []string // the engine's text lines, upper case
	all    string   // upper joined by newlines: a key is on the page iff in all
	built  bool
	blocks []noteBlock
	lines  []normLine   // every drawing-text line of the page
	boxes  []layout.Box // their boxes

	// existingTitle: the sheet's title names existing conditions (its
	// values are not the design's), read once for all the rules.
	existingTitle bool
}

// notesOf returns the page's notes, made on first use in this review.
func (rv *review) notesOf(pv *pageView) *pageNotes {
	if rv.valueNotes == nil {
		rv.valueNotes = map[*pageView]*pageNotes{}
	}
	if pn, ok := rv.valueNotes[pv]; ok {
		return pn
	}
	pn := newPageNotes(pv)
	rv.valueNotes[pv] = pn
	return pn
}

func newPageNotes(pv *pageView) *pageNotes {
	pn := &pageNotes{upper: make([]string, len(pv.Lines)), existingTitle: existingRe.MatchString(pv.Ident.Title)}
	for i, l := range pv.Lines {
		pn.upper[i] = strings.ToUpper(l.Text)
	}
	pn.all = strings.Join(pn.upper, "\n")
	return pn
}

var (
	// A line that can give a value: it holds a foot or inch mark, or it
	// names a schedule column or measure (its values are in other lines).
	lengthMarkRe  = lazyregexp.New(`\d\s*(?:"|''|″|”|'|′|’|\s?IN\b|\s?FT\b)`)
	headerWordsRe = lazyregexp.New(`\b(?:HEIGHT|HT|HGT|WIDTH|SIZE|OPENING|NCO|N\.C\.O)\b`)
)

// mayRead is the cheap test, on the engine's text lines, that decides
// whether the page's layout is worth analysing for a reader: a line holds
// one of its keys and a length, or is short (a label or a title standing
// alone), or names a schedule column.
func (pn *pageNotes) mayRead(keys []string) bool {
	if !containsAny(pn.all, keys) {
		return false // no line holds a key (keys have no newline)
	}
	for _, u := range pn.upper {
		if !containsAny(u, keys) {
			continue
		}
		if len(u) <= 30 || lengthMarkRe.MatchString(u) || headerWordsRe.MatchString(u) {
			return true
		}
	}
	return false
}

// build reads the page's blocks from its layout, once.
func (pn *pageNotes) build(lp *layout.Page) {
	if pn.built {
		return
	}
	pn.built = true
	byLine := make([]int, len(lp.Lines))
	pn.lines = make([]normLine, 0, len(lp.Lines))
	pn.boxes = make([]layout.Box, 0, len(lp.Lines))
	// The lines are normText's, their texts and word offsets cut from
	// page-wide slabs (one builder, one offset slice) instead of
	// allocated line by line.
	word := func(w int) string {
		if t := lp.Words[w].Norm; t != "" {
			return t
		}
		return lp.Words[w].Text
	}
	size, words := 0, 0
	for _, l := range lp.Lines {
		if l.Layer == layout.LayerOverlay {
			continue
		}
		words += len(l.Words)
		for _, w := range l.Words {
			size += len(word(w)) + 1
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	startSlab := make([]int, 0, words)
	spans := make([][2]int, 0, len(lp.Lines))
	for li, l := range lp.Lines {
		byLine[li] = -1
		if l.Layer == layout.LayerOverlay {
			continue
		}
		byLine[li] = len(pn.lines)
		from, first := sb.Len(), len(startSlab)
		for k, w := range l.Words {
			if k > 0 {
				sb.WriteByte(' ')
			}
			startSlab = append(startSlab, sb.Len()-from)
			sb.WriteString(word(w))
		}
		pn.lines = append(pn.lines, normLine{words: l.Words, starts: startSlab[first:len(startSlab):len(startSlab)]})
		spans = append(spans, [2]int{from, sb.Len()})
		pn.boxes = append(pn.boxes, l.Box)
	}
	all := sb.String()
	for k, sp := range spans {
		pn.lines[k].text = all[sp[0]:sp[1]]
	}
	pn.blocks = make([]noteBlock, 0, len(lp.Blocks))
	// A block whose lines are a run of the page's lines, in order (the
	// usual case), shares them; the others' lines are cut from two
	// page-wide slabs (a drawing has hundreds of small blocks).
	upper := make([]string, len(pn.lines))
	for k := range pn.lines {
		upper[k] = strings.ToUpper(pn.lines[k].text)
	}
	var lineSlab []normLine
	var upperSlab []string
	for _, b := range lp.Blocks {
		nb := noteBlock{box: b.Box, page: pn}
		first, n, run := -1, 0, true
		for _, li := range b.Lines {
			k := byLine[li]
			if k < 0 {
				continue
			}
			if first < 0 {
				first = k
			}
			run = run && k == first+n
			n++
			nb.lineH = max(nb.lineH, pn.boxes[k].Y1-pn.boxes[k].Y0)
		}
		if n == 0 {
			continue
		}
		if run {
			nb.lines, nb.upper = pn.lines[first:first+n:first+n], upper[first:first+n:first+n]
		} else {
			from := len(lineSlab)
			for _, li := range b.Lines {
				if k := byLine[li]; k >= 0 {
					lineSlab = append(lineSlab, pn.lines[k])
					upperSlab = append(upperSlab, upper[k])
				}
			}
			to := len(lineSlab)
			nb.lines, nb.upper = lineSlab[from:to:to], upperSlab[from:to:to]
		}
		pn.blocks = append(pn.blocks, nb)
	}
}

// context is the block's text with the lines around it: a stacked stair
// annotation ("MAIN STAIR" over "15 RISERS" over "7 1/4" RISE") is often
// drawn with gaps the layout reads as separate blocks, so the lines within
// six line heights above and below the block (and overlapping it across)
// count too. Computed only for blocks where a value matched.
func (nb *noteBlock) context() string {
	if nb.ctx != nil {
		return *nb.ctx
	}
	b, h := nb.box, nb.lineH
	var texts []string
	for k, lb := range nb.page.boxes {
		if lb.Y1 >= b.Y0-6*h && lb.Y0 <= b.Y1+6*h && lb.X0 < b.X1+h && lb.X1 > b.X0-h {
			texts = append(texts, nb.page.lines[k].text)
		}
	}
	t := strings.Join(texts, "\n")
	nb.ctx = &t
	return t
}

// noteFilter decides whether a match is evidence: after is the line's text
// following the value match, block the block it sits in.
type noteFilter func(match, after string, block *noteBlock) bool

// readNotes runs value patterns over every line holding one of keys (upper
// case) of every block not about existing conditions.
func readNotes(pv *pageView, pn *pageNotes, keys []string, res []*lazyregexp.Regexp, keep noteFilter) []valueReading {
	pn.build(pv.Layout())
	var out []valueReading
	for bi := range pn.blocks {
		b := &pn.blocks[bi]
		for k, nl := range b.lines {
			if !containsAny(b.upper[k], keys) {
				continue
			}
			seen := map[int]bool{}
			for _, re := range res {
				vi := re.SubexpIndex("value")
				for _, m := range re.FindAllStringSubmatchIndex(nl.text, -1) {
					if m[2*vi] < 0 || seen[m[2*vi]] {
						continue
					}
					raw := strings.TrimSpace(nl.text[m[2*vi]:m[2*vi+1]])
					match := nl.text[m[0]:m[1]]
					if existingRe.MatchString(b.context()) || keep != nil && !keep(match, nl.text[m[1]:], b) {
						continue
					}
					v, err := ParseLength(raw)
					if err != nil {
						continue
					}
					seen[m[2*vi]] = true
					out = append(out, valueReading{pv: pv, words: nl.wordsIn(m[0], m[1]), text: match, raw: raw, value: v, line: nl.text})
				}
			}
		}
	}
	return out
}

func containsAny(s string, keys []string) bool {
	for _, k := range keys {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

var riseOnlyRe = lazyregexp.New(`(?i)\bRISE\b`)

func readRiserNotes(pv *pageView, lp *layout.Page, pn *pageNotes, _ *Rule) []valueReading {
	return append(readLabelled(pv, lp, pn, riserLabelRe), readNotes(pv, pn, []string{"RISE"}, riserNoteRes, func(match, after string, b *noteBlock) bool {
		if riserAfterRe.MatchString(after) {
			return false
		}
		// "RISE" alone (not RISER) is a stair's only in a stair's note,
		// never on a roof's slope triangle.
		if riseOnlyRe.MatchString(match) && (!stairContextRe.MatchString(b.context()) || roofContextRe.MatchString(b.context())) {
			return false
		}
		return true
	})...)
}

var runOnlyRe = lazyregexp.New(`(?i)\bRUN\b`)

func readTreadNotes(pv *pageView, lp *layout.Page, pn *pageNotes, _ *Rule) []valueReading {
	return append(readLabelled(pv, lp, pn, treadLabelRe), readNotes(pv, pn, []string{"TREAD", "RUN"}, treadNoteRes, func(match, after string, b *noteBlock) bool {
		if treadAfterRe.MatchString(after) {
			return false
		}
		if runOnlyRe.MatchString(match) && (!stairContextRe.MatchString(b.context()) || roofContextRe.MatchString(b.context()) || nonStairRunRe.MatchString(b.context())) {
			return false
		}
		return true
	})...)
}

func readHeadroomNotes(pv *pageView, lp *layout.Page, pn *pageNotes, _ *Rule) []valueReading {
	// Headroom is also said of doors, attics and equipment: only a stair's.
	return append(readLabelled(pv, lp, pn, headroomLabelRe), readNotes(pv, pn, []string{"HEAD"}, headroomNoteRes, func(_, _ string, b *noteBlock) bool {
		return stairContextRe.MatchString(b.context())
	})...)
}

func readGuardNotes(pv *pageView, lp *layout.Page, pn *pageNotes, _ *Rule) []valueReading {
	// A guard on the open side of a stair may be lower (34 in, measured
	// from the nosings): a height read near a stair is not judged.
	return readNotes(pv, pn, []string{"GUARD", "RAILING"}, guardNoteRes, func(match, _ string, b *noteBlock) bool {
		return !guardLookRe.MatchString(match) && !stairGuardRe.MatchString(b.context())
	})
}

func readHandrailNotes(pv *pageView, lp *layout.Page, pn *pageNotes, _ *Rule) []valueReading {
	return append(readLabelled(pv, lp, pn, handrailLabelRe), readNotes(pv, pn, []string{"HANDRAIL"}, handrailNoteRes, nil)...)
}

// Rooms whose ceiling height the rule does not govern or governs with a
// lower limit (bathrooms, toilets, laundry, storage and, under the IBC,
// kitchens at 7 ft; closets, mechanical rooms, garages, attics and crawl
// spaces not at all), and ceilings the rule measures elsewhere (sloped,
// beams, soffits).
var (
	ceilingExemptRe    = lazyregexp.New(`(?i)\bBATH|\bTOILET|\bLAV\b|\bW\.?C\.?\b|\bPOWDER|\bLAUNDRY|\bLNDRY|\bSTOR|\bCLOSET|\bCLOS?\.?\b|\bW\.?I\.?C\b|\bPANTRY|\bMECH|\bELEC|\bJAN|\bUTIL|\bGARAGE|\bCARPORT|\bATTIC|\bCRAWL|\bBASEMENT|\bPORCH|\bDECK|\bPATIO|\bSHAFT|\bCHASE|\bSLOP|\bVAULT|\bCATHEDRAL|\bBEAM|\bSOFFIT|\bDUCT|\bBULKHEAD|\bDROP|\bFURR|\bPLENUM|\bABOVE\s+CEILING|\bA\.?C\.?T\.?\s+ABOVE|\bUNDER`)
	kitchenRe          = lazyregexp.New(`(?i)\bKITCHEN|\bKIT\b|\bBREAK\s*ROOM|\bPANTRY`)
	ceilingHeaderRe    = lazyregexp.New(`(?i)\b(?:CEILING|CLG)\.?\s*(?:HEIGHT|HT|HGT)\b`)
	roomNameOnlyRe     = lazyregexp.New(`(?i)\bNAME\b`)
	roomNameHeaderRe   = lazyregexp.New(`(?i)\b(?:ROOM|SPACE|NAME|AREA)\b`)
	imperialLengthOnly = lazyregexp.New(`(?i)^\s*(` + imperialLength + `)\s*(?:A\.?F\.?F\.?)?\s*$`)
)

func ceilingExempt(r *Rule, text string) bool {
	if ceilingExemptRe.MatchString(text) {
		return true
	}
	// Over a stair the limit is the stair's headroom (R311.7.2, 1011.3);
	// the egress ceiling rule reads stairs itself.
	if r.ID != "ibc-1003.2-egress-ceiling-height" && stairWordRe.MatchString(text) {
		return true
	}
	return strings.HasPrefix(r.ID, "ibc-") && kitchenRe.MatchString(text)
}

// readCeilingHeights reads room tags and notes ("8'-0" CLG.") and the
// ceiling-height column of room schedules, skipping rooms the rule does
// not hold to its limit.
func readCeilingHeights(pv *pageView, lp *layout.Page, pn *pageNotes, r *Rule) []valueReading {
	return readCeilings(pv, lp, pn, r, nil)
}

// egressSpaceRe names the spaces of a means of egress (IBC 1003.2 holds
// their ceilings to 7'-6"; the rule of 1208.2 leaves them to it).
var egressSpaceRe = lazyregexp.New(`(?i)\bCORRIDOR|\bEXIT\b|\bEGRESS|\bSTAIR|\bPASSAGE`)

// readEgressCeilingHeights reads the ceiling heights of corridors, exits
// and exit passageways only.
func readEgressCeilingHeights(pv *pageView, lp *layout.Page, pn *pageNotes, r *Rule) []valueReading {
	return readCeilings(pv, lp, pn, r, egressSpaceRe)
}

func readCeilings(pv *pageView, lp *layout.Page, pn *pageNotes, r *Rule, only *lazyregexp.Regexp) []valueReading {
	out := readNotes(pv, pn, []string{"CLG", "CEIL"}, ceilingNoteRes, func(match, after string, b *noteBlock) bool {
		return !ceilingAfterRe.MatchString(after) && !ceilingExempt(r, b.context()) && (only == nil || only.MatchString(b.context()))
	})
	for _, tb := range lp.Tables {
		cols := headerColumns(lp, tb, ceilingHeaderRe, roomNameOnlyRe)
		if cols == nil {
			cols = headerColumns(lp, tb, ceilingHeaderRe, roomNameHeaderRe)
		}
		if cols == nil {
			continue
		}
		for _, row := range tb.Rows[cols.headerRow+1:] {
			cell, ok := cellUnder(row, cols.value)
			if !ok {
				continue
			}
			ct := normText(lp, cell.Words)
			m := imperialLengthOnly.FindStringSubmatch(ct.text)
			if m == nil {
				continue
			}
			rowText := normRowText(lp, row)
			if existingRe.MatchString(rowText) || ceilingExempt(r, rowText) || only != nil && !only.MatchString(rowText) {
				continue
			}
			name := ""
			if nc, ok := cellUnder(row, cols.other); ok {
				name = strings.TrimSpace(normText(lp, nc.Words).text)
			}
			if name == "" {
				continue
			}
			v, err := ParseLength(m[1])
			if err != nil {
				continue
			}
			words := append(append([]int{}, mustCell(row, cols.other).Words...), cell.Words...)
			out = append(out, valueReading{pv: pv, words: words, text: name + " " + strings.TrimSpace(ct.text), line: rowText,
				raw: strings.TrimSpace(m[1]) + " (" + name + ", room schedule)", value: v})
		}
	}
	return out
}

// --- schedules --------------------------------------------------------------

// scheduleColumns names the header row of a table and the boxes of the
// columns a reader wants.
type scheduleColumns struct {
	headerRow    int
	value, other layout.Box
}

// headerColumns finds, in the table's first rows, a header cell matching
// valueRe and one (another) matching otherRe; nil if the table has none.
func headerColumns(lp *layout.Page, tb layout.Table, valueRe, otherRe *lazyregexp.Regexp) *scheduleColumns {
	for ri, row := range tb.Rows {
		if ri > 3 {
			break
		}
		vc, oc := -1, -1
		for ci, c := range row.Cells {
			t := normText(lp, c.Words).text
			switch {
			case vc < 0 && valueRe.MatchString(t):
				vc = ci
			case oc < 0 && otherRe.MatchString(t):
				oc = ci
			}
		}
		if vc >= 0 && oc >= 0 {
			return &scheduleColumns{headerRow: ri, value: row.Cells[vc].Box, other: row.Cells[oc].Box}
		}
	}
	return nil
}

// cellUnder is the row's cell whose centre lies in the column's span.
func cellUnder(row layout.Row, col layout.Box) (layout.Cell, bool) {
	for _, c := range row.Cells {
		x := (c.Box.X0 + c.Box.X1) / 2
		if x >= col.X0 && x <= col.X1 {
			return c, true
		}
	}
	return layout.Cell{}, false
}

func mustCell(row layout.Row, col layout.Box) layout.Cell {
	c, _ := cellUnder(row, col)
	return c
}

func normRowText(lp *layout.Page, row layout.Row) string {
	var parts []string
	for _, c := range row.Cells {
		parts = append(parts, normText(lp, c.Words).text)
	}
	return strings.Join(parts, " | ")
}

var (
	// A door schedule's size column: the door (leaf) size or width, or its
	// clear opening; never the frame, a rough or masonry opening, glass.
	doorSizeHeaderRe  = lazyregexp.New(`(?i)^\s*(?:DOOR\s+|NOMINAL\s+|NOM\.?\s+)?(?:SIZE|WIDTH|WD\.?|W)\s*(?:\(.*\))?\s*$|\bCLEAR\s+(?:WIDTH|OPENING)\b`)
	doorNotSizeRe     = lazyregexp.New(`(?i)FRAME|ROUGH|\bR\.?\s?O\.?\b|MASONRY|GLASS|GLAZ|LITE|LOUVER|PANEL|THICK|HARDWARE`)
	doorMarkHeaderRe  = lazyregexp.New(`(?i)\b(?:DOOR|MARK|NO\.?|NUMBER|TAG|LOCATION|ROOM|TYPE)\b`)
	doorScheduleRe    = lazyregexp.New(`(?i)\bDOOR\b`)
	egressDoorRe      = lazyregexp.New(`(?i)\b(?:ENTRY|ENTRANCE|FRONT\s+DOOR|MAIN\s+DOOR|EGRESS|EXIT)\b`)
	notEgressDoorRe   = lazyregexp.New(`(?i)\bCLOSET|\bCLO\b|\bPANTRY|\bBATH|\bTOILET|\bSTOR|\bACCESS\s+(?:DOOR|PANEL)|\bATTIC|\bCRAWL|\bPAIR\b|\bPR\.?\b|\(2\)|\bDOUBLE\b|\bDBL\b|\bSLIDING|\bBI-?FOLD|\bPOCKET|\bGARAGE|\bOVERHEAD|\bO\.?H\.?\b`)
	doorSizePairRe    = lazyregexp.New(`(?i)^\s*(` + imperialLength + `)\s*[X×]\s*(` + imperialLength + `)`)
	doorShorthandRe   = lazyregexp.New(`^\s*([1-4])([0-9])([6-9])([0-9])\s*$`)
	clearWidthHeadRe  = lazyregexp.New(`(?i)\bCLEAR\b`)
	doorScheduleTitle = 3 // rows at the top of a table that may hold its title
)

// readDoorSchedules reads the width of the dwelling's or building's entry
// and exit doors from door schedules: the WIDTH column, the width of a SIZE
// ("3'-0" X 6'-8"", "3068"), or a CLEAR WIDTH column. A leaf narrower than
// the required clear width cannot give it, so a leaf is compared as is; a
// leaf at or over the limit may still be too narrow in the clear but that
// is not read, so it is not reported.
func readDoorSchedules(pv *pageView, lp *layout.Page, pn *pageNotes, _ *Rule) []valueReading {
	var out []valueReading
	for _, tb := range lp.Tables {
		if !isDoorSchedule(lp, tb) {
			continue
		}
		cols := headerColumns(lp, tb, doorSizeHeaderRe, doorMarkHeaderRe)
		if cols == nil {
			continue
		}
		header, _ := cellUnder(tb.Rows[cols.headerRow], cols.value)
		headerText := normText(lp, header.Words).text
		if doorNotSizeRe.MatchString(headerText) {
			continue
		}
		for _, row := range tb.Rows[cols.headerRow+1:] {
			rowText := normRowText(lp, row)
			if !egressDoorRe.MatchString(rowText) || notEgressDoorRe.MatchString(rowText) || existingRe.MatchString(rowText) {
				continue
			}
			cell, ok := cellUnder(row, cols.value)
			if !ok {
				continue
			}
			ct := normText(lp, cell.Words).text
			width, raw, ok := doorWidth(ct)
			if !ok {
				continue
			}
			what := "leaf width in the door schedule"
			if clearWidthHeadRe.MatchString(headerText) {
				what = "clear width in the door schedule"
			}
			out = append(out, valueReading{pv: pv, words: cell.Words, text: strings.TrimSpace(ct), line: rowText,
				raw: raw + " (" + what + ")", value: width})
		}
	}
	return out
}

// isDoorSchedule: the table's first rows, or the line just above it, name
// doors.
func isDoorSchedule(lp *layout.Page, tb layout.Table) bool {
	for ri, row := range tb.Rows {
		if ri >= doorScheduleTitle {
			break
		}
		if doorScheduleRe.MatchString(normRowText(lp, row)) {
			return true
		}
	}
	for _, l := range lp.Lines {
		h := l.Box.Y1 - l.Box.Y0
		if l.Box.Y1 <= tb.Box.Y0+1 && l.Box.Y1 >= tb.Box.Y0-3*h && l.Box.X0 < tb.Box.X1 && l.Box.X1 > tb.Box.X0 &&
			doorScheduleRe.MatchString(l.Text) {
			return true
		}
	}
	return false
}

// doorWidth reads a door's width from a size or width cell: a single
// length, "W X H" (the smaller of the two: doors are taller than wide), or
// the trade shorthand "3068" (3'-0" by 6'-8").
func doorWidth(s string) (float64, string, bool) {
	if m := imperialLengthOnly.FindStringSubmatch(s); m != nil {
		v, err := ParseLength(m[1])
		return v, strings.TrimSpace(m[1]), err == nil
	}
	if m := doorSizePairRe.FindStringSubmatch(s); m != nil {
		a, err1 := ParseLength(m[1])
		b, err2 := ParseLength(m[2])
		if err1 != nil || err2 != nil {
			return 0, "", false
		}
		if a <= b {
			return a, strings.TrimSpace(m[1]), true
		}
		return b, strings.TrimSpace(m[2]), true
	}
	if m := doorShorthandRe.FindStringSubmatch(s); m != nil {
		ft, _ := strconv.Atoi(m[1])
		in, _ := strconv.Atoi(m[2])
		return float64(12*ft + in), m[1] + "'-" + strconv.Itoa(in) + `"`, true
	}
	return 0, "", false
}

// --- labelled values ----------------------------------------------------------

// A stair schedule or a stair's data block names its values by label:
// "RISER" over or beside "7 1/2"", a "TREAD" column. Only labels that name
// the measure and nothing else (not "RISER DIAGRAM", not "GUARD POST").
var (
	// Labels are tried on every line of a page: textmatch rules out the
	// lines without their words before the expression runs.
	riserLabelRe    = textmatch.MustCompile(`(?i)^\s*(?:MAX(?:IMUM)?\.?\s+)?(?:STAIR\s+)?RISERS?(?:\s+(?:HEIGHT|HT\.?))?\s*:?\s*$`)
	treadLabelRe    = textmatch.MustCompile(`(?i)^\s*(?:MIN(?:IMUM)?\.?\s+)?(?:STAIR\s+)?(?:TREADS?(?:\s+(?:DEPTH|RUN))?|RUN)\s*:?\s*$`)
	headroomLabelRe = textmatch.MustCompile(`(?i)^\s*(?:MIN(?:IMUM)?\.?\s+)?(?:STAIR\s+)?HEAD\s*ROOM\s*:?\s*$`)
	handrailLabelRe = textmatch.MustCompile(`(?i)^\s*HANDRAIL\s+(?:HEIGHT|HT\.?)\s*:?\s*$`)
	// The value of a labelled pair or a column cell: one imperial length.
	labelledValueRe = lazyregexp.New(`(?i)^\s*(` + imperialLength + `)\s*(?:MAX\.?|MIN\.?|TYP\.?)?\s*$`)
)

// readLabelled reads the values stacked with a label (readStacked), the
// values the layout paired with a label matching
// labelRe (beside it, under it, in the next cell), and the cells under a
// table column whose header matches it; rows and pairs about existing
// conditions are left out.
func readLabelled(pv *pageView, lp *layout.Page, pn *pageNotes, labelRe *textmatch.Regexp) []valueReading {
	out := readStacked(pv, lp, pn, labelRe)
	for _, pr := range lp.Pairs {
		label := normText(lp, pr.LabelWords).text
		if !labelRe.MatchString(label) {
			continue
		}
		value := normText(lp, pr.ValueWords).text
		m := labelledValueRe.FindStringSubmatch(value)
		if m == nil || existingRe.MatchString(label+" "+value) {
			continue
		}
		v, err := ParseLength(m[1])
		if err != nil || !stairNear(lp, pr.Box) || existingRe.MatchString(textAround(lp, pr.Box)) {
			continue
		}
		words := append(append([]int{}, pr.LabelWords...), pr.ValueWords...)
		out = append(out, valueReading{pv: pv, words: words, text: label + " " + strings.TrimSpace(value), raw: strings.TrimSpace(m[1]), value: v,
			line: label + " " + value})
	}
	for _, tb := range lp.Tables {
		for hi, row := range tb.Rows {
			if hi > 3 {
				break
			}
			for _, hc := range row.Cells {
				header := normText(lp, hc.Words).text
				if !labelRe.MatchString(header) || !stairNear(lp, tb.Box) {
					continue
				}
				for _, body := range tb.Rows[hi+1:] {
					cell, ok := cellUnder(body, hc.Box)
					if !ok {
						continue
					}
					ct := normText(lp, cell.Words).text
					m := labelledValueRe.FindStringSubmatch(ct)
					if m == nil || existingRe.MatchString(normRowText(lp, body)) {
						continue
					}
					v, err := ParseLength(m[1])
					if err != nil {
						continue
					}
					out = append(out, valueReading{pv: pv, words: cell.Words, text: strings.TrimSpace(header) + " " + strings.TrimSpace(ct), line: normRowText(lp, body),
						raw: strings.TrimSpace(m[1]), value: v})
				}
			}
		}
	}
	return out
}

// stairLabelContextRe: text that makes a labelled RISER or TREAD a stair's
// (not a pipe riser's size in a plumbing table): the stair named, or both
// measures of a stair side by side.
var (
	stairWordRe = lazyregexp.New(`(?i)\bSTAIR|\bLANDING|\bNOSING|\bFLIGHT`)
	riserWordRe = lazyregexp.New(`(?i)\bRISERS?\b|\bRISE\b`)
	treadWordRe = lazyregexp.New(`(?i)\bTREADS?\b|\bRUN\b`)
	pipeRiserRe = lazyregexp.New(`(?i)\b(?:FIRE|SPRINKLER|STANDPIPE|WATER|GAS|PIPE|PLUMBING|DRAIN|VENT|ELEC|CONDUIT|DUCT|MECH)`)
)

// stairLabelRe is any label of a stair's measures: a value line between
// two of them ("RISER HEIGHT" / 7 1/2" / "TREAD DEPTH") belongs to either,
// and is not read.
var stairLabelRe = lazyregexp.New(`(?i)^\s*(?:MAX(?:IMUM)?\.?\s+|MIN(?:IMUM)?\.?\s+)?(?:STAIR\s+)?(?:RISERS?|RISE|TREADS?|RUN|HEAD\s*ROOM|HANDRAIL|GUARD|WIDTH|NOSING)\b`)

// nextToOtherLabel reports whether value line vi also touches a label line
// other than li (above or below it, overlapping across).
func nextToOtherLabel(pn *pageNotes, vi, li int) bool {
	vb := pn.boxes[vi]
	h := vb.Y1 - vb.Y0
	for k, l := range pn.lines {
		if k == li || k == vi || !stairLabelRe.MatchString(l.text) {
			continue
		}
		b := pn.boxes[k]
		if b.X0 >= vb.X1 || b.X1 <= vb.X0 {
			continue
		}
		if gap := max(b.Y0-vb.Y1, vb.Y0-b.Y1); gap > -0.2*h && gap < 1.2*h {
			return true
		}
	}
	return false
}

// textAround is the text of the lines within reach of a box (a few lines
// of note text either way).
func textAround(lp *layout.Page, b layout.Box) string {
	const reach = 120.0 // points
	var texts []string
	for _, l := range lp.Lines {
		if l.Box.Y1 >= b.Y0-reach && l.Box.Y0 <= b.Y1+reach && l.Box.X0 < b.X1+reach && l.Box.X1 > b.X0-reach {
			texts = append(texts, normText(lp, l.Words).text)
		}
	}
	return strings.Join(texts, "\n")
}

// stairNear reports whether the text around a box (the box grown by a few
// line heights) is about a stair and not about piping.
func stairNear(lp *layout.Page, b layout.Box) bool {
	t := textAround(lp, b)
	if pipeRiserRe.MatchString(t) {
		return false
	}
	return stairWordRe.MatchString(t) || riserWordRe.MatchString(t) && treadWordRe.MatchString(t)
}

// --- emergency escape openings ---------------------------------------------------

var (
	// The net clear opening column of a window schedule, in square feet
	// (by its header or its cells); never a width-by-height pair, a rough
	// opening or a unit size.
	netClearHeaderRe  = lazyregexp.New(`(?i)\bNET\s+CLEAR\s+(?:OPENING|AREA)|\bCLEAR\s+OPENING\s+AREA|\bEGRESS\s+(?:OPENING\s+)?AREA|\bN\.?C\.?O\.?(?:\s|$|\()`)
	netClearNotRe     = lazyregexp.New(`(?i)\bW\b|WIDTH|HEIGHT|\bH\b|\sX\s|ROUGH|\bR\.?O\.?\b|UNIT|M²|M2\b|SQ\.?\s?M\b`)
	sqftHeaderRe      = lazyregexp.New(`(?i)\bS\.?F\.?\b|SQ\.?\s?FT|FT²|FT2\b|SQUARE\s+FEET`)
	plainAreaRe       = lazyregexp.New(`^\s*(\d{1,2}(?:\.\d{1,2})?)\s*$`)
	windowScheduleRe  = lazyregexp.New(`(?i)\bWINDOW`)
	egressColumnRe    = lazyregexp.New(`(?i)^\s*(?:EGRESS|E\.?E\.?R\.?O\.?|ESCAPE)\s*\??\s*$`)
	egressYesRe       = lazyregexp.New(`(?i)^\s*(?:YES|Y|X|✓|✔|●)\s*$`)
	egressRowRe       = lazyregexp.New(`(?i)\bEGRESS\b|\bE\.?E\.?R\.?O\.?\b|\bESCAPE\b`)
	notEgressWindowRe = lazyregexp.New(`(?i)\bNON[-\s]?EGRESS|\bNOT\s+(?:AN\s+)?EGRESS`)
)

// readEscapeOpeningAreas reads, from window schedules with a net clear
// opening column in square feet, the openings of the rows marked as
// emergency escape openings (an EGRESS column checked, or the row naming
// egress). Rows not marked are not judged: only sleeping rooms and
// basements need one.
func readEscapeOpeningAreas(pv *pageView, lp *layout.Page, _ *pageNotes, _ *Rule) []valueReading {
	var out []valueReading
	for _, tb := range lp.Tables {
		if !isScheduleOf(lp, tb, windowScheduleRe) {
			continue
		}
		for hi, hrow := range tb.Rows {
			if hi > 3 {
				break
			}
			var area, egress *layout.Cell
			for ci := range hrow.Cells {
				t := normText(lp, hrow.Cells[ci].Words).text
				switch {
				case area == nil && netClearHeaderRe.MatchString(t) && !netClearNotRe.MatchString(t):
					area = &hrow.Cells[ci]
				case egress == nil && egressColumnRe.MatchString(t):
					egress = &hrow.Cells[ci]
				}
			}
			if area == nil {
				continue
			}
			sqftHeader := sqftHeaderRe.MatchString(normText(lp, area.Words).text)
			for _, row := range tb.Rows[hi+1:] {
				rowText := normRowText(lp, row)
				marked := egressRowRe.MatchString(rowText) && !notEgressWindowRe.MatchString(rowText)
				if egress != nil {
					c, ok := cellUnder(row, egress.Box)
					marked = ok && egressYesRe.MatchString(normText(lp, c.Words).text)
				}
				if !marked || existingRe.MatchString(rowText) {
					continue
				}
				cell, ok := cellUnder(row, area.Box)
				if !ok {
					continue
				}
				ct := strings.TrimSpace(normText(lp, cell.Words).text)
				var v float64
				var err error
				switch {
				case areaOnlyRe.Regexp().MatchString(ct):
					if netClearNotRe.MatchString(ct) {
						continue // metric
					}
					v, err = ParseArea(ct)
				case sqftHeader && plainAreaRe.MatchString(ct):
					v, err = strconv.ParseFloat(strings.TrimSpace(ct), 64)
				default:
					continue
				}
				if err != nil {
					continue
				}
				raw := ct
				if !strings.ContainsAny(strings.ToUpper(ct), "SF") {
					raw = ct + " SF"
				}
				out = append(out, valueReading{pv: pv, words: cell.Words, text: ct, line: rowText,
					raw: raw + " (net clear opening in the window schedule)", value: v})
			}
			break
		}
	}
	return out
}

// isScheduleOf: the table's first rows, or the line just above it, match re.
func isScheduleOf(lp *layout.Page, tb layout.Table, re *lazyregexp.Regexp) bool {
	for ri, row := range tb.Rows {
		if ri >= doorScheduleTitle {
			break
		}
		if re.MatchString(normRowText(lp, row)) {
			return true
		}
	}
	for _, l := range lp.Lines {
		h := l.Box.Y1 - l.Box.Y0
		if l.Box.Y1 <= tb.Box.Y0+1 && l.Box.Y1 >= tb.Box.Y0-3*h && l.Box.X0 < tb.Box.X1 && l.Box.X1 > tb.Box.X0 &&
			re.MatchString(l.Text) {
			return true
		}
	}
	return false
}

// readStacked reads a label standing alone on its line ("HEADROOM",
// "MAX. RISER") with a value standing alone on the line just under or just
// over it and overlapping it across (`6'-8"` on a section's dimension,
// under or over its label): the layout pairs labels without a colon only
// in cells.
func readStacked(pv *pageView, lp *layout.Page, pn *pageNotes, labelRe *textmatch.Regexp) []valueReading {
	pn.build(lp)
	var out []valueReading
	for li, l := range pn.lines {
		if !labelRe.MatchString(l.text) {
			continue
		}
		lb := pn.boxes[li]
		h := lb.Y1 - lb.Y0
		best, bestGap := -1, 1.2*h
		for vi, v := range pn.lines {
			if vi == li {
				continue
			}
			vb := pn.boxes[vi]
			if vb.X0 >= lb.X1 || vb.X1 <= lb.X0 {
				continue
			}
			gap := max(vb.Y0-lb.Y1, lb.Y0-vb.Y1)
			if gap < -0.2*h || gap >= bestGap || !labelledValueRe.MatchString(v.text) {
				continue
			}
			best, bestGap = vi, gap
		}
		if best < 0 || nextToOtherLabel(pn, best, li) {
			continue
		}
		v := pn.lines[best]
		m := labelledValueRe.FindStringSubmatch(v.text)
		val, err := ParseLength(m[1])
		if err != nil || existingRe.MatchString(textAround(lp, lb)) || !stairNear(lp, lb) {
			continue
		}
		words := append(append([]int{}, l.words...), v.words...)
		out = append(out, valueReading{pv: pv, words: words, text: l.text + " " + v.text, raw: strings.TrimSpace(m[1]), value: val,
			line: l.text + " " + v.text})
	}
	return out
}
