package codebasis

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"planreview/scan/plangen"
	"planreview/scan/rules"
	"planreview/store"
)

// bigSnapshot is a county snapshot with n amendments in its local layer:
// one value amendment (R311.7.5.1 max) and n-1 text replacements.
func bigSnapshot(n int) string {
	var b strings.Builder
	b.WriteString(`schemaVersion: local-law-snapshot-v1
jurisdictionId: ocd-division/country:us/state:ca/county:bench
name: Bench County
effectiveFrom: 2023-01-01
effectiveUntil: null
topics: [completeness, egress, interior, life-safety]
layers:
  - {kind: model, code: IBC, edition: "2021"}
  - {kind: model, code: IRC, edition: "2021"}
  - {kind: state, name: 2022 California Residential Code, code: CRC, edition: "2022", basedOn: {code: IRC, edition: "2021"}}
  - kind: local
    name: Bench County Code
    amendments:
      - {section: R311.7.5.1, topic: life-safety.stairs, action: value, values: {max: 7 1/2"}}
`)
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "      - {section: R9%03d.%d, topic: life-safety, action: replace, text: \"Amended text number %d of the local ordinance, as adopted.\"}\n", i/10, i%10, i)
	}
	b.WriteString(`sources: [{title: Bench County Code, url: "https://example.org/bench", retrievedAt: 2026-10-01}]` + "\n")
	return b.String()
}

// BenchmarkCoverage is what local law adds to a scan: selecting and
// decoding the snapshot from bbolt, building the amended engine, and
// judging the review's topics and findings. BenchmarkRuleReview (the rule
// review of the same set, which a scan runs anyway) is the reference.
func BenchmarkCoverage(b *testing.B) {
	for _, n := range []int{1, 5000} {
		b.Run(fmt.Sprintf("amendments=%d", n), func(b *testing.B) {
			lib := library(b)
			fallback, _ := lib.Engine([]string{"ibc-2021", "irc-2021"})
			db, err := store.Open(filepath.Join(b.TempDir(), "planreview.db"), store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			snap, err := Parse("bench.yaml", []byte(bigSnapshot(n)), lib)
			if err != nil {
				b.Fatal(err)
			}
			s, _, err := db.PutLawSnapshot(store.LawSnapshot{JurisdictionID: snap.JurisdictionID, Name: snap.Name,
				EffectiveFrom: snap.EffectiveFrom, Content: snap.Canonical()})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := db.CertifyLawSnapshot(s.ID, "CERT-1", snap.Topics); err != nil {
				b.Fatal(err)
			}
			c := Case{JurisdictionID: snap.JurisdictionID, ApplicationDate: "2024-06-01"}
			touched := fallback.Topics()
			findingTopics := make([]string, 40)
			for i := range findingTopics {
				findingTopics[i] = touched[i%len(touched)]
			}
			run := func(b *testing.B, planner func() *Planner) {
				for b.Loop() {
					plan, err := planner().Plan(c, time.Now())
					if err != nil {
						b.Fatal(err)
					}
					res := plan.Judge(touched, findingTopics, plan.Engine.CodeBasis(), "")
					if res.Coverage.Status != StatusCertified {
						b.Fatalf("status %s: %v", res.Coverage.Status, res.Coverage.Limitations)
					}
				}
			}
			// cold: the first scan after an import (decode and compile);
			// warm: every later scan (the compilation is cached by id).
			b.Run("cold", func(b *testing.B) {
				run(b, func() *Planner { return &Planner{Library: lib, Fallback: fallback, Snapshots: db} })
			})
			warm := &Planner{Library: lib, Fallback: fallback, Snapshots: db}
			if err := warm.Warm(); err != nil { // what serve does at start and after import/certify
				b.Fatal(err)
			}
			b.Run("warm", func(b *testing.B) { run(b, func() *Planner { return warm }) })
		})
	}
}

// BenchmarkRuleReview is the reference: the rule review of the generated
// residential set (classified once), without local law.
func BenchmarkRuleReview(b *testing.B) {
	set, err := plangen.Generate(plangen.Options{Seed: 3, SkipPDF: true})
	if err != nil {
		b.Fatal(err)
	}
	ps := rules.PlanSet{Files: []rules.File{{ID: "file_1", Pages: set.Files[0].TextPages()}}}
	eng, _ := library(b).Engine([]string{"ibc-2021", "irc-2021"})
	classified, err := rules.Classify(context.Background(), ps)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := eng.ReviewReport(context.Background(), classified); err != nil {
			b.Fatal(err)
		}
	}
}
