package sheets

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"planreview/internal/perpage"
	"planreview/scan/layout"
	"planreview/scan/pdftext"
	"planreview/textmatch"
)

// Text layer values of a page.
const (
	TextFull    = "full"
	TextPartial = "partial"
	TextNone    = "none"
)

// PageModel is how the engine reads one sheet: its identity from the title
// block, the fields it read by caption, and the views' own scales. Values are
// as printed; empty when the sheet prints none.
type PageModel struct {
	Page        int // 1-based
	TextLayer   string
	SheetNumber string
	SheetTitle  string
	Scale       string   // the sheet's scale: title block, else its views'
	ViewScales  []string // scales stated under the views, in reading order
	IssueStatus string
	// TitleBlock bounds the title-block fields found; zero when none.
	TitleBlock Box
	Fields     []Field
	// PageFields are the fields ReadFields reads on the page as printed
	// (Fields without those of turned text), kept so a later reader (the
	// chat index) does not read the page again. PageFieldsRead is false
	// when they were not read that way (a sideways sheet is read turned):
	// call ReadFields.
	PageFields     []Field
	PageFieldsRead bool
	// Evidence, as word indexes of the page.
	NumberWords []int
	TitleWords  []int
	ScaleWords  []int
	StatusWords []int
	// Unread lists the title-block fields (FieldNumber) printed where the
	// text layer has no words but strokes shaped like glyphs: text drawn
	// as outlines, which could not be read, rather than left out.
	Unread []string
	// UnreadAt is where each of them is printed (parallel to Unread).
	UnreadAt []Box
	// Outlined are the regions of text drawn as strokes or glyph
	// outlines, with no words of the text layer over them: text that
	// could not be read. Read on a page they make partly outlined only.
	Outlined []layout.OutlinedText
	// PartlyOutlined: the text layer is partial because a meaningful
	// share of the page's text (minOutlinedShare) is drawn as outlines.
	PartlyOutlined bool
	// LostLetters: the text layer is partial because its fonts give no
	// text for a share of the glyphs shown (maxUnmappedGlyphs).
	LostLetters bool
}

// FieldUnread reports whether the field of this kind was found drawn as
// outlines in the title block, so that it could not be read.
func (pm *PageModel) FieldUnread(kind string) bool {
	if pm == nil {
		return false
	}
	for _, k := range pm.Unread {
		if k == kind {
			return true
		}
	}
	return false
}

// SetModel is how the engine reads a file: its document type, what it says
// about its jurisdiction, and each sheet.
type SetModel struct {
	DocType           string
	JurisdictionHints []string
	CodesStated       []string
	// Scheme is the learned numbering shape ("A-9", "9-9"), empty when the
	// set has no recognisable scheme.
	Scheme string
	Pages  []PageModel
}

// pageRead is what one page yields before the set-level decisions.
type pageRead struct {
	phrases []textRun
	fields  []Field
	cands   []numberCandidate
	// pageFields: what ReadFields returns for the page (set when the page
	// is read as printed, not turned).
	pageFields []Field
	// turned: the page's text on a quarter turn, read on its own.
	turned []turnedLayer
}

// ReadSet reads every page of a file and decides, across the set, which
// value on each sheet is its number (the numbering scheme), its title, scale
// and status, then the document type and jurisdiction hints.
func ReadSet(pages []*pdftext.Page) SetModel { return ReadSetLayouts(pages, nil) }

// ReadSetLayouts is ReadSet for a caller that holds the pages' layouts
// (same order; a nil entry, or none, is read from the page's words): the
// set reading's phrases are the layout's runs.
func ReadSetLayouts(pages []*pdftext.Page, layouts []*layout.Page) SetModel {
	reads := make([]pageRead, len(pages))
	cands := make([][]numberCandidate, len(pages))
	// Pages set sideways are read upright; what they yield is mapped back.
	readAs := make([]*pdftext.Page, len(pages))
	turned := make([]*turnedPage, len(pages))
	for i, p := range pages {
		readAs[i] = p
		if p != nil && len(p.Words) > 0 {
			if tp := sideways(p); tp != nil {
				turned[i], readAs[i] = tp, &tp.page
			}
		}
	}
	perpage.Each(len(readAs), func(i int) {
		p := readAs[i]
		if p == nil || len(p.Words) == 0 {
			return
		}
		var runs []layout.Run
		if turned[i] == nil && i < len(layouts) && layouts[i] != nil {
			runs = layouts[i].Runs
		} else {
			runs = pageRuns(p)
		}
		r := pageRead{phrases: phrasesOf(p, runs)}
		r.fields = readFields(p, r.phrases, findCaptions(p, r.phrases))
		r.cands = pageCandidates(p, i, r.phrases, r.fields)
		if turned[i] == nil {
			r.pageFields = r.fields[:len(r.fields):len(r.fields)]
		}
		turnedFields, turnedCands, layers := readTurned(p, i)
		r.turned = layers
		r.fields = append(r.fields, turnedFields...)
		r.cands = append(r.cands, turnedCands...)
		reads[i] = r
		cands[i] = r.cands
	})
	numbers := chooseNumbers(cands)
	repeated := repeatedPhrases(pages, turned, reads)
	m := SetModel{Pages: make([]PageModel, len(pages))}
	perpage.Each(len(pages), func(i int) {
		p := pages[i]
		pm := PageModel{Page: i + 1, TextLayer: TextNone}
		if p != nil {
			pm.Page = p.Number
			pm.TextLayer = textLayer(p)
			pm.LostLetters = pm.TextLayer == TextPartial && lostLetters(p)
			if pm.TextLayer == TextFull {
				var lp *layout.Page
				if i < len(layouts) {
					lp = layouts[i]
				}
				if pm.Outlined = partlyOutlined(p, lp); pm.Outlined != nil {
					pm.TextLayer, pm.PartlyOutlined = TextPartial, true
				}
			}
		}
		if p == nil || len(p.Words) == 0 {
			m.Pages[i] = pm
			return
		}
		p = readAs[i]
		r := reads[i]
		pm.Fields = r.fields
		pm.PageFields, pm.PageFieldsRead = r.pageFields, turned[i] == nil
		pm.TitleBlock = titleBlockBox(p, r.fields)
		if c := numbers[i]; c != nil {
			pm.SheetNumber = strings.TrimSpace(c.text)
			pm.NumberWords = c.words
		}
		pm.SheetTitle, pm.TitleWords = readTitle(p, r, numbers[i], i, repeated)
		pm.Scale, pm.ScaleWords, pm.ViewScales = readScale(p, r)
		pm.IssueStatus, pm.StatusWords = readStatus(p, r)
		if turned[i] != nil {
			turned[i].toRealModel(&pm)
		}
		m.Pages[i] = pm
	})
	shapes := map[string]int{}
	for i, p := range pages {
		if c := numbers[i]; c != nil && p != nil && len(p.Words) > 0 {
			shapes[c.shape]++
		}
	}
	markOutlinedNumbers(pages, m.Pages)
	best := 0
	for s, n := range shapes {
		if n > best || n == best && s < m.Scheme {
			m.Scheme, best = s, n
		}
	}
	m.DocType = classifyDoc(readAs, m.Pages, reads)
	m.JurisdictionHints, m.CodesStated = jurisdictionHints(pages, reads)
	return m
}

// textLayer says how much of the page reads as text: none (a scan or
// outlined text), partial (a little text over a drawing that is otherwise
// raster or outlines, such as stamps only), full.
func textLayer(p *pdftext.Page) string {
	switch {
	case !p.Readable || len(p.Words) == 0:
		return TextNone
	case len(p.Words) < 10:
		return TextPartial
	}
	// Fonts whose glyphs map back to text only in part read as scattered
	// letters ("R LU N NG U P"): most words are a single letter.
	single := 0
	for i := range p.Words {
		w := &p.Words[i] // not a copy of every word
		if r, size := utf8.DecodeRuneInString(w.Text); size > 0 && size == len(w.Text) && unicode.IsLetter(r) {
			single++
		}
	}
	if 5*single > 2*len(p.Words) {
		return TextPartial
	}
	if lostLetters(p) {
		return TextPartial
	}
	return TextFull
}

// lostLetters reports whether a share of the glyphs the page shows
// (maxUnmappedGlyphs) come from fonts that give no text for them: each
// lost glyph is a word missing a letter ("ETAL" for METAL), which no check
// can match, so the page is read only in part.
func lostLetters(p *pdftext.Page) bool {
	return p.Glyphs >= 100 && float64(p.UnmappedGlyphs) >= maxUnmappedGlyphs*float64(p.Glyphs)
}

// maxUnmappedGlyphs is the share of unmapped glyphs a page read in full
// may show: one in fifty is a word in ten missing a letter. Fonts that
// map back to text map (nearly) every glyph: on the corpus a drawing's
// symbols leave at most 1.2% of a sheet's glyphs unmapped (Calgary),
// while the file whose fonts lose letters loses 2.4% to 9.5%.
const maxUnmappedGlyphs = 0.02

// titleBlockBox bounds the fields that identify the sheet.
func titleBlockBox(p *pdftext.Page, fields []Field) Box {
	var b Box
	first := true
	for _, f := range fields {
		switch f.Kind {
		case FieldNumber, FieldTitle, FieldScale, FieldDate, FieldRevision, FieldProject:
		default:
			continue
		}
		if !isTitleBlockZone(p, f.CaptionBox) {
			continue // a caption in the drawing: a view's scale, a note
		}
		u := f.CaptionBox.Union(f.ValueBox)
		if f.ValueBox == (Box{}) {
			u = f.CaptionBox
		}
		if first {
			b, first = u, false
		} else {
			b = b.Union(u)
		}
	}
	return b
}

// phraseKey names a phrase of a page read: its layer (0 upright, k for
// the page's k-th turned layer) and its index there.
type phraseKey struct{ page, layer, phrase int }

// repeatedPhrases marks the title-block-zone phrases, upright or turned,
// printed with the same text at the same place (a cell of a coarse grid
// over the page, as fractions) on most sheets of a set, and on three at
// least: the title block's frame (firm, project, address, captions, a
// north arrow), never a sheet's own title or number, which vary.
func repeatedPhrases(pages []*pdftext.Page, turned []*turnedPage, reads []pageRead) map[phraseKey]bool {
	out := map[phraseKey]bool{}
	n := 0
	for _, r := range reads {
		if len(r.phrases) > 0 {
			n++
		}
	}
	if n < 3 {
		return out
	}
	// Places are compared on the sheet as displayed (a sheet read turned
	// is mapped back), as fractions of it, with a tolerance rather than
	// by grid cell, so a phrase a hair across a cell boundary on one sheet
	// still counts.
	const near = 0.015
	type place struct {
		at     phraseKey
		fx, fy float64 // left and top as fractions of the page
		pw, ph float64 // the page's size: a set's sheets of one size class share a frame
	}
	byText := map[string][]place{}
	for i, r := range reads {
		if len(r.phrases) == 0 {
			continue
		}
		p := pages[i]
		pw, ph := pageScale(p)
		visit := func(layer, qi int, text string, b Box) {
			if turned[i] != nil {
				b = turned[i].toReal(b)
			}
			if isTitleBlockZone(p, b) {
				t := strings.ToUpper(text)
				byText[t] = append(byText[t], place{phraseKey{i, layer, qi}, b.X0 / pw, b.Y0 / ph, pw, ph})
			}
		}
		for qi, q := range r.phrases {
			visit(0, qi, q.Text, q.Box)
		}
		for li, l := range r.turned {
			for qi, q := range l.phrases {
				visit(li+1, qi, q.Text, l.boxes[qi])
			}
		}
	}
	seen := map[int]bool{}
	for _, places := range byText {
		if len(places) < 3 {
			continue
		}
		for _, a := range places {
			clear(seen)
			for _, b := range places {
				if abs(a.fx-b.fx) < near && abs(a.fy-b.fy) < near && abs(a.pw-b.pw) < 0.05*a.pw && abs(a.ph-b.ph) < 0.05*a.ph {
					seen[b.at.page] = true
				}
			}
			if c := len(seen); c >= 3 && c*5 >= n*3 {
				out[a.at] = true
			}
		}
	}
	return out
}

// frameRegion is the sheet's title block as the set shows it: the region
// spanned by the number and the frame's phrases (those repeated across the
// set, upright or turned) in the edge strip the number sits on (right or
// bottom), so that a title block running the length of a strip is one
// region however far its cells are from the number. Zero without a number
// or a frame (a single sheet).
func frameRegion(p *pdftext.Page, r pageRead, num *Box, pageIndex int, repeated map[phraseKey]bool) Box {
	if num == nil || len(repeated) == 0 {
		return Box{}
	}
	var frame []Box
	for qi, q := range r.phrases {
		if repeated[phraseKey{pageIndex, 0, qi}] {
			frame = append(frame, q.Box)
		}
	}
	for li, l := range r.turned {
		for qi := range l.phrases {
			if repeated[phraseKey{pageIndex, li + 1, qi}] {
				frame = append(frame, l.boxes[qi])
			}
		}
	}
	// The title block runs along the edge the number sits on: the frame
	// phrases in that strip bound it.
	pw, ph := pageScale(p)
	ncx, ncy := num.CenterX()/pw, num.CenterY()/ph
	right := ncx > 0.75 && (ncy <= 0.85 || ncx-0.75 > ncy-0.85)
	region := *num
	for _, b := range frame {
		cx, cy := b.CenterX()/pw, b.CenterY()/ph
		if right && cx > 0.75 || !right && cy > 0.8 {
			region = region.Union(b)
		}
	}
	if region == *num {
		return Box{}
	}
	return region
}

// titleRank orders title captions: the explicit ones first.
func titleRank(caption string) int {
	c := normWord(caption)
	switch {
	case strings.Contains(c, "TITLE") || strings.Contains(c, "NAME"):
		return 3
	case c == "DRAWING":
		return 1
	}
	return 2
}

// readTitle returns the sheet title: the value of a title caption, else the
// largest lines of the title block near the sheet number that are not
// repeated on every sheet.
func readTitle(p *pdftext.Page, r pageRead, num *numberCandidate, pageIndex int, repeated map[phraseKey]bool) (string, []int) {
	var best *Field
	for i := range r.fields {
		f := &r.fields[i]
		if f.Kind != FieldTitle || !hasTitleWord(f.Value) || nonTitleRe.MatchString(f.Value) || !isTitleBlockZone(p, f.CaptionBox) {
			continue
		}
		if num != nil && strings.Contains(f.Value, num.text) && len(f.Value) < len(num.text)+3 {
			continue
		}
		// "TITLE 24 COMPLIANCE" names California's energy code, not a sheet.
		if !strings.HasSuffix(f.Caption, ":") && f.Value != "" && isASCIIDigit(f.Value[0]) {
			continue
		}
		// Of two title captions alike, the one nearer the sheet number:
		// the sheet's title sits with its number, a project's title
		// elsewhere in the block.
		if best == nil || titleRank(f.Caption) > titleRank(best.Caption) ||
			num != nil && titleRank(f.Caption) == titleRank(best.Caption) && f.CaptionBox.GapTo(num.box) < best.CaptionBox.GapTo(num.box) {
			best = f
		}
	}
	if best != nil {
		return cleanTitle(best.Value), best.ValueWords
	}
	// The title may be set upright or on a quarter turn with the strip;
	// each layer offers its best stack, the best of them wins.
	var numBox *Box
	numWords := map[int]bool{}
	if num != nil {
		numBox = &num.box
		for _, w := range num.words {
			numWords[w] = true
		}
	}
	region := frameRegion(p, r, numBox, pageIndex, repeated)
	text, words, score, framed := stackTitle(p, r.phrases, numBox, region, numWords, func(qi int) bool { return repeated[phraseKey{pageIndex, 0, qi}] })
	for li, l := range r.turned {
		var vb *Box
		if numBox != nil {
			b := l.turn.toVirtual(*numBox)
			vb = &b
		}
		vRegion := region
		if region != (Box{}) {
			vRegion = l.turn.toVirtual(region)
		}
		vWords := map[int]bool{}
		for vi, w := range l.turn.origin {
			if numWords[w] {
				vWords[vi] = true
			}
		}
		t, ws, sc, fr := stackTitle(&l.turn.page, l.phrases, vb, vRegion, vWords, func(qi int) bool { return repeated[phraseKey{pageIndex, li + 1, qi}] })
		if t != "" && (text == "" || framed && !fr || framed == fr && sc > score) {
			text, words, score, framed = t, l.turn.words(ws), sc, fr
		}
	}
	return text, words
}

// viewWordRe matches the words sheet titles name views with, in the
// languages of captionTable.
var viewWordRe = textmatch.MustCompile(`(?i)\b(?:PLANS?|DIAGRAMS?|ELEVATIONS?|SECTIONS?|DETAILS?|SCHEDULES?|NOTES|LAYOUT|SITE|FLOOR|ROOF|FOUNDATION|FRAMING|COVER|LEGEND|RCP|CEILING|PIANTA|PROSPETTO|SEZIONE|GRUNDRISS|ANSICHT|SCHNITT|TLORIS|PREREZ|POGLED|PELAN|KERATAN|COUPE|FA(?:Ç|C)ADE|PLANTA|ALZADO)\b`)

// titleStack is consecutive lines of one type size, one above the other:
// a title printed on several lines.
type titleStack struct {
	lines []int // phrase indexes, top to bottom
	box   Box
	h     float64
}

// stackTitle reads a title that has no caption: in the title-block zone,
// the stack of lines that best reads as a title, by type size, by naming a
// view, by changing from sheet to sheet, and by nearness to the number.
// Status stamps, captions, numbers and dates are never titles.
func stackTitle(p *pdftext.Page, phrases []textRun, num *Box, region Box, isNumberWord map[int]bool, repeated func(qi int) bool) (title string, words []int, score float64, framed bool) {
	if len(phrases) == 0 {
		return "", nil, 0, false
	}
	pw, ph := pageScale(p)
	eligible := func(qi int) bool {
		q := phrases[qi]
		// A word on another turn is read with its own layer; here it
		// is a phrase as tall as it is long.
		if a := p.Words[q.Words[0]].Angle; a > 10 && a < 350 {
			return false
		}
		// Where it is first (the cheap tests), then what it says.
		if !isTitleBlockZone(p, q.Box) {
			return false
		}
		// With a number, the title sits in its title block.
		if num != nil && (abs(q.Box.CenterX()-num.CenterX()) > 0.3*pw || abs(q.Box.CenterY()-num.CenterY()) > 0.2*ph) && !region.Encloses(q.Box) {
			return false
		}
		// A line of more than ten words is a note, unless it is one the
		// set shows varying inside its title block.
		if n := len(q.Words); n > 16 || n > 10 && (repeated(qi) || !region.Encloses(q.Box)) {
			return false
		}
		if isNumberWord[q.Words[0]] || !hasTitleWord(q.Text) || startsWithCaption(q) || nonTitleRe.MatchString(q.Text) || statusRe.MatchString(q.Text) {
			return false
		}
		// File paths, e-mail addresses and bare identifiers are not titles.
		if strings.ContainsAny(q.Text, `\@`) || len(q.Words) == 1 && idLike(q.Text) || mayHoldDate(q.Text) && 2*len(dateRe.FindString(q.Text)) > len(q.Text) {
			return false
		}
		return true
	}
	used := map[int]bool{}
	var stacks []titleStack
	for qi := range phrases {
		if used[qi] || !eligible(qi) {
			continue
		}
		st := titleStack{lines: []int{qi}, box: phrases[qi].Box, h: phrases[qi].H}
		used[qi] = true
		for {
			last := phrases[st.lines[len(st.lines)-1]]
			next := -1
			for qj, q := range phrases {
				if used[qj] || abs(q.H-st.h) > 0.15*st.h {
					continue
				}
				// Below and overlapping, or beside on the same baseline.
				below := q.Box.Y0 > last.Box.Y1-0.3*st.h && q.Box.Y0-last.Box.Y1 < 0.9*st.h && q.Box.X0 < st.box.X1 && q.Box.X1 > st.box.X0
				beside := abs(q.Box.CenterY()-last.Box.CenterY()) < 0.3*st.h && q.Box.X0 > last.Box.X1 && q.Box.X0-last.Box.X1 < 2.5*st.h
				if !below && !beside {
					continue
				}
				if next < 0 || q.Box.Y0 < phrases[next].Box.Y0 {
					next = qj
				}
			}
			if next < 0 || len(st.lines) >= 6 {
				break
			}
			used[next] = true
			st.lines = append(st.lines, next)
			st.box = st.box.Union(phrases[next].Box)
		}
		stacks = append(stacks, st)
	}
	hs := uprightHeights(p, phrases)
	if len(hs) == 0 {
		return "", nil, 0, false
	}
	medH := hs[len(hs)/2]
	best, bestScore := -1, 0.0
	bestRepeated, bestRepeatedScore := -1, 0.0
	for si, st := range stacks {
		var texts []string
		allRepeated := true
		eligibleAll := true
		for _, qi := range st.lines {
			texts = append(texts, phrases[qi].Text)
			if !repeated(qi) {
				allRepeated = false
			}
			if !eligible(qi) {
				eligibleAll = false
			}
		}
		text := strings.Join(texts, " ")
		if !eligibleAll || statusRe.MatchString(text) {
			continue
		}
		score := st.h / medH
		if viewWordRe.MatchString(text) {
			score += 2
		}
		if num != nil {
			// Nearness to the number is a prior for where the title block
			// is; inside the region the set showed to be the title block,
			// a field far along the strip is still one of its fields.
			d := math.Hypot((st.box.CenterX()-num.CenterX())/pw, (st.box.CenterY()-num.CenterY())/ph)
			if region.Encloses(st.box) {
				d /= 4
			}
			score -= 4 * d
		}
		if st.h < 1.15*medH && !viewWordRe.MatchString(text) {
			continue
		}
		// Printed alike at the same place on most sheets: the title
		// block's frame (firm, project, address, a north arrow), read as
		// the title only where nothing on the sheet varies (a set whose
		// sheets share one title).
		if allRepeated {
			if bestRepeated < 0 || score > bestRepeatedScore {
				bestRepeated, bestRepeatedScore = si, score
			}
			continue
		}
		if best < 0 || score > bestScore {
			best, bestScore = si, score
		}
	}
	if best < 0 || bestScore < 1.5 {
		best, bestScore, framed = bestRepeated, bestRepeatedScore, true
	}
	if best < 0 || bestScore < 1.5 {
		return "", nil, 0, false
	}
	var texts []string
	for _, qi := range stacks[best].lines {
		texts = append(texts, phrases[qi].Raw)
		words = append(words, phrases[qi].Words...)
	}
	return cleanTitle(strings.Join(texts, " ")), words, bestScore, framed
}

func cleanTitle(s string) string {
	return strings.TrimSpace(strings.Trim(strings.TrimSpace(s), ":"))
}

// scaleValueRe accepts what a scale caption's value says: ratios (1:50,
// 1 : 100, M 1:50), architectural scales (1/4" = 1'-0"), and the words for
// none or several (AS NOTED, AS INDICATED, NTS, VARIES).
var scaleValueRe = textmatch.MustCompile(`(?i)\d+\s*:\s*\d+|\d+(?:/\d+)?\s*"\s*=?\s*\d+\s*'|\d+\s*'\s*=\s*\d+(?:/\d+)?\s*"|\b(?:AS\s+)?(?:NOTED|INDICATED|SHOWN)\b|\b(?:NTS|N\.T\.S)\b|\bNOT\s+TO\s+SCALE\b|\bVARIES\b|\bNONE\b|\bFULL\s+SIZE\b`)

// ratioOnlyRe is a textRun that is nothing but a scale: a view's scale
// printed under its title ("1 : 120", `1/4" = 1'-0"`).
var ratioOnlyRe = textmatch.MustCompile(`^(?:M\s*)?1\s*:\s*\d{1,5}(?:\s*(?:@|AT)\s*A\d\b.*)?$|^\d+(?:/\d+)?\s*"\s*=\s*1\s*'\s*-?\s*0\s*"?$`)

var ntsRe = textmatch.MustCompile(`(?i)\bNOT\s+TO\s+SCALE\b|^N\.?T\.?S\.?$`)

// isNotToScale is ntsRe.MatchString with its two forms apart: the short
// one (at most 8 bytes, an "S" possibly U+017F) is tried on short texts
// only, so the long one's literals rule out the other phrases.
func isNotToScale(s string) bool {
	return len(s) <= 8 && ntsShortRe.MatchString(s) || ntsLongRe.MatchString(s)
}

var (
	ntsShortRe = textmatch.MustCompile(`(?i)^N\.?T\.?S\.?$`)
	ntsLongRe  = textmatch.MustCompile(`(?i)\bNOT\s+TO\s+SCALE\b`)
)

// readScale returns the title block's scale (the value of a scale caption),
// else the scale stated by the sheet's views, and every view scale.
func readScale(p *pdftext.Page, r pageRead) (string, []int, []string) {
	var tb string
	var tbWords []int
	var views []string
	var viewWords [][]int
	for _, f := range r.fields {
		if f.Kind != FieldScale {
			continue
		}
		v := f.Value
		if !scaleValueRe.MatchString(v) {
			continue
		}
		if f.CaptionBox.Height() > 0 && isTitleBlockZone(p, f.CaptionBox) && tb == "" {
			tb, tbWords = v, f.ValueWords
			continue
		}
		views = append(views, v)
		viewWords = append(viewWords, f.ValueWords)
	}
	var nts []int
	for qi, q := range r.phrases {
		// A ratio has a digit (both forms of ratioOnlyRe need one), so a
		// phrase without one is not upper-cased and tried; "NOT TO SCALE"
		// counts in the title-block zone only, a cheaper test than the
		// expression, so it goes first.
		if hasASCIIDigit(q.Text) && mayBeRatioOnly(q.Text) && ratioOnlyRe.MatchString(strings.ToUpper(q.Text)) {
			views = append(views, q.Raw)
			viewWords = append(viewWords, q.Words)
		} else if isTitleBlockZone(p, q.Box) && isNotToScale(q.Text) {
			nts = append(nts, qi)
		}
	}
	// "THE DIAGRAM IS NOT TO SCALE" in the title block's notes: the sheet
	// states it has no scale.
	if tb == "" && len(views) == 0 && len(nts) > 0 {
		q := r.phrases[nts[0]]
		m := ntsRe.FindString(q.Text)
		return m, q.Words, nil
	}
	if tb != "" {
		return tb, tbWords, views
	}
	if len(views) > 0 {
		return views[0], viewWords[0], views
	}
	return "", nil, nil
}

func isTitleBlockZone(p *pdftext.Page, b Box) bool {
	pw, ph := pageScale(p)
	return b.CenterX()/pw > 0.65 || b.CenterY()/ph > 0.75
}

// statusRe matches the issue stamps title blocks carry.
var statusRe = textmatch.MustCompile(`(?i)\bISSUED\s+FOR\s+\S.*|\b(?:NOT\s+)?FOR\s+CONSTRUCTION\b|\bCONSTRUCTION\s+(?:DOCUMENTS|SET|ISSUE)\b|\bCONCEPTUAL\s+DESIGN\b|\bPRELIMINARY\b|\bFOR\s+(?:PERMIT|TENDER|APPROVAL|REVIEW|BID|INFORMATION|COMMENT)\b|\bPERMIT\s+SET\b|\bBID\s+SET\b|\bTENDER\s+(?:SET|ISSUE)\b|\bAS[\s-]+BUILT\b|\bRECORD\s+DRAWINGS?\b|\bPRE-?BID\b|\bADDENDUM\b|\bDRAFT\b|\bSUBJECT\s+TO\s+COUNCIL\s+APPROVAL\b|\bAUSF(?:Ü|UE)HRUNGSPLANUNG\b|\bENTWURFSPLANUNG\b|\bGENEHMIGUNGSPLANUNG\b|\bPROGETTO\s+(?:ESECUTIVO|DEFINITIVO|PRELIMINARE)\b`)

// readStatus returns the sheet's issue status: the value of a status
// caption, else the largest issue stamp in the title-block zone.
func readStatus(p *pdftext.Page, r pageRead) (string, []int) {
	var bestText string
	var bestWords []int
	bestH := 0.0
	for _, f := range r.fields {
		if f.Kind == FieldStatus && hasTitleWord(f.Value) && !startsWithCaptionText(f.Value) {
			// "Issued For: PERMIT" is a field; "ISSUED FOR PERMIT" a stamp
			// (or a row of the revision table).
			if strings.HasSuffix(f.Caption, ":") {
				return f.Value, f.ValueWords
			}
			if h := f.CaptionBox.Height(); bestText == "" || h > bestH {
				bestText, bestWords, bestH = f.Caption+" "+f.Value, append(append([]int(nil), f.CaptionWords...), f.ValueWords...), h
			}
		}
	}
	// A stamp on one line, or on two ("NOT FOR" over "CONSTRUCTION",
	// "CONSTRUCTION" over "DOCUMENTS"): the largest wins.
	for qi, q := range r.phrases {
		if !isTitleBlockZone(p, q.Box) || len(q.Words) > 10 || q.H <= bestH {
			continue
		}
		text, words := q.Raw, q.Words
		if !statusRe.MatchString(q.Text) && !stampOpeners[q.Norms[len(q.Norms)-1]] {
			continue
		}
		if next := lineBelow(r.phrases, qi); next >= 0 {
			joined := q.Text + " " + r.phrases[next].Text
			if m := statusRe.FindString(joined); m != "" && len(m) > len(statusRe.FindString(q.Text)) {
				text = q.Raw + " " + r.phrases[next].Raw
				words = append(append([]int(nil), q.Words...), r.phrases[next].Words...)
			}
		}
		if !statusRe.MatchString(text) {
			continue
		}
		bestText, bestWords, bestH = text, words, q.H
	}
	// A stamp in the type of the revision rows is one of those rows; the
	// newest row then says more than the first stamp-like one.
	if rev, revWords := latestRevision(p, r.phrases); rev != "" && (bestText == "" || bestH <= 1.2*WordBox(p, revWords[0]).Height()) {
		return rev, revWords
	}
	return bestText, bestWords
}

// stampOpeners end the first line of a stamp printed on two lines.
var stampOpeners = map[string]bool{"FOR": true, "ISSUED": true, "CONSTRUCTION": true, "NOT": true, "BID": true,
	"PERMIT": true, "TENDER": true, "RECORD": true, "AS": true, "SUBJECT": true, "CONCEPTUAL": true, "PRELIMINARY": true}

// lineBelow returns the phrase printed right under phrase qi in the same
// type size, overlapping it horizontally, or -1.
func lineBelow(phrases []textRun, qi int) int {
	q := phrases[qi]
	next := -1
	for qj, o := range phrases {
		if qj == qi || abs(o.H-q.H) > 0.15*q.H || o.Box.Y0 < q.Box.Y1-0.2*q.H || o.Box.Y0-q.Box.Y1 > 0.9*q.H {
			continue
		}
		if o.Box.X0 >= q.Box.X1 || o.Box.X1 <= q.Box.X0 {
			continue
		}
		if next < 0 || o.Box.Y0 < phrases[next].Box.Y0 {
			next = qj
		}
	}
	return next
}

func startsWithCaptionText(s string) bool {
	f := strings.Fields(s)
	norms := make([]string, len(f))
	for i, w := range f {
		norms[i] = normWord(w)
	}
	_, n := matchCaption(norms)
	return n > 0
}
