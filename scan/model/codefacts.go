package model

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"planreview/internal/perpage"
	"planreview/scan/codebasis/adoption"
	"planreview/scan/layout"
	"planreview/scan/units"
	"planreview/textmatch"
)

// Code-analysis statements: the occupancy groups, construction types,
// sprinkler statements and codes with editions a set states, the
// occupant loads, exits and egress figures of its code analysis, each
// with the line and words it was read from. A sheet's lines are read once
// for the whole set; what a group of sheets states together (CodeFacts)
// is put together from them, with the label/value pairs of the sheets
// that may hold a code analysis (codefacts_pairs.go) for what the lines
// did not state.

// Statement is one statement found on a sheet: where it is and what it
// says.
type Statement struct {
	Sheet *Sheet
	Line  int // index in Sheet.Lines (pair statements: 0)
	Words []int
	Text  string
	Value float64 // a number stated: occupant load, exits, inches per occupant, width in inches
	Group string  // a captured name: occupancy group, code family, sprinkler statement
	Extra string  // a second capture: code edition, jurisdiction
}

// Box is the bounds of the statement's words on its sheet.
func (st Statement) Box() layout.Box { return wordsBox(st.Sheet, st.Words) }

// Occupancies a set's statements make it (CodeFacts.Occupancy).
const (
	OccupancyResidential = "residential" // one- and two-family dwellings, townhouses: IRC
	OccupancyCommercial  = "commercial"  // everything the IBC governs
)

// CodeFacts are the code-analysis statements of a group of sheets.
type CodeFacts struct {
	Occupancy      string      // OccupancyResidential, OccupancyCommercial, or "" when not stated
	Groups         []Statement // occupancy groups stated
	Codes          []Statement // code statements: Group = code family (IBC), Extra = edition
	StateNames     []Statement // the adoption table's names: Group = its code ("" for a state's codes as a whole), Extra = its division
	StateEditions  []Statement // a state's codes named as a whole with an edition ("2018 NORTH CAROLINA STATE BUILDING CODE"): an edition stated, of no one code; Extra = edition
	Construction   []Statement
	SprinklerStmts []Statement // Group SprinklerUnknown: a caption whose value was not read
	Sprinklered    bool
	VoiceAlarm     bool
	OccupantLoads  []Statement
	Exits          []Statement
	StairFactors   []Statement
	OtherFactors   []Statement
	StairWidths    []Statement // egress width provided by stairs, inches
	OtherWidths    []Statement // egress width provided by other components, inches
}

// LineSet holds every expression run over a sheet's text lines, the
// model's (code statements) and the checks' (which compile theirs into
// it), so that each line is scanned once for all their literals
// (Sheet.LineScan).
var LineSet = textmatch.NewSet()

// lineScan is the sheet's lines scanned for LineSet's literals.
type lineScan struct {
	once     sync.Once
	present  []textmatch.Present // per line
	possible textmatch.Possible  // the members that may match a line
}

// LineScan is the sheet's lines scanned once for the literals of LineSet:
// per line which literals it holds, and which members may match one of
// its lines (the prefilter of every line expression). A page that is not
// readable has no lines.
func (s *Sheet) LineScan() ([]textmatch.Present, textmatch.Possible) {
	s.scan.once.Do(func() {
		if !s.Readable {
			return
		}
		texts := make([]string, len(s.Lines))
		for i, l := range s.Lines {
			texts[i] = l.Text
		}
		s.scan.present = LineSet.ScanAll(texts)
		s.scan.possible = LineSet.Possible(textmatch.Union(s.scan.present))
	})
	return s.scan.present, s.scan.possible
}

var (
	occupancyGroupRe = LineSet.MustCompile(`(?i)\b(?:OCCUPANCY(?:\s+(?:GROUP|CLASSIFICATION|CLASS|TYPE))?|USE\s+GROUP)\s*[:=\-]?\s*(?:GROUP\s+)?(A-[1-5]|B|E|F-[12]|H-[1-5]|I-[1-4]|M|R-[1-4]|S-[12]|U)\b`)
	// Code statements: "2021 IBC", "IBC 2021", "2021 INTERNATIONAL BUILDING
	// CODE", "2011 NEC", "5th Edition (2014) FBC", "NFPA 13 (2019)".
	codeStatementRes = []*textmatch.Regexp{
		// State and city codes by the names the adoption table gives
		// them: "2022 CALIFORNIA BUILDING CODE", "FLORIDA BUILDING CODE -
		// RESIDENTIAL, 8TH EDITION (2023)", "2021 VIRGINIA CONSTRUCTION
		// CODE".
		LineSet.MustCompileFunc(func() string {
			return `(?i)\b(?P<ed>20\d\d)\s+(?:EDITION\s+(?:OF\s+)?(?:THE\s+)?)?(?P<tname>` + tableNames() + `)\b`
		}),
		LineSet.MustCompileFunc(func() string {
			return `(?i)\b(?P<tname>` + tableNames() + `)\b[\s,\-–]*(?:\(?\d{1,2}(?:ST|ND|RD|TH)\s+EDITION\)?\s*)?\(?(?P<ed>20\d\d)\b`
		}),
		LineSet.MustCompile(`(?i)\b(?P<ed>20\d\d)\s+(?:EDITION\s+(?:OF\s+)?(?:THE\s+)?)?INTERNATIONAL\s+(?P<name>BUILDING|RESIDENTIAL|FIRE|MECHANICAL|PLUMBING|ENERGY\s+CONSERVATION|EXISTING\s+BUILDING|FUEL\s+GAS)\s+CODE`),
		// "INTERNATIONAL RESIDENTIAL CODE, 2021 EDITION", "INTERNATIONAL
		// BUILDING CODE (2021)".
		LineSet.MustCompile(`(?i)\bINTERNATIONAL\s+(?P<name>BUILDING|RESIDENTIAL|FIRE|MECHANICAL|PLUMBING|ENERGY\s+CONSERVATION|EXISTING\s+BUILDING|FUEL\s+GAS)\s+CODE\s*[,\-–]?\s*\(?(?P<ed>20\d\d)\b`),
		// Another state's code by name: "2021 OREGON RESIDENTIAL SPECIALTY
		// CODE (ORSC)". The appliance holds no adoption of it; it is a
		// code stated with its edition, named in the scope's "codes not
		// applied".
		LineSet.MustCompile(`(?i)\b(?P<ed>20\d\d)\s+(?P<other>(?:` + OtherStateNames + `)\s+(?:RESIDENTIAL|BUILDING|STRUCTURAL)(?:\s+SPECIALTY)?\s+CODE)(?:\s*\((?P<abbr>[A-Z]{2,6})\))?`),
		// "INDIANA BUILDING CODE, 2014 EDITION", "OHIO BUILDING CODE (2017)".
		LineSet.MustCompile(`(?i)\b(?P<other>(?:` + OtherStateNames + `)\s+(?:RESIDENTIAL|BUILDING|STRUCTURAL)(?:\s+SPECIALTY)?\s+CODE)(?:\s*\((?P<abbr>[A-Z]{2,6})\))?[\s,\-–]*(?:\(?\d{1,2}(?:ST|ND|RD|TH)\s+EDITION\)?\s*)?\(?(?P<ed>20\d\d)\b`),
		LineSet.MustCompileFunc(func() string { return `(?i)\b(?P<ed>20\d\d)\s+(?P<fam>` + codeFamilies() + `)\b` }),
		LineSet.MustCompileFunc(func() string { return `(?i)\((?P<ed>20\d\d)\)\s+(?P<fam>` + codeFamilies() + `)\b` }),
		LineSet.MustCompileFunc(func() string { return `(?i)\b(?P<fam>` + codeFamilies() + `)\s*[-,]?\s*\(?(?P<ed>20\d\d)\b` }),
	}
	constructionRe = LineSet.MustCompile(`(?i)\b(?:CONSTRUCTION\s+TYPE|TYPE\s+OF\s+CONSTRUCTION|CONST\.?\s+TYPE)\s*[:=\-]?\s*(?:TYPE\s+)?(IV-HT|IV-A|IV-B|IV-C|I{1,3}-?[AB]?|IV|V-?[AB]?)\b|\bTYPE\s+(I{1,3}-[AB]|IV-(?:HT|[ABC])|V-[AB])\b|\bTYPE\s+(I{1,3}[AB]|IV(?:HT|[ABC])|V[AB])\s+CONSTRUCTION\b`)
	sprinklerRe    = LineSet.MustCompile(`(?i)\b(NON-?\s*SPRINKLERED|NOT\s+SPRINKLERED|SPRINKLERED\s*[:=\-]?\s*(?:YES|NO|Y|N)\b|FULLY\s+SPRINKLERED|SPRINKLERED|AUTOMATIC\s+SPRINKLER(?:\s+SYSTEM)?|FIRE\s+SPRINKLER(?:\s+SYSTEM)?|NFPA\s*13[DR]?)`)
	// sprinklerCaptionRe is a line that is only a sprinkler caption.
	sprinklerCaptionRe = textmatch.MustCompile(`(?i)^\s*(?:AUTOMATIC\s+|FIRE\s+)?SPRINKLER(?:S|ED)?(?:\s+SYSTEMS?)?\s*[:=\-]?\s*$`)
	voiceAlarmRe       = LineSet.MustCompile(`(?i)\bEMERGENCY\s+VOICE|\bVOICE\s*/\s*ALARM|\bEVACS\b`)
	occupantLoadRe     = LineSet.MustCompile(`(?i)\b(?:TOTAL\s+|BUILDING\s+|STORY\s+|FLOOR\s+)?OCC(?:UPANT|\.)?\s*LOAD\s*[:=\-]?\s*(\d{1,5})\b`)
	exitsRe            = LineSet.MustCompile(`(?i)\b(?:(?:NUMBER\s+OF\s+|NO\.\s+OF\s+)EXITS(?:\s+PROVIDED)?|EXITS\s+PROVIDED)\s*[:=\-]?\s*(\d{1,2})\b`)
	stairFactorRe      = LineSet.MustCompile(`(?i)\bSTAIR(?:S|WAYS?)?\b[^0-9]{0,40}?(\d*\.\d+)\s*(?:"|IN\.?|INCH(?:ES)?)\s*(?:/|PER)\s*(?:OCC(?:UPANT)?\.?|PERSON)`)
	otherFactorRe      = LineSet.MustCompile(`(?i)\b(?:OTHER(?:\s+(?:EGRESS\s+)?COMPONENTS?)?|LEVEL(?:\s+COMPONENTS?)?|DOORS?|CORRIDORS?)\b[^0-9]{0,40}?(\d*\.\d+)\s*(?:"|IN\.?|INCH(?:ES)?)\s*(?:/|PER)\s*(?:OCC(?:UPANT)?\.?|PERSON)`)
	stairWidthRe       = LineSet.MustCompile(`(?i)\b(?:TOTAL\s+)?STAIR(?:WAY)?S?\s+(?:EGRESS\s+)?WIDTH\s+PROVIDED\s*[:=\-]?\s*(` + units.LengthPattern + `)`)
	otherWidthRe       = LineSet.MustCompile(`(?i)\b(?:TOTAL\s+)?(?:DOOR|EXIT|CORRIDOR|LEVEL)S?\s+(?:EGRESS\s+)?WIDTH\s+PROVIDED\s*[:=\-]?\s*(` + units.LengthPattern + `)`)
)

// SprinklerUnknown is the group of a sprinkler caption whose value was not
// read: stated, but neither sprinklered nor not.
const SprinklerUnknown = "UNKNOWN"

// codeFamilies are the code abbreviations a statement may name: the model
// codes' and the adoption table's. Only the families of adopted packs (and
// the table's codes based on them) are judged for edition; the others
// still count as "a code edition is stated".
func codeFamilies() string {
	_, abbreviations := tableForms()
	return `IBC|IRC|IFC|IMC|IPC|IECC|IEBC|IFGC|IPMC|ISPSC|IgCC|NEC|NFPA\s?\d{1,4}[A-Z]?` + orEmpty(abbreviations)
}

// adoptions is the adoption table (scan/codebasis/adoption): the state and
// city codes, the model codes they are based on, and the names plans print
// for them. The model reads a code a sheet states by those names; nil when
// the embedded table does not load (codebasis reports that error). It is
// parsed on first use: a command that reviews nothing does not pay for it.
func adoptions() *adoption.Table {
	t, _ := adoption.Load()
	return t
}

// tableNames and tableAbbreviations are the table's printed forms as
// alternations, longest first: names of several words (any run of spaces,
// commas, colons or dashes between the words) and one-word abbreviations.
var tableForms = sync.OnceValues(func() (names, abbreviations string) {
	if adoptions() == nil {
		return neverMatches, ""
	}
	ns, as := adoptions().Forms()
	var alt []string
	for _, n := range ns {
		words := strings.Fields(n)
		for i, w := range words {
			words[i] = regexp.QuoteMeta(w)
		}
		alt = append(alt, strings.Join(words, `[\s,:\-–]+`))
	}
	for i, a := range as {
		as[i] = regexp.QuoteMeta(a)
	}
	return strings.Join(alt, "|"), strings.Join(as, "|")
})

func tableNames() string {
	names, _ := tableForms()
	return names
}

// neverMatches is an expression no text matches.
const neverMatches = `[^\x00-\x{10FFFF}]`

func orEmpty(alt string) string {
	if alt == "" {
		return ""
	}
	return "|" + alt
}

// tableNameRe finds a table name with or without an edition: a sheet that
// names its state's code ("WASHINGTON STATE BUILDING CODE") places the
// project in that state even where no edition is printed.
var tableNameRe = LineSet.MustCompileFunc(func() string { return `(?i)\b(?:` + tableNames() + `)\b` })

// OtherStateNames are the states whose codes are read by name without an
// adoption in the table (an alternation of expressions): the statement
// still counts as a code and edition stated.
const OtherStateNames = `ALABAMA|ALASKA|ARIZONA|ARKANSAS|COLORADO|CONNECTICUT|DELAWARE|GEORGIA|HAWAII|IDAHO|ILLINOIS|INDIANA|IOWA|KANSAS|KENTUCKY|LOUISIANA|MAINE|MARYLAND|MASSACHUSETTS|MICHIGAN|MINNESOTA|MISSISSIPPI|MISSOURI|MONTANA|NEBRASKA|NEVADA|NEW\s+HAMPSHIRE|NEW\s+JERSEY|NEW\s+MEXICO|NEW\s+YORK(?:\s+STATE)?|NORTH\s+CAROLINA|NORTH\s+DAKOTA|OHIO|OKLAHOMA|OREGON|PENNSYLVANIA|RHODE\s+ISLAND|SOUTH\s+CAROLINA|SOUTH\s+DAKOTA|TENNESSEE|TEXAS|UTAH|VERMONT|VIRGINIA|WASHINGTON|WEST\s+VIRGINIA|WISCONSIN|WYOMING`

var codeFamilyByName = map[string]string{
	"BUILDING": "IBC", "RESIDENTIAL": "IRC", "FIRE": "IFC", "MECHANICAL": "IMC",
	"PLUMBING": "IPC", "ENERGY CONSERVATION": "IECC", "EXISTING BUILDING": "IEBC", "FUEL GAS": "IFGC",
}

// sheetCodeLines are the statements read from one sheet's lines, and the
// scan of its lines for the literals of LineSet.
type sheetCodeLines struct {
	groups, codes, stateNames, stateEditions, construction, sprinklers []Statement
	// captions are sprinkler captions standing alone (a value not read).
	captions                   []Statement
	occupantLoads, exits       []Statement
	stairFactors, otherFactors []Statement
	stairWidths, otherWidths   []Statement
	voiceAlarm                 bool
	present                    []textmatch.Present
	possible                   textmatch.Possible
}

// codeReading is the set's reading of its sheets' lines, and what the
// whole set states.
type codeReading struct {
	sheets  map[*Sheet]*sheetCodeLines
	allOnce sync.Once
	all     CodeFacts
}

// CodeFacts are the code-analysis statements of the whole set, read on
// first use.
func (set *Set) CodeFacts() CodeFacts {
	r := set.codeReading()
	r.allOnce.Do(func() { r.all = CodeFactsOf(set.Sheets) })
	return r.all
}

func (set *Set) codeReading() *codeReading {
	set.codeOnce.Do(func() { set.code = readCodeLines(set.Sheets) })
	return set.code
}

// codeLines are the statements of the sheet's lines: read with the whole
// set's (a set prints its title block and notes on many sheets, and an
// expression's matches in a text are found once), or alone for a sheet
// built outside a set.
func (s *Sheet) codeLines() *sheetCodeLines {
	if s.set == nil {
		return readCodeLines([]*Sheet{s}).sheets[s]
	}
	return s.set.codeReading().sheets[s]
}

// CodeFactsOf puts together what a group of sheets states, in their
// order: their lines' statements, then, where the lines leave occupancy,
// construction type or sprinklers unstated, the label/value pairs of the
// sheets that may hold a code analysis.
func CodeFactsOf(sheets []*Sheet) CodeFacts {
	var f CodeFacts
	var captions []Statement
	for _, s := range sheets {
		if !s.Readable {
			continue
		}
		r := s.codeLines()
		f.Groups = append(f.Groups, r.groups...)
		f.Codes = append(f.Codes, r.codes...)
		f.StateNames = append(f.StateNames, r.stateNames...)
		f.StateEditions = append(f.StateEditions, r.stateEditions...)
		f.Construction = append(f.Construction, r.construction...)
		f.SprinklerStmts = append(f.SprinklerStmts, r.sprinklers...)
		captions = append(captions, r.captions...)
		f.VoiceAlarm = f.VoiceAlarm || r.voiceAlarm
		f.OccupantLoads = append(f.OccupantLoads, r.occupantLoads...)
		f.Exits = append(f.Exits, r.exits...)
		f.StairFactors = append(f.StairFactors, r.stairFactors...)
		f.OtherFactors = append(f.OtherFactors, r.otherFactors...)
		f.StairWidths = append(f.StairWidths, r.stairWidths...)
		f.OtherWidths = append(f.OtherWidths, r.otherWidths...)
	}
	if len(f.Groups) == 0 || len(f.Construction) == 0 || len(f.SprinklerStmts) == 0 {
		for _, s := range sheets {
			if !s.Readable || !s.mayHoldCodeAnalysis() {
				continue
			}
			p := s.pairStatements()
			f.Groups = append(f.Groups, p.groups...)
			f.Construction = append(f.Construction, p.construction...)
			f.SprinklerStmts = append(f.SprinklerStmts, p.sprinklers...)
		}
	}
	if len(f.SprinklerStmts) == 0 && len(captions) > 0 {
		f.SprinklerStmts = captions[:1]
	}
	for _, s := range f.SprinklerStmts {
		if s.Group == SprinklerUnknown {
			continue
		}
		g := strings.Join(strings.Fields(s.Group), " ")
		negative := strings.HasPrefix(g, "NON") || strings.HasPrefix(g, "NOT") ||
			strings.HasSuffix(g, " NO") || strings.HasSuffix(g, ":NO") || strings.HasSuffix(g, " N") || strings.HasSuffix(g, "=NO")
		if !negative {
			f.Sprinklered = true
		}
	}
	f.Occupancy = classifyOccupancy(f)
	return f
}

// matches reports whether re matches line li of s, using the line's scan.
func (r *sheetCodeLines) matches(s *Sheet, re *textmatch.Regexp, li int) bool {
	text := s.Lines[li].Text
	return re.PossibleIn(r.possible) && re.MayMatch(text, r.present[li]) && re.Regexp().MatchString(text)
}

// readCodeLines reads the statements of every readable sheet's lines.
func readCodeLines(sheets []*Sheet) *codeReading {
	out := &codeReading{sheets: make(map[*Sheet]*sheetCodeLines, len(sheets))}
	// A set prints its title block and general notes on many sheets: an
	// expression's matches in a line's text are found once per text (the
	// statements themselves are made per sheet; the matches are only read).
	type matchKey struct {
		re   *textmatch.Regexp
		text string
	}
	// The sheets are read on every core; two may find one text's matches
	// at once, alike.
	var mu sync.Mutex
	matched := map[matchKey][][]int{}
	read := make([]*sheetCodeLines, len(sheets))
	perpage.Each(len(sheets), func(si int) {
		s := sheets[si]
		r := &sheetCodeLines{}
		read[si] = r
		if !s.Readable {
			return
		}
		r.present, r.possible = s.LineScan()
		findAll := func(re *textmatch.Regexp, li int) [][]int {
			text := s.Lines[li].Text
			if !re.PossibleIn(r.possible) || !re.MayMatch(text, r.present[li]) {
				return nil // the prefilter of r.matches
			}
			k := matchKey{re, text}
			mu.Lock()
			m, ok := matched[k]
			mu.Unlock()
			if ok {
				return m
			}
			m = re.Regexp().FindAllStringSubmatchIndex(text, -1)
			mu.Lock()
			matched[k] = m
			mu.Unlock()
			return m
		}
		for li, l := range s.Lines {
			find := func(re *textmatch.Regexp, dst *[]Statement, parse func(m []int) (Statement, bool)) {
				for _, m := range findAll(re, li) {
					h, ok := parse(m)
					if !ok {
						continue
					}
					h.Sheet, h.Line, h.Text = s, li, l.Text[m[0]:m[1]]
					h.Words = l.WordsInSpan(m[0], m[1])
					*dst = append(*dst, h)
				}
			}
			group := func(m []int) (Statement, bool) {
				return Statement{Group: strings.ToUpper(l.Text[m[2]:m[3]])}, true
			}
			number := func(m []int) (Statement, bool) {
				v, err := strconv.ParseFloat(l.Text[m[2]:m[3]], 64)
				return Statement{Value: v}, err == nil
			}
			length := func(m []int) (Statement, bool) {
				v, err := units.ParseLength(l.Text[m[2]:m[3]])
				return Statement{Value: v}, err == nil
			}
			find(occupancyGroupRe, &r.groups, group)
			// The forms are tried in order; a match overlapping an earlier
			// one is the same statement read another way ("2018 IBC, 2021
			// IFC" must not also yield "IBC, 2021").
			var taken [][2]int
			for _, re := range codeStatementRes {
				for _, m := range findAll(re, li) {
					if overlapsAny(taken, m[0], m[1]) {
						continue
					}
					// "IBC 1905.1", "IBC 2003.2" are sections, not editions.
					if ei := re.SubexpIndex("ed"); ei >= 0 && m[2*ei+1] >= 0 {
						end := m[2*ei+1]
						if end+1 < len(l.Text) && l.Text[end] == '.' && l.Text[end+1] >= '0' && l.Text[end+1] <= '9' {
							continue
						}
					}
					sub := func(name string) string {
						i := re.SubexpIndex(name)
						if i < 0 || m[2*i] < 0 {
							return ""
						}
						return strings.ToUpper(strings.Join(strings.Fields(l.Text[m[2*i]:m[2*i+1]]), " "))
					}
					family := sub("fam")
					if code, _, ok := adoptions().Printed(family); ok && code != "" {
						family = code // "2018 VCC", an abbreviation of the table's
					}
					if name := sub("name"); name != "" {
						family = codeFamilyByName[name]
					}
					if tname := sub("tname"); tname != "" {
						// A name of a state's codes as a whole names no
						// one code to judge: it states an edition and
						// places the project (stateNames).
						code, _, _ := adoptions().Printed(tname)
						if code == "" {
							r.stateEditions = append(r.stateEditions, Statement{Sheet: s, Line: li, Text: l.Text[m[0]:m[1]], Extra: sub("ed")})
							continue
						}
						family = code
					}
					if other := sub("other"); other != "" {
						family = other
						if abbr := sub("abbr"); abbr != "" {
							family = abbr
						}
					}
					taken = append(taken, [2]int{m[0], m[1]})
					r.codes = append(r.codes, Statement{Sheet: s, Line: li, Text: l.Text[m[0]:m[1]],
						Words: l.WordsInSpan(m[0], m[1]), Group: family, Extra: sub("ed")})
				}
			}
			find(tableNameRe, &r.stateNames, func(m []int) (Statement, bool) {
				code, jurisdiction, ok := adoptions().Printed(l.Text[m[0]:m[1]])
				return Statement{Group: code, Extra: jurisdiction}, ok
			})
			find(constructionRe, &r.construction, func(m []int) (Statement, bool) { return Statement{}, true })
			find(sprinklerRe, &r.sprinklers, func(m []int) (Statement, bool) {
				// A caption standing alone ("SPRINKLERED", "FIRE
				// SPRINKLER SYSTEM:") says neither yes nor no: its value is
				// read from the pair (codefacts_pairs.go), and the caption
				// is kept only to show the statement was made.
				if sprinklerCaptionRe.MatchString(l.Text) {
					r.captions = append(r.captions, Statement{Sheet: s, Line: li, Text: l.Text, Words: l.WordsInSpan(m[0], m[1]), Group: SprinklerUnknown})
					return Statement{}, false
				}
				return group(m)
			})
			if r.matches(s, voiceAlarmRe, li) {
				r.voiceAlarm = true
			}
			find(occupantLoadRe, &r.occupantLoads, number)
			find(exitsRe, &r.exits, number)
			find(stairFactorRe, &r.stairFactors, number)
			find(otherFactorRe, &r.otherFactors, number)
			find(stairWidthRe, &r.stairWidths, length)
			find(otherWidthRe, &r.otherWidths, length)
		}
	})
	for si, s := range sheets {
		out.sheets[s] = read[si]
	}
	return out
}

// classifyOccupancy decides which code family's dimensional rules apply.
// Any stated group other than R-3 or U (A, B, E, F, H, I, M, R-1, R-2, R-4,
// S) is an IBC building. Otherwise an R-3 group or an IRC statement makes it
// residential, and an IBC-only statement commercial. Nothing stated: "".
func classifyOccupancy(f CodeFacts) string {
	residentialGroup := false
	for _, g := range f.Groups {
		switch g.Group {
		case "R-3", "U":
			if g.Group == "R-3" {
				residentialGroup = true
			}
		default:
			return OccupancyCommercial
		}
	}
	ibc, irc := false, false
	for _, c := range f.Codes {
		switch c.Group {
		case "IBC":
			ibc = true
		case "IRC":
			irc = true
		}
	}
	switch {
	case residentialGroup || irc:
		return OccupancyResidential
	case ibc:
		return OccupancyCommercial
	}
	return ""
}

func overlapsAny(spans [][2]int, start, end int) bool {
	for _, sp := range spans {
		if start < sp[1] && sp[0] < end {
			return true
		}
	}
	return false
}
