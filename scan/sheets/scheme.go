package sheets

import (
	"sort"
	"strings"
	"unicode"

	"planreview/scan/pdftext"
)

// numberCandidate is a value that may be a page's sheet number.
type numberCandidate struct {
	page    int // index into the set's pages
	text    string
	words   []int
	box     Box
	cx, cy  float64 // centre as fractions of the page
	weight  float64
	caption bool // read from a sheet-number caption
	ofTotal bool // "1 OF 23": a sequence number printed with the count
	// weak: an identifier not in the page's large type; it joins the
	// slot other sheets' numbers make, never makes one.
	weak  bool
	shape string
}

// Shape is the numbering-scheme shape of a sheet number: runs of letters
// become "A", runs of digits "9", other characters stay (hyphens of any kind
// are "-"): "A-101" and "A-201" share "A-9", "100‐00" is "9-9", "TSDE01" is
// "A9", "JKR/SD/1" is "A/A/9".
func Shape(s string) string {
	var sb strings.Builder
	var last rune
	for _, r := range s {
		var c rune
		switch {
		case unicode.IsLetter(r):
			c = 'A'
		case unicode.IsDigit(r):
			c = '9'
		case r == '\u2010' || r == '\u2011' || r == '\u2012' || r == '\u2013' || r == '\u2212':
			c = '-'
		default:
			c = r
		}
		if c == last && (c == 'A' || c == '9') {
			continue
		}
		sb.WriteRune(c)
		last = c
	}
	return sb.String()
}

// idLike reports whether a token can be a sheet number: short, with a
// digit, made of letters, digits and the separators numbering schemes use,
// and not a date, a dimension, a scale or a measurement.
func idLike(s string) bool { return idShaped(s) && !looksLikeDate(s) }

// idShaped is idLike without the date test: under a sheet-number caption
// "5.1.00" is a number, not the fifth of January.
func idShaped(s string) bool {
	n := len([]rune(s))
	if n == 0 || n > 24 {
		return false
	}
	digits, letters := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			digits++
		case unicode.IsLetter(r):
			letters++
		case strings.ContainsRune(".-/_\u2010\u2011\u2012\u2013", r):
		default:
			return false
		}
	}
	if digits == 0 {
		return false
	}
	u := strings.ToUpper(s)
	// Measurements: 1.2M, 150MM, 25M2, 20FT.
	for _, unit := range []string{"MM", "CM", "M", "M2", "M²", "KM", "FT", "KPA", "MPA", "KN", "SQM", "KG"} {
		if strings.HasSuffix(u, unit) && len(u) > len(unit) {
			rest := u[:len(u)-len(unit)]
			if strings.Trim(rest, "0123456789.,") == "" {
				return false
			}
		}
	}
	return true
}

func looksLikeDate(s string) bool {
	// mayHoldDate is a necessary condition for dateRe; one search gives
	// both whether and how much it matches.
	if !mayHoldDate(s) {
		return false
	}
	loc := dateRe.FindStringIndex(s)
	return loc != nil && loc[1]-loc[0] >= len(s)-1
}

// pageCandidates returns the sheet-number candidates of one page: the values
// of sheet-number captions, and identifiers standing alone in large type in
// the title-block strip (right or bottom edge).
func pageCandidates(p *pdftext.Page, pi int, phrases []textRun, fields []Field) []numberCandidate {
	pw, ph := pageScale(p)
	var out []numberCandidate
	add := func(c numberCandidate) {
		c.page = pi
		c.cx, c.cy = c.box.CenterX()/pw, c.box.CenterY()/ph
		c.shape = Shape(c.text)
		out = append(out, c)
	}
	// Type sizes are those of the text read on this page's baseline: a
	// word set on a quarter turn (read by readTurned) is as tall as it is
	// long, and would make every upright number look small.
	hs := uprightHeights(p, phrases)
	if len(hs) == 0 {
		return nil
	}
	maxH := 0.0
	for _, h := range hs {
		maxH = max(maxH, h)
	}
	medH := hs[len(hs)/2]
	p90H := hs[min(len(hs)-1, int(0.9*float64(len(hs))))]
	projectValues := map[string]bool{}
	for _, f := range fields {
		if f.Kind == FieldProject {
			for _, t := range strings.Fields(f.Value) {
				projectValues[t] = true
			}
		}
	}
	for _, f := range fields {
		if f.Kind != FieldNumber || len(f.ValueWords) == 0 {
			continue
		}
		toks := f.ValueWords
		// A number is a short value ("A-101", "3 OF 12", "TX17886.00 -
		// S2.01"); "SHEET A-501 FOR DETAILS" is a note. A caption in the
		// drawing area counts only with its value in large type.
		if len(toks) > 4 || !isTitleBlockZone(p, f.CaptionBox) && f.ValueBox.Height() < 1.5*medH {
			continue
		}
		// "1 OF 23", "1 DI 3", "1/23": the first is this sheet's place.
		texts := rawWords(p, toks)
		ofTotal := false
		if len(texts) >= 2 {
			last := strings.ToUpper(texts[len(texts)-1])
			if len(texts) == 2 && isInteger(texts[0]) && isInteger(texts[1]) {
				ofTotal = true
			}
			if len(texts) == 3 && isInteger(texts[0]) && isInteger(last) && isOfWord(texts[1]) {
				ofTotal = true
			}
		}
		if ofTotal {
			b := WordBox(p, toks[0])
			add(numberCandidate{text: texts[0], words: toks[:1], box: b, weight: 1.5 + b.Height()/maxH, caption: true, ofTotal: true})
			continue
		}
		// A number split over two lines was joined by the field reader.
		if len(f.valueLines) == 2 && !strings.Contains(f.Value, " ") && idShaped(f.Value) {
			add(numberCandidate{text: f.Value, words: f.ValueWords, box: f.ValueBox, weight: 3 + f.ValueBox.Height()/(2*maxH), caption: true})
			continue
		}
		// "A 101": a designator and its digits printed apart.
		if len(toks) == 2 && isDesignator(texts[0]) && texts[1] != "" && isASCIIDigit(texts[1][0]) && idShaped(texts[1]) {
			b := WordBox(p, toks[0]).Union(WordBox(p, toks[1]))
			add(numberCandidate{text: texts[0] + " " + texts[1], words: toks, box: b, weight: 3.8 + b.Height()/maxH, caption: true})
			continue
		}
		// "CS", "T": a cover or title sheet numbered by letters alone.
		if len(toks) == 1 && isDesignator(texts[0]) && !notANumber[strings.ToUpper(texts[0])] {
			b := WordBox(p, toks[0])
			add(numberCandidate{text: texts[0], words: toks, box: b, weight: 2.5 + b.Height()/maxH, caption: true})
			continue
		}
		for k, w := range toks {
			t := strings.Trim(texts[k], ",;:()[]")
			if !idShaped(t) || projectValues[t] {
				continue
			}
			if isInteger(t) && len(t) > 4 {
				continue
			}
			b := WordBox(p, w)
			weight := 3 + b.Height()/maxH
			// "A-101 REV 2": a mark with letters beats a bare count;
			// "TX17886.00 - S2.01": after a dash the sheet's own part.
			if !isInteger(t) {
				weight += 0.3
			}
			if k >= 2 && (texts[k-1] == "-" || texts[k-1] == "\u2010" || texts[k-1] == "/") {
				weight += 0.2
			}
			add(numberCandidate{text: t, words: []int{w}, box: b, weight: weight, caption: true})
		}
	}
	// Large identifiers alone in their textRun, in the title-block strip.
	for _, q := range phrases {
		if len(q.Words) > 2 || !upright(p, q) {
			continue
		}
		cx, cy := q.Box.CenterX()/pw, q.Box.CenterY()/ph
		if cx < 0.7 && cy < 0.8 {
			continue
		}
		t := strings.Trim(q.Raw, ",;:()[]")
		if len(q.Words) == 2 {
			t = strings.Trim(p.Words[q.Words[0]].Text, ",;:()[]") + strings.Trim(p.Words[q.Words[1]].Text, ",;:()[]")
			if first := p.Words[q.Words[0]].Text; first == "" || !strings.ContainsAny(first[len(first)-1:], "-.") && !strings.HasSuffix(first, "\u2010") {
				continue // two words: only "A-" "101" style splits
			}
		}
		if !idLike(t) || isInteger(t) || projectValues[t] {
			continue
		}
		// A size that says "title block": well above the page's text. Heights
		// are differences of page fractions: one type size may come out a
		// hair apart, so the comparison allows for that.
		rel := q.H / medH
		w := 1 + min(rel/2, 2.5)
		if n, ok := ParseNumber(t); ok && n.Strong {
			w += 0.5
		}
		// Not in the page's largest type (a plan whose room names are
		// set large) it is a weak candidate: a sheet number only where
		// the other sheets' numbers stand, in their shape.
		weak := q.H < p90H*(1-1e-9) || rel < 1.3
		if weak {
			w = min(w/2, 0.5)
		}
		if cx > 0.8 && cy > 0.8 {
			w += 0.3
		}
		add(numberCandidate{text: t, words: q.Words, box: q.Box, weight: w, weak: weak})
	}
	return out
}

// isDesignator: one to four capital letters, the letters-only part of a
// sheet number ("A" of "A 101", a cover sheet's "CS").
func isDesignator(s string) bool {
	if len(s) == 0 || len(s) > 4 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// notANumber are short capital words a number caption may be followed by
// that are not sheet numbers.
var notANumber = map[string]bool{"OF": true, "NO": true, "TBD": true, "NTS": true, "REV": true, "SEE": true,
	"DATE": true, "BY": true, "AND": true, "THE": true, "FOR": true, "PLAN": true, "NONE": true}

func isInteger(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func isOfWord(s string) bool {
	switch strings.ToUpper(s) {
	case "OF", "DI", "VON", "OD", "DE", "/", "VAN", "DARI":
		return true
	}
	return false
}

// slot is a place on the sheet where a set prints its sheet numbers: the
// candidates of several pages at about the same spot, in the same shape.
type slot struct {
	byPage map[int]numberCandidate
	shape  string
	score  float64
	cx, cy float64 // mean centre of its candidates, as fractions of the page
}

// learnScheme picks the set's sheet-number slot: the spot where values of
// one shape change from sheet to sheet. A value repeated on every sheet at
// the same spot (a project or route code) is not a sheet number.
func learnScheme(cands [][]numberCandidate, pages int) (slot, bool) {
	var all []numberCandidate
	for _, cs := range cands {
		all = append(all, cs...)
	}
	// Each seed gathers, per page, the heaviest candidate of its shape
	// near it. The candidates are grouped by shape and keyed once, and a
	// seed's gathering is kept in pick (by page; -1: none) and touched,
	// made into a slot only when it is the best so far.
	keys := make([]string, len(all))
	byShape := map[string][]int{}
	for i, c := range all {
		keys[i] = NumberKey(c.text)
		byShape[c.shape] = append(byShape[c.shape], i)
	}
	pick := make([]int, len(cands))
	for i := range pick {
		pick[i] = -1
	}
	var touched []int
	distinct := map[string]bool{}
	var best, same slot
	found, foundSame := false, false
	for si, seed := range all {
		if seed.weak {
			continue
		}
		touched = append(touched[:0], seed.page)
		pick[seed.page] = si
		for _, ci := range byShape[seed.shape] {
			c := &all[ci]
			if c.page == seed.page || abs(c.cx-seed.cx) > 0.04 || abs(c.cy-seed.cy) > 0.04 {
				continue
			}
			if o := pick[c.page]; o < 0 {
				pick[c.page] = ci
				touched = append(touched, c.page)
			} else if c.weight > all[o].weight {
				pick[c.page] = ci
			}
		}
		clear(distinct)
		sum := 0.0
		for _, pg := range touched {
			distinct[keys[pick[pg]]] = true
			sum += all[pick[pg]].weight
		}
		n := len(touched)
		score := 0.0
		skip := n >= 2 && len(distinct) == 1 // repeated on every sheet: a project or route code
		if !skip {
			score = sum * float64(len(distinct)) / float64(n)
			if pages > 1 && n == 1 && !seed.caption {
				score *= 0.5
			}
		}
		makeSlot := func(score float64) slot {
			s := slot{byPage: make(map[int]numberCandidate, n), shape: seed.shape, score: score}
			for _, pg := range touched {
				c := all[pick[pg]]
				s.byPage[pg] = c
				s.cx += c.cx / float64(n)
				s.cy += c.cy / float64(n)
			}
			return s
		}
		if !skip && (!found || score > best.score) {
			best, found = makeSlot(score), true
		}
		// One value on every sheet, each a number's (under its caption or
		// in the title block's large type): kept in case nothing varies,
		// when it is the set's number printed alike on every sheet.
		if skip && (!foundSame || sum > same.score) && allNumberLike(all, pick, touched) {
			same, foundSame = makeSlot(sum), true
		}
		for _, pg := range touched {
			pick[pg] = -1
		}
	}
	if !found && foundSame {
		return same, true
	}
	return best, found
}

// allNumberLike reports whether every picked candidate reads as a sheet
// number by itself: a number caption's value, or large type in the title
// block.
func allNumberLike(all []numberCandidate, pick []int, touched []int) bool {
	for _, pg := range touched {
		if c := all[pick[pg]]; !c.caption && c.weight < 2.2 {
			return false
		}
	}
	return true
}

// chooseNumbers picks each page's sheet number from its candidates and the
// learned slot; pages outside the slot take their best candidate of the same
// shape, or their best captioned candidate.
func chooseNumbers(cands [][]numberCandidate) []*numberCandidate {
	out := make([]*numberCandidate, len(cands))
	pagesWith := 0
	for _, cs := range cands {
		if len(cs) > 0 {
			pagesWith++
		}
	}
	s, ok := learnScheme(cands, pagesWith)
	for pi, cs := range cands {
		if len(cs) == 0 {
			continue
		}
		sorted := append([]numberCandidate(nil), cs...)
		sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].weight > sorted[b].weight })
		var pick *numberCandidate
		if c, in := s.byPage[pi]; ok && in && (c.caption || len(s.byPage) > 1 || c.weight >= 2.2) {
			pick = &c
		}
		for i := range sorted {
			c := sorted[i]
			if pick == nil && ok && c.shape == s.shape && (c.caption || c.weight >= 2.2) {
				pick = &c
			}
		}
		// At the slot's place in another shape ("A-101A" among "A-101"s).
		for i := range sorted {
			c := sorted[i]
			if pick == nil && ok && len(s.byPage) > 1 && abs(c.cx-s.cx) < 0.04 && abs(c.cy-s.cy) < 0.04 && c.weight >= 2 {
				pick = &c
			}
		}
		for i := range sorted {
			c := sorted[i]
			if pick == nil && (c.caption || (pagesWith == 1 && c.weight >= 2.2)) {
				pick = &c
			}
		}
		// A sheet count ("1 OF 3") yields to an identifier in large type.
		if pick != nil && pick.ofTotal && !(ok && len(s.byPage) > 1) {
			for i := range sorted {
				c := sorted[i]
				if !c.caption && !isInteger(c.text) && c.weight >= 2.2 {
					pick = &c
					break
				}
			}
		}
		out[pi] = pick
	}
	return out
}

// uprightHeights are the heights of the phrases whose words run along
// the page's baseline, in ascending order: what type sizes are judged
// against.
func uprightHeights(p *pdftext.Page, phrases []textRun) []float64 {
	hs := make([]float64, 0, len(phrases))
	for _, q := range phrases {
		if upright(p, q) {
			hs = append(hs, q.H)
		}
	}
	sort.Float64s(hs)
	return hs
}

// upright: the phrase's words run along the page's baseline (within 10
// degrees).
func upright(p *pdftext.Page, q textRun) bool {
	a := p.Words[q.Words[0]].Angle
	return a <= 10 || a >= 350
}
