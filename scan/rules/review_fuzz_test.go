package rules

import (
	"context"
	"strings"
	"testing"
)

// FuzzReviewLines feeds arbitrary note text through the whole review (scope,
// index against the set, references, unfinished text, schedules, status):
// it must never panic, and every anchor must lie on its page.
func FuzzReviewLines(f *testing.F) {
	for _, seed := range []string{
		"DRAWING INDEX\nSITE PLAN 1\nDETAILS 21-23\n1/IF111-2",
		"F.F.L. xx.xx\n? GROUNDING\nprojektant: #\nLOCATION TO BE DETERMINED",
		"SCALE 1 : 100 AT A1\n1:200 1: AT A1 SHEET\nAG01\nAG01\nWINDOW SCHEDULE",
		"APPLICABLE CODES: 2022 CALIFORNIA BUILDING CODE, 2019\nAS 3600-2018\nOCCUPANCY GROUP:\nR-3",
		"ENGINEERED TRUSSES PER LAYOUTS\nREVISION SET 1 (PREBID ADDENDUM)\n0-0\n999-1",
	} {
		f.Add(seed)
	}
	e, err := Load(Packs(), []string{"ibc-2021", "irc-2021"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Split(text, "\n")
		if len(lines) > 60 {
			lines = lines[:60]
		}
		for i, l := range lines {
			if len(l) > 200 {
				lines[i] = l[:200]
			}
		}
		pages := []PlanSet{{Files: []File{{ID: "f", Pages: append(scopeSet(), textPage(3, "A-301", lines...))}}}}
		for _, set := range pages {
			fs, err := e.Review(context.Background(), set)
			if err != nil {
				t.Fatal(err)
			}
			for _, fd := range fs {
				for _, a := range fd.Anchors {
					if a.BBox.Left < -1e-6 || a.BBox.Top < -1e-6 || a.BBox.Left+a.BBox.Width > 1+1e-6 || a.BBox.Top+a.BBox.Height > 1+1e-6 {
						t.Fatalf("%s: anchor %+v off the page", fd.RuleID, a.BBox)
					}
				}
			}
		}
	})
}
