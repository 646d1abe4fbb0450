package model

import (
	"strings"

	"planreview/scan/layout"
	"planreview/scan/sheets"
	"planreview/textmatch"
)

// A sheet's references, read once from its lines: callouts to a detail on
// another sheet ("3/A4.2", a bubble with "7" over "AE213"), matchline
// tags, written references to a sheet ("SEE SHEET A-501"), to a kind of
// drawing ("REFER TO STRUCTURAL DRAWINGS") and to a document the sheets
// rely on ("PER SOILS REPORT"). Each carries the text as printed, its
// words and box, and whether it lies in a legend or symbol key (a sample
// showing what a callout looks like, pointing nowhere). Whether the
// target is in the set is the checks' judgement.

// RefKind is what a reference points at, and how it is printed.
type RefKind uint8

const (
	// RefCallout is a detail or section mark over a sheet number: "3/A4.2",
	// "A/A-501", "SEE 3/12", a bubble "7" over "AE213".
	RefCallout RefKind = iota + 1
	// RefMatchline is a sheet number tagged by a matchline beside it.
	RefMatchline
	// RefSheet is a written reference to a sheet: "SEE SHEET A-501",
	// "REFER TO DWG S-201", "SEE A-501".
	RefSheet
	// RefDrawings is a note pointing at a kind of drawing without naming a
	// sheet: "SEE REFLECTED CEILING PLAN", "REFER TO STRUCTURAL DRAWINGS".
	RefDrawings
	// RefDocument is a note relying on a document not drawn: "PER SOILS
	// REPORT", "TRUSSES PER MANUFACTURER'S CALCS", "SEE SPECIFICATIONS".
	RefDocument
)

// Reference is one reference printed on a sheet.
type Reference struct {
	Kind RefKind
	// Text is the reference as printed ("3/A4.2", "SEE SHEET A-501"); for
	// a kind of drawing the note's sentence, for a document its line.
	Text string
	// Detail is a callout's detail or section mark ("3" of "3/A4.2").
	Detail string
	// Target is the sheet number pointed at, upper case, as printed.
	Target string
	// Drawing is the kind of drawing pointed at (DrawingKinds' names).
	Drawing string
	// Document is the kind of document relied on (DocumentKinds' names).
	Document string
	// Line is the index in Sheet.Lines of the line the reference starts on.
	Line  int
	Words []int
	Box   layout.Box
	// Sample: the reference lies in a legend, symbol key or abbreviation
	// list; it shows the drawing's conventions and points nowhere.
	Sample bool

	// Bare: a sheet reference written without SHEET or DWG ("SEE A-501");
	// only a set with an index makes the target a sheet.
	Bare bool
	// Unlettered: the target has no designator letter ("SEE 3/12"); only
	// the set's own numbering scheme makes it a sheet.
	Unlettered bool
	// MeasureAfter: what follows the target makes it a measure or a date
	// ("3/4\"", "3/12/2024", "1/8\" = 1'-0\"").
	MeasureAfter bool
	// NamesDocument: a word after the target makes it a document's name
	// ("SEE T-24 FORMS", "REFER TO ACI-318 STANDARD").
	NamesDocument bool
	// Stacked: printed on two lines (a bubble or a matchline's tag), where
	// the number often drops the hyphen the title block prints.
	Stacked bool
	// Particular: a kind of drawing followed by the sheet or detail that
	// shows it ("SEE ROOF PLAN 2/A-301", "SEE DETAILS ON THIS SHEET").
	Particular bool
}

// sheetReferences is what the model read of a sheet's references.
type sheetReferences struct {
	all          []Reference
	shows        map[string]bool
	captions     []string // the lines that may caption a view (captionLines)
	deferred     []DeferredList
	deferredRead bool
}

// References is the sheet's references, read on first use, in reading
// order (by line; on a line a callout printed on two lines first).
func (s *Sheet) References() []Reference {
	if s.references != nil {
		return s.references.all
	}
	s.references = &sheetReferences{shows: map[string]bool{}}
	if s.Readable {
		s.references.all = readReferences(s)
		s.references.captions = captionLines(s)
	}
	return s.references.all
}

// ReferencesOf is the sheet's references of one kind.
func (s *Sheet) ReferencesOf(k RefKind) []Reference {
	var out []Reference
	for _, r := range s.References() {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// refSet holds the patterns run over every line, scanned once per line for
// all their literals.
var refSet = textmatch.NewSet()

// sheetTarget is a sheet number as references print it: a designator of
// one to three letters and a number, with the parts and suffixes numbering
// schemes use (A-501, A4.2, S3.01, IF111-2, E201B).
const sheetTarget = `[A-Z]{1,3}[-.]?\d{1,4}(?:\.\d{1,3})?(?:-[A-Z0-9]{1,2}|[A-Z])?`

var (
	// Detail and section callouts: "3/A4.2", "A/A-501", "SEE: 1 / E201B".
	// A letter mark is written against its slash ("A/A-501"): "W/ R-19"
	// (with), "T/ SLAB" (top of) are abbreviations, and W is never a mark.
	calloutRe = refSet.MustCompile(`(?:^|[\s(:])(?:(\d{1,3})\s*/\s*|([A-VX-Z])/)(` + sheetTarget + `)\b`)
	// Written references: "SEE SHEET A-501", "REFER TO DWG S-201", "ON
	// DRAWINGS S3.01 & S3.11", "SEE A-501" (bare).
	writtenRe = refSet.MustCompile(`(?i)\b(?:SEE|REFER\s+TO|ON|IN)\s+(?:SHEETS?|DWGS?\.?|DRAWINGS?)\s*:?\s*(` + sheetTarget + `)\b`)
	bareSeeRe = refSet.MustCompile(`(?i)\b(?:SEE|REFER\s+TO)\s+(?:DETAIL\s+|DET\.?\s+)?(` + sheetTarget + `)\b`)
	// schemeCalloutRe is a written callout whose sheet part has no
	// designator letter: "SEE 3/12", "SEE DETAIL 2/5.1.02", "REFER TO
	// 3/100-01". The verb before the mark keeps dimensions ("3/4\""),
	// scales ("1/8") and dates out.
	schemeCalloutRe = refSet.MustCompile(`(?i)\b(?:SEE|REFER\s+TO)\s+(?:(?:DETAIL|DET\.?|SECTION)\s+)?(\d{1,3}|[A-Z])\s*/\s*(\d(?:[\d.\-\x{2010}-\x{2013}\x{2212}]*\d)?)`)
	// notSheetAfterRe is what follows a number that makes it a measure or a
	// date rather than a sheet: inch and foot marks, a further slash
	// ("3/12/2024"), a ratio, an equals sign ("1/8\" = 1'-0\""), a unit.
	notSheetAfterRe = textmatch.MustCompile(`(?i)^(?:\s*["'\x{2032}\x{2033}\x{201D}/:=]|\s*(?:IN|INCH(?:ES)?|MM|CM|M|FT|FEET|PLY|SCALE)\b)`)
	targetListRe    = textmatch.MustCompile(`^\s*(?:&|,|AND)\s*(` + sheetTarget + `)\b`)
	targetSuffixRe  = textmatch.MustCompile(`(?:-[A-Z0-9]{1,2}|[A-Z])$`)
	// documentAfterRe is a word after a reference's target that makes the
	// target a document's name: "SEE T-24 FORMS", "REFER TO ACI-318
	// STANDARD".
	documentAfterRe = textmatch.MustCompile(`(?i)^\s*(?:FORMS?|REPORTS?|CALCS?\.?|CALCULATIONS?|COMPLIANCE|DOCUMENTATION|DOCUMENTS?|REQUIREMENTS|STANDARDS?|SPEC(?:IFICATION)?S?|MANUAL|CERTIFICATES?|WORKSHEETS?)\b`)
)

// SeriesOf strips a sheet number's part suffix: "IF111-A" and "IF111-2"
// are parts of IF111, "E201B" of E201.
func SeriesOf(s string) string {
	if loc := targetSuffixRe.FindStringIndex(s); loc != nil && loc[0] > 0 {
		return s[:loc[0]]
	}
	return s
}

// readReferences reads every reference on the sheet's lines.
func readReferences(s *Sheet) []Reference {
	texts := make([]string, len(s.Lines))
	for i, l := range s.Lines {
		texts[i] = l.Text
	}
	present := refSet.ScanAll(texts)
	find := func(re *textmatch.Regexp, li int) [][]int {
		if !re.MayMatch(texts[li], present[li]) {
			return nil
		}
		return re.Regexp().FindAllStringSubmatchIndex(texts[li], -1)
	}
	var out []Reference
	add := func(r Reference) {
		r.Box = wordsBox(s, r.Words)
		r.Sample = s.Explains(r.Words)
		out = append(out, r)
	}
	for li, l := range s.Lines {
		if r, ok := stackedReference(s, li); ok {
			add(r)
		}
		span := func(kind RefKind, start, tstart, end int, detail string, unlettered, bare bool) {
			target := strings.ToUpper(strings.Trim(l.Text[tstart:end], ".,;:"))
			add(Reference{Kind: kind, Line: li, Detail: detail, Target: target,
				Text:  strings.TrimSpace(strings.TrimLeft(l.Text[start:end], "(:")),
				Words: l.WordsInSpan(start, end), Unlettered: unlettered, Bare: bare,
				MeasureAfter:  notSheetAfterRe.MatchString(l.Text[end:]),
				NamesDocument: documentAfterRe.MatchString(l.Text[end:])})
		}
		for _, m := range find(schemeCalloutRe, li) {
			span(RefCallout, m[0], m[4], m[5], l.Text[m[2]:m[3]], true, false)
		}
		for _, re := range []*textmatch.Regexp{calloutRe, writtenRe, bareSeeRe} {
			for _, m := range find(re, li) {
				kind, detail, ts, te := RefSheet, "", m[2], m[3]
				if re == calloutRe {
					kind, ts, te = RefCallout, m[6], m[7]
					if m[2] >= 0 {
						detail = l.Text[m[2]:m[3]]
					} else {
						detail = l.Text[m[4]:m[5]]
					}
				}
				span(kind, m[0], ts, te, detail, false, re == bareSeeRe)
				// A list of targets after the first: "S3.01 & S3.11".
				end := te
				for {
					lm := targetListRe.FindStringSubmatchIndex(l.Text[end:])
					if lm == nil {
						break
					}
					span(kind, end+lm[2], end+lm[2], end+lm[3], detail, false, re == bareSeeRe)
					end += lm[3]
				}
			}
		}
		if len(find(pointerRe, li)) > 0 {
			joined := noteContinued(s, li)
			var joinedHas textmatch.Present
			if joined != "" {
				joinedHas = refSet.Scan(joined)
			}
			for ki := range DrawingKinds {
				k := &DrawingKinds[ki]
				for _, mt := range kindMentions(s, li, k.mention, present[li], joined, joinedHas) {
					add(Reference{Kind: RefDrawings, Drawing: k.Name, Line: li, Words: mt.words,
						Text: noteSentence(mt.text), Particular: kindTargetRe.MatchString(mt.after)})
				}
			}
		}
		for _, d := range documentMentions {
			if len(find(d.mention, li)) > 0 {
				add(Reference{Kind: RefDocument, Document: d.kind, Line: li, Text: l.Text,
					Words: l.WordsInSpan(0, len(l.Text))})
			}
		}
	}
	return out
}

// wordsBox is the union of the words' boxes.
func wordsBox(s *Sheet, words []int) layout.Box {
	lp := s.lines()
	var b layout.Box
	for i, w := range words {
		if i == 0 {
			b = lp.WordBox(w)
			continue
		}
		b = b.Union(lp.WordBox(w))
	}
	return b
}

// --- callout bubbles and matchline tags ---------------------------------------

var (
	bubbleIDRe   = textmatch.MustCompile(`^` + sheetTarget + `$`)
	bubbleMarkRe = textmatch.MustCompile(`^(?:\d{1,3}|[A-Z]{1,2})$`)
	matchlineRe  = textmatch.MustCompile(`(?i)^\s*MATCH\s*-?\s*LINE\b`)
)

// stackedReference reads line li as the sheet half of a callout printed
// on two lines — a detail or section mark standing alone directly over a
// sheet number standing alone, both in one small bubble ("7" over
// "AE213") — or as a matchline's tag (a sheet number standing alone with
// MATCHLINE just above or below it). The number must be a strong sheet
// number (three digits or dotted: A-501, AE213, S3.01); room numbers,
// door and window tags, grid bubbles, keynotes and elevation marks are
// not sheet numbers standing alone under a mark. A row of the sheet's
// index is no reference.
func stackedReference(s *Sheet, li int) (Reference, bool) {
	l := s.Lines[li]
	if len(l.Words) != 1 || len(l.Text) < 3 || l.Text[0] < 'A' || l.Text[0] > 'Z' {
		return Reference{}, false
	}
	id := strings.TrimSpace(l.Text)
	if !bubbleIDRe.MatchString(id) {
		return Reference{}, false
	}
	if n, ok := sheets.ParseNumber(SeriesOf(id)); !ok || !n.Strong {
		return Reference{}, false
	}
	for _, e := range s.Index {
		if e.Key == sheets.NumberKey(id) {
			return Reference{}, false
		}
	}
	b := l.Box
	h := b.Y1 - b.Y0
	w := b.X1 - b.X0
	if h <= 0 {
		return Reference{}, false
	}
	cx := (b.X0 + b.X1) / 2
	size := s.Page.Words[l.Words[0]].FontSize
	for lj, o := range s.Lines {
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
			os := s.Page.Words[o.Words[0]].FontSize
			if os > 0 && size > 0 && os/size > 0.7 && os/size < 1.4 {
				return Reference{Kind: RefCallout, Line: li, Detail: text, Target: id, Text: text + "/" + id,
					Words: append(append([]int{}, o.Words...), l.Words...), Stacked: true}, true
			}
		}
		// The matchline: within three lines above or below, overlapping
		// the number across.
		if len(o.Words) <= 3 && matchlineRe.MatchString(text) &&
			ob.X1 >= b.X0-w && ob.X0 <= b.X1+w &&
			((ob.Y0 >= b.Y1 && ob.Y0-b.Y1 <= 3*h) || (ob.Y1 <= b.Y0 && b.Y0-ob.Y1 <= 3*h)) {
			return Reference{Kind: RefMatchline, Line: li, Target: id, Text: id + " " + text,
				Words: append(append([]int{}, l.Words...), o.Words...), Stacked: true}, true
		}
	}
	return Reference{}, false
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
