package rules

import (
	"context"
	"strings"
	"testing"

	"planreview/scan/pdftext"
)

// scopeSet is a two-sheet set: a cover with the given statements and a
// plan whose stair note breaks the IRC riser limit.
func scopeSet(cover ...string) []pdftext.Page {
	notes := []string{"GENERAL NOTES", "1. ALL WORK SHALL COMPLY WITH THE APPROVED PLANS AND SPECIFICATIONS.", "2. VERIFY ALL EXISTING CONDITIONS."}
	return []pdftext.Page{
		textPage(1, "G-001", append(cover, notes...)...),
		textPage(2, "A-201", append([]string{"STAIR SECTION", "14 RISERS @ 8 1/4\"", "OCCUPANCY: R-3"}, notes...)...),
	}
}

func reviewJob(t *testing.T, job JobContext, pages []pdftext.Page) []Finding {
	t.Helper()
	e := loadAll(t)
	c, err := Classify(context.Background(), PlanSet{Files: []File{{ID: "file_1", Pages: pages}}})
	if err != nil {
		t.Fatal(err)
	}
	c.Job = job
	fs, err := e.ReviewClassified(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func TestScope(t *testing.T) {
	civil := func() []pdftext.Page {
		var lines []string
		for i := 0; i < 6; i++ {
			lines = append(lines, "SR 167 STA. 1"+string(rune('0'+i))+"+00 ROADWAY CONDUIT RUN", "RIGHT OF WAY PAVEMENT")
		}
		return []pdftext.Page{textPage(1, "TS-01", lines...), textPage(2, "TS-02", lines...)}
	}
	for _, tc := range []struct {
		name       string
		job        JobContext
		pages      []pdftext.Page
		wantScope  string // rule id of the one scope finding, "" for none
		wantCodes  string // in its rationale
		wantIRC    bool
		wantNoCode bool // no code-analysis ("not stated") finding
		// wantRecord: the code of record a file whose codes are not held
		// is asked its code analysis under, cited with no section.
		wantRecord string
	}{
		{name: "US set under the adopted IRC", pages: scopeSet("APPLICABLE CODES: 2021 IRC"), wantIRC: true},
		{name: "an older IRC edition is still under the jurisdiction's IRC", pages: scopeSet("APPLICABLE CODES: 2018 IRC"), wantIRC: true},
		{name: "Australian standards", pages: scopeSet("CONCRETE TO AS 3600-2018 AND AS 1379"),
			wantScope: "scope-codes-not-applied", wantCodes: "AS 3600-2018", wantNoCode: true},
		{name: "a Florida code the appliance has no pack for", pages: scopeSet("BASED ON 2011 NEC & 5TH EDITION (2014) FBC"),
			wantScope: "scope-codes-not-applied", wantCodes: "FBC", wantRecord: "FBC"},
		{name: "job in another country", job: JobContext{Jurisdiction: "ocd-division/country:ca/province:ab"},
			pages: scopeSet("APPLICABLE CODES: 2021 IRC"), wantScope: "scope-codes-not-applied", wantNoCode: true},
		{name: "civil plans", pages: civil(), wantScope: "scope-not-reviewed", wantNoCode: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := reviewJob(t, tc.job, tc.pages)
			var scope []Finding
			for _, f := range fs {
				if strings.HasPrefix(f.RuleID, "scope-") {
					scope = append(scope, f)
				}
			}
			switch {
			case tc.wantScope == "" && len(scope) != 0:
				t.Errorf("unexpected scope finding %s: %s", scope[0].RuleID, scope[0].Rationale)
			case tc.wantScope != "" && (len(scope) != 1 || scope[0].RuleID != tc.wantScope || scope[0].Severity != SeverityInfo):
				t.Errorf("scope findings %+v, want one %s", scope, tc.wantScope)
			case tc.wantScope != "" && !strings.Contains(scope[0].Rationale, tc.wantCodes):
				t.Errorf("rationale %q does not name %q", scope[0].Rationale, tc.wantCodes)
			}
			if got := len(byRule(fs, "irc-r311.7.5.1-riser-height")) > 0; got != tc.wantIRC {
				t.Errorf("IRC riser rule fired=%v, want %v", got, tc.wantIRC)
			}
			analysis := 0
			for _, f := range fs {
				if tc.wantScope == "scope-codes-not-applied" && f.Topic != "coverage" && strings.Contains(f.GoverningRefs, " 2021 ") {
					t.Errorf("%s cites a model-code section on a file whose codes are not held: %s", f.RuleID, f.GoverningRefs)
				}
				if f.Topic == "completeness.code-analysis" {
					analysis++
					if tc.wantRecord != "" && (!strings.Contains(f.GoverningRefs, tc.wantRecord) || !strings.Contains(f.GoverningRefs, "no section cited")) {
						t.Errorf("%s cites %q, want %s with no section", f.RuleID, f.GoverningRefs, tc.wantRecord)
					}
				}
				if tc.wantNoCode && f.Topic == "completeness.code-analysis" {
					t.Errorf("code-analysis finding on a file outside the held codes: %s", f.RuleID)
				}
				if tc.wantScope == "scope-not-reviewed" && f.Severity != SeverityInfo {
					t.Errorf("non-info finding on an out-of-scope file: %s", f.RuleID)
				}
			}
			if tc.wantRecord != "" && analysis == 0 {
				t.Errorf("no code-analysis finding under %s: the cover states neither construction type nor sprinklers", tc.wantRecord)
			}
		})
	}
}
