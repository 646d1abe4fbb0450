package rules_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"planreview/scan/plangen"
	"planreview/scan/rules"
)

// planSet turns a generated set's ground truth into the engine's input.
func planSet(s *plangen.Set) rules.PlanSet {
	var ps rules.PlanSet
	for i := range s.Files {
		ps.Files = append(ps.Files, rules.File{ID: fmt.Sprintf("file_%d", i+1), Pages: s.Files[i].TextPages()})
	}
	return ps
}

func within(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestGoldenSets: every planted violation is found with its rule, severity
// and a box within 2% of the planted text; the compliant twins produce no
// finding above info.
func TestGoldenSets(t *testing.T) {
	for _, tc := range []struct {
		variant string
		extra   int
		rotate  int
	}{
		{plangen.VariantResidential, 0, 0}, {plangen.VariantCommercial, 0, 0},
		{plangen.VariantResidential, 60, 0}, {plangen.VariantCommercial, 45, 0},
		{plangen.VariantResidential, 0, 90}, {plangen.VariantCommercial, 0, 270},
	} {
		variant := tc.variant
		t.Run(fmt.Sprintf("%s+%d@%d", variant, tc.extra, tc.rotate), func(t *testing.T) {
			set, err := plangen.Generate(plangen.Options{Variant: variant, FillerPerPage: 40, ExtraSheets: tc.extra, Rotate: tc.rotate, SkipPDF: true})
			if err != nil {
				t.Fatal(err)
			}
			eng, err := rules.Load(rules.Packs(), set.Adopted)
			if err != nil {
				t.Fatal(err)
			}
			findings, err := eng.Review(context.Background(), planSet(set))
			if err != nil {
				t.Fatal(err)
			}
			if len(set.Expected) < 10 {
				t.Fatalf("only %d expectations", len(set.Expected))
			}
			used := map[int]bool{}
			for _, e := range set.Expected {
				found := false
				for i, f := range findings {
					if used[i] || f.RuleID != e.RuleID || f.FileIndex != e.File || f.Page != e.Page {
						continue
					}
					if f.Severity != e.Severity {
						t.Errorf("%s: severity %s, want %s", e.RuleID, f.Severity, e.Severity)
					}
					if e.BBox != nil {
						if len(f.Anchors) == 0 {
							continue
						}
						b := f.Anchors[0].BBox
						if !within(b.Left, e.BBox.Left, 0.02) || !within(b.Top, e.BBox.Top, 0.02) ||
							!within(b.Width, e.BBox.Width, 0.02) || !within(b.Height, e.BBox.Height, 0.02) {
							continue
						}
					}
					used[i], found = true, true
					break
				}
				if !found {
					t.Errorf("expected %s (%s) on file %d page %d at %q not found", e.RuleID, e.Severity, e.File, e.Page, e.Text)
				}
			}
			for i, f := range findings {
				if !used[i] {
					t.Errorf("unexpected finding %s on %s: %s", f.RuleID, f.SheetNumber, f.Rationale)
				}
			}

			twin, err := plangen.Generate(plangen.Options{Variant: variant, Compliant: true, FillerPerPage: 40, ExtraSheets: tc.extra, Rotate: tc.rotate, SkipPDF: true})
			if err != nil {
				t.Fatal(err)
			}
			tf, err := eng.Review(context.Background(), planSet(twin))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range tf {
				if f.Severity != rules.SeverityInfo {
					t.Errorf("compliant twin: %s on %s p%d: %s", f.RuleID, f.SheetNumber, f.Page, strings.TrimSpace(f.Rationale))
				}
			}
		})
	}
}
