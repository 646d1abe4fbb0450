package scan_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"planreview/scan"
	"planreview/store"
)

// The scorer measures the review on real sheets against review keys written
// by reading them (testdata/review-keys, schema in its README). It prints
// precision and recall per file and fails below the targets of issue 10:
//
//   - precision: at least 90 % of the non-info findings match a key item;
//   - recall: at least 80 % of the keys' `certain` items are matched by a
//     finding;
//   - no non-info finding on a file the key marks out of scope.
//
// The targets hold over the files the rules were tuned on; the first-look
// files (firstLook) are scored apart and held to their first-look figures.
//
// Matching. A finding's category is fixed by its rule (findingCategory). A
// finding matches a key item when
//
//  1. the page agrees: the item's page equals the finding's page, or the
//     item is set-level (page null) — then any page of the file agrees;
//  2. the category agrees: the finding's category is the item's category
//     or one of its alsoMatches; and
//  3. the evidence agrees: a finding anchored on words shares at least one
//     significant token (letters or digits, not a stop word) with the
//     item's evidence as printed. A finding without an anchor (a set-level
//     statement, a field missing from a title block) has no words to
//     compare, so page and category decide.
//
// Coverage findings (a page or a file the engine could not read) speak of
// the review, not of the plans: they are listed per file but counted
// neither true nor false; an item on such a page stays a miss.
//
// One finding may match several items and one item be matched by several
// findings (a repeated stamp); precision counts findings, recall items. A
// finding that matches no item is false, whether or not it also touches a
// look-alike in mustNotFlag.

const targetPrecision, targetCertainRecall = 0.90, 0.80

// firstLook lists the files whose keys were written before the engine ever
// ran on them, with what the review scored on that first look
// (docs/quality.md). They measure whether a change generalises to sets the
// engine was not tuned on, so they stay out of the totals held to the
// targets above; each is held only to its first-look figures: precision,
// certain and likely recall must not fall below them.
var firstLook = map[string]firstLookFloor{
	"us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh.pdf":            {trueNonInfo: 7, nonInfo: 15, certainFound: 1, likelyFound: 4},
	"us_ct_kent_substance_abuse_center_plumbing_cd_addendum1_3sh.pdf": {trueNonInfo: 0, nonInfo: 3, certainFound: 0, likelyFound: 0},
	"us_ca_carlsbad_sfr_asbuilt_907_orchid_4sh.pdf":                   {trueNonInfo: 0, nonInfo: 0, certainFound: 0, likelyFound: 0},
	"us_ca_la_lausd_madison_ms_fire_protection_fp2_20_1sh.pdf":        {trueNonInfo: 2, nonInfo: 2, certainFound: 0, likelyFound: 2},
}

type firstLookFloor struct {
	trueNonInfo, nonInfo      int // precision floor: trueNonInfo/nonInfo
	certainFound, likelyFound int
}

type reviewKey struct {
	Schema     string    `json:"schema"`
	File       string    `json:"file"`
	DocType    string    `json:"docType"`
	Scope      string    `json:"scope"`
	Items      []keyItem `json:"items"`
	MustNot    []keyItem `json:"mustNotFlag"`
	ScopeNotes string    `json:"scopeNotes"`
}

type keyItem struct {
	ID          string   `json:"id"`
	Page        *int     `json:"page"`
	Sheet       *string  `json:"sheet"`
	Category    string   `json:"category"`
	AlsoMatches []string `json:"alsoMatches"`
	Certainty   string   `json:"certainty"`
	Evidence    string   `json:"evidence"`
}

// findingCategory is the review-key category a rule's findings fall under.
func findingCategory(ruleID string) string {
	switch {
	case ruleID == "scope-not-reviewed":
		return "scope_not_reviewed"
	case ruleID == "scope-codes-not-applied":
		return "codes_not_applied"
	case strings.HasPrefix(ruleID, "coverage-"):
		return "coverage"
	case ruleID == "completeness-sheet-index-missing-sheet":
		return "index_missing_sheet"
	case ruleID == "completeness-sheet-not-in-index":
		return "index_unlisted_sheet"
	case ruleID == "completeness-duplicate-sheet-number", ruleID == "completeness-index-duplicate-entry":
		return "index_duplicate"
	case ruleID == "completeness-index-title-mismatch":
		return "index_title_mismatch"
	case ruleID == "completeness-reference-to-missing-sheet", ruleID == "completeness-reference-to-missing-drawing":
		return "reference_missing_sheet"
	case ruleID == "completeness-reference-to-missing-document":
		return "reference_missing_document"
	case strings.HasPrefix(ruleID, "completeness-title-block-"):
		return "title_block_incomplete"
	case ruleID == "completeness-preliminary-stamp", ruleID == "completeness-issue-status":
		return "issue_status"
	case ruleID == "completeness-unfinished-text", ruleID == "completeness-index-placeholder-title":
		return "unfinished_placeholder"
	case ruleID == "completeness-sheet-index-absent":
		return "missing_information"
	case ruleID == "completeness-empty-schedule-cell":
		return "empty_schedule_cell"
	case strings.HasPrefix(ruleID, "consistency-"):
		return "consistency"
	case strings.HasPrefix(ruleID, "ibc-"), strings.HasPrefix(ruleID, "irc-"):
		return "code_rule"
	}
	return "missing_information"
}

var tokenRe = regexp.MustCompile(`[\p{L}\p{N}]+(?:[.\-][\p{L}\p{N}]+)*`)

var stopTokens = map[string]bool{"SEE": true, "REFER": true, "TO": true, "THE": true, "FOR": true, "AND": true,
	"OF": true, "ON": true, "AT": true, "ALL": true, "SHEET": true, "A": true, "IN": true, "BE": true, "OR": true}

func tokens(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range tokenRe.FindAllString(strings.ToUpper(s), -1) {
		if !stopTokens[t] {
			out[t] = true
		}
	}
	return out
}

func evidenceAgrees(f store.Finding, evidence string) bool {
	var anchor []string
	for _, a := range f.Anchors {
		anchor = append(anchor, a.Text)
	}
	if len(anchor) == 0 {
		return true
	}
	want := tokens(evidence)
	for t := range tokens(strings.Join(anchor, " ")) {
		if want[t] {
			return true
		}
	}
	return false
}

func matches(f store.Finding, k keyItem) bool {
	if k.Page != nil && *k.Page != f.Sheet.Page {
		return false
	}
	cat := findingCategory(f.RuleID)
	ok := cat == k.Category
	for _, c := range k.AlsoMatches {
		ok = ok || cat == c
	}
	return ok && evidenceAgrees(f, k.Evidence)
}

type fileScore struct {
	name                         string
	scope                        string
	nonInfo, trueNonInfo         int
	certain, certainFound        int
	likely, likelyFound          int
	falseFindings, missedCertain []string
	trueFindings                 []string // printed for first-look files, to be checked on the sheets
	nonInfoOnOutOfScope          int
	coverage                     []string
	trueRules                    []string // rule of each true non-info finding
	unreadable                   bool
	// Per rule: its non-info findings and those matching a key item; per
	// key item, the rules whose findings matched it (logRuleTable).
	ruleFindings, ruleTrue map[string]int
	items                  []scoredItem
}

// scoredItem is a key item with the rules that found it.
type scoredItem struct {
	categories []string // its category and alsoMatches
	certain    bool
	foundBy    map[string]bool
}

func TestReviewKeys(t *testing.T) {
	corpus := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("corpus not present: ../../shared/corpus")
	}
	if testing.Short() {
		t.Skip("scores the whole corpus")
	}
	keys, err := filepath.Glob(filepath.Join("testdata", "review-keys", "*.json"))
	if err != nil || len(keys) == 0 {
		t.Fatalf("no review keys: %v", err)
	}
	pipeline, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	var scores []fileScore
	for _, kf := range keys {
		raw, err := os.ReadFile(kf)
		if err != nil {
			t.Fatal(err)
		}
		var key reviewKey
		if err := json.Unmarshal(raw, &key); err != nil || key.Schema != "review-key-v1" {
			t.Fatalf("%s: not a review-key-v1 (%v)", kf, err)
		}
		pdf := filepath.Join(corpus, key.File)
		if _, err := os.Stat(pdf); err != nil {
			t.Errorf("%s: %s not in the corpus", kf, key.File)
			continue
		}
		res, err := pipeline.Review(context.Background(), []scan.Input{{FileID: "file_1", Name: key.File, Path: pdf}}, nopProgress{})
		if err != nil {
			t.Fatalf("%s: %v", key.File, err)
		}
		scores = append(scores, score(key, res.Findings))
	}
	var ruleIDs []string
	for _, r := range pipeline.Engine.Rules() {
		ruleIDs = append(ruleIDs, r.ID)
	}
	report(t, scores, ruleIDs)
}

func score(key reviewKey, findings []store.Finding) fileScore {
	s := fileScore{name: key.File, scope: key.Scope, ruleFindings: map[string]int{}, ruleTrue: map[string]int{}}
	for _, f := range findings {
		if f.RuleID == "coverage-no-readable-pages" {
			s.unreadable = true
		}
		if f.Severity == "info" {
			continue
		}
		if findingCategory(f.RuleID) == "coverage" {
			s.coverage = append(s.coverage, fmt.Sprintf("p%d %s", f.Sheet.Page, f.RuleID))
			continue
		}
		s.nonInfo++
		s.ruleFindings[f.RuleID]++
		if key.Scope == "out_of_scope" {
			s.nonInfoOnOutOfScope++
		}
		hit := false
		for _, k := range key.Items {
			if matches(f, k) {
				hit = true
				break
			}
		}
		anchor := ""
		if len(f.Anchors) > 0 {
			anchor = f.Anchors[0].Text
		}
		if hit {
			s.trueNonInfo++
			s.ruleTrue[f.RuleID]++
			s.trueRules = append(s.trueRules, f.RuleID)
			s.trueFindings = append(s.trueFindings, fmt.Sprintf("p%d %s %q", f.Sheet.Page, f.RuleID, anchor))
			continue
		}
		s.falseFindings = append(s.falseFindings, fmt.Sprintf("p%d %s %q", f.Sheet.Page, f.RuleID, anchor))
	}
	for _, k := range key.Items {
		found := false
		it := scoredItem{categories: append([]string{k.Category}, k.AlsoMatches...), certain: k.Certainty == "certain", foundBy: map[string]bool{}}
		for _, f := range findings {
			if matches(f, k) {
				found = true
				it.foundBy[f.RuleID] = true
			}
		}
		s.items = append(s.items, it)
		if k.Certainty == "certain" {
			s.certain++
			if found {
				s.certainFound++
			} else {
				s.missedCertain = append(s.missedCertain, k.ID+" "+k.Category)
			}
		} else {
			s.likely++
			if found {
				s.likelyFound++
			}
		}
	}
	return s
}

func ratio(a, b int) string {
	if b == 0 {
		return "   –  "
	}
	return fmt.Sprintf("%5.1f%%", 100*float64(a)/float64(b))
}

func report(t *testing.T, scores []fileScore, ruleIDs []string) {
	sort.Slice(scores, func(i, j int) bool { return scores[i].name < scores[j].name })
	var tuned, first []fileScore
	for _, s := range scores {
		if _, ok := firstLook[s.name]; ok {
			first = append(first, s)
		} else {
			tuned = append(tuned, s)
		}
	}
	t.Logf("Tuned files (targets: precision %.0f%%, certain recall %.0f%%):", 100*targetPrecision, 100*targetCertainRecall)
	nonInfo, trueNonInfo, certain, certainFound := reportFiles(t, tuned, false)
	if nonInfo > 0 && float64(trueNonInfo) < targetPrecision*float64(nonInfo) {
		t.Errorf("precision %s below the %.0f%% target", ratio(trueNonInfo, nonInfo), 100*targetPrecision)
	}
	if certain > 0 && float64(certainFound) < targetCertainRecall*float64(certain) {
		t.Errorf("certain recall %s below the %.0f%% target", ratio(certainFound, certain), 100*targetCertainRecall)
	}
	logRuleTable(t, "tuned files", tuned, ruleIDs)
	t.Logf("First look (keys written before the engine ran on these files; held to their first-look figures):")
	reportFiles(t, first, true)
	logRuleTable(t, "first-look files", first, ruleIDs)
	for _, s := range first {
		fl := firstLook[s.name]
		if s.nonInfo > 0 && fl.nonInfo > 0 && s.trueNonInfo*fl.nonInfo < fl.trueNonInfo*s.nonInfo {
			t.Errorf("%s: precision %s below its first look %s", s.name, ratio(s.trueNonInfo, s.nonInfo), ratio(fl.trueNonInfo, fl.nonInfo))
		}
		if s.certainFound < fl.certainFound {
			t.Errorf("%s: %d certain items found, first look found %d", s.name, s.certainFound, fl.certainFound)
		}
		if s.likelyFound < fl.likelyFound {
			t.Errorf("%s: %d likely items found, first look found %d", s.name, s.likelyFound, fl.likelyFound)
		}
	}
	for name := range firstLook {
		found := false
		for _, s := range first {
			found = found || s.name == name
		}
		if !found {
			t.Errorf("first-look file %s has no review key", name)
		}
	}
}

// reportFiles prints one line per file (and, with showTrue, the findings
// counted true) and the totals, which it returns.
func reportFiles(t *testing.T, scores []fileScore, showTrue bool) (nonInfo, trueNonInfo, certain, certainFound int) {
	t.Logf("%-46s %-14s %-16s %-16s %s", "file", "scope", "precision", "certain recall", "likely recall")
	var likely, likelyFound int
	for _, s := range scores {
		note := ""
		if s.unreadable {
			note = " (engine could not read the text layer)"
		}
		t.Logf("%-46s %-14s %3d/%-3d %s  %3d/%-3d %s  %3d/%-3d %s%s", strings.TrimSuffix(s.name, ".pdf"), s.scope,
			s.trueNonInfo, s.nonInfo, ratio(s.trueNonInfo, s.nonInfo),
			s.certainFound, s.certain, ratio(s.certainFound, s.certain),
			s.likelyFound, s.likely, ratio(s.likelyFound, s.likely), note)
		if showTrue {
			for _, f := range s.trueFindings {
				t.Logf("    true: %s", f)
			}
		}
		for _, f := range s.falseFindings {
			t.Logf("    false: %s", f)
		}
		for _, c := range s.coverage {
			t.Logf("    coverage (not scored): %s", c)
		}
		for _, m := range s.missedCertain {
			t.Logf("    missed certain: %s", m)
		}
		nonInfo += s.nonInfo
		trueNonInfo += s.trueNonInfo
		certain += s.certain
		certainFound += s.certainFound
		likely += s.likely
		likelyFound += s.likelyFound
		if s.scope == "out_of_scope" && s.nonInfoOnOutOfScope > 0 {
			t.Errorf("%s is out of scope but got %d non-info finding(s)", s.name, s.nonInfoOnOutOfScope)
		}
	}
	byRule := map[string]int{}
	for _, s := range scores {
		for _, r := range s.trueRules {
			byRule[r]++
		}
	}
	var rules []string
	for r, n := range byRule {
		rules = append(rules, fmt.Sprintf("%s ×%d", r, n))
	}
	sort.Strings(rules)
	t.Logf("rules with true findings on real sheets: %s", strings.Join(rules, ", "))
	t.Logf("TOTAL precision %d/%d %s, certain recall %d/%d %s, likely recall %d/%d %s",
		trueNonInfo, nonInfo, ratio(trueNonInfo, nonInfo), certainFound, certain, ratio(certainFound, certain),
		likelyFound, likely, ratio(likelyFound, likely))
	return nonInfo, trueNonInfo, certain, certainFound
}

// logRuleTable prints, per rule, its precision (non-info findings that
// match a key item) and its recall: of the key items of its category
// (their category or alsoMatches), the certain and the likely ones its
// findings matched. A rule with no finding on these files is listed when
// its category has items (every rule of the loaded packs is listed). The
// table docs/quality.md carries.
func logRuleTable(t *testing.T, label string, scores []fileScore, ruleIDs []string) {
	findings, trueF := map[string]int{}, map[string]int{}
	rules := map[string]bool{}
	for _, r := range ruleIDs {
		rules[r] = true
	}
	for _, s := range scores {
		for r, n := range s.ruleFindings {
			findings[r] += n
			rules[r] = true
		}
		for r, n := range s.ruleTrue {
			trueF[r] += n
		}
		for _, it := range s.items {
			for r := range it.foundBy {
				if findingCategory(r) != "coverage" {
					rules[r] = true
				}
			}
		}
	}
	var names []string
	for r := range rules {
		names = append(names, r)
	}
	sort.Strings(names)
	t.Logf("per rule, %s: | rule | precision | certain items of its category found by it | likely items found by it |", label)
	for _, r := range names {
		cat := findingCategory(r)
		var certain, certainFound, likely, likelyFound int
		for _, s := range scores {
			for _, it := range s.items {
				ofCat := false
				for _, c := range it.categories {
					ofCat = ofCat || c == cat
				}
				if !ofCat {
					continue
				}
				if it.certain {
					certain++
					if it.foundBy[r] {
						certainFound++
					}
				} else {
					likely++
					if it.foundBy[r] {
						likelyFound++
					}
				}
			}
		}
		t.Logf("| %s | %d/%d %s | %d/%d | %d/%d |", r, trueF[r], findings[r], ratio(trueF[r], findings[r]), certainFound, certain, likelyFound, likely)
	}
	// Items no rule found, by category.
	missed := map[string][2]int{}
	for _, s := range scores {
		for _, it := range s.items {
			if len(it.foundBy) > 0 {
				continue
			}
			c := missed[it.categories[0]]
			if it.certain {
				c[0]++
			} else {
				c[1]++
			}
			missed[it.categories[0]] = c
		}
	}
	var cats []string
	for c := range missed {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		t.Logf("| (found by no rule) %s | | %d certain | %d likely |", c, missed[c][0], missed[c][1])
	}
}

type nopProgress struct{}

func (nopProgress) Stage(string)   {}
func (nopProgress) Pages(int, int) {}
