package model

import (
	"strings"

	"planreview/scan/layout"
	"planreview/scan/sheets"
	"planreview/textmatch"
)

// DrawingKind is a kind of drawing a note may point at without naming a
// sheet ("SEE REFLECTED CEILING PLAN", "REFER TO STRUCTURAL DRAWINGS"), and
// how a sheet shows it: titled as that kind, of the discipline that draws
// it, or with a short caption naming it (a view's caption; for details,
// sections and notes, drawn on any sheet, any caption naming them).
type DrawingKind struct {
	Name    string
	mention *textmatch.Regexp
	title   *textmatch.Regexp
	notIf   *textmatch.Regexp // a title matching title and this is another kind
	types   []string
	caption *textmatch.Regexp // a short line that shows the kind (nil: a view caption matching title)
	// heading starts a line of any length that shows the kind: notes
	// whose heading the layout read into their first line.
	heading *textmatch.Regexp
}

// kindVerb is how a note points at a drawing: "SEE", "REFER TO", "AS
// SHOWN ON", "COORDINATE WITH", with "THE", "ALL" or "ARCH." between.
const kindVerb = `(?i)\b(?:SEE|REFER\s+TO|(?:AS\s+)?(?:SHOWN|NOTED|INDICATED|DETAILED)\s+(?:ON|IN)|COORDINATE\s+WITH)\s+(?:(?:THE|ALL|APPLICABLE|RELATED|ARCH(?:ITECTURAL|\.)?)\s+){0,2}`

func kindMention(phrase string) *textmatch.Regexp {
	return refSet.MustCompile(kindVerb + `(?:` + phrase + `)\b`)
}

// pointerRe finds the words a mention starts with (kindVerb's): one cheap
// test per line before every kind's pattern.
var pointerRe = refSet.MustCompile(`(?i)\b(?:SEE|REFER|SHOWN|NOTED|INDICATED|DETAILED|COORDINATE)\b`)

// drawingSet is a discipline's drawings as notes name them.
const drawingSet = `\s+(?:DRAWINGS?|DWGS?\.?|PLANS|SHEETS)`

// disciplineWord is any discipline a note may list with another
// ("MECHANICAL/PLUMBING DRAWINGS", "CIVIL AND LANDSCAPE PLANS").
const disciplineWord = `(?:ARCH(?:ITECTURAL|\.)?|STRUCTURAL|MECHANICAL|ELECTRICAL|PLUMBING|CIVIL|LANDSCAPE|FIRE\s+PROTECTION|FIRE\s+SPRINKLER|SPRINKLER|M\.?E\.?P\.?|HVAC)`

// disciplineDrawings is the mention of a discipline's drawings, alone or
// in a list of disciplines before "DRAWINGS".
func disciplineDrawings(word string) string {
	const sep = `\s*(?:/|,|&|\bAND\b|\bOR\b)\s*`
	return `(?:` + disciplineWord + sep + `){0,3}(?:` + word + `)(?:` + sep + disciplineWord + `){0,3}` + drawingSet
}

// DrawingKinds is every kind of drawing the model reads references to.
var DrawingKinds = []DrawingKind{
	{Name: "reflected ceiling plans", mention: kindMention(`REFLECTED\s+CEILING\s+PLANS?|RCPS?`),
		title: textmatch.MustCompile(`(?i)REFLECTED\s+CEILING|\bR\.?C\.?P\b|CEILING\s+PLAN`)},
	{Name: "interior elevations", mention: kindMention(`INTERIOR\s+ELEVATIONS?`),
		title: textmatch.MustCompile(`(?i)\bELEVATIONS?\b`), notIf: textmatch.MustCompile(`(?i)\b(?:EXTERIOR|BUILDING)\s+ELEVATION`)},
	{Name: "exterior elevations", mention: kindMention(`(?:EXTERIOR|BUILDING)\s+ELEVATIONS?`),
		title: textmatch.MustCompile(`(?i)\bELEVATIONS?\b`), notIf: textmatch.MustCompile(`(?i)\bINTERIOR\s+ELEVATION`)},
	{Name: "structural drawings", mention: kindMention(disciplineDrawings(`STRUCTURAL`) + `|STRUCTURAL\s+(?:DETAILS|SECTIONS)`),
		title: textmatch.MustCompile(`(?i)STRUCTURAL|FOUNDATION|FOOTING|FRAMING`), types: []string{sheets.TypeStructural}},
	{Name: "mechanical drawings", mention: kindMention(disciplineDrawings(`MECHANICAL|HVAC`)),
		title: textmatch.MustCompile(`(?i)MECHANICAL|\bHVAC\b`), types: []string{sheets.TypeMechanical}},
	{Name: "electrical drawings", mention: kindMention(disciplineDrawings(`ELECTRICAL`)),
		title: textmatch.MustCompile(`(?i)ELECTRICAL|LIGHTING|\bPOWER\b`), types: []string{sheets.TypeElectrical}},
	{Name: "plumbing drawings", mention: kindMention(disciplineDrawings(`PLUMBING`)),
		title: textmatch.MustCompile(`(?i)PLUMBING|SANITARY|DOMESTIC\s+WATER`), types: []string{sheets.TypePlumbing}},
	{Name: "fire protection drawings", mention: kindMention(disciplineDrawings(`FIRE\s+PROTECTION|FIRE\s+SPRINKLER|SPRINKLER`)),
		title: textmatch.MustCompile(`(?i)FIRE\s+PROTECTION|SPRINKLER`), types: []string{sheets.TypeFireProtection}},
	{Name: "MEP drawings", mention: kindMention(disciplineDrawings(`M\.?E\.?P\.?`)),
		title: textmatch.MustCompile(`(?i)MECHANICAL|ELECTRICAL|PLUMBING|\bMEP\b|\bHVAC\b`),
		types: []string{sheets.TypeMechanical, sheets.TypeElectrical, sheets.TypePlumbing}},
	{Name: "architectural drawings", mention: kindMention(disciplineDrawings(`ARCH(?:ITECTURAL|\.)?`)),
		title: textmatch.MustCompile(`(?i)ARCHITECTURAL|FLOOR\s+PLAN|ELEVATION`), types: []string{sheets.TypeArchitectural, sheets.TypeInteriors}},
	{Name: "enlarged plans", mention: kindMention(`ENLARGED\s+(?:(?:FLOOR|TOILET|RESTROOM|STAIR|UNIT|KITCHEN)\s+)?PLANS?`),
		title: textmatch.MustCompile(`(?i)ENLARGED`)},
	{Name: "civil drawings", mention: kindMention(disciplineDrawings(`CIVIL`)),
		title: textmatch.MustCompile(`(?i)CIVIL|GRADING|DRAINAGE|UTILIT(?:Y|IES)|EROSION`), types: []string{sheets.TypeCivil}},
	{Name: "landscape drawings", mention: kindMention(disciplineDrawings(`LANDSCAPE`) + `|LANDSCAPE\s+PLAN|PLANTING\s+PLANS?`),
		title: textmatch.MustCompile(`(?i)LANDSCAPE|PLANTING|IRRIGATION`), types: []string{sheets.TypeLandscape}},
	{Name: "framing plans", mention: kindMention(`(?:(?:FLOOR|ROOF|CEILING)\s+)?FRAMING\s+PLANS?`),
		title: textmatch.MustCompile(`(?i)FRAMING`), types: []string{sheets.TypeStructural}},
	{Name: "a foundation plan", mention: kindMention(`FOUNDATION\s+PLANS?`),
		title: textmatch.MustCompile(`(?i)FOUNDATION|FOOTING|BASEMENT|CRAWL\s*SPACE`), types: []string{sheets.TypeStructural}},
	{Name: "a roof plan", mention: kindMention(`ROOF\s+PLANS?`),
		title: textmatch.MustCompile(`(?i)\bROOF\b`)},
	{Name: "a site plan", mention: kindMention(`SITE\s+PLANS?`),
		title: textmatch.MustCompile(`(?i)\bSITE\b|PLOT\s+PLAN|BLOCK\s+PLAN`), types: []string{sheets.TypeCivil, sheets.TypeLandscape, sheets.TypeSurvey}},
	{Name: "general notes", mention: kindMention(`(?:(?:STRUCTURAL|ARCHITECTURAL|PROJECT)\s+)?GENERAL\s+NOTES`),
		title:   textmatch.MustCompile(`(?i)\bNOTES\b|GENERAL\s+INFORMATION|SPECIFICATIONS?`),
		caption: textmatch.MustCompile(`(?i)\bGENERAL\s+NOTES\b`),
		heading: textmatch.MustCompile(`(?i)^\s*(?:[A-Z]+\s+)?GENERAL\s+NOTES\b`)},
	{Name: "detail drawings", mention: kindMention(`DETAILS|DETAIL\s+SHEETS?`),
		title:   textmatch.MustCompile(`(?i)\bDETAILS?\b|\bSECTIONS?\b`),
		caption: textmatch.MustCompile(`(?i)\bDETAILS?\b`)},
	{Name: "section drawings", mention: kindMention(`(?:BUILDING\s+|WALL\s+)?SECTIONS`),
		title:   textmatch.MustCompile(`(?i)\bSECTIONS?\b|\bDETAILS\b`),
		caption: textmatch.MustCompile(`(?i)\bSECTIONS?\b`)},
}

// kindTargetRe is what may follow a kind and make the reference a
// particular one, checked elsewhere or on the sheet itself: a sheet or
// detail number ("SEE ROOF PLAN 2/A-301", "SEE DETAILS ON SHEET S-501",
// "SEE SECTION 3"), "THIS SHEET", "BELOW".
var kindTargetRe = textmatch.MustCompile(`(?i)^\s*[,;(]?\s*(?:ON|IN|AT)?\s*(?:SHEETS?|DWGS?\.?|DRAWINGS?|PAGES?|NO\.?)?\s*[:#]?\s*(?:[A-Z]{0,3}[-.]?\d|THIS\b|BELOW|ABOVE|HERE(?:ON|IN|WITH)|[A-Z]\s*-\s*[A-Z]\b)`)

// captionScaleRe starts the scale a view's caption line may end with:
// "SCALE: 1/8" = 1'-0"", "1/4" = 1'-0"", "1:100".
var captionScaleRe = textmatch.MustCompile(`(?i)\bSCALE\b|\d+(?:/\d+)?"\s*=|\b1\s*:\s*\d`)

// viewWordRe names a view in a caption.
var viewWordRe = textmatch.MustCompile(`(?i)\b(?:PLANS?|ELEVATIONS?|SECTIONS?|DETAILS?|DRAWINGS?|RCP)\b`)

// verbLeadRe: a line that itself points somewhere is not a caption.
var verbLeadRe = textmatch.MustCompile(`(?i)^\s*(?:\d+[.)]\s*)?(?:SEE|REFER|AS\s+SHOWN|SHOWN|COORDINATE|FOR)\b`)

// ShowsDrawing reports whether the sheet is or shows a drawing of the
// named kind (DrawingKinds): by its title, its discipline, or a short
// caption naming it (at most six words, not itself a pointer): a view's
// caption for most kinds, any caption naming details, sections or general
// notes, drawn anywhere. The answer is kept per kind.
func (s *Sheet) ShowsDrawing(name string) bool {
	s.References()
	if v, ok := s.references.shows[name]; ok {
		return v
	}
	v := false
	for i := range DrawingKinds {
		if DrawingKinds[i].Name == name {
			v = s.showsKind(&DrawingKinds[i])
			break
		}
	}
	s.references.shows[name] = v
	return v
}

func (s *Sheet) showsKind(k *DrawingKind) bool {
	t := s.Ident.Title
	if t != "" && k.title.MatchString(t) && (k.notIf == nil || !k.notIf.MatchString(t)) {
		return true
	}
	for _, typ := range k.types {
		if s.Ident.Type == typ {
			return true
		}
	}
	if k.heading != nil {
		for _, l := range s.Lines {
			if k.heading.MatchString(l.Text) {
				return true
			}
		}
	}
	for _, text := range s.references.captions {
		if k.caption != nil && k.caption.MatchString(text) {
			return true
		}
		// A view of the kind drawn on a sheet titled as another ("FIRST
		// FLOOR REFLECTED CEILING PLAN" beside the floor plan): its
		// caption names the kind and the view.
		if k.caption == nil && viewWordRe.MatchString(text) && k.title.MatchString(text) &&
			(k.notIf == nil || !k.notIf.MatchString(text)) {
			return true
		}
	}
	return false
}

// captionLines is the sheet's lines that may caption a view, whatever
// kind it shows: a caption is a short line that does not point elsewhere
// and does not end a sentence (a wrapped note's last line, "ELEVATIONS
// AND THE FINISH SCHEDULE.", is not one). The view's scale printed on
// its caption line is not part of the caption.
func captionLines(s *Sheet) []string {
	var out []string
	for _, l := range s.Lines {
		text := l.Text
		if loc := captionScaleRe.FindStringIndex(text); loc != nil && loc[0] > 0 {
			text = text[:loc[0]]
		}
		if layout.WordCount(text) > 6 || verbLeadRe.MatchString(text) || strings.HasSuffix(strings.TrimSpace(text), ".") {
			continue
		}
		out = append(out, text)
	}
	return out
}

// kindMatch is one note pointing at a kind of drawing: its words, the
// text from the start of its sentence on and the text just after the
// kind.
type kindMatch struct {
	words       []int
	text, after string
}

// kindMentions finds the mentions on line li, and those that start on it
// and run into the next line of the same note ("… SEE REFLECTED" /
// "CEILING PLAN FOR …"): the line and its continuation (noteContinued)
// come with what refSet found in them, so that each kind's pattern runs
// only where its literals are.
func kindMentions(s *Sheet, li int, re *textmatch.Regexp, line textmatch.Present, joined string, joinedHas textmatch.Present) []kindMatch {
	l := s.Lines[li]
	var out []kindMatch
	if re.MayMatch(l.Text, line) {
		for _, m := range re.Regexp().FindAllStringSubmatchIndex(l.Text, -1) {
			out = append(out, kindMatch{words: l.WordsInSpan(m[0], m[1]), text: l.Text[sentenceStart(l.Text, m[0]):], after: l.Text[m[1]:]})
		}
	}
	if joined == "" || !re.MayMatch(joined, joinedHas) {
		return out
	}
	n := s.Lines[li+1]
	cut := len(l.Text)
	for _, m := range re.Regexp().FindAllStringSubmatchIndex(joined, -1) {
		if m[0] >= cut || m[1] <= cut+1 {
			continue
		}
		words := append(l.WordsInSpan(m[0], cut), n.WordsInSpan(0, m[1]-cut-1)...)
		out = append(out, kindMatch{words: words, text: joined[sentenceStart(joined, m[0]):], after: joined[m[1]:]})
	}
	return out
}

// noteContinued is line li joined with the next line when that one
// continues the same note: directly below (at most a line's height
// between) and starting near the note's margin; else "".
func noteContinued(s *Sheet, li int) string {
	if li+1 >= len(s.Lines) {
		return ""
	}
	l, n := s.Lines[li], s.Lines[li+1]
	h := l.Box.Y1 - l.Box.Y0
	if n.Box.Y0 < l.Box.Y0 || n.Box.Y0-l.Box.Y1 > h || abs(n.Box.X0-l.Box.X0) > 3*h {
		return ""
	}
	return l.Text + " " + n.Text
}

// sentenceStart is where the sentence holding text[at:] starts on its
// line: after the last ". " before it (a note's number "15. " included),
// else the line's start.
func sentenceStart(text string, at int) int {
	if i := strings.LastIndex(text[:at], ". "); i >= 0 {
		return i + 2
	}
	return 0
}

// noteSentence is the note's sentence up to its end, at most 120
// characters.
func noteSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		s = strings.TrimSpace(s[:120]) + "…"
	}
	return s
}
