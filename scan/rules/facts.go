package rules

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"planreview/scan/codebasis/adoption"
	"planreview/scan/units"
	"planreview/textmatch"
)

// hit is one statement found on a page: where it is and what it says.
type hit struct {
	pv    *pageView
	line  int
	words []int
	text  string
	value float64
	group string // a captured name: occupancy group, code family
	extra string // a second capture: code edition
}

// setFacts are the project statements the checks and applicability read,
// usually from the code analysis block.
type setFacts struct {
	occupancy      string // OccupancyResidential, OccupancyCommercial, or "" when not stated
	groups         []hit  // occupancy groups stated
	codes          []hit  // code statements: group = code family (IBC), extra = edition
	stateNames     []hit  // the adoption table's names: group = its code ("" for a state's codes as a whole), extra = its division
	stateEditions  []hit  // a state's codes named as a whole with an edition ("2018 NORTH CAROLINA STATE BUILDING CODE"): an edition stated, of no one code; extra = edition
	construction   []hit
	sprinklerStmts []hit
	sprinklered    bool
	voiceAlarm     bool
	occupantLoads  []hit
	exits          []hit
	stairFactors   []hit
	otherFactors   []hit
	stairWidths    []hit // egress width provided by stairs, inches
	otherWidths    []hit // egress width provided by other components, inches
}

var (
	occupancyGroupRe = lineSet.MustCompile(`(?i)\b(?:OCCUPANCY(?:\s+(?:GROUP|CLASSIFICATION|CLASS|TYPE))?|USE\s+GROUP)\s*[:=\-]?\s*(?:GROUP\s+)?(A-[1-5]|B|E|F-[12]|H-[1-5]|I-[1-4]|M|R-[1-4]|S-[12]|U)\b`)
	// Code statements: "2021 IBC", "IBC 2021", "2021 INTERNATIONAL BUILDING
	// CODE", "2011 NEC", "5th Edition (2014) FBC", "NFPA 13 (2019)".
	codeStatementRes = []*textmatch.Regexp{
		// State and city codes by the names the adoption table gives
		// them: "2022 CALIFORNIA BUILDING CODE", "FLORIDA BUILDING CODE -
		// RESIDENTIAL, 8TH EDITION (2023)", "2021 VIRGINIA CONSTRUCTION
		// CODE".
		lineSet.MustCompileFunc(func() string {
			return `(?i)\b(?P<ed>20\d\d)\s+(?:EDITION\s+(?:OF\s+)?(?:THE\s+)?)?(?P<tname>` + tableNames() + `)\b`
		}),
		lineSet.MustCompileFunc(func() string {
			return `(?i)\b(?P<tname>` + tableNames() + `)\b[\s,\-–]*(?:\(?\d{1,2}(?:ST|ND|RD|TH)\s+EDITION\)?\s*)?\(?(?P<ed>20\d\d)\b`
		}),
		lineSet.MustCompile(`(?i)\b(?P<ed>20\d\d)\s+(?:EDITION\s+(?:OF\s+)?(?:THE\s+)?)?INTERNATIONAL\s+(?P<name>BUILDING|RESIDENTIAL|FIRE|MECHANICAL|PLUMBING|ENERGY\s+CONSERVATION|EXISTING\s+BUILDING|FUEL\s+GAS)\s+CODE`),
		// "INTERNATIONAL RESIDENTIAL CODE, 2021 EDITION", "INTERNATIONAL
		// BUILDING CODE (2021)".
		lineSet.MustCompile(`(?i)\bINTERNATIONAL\s+(?P<name>BUILDING|RESIDENTIAL|FIRE|MECHANICAL|PLUMBING|ENERGY\s+CONSERVATION|EXISTING\s+BUILDING|FUEL\s+GAS)\s+CODE\s*[,\-–]?\s*\(?(?P<ed>20\d\d)\b`),
		// Another state's code by name: "2021 OREGON RESIDENTIAL SPECIALTY
		// CODE (ORSC)". The appliance holds no adoption of it; it is a
		// code stated with its edition, named in the scope's "codes not
		// applied".
		lineSet.MustCompile(`(?i)\b(?P<ed>20\d\d)\s+(?P<other>(?:` + otherStateNames + `)\s+(?:RESIDENTIAL|BUILDING|STRUCTURAL)(?:\s+SPECIALTY)?\s+CODE)(?:\s*\((?P<abbr>[A-Z]{2,6})\))?`),
		// "INDIANA BUILDING CODE, 2014 EDITION", "OHIO BUILDING CODE (2017)".
		lineSet.MustCompile(`(?i)\b(?P<other>(?:` + otherStateNames + `)\s+(?:RESIDENTIAL|BUILDING|STRUCTURAL)(?:\s+SPECIALTY)?\s+CODE)(?:\s*\((?P<abbr>[A-Z]{2,6})\))?[\s,\-–]*(?:\(?\d{1,2}(?:ST|ND|RD|TH)\s+EDITION\)?\s*)?\(?(?P<ed>20\d\d)\b`),
		lineSet.MustCompileFunc(func() string { return `(?i)\b(?P<ed>20\d\d)\s+(?P<fam>` + codeFamilies() + `)\b` }),
		lineSet.MustCompileFunc(func() string { return `(?i)\((?P<ed>20\d\d)\)\s+(?P<fam>` + codeFamilies() + `)\b` }),
		lineSet.MustCompileFunc(func() string { return `(?i)\b(?P<fam>` + codeFamilies() + `)\s*[-,]?\s*\(?(?P<ed>20\d\d)\b` }),
	}
	constructionRe = lineSet.MustCompile(`(?i)\b(?:CONSTRUCTION\s+TYPE|TYPE\s+OF\s+CONSTRUCTION|CONST\.?\s+TYPE)\s*[:=\-]?\s*(?:TYPE\s+)?(IV-HT|IV-A|IV-B|IV-C|I{1,3}-?[AB]?|IV|V-?[AB]?)\b|\bTYPE\s+(I{1,3}-[AB]|IV-(?:HT|[ABC])|V-[AB])\b|\bTYPE\s+(I{1,3}[AB]|IV(?:HT|[ABC])|V[AB])\s+CONSTRUCTION\b`)
	sprinklerRe    = lineSet.MustCompile(`(?i)\b(NON-?\s*SPRINKLERED|NOT\s+SPRINKLERED|SPRINKLERED\s*[:=\-]?\s*(?:YES|NO|Y|N)\b|FULLY\s+SPRINKLERED|SPRINKLERED|AUTOMATIC\s+SPRINKLER(?:\s+SYSTEM)?|FIRE\s+SPRINKLER(?:\s+SYSTEM)?|NFPA\s*13[DR]?)`)
	// sprinklerCaptionRe is a line that is only a sprinkler caption.
	sprinklerCaptionRe = textmatch.MustCompile(`(?i)^\s*(?:AUTOMATIC\s+|FIRE\s+)?SPRINKLER(?:S|ED)?(?:\s+SYSTEMS?)?\s*[:=\-]?\s*$`)
	voiceAlarmRe       = lineSet.MustCompile(`(?i)\bEMERGENCY\s+VOICE|\bVOICE\s*/\s*ALARM|\bEVACS\b`)
	occupantLoadRe     = lineSet.MustCompile(`(?i)\b(?:TOTAL\s+|BUILDING\s+|STORY\s+|FLOOR\s+)?OCC(?:UPANT|\.)?\s*LOAD\s*[:=\-]?\s*(\d{1,5})\b`)
	exitsRe            = lineSet.MustCompile(`(?i)\b(?:(?:NUMBER\s+OF\s+|NO\.\s+OF\s+)EXITS(?:\s+PROVIDED)?|EXITS\s+PROVIDED)\s*[:=\-]?\s*(\d{1,2})\b`)
	stairFactorRe      = lineSet.MustCompile(`(?i)\bSTAIR(?:S|WAYS?)?\b[^0-9]{0,40}?(\d*\.\d+)\s*(?:"|IN\.?|INCH(?:ES)?)\s*(?:/|PER)\s*(?:OCC(?:UPANT)?\.?|PERSON)`)
	otherFactorRe      = lineSet.MustCompile(`(?i)\b(?:OTHER(?:\s+(?:EGRESS\s+)?COMPONENTS?)?|LEVEL(?:\s+COMPONENTS?)?|DOORS?|CORRIDORS?)\b[^0-9]{0,40}?(\d*\.\d+)\s*(?:"|IN\.?|INCH(?:ES)?)\s*(?:/|PER)\s*(?:OCC(?:UPANT)?\.?|PERSON)`)
	stairWidthRe       = lineSet.MustCompile(`(?i)\b(?:TOTAL\s+)?STAIR(?:WAY)?S?\s+(?:EGRESS\s+)?WIDTH\s+PROVIDED\s*[:=\-]?\s*(` + units.LengthPattern + `)`)
	otherWidthRe       = lineSet.MustCompile(`(?i)\b(?:TOTAL\s+)?(?:DOOR|EXIT|CORRIDOR|LEVEL)S?\s+(?:EGRESS\s+)?WIDTH\s+PROVIDED\s*[:=\-]?\s*(` + units.LengthPattern + `)`)
)

// sprinklerUnknown is the group of a sprinkler caption whose value was not
// read: stated, but neither sprinklered nor not.
const sprinklerUnknown = "UNKNOWN"

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
// for them. The rules read a code a sheet states by those names; nil when
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
var tableNameRe = lineSet.MustCompileFunc(func() string { return `(?i)\b(?:` + tableNames() + `)\b` })

// otherStateNames are the states whose codes are read by name without an
// adoption in the table: the statement still counts as a code and edition
// stated.
const otherStateNames = `ALABAMA|ALASKA|ARIZONA|ARKANSAS|COLORADO|CONNECTICUT|DELAWARE|GEORGIA|HAWAII|IDAHO|ILLINOIS|INDIANA|IOWA|KANSAS|KENTUCKY|LOUISIANA|MAINE|MARYLAND|MASSACHUSETTS|MICHIGAN|MINNESOTA|MISSISSIPPI|MISSOURI|MONTANA|NEBRASKA|NEVADA|NEW\s+HAMPSHIRE|NEW\s+JERSEY|NEW\s+MEXICO|NEW\s+YORK(?:\s+STATE)?|NORTH\s+CAROLINA|NORTH\s+DAKOTA|OHIO|OKLAHOMA|OREGON|PENNSYLVANIA|RHODE\s+ISLAND|SOUTH\s+CAROLINA|SOUTH\s+DAKOTA|TENNESSEE|TEXAS|UTAH|VERMONT|VIRGINIA|WASHINGTON|WEST\s+VIRGINIA|WISCONSIN|WYOMING`

var codeFamilyByName = map[string]string{
	"BUILDING": "IBC", "RESIDENTIAL": "IRC", "FIRE": "IFC", "MECHANICAL": "IMC",
	"PLUMBING": "IPC", "ENERGY CONSERVATION": "IECC", "EXISTING BUILDING": "IEBC", "FUEL GAS": "IFGC",
}

// gatherFacts reads the project statements of every readable page.
func gatherFacts(pages []*pageView) setFacts {
	var f setFacts
	var captions []hit // sprinkler captions standing alone
	// A set prints its title block and general notes on many sheets: an
	// expression's matches in a line's text are found once per text (the
	// hits themselves are made per page; the matches are only read).
	type matchKey struct {
		re   *textmatch.Regexp
		text string
	}
	matched := map[matchKey][][]int{}
	for _, pv := range pages {
		if !pv.Readable {
			continue
		}
		findAll := func(re *textmatch.Regexp, li int) [][]int {
			text := pv.Lines[li].Text
			if !re.PossibleIn(pv.possible) || !re.MayMatch(text, pv.present[li]) {
				return nil // pv.findAll's prefilter
			}
			k := matchKey{re, text}
			if m, ok := matched[k]; ok {
				return m
			}
			m := re.Regexp().FindAllStringSubmatchIndex(text, -1)
			matched[k] = m
			return m
		}
		for li, l := range pv.Lines {
			find := func(re *textmatch.Regexp, dst *[]hit, parse func(m []int) (hit, bool)) {
				for _, m := range findAll(re, li) {
					h, ok := parse(m)
					if !ok {
						continue
					}
					h.pv, h.line, h.text = pv, li, l.Text[m[0]:m[1]]
					h.words = l.WordsInSpan(m[0], m[1])
					*dst = append(*dst, h)
				}
			}
			group := func(m []int) (hit, bool) {
				return hit{group: strings.ToUpper(l.Text[m[2]:m[3]])}, true
			}
			number := func(m []int) (hit, bool) {
				v, err := strconv.ParseFloat(l.Text[m[2]:m[3]], 64)
				return hit{value: v}, err == nil
			}
			length := func(m []int) (hit, bool) {
				v, err := units.ParseLength(l.Text[m[2]:m[3]])
				return hit{value: v}, err == nil
			}
			find(occupancyGroupRe, &f.groups, group)
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
							f.stateEditions = append(f.stateEditions, hit{pv: pv, line: li, text: l.Text[m[0]:m[1]], extra: sub("ed")})
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
					f.codes = append(f.codes, hit{pv: pv, line: li, text: l.Text[m[0]:m[1]],
						words: l.WordsInSpan(m[0], m[1]), group: family, extra: sub("ed")})
				}
			}
			find(tableNameRe, &f.stateNames, func(m []int) (hit, bool) {
				code, jurisdiction, ok := adoptions().Printed(l.Text[m[0]:m[1]])
				return hit{group: code, extra: jurisdiction}, ok
			})
			find(constructionRe, &f.construction, func(m []int) (hit, bool) { return hit{}, true })
			find(sprinklerRe, &f.sprinklerStmts, func(m []int) (hit, bool) {
				// A caption standing alone ("SPRINKLERED", "FIRE
				// SPRINKLER SYSTEM:") says neither yes nor no: its value is
				// read from the pair (addPairFacts), and the caption is
				// kept only to show the statement was made.
				if sprinklerCaptionRe.MatchString(l.Text) {
					captions = append(captions, hit{pv: pv, line: li, text: l.Text, words: l.WordsInSpan(m[0], m[1]), group: sprinklerUnknown})
					return hit{}, false
				}
				return group(m)
			})
			if pv.matches(voiceAlarmRe, li) {
				f.voiceAlarm = true
			}
			find(occupantLoadRe, &f.occupantLoads, number)
			find(exitsRe, &f.exits, number)
			find(stairFactorRe, &f.stairFactors, number)
			find(otherFactorRe, &f.otherFactors, number)
			find(stairWidthRe, &f.stairWidths, length)
			find(otherWidthRe, &f.otherWidths, length)
		}
	}
	addPairFacts(pages, &f)
	if len(f.sprinklerStmts) == 0 && len(captions) > 0 {
		f.sprinklerStmts = captions[:1]
	}
	for _, s := range f.sprinklerStmts {
		if s.group == sprinklerUnknown {
			continue
		}
		g := strings.Join(strings.Fields(s.group), " ")
		negative := strings.HasPrefix(g, "NON") || strings.HasPrefix(g, "NOT") ||
			strings.HasSuffix(g, " NO") || strings.HasSuffix(g, ":NO") || strings.HasSuffix(g, " N") || strings.HasSuffix(g, "=NO")
		if !negative {
			f.sprinklered = true
		}
	}
	f.occupancy = classifyOccupancy(f)
	return f
}

// classifyOccupancy decides which code family's dimensional rules apply.
// Any stated group other than R-3 or U (A, B, E, F, H, I, M, R-1, R-2, R-4,
// S) is an IBC building. Otherwise an R-3 group or an IRC statement makes it
// residential, and an IBC-only statement commercial. Nothing stated: "".
func classifyOccupancy(f setFacts) string {
	residentialGroup := false
	for _, g := range f.groups {
		switch g.group {
		case "R-3", "U":
			if g.group == "R-3" {
				residentialGroup = true
			}
		default:
			return OccupancyCommercial
		}
	}
	ibc, irc := false, false
	for _, c := range f.codes {
		switch c.group {
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
