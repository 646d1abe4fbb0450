package chat

import (
	"fmt"
	"planreview/textmatch"
	"strings"
)

// factIntents map a question's wording to the fact kinds that answer it,
// most specific first; the first that matches decides. A kind ending in
// "/" is a prefix (area/ is every kind of area).
var factIntents = []struct {
	re      *textmatch.Regexp
	exclude *textmatch.Regexp
	kinds   []string
	name    string // what the answer calls it
}{
	{textmatch.MustCompile(`(?i)\b((tele)?phone|fax)\s+(numbers?|no\.?|#)|\bcontact\s+(number|details|info(rmation)?)\b|\b(what|which)\s+is\s+the\s+[\w\s]{1,30}?('s)?\s+((tele)?phone|fax)\b`), nil, []string{FactPhone}, "phone number"},
	{textmatch.MustCompile(`(?i)\be-?mail\b`), nil, []string{FactEmail}, "e-mail address"},
	{textmatch.MustCompile(`(?i)\b(construction\s+(type|class(ification)?)|type\s+of\s+construction|constr\.?\s+type)\b`), nil,
		[]string{"construction_type"}, "construction type"},
	{textmatch.MustCompile(`(?i)\b(occupanc(y|ies)|use\s+group|occupancy\s+group)\b`), textmatch.MustCompile(`(?i)\b(load|sensor|separation)\b`),
		[]string{"occupancy"}, "occupancy"},
	{textmatch.MustCompile(`(?i)\b(sprinkler(s|ed)?|fire\s+suppression)\b`), nil, []string{"sprinklers"}, "sprinklers"},
	{textmatch.MustCompile(`(?i)\b(stor(y|ies|eys?)|how\s+many\s+(floors|levels))\b`), nil,
		[]string{"stories", "stories_below_grade"}, "number of stories"},
	{textmatch.MustCompile(`(?i)\b(building\s+height|height\s+of\s+(the\s+)?(building|house|structure)|how\s+tall)\b`), nil,
		[]string{"building_height"}, "building height"},
	{textmatch.MustCompile(`(?i)\b((lot|parcel|site)\s+(area|size))\b`), nil, []string{"area/lot"}, "lot area"},
	{textmatch.MustCompile(`(?i)\b((lot|site|parcel)\s+coverage)\b`), nil, []string{"area/coverage"}, "lot coverage"},
	{textmatch.MustCompile(`(?i)\bfootprint\b`), nil, []string{"area/footprint"}, "footprint"},
	{textmatch.MustCompile(`(?i)\b(floor\s+area|(total|gross|building|living|heated|conditioned|adu|dwelling)\s+(floor\s+)?area|square\s+(feet|foot|footage|met(er|re)s)|sq\.?\s*ft|how\s+(big|large))\b`),
		textmatch.MustCompile(`(?i)\b(refuge|drain|well)\b`), []string{"area/"}, "floor area"},
	{textmatch.MustCompile(`(?i)\b(parcel|a\.?p\.?n|assessor|tax\s+(lot|map|id)|folio|roll\s+number)\b`), nil, []string{FactParcel}, "parcel number"},
	{textmatch.MustCompile(`(?i)\b(address|(which|what)\s+(city|town|municipality)|where\s+is\s+(the|this)\s+(project|site|building|property|house)|located|location\s+of\s+(the|this)\s+(project|site|building|property))\b`),
		textmatch.MustCompile(`(?i)\b(web|url|ip)\b`), []string{FactAddress}, "project address"},
	{textmatch.MustCompile(`(?i)\b(owner|client|applicant)\b`), nil, []string{FactOwner}, "owner"},
	{textmatch.MustCompile(`(?i)\b(architect\s+(and|or)\s+engineer|engineer\s+(and|or)\s+architect|(architect|engineer)\s+of\s+record|design\s+professional|who\s+(designed|prepared|drew|stamped|sealed))\b`),
		nil, []string{FactArchitect, FactEngineer, FactDesigner}, "architect or engineer of record"},
	{textmatch.MustCompile(`(?i)\barchitect(s|ure\s+firm)?\b`), textmatch.MustCompile(`(?i)\blandscape\b`), []string{FactArchitect, FactDesigner}, "architect"},
	{textmatch.MustCompile(`(?i)\b(engineer(s|ing\s+firm)?|eor)\b`), nil, []string{FactEngineer}, "engineer"},
	{textmatch.MustCompile(`(?i)\b(designer|designed\s+by|prepared\s+by|drawn\s+by)\b`), nil, []string{FactDesigner, FactArchitect, FactEngineer}, "designer"},
	{textmatch.MustCompile(`(?i)\b(zon(ing|e\s+district)|land\s+use(\s+district)?)\b`), nil, []string{FactZoning}, "zoning"},
	{textmatch.MustCompile(`(?i)\b(project\s+(name|title)|name\s+of\s+(the|this)\s+project|what\s+is\s+(the|this)\s+project\s+called)\b|^\s*(what|which)\s+(is\s+)?(the|this)\s+project(\s+is\s+this)?\s*\??\s*$`), nil, []string{FactProject}, "project name"},
	{textmatch.MustCompile(`(?i)\b(issue\s+date|date\s+of\s+issue|dated|(drawing|sheet|plan)\s+date|when\s+(was|were)\s+.*(issued|drawn|prepared|dated|printed|plotted)|(print|plot)\s+date)\b`), nil, []string{FactDate}, "date"},
	{textmatch.MustCompile(`(?i)\brevisions?\b`), nil, []string{FactRevision}, "revision"},
	{textmatch.MustCompile(`(?i)\b(issue\s+status|issued\s+for|status\s+of\s+(the|these)\s+(drawings|plans|sheets))\b`), nil, []string{FactStatus}, "issue status"},
	{textmatch.MustCompile(`(?i)\b(codes?|editions?|ibc|irc|nec|nfpa\s*\d+|cbc|crc|fbc)\b`), textmatch.MustCompile(`(?i)\b(zip|postal|color|colour|sheet\s+code|code\s+sections?\s+cited)\b`),
		[]string{"code"}, "codes"},
	{textmatch.MustCompile(`(?i)\bscales?\b`), nil, []string{FactScale}, "scale"},
	{textmatch.MustCompile(`(?i)\b(title|titled|called|named|name)\b`), nil, []string{FactSheetTitle}, "title"},
}

// Words that make a question one about the review, and its kinds.
var (
	reviewWords  = textmatch.MustCompile(`(?i)\b(findings?|issues?|problems?|violations?|deficienc(y|ies)|corrections?|comments?|flag(s|ged)?|non-?compliance|review(er)?|summari[sz]e|summary|overview|found)\b`)
	missingWords = textmatch.MustCompile(`(?i)\b(missing|absent|not\s+(included|provided|submitted|in\s+the\s+set)|omitted|lacking)\b`)
	unreadWords  = textmatch.MustCompile(`(?i)\b(could\s*n[o']t\s+(be\s+)?read|can\s*n[o']t\s+(be\s+)?read|not\s+(be\s+)?read(able)?|unreadable|illegible|scanned|no\s+text)\b`)
	followUp     = textmatch.MustCompile(`(?i)^\s*(and|also|what\s+about|how\s+about|same\s+for|and\s+what\s+about)\b`)
	severityRe   = textmatch.MustCompile(`(?i)\b(critical|high|medium|low|info(rmational)?)\b`)
)

// intent is what a question asks for beyond its words.
type intent struct {
	review  bool // about the review's findings
	missing bool // missing sheets or documents
	unread  bool // what could not be read
	kinds   []string
	name    string
}

func (it intent) empty() bool { return !it.review && !it.missing && !it.unread && len(it.kinds) == 0 }

// notReview are phrases whose words name a title-block field, not the
// review ("issue date", "issued for construction").
var notReview = textmatch.MustCompile(`(?i)\b(issue\s+(date|status)|issued\s+for|date\s+of\s+issue|review\s+(date|stamp))\b`)

func readIntent(question string) intent {
	var it intent
	question = notReview.ReplaceAllString(question, " ")
	switch {
	case unreadWords.MatchString(question):
		it.unread = true
	case missingWords.MatchString(question):
		it.missing = true
	case reviewWords.MatchString(question):
		it.review = true
	}
	if it.review || it.missing || it.unread {
		return it
	}
	for _, fi := range factIntents {
		if fi.re.MatchString(question) && (fi.exclude == nil || !fi.exclude.MatchString(question)) {
			it.kinds, it.name = fi.kinds, fi.name
			return it
		}
	}
	return it
}

// factsOf are the index's facts of the kinds, on the pages when any are
// named.
func (ix *Index) factsOf(kinds []string, pages map[int]bool) []Fact {
	var out []Fact
	for _, f := range ix.Facts {
		if len(pages) > 0 && !pages[f.Page] {
			continue
		}
		for _, k := range kinds {
			if f.Kind == k || strings.HasSuffix(k, "/") && strings.HasPrefix(f.Kind, k) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

const maxFacts = 8

// factsFor are the facts that answer a project-data question (the
// built-in answer states them, the model is given them): of the kinds it
// asks, on the pages it names, narrowed to the label it names; a scale
// question naming a drawing ("the scale of the roof plan") takes the
// sheets titled so.
func (ix *Index) factsFor(q query) []Fact {
	pages := q.pages
	if len(pages) == 0 && contains(q.intent.kinds, FactScale) {
		pages = ix.pagesTitled(q.terms)
	}
	facts := narrowByLabel(ix.factsOf(q.intent.kinds, pages), q.terms)
	if len(facts) == 0 && len(q.pages) == 0 && len(pages) > 0 {
		facts = narrowByLabel(ix.factsOf(q.intent.kinds, nil), q.terms)
	}
	return facts
}

// pagesTitled are the pages whose sheet title holds every question term
// that some sheet title holds ("the scale of the roof plan" → the ROOF
// PLAN sheet), or none.
func (ix *Index) pagesTitled(terms []string) map[int]bool {
	titleTerms := make([]map[string]bool, len(ix.Pages))
	inSomeTitle := map[string]bool{}
	for pi, p := range ix.Pages {
		titleTerms[pi] = map[string]bool{}
		for _, t := range Tokens(p.SheetTitle) {
			titleTerms[pi][t] = true
			inSomeTitle[t] = true
		}
	}
	var want []string
	for _, t := range terms {
		if inSomeTitle[t] {
			want = append(want, t)
		}
	}
	if len(want) == 0 {
		return nil
	}
	pages := map[int]bool{}
	for pi := range ix.Pages {
		all := true
		for _, t := range want {
			all = all && titleTerms[pi][t]
		}
		if all {
			pages[pi] = true
		}
	}
	if len(pages) == len(ix.Pages) {
		return nil
	}
	return pages
}

// narrowByLabel keeps, of facts printed under labels of one kind ("BUILDING
// CODE:", "FIRE CODE:"), those whose label holds a word of the question
// the other labels do not share ("which building code" → BUILDING CODE),
// when any does; facts read without a label stay.
func narrowByLabel(facts []Fact, terms []string) []Fact {
	labelTerms := make([]map[string]bool, len(facts))
	common := map[string]int{}
	labelled := 0
	for i, f := range facts {
		if f.Label == "" {
			continue
		}
		labelled++
		labelTerms[i] = map[string]bool{}
		for _, t := range Tokens(f.Label) {
			if !labelTerms[i][t] {
				labelTerms[i][t] = true
				common[t]++
			}
		}
	}
	if labelled < 2 {
		return facts
	}
	match := func(i int) bool {
		for _, t := range terms {
			if labelTerms[i][t] && common[t] < labelled {
				return true
			}
		}
		return false
	}
	var out []Fact
	any := false
	for i, f := range facts {
		if f.Label != "" && match(i) {
			any = true
		}
		if f.Label == "" || match(i) {
			out = append(out, f)
		}
	}
	if !any {
		return facts
	}
	return out
}

// answerProjectFacts answers from the typed facts; ok is false when the
// index holds no fact of the kinds (retrieval answers then).
func (ix *Index) answerProjectFacts(q query) (Answer, bool) {
	kinds := q.intent.kinds
	if contains(kinds, FactSheetTitle) && len(q.pages) == 0 {
		return Answer{}, false // "title" with no sheet named: retrieval
	}
	facts := ix.factsFor(q)
	if contains(kinds, FactSheetTitle) {
		if a, ok := ix.answerSheetTitles(q); ok {
			return a, true
		}
	}
	var valued, blank []Fact
	for _, f := range facts {
		if f.Value == "" {
			blank = append(blank, f)
		} else {
			valued = append(valued, f)
		}
	}
	if len(valued) == 0 && len(blank) == 0 {
		return Answer{}, false
	}
	if len(valued) == 0 {
		f := blank[0]
		cit, ok := ix.cite(f.Page, f.Excerpt)
		if !ok {
			return Answer{}, false
		}
		return Answer{Answer: fmt.Sprintf("The plans leave the %s blank: %s prints “%s” with no value.",
			q.intent.name, ix.sheetName(f.Page), f.Excerpt), Citations: []Citation{cit}, Source: "builtin"}, true
	}
	// One statement per distinct value, first in page order; a value the
	// sets repeat on every sheet (codes in the title block) is said once.
	type stated struct {
		text string
		page int
	}
	var said []stated
	var cites []Citation
	seen := map[string]bool{}
	for _, f := range valued {
		key := strings.ToLower(f.Kind + "\x00" + f.Qualifier + "\x00" + normalizeSpace(f.Value))
		if seen[key] || len(said) >= maxFacts {
			continue
		}
		cit, ok := ix.cite(f.Page, f.Excerpt)
		if !ok {
			continue
		}
		seen[key] = true
		text := "“" + f.Excerpt + "”"
		if f.Label != "" && !strings.Contains(f.Excerpt, Sep) && strings.EqualFold(normalizeSpace(f.Excerpt), normalizeSpace(f.Label+" "+f.Value)) {
			text = f.Label + ": " + f.Value
		} else if f.Label != "" {
			text = f.Label + ": " + f.Value
		} else if f.Value != f.Excerpt && !strings.EqualFold(f.Value, f.Excerpt) {
			text = f.Value + " (“" + f.Excerpt + "”)"
		}
		if f.Qualifier != "" {
			text += " (" + f.Qualifier + ")"
		}
		said = append(said, stated{text, f.Page})
		cites = append(cites, cit)
	}
	if len(said) == 0 {
		return Answer{}, false
	}
	var sentences []string
	var order []int
	byPage := map[int][]string{}
	for _, s := range said {
		if _, ok := byPage[s.page]; !ok {
			order = append(order, s.page)
		}
		byPage[s.page] = append(byPage[s.page], s.text)
	}
	for _, pi := range order {
		sentences = append(sentences, capitalize(ix.sheetName(pi))+" states "+joinAnd(byPage[pi])+".")
	}
	return Answer{Answer: strings.Join(sentences, " "), Citations: cites, Source: "builtin"}, true
}

// answerSheetTitles names the sheets the question names, by their titles.
func (ix *Index) answerSheetTitles(q query) (Answer, bool) {
	var sentences []string
	var cites []Citation
	for pi := range ix.Pages {
		if !q.pages[pi] {
			continue
		}
		p := ix.Pages[pi]
		title := p.SheetTitle
		if title == "" {
			continue
		}
		name := fmt.Sprintf("Page %d", p.Page)
		if p.SheetNumber != "" {
			name = fmt.Sprintf("Sheet %s (page %d)", p.SheetNumber, p.Page)
		}
		if cit, ok := ix.cite(pi, title); ok {
			sentences = append(sentences, fmt.Sprintf("%s is titled “%s”.", name, title))
			cites = append(cites, cit)
			continue
		}
		// A title the sheet does not print is the one a sheet index
		// gives it: cite the index entry that names both.
		if cit, where, ok := ix.citeListing(p.SheetNumber, title); ok {
			sentences = append(sentences, fmt.Sprintf("%s is titled “%s” (as %s lists it).", name, title, where))
			cites = append(cites, cit)
		}
	}
	if len(cites) == 0 {
		return Answer{}, false
	}
	return Answer{Answer: strings.Join(sentences, " "), Citations: cites, Source: "builtin"}, true
}

// citeListing finds a unit that names both a sheet number and its title
// (a sheet index row) and cites it.
func (ix *Index) citeListing(number, title string) (Citation, string, bool) {
	if number == "" || title == "" {
		return Citation{}, "", false
	}
	n, t := strings.ToLower(number), strings.ToLower(title)
	for _, u := range ix.Units {
		ex := strings.ToLower(u.Excerpt)
		i := strings.Index(ex, n)
		if i < 0 || !strings.Contains(ex[i:], t) || u.Kind == KindPassage && len(u.Excerpt) > maxExcerpt {
			continue
		}
		if cit, ok := ix.cite(u.Page, u.Excerpt); ok {
			return cit, ix.sheetName(u.Page), true
		}
	}
	return Citation{}, "", false
}
