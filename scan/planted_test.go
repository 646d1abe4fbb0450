package scan_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"planreview/scan"
	"planreview/scan/pdftext"
	"planreview/store"
)

// TestPlantedDefects measures whether the review reports defects planted in
// real sheets. Every text-readable, in-scope corpus file gets one variant per
// defect kind, each with exactly one defect, made with pdfcpu where the
// file's own text layer shows the structure for it (see
// planted_structure_test.go); a kind the file has no structure for (no
// index, one sheet, no notes block) is n/a, not a miss. A defect is found
// when the variant's review has a finding of the kind's rules, naming or
// anchored on the planted thing, that the base file's review does not have.
//
// It prints recall per kind per file and fails when a kind's count of
// found defects falls below today's (plantedFloors): the floors stop
// regressions while the engine improves. The target is 95 % per kind on
// every file.
//
// -short reviews the files of at most plantedShortPages pages; the full run
// reviews every file (about 100 reviews).

const plantedShortPages = 4

// plantedFloors are the defects found per kind on the whole corpus (the
// full run), measured at the commit docs/quality.md names.
var plantedFloors = map[string]int{
	kindRemoved:    3,  // of 3
	kindPhantom:    3,  // of 3
	kindStamp:      16, // of 16
	kindUnfinished: 4,  // of 4
	kindCallout:    14, // of 14
	kindDuplicate:  14, // of 14
}

const (
	kindRemoved    = "sheet removed"
	kindPhantom    = "index row, no sheet"
	kindStamp      = "PRELIMINARY stamp"
	kindUnfinished = "XX / ??? in a note"
	kindCallout    = "callout, no sheet"
	kindDuplicate  = "number duplicated"
)

var plantedKinds = []string{kindRemoved, kindPhantom, kindStamp, kindUnfinished, kindCallout, kindDuplicate}

// plantedRules are the rules whose findings report each kind.
var plantedRules = map[string][]string{
	kindRemoved:    {"completeness-sheet-index-missing-sheet"},
	kindPhantom:    {"completeness-sheet-index-missing-sheet"},
	kindStamp:      {"completeness-preliminary-stamp", "completeness-issue-status"},
	kindUnfinished: {"completeness-unfinished-text", "completeness-index-placeholder-title"},
	kindCallout:    {"completeness-reference-to-missing-sheet", "completeness-reference-to-missing-drawing"},
	kindDuplicate:  {"completeness-duplicate-sheet-number"},
}

// plant is one variant to make and what its review must report.
type plant struct {
	kind  string
	na    string // why the file has no structure for this kind
	what  string // the planted thing as printed (a sheet number, stamp or note text)
	where string // where it was planted, for the report
	page  int    // page of the variant the finding must be on (0: any)
	// checkPage is the page the stamp check reads when page is 0.
	checkPage int
	// copies are the pages of a duplicated sheet: a finding of the kind's
	// rule on one of them reports the planted duplicate even when it
	// names the number as the engine read it.
	copies []int
	// names are the normalised tokens a finding must name (one suffices);
	// raw is text an anchor must contain instead (??? verbatim, XX as a
	// word): a rule's own wording may speak of placeholders.
	names []string
	raw   string
	make  func(in, out string) error
	// check, when set, confirms the planted text is in the variant's text
	// layer where it was put.
	check *textStamp
}

type plantOutcome struct {
	file, kind, status string // found, missed, n/a, plant failed
	detail             string
	rule               string // the rule whose finding reported the plant
	// added are the variant's non-info findings the base file's review
	// does not have (by fingerprint), by rule, and whether each names
	// the planted thing: the per-rule precision on planted variants.
	added []addedFinding
}

type addedFinding struct {
	rule    string
	planted bool
	what    string // page and anchor, for the log
}

func TestPlantedDefects(t *testing.T) {
	corpus := filepath.Join("..", "..", "shared", "corpus")
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Skip("corpus not present: ../../shared/corpus")
	}
	pipeline, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	keyScope := map[string]string{}
	if keys, _ := filepath.Glob(filepath.Join("testdata", "review-keys", "*.json")); len(keys) > 0 {
		for _, kf := range keys {
			raw, err := os.ReadFile(kf)
			if err != nil {
				t.Fatal(err)
			}
			var key reviewKey
			if err := json.Unmarshal(raw, &key); err != nil {
				t.Fatalf("%s: %v", kf, err)
			}
			keyScope[key.File] = key.Scope
		}
	}
	var files []string
	for _, e := range entries {
		if !strings.HasSuffix(strings.ToLower(e.Name()), ".pdf") {
			continue
		}
		files = append(files, e.Name())
	}
	sort.Strings(files)

	// PLANTED_KEEP keeps the variants in a folder to look at;
	// PLANTED_FILES (comma-separated parts of names) limits the files.
	tmp := os.Getenv("PLANTED_KEEP")
	if tmp == "" {
		tmp = t.TempDir()
	}
	var only []string
	if s := os.Getenv("PLANTED_FILES"); s != "" {
		only = strings.Split(s, ",")
	}
	var (
		mu       sync.Mutex
		outcomes []plantOutcome
		skipped  []string
	)
	review := func(name, path string) (scan.Result, error) {
		return pipeline.Review(context.Background(), []scan.Input{{FileID: "file_1", Name: name, Path: path}}, nopProgress{})
	}
	work := make(chan func())
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range work {
				job()
			}
		}()
	}
	for fi, name := range files {
		wanted := len(only) == 0
		for _, o := range only {
			wanted = wanted || strings.Contains(name, o)
		}
		if !wanted {
			continue
		}
		path := filepath.Join(corpus, name)
		if testing.Short() {
			if doc, err := pdftext.Open(context.Background(), path); err == nil {
				n := doc.NumPages()
				doc.Close()
				if n > plantedShortPages {
					skipped = append(skipped, fmt.Sprintf("%s: %d pages, skipped under -short", name, n))
					continue
				}
			}
		}
		base, err := review(name, path)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: not reviewable (%v)", name, firstLine(err.Error())))
			continue
		}
		if why := skipReason(base, keyScope[name]); why != "" {
			skipped = append(skipped, name+": "+why)
			continue
		}
		plants, structure := planPlants(base, fi)
		t.Logf("%s: %s", name, structure)
		for k, p := range plants {
			if p.na != "" {
				mu.Lock() // the workers append under the same lock
				outcomes = append(outcomes, plantOutcome{file: name, kind: p.kind, status: "n/a", detail: p.na})
				mu.Unlock()
				continue
			}
			variant := filepath.Join(tmp, fmt.Sprintf("%s.%d.pdf", strings.TrimSuffix(name, ".pdf"), k))
			wg.Add(1)
			work <- func() {
				defer wg.Done()
				o := runPlant(name, path, variant, p, base, review)
				mu.Lock()
				outcomes = append(outcomes, o)
				mu.Unlock()
			}
		}
	}
	close(work)
	wg.Wait()

	for _, s := range skipped {
		t.Logf("skipped %s", s)
	}
	totals := reportPlanted(t, outcomes)
	logPlantedByRule(t, outcomes)
	if os.Getenv("PLANTED_MARKDOWN") != "" {
		if err := os.WriteFile(os.Getenv("PLANTED_MARKDOWN"), []byte(plantedMarkdown(outcomes, skipped)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range outcomes {
		if o.status == "plant failed" {
			t.Errorf("%s, %s: the plant did not land: %s", o.file, o.kind, o.detail)
		}
	}
	if testing.Short() || len(only) > 0 {
		return // the floors are the whole corpus's
	}
	for _, kind := range plantedKinds {
		if got := totals[kind][0]; got < plantedFloors[kind] {
			t.Errorf("%s: %d planted defects found, below the floor of %d", kind, got, plantedFloors[kind])
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// skipReason says why a file is not measured: no text layer, or out of
// scope (by its review key, else by the review's own scope finding).
func skipReason(base scan.Result, keyScope string) string {
	readable := false
	for _, p := range base.Files[0].Pages {
		if p.Readable && len(p.Words) > 0 {
			readable = true
		}
	}
	if !readable {
		return "no text layer"
	}
	if keyScope == "out_of_scope" {
		return "out of scope (review key)"
	}
	if keyScope == "" {
		for _, f := range base.Findings {
			if f.RuleID == "scope-not-reviewed" {
				return "out of scope (the review's scope finding)"
			}
		}
	}
	return ""
}

func runPlant(name, path, variant string, p plant, base scan.Result, review func(string, string) (scan.Result, error)) plantOutcome {
	o := plantOutcome{file: name, kind: p.kind}
	if err := p.make(path, variant); err != nil {
		o.status, o.detail = "plant failed", "pdfcpu: "+firstLine(err.Error())
		return o
	}
	res, err := review(name, variant)
	if err != nil {
		o.status, o.detail = "plant failed", "review of the variant: "+firstLine(err.Error())
		return o
	}
	if p.check != nil {
		page := p.page
		if page == 0 {
			page = p.checkPage
		}
		if ok, got := stampLanded(res, page, *p.check); !ok {
			o.status, o.detail = "plant failed", fmt.Sprintf("%q not in the text layer at %s (%s)", p.check.text, p.where, got)
			return o
		}
	}
	o.added = addedFindings(res, p, base)
	for _, f := range res.Findings {
		if plantedBy(f, p) && !inBase(f, p, base.Findings) {
			o.status, o.rule = "found", f.RuleID
			o.detail = fmt.Sprintf("planted %q %s; reported by %s p%d %q", p.what, p.where, f.RuleID, f.Sheet.Page, anchorText(f))
			return o
		}
	}
	o.status = "missed"
	var near []string
	for _, f := range res.Findings {
		for _, r := range plantedRules[p.kind] {
			if f.RuleID == r && !inBase(f, p, base.Findings) {
				near = append(near, fmt.Sprintf("%s p%d %q", f.RuleID, f.Sheet.Page, anchorText(f)))
			}
		}
	}
	o.detail = fmt.Sprintf("planted %q %s", p.what, p.where)
	if len(near) > 0 {
		o.detail += "; same-rule findings not naming it: " + strings.Join(near, "; ")
	}
	return o
}

// addedFindings are the variant's non-info findings (coverage aside)
// whose fingerprints the base review does not have.
func addedFindings(res scan.Result, p plant, base scan.Result) []addedFinding {
	had := map[string]bool{}
	for _, b := range base.Findings {
		had[b.Fingerprint] = true
	}
	var out []addedFinding
	for _, f := range res.Findings {
		if f.Severity == "info" || findingCategory(f.RuleID) == "coverage" || had[f.Fingerprint] {
			continue
		}
		out = append(out, addedFinding{rule: f.RuleID, planted: names(f, p), what: fmt.Sprintf("p%d %q", f.Sheet.Page, anchorText(f))})
	}
	return out
}

// logPlantedByRule prints, per rule, the planted defects it reported and
// the share of its findings new in the variants that name the planted
// thing (a finding new in a variant that names something else is a side
// effect of the edit the rule got wrong, or a consequence it reported in
// other words): the per-rule table of docs/quality.md.
func logPlantedByRule(t *testing.T, outcomes []plantOutcome) {
	found := map[string]int{}
	added, named := map[string]int{}, map[string]int{}
	var rules []string
	seen := map[string]bool{}
	note := func(r string) {
		if !seen[r] {
			seen[r] = true
			rules = append(rules, r)
		}
	}
	for _, o := range outcomes {
		if o.status == "found" {
			found[o.rule]++
			note(o.rule)
		}
		for _, a := range o.added {
			added[a.rule]++
			if a.planted {
				named[a.rule]++
			}
			note(a.rule)
		}
	}
	for _, o := range outcomes {
		for _, a := range o.added {
			if !a.planted {
				t.Logf("  new in the variant, not naming the plant: %s %s: %s %s", strings.TrimSuffix(o.file, ".pdf"), o.kind, a.rule, a.what)
			}
		}
	}
	sort.Strings(rules)
	t.Log("per rule on the planted variants: | rule | defects reported | new findings naming the plant / new findings |")
	for _, r := range rules {
		t.Logf("| %s | %d | %d/%d %s |", r, found[r], named[r], added[r], ratio(named[r], added[r]))
	}
}

func anchorText(f store.Finding) string {
	var parts []string
	for _, a := range f.Anchors {
		parts = append(parts, a.Text)
	}
	s := strings.Join(parts, " | ")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// plantedBy: the finding is of the kind's rules, on the planted page when
// there is one, and names the planted thing.
func plantedBy(f store.Finding, p plant) bool {
	ruleOK := false
	for _, r := range plantedRules[p.kind] {
		ruleOK = ruleOK || f.RuleID == r
	}
	if !ruleOK || (p.page > 0 && f.Sheet.Page != p.page && f.Sheet.Page != 0) {
		return false
	}
	for _, c := range p.copies {
		if f.Sheet.Page == c {
			return true
		}
	}
	return names(f, p)
}

func names(f store.Finding, p plant) bool {
	text := []string{f.Title, f.Rationale, f.Sheet.SheetNumber}
	for _, a := range f.Anchors {
		text = append(text, a.Text)
	}
	all := strings.Join(text, " \n ")
	if p.raw != "" {
		for _, a := range f.Anchors {
			if strings.Contains(a.Text, p.raw) && (strings.Contains(p.raw, "?") || hasWord(a.Text, p.raw)) {
				return true
			}
		}
		return false
	}
	for _, tok := range tokenRe.FindAllString(strings.ToUpper(all), -1) {
		n := normNumber(tok)
		for _, want := range p.names {
			if n == want {
				return true
			}
		}
	}
	// a number split by the finding's wording: "A-999" quoted as "A 999"
	flat := normNumber(all)
	for _, want := range p.names {
		if len(want) >= 4 && strings.Contains(flat, want) && strings.ContainsAny(want, "0123456789") {
			return true
		}
	}
	return false
}

// inBase: the base file already has a finding of the same rule naming the
// planted thing (on the same page when the kind has one).
func inBase(f store.Finding, p plant, base []store.Finding) bool {
	for _, b := range base {
		if b.RuleID != f.RuleID {
			continue
		}
		if p.page > 0 && b.Sheet.Page != p.page {
			continue
		}
		if names(b, p) || len(p.copies) > 0 && b.Sheet.Page == p.copies[0] {
			return true
		}
	}
	return false
}

// stampLanded finds the stamp's words in the variant's text layer near
// where they were put.
func stampLanded(res scan.Result, page int, s textStamp) (bool, string) {
	if page < 1 || page > len(res.Files[0].Pages) {
		return false, "no such page"
	}
	pg := res.Files[0].Pages[page-1]
	first := strings.Fields(s.text)[0]
	if s.rotation != 0 {
		// Turned text comes as fragments along its baseline: joined in
		// order they must spell the stamp's first word.
		type frag struct {
			x    float64
			text string
		}
		var frags []frag
		reach := helveticaWidth(s.text) * s.size
		for _, w := range pg.Words {
			cx, cy := (w.Baseline[0]+w.Baseline[2])/2, (w.Baseline[1]+w.Baseline[3])/2
			if math.Abs(w.Angle-s.rotation) <= 5 && math.Hypot(cx-s.x, cy-s.baseline) <= reach {
				frags = append(frags, frag{w.Baseline[0], w.Text})
			}
		}
		sort.Slice(frags, func(i, j int) bool { return frags[i].x < frags[j].x })
		var joined strings.Builder
		for _, f := range frags {
			joined.WriteString(f.text)
		}
		if strings.Contains(normNumber(joined.String()), normNumber(first)) {
			return true, ""
		}
		return false, fmt.Sprintf("turned fragments read %q", joined.String())
	}
	var seen []string
	for _, w := range pg.Words {
		if !strings.Contains(strings.ToUpper(w.Text), strings.ToUpper(strings.Trim(first, "?"))) && !(first == "???" && strings.Contains(w.Text, "?")) {
			continue
		}
		x, y := w.BBox.Left*pg.Width, (w.BBox.Top+w.BBox.Height)*pg.Height
		seen = append(seen, fmt.Sprintf("%s@%.0f,%.0f", w.Text, x, y))
		tol := math.Max(3*s.size, 12)
		if math.Abs(x-s.x) <= tol && math.Abs(y-s.baseline) <= tol {
			return true, ""
		}
	}
	return false, "seen: " + strings.Join(seen, ", ")
}

// reportPlanted logs the table and returns per kind found, measured.
func reportPlanted(t *testing.T, outcomes []plantOutcome) map[string][2]int {
	sort.Slice(outcomes, func(i, j int) bool {
		if outcomes[i].file != outcomes[j].file {
			return outcomes[i].file < outcomes[j].file
		}
		return kindOrder(outcomes[i].kind) < kindOrder(outcomes[j].kind)
	})
	byFile := map[string]map[string]plantOutcome{}
	var names []string
	for _, o := range outcomes {
		if byFile[o.file] == nil {
			byFile[o.file] = map[string]plantOutcome{}
			names = append(names, o.file)
		}
		byFile[o.file][o.kind] = o
	}
	header := fmt.Sprintf("%-44s", "file")
	for _, k := range plantedKinds {
		header += fmt.Sprintf(" %-9.9s", k)
	}
	t.Log(header)
	totals := map[string][2]int{}
	for _, n := range names {
		line := fmt.Sprintf("%-44.44s", strings.TrimSuffix(n, ".pdf"))
		for _, k := range plantedKinds {
			o := byFile[n][k]
			line += fmt.Sprintf(" %-9s", o.status)
			c := totals[k]
			switch o.status {
			case "found":
				c[0]++
				c[1]++
			case "missed", "plant failed":
				c[1]++
			}
			totals[k] = c
		}
		t.Log(line)
	}
	line := fmt.Sprintf("%-44s", "recall")
	for _, k := range plantedKinds {
		line += fmt.Sprintf(" %-9s", fmt.Sprintf("%d/%d", totals[k][0], totals[k][1]))
	}
	t.Log(line)
	for _, o := range outcomes {
		t.Logf("  %s %s: %s: %s", strings.TrimSuffix(o.file, ".pdf"), o.kind, o.status, o.detail)
	}
	return totals
}

func kindOrder(k string) int {
	for i, x := range plantedKinds {
		if x == k {
			return i
		}
	}
	return len(plantedKinds)
}

// plantedMarkdown is the table for docs/quality.md.
func plantedMarkdown(outcomes []plantOutcome, skipped []string) string {
	var b strings.Builder
	b.WriteString("| file |")
	for _, k := range plantedKinds {
		b.WriteString(" " + k + " |")
	}
	b.WriteString("\n|---|")
	for range plantedKinds {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	byFile := map[string]map[string]string{}
	var names []string
	totals := map[string][2]int{}
	for _, o := range outcomes {
		if byFile[o.file] == nil {
			byFile[o.file] = map[string]string{}
			names = append(names, o.file)
		}
		byFile[o.file][o.kind] = o.status
		c := totals[o.kind]
		if o.status == "found" {
			c[0]++
		}
		if o.status != "n/a" {
			c[1]++
		}
		totals[o.kind] = c
	}
	sort.Strings(names)
	for _, n := range names {
		b.WriteString("| " + strings.TrimSuffix(n, ".pdf") + " |")
		for _, k := range plantedKinds {
			b.WriteString(" " + byFile[n][k] + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("| **found / planted** |")
	for _, k := range plantedKinds {
		c := totals[k]
		pct := "–"
		if c[1] > 0 {
			pct = fmt.Sprintf("%.0f%%", 100*float64(c[0])/float64(c[1]))
		}
		b.WriteString(fmt.Sprintf(" **%d/%d** (%s) |", c[0], c[1], pct))
	}
	b.WriteString("\n\nNot measured: " + strings.Join(skipped, "; ") + ".\n\n")
	for _, o := range outcomes {
		if o.status != "found" {
			b.WriteString(fmt.Sprintf("- %s, %s: %s: %s\n", strings.TrimSuffix(o.file, ".pdf"), o.kind, o.status, o.detail))
		}
	}
	return b.String()
}

func hasWord(text, word string) bool {
	for _, tok := range tokenRe.FindAllString(strings.ToUpper(text), -1) {
		if tok == word {
			return true
		}
	}
	return false
}
