// Package sheets classifies plan sheets: the sheet number and title read from
// the title block, the discipline (sheetType) named by the number's
// designator per the US National CAD Standard, and the sheet index (drawing
// list) printed on a cover or general sheet.
package sheets

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"planreview/scan/pdftext"
	"planreview/textmatch"
)

// Sheet types, as the partner contract names them.
const (
	TypeGeneral            = "general"
	TypeHazardousMaterials = "hazardous_materials"
	TypeSurvey             = "survey"
	TypeGeotechnical       = "geotechnical"
	TypeCivil              = "civil"
	TypeLandscape          = "landscape"
	TypeStructural         = "structural"
	TypeArchitectural      = "architectural"
	TypeInteriors          = "interiors"
	TypeEquipment          = "equipment"
	TypeFireProtection     = "fire_protection"
	TypePlumbing           = "plumbing"
	TypeProcess            = "process"
	TypeMechanical         = "mechanical"
	TypeElectrical         = "electrical"
	TypeDistributedEnergy  = "distributed_energy"
	TypeTelecommunications = "telecommunications"
	TypeResource           = "resource"
	TypeOther              = "other"
	TypeContractor         = "contractor"
	TypeOperations         = "operations"
	TypeUnknown            = "unknown"
)

// disciplines maps the NCS discipline designator (first letter) to a sheet type.
var disciplines = map[byte]string{
	'G': TypeGeneral, 'H': TypeHazardousMaterials, 'V': TypeSurvey,
	'B': TypeGeotechnical, 'C': TypeCivil, 'L': TypeLandscape,
	'S': TypeStructural, 'A': TypeArchitectural, 'I': TypeInteriors,
	'Q': TypeEquipment, 'F': TypeFireProtection, 'P': TypePlumbing,
	'D': TypeProcess, 'M': TypeMechanical, 'E': TypeElectrical,
	'W': TypeDistributedEnergy, 'T': TypeTelecommunications, 'R': TypeResource,
	'X': TypeOther, 'Z': TypeContractor, 'O': TypeOperations,
}

// Types lists every sheetType value of the contract, unknown last.
func Types() []string {
	return []string{TypeGeneral, TypeHazardousMaterials, TypeSurvey, TypeGeotechnical,
		TypeCivil, TypeLandscape, TypeStructural, TypeArchitectural, TypeInteriors,
		TypeEquipment, TypeFireProtection, TypePlumbing, TypeProcess, TypeMechanical,
		TypeElectrical, TypeDistributedEnergy, TypeTelecommunications, TypeResource,
		TypeOther, TypeContractor, TypeOperations, TypeUnknown}
}

// sheetNumberRe accepts NCS-style numbers: a one- or two-letter designator
// (discipline letter plus optional modifier), an optional separator, then the
// sheet type digit and sequence: A-101, A101, A1.1, A-1.01, S-201, FP-1,
// G-001, M2.01, A-101A.
var sheetNumberRe = textmatch.MustCompile(`^([A-Z]{1,2})[-. ]?(\d{1,3}(?:\.\d{1,3})?)([A-Z])?$`)

// Number is a parsed sheet number.
type Number struct {
	Text       string // as printed, trimmed of punctuation
	Key        string // comparison key: upper case, hyphens and spaces removed
	Designator string // discipline designator, e.g. "A", "FP"
	Type       string // sheetType named by the designator
	// Strong is true for the usual three-digit or dotted forms (A-101, A1.1),
	// which are far less likely to be something else than A-2 (an occupancy
	// group, a grid line) is.
	Strong bool
}

// ParseNumber parses s as a sheet number. Trailing punctuation (commas,
// colons, closing parentheses) is ignored.
func ParseNumber(s string) (Number, bool) {
	// Cheap rejection first: this runs on every word of every page.
	if len(s) < 2 || len(s) > 14 || !hasASCIIDigit(s) {
		return Number{}, false
	}
	if c := s[0] | 0x20; c < 'a' || c > 'z' {
		if s[0] != '(' && s[0] != '[' {
			return Number{}, false
		}
	}
	t := strings.ToUpper(strings.Trim(s, " ,;:()[]"))
	m := sheetNumberRe.FindStringSubmatch(t)
	if m == nil {
		return Number{}, false
	}
	typ, ok := disciplines[m[1][0]]
	if !ok {
		return Number{}, false
	}
	digits := strings.ReplaceAll(m[2], ".", "")
	return Number{
		Text:       t,
		Key:        NumberKey(t),
		Designator: m[1],
		Type:       typ,
		Strong:     len(digits) >= 3 || strings.Contains(m[2], "."),
	}, true
}

// NumberKey is the comparison key of a sheet number: "A-101", "A101" and
// "a 101" are the same sheet.
func NumberKey(s string) string {
	return keyReplacer.Replace(strings.ToUpper(strings.TrimSpace(s)))
}

var keyReplacer = strings.NewReplacer("-", "", " ", "", "_", "")

// TypeOf returns the sheetType named by a sheet number's designator, or
// unknown when the number is not an NCS sheet number.
func TypeOf(number string) string {
	n, ok := ParseNumber(number)
	if !ok {
		return TypeUnknown
	}
	return n.Type
}

// Sheet is what classification found on one page.
type Sheet struct {
	Number string // as printed; empty when no sheet number was found
	Key    string // NumberKey(Number)
	Title  string
	Type   string // sheetType; unknown without a number
	Date   string // a date found on the sheet (title block or elsewhere)
	Scale  string // the scale statement, e.g. `1/4" = 1'-0"`, `AS NOTED`
	// Word indexes of the evidence, for anchors.
	NumberWords []int
	TitleWords  []int
	DateWords   []int
	ScaleWords  []int
}

// FromModel is a page's classification as its file's set model read it:
// the number the set's numbering scheme chose (short and non-NCS numbers
// included), the discipline its designator names (unknown for a number
// that is not an NCS one), the title-block title, and the date and scale
// statements of the page's lines (Lines(p)), with the model's scale where
// no line states one. Where the model read no number, the page is read
// alone (an NCS number by size, title-block position and caption, and the
// title next to it), as a page unlike the set's others can be; its title
// is then that reading's, possibly empty, since the model's was chosen
// knowing no number. The engine and the scan classify pages this way.
func FromModel(p *pdftext.Page, m *PageModel, lines []Line) Sheet {
	s := Sheet{Type: TypeUnknown}
	if m.SheetNumber != "" {
		s.Number, s.Key, s.Type = m.SheetNumber, NumberKey(m.SheetNumber), TypeOf(m.SheetNumber)
		s.NumberWords = m.NumberWords
		s.Title, s.TitleWords = m.SheetTitle, m.TitleWords
	} else if i, ok := bestNumber(p, lines); ok && len(p.Words) > 0 {
		n, _ := ParseNumber(WordText(p.Words[i]))
		s.Number, s.Key, s.Type = n.Text, n.Key, n.Type
		s.NumberWords = []int{i}
		s.Title, s.TitleWords = findTitle(p, lines, i)
	} else {
		s.Title, s.TitleWords = m.SheetTitle, m.TitleWords
	}
	s.Date, s.DateWords = findDate(lines)
	s.Scale, s.ScaleWords = findScale(lines)
	if s.Scale == "" {
		s.Scale, s.ScaleWords = m.Scale, m.ScaleWords
	}
	return s
}

// numberCaptions are title-block caption words; a sheet number right after
// one of them (or below a "SHEET" line) is almost certainly the sheet's own.
var numberCaptions = map[string]bool{"SHEET": true, "SHEET:": true, "NO.": true, "NO": true,
	"NUMBER": true, "NUMBER:": true, "DWG": true, "DWG.": true, "DRAWING": true, "NO:": true}

// contextPenalty lists words that, right before a candidate, show it is not a
// sheet number: "GROUP R-3", "TYPE V-B", "ZONE C-2", "SEE A-501".
var contextPenalty = map[string]bool{"GROUP": true, "GROUP:": true, "TYPE": true, "TYPE:": true,
	"OCCUPANCY": true, "OCCUPANCY:": true, "CLASS": true, "ZONE": true, "ZONING": true,
	"ZONING:": true, "SEE": true, "REF": true, "REF.": true, "PER": true, "CLASSIFICATION:": true,
	// Standards bodies: "ANSI Z765", "ASTM E119", "UL U419" are standards.
	"ANSI": true, "ASTM": true, "UL": true, "NFPA": true, "ASCE": true, "ACI": true, "AWS": true, "ICC": true}

// bestNumber scores every word that parses as a sheet number and returns the
// most likely title-block number: large text, in the title-block zone (right
// strip or bottom strip), standing alone, near a "SHEET" caption, not part of
// an index column and not preceded by words like GROUP or SEE.
func bestNumber(p *pdftext.Page, lines []Line) (int, bool) {
	pw, ph := pageScale(p)
	maxH := 0.0
	for i := range p.Words {
		maxH = max(maxH, WordBox(p, i).Height())
	}
	if maxH <= 0 {
		return 0, false
	}
	// By word: its line (-1 when the extractor's lines left it out) and its
	// position in that line.
	lineOf := make([]int32, len(p.Words))
	posInLine := make([]int32, len(p.Words))
	for i := range lineOf {
		lineOf[i] = -1
	}
	for li, l := range lines {
		for k, w := range l.Words {
			lineOf[w] = int32(li)
			posInLine[w] = int32(k)
		}
	}
	type cand struct {
		word  int
		score float64
	}
	var cands []cand
	var all []int
	for i, w := range p.Words {
		if _, ok := ParseNumber(WordText(w)); ok {
			all = append(all, i)
		}
	}
	columns := columnMembers(p, all)
	captions := captionLines(lines)
	for _, i := range all {
		n, _ := ParseNumber(WordText(p.Words[i]))
		b := WordBox(p, i)
		score := 2 * b.Height() / maxH
		cx, cy := b.CenterX()/pw, b.CenterY()/ph
		if cx > 0.75 || cy > 0.85 {
			score += 1
		}
		if cx > 0.8 && cy > 0.8 {
			score += 0.5
		}
		if n.Strong {
			score += 0.5
		}
		li := int(lineOf[i]) // -1: the extractor's lines left this word out; read it alone
		if li < 0 || len(lines[li].Words) == 1 {
			score += 0.3
		}
		if k := posInLine[i]; li >= 0 && k > 0 {
			l := lines[li]
			prev := strings.ToUpper(WordText(p.Words[l.Words[k-1]]))
			if contextPenalty[prev] {
				score -= 3
			}
			if numberCaptions[prev] {
				score += 1
			}
		}
		caption := captionAbove(captions, b)
		if caption {
			score += 1
		}
		// Title blocks run along the right or bottom edge; a number
		// elsewhere without a "SHEET" caption is a reference or a label.
		if !caption && cx < 0.6 && cy < 0.75 {
			continue
		}
		// Short forms (FP-1, M2, I-5) are also room tags, units and road
		// names; they count only under a "SHEET" caption.
		if !n.Strong && !caption && (li < 0 || !captionBefore(p, lines, li, int(posInLine[i]))) {
			continue
		}
		if columns[i] {
			score -= 1.5
		}
		cands = append(cands, cand{i, score})
	}
	if len(cands) == 0 {
		return 0, false
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
	// A candidate needs either size or position on its side; a small number
	// in the middle of a note is a reference, not the sheet's number.
	if cands[0].score < 2 {
		return 0, false
	}
	return cands[0].word, true
}

// captionBefore reports whether the word at position k of line li follows
// a sheet-number caption on its line ("SHEET NO. FP-1").
func captionBefore(p *pdftext.Page, lines []Line, li, k int) bool {
	if k == 0 {
		return false
	}
	prev := strings.ToUpper(WordText(p.Words[lines[li].Words[k-1]]))
	return numberCaptions[prev]
}

// captionLines returns the boxes of the page's sheet-number captions:
// lines starting "SHEET", "DWG" or "DRAWING NO", but not "SHEET INDEX" and
// the like.
func captionLines(lines []Line) []Box {
	var out []Box
	for _, l := range lines {
		t := l.Text
		if !hasPrefixFold(t, "SHEET") && !hasPrefixFold(t, "DWG") && !hasPrefixFold(t, "DRAWING NO") {
			continue
		}
		if hasPrefixFold(t, "SHEET INDEX") || hasPrefixFold(t, "SHEET TITLE") || hasPrefixFold(t, "SHEET LIST") {
			continue
		}
		out = append(out, l.Box)
	}
	return out
}

// hasPrefixFold is strings.HasPrefix(strings.ToUpper(s), upper) without
// upper-casing every line of the page.
func hasPrefixFold(s, upper string) bool {
	return len(s) >= len(upper) && strings.EqualFold(s[:len(upper)], upper)
}

// captionAbove reports whether one of the captions sits just above or left of b.
func captionAbove(captions []Box, b Box) bool {
	for _, lb := range captions {
		above := lb.Y1 <= b.Y0+1 && b.Y0-lb.Y1 < 3*b.Height() && lb.X0 < b.X1 && lb.X1 > b.X0-b.Width()
		left := abs(lb.CenterY()-b.CenterY()) < b.Height() && lb.X1 <= b.X0+1 && b.X0-lb.X1 < 4*lb.Height()
		if above || left {
			return true
		}
	}
	return false
}

// columnMembers marks sheet-number words that are stacked in a column with at
// least two others at the same left edge: a drawing list, not a title block.
func columnMembers(p *pdftext.Page, words []int) map[int]bool {
	pw, _ := pageScale(p)
	out := map[int]bool{}
	for _, i := range words {
		bi := WordBox(p, i)
		n := 0
		for _, j := range words {
			if j == i {
				continue
			}
			bj := WordBox(p, j)
			if abs(bj.X0-bi.X0) < 0.005*pw && abs(bj.Height()-bi.Height()) < 0.25*bi.Height() {
				n++
			}
		}
		if n >= 2 {
			out[i] = true
		}
	}
	return out
}

var titleCaptionRe = textmatch.MustCompile(`^(?:SHEET|DRAWING|DWG\.?)\s+TITLE:?$|^TITLE:?$`)

// nonTitleRe rejects title-block lines that are fields rather than the title.
var nonTitleRe = textmatch.MustCompile(`(?i)^(?:SHEET|SHEET NO\.?|SHEET NUMBER|DATE|SCALE|DRAWN|CHECKED|PROJECT|JOB|REV|REVISION|ISSUE|NO\.?)\b|\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|SCALE:`)

// findTitle looks for the sheet title: the text after a "SHEET TITLE"
// caption near the number, else the largest-font line just above the number
// in the same title-block column.
func findTitle(p *pdftext.Page, lines []Line, number int) (string, []int) {
	nb := WordBox(p, number)
	pw, _ := pageScale(p)
	// 1. A caption line followed by the title on the next line below it.
	for li, l := range lines {
		if !titleCaptionRe.MatchString(strings.ToUpper(strings.TrimSpace(l.Text))) {
			continue
		}
		if abs(l.Box.CenterX()-nb.CenterX()) > 0.15*pw {
			continue
		}
		var best = -1
		for lj, m := range lines {
			if lj == li || m.Box.Y0 < l.Box.Y1-1 || m.Box.Y0-l.Box.Y1 > 3*l.Box.Height() {
				continue
			}
			if m.Box.X1 < l.Box.X0-0.05*pw || m.Box.X0 > l.Box.X1+0.1*pw {
				continue
			}
			if best < 0 || m.Box.Y0 < lines[best].Box.Y0 {
				best = lj
			}
		}
		if best >= 0 && !nonTitleRe.MatchString(lines[best].Text) && hasTitleWord(lines[best].Text) {
			return strings.TrimSpace(lines[best].Text), lines[best].Words
		}
	}
	// 2. The largest line above the number within a few number heights.
	best, bestH := -1, 0.0
	for li, l := range lines {
		if l.Box.Y1 > nb.Y0+1 || nb.Y0-l.Box.Y1 > 6*nb.Height() {
			continue
		}
		if l.Box.X1 < nb.X0-0.1*pw || l.Box.X0 > nb.X1+0.05*pw {
			continue
		}
		if nonTitleRe.MatchString(l.Text) || titleCaptionRe.MatchString(strings.ToUpper(l.Text)) {
			continue
		}
		// A title has words; a lone "3" is a detail or revision mark.
		if !hasTitleWord(l.Text) {
			continue
		}
		if _, isNum := ParseNumber(l.Text); isNum {
			continue
		}
		if h := l.Box.Height(); h > bestH {
			best, bestH = li, h
		}
	}
	if best < 0 {
		return "", nil
	}
	return strings.TrimSpace(lines[best].Text), lines[best].Words
}

// dateRe accepts the dates title blocks carry: 03/02/2026, 3-2-26, 2026-03-02,
// 2026.03.02, 2026/03/02, MAR 2, 2026, 2 MARCH 2026, APRIL 2024.
var dateRe = textmatch.MustCompile(`(?i)\b(?:\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|` + monthPattern + `\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}\s+` + monthPattern + `\.?,?\s+\d{4}|` + monthPattern + `\.?,?\s+\d{4})\b`)

const monthPattern = `(?:JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|SEP(?:T(?:EMBER)?)?|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)`

// scaleRe spells out the N.T.S. forms so that every branch has a literal
// of two or more letters for the textmatch prefilter.
var scaleRe = textmatch.MustCompile(`(?i)\bSCALE\s*(?::\s*)?([^:\s].*)$|\b\d+(?:/\d+)?"\s*=\s*1'\s*-?\s*0"|\bAS\s+NOTED\b|\b(?:NTS|N\.TS|NT\.S|N\.T\.S)\b\.?|\bNOT\s+TO\s+SCALE\b|\bNO\s+SCALE\b`)

// findDate returns the first date on the page. dateRe has no literal every
// match contains, so lines are first checked with mayHoldDate: the page's
// other few hundred lines never reach the regexp engine.
func findDate(lines []Line) (string, []int) {
	for _, l := range lines {
		if !mayHoldDate(l.Text) {
			continue
		}
		if loc := dateRe.FindStringIndex(l.Text); loc != nil {
			return l.Text[loc[0]:loc[1]], l.WordsInSpan(loc[0], loc[1])
		}
	}
	return "", nil
}

// monthRe matches the month names that every non-numeric form of dateRe
// contains.
var monthRe = textmatch.MustCompile(`(?i)` + monthPattern)

// mayHoldDate is a fast necessary condition for dateRe: its numeric forms
// all have a digit, a separator, one or two digits, a separator and a
// digit ("3/2/26", "2026-03-02"; a fraction such as "3/4" has one
// separator); its other forms name a month and end in a year of four
// digits.
func mayHoldDate(s string) bool {
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if !isASCIIDigit(s[i]) {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
		if i+2 < len(s) && isDateSep(s[i+1]) && isASCIIDigit(s[i+2]) {
			j := i + 3
			if j < len(s) && isASCIIDigit(s[j]) {
				j++
			}
			if j+1 < len(s) && isDateSep(s[j]) && isASCIIDigit(s[j+1]) {
				return true
			}
		}
	}
	return longest >= 4 && monthRe.MatchString(s)
}

func isDateSep(c byte) bool { return c == '/' || c == '.' || c == '-' }

func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }

// findScale returns the first scale statement; a bare "SCALE:" caption with
// nothing after it does not count.
func findScale(lines []Line) (string, []int) {
	for _, l := range lines {
		if !mayHoldScale(l.Text) {
			continue
		}
		for _, loc := range scaleRe.FindAllStringSubmatchIndex(l.Text, -1) {
			text := l.Text[loc[0]:loc[1]]
			if loc[2] >= 0 {
				rest := strings.TrimSpace(l.Text[loc[2]:loc[3]])
				if rest == "" {
					continue
				}
				text = rest
			}
			return text, l.WordsInSpan(loc[0], loc[1])
		}
	}
	return "", nil
}

// hasTitleWord: two letters in a row (`\pL{2,}`), looked for rune by
// rune: the expression has no literal to prefilter on, and every phrase
// of every sheet is asked.
func hasTitleWord(s string) bool {
	prev := false
	for _, r := range s {
		l := r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') || r >= utf8.RuneSelf && unicode.IsLetter(r)
		if l && prev {
			return true
		}
		prev = l
	}
	return false
}
