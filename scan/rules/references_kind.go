package rules

import (
	"fmt"
	"strings"

	"planreview/lazyregexp"
	"planreview/scan/model"
	"planreview/scan/sheets"
	"planreview/scan/textmatch"
)

// --- references to a kind of drawing ----------------------------------------

// drawingKind is a kind of drawing a note may point at without naming a
// sheet ("SEE REFLECTED CEILING PLAN", "REFER TO STRUCTURAL DRAWINGS"), and
// how the set shows it has one: a sheet titled as that kind, a sheet of
// the discipline that draws it, or a short caption naming it on some page
// (a view's caption; for details, sections and notes, drawn on any
// sheet, any caption naming them).
type drawingKind struct {
	name    string
	mention *textmatch.Regexp
	title   *lazyregexp.Regexp
	notIf   *lazyregexp.Regexp // a title matching title and this is another kind
	types   []string
	caption *lazyregexp.Regexp // a short line that shows the kind (nil: a view caption matching title)
	// heading starts a line of any length that shows the kind: notes
	// whose heading the layout read into their first line.
	heading *lazyregexp.Regexp
}

// kindVerb is how a note points at a drawing: "SEE", "REFER TO", "AS
// SHOWN ON", "COORDINATE WITH", with "THE", "ALL" or "ARCH." between.
const kindVerb = `(?i)\b(?:SEE|REFER\s+TO|(?:AS\s+)?(?:SHOWN|NOTED|INDICATED|DETAILED)\s+(?:ON|IN)|COORDINATE\s+WITH)\s+(?:(?:THE|ALL|APPLICABLE|RELATED|ARCH(?:ITECTURAL|\.)?)\s+){0,2}`

func kindMention(phrase string) *textmatch.Regexp {
	return lineSet.MustCompile(kindVerb + `(?:` + phrase + `)\b`)
}

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

var drawingKinds = []drawingKind{
	{name: "reflected ceiling plans", mention: kindMention(`REFLECTED\s+CEILING\s+PLANS?|RCPS?`),
		title: lazyregexp.New(`(?i)REFLECTED\s+CEILING|\bR\.?C\.?P\b|CEILING\s+PLAN`)},
	{name: "interior elevations", mention: kindMention(`INTERIOR\s+ELEVATIONS?`),
		title: lazyregexp.New(`(?i)\bELEVATIONS?\b`), notIf: lazyregexp.New(`(?i)\b(?:EXTERIOR|BUILDING)\s+ELEVATION`)},
	{name: "exterior elevations", mention: kindMention(`(?:EXTERIOR|BUILDING)\s+ELEVATIONS?`),
		title: lazyregexp.New(`(?i)\bELEVATIONS?\b`), notIf: lazyregexp.New(`(?i)\bINTERIOR\s+ELEVATION`)},
	{name: "structural drawings", mention: kindMention(disciplineDrawings(`STRUCTURAL`) + `|STRUCTURAL\s+(?:DETAILS|SECTIONS)`),
		title: lazyregexp.New(`(?i)STRUCTURAL|FOUNDATION|FOOTING|FRAMING`), types: []string{sheets.TypeStructural}},
	{name: "mechanical drawings", mention: kindMention(disciplineDrawings(`MECHANICAL|HVAC`)),
		title: lazyregexp.New(`(?i)MECHANICAL|\bHVAC\b`), types: []string{sheets.TypeMechanical}},
	{name: "electrical drawings", mention: kindMention(disciplineDrawings(`ELECTRICAL`)),
		title: lazyregexp.New(`(?i)ELECTRICAL|LIGHTING|\bPOWER\b`), types: []string{sheets.TypeElectrical}},
	{name: "plumbing drawings", mention: kindMention(disciplineDrawings(`PLUMBING`)),
		title: lazyregexp.New(`(?i)PLUMBING|SANITARY|DOMESTIC\s+WATER`), types: []string{sheets.TypePlumbing}},
	{name: "fire protection drawings", mention: kindMention(disciplineDrawings(`FIRE\s+PROTECTION|FIRE\s+SPRINKLER|SPRINKLER`)),
		title: lazyregexp.New(`(?i)FIRE\s+PROTECTION|SPRINKLER`), types: []string{sheets.TypeFireProtection}},
	{name: "MEP drawings", mention: kindMention(disciplineDrawings(`M\.?E\.?P\.?`)),
		title: lazyregexp.New(`(?i)MECHANICAL|ELECTRICAL|PLUMBING|\bMEP\b|\bHVAC\b`),
		types: []string{sheets.TypeMechanical, sheets.TypeElectrical, sheets.TypePlumbing}},
	{name: "architectural drawings", mention: kindMention(disciplineDrawings(`ARCH(?:ITECTURAL|\.)?`)),
		title: lazyregexp.New(`(?i)ARCHITECTURAL|FLOOR\s+PLAN|ELEVATION`), types: []string{sheets.TypeArchitectural, sheets.TypeInteriors}},
	{name: "enlarged plans", mention: kindMention(`ENLARGED\s+(?:(?:FLOOR|TOILET|RESTROOM|STAIR|UNIT|KITCHEN)\s+)?PLANS?`),
		title: lazyregexp.New(`(?i)ENLARGED`)},
	{name: "civil drawings", mention: kindMention(disciplineDrawings(`CIVIL`)),
		title: lazyregexp.New(`(?i)CIVIL|GRADING|DRAINAGE|UTILIT(?:Y|IES)|EROSION`), types: []string{sheets.TypeCivil}},
	{name: "landscape drawings", mention: kindMention(disciplineDrawings(`LANDSCAPE`) + `|LANDSCAPE\s+PLAN|PLANTING\s+PLANS?`),
		title: lazyregexp.New(`(?i)LANDSCAPE|PLANTING|IRRIGATION`), types: []string{sheets.TypeLandscape}},
	{name: "framing plans", mention: kindMention(`(?:(?:FLOOR|ROOF|CEILING)\s+)?FRAMING\s+PLANS?`),
		title: lazyregexp.New(`(?i)FRAMING`), types: []string{sheets.TypeStructural}},
	{name: "a foundation plan", mention: kindMention(`FOUNDATION\s+PLANS?`),
		title: lazyregexp.New(`(?i)FOUNDATION|FOOTING|BASEMENT|CRAWL\s*SPACE`), types: []string{sheets.TypeStructural}},
	{name: "a roof plan", mention: kindMention(`ROOF\s+PLANS?`),
		title: lazyregexp.New(`(?i)\bROOF\b`)},
	{name: "a site plan", mention: kindMention(`SITE\s+PLANS?`),
		title: lazyregexp.New(`(?i)\bSITE\b|PLOT\s+PLAN|BLOCK\s+PLAN`), types: []string{sheets.TypeCivil, sheets.TypeLandscape, sheets.TypeSurvey}},
	{name: "general notes", mention: kindMention(`(?:(?:STRUCTURAL|ARCHITECTURAL|PROJECT)\s+)?GENERAL\s+NOTES`),
		title:   lazyregexp.New(`(?i)\bNOTES\b|GENERAL\s+INFORMATION|SPECIFICATIONS?`),
		caption: lazyregexp.New(`(?i)\bGENERAL\s+NOTES\b`),
		heading: lazyregexp.New(`(?i)^\s*(?:[A-Z]+\s+)?GENERAL\s+NOTES\b`)},
	{name: "detail drawings", mention: kindMention(`DETAILS|DETAIL\s+SHEETS?`),
		title:   lazyregexp.New(`(?i)\bDETAILS?\b|\bSECTIONS?\b`),
		caption: lazyregexp.New(`(?i)\bDETAILS?\b`)},
	{name: "section drawings", mention: kindMention(`(?:BUILDING\s+|WALL\s+)?SECTIONS`),
		title:   lazyregexp.New(`(?i)\bSECTIONS?\b|\bDETAILS\b`),
		caption: lazyregexp.New(`(?i)\bSECTIONS?\b`)},
}

// kindTargetRe is what may follow a kind and make the reference a
// particular one, checked elsewhere or on the sheet itself: a sheet or
// detail number ("SEE ROOF PLAN 2/A-301", "SEE DETAILS ON SHEET S-501",
// "SEE SECTION 3"), "THIS SHEET", "BELOW".
var kindTargetRe = lazyregexp.New(`(?i)^\s*[,;(]?\s*(?:ON|IN|AT)?\s*(?:SHEETS?|DWGS?\.?|DRAWINGS?|PAGES?|NO\.?)?\s*[:#]?\s*(?:[A-Z]{0,3}[-.]?\d|THIS\b|BELOW|ABOVE|HERE(?:ON|IN|WITH)|[A-Z]\s*-\s*[A-Z]\b)`)

// captionScaleRe starts the scale a view's caption line may end with:
// "SCALE: 1/8" = 1'-0"", "1/4" = 1'-0"", "1:100".
var captionScaleRe = textmatch.MustCompile(`(?i)\bSCALE\b|\d+(?:/\d+)?"\s*=|\b1\s*:\s*\d`)

// viewWordRe names a view in a caption.
var viewWordRe = lazyregexp.New(`(?i)\b(?:PLANS?|ELEVATIONS?|SECTIONS?|DETAILS?|DRAWINGS?|RCP)\b`)

// verbLeadRe: a line that itself points somewhere is not a caption.
var verbLeadRe = lazyregexp.New(`(?i)^\s*(?:\d+[.)]\s*)?(?:SEE|REFER|AS\s+SHOWN|SHOWN|COORDINATE|FOR)\b`)

// setReadForKinds reports whether every page of the set was read enough to
// say it holds no sheet of a kind: readable, and either read in full or
// with its title read (a drawing whose text is outlined still names
// itself in its title block).
func (rv *review) setReadForKinds() bool {
	for _, pv := range rv.pages {
		if !pv.Readable || (!pv.ReadInFull() && pv.Ident.Title == "") {
			return false
		}
	}
	return true
}

// hasKind reports whether the set has a sheet of the kind: by title, by
// discipline, or by a short caption naming it (at most six words, not
// itself a pointer) on some page: a view's caption for most kinds, any
// caption naming details, sections or general notes, drawn anywhere.
func (rv *review) hasKind(k drawingKind) bool {
	for _, pv := range rv.pages {
		t := pv.Ident.Title
		if t != "" && k.title.MatchString(t) && (k.notIf == nil || !k.notIf.MatchString(t)) {
			return true
		}
		for _, typ := range k.types {
			if pv.Ident.Type == typ {
				return true
			}
		}
		for _, l := range pv.Lines {
			if k.heading != nil && k.heading.MatchString(l.Text) {
				return true
			}
			// A caption is a short line that does not point elsewhere
			// and does not end a sentence (a wrapped note's last line,
			// "ELEVATIONS AND THE FINISH SCHEDULE.", is not one).
			// The view's scale printed on its caption line is not
			// part of the caption.
			text := l.Text
			if loc := captionScaleRe.FindStringIndex(text); loc != nil && loc[0] > 0 {
				text = text[:loc[0]]
			}
			if len(strings.Fields(text)) > 6 || verbLeadRe.MatchString(text) || strings.HasSuffix(strings.TrimSpace(text), ".") {
				continue
			}
			if k.caption != nil && k.caption.MatchString(text) {
				return true
			}
			// A view of the kind drawn on a sheet titled as another
			// ("FIRST FLOOR REFLECTED CEILING PLAN" beside the floor
			// plan): its caption names the kind and the view.
			if k.caption == nil && viewWordRe.MatchString(text) && k.title.MatchString(text) &&
				(k.notIf == nil || !k.notIf.MatchString(text)) {
				return true
			}
		}
	}
	return false
}

// checkDrawingReferences reports notes that point at a kind of drawing
// ("SEE REFLECTED CEILING PLAN", "REFER TO STRUCTURAL DRAWINGS") when no
// sheet of the submitted set is of that kind: once per kind for the set,
// anchored on the first note, the others named as further anchors. Only
// a set read in full is judged (a page not read could be that drawing);
// a note that names the sheet or detail ("SEE ROOF PLAN 2/A-301") is the
// sheet-reference check's, and a line relying on a document the
// document check reads (calculations, the engineer's design) is that
// check's.
func checkDrawingReferences(rv *review, r *Rule) []observation {
	if len(rv.pages) == 0 || !rv.setReadForKinds() {
		return nil
	}
	type kindState struct {
		first   *observation
		more    int
		present bool
	}
	states := make([]kindState, len(drawingKinds))
	for _, pv := range rv.pages {
		for li := range pv.Lines {
			// Only a line that points somewhere can start a mention:
			// one cheap test per line instead of every kind's pattern
			// over the line joined with the next.
			if !pv.matches(pointerRe, li) {
				continue
			}
			for ki := range drawingKinds {
				k, st := &drawingKinds[ki], &states[ki]
				if st.present {
					continue
				}
				for _, mt := range kindMentions(pv, li, k.mention) {
					if kindTargetRe.MatchString(mt.after) || relyOnDocument(pv, li) {
						continue
					}
					if st.first == nil {
						if st.present = rv.hasKind(*k); st.present {
							break
						}
						st.first = &observation{page: pv, words: mt.words,
							vars:     map[string]string{"kind": k.name, "reference": noteSentence(mt.text)},
							evidence: "drawing " + k.name}
						continue
					}
					st.more++
					if len(st.first.also) < 10 {
						st.first.also = append(st.first.also, evidenceRef{page: pv, words: mt.words})
					}
				}
			}
		}
	}
	// A note listing several disciplines ("MECHANICAL/PLUMBING
	// DRAWINGS") is one finding naming every kind it relies on.
	var out []observation
	at := map[string]int{}
	for _, st := range states {
		if st.first == nil || st.present {
			continue
		}
		more := ""
		if st.more > 0 {
			more = fmt.Sprintf(" (and %d more such note%s)", st.more, plural(st.more))
		}
		key := fmt.Sprint(st.first.page.FileIndex, st.first.page.Page.Number, st.first.words)
		if i, ok := at[key]; ok {
			o := &out[i]
			o.vars["kind"] += " and " + st.first.vars["kind"]
			o.evidence += " and " + st.first.vars["kind"]
			if o.vars["more"] == "" {
				o.vars["more"] = more
			}
			continue
		}
		st.first.vars["more"] = more
		at[key] = len(out)
		out = append(out, *st.first)
	}
	return out
}

// pointerRe finds the words a mention starts with (kindVerb's).
var pointerRe = lineSet.MustCompile(`(?i)\b(?:SEE|REFER|SHOWN|NOTED|INDICATED|DETAILED|COORDINATE)\b`)

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// relyOnDocument reports whether line li mentions a document the document
// check reports ("PER STRUCTURAL DRAWINGS" is the engineer's design).
func relyOnDocument(pv *pageView, li int) bool {
	for _, d := range referencedDocuments {
		if pv.matches(d.mention, li) {
			return true
		}
	}
	return false
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
// "CEILING PLAN FOR …"): the next line when it sits directly below
// (at most a line's height between) and starts near the note's margin.
func kindMentions(pv *pageView, li int, re *textmatch.Regexp) []kindMatch {
	l := pv.Lines[li]
	var out []kindMatch
	for _, m := range pv.findAll(re, li) {
		out = append(out, kindMatch{words: l.WordsInSpan(m[0], m[1]), text: l.Text[sentenceStart(l.Text, m[0]):], after: l.Text[m[1]:]})
	}
	if li+1 >= len(pv.Lines) {
		return out
	}
	n := pv.Lines[li+1]
	h := l.Box.Y1 - l.Box.Y0
	if n.Box.Y0 < l.Box.Y0 || n.Box.Y0-l.Box.Y1 > h || abs(n.Box.X0-l.Box.X0) > 3*h {
		return out
	}
	joined := l.Text + " " + n.Text
	cut := len(l.Text)
	for _, m := range re.FindAllStringSubmatchIndex(joined, -1) {
		if m[0] >= cut || m[1] <= cut+1 {
			continue
		}
		words := append(l.WordsInSpan(m[0], cut), n.WordsInSpan(0, m[1]-cut-1)...)
		out = append(out, kindMatch{words: words, text: joined[sentenceStart(joined, m[0]):], after: joined[m[1]:]})
	}
	return out
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

// --- callout bubbles and matchline tags ---------------------------------------

var (
	bubbleIDRe   = lazyregexp.New(`^` + sheetTarget + `$`)
	bubbleMarkRe = lazyregexp.New(`^(?:\d{1,3}|[A-Z]{1,2})$`)
	matchlineRe  = lazyregexp.New(`(?i)^\s*MATCH\s*-?\s*LINE\b`)
)

// stackedReference reads line li as the sheet half of a callout printed
// on two lines — a detail or section mark standing alone directly over a
// sheet number standing alone, both in one small bubble ("7" over
// "AE213") — or as a matchline's tag (a sheet number standing alone with
// MATCHLINE just above or below it). It returns the target, the
// reference as printed and its words. The number must be a strong sheet
// number (three digits or dotted: A-501, AE213, S3.01); room numbers,
// door and window tags, grid bubbles, keynotes and elevation marks are
// not sheet numbers standing alone under a mark. wanted says whether a
// reference to the number would be reported (not in the set, not this
// sheet's), so that only those look at their neighbours.
func stackedReference(pv *pageView, li int, wanted func(id string) bool) (target, ref string, words []int, ok bool) {
	l := pv.Lines[li]
	if len(l.Words) != 1 || len(l.Text) < 3 || l.Text[0] < 'A' || l.Text[0] > 'Z' {
		return "", "", nil, false
	}
	id := strings.TrimSpace(l.Text)
	if !bubbleIDRe.MatchString(id) || !wanted(id) {
		return "", "", nil, false
	}
	if n, ok := sheets.ParseNumber(seriesOf(id)); !ok || !n.Strong {
		return "", "", nil, false
	}
	// A row of the sheet index is the index check's.
	for _, e := range pv.Index {
		if e.Key == sheets.NumberKey(id) {
			return "", "", nil, false
		}
	}
	b := l.Box
	h := b.Y1 - b.Y0
	w := b.X1 - b.X0
	if h <= 0 {
		return "", "", nil, false
	}
	cx := (b.X0 + b.X1) / 2
	size := pv.Page.Words[l.Words[0]].FontSize
	for lj, o := range pv.Lines {
		if lj == li {
			continue
		}
		ob := o.Box
		ocx := (ob.X0 + ob.X1) / 2
		text := strings.TrimSpace(o.Text)
		// The mark: directly above, centred over the number, the same
		// type size, touching or nearly (the bubble's dividing line).
		if len(o.Words) == 1 && bubbleMarkRe.MatchString(text) &&
			ob.Y1 <= b.Y0+0.4*h && ob.Y1 >= b.Y0-0.8*h &&
			abs(ocx-cx) <= w/2 && ob.X0 >= b.X0-0.25*w && ob.X1 <= b.X1+0.25*w {
			os := pv.Page.Words[o.Words[0]].FontSize
			if os > 0 && size > 0 && os/size > 0.7 && os/size < 1.4 {
				return id, text + "/" + id, append(append([]int{}, o.Words...), l.Words...), true
			}
		}
		// The matchline: within three lines above or below, overlapping
		// the number across.
		if len(o.Words) <= 3 && matchlineRe.MatchString(text) &&
			ob.X1 >= b.X0-w && ob.X0 <= b.X1+w &&
			((ob.Y0 >= b.Y1 && ob.Y0-b.Y1 <= 3*h) || (ob.Y1 <= b.Y0 && b.Y0-ob.Y1 <= 3*h)) {
			return id, id + " " + text, append(append([]int{}, l.Words...), o.Words...), true
		}
	}
	return "", "", nil, false
}

// looseShape is a sheet number's shape without its hyphens and part
// suffix, marked apart from fineShape's: a bubble often drops the hyphen
// the title block prints (A301 in a bubble, A-101 in the title block).
// Only callouts on two lines use it: their geometry is the context a
// number alone lacks.
func looseShape(s string) string {
	return "~" + strings.ReplaceAll(model.FineShape(seriesOf(strings.ToUpper(s))), "-", "")
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
