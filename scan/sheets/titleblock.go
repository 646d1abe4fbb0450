package sheets

import (
	"slices"
	"sort"
	"strings"

	"planreview/scan/pdftext"
	"planreview/textmatch"
)

// Field kinds of a title block, as FieldKind values.
const (
	FieldNumber   = "sheetNumber"
	FieldTitle    = "sheetTitle"
	FieldScale    = "scale"
	FieldDate     = "date"
	FieldRevision = "revision"
	FieldStatus   = "issueStatus"
	FieldProject  = "project" // project, job, contract or file numbers: never the sheet's
	FieldOther    = "other"   // drawn, checked, client…: read so their cells bound the others
)

// captionTable lists the captions real title blocks print, in the languages
// of the sets the appliance meets (English, German, Italian, Slovenian,
// Malay, French, Spanish, Dutch). Each caption is a sequence of normWord
// tokens. Longer captions win over their prefixes ("SHEET TITLE" over
// "SHEET").
var captionTable = []struct {
	kind   string
	tokens string
}{
	{FieldNumber, "SHEET NO"}, {FieldNumber, "SHEET NUMBER"}, {FieldNumber, "SHEET #"},
	{FieldNumber, "SHEET ID"}, {FieldNumber, "SHEET"}, {FieldNumber, "SHT NO"}, {FieldNumber, "SHT"},
	{FieldNumber, "DWG NO"}, {FieldNumber, "DWG NUMBER"}, {FieldNumber, "DWG #"}, {FieldNumber, "DWG"},
	{FieldNumber, "DRAWING NO"}, {FieldNumber, "DRAWING NUMBER"}, {FieldNumber, "DRAWING #"},
	{FieldNumber, "DRG NO"}, {FieldNumber, "PLAN REF NO"}, {FieldNumber, "DRAWING REF"}, {FieldNumber, "PLAN NO"},
	{FieldNumber, "PLAN NUMBER"}, {FieldNumber, "PLAN-NR"}, {FieldNumber, "PLAN NR"},
	{FieldNumber, "PLANNUMMER"}, {FieldNumber, "PLAN-NUMMER"}, {FieldNumber, "BLATT"},
	{FieldNumber, "BLATT NR"}, {FieldNumber, "BLATT-NR"}, {FieldNumber, "ZEICHNUNGSNUMMER"},
	{FieldNumber, "TAVOLA"}, {FieldNumber, "TAVOLA NO"}, {FieldNumber, "TAVOLA N"}, {FieldNumber, "TAV"},
	{FieldNumber, "ELABORATO"}, {FieldNumber, "RISBA ŠT"}, {FieldNumber, "ŠT RISBE"},
	{FieldNumber, "NO LUKISAN"}, {FieldNumber, "NO. LUKISAN"}, {FieldNumber, "LUKISAN NO"},
	{FieldNumber, "NOMBOR LUKISAN"}, {FieldNumber, "PLANCHE"}, {FieldNumber, "PLANCHE N°"},
	{FieldNumber, "N° PLAN"}, {FieldNumber, "PLANO N°"}, {FieldNumber, "PLANO NO"},
	{FieldNumber, "HOJA"}, {FieldNumber, "LÁMINA"}, {FieldNumber, "TEKENINGNUMMER"},
	{FieldNumber, "TEKENING NR"},

	{FieldTitle, "SHEET TITLE"}, {FieldTitle, "SHEET NAME"}, {FieldTitle, "DRAWING TITLE"},
	{FieldTitle, "DRAWING NAME"}, {FieldTitle, "DWG TITLE"}, {FieldTitle, "TITLE"},
	{FieldTitle, "DRAWING"}, {FieldTitle, "TITLE OF DRAWING"}, {FieldTitle, "PLANINHALT"},
	{FieldTitle, "PLANBEZEICHNUNG"}, {FieldTitle, "INHALT"}, {FieldTitle, "OGGETTO"},
	{FieldTitle, "TITOLO"}, {FieldTitle, "CONTENUTO"}, {FieldTitle, "VSEBINA"}, {FieldTitle, "NAZIV RISBE"},
	{FieldTitle, "TAJUK"}, {FieldTitle, "TAJUK LUKISAN"}, {FieldTitle, "TITRE"}, {FieldTitle, "TÍTULO"},

	{FieldScale, "SCALE"}, {FieldScale, "SCALES"}, {FieldScale, "DRAWING SCALE"}, {FieldScale, "SCALA"},
	{FieldScale, "MASSSTAB"}, {FieldScale, "MAßSTAB"}, {FieldScale, "MASSTAB"},
	{FieldScale, "MERILO"}, {FieldScale, "SKALA"}, {FieldScale, "ÉCHELLE"}, {FieldScale, "ECHELLE"},
	{FieldScale, "ESCALA"}, {FieldScale, "SCHAAL"},

	{FieldDate, "DATE"}, {FieldDate, "DATA"}, {FieldDate, "DATUM"}, {FieldDate, "TARIKH"},
	{FieldDate, "FECHA"}, {FieldDate, "PLOT DATE"}, {FieldDate, "ISSUE DATE"},

	{FieldRevision, "REV"}, {FieldRevision, "REV NO"}, {FieldRevision, "REVISION"},
	{FieldRevision, "REVISION NO"}, {FieldRevision, "ISSUE"}, {FieldRevision, "VERS"},
	{FieldRevision, "INDEX"}, {FieldRevision, "REVISIONE"}, {FieldRevision, "PINDAAN"},

	{FieldStatus, "STATUS"}, {FieldStatus, "ISSUED FOR"}, {FieldStatus, "ISSUE STATUS"},
	{FieldStatus, "PURPOSE OF ISSUE"}, {FieldStatus, "DRAWING STATUS"}, {FieldStatus, "STAGE"},
	{FieldStatus, "FASE"}, {FieldStatus, "PLANSTATUS"}, {FieldStatus, "LEISTUNGSPHASE"},

	{FieldProject, "PROJECT NO"}, {FieldProject, "PROJECT NUMBER"}, {FieldProject, "PROJECT #"},
	{FieldProject, "JOB NO"}, {FieldProject, "JOB NUMBER"}, {FieldProject, "JOB #"},
	{FieldProject, "CONTRACT NO"}, {FieldProject, "FILE NUMBER"}, {FieldProject, "FILE NO"},
	{FieldProject, "CONSULTANT PROJECT NUMBER"}, {FieldProject, "CONSULTANT FILE NUMBER"},
	{FieldProject, "CAD REF"}, {FieldProject, "PROJ NO"}, {FieldProject, "COMM NO"},
	{FieldProject, "PROJEKT-NR"}, {FieldProject, "PROJEKTNUMMER"}, {FieldProject, "COMMESSA"},
	{FieldProject, "REGION NO"}, {FieldProject, "LOCATION NO"}, {FieldProject, "FED.AID PROJ.NO"},
	{FieldProject, "STAND NO"}, {FieldProject, "NOME FILE"},
	{FieldProject, "PROJECT"}, {FieldProject, "PROGETTO"}, {FieldProject, "PROJEKT"},

	{FieldOther, "DRAWN"}, {FieldOther, "DRAWN BY"}, {FieldOther, "CHECKED"}, {FieldOther, "CHECKED BY"},
	{FieldOther, "DESIGNED"}, {FieldOther, "DESIGNED BY"}, {FieldOther, "APPROVED"}, {FieldOther, "APPROVED BY"},
	{FieldOther, "CLIENT"}, {FieldOther, "OWNER"}, {FieldOther, "ARCHITECT"}, {FieldOther, "ENGINEER"},
	{FieldOther, "SIZE"}, {FieldOther, "FORMATO"}, {FieldOther, "FORMAT"}, {FieldOther, "DIRECTORY"},
	{FieldOther, "CORSO"}, {FieldOther, "DOCENTE"}, {FieldOther, "STUDENTI"}, {FieldOther, "NOTE"},
	{FieldOther, "GEZEICHNET"}, {FieldOther, "GEPRÜFT"}, {FieldOther, "BAUHERR"}, {FieldOther, "IZDELAL"},
	{FieldOther, "MUNICIPAL ADDRESS"}, {FieldOther, "LEGAL ADDRESS"}, {FieldOther, "PROJECT ADDRESS"},
	{FieldOther, "BUILDING DESIGNER"}, {FieldOther, "CONSULTANTS/SEALS"}, {FieldOther, "REVISIONS"},
	{FieldOther, "PLOTTED BY"}, {FieldOther, "ENTERED BY"}, {FieldOther, "FILE NAME"}, {FieldOther, "TIME"},
}

type caption struct {
	kind   string
	tokens []string
}

var captions = func() []caption {
	out := make([]caption, len(captionTable))
	for i, c := range captionTable {
		out[i] = caption{c.kind, strings.Fields(c.tokens)}
	}
	// Longest first, so the first match at a position is the longest.
	sort.SliceStable(out, func(a, b int) bool { return len(out[a].tokens) > len(out[b].tokens) })
	return out
}()

// captionsByFirst lists the captions (their indexes in captions, in order)
// by first word: a word that starts no caption costs one map lookup.
var captionsByFirst = func() map[string][]int {
	m := map[string][]int{}
	for i, c := range captions {
		if len(c.tokens) > 0 {
			m[c.tokens[0]] = append(m[c.tokens[0]], i)
		}
	}
	return m
}()

// ambiguousCaptions are caption words that are also ordinary words of notes
// ("DRAWING TO BE READ WITH…", "SHEET METAL"): they count as
// captions only with a colon or alone in their textRun with their value.
// titleWordValueRe is the word after a bare TITLE that makes it part of
// a title ("TITLE 24", "TITLE SHEET") rather than a caption.
var titleWordValueRe = textmatch.MustCompile(`^(?:\d+|SHEET|PAGE)$`)

var ambiguousCaptions = map[string]bool{"DRAWING": true, "SHEET": true, "DATA": true,
	"ISSUE": true, "INDEX": true, "TITLE": true, "PROJECT": true, "STAGE": true, "TIME": true,
	"NOTE": true, "SIZE": true, "FORMAT": true, "DWG": true, "SHT": true, "HOJA": true, "TAV": true,
	"OWNER": true, "ENGINEER": true, "ARCHITECT": true, "CLIENT": true, "REVISIONS": true, "FASE": true,
	"STATUS": true, "INHALT": true, "PROJEKT": true, "REV": true, "DATE": true, "SCALE": true}

// Field is one title-block field: its caption and the value printed right
// of it, below it or in the next cell, as printed.
type Field struct {
	Kind         string
	Caption      string
	Value        string
	CaptionBox   Box
	ValueBox     Box
	CaptionWords []int
	ValueWords   []int
	// valueLines are the value's lines (a title on two lines is two).
	valueLines []textRun
}

// captionSpan is a caption found inside a phrase: its words [a, b).
type captionSpan struct {
	phrase int // index of the phrase holding it
	a, b   int
	kind   string
	colon  bool
	box    Box
}

// findCaptions returns every caption of the page, textRun by textRun, left to
// right.
func findCaptions(p *pdftext.Page, phrases []textRun) []captionSpan {
	var out []captionSpan
	for pi, ph := range phrases {
		if len(ph.Words) > 24 {
			continue // a paragraph of notes
		}
		var spans []captionSpan
		for i := 0; i < len(ph.Norms); {
			c, n := matchCaption(ph.Norms[i:])
			if n == 0 {
				i++
				continue
			}
			last := p.Words[ph.Words[i+n-1]].Text
			colon := strings.HasSuffix(last, ":") || (i+n < len(ph.Words) && p.Words[ph.Words[i+n]].Text == ":")
			// A caption starts its textRun, follows another caption, or
			// ends with a colon ("DATA: 2017/09/05 SCALA: 1:50").
			afterCaption := len(spans) > 0 && spans[len(spans)-1].b == i
			if i > 0 && !afterCaption && !colon {
				i++
				continue
			}
			if ambiguousCaptions[strings.Join(c.tokens, " ")] && !colon && len(ph.Words)-(i+n) > 5 {
				i++
				continue
			}
			// "TITLE 24" (California's energy standards) and "TITLE
			// SHEET" are sheet titles, not a caption and its value: a
			// bare TITLE without a colon followed by a number or by
			// SHEET is read as words.
			if c.kind == FieldTitle && n == 1 && !colon && i+n < len(ph.Words) && titleWordValueRe.MatchString(ph.Norms[i+n]) {
				i++
				continue
			}
			b := i + n
			if b < len(ph.Words) && p.Words[ph.Words[b]].Text == ":" {
				b++
			}
			box := WordBox(p, ph.Words[i])
			for _, w := range ph.Words[i:b] {
				box = box.Union(WordBox(p, w))
			}
			spans = append(spans, captionSpan{phrase: pi, a: i, b: b, kind: c.kind, colon: colon, box: box})
			i = b
		}
		out = append(out, spans...)
	}
	return out
}

func matchCaption(norms []string) (caption, int) {
	if len(norms) == 0 {
		return caption{}, 0
	}
	if c, n := matchCaptionWords(norms); n > 0 {
		return c, n
	}
	// A caption printed without the space after an abbreviation's full
	// stop ("NO.LUKISAN", "DWG.NO") is its words run together: read as
	// its parts, it spans one printed word fewer per joint.
	if !strings.Contains(norms[0], ".") {
		return caption{}, 0
	}
	parts := strings.Split(norms[0], ".")
	if slices.Contains(parts, "") {
		return caption{}, 0
	}
	c, n := matchCaptionWords(append(parts, norms[1:]...))
	if n < len(parts) {
		return caption{}, 0
	}
	return c, n - len(parts) + 1
}

// matchCaptionWords is matchCaption on words as printed.
func matchCaptionWords(norms []string) (caption, int) {
	// Only the captions that start with this word can match here; tried
	// in the order of captions, so the longest still wins.
	for _, ci := range captionsByFirst[norms[0]] {
		c := captions[ci]
		if len(c.tokens) > len(norms) {
			continue
		}
		ok := true
		for k, t := range c.tokens {
			if norms[k] != t {
				ok = false
				break
			}
		}
		if ok {
			return c, len(c.tokens)
		}
	}
	return caption{}, 0
}

// readFields reads the value of every caption: the words after it in its
// phrase up to the next caption; else the phrase right of it on its row;
// else the lines below it within its column (bounded by the next caption on
// its row).
func readFields(p *pdftext.Page, phrases []textRun, caps []captionSpan) []Field {
	pw, _ := pageScale(p)
	isCaptionWord := map[int]bool{}
	captionPhrase := map[int]bool{}
	for _, c := range caps {
		for _, w := range phrases[c.phrase].Words[c.a:c.b] {
			isCaptionWord[w] = true
		}
		captionPhrase[c.phrase] = true
	}
	valueColumn := valueColumnOf(phrases, caps, captionPhrase, pw)
	// phraseOnlyCaptions: textRun made of nothing but captions.
	var out []Field
	for ci, c := range caps {
		ph := phrases[c.phrase]
		f := Field{Kind: c.kind, CaptionBox: c.box, CaptionWords: ph.Words[c.a:c.b]}
		f.Caption = strings.Join(rawWords(p, ph.Words[c.a:c.b]), " ")
		// 1. Rest of the textRun up to the next caption.
		end := len(ph.Words)
		if ci+1 < len(caps) && caps[ci+1].phrase == c.phrase {
			end = caps[ci+1].a
		}
		if end > c.b {
			v := ph.sub(p, c.b, end)
			if strings.HasSuffix(v.Text, ":") {
				// The caption runs on to a colon ("PROJECT ARCH:"): it is
				// a longer caption of another field, not this one.
				continue
			}
			f.valueLines = []textRun{v}
			out = append(out, f.withValue(p))
			continue
		}
		h := c.box.Height()
		// The column ends where the next caption on the row starts.
		colEnd := c.box.X1 + 0.25*pw
		for _, o := range caps {
			if o.box.X0 > c.box.X1-1 && abs(o.box.CenterY()-c.box.CenterY()) < 0.6*h && o.box.X0 < colEnd {
				colEnd = o.box.X0
			}
		}
		nextOnRow := colEnd < c.box.X1+0.25*pw
		// 2. A textRun right of it on its row, in the caption's cell.
		if !nextOnRow || ph.Words[len(ph.Words)-1] != ph.Words[c.b-1] {
			best := -1
			for qi, q := range phrases {
				if qi == c.phrase || captionPhrase[qi] {
					continue
				}
				if q.Box.X0 < c.box.X1-1 || q.Box.X0 >= colEnd {
					continue
				}
				if q.Box.X0-c.box.X1 > 8*h && valueColumn[ci] != qi {
					continue
				}
				overlap := min(q.Box.Y1, c.box.Y1) - max(q.Box.Y0, c.box.Y0)
				if abs(q.Box.CenterY()-c.box.CenterY()) > 0.35*max(h, q.H) || overlap < 0.6*min(h, q.Box.Height()) {
					continue
				}
				if best < 0 || q.Box.X0 < phrases[best].Box.X0 {
					best = qi
				}
			}
			if best >= 0 {
				f.valueLines = []textRun{phrases[best]}
				out = append(out, f.withValue(p))
				continue
			}
		}
		// 3. Lines below, in the caption's column.
		var rowCaps []captionSpan
		for _, o := range caps {
			if abs(o.box.CenterY()-c.box.CenterY()) < 0.6*h {
				rowCaps = append(rowCaps, o)
			}
		}
		f.valueLines = valueBelow(p, phrases, captionPhrase, c, rowCaps, colEnd, c.kind)
		if len(f.valueLines) > 0 {
			out = append(out, f.withValue(p))
		}
	}
	return out
}

// valueColumnOf finds, for captions stacked in a column, the value column
// beside them: a title block's table of captions on the left and values
// further right, left- or right-aligned, wider apart than a value usually
// sits from its caption. For each caption it gives the first phrase right
// of it on its row (-1 for none), kept only where at least two other
// captions of its column have theirs aligned with it: the table's shape,
// not nearness, makes it the value.
func valueColumnOf(phrases []textRun, caps []captionSpan, captionPhrase map[int]bool, pw float64) []int {
	right := make([]int, len(caps))
	for ci, c := range caps {
		right[ci] = -1
		h := c.box.Height()
		for qi, q := range phrases {
			if qi == c.phrase || captionPhrase[qi] || q.Box.X0 < c.box.X1-1 || q.Box.X0-c.box.X1 > 0.15*pw {
				continue
			}
			overlap := min(q.Box.Y1, c.box.Y1) - max(q.Box.Y0, c.box.Y0)
			if abs(q.Box.CenterY()-c.box.CenterY()) > 0.35*max(h, q.H) || overlap < 0.6*min(h, q.Box.Height()) {
				continue
			}
			if right[ci] < 0 || q.Box.X0 < phrases[right[ci]].Box.X0 {
				right[ci] = qi
			}
		}
	}
	out := make([]int, len(caps))
	for ci, c := range caps {
		out[ci] = -1
		if right[ci] < 0 {
			continue
		}
		v := phrases[right[ci]].Box
		h := c.box.Height()
		aligned := 0
		for cj, o := range caps {
			if cj == ci || right[cj] < 0 || abs(o.box.X0-c.box.X0) > 0.5*h || abs(o.box.CenterY()-c.box.CenterY()) > 12*h {
				continue
			}
			w := phrases[right[cj]].Box
			if abs(w.X0-v.X0) < h || abs(w.X1-v.X1) < h {
				aligned++
			}
		}
		if aligned >= 2 {
			out[ci] = right[ci]
		}
	}
	return out
}

// valueBelow returns the lines under caption c whose left edge lies in its
// column: the nearest row, and for a title the rows that continue it in the
// same type size.
func valueBelow(p *pdftext.Page, phrases []textRun, captionPhrase map[int]bool, c captionSpan, rowCaps []captionSpan, colEnd float64, kind string) []textRun {
	h := c.box.Height()
	// In the column: starting at the caption's left edge or right of it,
	// or centred under it.
	inColumn := func(b Box) bool {
		if b.X0 >= colEnd || b.X1 <= c.box.X0-0.6*h {
			return false
		}
		return b.X0 >= c.box.X0-1.0*h || b.CenterX() >= c.box.X0 && b.CenterX() <= colEnd
	}
	// overlapsColumn: some word of the phrase starts in the column.
	overlapsColumn := func(p *pdftext.Page, q textRun) bool {
		for _, w := range q.Words {
			if inColumn(WordBox(p, w)) {
				return true
			}
		}
		return false
	}
	first := -1
	for qi, q := range phrases {
		// Below: the centre under the caption (a large value's box may
		// start above the caption's baseline), the top close to it.
		if q.Box.CenterY() < c.box.Y1-0.1*h || q.Box.Y0 < c.box.CenterY() || q.Box.Y0-c.box.Y1 > 2.5*max(h, 0.5*q.H) {
			continue
		}
		if qi == c.phrase || !inColumn(q.Box) && !overlapsColumn(p, q) {
			continue
		}
		if first < 0 || q.Box.Y0 < phrases[first].Box.Y0-0.3*h {
			first = qi
		}
	}
	if first < 0 || captionPhrase[first] && startsWithCaption(phrases[first]) {
		return nil
	}
	row := phrases[first]
	// The words of that row whose left edge lies in the column: one phrase
	// may run across two captions' cells ("TX17886.00 - S2.01" under
	// PROJECT No. and DRAWING No.), and a number printed "1 23" in two
	// cells of one caption's column is read whole.
	var words []int
	for qi, q := range phrases {
		if abs(q.Box.CenterY()-row.Box.CenterY()) > 0.4*row.H || abs(q.H-row.H) > 0.3*row.H {
			continue
		}
		if captionPhrase[qi] && startsWithCaption(q) {
			continue
		}
		// A phrase belongs to the caption nearest its first word, up to
		// a word that lies under another caption of the row.
		owner := nearestCaption(WordBox(p, q.Words[0]), rowCaps)
		var owned []int
		var ownedBox Box
		for _, w := range q.Words {
			b := WordBox(p, w)
			for _, o := range rowCaps {
				if o.box != owner && min(b.X1, o.box.X1)-max(b.X0, o.box.X0) > 0.5*b.Width() {
					owner = o.box
				}
			}
			if owner == c.box {
				if len(owned) == 0 {
					ownedBox = b
				}
				owned = append(owned, w)
				ownedBox = ownedBox.Union(b)
			}
		}
		if len(owned) > 0 && inColumn(ownedBox) {
			words = append(words, owned...)
		}
	}
	if len(words) == 0 {
		return nil
	}
	sort.Slice(words, func(a, b int) bool { return WordBox(p, words[a]).X0 < WordBox(p, words[b]).X0 })
	lines := []textRun{makePhrase(p, words)}
	if kind != FieldTitle && kind != FieldNumber {
		return lines
	}
	// Continuation rows: same size, just below, overlapping horizontally.
	maxRows := 4
	if kind == FieldNumber {
		maxRows = 2
	}
	last := lines[0]
	for len(lines) < maxRows {
		next := -1
		for qi, q := range phrases {
			if captionPhrase[qi] || abs(q.H-last.H) > 0.2*last.H {
				continue
			}
			if q.Box.Y0 < last.Box.Y1-0.2*last.H || q.Box.Y0-last.Box.Y1 > 0.9*last.H {
				continue
			}
			if q.Box.X1 < last.Box.X0 || q.Box.X0 > last.Box.X1 || !inColumn(q.Box) && kind == FieldNumber {
				continue
			}
			if next < 0 || q.Box.Y0 < phrases[next].Box.Y0 {
				next = qi
			}
		}
		if next < 0 {
			break
		}
		if kind == FieldNumber && !continuesNumber(last.Text, phrases[next].Text) {
			break
		}
		lines = append(lines, phrases[next])
		last = phrases[next]
	}
	return lines
}

// nearestCaption returns the box of the caption of the row nearest to b
// horizontally: values sit under their caption, left-aligned or centred.
func nearestCaption(b Box, row []captionSpan) Box {
	best, bestD := Box{}, -1.0
	for _, o := range row {
		d := 0.0
		switch cx := b.CenterX(); {
		case cx < o.box.X0:
			d = o.box.X0 - cx
		case cx > o.box.X1:
			d = cx - o.box.X1
		}
		if bestD < 0 || d < bestD {
			best, bestD = o.box, d
		}
	}
	return best
}

// continuesNumber reports whether a second line completes a sheet number
// split over two lines: "A-" over "101", "E-2." over "01".
func continuesNumber(first, second string) bool {
	if first == "" || strings.Contains(second, " ") {
		return false
	}
	switch first[len(first)-1] {
	case '-', '.', '/', '_':
		return second != "" && isASCIIDigit(second[0]) || len(second) > 0 && second[0] >= 'A' && second[0] <= 'Z'
	}
	return false
}

func startsWithCaption(q textRun) bool {
	_, n := matchCaption(q.Norms)
	return n > 0
}

func (f Field) withValue(p *pdftext.Page) Field {
	var raws []string
	f.ValueWords = nil
	for i, l := range f.valueLines {
		if i == 0 {
			f.ValueBox = l.Box
		} else {
			f.ValueBox = f.ValueBox.Union(l.Box)
		}
		raws = append(raws, l.Raw)
		f.ValueWords = append(f.ValueWords, l.Words...)
	}
	sep := " "
	if f.Kind == FieldNumber && len(f.valueLines) > 1 {
		sep = ""
	}
	f.Value = strings.TrimSpace(strings.Trim(strings.Join(raws, sep), ":"))
	return f
}

func rawWords(p *pdftext.Page, words []int) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = p.Words[w].Text
	}
	return out
}
