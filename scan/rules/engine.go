// Package rules is the review engine: building-code and completeness rules
// kept as data (YAML packs embedded in the binary), applied to the words of a
// plan set, producing findings pinned to the evidence words.
//
// A rule is either a word matcher (a regular expression over each text line
// with an optional numeric capture and min/max condition, or a presence
// condition) or a named Go check for what a pattern cannot express (sheet
// index against the sheets present, exits against occupant load, stair rise
// from a riser count). Every rule, Go check or not, has its YAML entry with
// id, severity, confidence, governing references and rationale template.
package rules

import (
	"context"
	"fmt"
	"math"
	"planreview/internal/perpage"
	"sort"
	"strings"

	"planreview/scan/model"
	"planreview/scan/sheets"
	"planreview/scan/units"
	"planreview/textmatch"
)

// Engine applies the loaded packs. It is immutable after Load and safe for
// concurrent reviews.
type Engine struct {
	packs   []*pack
	rules   []*Rule
	adopted []adoptedCode

	// Set by ForJurisdiction: citations of the adopted code, the adoption
	// table's bases, and the codes adopted above the model codes.
	cite       Citation
	base       EditionBase
	stateCodes []AdoptedCode
	// presumedFrom: the law was presumed from the plans (Jurisdiction).
	presumedFrom string
}

type adoptedCode struct {
	Code, Edition, Name, PackID string
}

// PlanSet is what one review reads: the files of a submittal in
// registration order, each with its extracted pages.
type PlanSet struct {
	Files []File
}

// File is one registered PDF of a plan set: its extracted pages and,
// when the scan analysed them already, their layouts.
type File = model.Source

// Rules returns the active rules (completeness plus adopted code packs),
// ordered by id.
func (e *Engine) Rules() []Rule {
	out := make([]Rule, len(e.rules))
	for i, r := range e.rules {
		out[i] = *r
	}
	return out
}

// Topics returns the distinct topics of the active rules, sorted: what a
// review with this engine touches, for local-law coverage.
func (e *Engine) Topics() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range e.rules {
		if !seen[r.Topic] {
			seen[r.Topic] = true
			out = append(out, r.Topic)
		}
	}
	sort.Strings(out)
	return out
}

// CodeBasis returns one human-readable line per code layer applied, e.g.
// "2021 International Residential Code (IRC), as adopted".
func (e *Engine) CodeBasis() []string {
	lines := make([]string, 0, len(e.adopted))
	for _, a := range e.adopted {
		lines = append(lines, fmt.Sprintf("%s %s (%s), as adopted", a.Edition, a.Name, a.Code))
	}
	return lines
}

// pageView is one sheet of the set's model as the engine reads it, with
// the literal scans of its lines that let a pattern skip them.
type pageView struct {
	*model.Sheet
	// set is the sheet's file, with what the checks remember of it.
	set     *fileModel
	present []textmatch.Present // per line: which of lineSet's literals it holds

	// possible: the members of lineSet that may match one of the page's
	// lines; a pattern none of whose literals the page holds skips them.
	possible textmatch.Possible
}

// lineSet holds every pattern the engine runs over text lines (rule
// patterns and exclusions, check patterns): the model's LineSet, so that
// each line is scanned once, by the model, for all their literals and the
// model's own instead of once per pattern.
var lineSet = model.LineSet

// findAll is re.FindAllStringSubmatchIndex on line li, using the page's and
// the line's scans.
func (pv *pageView) findAll(re *textmatch.Regexp, li int) [][]int {
	text := pv.Lines[li].Text
	if !re.PossibleIn(pv.possible) || !re.MayMatch(text, pv.present[li]) {
		return nil
	}
	return re.Regexp().FindAllStringSubmatchIndex(text, -1)
}

// find is re.FindStringSubmatchIndex on line li, using the line's scan.
func (pv *pageView) find(re *textmatch.Regexp, li int) []int {
	text := pv.Lines[li].Text
	if !re.PossibleIn(pv.possible) || !re.MayMatch(text, pv.present[li]) {
		return nil
	}
	return re.Regexp().FindStringSubmatchIndex(text)
}

// matches is re.MatchString on line li, using the line's scan.
func (pv *pageView) matches(re *textmatch.Regexp, li int) bool {
	text := pv.Lines[li].Text
	return re.PossibleIn(pv.possible) && re.MayMatch(text, pv.present[li]) && re.Regexp().MatchString(text)
}

// sheetsOf are the model's sheets of pages.
func sheetsOf(pages []*pageView) []*model.Sheet {
	out := make([]*model.Sheet, len(pages))
	for i, pv := range pages {
		out[i] = pv.Sheet
	}
	return out
}

// view is the review's page of a sheet of the model.
func (rv *review) view(s *model.Sheet) *pageView { return rv.views[s] }

// sheetNumberOr names the page for rationales: its sheet number, or its page.
func (pv *pageView) sheetNumberOr() string {
	if pv.Ident.Number != "" {
		return pv.Ident.Number
	}
	return fmt.Sprintf("page %d", pv.Page.Number)
}

// observation is one rule hit before it becomes a Finding.
type observation struct {
	page       *pageView // nil: the set as a whole (attached to the first page)
	words      []int     // evidence words on page
	vars       map[string]string
	evidence   string  // normalised evidence for the fingerprint
	confidence float64 // 0: the rule's own
	// also is the other side of a comparison (a statement on another
	// sheet), anchored too when it is in the same file.
	also []evidenceRef
}

// evidenceRef is evidence words on a page.
type evidenceRef struct {
	page  *pageView
	words []int
}

// review holds one Review call's state.
type review struct {
	eng   *Engine
	job   JobContext
	pages []*pageView
	// views finds the page of a sheet the model names (a fact's sheet).
	views map[*model.Sheet]*pageView
	// facts are the code-analysis statements of the review's pages.
	facts model.CodeFacts
	// scopes and models are per file of the whole set (indexed by
	// pageView.fileIndex), also for files not in this review's pages.
	scopes []FileScope
	models []sheets.SetModel
	// project is what the project-data checks read of the model and
	// remember (projectdata_checks.go), gathered on first use.
	project *projectData
	// textMatches remembers an expression's matches in a line text
	// (rv.findAll): title blocks and notes repeat from sheet to sheet.
	textMatches map[textMatchKey][][]int
	// stampSheets holds, per stamp of the set (rule, text, place), the
	// variables of its one observation (stamps.go).
	stampSheets map[stampKey]map[string]string
}

type textMatchKey struct {
	re   *textmatch.Regexp
	text string
}

// findAll is pv.findAll(re, li), the matches remembered by expression and
// text for the review (callers only read them).
func (rv *review) findAll(pv *pageView, re *textmatch.Regexp, li int) [][]int {
	text := pv.Lines[li].Text
	if !re.PossibleIn(pv.possible) || !re.MayMatch(text, pv.present[li]) {
		return nil
	}
	k := textMatchKey{re, text}
	if m, ok := rv.textMatches[k]; ok {
		return m
	}
	if rv.textMatches == nil {
		rv.textMatches = map[textMatchKey][][]int{}
	}
	m := re.Regexp().FindAllStringSubmatchIndex(text, -1)
	rv.textMatches[k] = m
	return m
}

// Review applies the active rules to a plan set. Pages that are not
// machine-readable each yield an info finding saying so; a set with no
// readable page yields a finding that it was not reviewed, never an empty
// (clean-looking) result. Findings are sorted by SortFindings.
func (e *Engine) Review(ctx context.Context, set PlanSet) ([]Finding, error) {
	c, err := Classify(ctx, set)
	if err != nil {
		return nil, err
	}
	return e.ReviewClassified(ctx, c)
}

// Classified is a plan set with every page classified: what the scan's
// classifying stage computes and its reviewing stage reads, so a page is
// classified once.
type Classified struct {
	files int
	pages []*pageView
	// set is the set's document model, read once; the checks only read it.
	set *model.Set
	// models is the set model of each file (document type, codes stated,
	// jurisdiction hints, title blocks), which decides its scope.
	models []sheets.SetModel
	// views finds the page of each sheet of the model.
	views map[*model.Sheet]*pageView
	// Job is the job's side of the scope decision; the scan sets it before
	// reviewing (zero: no jurisdiction, no adoption table).
	Job JobContext
}

// Models returns the set model of each file, in registration order.
func (c *Classified) Models() []sheets.SetModel { return c.models }

// Classify reads a set's document model (model.Build) and prepares each
// of its sheets for the rules (see ClassifySet).
func Classify(ctx context.Context, set PlanSet) (*Classified, error) {
	ms, err := model.Build(ctx, set.Files)
	if err != nil {
		return nil, err
	}
	files := make([]*fileModel, len(ms.Files))
	for fi, f := range ms.Files {
		files[fi] = &fileModel{File: f}
	}
	// Each sheet's lines are scanned for the rules' literals on every core.
	perpage.Each(len(ms.Sheets), func(i int) {
		if s := ms.Sheets[i]; s.Readable {
			s.LineScan()
		}
	})
	pages := make([]*pageView, 0, len(ms.Sheets))
	views := make(map[*model.Sheet]*pageView, len(ms.Sheets))
	for _, s := range ms.Sheets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pv := &pageView{Sheet: s, set: files[s.FileIndex]}
		if s.Readable {
			pv.present, pv.possible = s.LineScan()
		}
		pages = append(pages, pv)
		views[s] = pv
	}
	return &Classified{files: len(set.Files), pages: pages, set: ms, models: ms.Models(), views: views}, nil
}

// Model returns the set's document model.
func (c *Classified) Model() *model.Set { return c.set }

// Sheets returns the classification per file and page, in order.
func (c *Classified) Sheets() [][]sheets.Sheet {
	out := make([][]sheets.Sheet, c.files)
	for _, pv := range c.pages {
		out[pv.FileIndex] = append(out[pv.FileIndex], pv.Ident)
	}
	return out
}

// ReviewClassified is Review of a set already classified.
func (e *Engine) ReviewClassified(ctx context.Context, c *Classified) ([]Finding, error) {
	findings, _, _, err := e.review(ctx, c)
	return findings, err
}

// review applies the rules and also returns the sorted topics of the rules
// that applied to the set, and the set's occupancy (of its in-scope files).
func (e *Engine) review(ctx context.Context, c *Classified) ([]Finding, []string, string, error) {
	// Each file's scope decides which rules may speak about its pages:
	// files of one class are reviewed together (a set split over several
	// files keeps its cross-file checks), and every file whose scope
	// limits the review says so in one info finding.
	scopes := make([]FileScope, c.files)
	allFacts := c.set.CodeFacts()
	usCodes := make([][]statedCode, c.files)
	for _, h := range allFacts.Codes {
		usCodes[h.Sheet.FileIndex] = append(usCodes[h.Sheet.FileIndex], statedCode{Text: strings.TrimSpace(h.Text), Family: h.Group, Edition: h.Extra})
	}
	for fi := range scopes {
		if fi < len(c.models) {
			scopes[fi] = e.scopeOf(c.models[fi], c.Job, usCodes[fi])
		} else {
			scopes[fi] = FileScope{Class: ScopeInScope}
		}
	}
	byClass := map[string][]*pageView{}
	for _, pv := range c.pages {
		cl := scopes[pv.FileIndex].Class
		byClass[cl] = append(byClass[cl], pv)
	}
	var findings []Finding
	occupancy := ""
	seen := map[string]int{}
	topics := map[string]bool{}
	for _, class := range []string{ScopeInScope, ScopeCodesNotHeld, ScopeOutOfScope} {
		pages := byClass[class]
		if len(pages) == 0 {
			continue
		}
		rv := &review{eng: e, pages: pages, views: c.views, scopes: scopes, models: c.models, job: c.Job}
		if len(pages) == len(c.pages) {
			rv.facts = allFacts
		} else {
			rv.facts = model.CodeFactsOf(sheetsOf(rv.pages))
		}
		if class == ScopeInScope {
			occupancy = rv.facts.Occupancy
		}
		analysisUnderRecord := class == ScopeCodesNotHeld && rv.underUSRecord()
		for _, r := range e.rulesInRunOrder() {
			if err := ctx.Err(); err != nil {
				return nil, nil, "", err
			}
			// Whether the plans state their code analysis does not depend on
			// the edition: a file under a US code without a pack is still
			// asked, citing that code without a section.
			askAnalysis := analysisUnderRecord && r.Check == "code_analysis_field"
			if !e.ruleInScope(r, class) && !askAnalysis || !rv.occupancyApplies(r) {
				continue
			}
			topics[r.Topic] = true
			var obs []observation
			if r.Check != "" {
				obs = checks[r.Check].run(rv, r)
			} else if r.Measure != "" {
				obs = rv.measure(r)
			} else {
				obs = rv.match(r)
			}
			for _, o := range obs {
				f := rv.finding(r, o)
				// A file whose codes are not held cites no model-code section
				// (an IBC section on a Canadian or an Indiana 2014 set is
				// not the law there), unless the law in force cites the
				// rule's sections itself (a jurisdiction's or presumed
				// state code on a held edition): the code of record, when
				// known, names what the document check answers to.
				if class == ScopeCodesNotHeld && r.Topic != "coverage" && f.FileIndex < len(scopes) && !e.citesAll(r) {
					f.GoverningRefs = uncitedRefs(scopes[f.FileIndex])
				}
				// Two identical notes on one sheet are two issues; keep their
				// fingerprints distinct but still independent of position.
				seen[f.Fingerprint]++
				if n := seen[f.Fingerprint]; n > 1 {
					f.Fingerprint = fingerprint(r.ID, f.SheetNumber, fmt.Sprintf("%s#%d", o.evidence, n))
				}
				findings = append(findings, f)
			}
		}
	}
	SortFindings(findings)
	reviewed := make([]string, 0, len(topics))
	for t := range topics {
		reviewed = append(reviewed, t)
	}
	sort.Strings(reviewed)
	return findings, reviewed, occupancy, nil
}

// ruleInScope says whether a rule speaks about files of a scope class:
// in scope, every rule; codes not held, the document checks (completeness
// and coverage) but neither the code packs nor the code-analysis
// statements, which ask for what the held codes require; out of scope, the
// coverage findings only (the scope finding among them).
func (e *Engine) ruleInScope(r *Rule, class string) bool {
	switch class {
	case ScopeOutOfScope:
		return r.Topic == "coverage"
	case ScopeCodesNotHeld:
		return e.packKind(r.Pack) == "completeness" && r.Topic != "completeness.code-analysis"
	}
	return true
}

func (e *Engine) packKind(id string) string {
	for _, p := range e.packs {
		if p.ID == id {
			return p.Kind
		}
	}
	return ""
}

// ClassifySet returns the sheet classification of every page of a set, per
// file and page in order, exactly as Review uses it (titles missing from a
// title block come from the set's sheet index). Unreadable pages are
// TypeUnknown with no number. For the scan's "classifying" stage and for
// chat citations.
func ClassifySet(ctx context.Context, set PlanSet) ([][]sheets.Sheet, error) {
	c, err := Classify(ctx, set)
	if err != nil {
		return nil, err
	}
	return c.Sheets(), nil
}

// occupancyApplies: residential rules need a set that reads as residential,
// commercial rules one that reads as commercial. When the set does not say,
// occupancy-specific rules stay silent (the completeness rules report the
// missing statement) rather than guess between IRC and IBC limits.
func (rv *review) occupancyApplies(r *Rule) bool {
	switch r.Occupancy {
	case OccupancyResidential, OccupancyCommercial:
		return rv.facts.Occupancy == r.Occupancy
	}
	return true
}

// match runs a word-matcher rule over every applicable readable page.
func (rv *review) match(r *Rule) []observation {
	var out []observation
	anyHit := false
	for _, pv := range rv.pages {
		if !pv.Readable || !r.appliesToType(pv.Ident.Type) {
			continue
		}
		sheetHit := false
		lines := pv.Lines
		if !r.Pattern.PossibleIn(pv.possible) {
			lines = nil // no line of the page holds a literal of the pattern
		}
		for li, l := range lines {
			// The rule's own pattern first: it rules out nearly every line,
			// while the exclusion (a long case-insensitive alternation) is
			// the slow one, so it runs only where the pattern matched.
			matches := rv.findAll(pv, r.Pattern, li)
			if len(matches) == 0 || (r.Unless != nil && pv.matches(r.Unless, li)) {
				continue
			}
			for _, m := range matches {
				text := l.Text[m[0]:m[1]]
				words := l.WordsInSpan(m[0], m[1])
				sheetHit, anyHit = true, true
				if r.Present {
					continue
				}
				vars := map[string]string{"text": text}
				if r.Absent {
					out = append(out, observation{page: pv, words: words, vars: vars, evidence: text})
					continue
				}
				raw, ok := valueCapture(r, l.Text, m)
				if !ok {
					continue
				}
				v, err := units.ParseQuantity(r.Quantity, raw)
				if err != nil {
					// Unparseable: stay silent rather than guess.
					continue
				}
				if (r.PlausibleMin != nil && v < *r.PlausibleMin) || (r.PlausibleMax != nil && v > *r.PlausibleMax) {
					continue
				}
				violated, limit := r.violates(v)
				if !violated {
					continue
				}
				vars["value"] = strings.TrimSpace(raw)
				vars["measured"] = units.Format(r.Quantity, v)
				vars["limit"] = units.Format(r.Quantity, limit)
				if r.Min != nil {
					vars["min"] = units.Format(r.Quantity, *r.Min)
				}
				if r.Max != nil {
					vars["max"] = units.Format(r.Quantity, *r.Max)
				}
				conf := 0.0
				if r.doubtful(v) {
					conf = r.DoubtfulConfidence
				}
				out = append(out, observation{page: pv, words: words, vars: vars, confidence: conf,
					evidence: text + "=" + units.Format(r.Quantity, v)})
			}
		}
		if r.Absent && !sheetHit {
			// A stamp whose glyphs the text lines hold only as fragments.
			for _, o := range rv.matchStamps(pv, r) {
				sheetHit, anyHit = true, true
				out = append(out, o)
			}
		}
		if r.Present && r.Scope == "sheet" && !sheetHit {
			out = append(out, observation{page: pv, vars: map[string]string{"text": ""}, evidence: "absent"})
		}
	}
	if r.Present && r.Scope == "set" && !anyHit && rv.hasReadablePage(r) {
		out = append(out, observation{vars: map[string]string{"text": ""}, evidence: "absent"})
	}
	return out
}

func (rv *review) hasReadablePage(r *Rule) bool {
	for _, pv := range rv.pages {
		if pv.Readable && r.appliesToType(pv.Ident.Type) {
			return true
		}
	}
	return false
}

// violates compares a measured value with the rule's limits and returns the
// limit broken. A value within a hair of the limit (float noise from unit
// conversion) complies.
func (r *Rule) violates(v float64) (bool, float64) {
	const eps = 1e-6
	if r.Min != nil && v < *r.Min-eps*max(1, *r.Min) {
		return true, *r.Min
	}
	if r.Max != nil && v > *r.Max+eps*max(1, *r.Max) {
		return true, *r.Max
	}
	return false, 0
}

// doubtful reports whether a violating value lies in the rule's doubtful band.
func (r *Rule) doubtful(v float64) bool {
	if r.DoubtfulUntil == nil {
		return false
	}
	if r.Max != nil {
		return v <= *r.DoubtfulUntil+1e-9
	}
	return v >= *r.DoubtfulUntil-1e-9
}

// valueCapture returns the text of the first "value" group that took part
// in match m.
func valueCapture(r *Rule, text string, m []int) (string, bool) {
	for i, name := range r.Pattern.SubexpNames() {
		if name == "value" && m[2*i] >= 0 {
			return text[m[2*i]:m[2*i+1]], true
		}
	}
	return "", false
}

// finding turns an observation into a Finding.
func (rv *review) finding(r *Rule, o observation) Finding {
	pv := o.page
	if pv == nil {
		pv = rv.firstPage()
	}
	f := Finding{
		RuleID:        r.ID,
		Title:         r.Title,
		Topic:         r.Topic,
		Severity:      r.Severity,
		Confidence:    r.Confidence,
		GoverningRefs: rv.eng.citedRefs(r),
		Source:        SourceRules,
		SheetType:     sheets.TypeUnknown,
	}
	if o.confidence > 0 {
		f.Confidence = o.confidence
	}
	// A statement about the whole set ("not stated anywhere", a sheet or
	// document "not in the set") is only as sure as the share of the set
	// that was read.
	if (o.page == nil || checks[r.Check].wholeSet) && r.Severity != SeverityInfo && r.Topic != "coverage" {
		f.Confidence = math.Round(f.Confidence*rv.readShare()*100) / 100
	}
	if pv != nil {
		f.FileID, f.FileIndex, f.Page = pv.FileID, pv.FileIndex, pv.Page.Number
		f.SheetNumber, f.SheetTitle, f.SheetType = pv.Ident.Number, pv.Ident.Title, pv.Ident.Type
		if o.page != nil {
			if a, ok := anchorFor(pv.Page, o.words); ok {
				f.Anchors = []Anchor{a}
			}
			for _, x := range o.also {
				if a, ok := anchorFor(x.page.Page, x.words); ok && x.page.FileIndex == pv.FileIndex {
					f.Anchors = append(f.Anchors, a)
				}
			}
		}
	}
	vars := map[string]string{"refs": f.GoverningRefs, "sheet": ""}
	if pv != nil {
		vars["sheet"] = pv.sheetNumberOr()
	}
	for k, v := range o.vars {
		vars[k] = v
	}
	f.Rationale = pageForSheet(renderTemplate(r.Rationale, vars))
	if r.amendedBy != "" {
		f.Rationale += " " + r.amendedBy
	}
	f.Fingerprint = fingerprint(r.ID, f.SheetNumber, o.evidence)
	return f
}

// rulesInRunOrder is the rules in pack order, except that the checks
// reporting what the others could not read come last.
func (e *Engine) rulesInRunOrder() []*Rule {
	out := make([]*Rule, 0, len(e.rules))
	var last []*Rule
	for _, r := range e.rules {
		if r.Check != "" && checks[r.Check].last {
			last = append(last, r)
			continue
		}
		out = append(out, r)
	}
	return append(out, last...)
}

// pageForSheet rewrites "Sheet page 3" to "Page 3": a template names the
// sheet by number, and a page whose number was not read is named by its
// page instead.
func pageForSheet(s string) string {
	if !strings.Contains(s, "heet page ") {
		return s
	}
	s = strings.ReplaceAll(s, "Sheet page ", "Page ")
	return strings.ReplaceAll(s, "sheet page ", "page ")
}

// readShare is the share of the review's pages that were read (readable,
// and not only in part).
func (rv *review) readShare() float64 {
	if len(rv.pages) == 0 {
		return 0
	}
	read := 0
	for _, pv := range rv.pages {
		if pv.Readable && (pv.Model == nil || pv.Model.TextLayer != sheets.TextPartial) {
			read++
		}
	}
	return float64(read) / float64(len(rv.pages))
}

// firstPage is where set-level findings are attached: the first readable
// page (normally the cover sheet), else the first page.
func (rv *review) firstPage() *pageView {
	for _, pv := range rv.pages {
		if pv.Readable {
			return pv
		}
	}
	if len(rv.pages) > 0 {
		return rv.pages[0]
	}
	return nil
}

// valueAndMeasure is how the packs state a reading: as written on the
// sheet, then as the engine measured it.
const valueAndMeasure = "{value} ({measured})"

// numberRe finds the numbers a quantity is stated with (4.8, 1/4, 10).
var numberRe = textmatch.MustCompile(`\d+(?:[./]\d+)*`)

// sayOnce states a reading without repeating it: the parts of measured
// (its head and a trailing parenthetical, as FormatQuantity writes them)
// whose numbers are the value's say the same thing in other units and
// go. "4.8 SF" and "4.8 sq ft" give "4.8 SF"; "6'-4\"" and "76 in (6 ft
// 4 in)" give "6'-4\" (76 in)"; "1:10" and "1:10 (10%)" give "1:10 (10%)";
// "2'-6\"" and "30 in" stay "2'-6\" (30 in)".
func sayOnce(value, measured string) string {
	parts := []string{measured}
	if head, tail, ok := strings.Cut(measured, " ("); ok && strings.HasSuffix(tail, ")") {
		parts = []string{head, strings.TrimSuffix(tail, ")")}
	}
	said := strings.Join(numberRe.FindAllString(value, -1), " ")
	var kept []string
	for _, p := range parts {
		if said == "" || strings.Join(numberRe.FindAllString(p, -1), " ") != said {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return value
	}
	return value + " (" + strings.Join(kept, ", ") + ")"
}

func renderTemplate(tpl string, vars map[string]string) string {
	if value, ok := vars["value"]; ok && strings.Contains(tpl, valueAndMeasure) {
		if measured, ok := vars["measured"]; ok {
			// Substituted after the other variables: a value read off the
			// sheet may hold braces.
			const mark = "\x00"
			tpl = strings.ReplaceAll(tpl, valueAndMeasure, mark)
			return strings.ReplaceAll(renderTemplate(tpl, vars), mark, sayOnce(value, measured))
		}
	}
	// templateVarRe's matches ({name}, leftmost first, not overlapping),
	// found by hand: every finding renders its rationale.
	var b strings.Builder
	last := 0
	for i := 0; i < len(tpl); i++ {
		if tpl[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(tpl) && ('a' <= tpl[j] && tpl[j] <= 'z' || 'A' <= tpl[j] && tpl[j] <= 'Z') {
			j++
		}
		if j == i+1 || j == len(tpl) || tpl[j] != '}' {
			continue
		}
		if v, ok := vars[tpl[i+1:j]]; ok {
			b.WriteString(tpl[last:i])
			b.WriteString(v)
			last = j + 1
		}
		i = j
	}
	if last == 0 {
		return tpl
	}
	b.WriteString(tpl[last:])
	return b.String()
}

// Adopts reports whether the engine holds the rule pack of a model code
// and edition ("IBC", "2021").
func (e *Engine) Adopts(code, edition string) bool {
	for _, a := range e.adopted {
		if strings.EqualFold(a.Code, code) && a.Edition == edition {
			return true
		}
	}
	return false
}
