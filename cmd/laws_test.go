package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planreview/scan/plangen"
)

// The laws commands through the real binary: directly on the database
// without a server, and through the admin socket while one serves.

const lawsTestSnapshot = `schemaVersion: local-law-snapshot-v1
jurisdictionId: ocd-division/country:us/state:ca/county:tamper_test
name: Tamper Test County
effectiveFrom: 2023-01-01
effectiveUntil: null
topics: [completeness, life-safety]
layers:
  - {kind: model, code: IRC, edition: "2021"}
  - {kind: state, name: 2022 California Residential Code, code: CRC, edition: "2022", basedOn: {code: IRC, edition: "2021"}}
  - kind: local
    name: Tamper Test County Code
    amendments:
      - {section: R311.7.5.1, topic: life-safety.stairs, action: value, text: MARKER-ORIGINAL-TEXT, values: {max: 7 1/2"}}
sources:
  - {title: California Building Standards Commission, url: "https://www.dgs.ca.gov/BSC/Codes", retrievedAt: 2026-10-01}
`

type importedJSON struct {
	SnapshotID     string  `json:"snapshotId"`
	JurisdictionID string  `json:"jurisdictionId"`
	EffectiveFrom  string  `json:"effectiveFrom"`
	EffectiveUntil *string `json:"effectiveUntil"`
	Status         string  `json:"status"`
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// importJSON runs laws import --json and checks the output is exactly the
// contract's object.
func importJSON(t *testing.T, dir, file string) importedJSON {
	t.Helper()
	res := mustCLI(t, dir, "laws", "import", file, "--json")
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(res.stdout), &keys); err != nil {
		t.Fatalf("laws import --json: %v\n%s", err, res.stdout)
	}
	if len(keys) != 5 {
		t.Errorf("laws import --json has keys %v; want exactly snapshotId, jurisdictionId, effectiveFrom, effectiveUntil, status", keys)
	}
	var out importedJSON
	_ = json.Unmarshal([]byte(res.stdout), &out)
	return out
}

func TestLawsImportTwiceListCertifyVerifyTamper(t *testing.T) {
	dir := newDataDir(t)
	file := writeFile(t, dir, "county.yaml", lawsTestSnapshot)

	first := importJSON(t, dir, file)
	if !strings.HasPrefix(first.SnapshotID, "lsn_") || first.Status != "imported" || first.EffectiveUntil != nil ||
		first.JurisdictionID != "ocd-division/country:us/state:ca/county:tamper_test" || first.EffectiveFrom != "2023-01-01" {
		t.Fatalf("laws import --json: %+v", first)
	}
	// The same content as JSON, keys reordered: the same snapshot.
	asJSON := writeFile(t, dir, "county.json", `{"name": "Tamper Test County", "schemaVersion": "local-law-snapshot-v1",
 "jurisdictionId": "ocd-division/country:us/state:ca/county:tamper_test", "effectiveUntil": null, "effectiveFrom": "2023-01-01",
 "topics": ["life-safety", "completeness"],
 "layers": [{"kind": "model", "code": "IRC", "edition": "2021"},
  {"kind": "state", "name": "2022 California Residential Code", "code": "CRC", "edition": "2022", "basedOn": {"code": "IRC", "edition": "2021"}},
  {"kind": "local", "name": "Tamper Test County Code", "amendments": [{"section": "R311.7.5.1", "topic": "life-safety.stairs",
   "action": "value", "text": "MARKER-ORIGINAL-TEXT", "values": {"max": "7 1/2\""}}]}],
 "sources": [{"title": "California Building Standards Commission", "url": "https://www.dgs.ca.gov/BSC/Codes", "retrievedAt": "2026-10-01"}]}`)
	if again := importJSON(t, dir, asJSON); again != first {
		t.Errorf("same content imported again: %+v, first %+v", again, first)
	}
	if res := mustCLI(t, dir, "laws", "import", file); !strings.Contains(res.stdout, "nothing changed") {
		t.Errorf("second import's message: %s", res.stdout)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(mustCLI(t, dir, "laws", "list", "--json").stdout), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0]["snapshotId"] != first.SnapshotID || list[0]["status"] != "imported" {
		t.Fatalf("laws list after two imports of one content: %v", list)
	}

	// Scope outside the snapshot's topics is refused; a default certifies its topics.
	if res := runCLI(t, dir, "laws", "certify", first.SnapshotID, "--certificate", "CERT-9", "--scope", "wildfire"); res.code != 1 ||
		!strings.Contains(res.stderr, "not among the snapshot's topics") {
		t.Errorf("certify outside the topics: exit %d, %s", res.code, res.stderr)
	}
	cert := mustCLI(t, dir, "laws", "certify", first.SnapshotID, "--certificate", "CERT-9", "--json")
	if !strings.Contains(cert.stdout, `"certifiedScope":["completeness","life-safety"]`) || !strings.Contains(cert.stdout, `"status":"certified"`) {
		t.Errorf("certify --json: %s", cert.stdout)
	}
	ver := mustCLI(t, dir, "laws", "verify", first.SnapshotID, "--json")
	if !strings.Contains(ver.stdout, `"status":"verified"`) {
		t.Errorf("verify --json: %s", ver.stdout)
	}

	// Tamper with the stored content in the database file itself, as an
	// editor of the file would: same length, so bbolt still opens it.
	dbPath := filepath.Join(dir, "planreview.db")
	raw, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("MARKER-ORIGINAL-TEXT")) {
		t.Fatal("stored content not found in the database file")
	}
	if err := os.WriteFile(dbPath, bytes.ReplaceAll(raw, []byte("MARKER-ORIGINAL-TEXT"), []byte("MARKER-TAMPERED-TXT!")), 0o600); err != nil {
		t.Fatal(err)
	}
	before := mustCLI(t, dir, "laws", "list", "--json").stdout
	res := runCLI(t, dir, "laws", "verify", first.SnapshotID)
	if res.code != 1 || !strings.Contains(res.stderr, "no longer matches") {
		t.Fatalf("verify of a tampered snapshot: exit %d, stderr %s", res.code, res.stderr)
	}
	if res := runCLI(t, dir, "laws", "verify", first.SnapshotID, "--json"); res.code != 1 || !strings.Contains(res.stdout, `"status":"failed"`) {
		t.Errorf("verify --json of a tampered snapshot: exit %d, %s", res.code, res.stdout)
	}
	if after := mustCLI(t, dir, "laws", "list", "--json").stdout; after != before {
		t.Errorf("a failed verify changed the snapshot:\n%s\n%s", before, after)
	}
}

func TestLawsMalformedFilesNameFileLineReason(t *testing.T) {
	dir := newDataDir(t)
	cases := []struct{ name, content, want string }{
		{"unknown-key.yaml", strings.Replace(lawsTestSnapshot, "name: Tamper Test County\n", "name: Tamper Test County\ncolour: blue\n", 1),
			`unknown-key.yaml:4: snapshot: unknown key "colour"`},
		{"bad-date.yaml", strings.Replace(lawsTestSnapshot, "effectiveFrom: 2023-01-01", "effectiveFrom: 2023-13-01", 1),
			`bad-date.yaml:4: effectiveFrom "2023-13-01" is not a date as YYYY-MM-DD`},
		{"missing.yaml", strings.Replace(lawsTestSnapshot, "effectiveUntil: null\n", "", 1),
			`missing.yaml:1: snapshot: missing required key "effectiveUntil"`},
		{"bad-value.yaml", strings.Replace(lawsTestSnapshot, `max: 7 1/2"`, `max: 7.5`, 1),
			`bad-value.yaml:13: layer 3 amendment 1: values max: "7.5" is not a length`},
		{"syntax.yaml", "schemaVersion: [unclosed\n", "syntax.yaml:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, tc.name, tc.content)
			res := runCLI(t, dir, "laws", "import", path)
			if res.code != 1 || !strings.Contains(res.stderr, path+":") || !strings.Contains(res.stderr, strings.TrimPrefix(tc.want, tc.name)) {
				t.Errorf("exit %d, stderr:\n%s\nwant it to contain %q", res.code, res.stderr, path+strings.TrimPrefix(tc.want, tc.name))
			}
		})
	}
}

func TestLawsWhileServing(t *testing.T) {
	dir := newDataDir(t)
	srv := startServer(t, dir)
	file := writeFile(t, dir, "county.yaml", lawsTestSnapshot)
	first := importJSON(t, dir, file)
	if again := importJSON(t, dir, file); again != first {
		t.Errorf("second import through the socket: %+v vs %+v", again, first)
	}
	mustCLI(t, dir, "laws", "certify", first.SnapshotID, "--certificate", "CERT-1")
	if res := mustCLI(t, dir, "laws", "verify", first.SnapshotID, "--json"); !strings.Contains(res.stdout, `"status":"verified"`) {
		t.Errorf("verify through the socket: %s", res.stdout)
	}
	if res := runCLI(t, dir, "laws", "import", writeFile(t, dir, "bad.yaml", "schemaVersion: local-law-snapshot-v1\n")); res.code != 1 ||
		!strings.Contains(res.stderr, `bad.yaml:1: snapshot: missing required key "jurisdictionId"`) {
		t.Errorf("malformed file through the socket: exit %d, %s", res.code, res.stderr)
	}
	// partners set --jurisdiction reaches the running server's jobs.
	k := issueKey(t, dir, "Springfield Permits")
	mustCLI(t, dir, "partners", "set", "Springfield Permits", "--jurisdiction", "ocd-division/country:us/state:ca/county:tamper_test")
	var job map[string]any
	c := apiClient{t: t, base: srv.base, key: k.Key}
	if st := c.do("POST", "/api/v1/jobs", map[string]any{"name": "defaulted"}, &job); st != 201 ||
		job["jurisdictionId"] != "ocd-division/country:us/state:ca/county:tamper_test" {
		t.Errorf("job with the partner's default: %d %v", st, job)
	}
	if res := runCLI(t, dir, "partners", "set", "Springfield Permits", "--jurisdiction", "Marin"); res.code != 1 {
		t.Errorf("partners set with a malformed jurisdiction: exit %d", res.code)
	}
}

func TestReviewWithJurisdiction(t *testing.T) {
	dir := newDataDir(t)
	set, err := plangen.Generate(plangen.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(dir, "set.pdf")
	if err := os.WriteFile(pdf, set.Files[0].PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	snap := importJSON(t, dir, writeFile(t, dir, "county.yaml", lawsTestSnapshot))
	mustCLI(t, dir, "laws", "certify", snap.SnapshotID, "--certificate", "CERT-7")

	res := mustCLI(t, dir, "review", pdf, "--jurisdiction", "ocd-division/country:us/state:ca/county:tamper_test",
		"--application-date", "2024-05-01", "--format", "json", "--fail-on", "none")
	var out struct {
		Findings []struct {
			RuleID, Topic, Rationale, GoverningRefs string
		}
		LocalLawCoverage struct {
			Status             string
			SelectedSnapshotID string
			HeldTopics         []string
		}
	}
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		t.Fatalf("review --format json: %v\n%s", err, res.stdout)
	}
	// The snapshot covers completeness and life-safety only: egress and
	// interior topics are held, stairs delivered with the amended limit.
	c := out.LocalLawCoverage
	if c.Status != "HELD" || c.SelectedSnapshotID != snap.SnapshotID || !strings.Contains(strings.Join(c.HeldTopics, ","), "egress.doors") {
		t.Fatalf("coverage %+v", c)
	}
	riser := false
	for _, f := range out.Findings {
		if strings.HasPrefix(f.Topic, "egress") || strings.HasPrefix(f.Topic, "interior") {
			t.Errorf("held topic delivered: %s", f.RuleID)
		}
		if f.RuleID == "irc-r311.7.5.1-riser-height" {
			riser = strings.Contains(f.Rationale, "may not exceed 7 1/2 in") && f.GoverningRefs == "CRC 2022 R311.7.5.1 (IRC 2021 R311.7.5.1)"
		}
	}
	if !riser {
		t.Error("riser finding with the amended limit and the CRC citation missing")
	}
	if res := runCLI(t, dir, "review", pdf, "--jurisdiction", "ocd-division/country:us/state:ca/county:tamper_test", "--application-date", "May 1"); res.code != 2 {
		t.Errorf("bad --application-date: exit %d", res.code)
	}
	if res := runCLI(t, dir, "review", pdf, "--jurisdiction", "Marin"); res.code != 2 {
		t.Errorf("bad --jurisdiction: exit %d", res.code)
	}
}
