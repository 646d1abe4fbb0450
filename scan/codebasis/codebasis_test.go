package codebasis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"planreview/scan/rules"
	"planreview/store"
)

func library(t testing.TB) *rules.Library {
	t.Helper()
	lib, err := Library()
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func TestExamplesParse(t *testing.T) {
	files, err := filepath.Glob("../../docs/examples/laws/*.yaml")
	if err != nil || len(files) != 3 {
		t.Fatalf("examples: %v %v", files, err)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(filepath.Base(f), raw, library(t))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(s.Sources) == 0 {
			t.Errorf("%s: no sources", f)
		}
	}
}

const minimal = `schemaVersion: local-law-snapshot-v1
jurisdictionId: ocd-division/country:us/state:ca/county:marin
name: County of Marin, California
effectiveFrom: 2023-01-01
effectiveUntil: 2025-12-31
topics: [completeness, life-safety.stairs, wildfire]
layers:
  - {kind: model, code: IRC, edition: "2021"}
  - {kind: state, name: "2022 California Residential Code", code: CRC, edition: "2022", basedOn: {code: IRC, edition: "2021"}}
  - kind: local
    name: Marin County Code title 19
    amendments:
      - {section: R311.7.5.1, topic: life-safety.stairs, action: value, values: {max: 7 1/2"}}
sources: [{title: Marin County Code, url: "https://library.municode.com/ca/marin_county", retrievedAt: 2026-10-01}]
`

// TestCanonicalID: YAML and JSON of the same content, in any key order,
// give the same canonical bytes and id; a changed value gives another.
func TestCanonicalID(t *testing.T) {
	a, err := Parse("a.yaml", []byte(minimal), library(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("b.json", []byte(`{"topics":["wildfire","completeness","life-safety.stairs"],"schemaVersion":"local-law-snapshot-v1",
"jurisdictionId":"ocd-division/country:us/state:ca/county:marin","name":"County of Marin, California","effectiveFrom":"2023-01-01",
"effectiveUntil":"2025-12-31","layers":[{"kind":"model","code":"IRC","edition":"2021"},
{"kind":"state","name":"2022 California Residential Code","code":"CRC","edition":"2022","basedOn":{"edition":"2021","code":"IRC"}},
{"kind":"local","name":"Marin County Code title 19","amendments":[{"section":"R311.7.5.1","topic":"life-safety.stairs","action":"value","values":{"max":"7 1/2\""}}]}],
"sources":[{"title":"Marin County Code","url":"https://library.municode.com/ca/marin_county","retrievedAt":"2026-10-01"}]}`), library(t))
	if err != nil {
		t.Fatal(err)
	}
	if string(a.Canonical()) != string(b.Canonical()) {
		t.Fatalf("canonical differs:\n%s\n%s", a.Canonical(), b.Canonical())
	}
	c, err := Parse("c.yaml", []byte(strings.Replace(minimal, `7 1/2"`, `7 5/8"`, 1)), library(t))
	if err != nil {
		t.Fatal(err)
	}
	if store.LawSnapshotID(a.Canonical()) == store.LawSnapshotID(c.Canonical()) {
		t.Error("different content, same id")
	}
	if !store.ValidID(store.LawSnapshotID(a.Canonical()), store.PrefixLawSnapshot) {
		t.Errorf("id %s is not a well-formed lsn_ id", store.LawSnapshotID(a.Canonical()))
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, from, to, want string }{
		{"unknown key", "name: County", "nmae: County", `f.yaml:3: snapshot: unknown key "nmae"`},
		{"missing name", "name: County of Marin, California\n", "", `f.yaml:1: snapshot: missing required key "name"`},
		{"schema", "local-law-snapshot-v1", "local-law-snapshot-v2", `f.yaml:1: schemaVersion "local-law-snapshot-v2"`},
		{"jurisdiction", "ocd-division/country:us/state:ca/county:marin", "Marin County", `f.yaml:2: jurisdictionId "Marin County"`},
		{"until before from", "effectiveUntil: 2025-12-31", "effectiveUntil: 2022-12-31", "f.yaml:5: effectiveUntil 2022-12-31 is before effectiveFrom 2023-01-01"},
		{"bad until", "effectiveUntil: 2025-12-31", "effectiveUntil: soon", `f.yaml:5: effectiveUntil "soon" is not a date`},
		{"layer order", "  - {kind: model, code: IRC", "  - {kind: local, name: x}\n  - {kind: model, code: IRC", "layer 2: a model layer after a higher one"},
		{"kind", "kind: local\n", "kind: city\n", `f.yaml:10: layer 3: kind "city"`},
		{"action", "action: value", "action: amend", `f.yaml:13: layer 3 amendment 1: action "amend"`},
		{"topic outside", "topic: life-safety.stairs, action", "topic: structural, action", `topic "structural" is not among the snapshot's topics`},
		{"section no rule", "section: R311.7.5.1", "section: R999.1", "no rule of this appliance checks section R999.1"},
		{"param", "values: {max:", "values: {min:", `no rule checking R311.7.5.1 has parameter "min"`},
		{"adoption table", `basedOn: {code: IRC, edition: "2021"}}`, `basedOn: {code: IRC, edition: "2018"}}`, "CRC 2022 is based on IRC 2021 (adoption table), not IRC 2018"},
		{"source url", `url: "https://library.municode.com/ca/marin_county"`, `url: "marin"`, `source url "marin" is not an http(s) URL`},
		{"yaml syntax", "topics: [completeness", "topics: [completeness,,", "f.yaml:6: YAML syntax: did not find expected node content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(minimal, tc.from, tc.to, 1)
			if src == minimal {
				t.Fatalf("replacement %q not found", tc.from)
			}
			_, err := Parse("f.yaml", []byte(src), library(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestResolveValueAmbiguous(t *testing.T) {
	all := library(t).Rules()
	ibc := []CodeRef{{Code: "IBC", Edition: "2021"}}
	if _, err := ResolveValue(all, ibc, "1011.5.2", "min"); err == nil || !strings.Contains(err.Error(), "qualify it as RULE_ID.min") {
		t.Errorf("min of 1011.5.2 (riser 4 in, tread 11 in): %v", err)
	}
	targets, err := ResolveValue(all, ibc, "1011.5.2", "ibc-1011.5.2-tread-depth.min")
	if err != nil || len(targets) != 1 || targets[0].Rule.ID != "ibc-1011.5.2-tread-depth" {
		t.Errorf("qualified: %v %v", targets, err)
	}
	targets, err = ResolveValue(all, []CodeRef{{Code: "IRC", Edition: "2021"}}, "R311.7.5.1", "max")
	if err != nil || len(targets) != 2 {
		t.Errorf("max of R311.7.5.1 (stated and computed riser): %v %v", targets, err)
	}
}

func TestExpectedLayersAndCovers(t *testing.T) {
	for id, want := range map[string]string{
		"ocd-division/country:us":                               "",
		"ocd-division/country:us/state:fl":                      "state",
		"ocd-division/country:us/state:ny/place:new_york":       "state,local",
		"ocd-division/country:us/state:ca/county:marin/place:x": "state,local",
	} {
		if got := strings.Join(expectedLayers(id), ","); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
	if !Covers("life-safety", "life-safety.stairs") || Covers("life", "life-safety.stairs") || !Covers("egress", "egress") {
		t.Error("Covers")
	}
}

// memory is a Snapshots over records built in the test.
type memory []store.LawSnapshot

func (m memory) LawSnapshots(j string, _ bool) ([]store.LawSnapshot, error) {
	var out []store.LawSnapshot
	for _, s := range m {
		if s.JurisdictionID == j {
			out = append(out, s)
		}
	}
	return out, nil
}

func (m memory) LawSnapshot(id string) (store.LawSnapshot, error) {
	for _, s := range m {
		if s.ID == id {
			return s, nil
		}
	}
	return store.LawSnapshot{}, store.ErrNotFound
}

func record(t testing.TB, src string, certified time.Time, scope ...string) store.LawSnapshot {
	t.Helper()
	s, err := Parse("s.yaml", []byte(src), library(t))
	if err != nil {
		t.Fatal(err)
	}
	content := s.Canonical()
	rec := store.LawSnapshot{ID: store.LawSnapshotID(content), JurisdictionID: s.JurisdictionID, Name: s.Name,
		EffectiveFrom: s.EffectiveFrom, Content: content, CertificateID: "CERT-1", CertifiedScope: scope,
		CertifiedAt: &certified, FreshnessCheckedAt: &certified}
	if s.EffectiveUntil != nil {
		rec.EffectiveUntil = *s.EffectiveUntil
	}
	if len(scope) == 0 {
		rec.CertifiedScope = s.Topics
	}
	return rec
}

// TestJudgeStaleness: the boundary is laws.max_staleness from the last
// freshness check, inclusive.
func TestJudgeStaleness(t *testing.T) {
	lib := library(t)
	fallback, err := lib.Engine([]string{"ibc-2021", "irc-2021"})
	if err != nil {
		t.Fatal(err)
	}
	checked := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	src := memory{record(t, minimal, checked)}
	c := Case{JurisdictionID: "ocd-division/country:us/state:ca/county:marin", ApplicationDate: "2024-01-01"}
	for _, tc := range []struct {
		after time.Duration
		want  string
	}{{DefaultMaxStaleness, StatusCertified}, {DefaultMaxStaleness + time.Second, StatusHeld}} {
		plan, err := NewPlan(c, src, lib, fallback, Settings{}, checked.Add(tc.after))
		if err != nil {
			t.Fatal(err)
		}
		res := plan.Judge([]string{"completeness.sheet-index", "life-safety.stairs"}, []string{"life-safety.stairs", "completeness.sheet-index"}, nil, "")
		if res.Coverage.Status != tc.want {
			t.Errorf("%s after the check: %s %v", tc.after, res.Coverage.Status, res.Coverage.Limitations)
		}
		if tc.want == StatusHeld && (res.Delivered[0] || !res.Delivered[1]) {
			t.Errorf("stale: delivered %v; want the law-based finding held, the document one delivered", res.Delivered)
		}
	}
}

// FuzzParseSnapshot: no input makes Parse panic, and whatever it accepts has a
// canonical form that parses to the same canonical form.
func FuzzParseSnapshot(f *testing.F) {
	f.Add([]byte(minimal))
	f.Add([]byte(`{"schemaVersion":"local-law-snapshot-v1"}`))
	f.Add([]byte("layers: [{kind: model}]\n"))
	lib := library(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data, lib)
		if err != nil {
			return
		}
		again, err := Parse("canonical.json", s.Canonical(), lib)
		if err != nil {
			t.Fatalf("canonical form does not parse: %v\n%s", err, s.Canonical())
		}
		if string(again.Canonical()) != string(s.Canonical()) {
			t.Fatalf("canonical form not stable:\n%s\n%s", s.Canonical(), again.Canonical())
		}
	})
}

func TestNoteOccupancy(t *testing.T) {
	lib := library(t)
	fallback, _ := lib.Engine([]string{"ibc-2021", "irc-2021"})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	src := memory{record(t, minimal, now)} // IRC only
	c := Case{JurisdictionID: "ocd-division/country:us/state:ca/county:marin", ApplicationDate: "2024-01-01"}
	for occ, want := range map[string]bool{rules.OccupancyCommercial: true, rules.OccupancyResidential: false, "": false} {
		plan, err := NewPlan(c, src, lib, fallback, Settings{}, now)
		if err != nil {
			t.Fatal(err)
		}
		plan.NoteOccupancy(occ)
		res := plan.Judge(nil, nil, nil, "")
		got := strings.Contains(strings.Join(res.Coverage.Limitations, " "), "adopts no IBC")
		if got != want || res.CodeBasis.RequiresAck != want {
			t.Errorf("occupancy %q: limitation %v, requiresAck %v; want %v", occ, got, res.CodeBasis.RequiresAck, want)
		}
	}
}
