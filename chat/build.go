package chat

import (
	"planreview/internal/perpage"
	"slices"
	"strings"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
	"planreview/scan/sheets"
	"planreview/store"
)

// SourcePage is one extracted page with what the pipeline decided about
// it: the sheet it is (as the findings name it) and its title-block fields.
type SourcePage struct {
	FileID      string
	Text        *pdftext.Page
	SheetNumber string
	SheetType   string
	SheetTitle  string
	Fields      []sheets.Field
	// Layout is the page's layout when the caller has it (nil: Build
	// analyses the page itself).
	Layout *layout.Page
}

// Passage bounds: a passage is at most passageLines lines and about
// passageWords words of one block, small enough that a match in it is a
// match in what a reader would quote.
const (
	passageLines = 4
	passageWords = 60
	maxRowChars  = 400
)

// Build indexes a scanned set. Each page's layout (layout.Analyze) gives its
// lines, blocks, tables and label/value pairs; findings are the delivered
// ones, heldTopics those withheld.
func Build(pages []SourcePage, findings []store.Finding, heldTopics []string) *Index {
	ix := BuildPages(pages)
	ix.AddFindings(findings, heldTopics)
	return ix
}

// BuildPages indexes a set's pages alone: what the review decides
// (findings, held topics) is added after with AddFindings, so the pages
// can be indexed while the review runs.
func BuildPages(pages []SourcePage) *Index {
	ix := pagesUnits(pages)
	ix.buildPostings()
	return ix
}

// BuildPagesEncoding is BuildPages and the index's StartEncode, with the
// postings built and encoded while the pages and units are written, and
// the pages' text made for the facts AddFact checks: a scan does it while its checks
// run, and what is left when they end runs on every core.
func BuildPagesEncoding(pages []SourcePage) (*Index, *Encoding, error) {
	ix := pagesUnits(pages)
	var e *Encoding
	var err error
	var tail []byte
	var factsAt, facts int
	perpage.Each(3, func(i int) {
		switch i {
		case 0:
			ix.buildPostings()
			tail, factsAt, facts = ix.encodePostings(nil)
		case 1:
			e, err = ix.startPages()
		case 2:
			ix.pageTexts()
		}
	})
	if err != nil {
		return nil, nil, err
	}
	e.tail, e.factsAt, e.facts = tail, factsAt, facts
	return ix, e, nil
}

// pagesUnits indexes a set's pages without the postings.
func pagesUnits(pages []SourcePage) *Index {
	// Each page is indexed on its own, on every core, and the pages are
	// put together in order: a page's units and facts point at it alone.
	type pageIndex struct {
		ix    Index
		title coverTitle
		cover bool
	}
	parts := make([]pageIndex, len(pages))
	first := make([]bool, len(pages))
	firstOfFile := map[string]bool{}
	kinds := newKindMemo()
	room := make([]int, len(pages)) // units each page is expected to make
	units := 0
	for i, sp := range pages {
		first[i] = !firstOfFile[sp.FileID]
		firstOfFile[sp.FileID] = true
		parts[i].ix.kinds = kinds
		room[i] = pageUnits(sp)
		units += room[i]
	}
	// The pages' units are made in one array, each page in its own room,
	// and moved down to follow each other when the pages are put
	// together, rather than copied to a second array. A page that
	// outgrows its room moves to an array of its own; then the pages are
	// put together in a new array (moving down would overwrite rooms not
	// yet moved).
	ix := &Index{Units: make([]Unit, 0, units)}
	at := 0
	for i := range pages {
		parts[i].ix.Units = ix.Units[at : at : at+room[i]]
		at += room[i]
	}
	perpage.Each(len(pages), func(i int) {
		parts[i].title, parts[i].cover = parts[i].ix.addPage(pages[i], first[i])
	})
	for i := range parts {
		if len(parts[i].ix.Units) > room[i] {
			ix.Units = make([]Unit, 0, units+len(parts[i].ix.Units))
			break
		}
	}
	var titles []coverTitle
	for i := range parts {
		part := &parts[i].ix
		at := len(ix.Pages)
		ix.Pages = append(ix.Pages, part.Pages...)
		from := len(ix.Units)
		ix.Units = append(ix.Units, part.Units...) // memmove: a room may overlap where it goes
		for k := range ix.Units[from:] {
			ix.Units[from+k].Page += at
		}
		for _, f := range part.Facts {
			f.Page += at
			ix.Facts = append(ix.Facts, f)
		}
		if parts[i].cover {
			t := parts[i].title
			t.page += at
			titles = append(titles, t)
		}
	}
	for _, t := range titles {
		ix.addCoverTitle(t)
	}
	ix.kinds = nil // only for building
	return ix
}

// pageUnits is about how many units a page makes (one per line, pair,
// field and table row), so that its units are not regrown.
func pageUnits(sp SourcePage) int {
	n := 4
	if lp := sp.Layout; lp != nil {
		n += len(lp.Lines) + len(lp.Pairs) + len(sp.Fields)
		for _, t := range lp.Tables {
			n += len(t.Rows)
		}
	} else if sp.Text != nil {
		n += len(sp.Text.Words) / 2
	}
	return n
}

// AddFindings adds the review's delivered findings and the topics it
// withheld to an index of the set's pages.
func (ix *Index) AddFindings(findings []store.Finding, heldTopics []string) {
	ix.HeldTopics = heldTopics
	for _, f := range findings {
		cf := Finding{ID: f.ID, Severity: f.Severity, Title: f.Title, Rationale: f.Rationale,
			GoverningRefs: f.GoverningRefs, Topic: f.Topic, Source: f.Source, Page: ix.PageIndex(f.FileID, f.Sheet.Page)}
		for _, a := range f.Anchors {
			if t := normalizeSpace(a.Text); t != "" {
				cf.Anchors = append(cf.Anchors, t)
			}
		}
		ix.Findings = append(ix.Findings, cf)
	}
}

// pageWords maps a page's words to their place in its reading lines.
type pageWords struct {
	words []pdftext.Word
	line  []int // word → line index (-1: in no line)
	pos   []int // word → position in its line
	lens  []int // line → words
}

func (ix *Index) addPage(sp SourcePage, firstOfFile bool) (coverTitle, bool) {
	p := Page{FileID: sp.FileID, SheetNumber: sp.SheetNumber, SheetType: sp.SheetType, SheetTitle: sp.SheetTitle}
	if sp.Text == nil {
		ix.Pages = append(ix.Pages, p)
		return coverTitle{}, false
	}
	p.Page = sp.Text.Number
	pi := len(ix.Pages)
	lp := sp.Layout
	if lp == nil {
		lp = layout.Analyze(sp.Text)
	}
	pw := pageWords{words: lp.Words, line: make([]int, len(lp.Words)), pos: make([]int, len(lp.Words))}
	for i := range pw.line {
		pw.line[i] = -1
	}
	// Lines in reading order: block by block, then any line no block holds.
	order := make([]int, 0, len(lp.Lines))
	inBlock := make([]bool, len(lp.Lines))
	for _, b := range lp.Blocks {
		for _, li := range b.Lines {
			if li >= 0 && li < len(lp.Lines) && !inBlock[li] {
				inBlock[li] = true
				order = append(order, li)
			}
		}
	}
	for li := range lp.Lines {
		if !inBlock[li] {
			order = append(order, li)
		}
	}
	lineOf := make([]int, len(lp.Lines))     // layout line → page line
	heading := make([]string, len(lp.Lines)) // page line → first line of its block
	p.Lines = make([]string, 0, len(lp.Lines))
	pw.lens = make([]int, 0, len(lp.Lines))
	var texts []string
	for _, li := range order {
		texts = texts[:0]
		for _, w := range lp.Lines[li].Words {
			if w < 0 || w >= len(lp.Words) || pw.line[w] >= 0 {
				continue
			}
			t := strings.TrimSpace(lp.Words[w].Text)
			if t == "" || hasLineBreakOrTab(t) {
				continue
			}
			pw.line[w], pw.pos[w] = len(p.Lines), len(texts)
			texts = append(texts, t)
		}
		lineOf[li] = len(p.Lines)
		pw.lens = append(pw.lens, len(texts))
		p.Lines = append(p.Lines, strings.Join(texts, " "))
	}
	for _, b := range lp.Blocks {
		var first string
		for _, li := range b.Lines {
			if li >= 0 && li < len(lp.Lines) {
				pl := lineOf[li]
				if first == "" {
					first = p.Lines[pl]
				}
				heading[pl] = first
			}
		}
	}
	// The last line of each line's block (page lines of a block are
	// consecutive).
	blockLast := make([]int, len(p.Lines))
	for i := range blockLast {
		blockLast[i] = i
	}
	for _, b := range lp.Blocks {
		first, last := -1, -1
		for _, li := range b.Lines {
			if li >= 0 && li < len(lp.Lines) {
				pl := lineOf[li]
				if first < 0 || pl < first {
					first = pl
				}
				last = max(last, pl)
			}
		}
		for pl := first; pl >= 0 && pl <= last; pl++ {
			blockLast[pl] = last
		}
	}
	ix.Pages = append(ix.Pages, p)
	// headingOf is the heading of the first of words in a line.
	headingOf := func(words []int) (string, bool) {
		for _, w := range words {
			if w >= 0 && w < len(pw.line) && pw.line[w] >= 0 {
				return heading[pw.line[w]], true
			}
		}
		return "", false
	}
	contextOf := func(words []int) string {
		h, _ := headingOf(words)
		return h
	}

	// Passages: consecutive lines of one block.
	for _, b := range lp.Blocks {
		first, words := -1, 0
		flush := func(last int) {
			if first >= 0 {
				ix.addPassage(pi, first, last, heading[first])
			}
			first, words = -1, 0
		}
		prev := -1
		for _, li := range b.Lines {
			if li < 0 || li >= len(lp.Lines) {
				continue
			}
			pl := lineOf[li]
			if p.Lines[pl] == "" {
				continue
			}
			n := pw.lens[pl]
			if first >= 0 && (pl != prev+1 || pl-first+1 > passageLines || words+n > passageWords) {
				flush(prev)
			}
			if first < 0 {
				first = pl
			}
			words += n
			prev = pl
		}
		flush(prev)
	}
	for li := range lp.Lines {
		if !inBlock[li] && p.Lines[lineOf[li]] != "" {
			ix.addPassage(pi, lineOf[li], lineOf[li], "")
		}
	}
	firstPair := len(ix.Units)
	for _, pr := range lp.Pairs {
		ex := pw.text(pr.LabelWords, pr.ValueWords)
		if ex == "" || strings.TrimSpace(pr.Value) == "" {
			continue
		}
		label := normalizeSpace(pr.Label)
		// A caption over two lines ("Total water required" over
		// "(including hose streams): 499.965 GPM"): a label opening its
		// line with a bracket or a small letter goes on from the line
		// before, unless that line ends a caption or a sentence.
		if len(pr.LabelWords) > 0 && (strings.HasPrefix(label, "(") || label != "" && label[0] >= 'a' && label[0] <= 'z') {
			if w := pr.LabelWords[0]; w >= 0 && w < len(pw.line) && pw.line[w] > 0 && pw.pos[w] == 0 {
				prev := strings.TrimSpace(p.Lines[pw.line[w]-1])
				if prev != "" && !strings.HasSuffix(prev, ":") && !strings.HasSuffix(prev, ".") && layout.WordCount(prev) <= 6 &&
					heading[pw.line[w]-1] == heading[pw.line[w]] {
					label = normalizeSpace(prev + " " + label)
					ex = prev + " " + ex
				}
			}
		}
		ix.Units = append(ix.Units, Unit{Kind: KindPair, Page: pi, Label: label,
			Value: normalizeSpace(pr.Value), Excerpt: ex, context: contextOf(pr.LabelWords)})
	}
	pairUnits := ix.Units[firstPair:len(ix.Units):len(ix.Units)]
	fieldUnits := make([]Unit, len(sp.Fields))
	for i, f := range sp.Fields {
		ex := pw.text(f.CaptionWords, f.ValueWords)
		if ex != "" && strings.TrimSpace(f.Value) != "" {
			u := Unit{Kind: KindField, Page: pi,
				Label: strings.TrimRight(normalizeSpace(f.Caption), ": "), Value: normalizeSpace(f.Value), Excerpt: ex}
			fieldUnits[i] = u
			ix.Units = append(ix.Units, u)
		}
	}
	boxes := make([]layout.Box, len(p.Lines))
	angles := make([]float64, len(p.Lines))
	for li := range lp.Lines {
		if pl := lineOf[li]; pl >= 0 && pl < len(boxes) {
			boxes[pl], angles[pl] = lp.Lines[li].Box, lp.Lines[li].Angle
		}
	}
	ix.labelFacts(pi, blockLast, boxes, angles, pairUnits, sp.Fields, fieldUnits)
	for _, t := range lp.Tables {
		for _, r := range t.Rows {
			var cells []string
			size, values := 0, 0
			for _, c := range r.Cells {
				if ct := pw.text(c.Words, nil); ct != "" {
					cells = append(cells, ct)
					size += len(ct) + len(CellSep)
					if !strings.HasSuffix(ct, ":") {
						values++
					}
				}
			}
			// A row of captions only ("Project Number: | Sheet:") states
			// nothing; its text is still searchable as passages.
			if len(cells) < 2 || values == 0 || size > maxRowChars {
				continue
			}
			ex := strings.Join(cells, CellSep)
			var context string // of the row's first word in a line
			for _, c := range r.Cells {
				var found bool
				if context, found = headingOf(c.Words); found {
					break
				}
			}
			ix.Units = append(ix.Units, Unit{Kind: KindRow, Page: pi, Value: ex, Excerpt: ex, context: context})
		}
	}
	if !firstOfFile {
		return coverTitle{}, false
	}
	return largestText(lp, lineOf, pi, p.Lines)
}

func hasLineBreakOrTab(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\n' || c == '\r' || c == '\t' {
			return true
		}
	}
	return false
}

func (ix *Index) addPassage(pi, first, last int, context string) {
	lines := ix.Pages[pi].Lines
	ex := strings.Join(lines[first:last+1], " ")
	u := Unit{Kind: KindPassage, Page: pi, First: first, Last: last, Excerpt: ex}
	// A passage after the first of its block carries the block's heading.
	if context != lines[first] {
		u.context = context
	}
	ix.Units = append(ix.Units, u)
}

// text is the page text of some words (of one or two lists): runs of
// words that follow each other in the page's reading lines become one
// fragment; fragments are joined by Sep. Words in no line are left out.
func (pw pageWords) text(words, more []int) string {
	type at struct{ line, pos, w int }
	ats := make([]at, 0, len(words)+len(more))
	for _, list := range [2][]int{words, more} {
		for _, w := range list {
			if w >= 0 && w < len(pw.line) && pw.line[w] >= 0 {
				ats = append(ats, at{pw.line[w], pw.pos[w], w})
			}
		}
	}
	if len(ats) == 0 {
		return ""
	}
	slices.SortFunc(ats, func(a, b at) int {
		if a.line != b.line {
			return a.line - b.line
		}
		return a.pos - b.pos
	})
	var sb strings.Builder
	prev := at{line: -1}
	for _, a := range ats {
		if a.w == prev.w && prev.line >= 0 {
			continue // the same word twice (a word is at one place)
		}
		if prev.line >= 0 {
			follows := a.line == prev.line && a.pos == prev.pos+1 ||
				a.line == prev.line+1 && a.pos == 0 && prev.pos == pw.lens[prev.line]-1
			if follows {
				sb.WriteByte(' ')
			} else {
				sb.WriteString(Sep)
			}
		}
		sb.WriteString(strings.TrimSpace(pw.words[a.w].Text))
		prev = a
	}
	return sb.String()
}
