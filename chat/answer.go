package chat

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"planreview/scan/sheets"
	"planreview/textmatch"
)

// NotSaid is the answer when the plans hold nothing relevant; it carries no
// citation.
const NotSaid = "The plans do not say."

// Citation points at text that exists on one page (the contract's chat
// citation, with the file and sheet number added).
type Citation struct {
	Page        int    `json:"page"`
	SheetType   string `json:"sheetType"`
	Excerpt     string `json:"excerpt"`
	FileID      string `json:"fileId"`
	SheetNumber string `json:"sheetNumber"`
}

// Message is one earlier turn of the conversation.
type Message struct {
	Role    string `json:"role"` // user or assistant
	Content string `json:"content"`
}

// Answer is what chat returns. Source says who wrote the sentences:
// "builtin" (the deterministic answerer) or "model".
type Answer struct {
	Answer    string     `json:"answer"`
	Citations []Citation `json:"citations"`
	Source    string     `json:"-"`
}

// Relevance: a unit answers a question only when it holds at least
// minCoverage of the question's weight (summed IDF of its terms; terms the
// plans never use weigh most), and companions must score within
// companionShare of the best unit.
const (
	minCoverage    = 0.5
	companionShare = 0.5
	// companionCoverage is the share of the best unit's coverage a
	// companion must hold.
	companionCoverage = 0.75
	// fullCompanionShare is the share of the best unit's score a unit
	// holding as much of the question as the best one must reach.
	fullCompanionShare = 0.3
	maxUnits           = 4
	maxPages           = 3
	maxExcerpt         = 300
	maxFindings        = 10
	maxSheets          = 8
)

var stopWords = makeStopWords()

func makeStopWords() map[string]bool {
	stop := map[string]bool{}
	for _, w := range strings.Fields(`a an the of on in at for to from by with and or but not no is are was were be been
	does do did doe what what's whats which who whom whose when where why how many much there their this that these those it its
	show shown state stated say said tell me us we i you your my our about any all some please can could would should will
	plan sheet drawing page set document give list find see tell know value number mention mentioned indicate indicated
	have has had than then also only into per as if so such same other each
	use used using far apart may might must shall provide provided
	hold holds keep keeps get gets make makes need needs go goes`) {
		stop[stem(w)] = true
		stop[w] = true
	}
	return stop
}

var findingWords = map[string]bool{"finding": true, "issue": true, "problem": true, "violation": true,
	"deficiency": true, "comment": true, "correction": true, "flag": true, "flagg": true, "noncompliance": true,
	"non-compliance": true, "review": true, "error": true, "fail": true}

// Findings about missing sheets or documents, and about pages that could
// not be read, say so in their own words.
var (
	missingSheetWords  = textmatch.MustCompile(`(?i)\b(no\s+sheet|is\s+not\s+in\s+the\s+(submitted\s+)?set|not\s+in\s+the\s+submitted|not\s+found\s+in\s+the\s+set|absent\s+from)\b`)
	unreadFindingWords = textmatch.MustCompile(`(?i)\b(could\s+not\s+be\s+read|unreadable|no\s+(readable\s+)?text|not\s+(machine-)?readable|scanned|illegible|ocr)\b`)
)

var severities = []string{"critical", "high", "medium", "low", "info"}

// terms are a question's content terms.
func contentTerms(q string) []string {
	var out []string
	for _, t := range Tokens(q) {
		if !stopWords[t] {
			out = append(out, t)
		}
	}
	return out
}

// noteStart is a line opening a numbered or lettered note ("4. ALL", "B) ").
var noteStart = textmatch.MustCompile(`^(\(?[0-9]{1,3}|[A-Z])[.)]\s`)

// labelValueLine is a short "LABEL: VALUE" line.
var labelValueLine = textmatch.MustCompile(`^\s*[^:]{1,30}:\s*\S+(\s+\S+){0,3}\s*$`)

var pageRef = textmatch.MustCompile(`(?i)\bpages?\s+(\d{1,4})\b`)

var whichSheets = textmatch.MustCompile(`(?i)\b(which|what)\s+(sheets?|pages?|drawings?)\b`)

// Answer answers a question from the index alone, deterministically.
func (ix *Index) Answer(question string, history []Message) Answer {
	q := ix.parse(question, history)
	if q.findings {
		return ix.answerFindings(q)
	}
	if len(q.intent.kinds) > 0 {
		if a, ok := ix.answerProjectFacts(q); ok {
			return a
		}
	}
	if a, ok := ix.answerAbbreviation(question); ok {
		return a
	}
	if len(q.terms) == 0 {
		return Answer{Answer: NotSaid, Citations: []Citation{}, Source: "builtin"}
	}
	hits := ix.relevant(q)
	if len(hits) == 0 {
		return Answer{Answer: NotSaid, Citations: []Citation{}, Source: "builtin"}
	}
	if q.which {
		return ix.answerWhich(q, hits)
	}
	return ix.answerFacts(q, hits)
}

type query struct {
	text     string
	terms    []string
	findings bool
	intent   intent
	severity map[string]bool
	pages    map[int]bool // page indexes named by sheet number or page
	which    bool
}

// reviewTerms are words of a question about the review that say what kind
// of answer is wanted, never what it is about.
var reviewTerms = textmatch.MustCompile(`^(summar\w*|overview|found|find|miss\w*|absen\w*|omit\w*|lack\w*|read\w*|unreadable|illegible|scanned|text|key|main|major|top|overall|count|total|number|sheets?|documents?|pages?|included|provided|submitted|set|ones?|severity|severities|open|raised|reported|info\w*|could|can|cannot|couldn|t|be|s)$`)

// scope reads the pages a question names, by sheet number or page number;
// the sheet numbers' own terms are returned so they are not searched for.
func (ix *Index) scope(question string, pages map[int]bool) map[string]bool {
	sheetTerms := map[string]bool{}
	keys := map[string][]int{}
	for i, p := range ix.Pages {
		if k := sheets.NumberKey(p.SheetNumber); k != "" {
			keys[k] = append(keys[k], i)
		}
	}
	for _, m := range pageRef.FindAllStringSubmatch(question, -1) {
		n, _ := strconv.Atoi(m[1])
		for i, p := range ix.Pages {
			if p.Page == n {
				pages[i] = true
			}
		}
	}
	for _, raw := range strings.FieldsFunc(question, func(r rune) bool { return r == ' ' || r == ',' || r == '?' || r == ';' || r == '"' }) {
		raw = strings.Trim(raw, ".:()'")
		if pis, ok := keys[sheets.NumberKey(raw)]; ok && raw != "" && strings.ContainsAny(raw, "0123456789") {
			for _, pi := range pis {
				pages[pi] = true
			}
			for _, t := range Tokens(raw) {
				sheetTerms[t] = true
			}
		}
	}
	return sheetTerms
}

func (ix *Index) parse(question string, history []Message) query {
	q := query{text: question, severity: map[string]bool{}, pages: map[int]bool{}}
	q.which = whichSheets.MatchString(question)
	q.intent = readIntent(question)
	sheetTerms := ix.scope(question, q.pages)
	for _, m := range severityRe.FindAllString(question, -1) {
		m = strings.ToLower(m)
		if strings.HasPrefix(m, "info") {
			m = "info"
		}
		q.severity[m] = true
	}
	// A follow-up that names no subject of its own ("and on A1.1?", "and
	// the medium ones?") asks what the last question asked, with its own
	// sheet or severity: the intent is carried over, never the words.
	if q.intent.empty() && isFollowUp(question, len(q.pages) > 0 || len(q.severity) > 0) {
		for i := len(history) - 1; i >= 0; i-- {
			if history[i].Role == "user" {
				q.intent = readIntent(history[i].Content)
				if q.intent.review && len(q.severity) == 0 {
					for _, m := range severityRe.FindAllString(history[i].Content, -1) {
						q.severity[strings.ToLower(m)] = true
					}
				}
				break
			}
		}
	}
	q.findings = q.intent.review || q.intent.missing || q.intent.unread
	for _, t := range contentTerms(question) {
		switch {
		case sheetTerms[t]:
		case q.findings && (findingWords[t] || contains(severities, t) || reviewTerms.MatchString(t)):
		default:
			q.terms = append(q.terms, t)
		}
	}
	if !q.findings {
		// Severity words are ordinary words outside a question about the
		// review ("how high is the guard").
		q.severity = map[string]bool{}
	}
	if len(q.intent.kinds) > 0 {
		// "How many stories is the house?": the word naming the building
		// the set is about names no text to find.
		kept := q.terms[:0]
		for _, t := range q.terms {
			if !subjectWords[t] {
				kept = append(kept, t)
			}
		}
		q.terms = kept
	}
	q.terms = uniq(q.terms)
	return q
}

// subjectWords name the building a set is about.
var subjectWords = map[string]bool{"house": true, "building": true, "home": true, "dwelling": true,
	"residence": true, "structure": true, "project": true}

// isFollowUp: a question that opens as a follow-up ("and …", "what
// about …"), or one that only names a sheet or a severity.
func isFollowUp(question string, scoped bool) bool {
	if followUp.MatchString(question) {
		return true
	}
	return scoped && len(contentTerms(question)) <= 3
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// relevant ranks units and keeps those that answer the question: BM25
// order, the best unit and its companions within companionShare of its
// score, and only when together they hold at least minCoverage of the
// question's weight (a question about the capital of France matches
// nothing, or a lone word of it, and is answered "The plans do not say.").
func (ix *Index) relevant(q query) []hit {
	ranked := ix.search(q.terms, 200)
	var out []hit
	for _, h := range ranked {
		if len(q.pages) > 0 && !q.pages[ix.Units[h.unit].Page] {
			continue
		}
		out = append(out, h)
	}
	if len(out) == 0 {
		return nil
	}
	// The weight counted is that of the units an answer would rest on:
	// the best and the companions holding nearly as much of the question
	// (a companion sharing only a generic word, "project", adds none).
	var matched uint64
	for _, h := range out {
		if h.score < out[0].score*companionShare {
			break
		}
		if h.coverage+1e-9 >= out[0].coverage*companionCoverage {
			matched |= h.matched
		}
	}
	if ix.coverage(q.terms, matched)+1e-9 < minCoverage {
		return nil
	}
	return out
}

// coverage is the share of the terms' IDF weight that matched holds.
func (ix *Index) coverage(terms []string, matched uint64) float64 {
	terms = uniq(terms)
	total, got := 0.0, 0.0
	for i, t := range terms {
		w := ix.idf(t)
		total += w
		if i < 64 && matched&(1<<i) != 0 {
			got += w
		}
	}
	if total == 0 {
		return 0
	}
	return got / total
}

// sheetName names a page in a sentence: "sheet A0.0 (CODE ANALYSIS)", or
// "page 3" when the sheet prints no number.
func (ix *Index) sheetName(pi int) string {
	p := ix.Pages[pi]
	name := fmt.Sprintf("page %d", p.Page)
	if p.SheetNumber != "" {
		name = "sheet " + p.SheetNumber
		if p.SheetTitle != "" {
			name += " (" + p.SheetTitle + ")"
		}
		name += fmt.Sprintf(", page %d", p.Page)
	}
	if len(ix.fileIDs()) > 1 {
		name += " of file " + p.FileID
	}
	return name
}

func (ix *Index) fileIDs() []string {
	var ids []string
	for _, p := range ix.Pages {
		if !contains(ids, p.FileID) {
			ids = append(ids, p.FileID)
		}
	}
	return ids
}

// cite is a citation of excerpt on page pi, or false when the excerpt is
// not text of that page.
func (ix *Index) cite(pi int, excerpt string) (Citation, bool) {
	if !ix.Verify(pi, excerpt) {
		return Citation{}, false
	}
	p := ix.Pages[pi]
	return Citation{Page: p.Page, SheetType: p.SheetType, Excerpt: normalizeSpace(excerpt), FileID: p.FileID,
		SheetNumber: p.SheetNumber}, true
}

// excerptFor is the part of a unit worth quoting: a passage is narrowed to
// the lines (at most two) holding the most question terms, cut at a word
// boundary under maxExcerpt bytes.
func (ix *Index) excerptFor(u Unit, terms []string) string {
	if u.Kind != KindPassage {
		return u.Excerpt
	}
	lines := ix.Pages[u.Page].Lines
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	score := func(l string) int {
		n := 0
		for _, t := range Tokens(l) {
			if want[t] {
				n++
			}
		}
		return n
	}
	best, bestScore, bestFirst := u.First, -1, -1
	for i := u.First; i <= u.Last; i++ {
		first := score(lines[i])
		s := first
		if i < u.Last {
			s += score(lines[i+1])
		}
		// On a tie the window whose first line holds more of the
		// question wins: it is where the sentence asked about starts.
		if s > bestScore || s == bestScore && first > bestFirst {
			best, bestScore, bestFirst = i, s, first
		}
	}
	first, last := best, best
	if best < u.Last && score(lines[best+1]) > 0 {
		last = best + 1
	}
	// The window grows to the passage's lines holding question words it
	// lacks ("CODE ANALYSIS / OCCUPANCY GROUP: R-3 / CONSTRUCTION TYPE:
	// V-B" for the occupancy and construction type): a passage is at most
	// passageLines lines.
	have := map[string]bool{}
	for i := first; i <= last; i++ {
		for _, t := range Tokens(lines[i]) {
			have[t] = true
		}
	}
	for i := u.First; i <= u.Last; i++ {
		if i >= first && i <= last {
			continue
		}
		for _, t := range Tokens(lines[i]) {
			if want[t] && !have[t] {
				first, last = min(first, i), max(last, i)
				break
			}
		}
	}
	// A window opening inside a sentence starts where the sentence does
	// ("IT SHALL BE THE CONTRACTORS RESPONSIBILITY / TO VERIFY ALL
	// DIMENSIONS"), within the passage, never before a numbered note.
	for n := 0; n < 2 && first > u.First && !noteStart.MatchString(lines[first]); n++ {
		prev := strings.TrimSpace(lines[first-1])
		if prev == "" || strings.HasSuffix(prev, ".") || strings.HasSuffix(prev, ":") || strings.HasSuffix(prev, ";") ||
			labelValueLine.MatchString(prev) {
			break
		}
		first--
	}
	text := strings.Join(lines[first:last+1], " ")
	// A note cut at a line break goes on to the end of its sentence
	// (its value is often on the next line: "… DESIGNED AND / SPECIFIED
	// BY THE APPOINTED ENGINEER."), never into the next numbered note.
	for n := 0; n < 3 && last+1 < len(lines) && len(text) < maxExcerpt; n++ {
		t := strings.TrimSpace(text)
		next := strings.TrimSpace(lines[last+1])
		// Only prose runs on: a line of labels and values, or a short
		// caption, is whole.
		prev := lines[last]
		if t == "" || strings.HasSuffix(t, ".") || labelValueLine.MatchString(prev) ||
			next == "" || noteStart.MatchString(next) ||
			last+1 > u.Last+2 {
			break
		}
		text += " " + next
		last++
	}
	return cutWords(text, maxExcerpt)
}

func cutWords(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := strings.LastIndexByte(s[:limit], ' ')
	if cut <= 0 {
		return s[:limit]
	}
	return s[:cut]
}

// answerFacts states the best-supported units in plain sentences, one per
// sheet.
func (ix *Index) answerFacts(q query, hits []hit) Answer {
	type chosen struct {
		unit    Unit
		excerpt string
	}
	var picked []chosen
	pagesUsed := []int{}
	seen := map[string]bool{}
	top, topCoverage := hits[0].score, hits[0].coverage
	if identityQuestion.MatchString(q.text) {
		hits = identityFirst(ix, hits, top*fullCompanionShare)
	}
	for _, h := range hits {
		if len(picked) >= maxUnits {
			break
		}
		if h.score < top*fullCompanionShare {
			break
		}
		// A companion must answer nearly as much of the question as the
		// best unit, not just share one of its words; one holding all of
		// it that the best unit holds is a companion further down (BM25's
		// length norm alone puts a numbered note under a one-line legend).
		if h.coverage < topCoverage*companionCoverage ||
			h.score < top*companionShare && h.coverage+1e-9 < topCoverage {
			continue
		}
		u := ix.Units[h.unit]
		key := strings.ToLower(u.Label + "\x00" + u.Value)
		if u.Kind == KindPassage || u.Kind == KindRow {
			key = strings.ToLower(u.Excerpt)
		}
		if seen[key] {
			continue
		}
		if !contains(intsToStrings(pagesUsed), strconv.Itoa(u.Page)) && len(pagesUsed) >= maxPages {
			continue
		}
		ex := ix.excerptFor(u, q.terms)
		dup := false
		for _, c := range picked {
			if c.unit.Page == u.Page && (strings.Contains(c.excerpt, ex) || strings.Contains(ex, c.excerpt)) {
				dup = true
			}
		}
		if dup {
			continue
		}
		seen[key] = true
		picked = append(picked, chosen{u, ex})
		if !contains(intsToStrings(pagesUsed), strconv.Itoa(u.Page)) {
			pagesUsed = append(pagesUsed, u.Page)
		}
	}
	var sentences []string
	var cites []Citation
	for _, pi := range pagesUsed {
		var facts, quotes []string
		for _, c := range picked {
			if c.unit.Page != pi {
				continue
			}
			cit, ok := ix.cite(pi, c.excerpt)
			if !ok {
				continue
			}
			cites = append(cites, cit)
			switch c.unit.Kind {
			case KindPair, KindField:
				facts = append(facts, c.unit.Label+": "+c.unit.Value)
			case KindRow:
				facts = append(facts, strings.ReplaceAll(c.excerpt, CellSep, ", "))
			default:
				quotes = append(quotes, "“"+c.excerpt+"”")
			}
		}
		name := ix.sheetName(pi)
		if len(facts) > 0 {
			sentences = append(sentences, capitalize(name)+" states "+joinAnd(facts)+".")
		}
		if len(quotes) > 0 {
			verb := " says "
			if len(facts) > 0 {
				verb = " also says "
			}
			sentences = append(sentences, capitalize(name)+verb+strings.Join(quotes, " and ")+".")
		}
	}
	if len(cites) == 0 {
		return Answer{Answer: NotSaid, Citations: []Citation{}, Source: "builtin"}
	}
	return Answer{Answer: strings.Join(sentences, " "), Citations: cites, Source: "builtin"}
}

// identityQuestion asks which thing is used ("Which PV modules are
// used?", "What inverter model…"), not how many or how large.
var identityQuestion = textmatch.MustCompile(`(?i)^\s*(which|what)\b(\s+\w+){0,4}\s+(is|are|was|were)\s+(used|installed|specified|provided|proposed)\b|\b(make|model|brand|manufacturer)\b`)

// identityLabel is the caption of a row or pair naming a thing.
var identityLabel = textmatch.MustCompile(`(?i)\b(model|make|manufacturer|brand|product|type|series|part\s+(no|number))\b`)

// identityFirst moves, among the hits scoring at least floor, the rows and
// pairs whose caption names a thing (model, make, type) ahead of the
// others, in their order: a specification table lists a module's make
// and model beside its orientation and count.
func identityFirst(ix *Index, hits []hit, floor float64) []hit {
	var named, rest []hit
	for i, h := range hits {
		if h.score < floor {
			return append(append(named, rest...), hits[i:]...)
		}
		u := ix.Units[h.unit]
		label := u.Label
		if u.Kind == KindRow {
			label, _, _ = strings.Cut(u.Excerpt, CellSep)
		}
		if u.Kind != KindPassage && identityLabel.MatchString(label) {
			named = append(named, h)
		} else {
			rest = append(rest, h)
		}
	}
	return append(named, rest...)
}

func intsToStrings(ns []int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return out
}

// answerWhich lists the sheets that hold what the question asks about,
// best first, one citation each.
func (ix *Index) answerWhich(q query, hits []hit) Answer {
	var names []string
	var cites []Citation
	done := map[int]bool{}
	for _, h := range hits {
		u := ix.Units[h.unit]
		if done[u.Page] || len(names) >= maxSheets {
			continue
		}
		cit, ok := ix.cite(u.Page, ix.excerptFor(u, q.terms))
		if !ok {
			continue
		}
		done[u.Page] = true
		names = append(names, ix.sheetName(u.Page))
		cites = append(cites, cit)
	}
	if len(names) == 0 {
		return Answer{Answer: NotSaid, Citations: []Citation{}, Source: "builtin"}
	}
	return Answer{Answer: "It appears on " + joinAnd(names) + ".", Citations: cites, Source: "builtin"}
}

// answerFindings answers questions about the review itself from the
// delivered findings (withheld ones are not in the index at all).
func (ix *Index) answerFindings(q query) Answer {
	var picked []int
	for i, f := range ix.Findings {
		if len(q.severity) > 0 && !q.severity[f.Severity] {
			continue
		}
		if len(q.pages) > 0 && (f.Page < 0 || !q.pages[f.Page]) {
			continue
		}
		text := f.Title + " " + f.Rationale
		if q.intent.missing && !(missingWords.MatchString(text) || missingSheetWords.MatchString(text)) {
			continue
		}
		if q.intent.unread && !unreadFindingWords.MatchString(text) {
			continue
		}
		picked = append(picked, i)
	}
	// Remaining words narrow by subject ("stair findings"): a finding
	// stays when its title, rationale, topic or refs hold enough of them.
	if len(q.terms) > 0 && len(picked) > 0 {
		var kept []int
		for _, i := range picked {
			f := ix.Findings[i]
			have := map[string]bool{}
			for _, t := range Tokens(f.Title + " " + f.Rationale + " " + strings.ReplaceAll(f.Topic, ".", " ") + " " + f.GoverningRefs) {
				have[t] = true
			}
			n := 0
			for _, t := range q.terms {
				if have[t] {
					n++
				}
			}
			if float64(n) >= minCoverage*float64(len(q.terms)) {
				kept = append(kept, i)
			}
		}
		picked = kept
	}
	scope := describeScope(q, ix)
	var sb strings.Builder
	var cites []Citation
	switch {
	case q.intent.missing:
		scope.severity = "missing-sheet or missing-document " + scope.severity
	case q.intent.unread:
		scope.severity = "unreadable-page " + scope.severity
	}
	if q.intent.unread {
		// Pages with no text at all are what could not be read, whatever
		// the findings say.
		var blank []string
		for pi, p := range ix.Pages {
			if len(q.pages) > 0 && !q.pages[pi] {
				continue
			}
			if len(p.Lines) == 0 {
				blank = append(blank, ix.sheetName(pi))
			}
		}
		if len(blank) > 0 {
			fmt.Fprintf(&sb, "No text could be read on %s (scanned or drawn without text); chat cannot answer from %s. ",
				joinAnd(blank), map[bool]string{true: "it", false: "them"}[len(blank) == 1])
		} else {
			sb.WriteString("Every page has text that was read. ")
		}
	}
	if len(picked) == 0 {
		fmt.Fprintf(&sb, "The review has no %sfindings%s.", scope.severity, scope.where)
	} else {
		noun := "findings"
		if len(picked) == 1 {
			noun = "finding"
		}
		fmt.Fprintf(&sb, "The review has %d %s%s%s:", len(picked), scope.severity, noun, scope.where)
		sort.SliceStable(picked, func(a, b int) bool {
			return severityRank(ix.Findings[picked[a]].Severity) < severityRank(ix.Findings[picked[b]].Severity)
		})
		for n, i := range picked {
			if n == maxFindings {
				fmt.Fprintf(&sb, " and %d more.", len(picked)-maxFindings)
				break
			}
			f := ix.Findings[i]
			fmt.Fprintf(&sb, " (%d) %s [%s", n+1, strings.TrimRight(f.Title, "."), f.Severity)
			if f.GoverningRefs != "" {
				sb.WriteString(", " + f.GoverningRefs)
			}
			if f.Page >= 0 {
				sb.WriteString(", " + ix.sheetName(f.Page))
			}
			sb.WriteString("].")
			// A few findings, or those naming what is missing or
			// unreadable, are explained in their own words.
			if f.Rationale != "" && (len(picked) <= 3 || q.intent.missing || q.intent.unread) {
				sb.WriteString(" " + strings.TrimSpace(f.Rationale))
				if !strings.HasSuffix(sb.String(), ".") {
					sb.WriteString(".")
				}
			}
			if f.Page >= 0 {
				for _, a := range f.Anchors {
					if cit, ok := ix.cite(f.Page, ix.fitExcerpt(f.Page, a)); ok {
						cites = append(cites, cit)
						break
					}
				}
			}
		}
	}
	if len(ix.HeldTopics) > 0 {
		fmt.Fprintf(&sb, " Findings on %s are withheld until certified local law covers them.", joinAnd(ix.HeldTopics))
	}
	if cites == nil {
		cites = []Citation{}
	}
	return Answer{Answer: sb.String(), Citations: cites, Source: "builtin"}
}

type scopeWords struct{ severity, where string }

func describeScope(q query, ix *Index) scopeWords {
	var s scopeWords
	var sev []string
	for _, name := range severities {
		if q.severity[name] {
			sev = append(sev, name)
		}
	}
	if len(sev) > 0 {
		s.severity = strings.Join(sev, " or ") + " "
	}
	var where []string
	for pi := range ix.Pages {
		if q.pages[pi] {
			p := ix.Pages[pi]
			if p.SheetNumber != "" {
				where = append(where, p.SheetNumber)
			} else {
				where = append(where, fmt.Sprintf("page %d", p.Page))
			}
		}
	}
	where = uniq(where)
	if len(where) > 0 {
		s.where = " on " + joinAnd(where)
	}
	if len(q.terms) > 0 {
		s.where += " about " + strings.Join(q.terms, " ")
	}
	return s
}

func severityRank(s string) int {
	for i, name := range severities {
		if name == s {
			return i
		}
	}
	return len(severities)
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	case 2:
		return items[0] + " and " + items[1]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
