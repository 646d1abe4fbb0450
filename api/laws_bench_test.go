package api_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"planreview/api"
	"planreview/store"
)

// BenchmarkLawsImport is `laws import` of a 5,000-amendment snapshot
// without the process start: strict validation (every values key against
// the rule library), canonical JSON, hashing and the fsynced bbolt write.
// Each iteration changes one character so every import stores a new
// snapshot.
func BenchmarkLawsImport(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), "planreview.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	admin := &api.Admin{Store: db, Laws: db}
	var sb strings.Builder
	sb.WriteString(`schemaVersion: local-law-snapshot-v1
jurisdictionId: ocd-division/country:us/state:ca/county:bench
name: Bench County %d
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
`)
	for i := range 5000 {
		if i%100 == 0 {
			sb.WriteString("      - {section: R311.7.5.1, topic: life-safety.stairs, action: value, values: {max: 7 1/2\"}}\n")
			continue
		}
		fmt.Fprintf(&sb, "      - {section: R9%03d.%d, topic: life-safety, action: replace, text: \"Amended text number %d of the local ordinance, as adopted.\"}\n", i/10, i%10, i)
	}
	sb.WriteString(`sources: [{title: Bench County Code, url: "https://example.org/bench", retrievedAt: 2026-10-01}]` + "\n")
	tmpl := sb.String()
	b.SetBytes(int64(len(tmpl)))
	i := 0
	for b.Loop() {
		i++
		if _, err := admin.ImportLaw(context.Background(), "bench.yaml", []byte(fmt.Sprintf(tmpl, i))); err != nil {
			b.Fatal(err)
		}
	}
}
