package api_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"planreview/api"
	"planreview/scan"
	"planreview/scan/codebasis"
	"planreview/scan/plangen"
)

// Local-law coverage, end to end: snapshots imported and certified through
// api.Admin on the harness's real database, jobs created and scanned over
// HTTP, the real scan pipeline reading the snapshots with the harness's
// clock (so staleness is a clock advance, not a wait).

const (
	countyID = "ocd-division/country:us/state:ca/county:example"
	// lawTopics cover every law-based topic a residential review touches.
	allTopics = "[completeness, egress, interior, life-safety]"
)

// snapshotYAML writes a local-law-snapshot-v1 file: IBC and IRC 2021 model
// codes, the 2022 CRC as the state layer, and a local layer with the given
// amendments (YAML list items, may be empty).
func snapshotYAML(from, until, topics, stateCode, stateEdition, base, localAmendments string) string {
	amend := ""
	if localAmendments != "" {
		amend = "\n    amendments:\n" + localAmendments
	}
	return fmt.Sprintf(`schemaVersion: local-law-snapshot-v1
jurisdictionId: %s
name: Example County, California
effectiveFrom: %s
effectiveUntil: %s
topics: %s
layers:
  - {kind: model, code: IBC, edition: "2021"}
  - {kind: model, code: IRC, edition: "%s"}
  - kind: state
    name: %s California Residential Code
    code: %s
    edition: "%s"
    basedOn: {code: IRC, edition: "%s"}
  - kind: local
    name: Example County Code title 19%s
sources:
  - {title: California Building Standards Commission, url: "https://www.dgs.ca.gov/BSC/Codes", retrievedAt: 2026-10-01}
`, countyID, from, until, topics, base, stateEdition, stateCode, stateEdition, base, amend)
}

func crc2022(amendments string) string {
	return snapshotYAML("2023-01-01", "2025-12-31", allTopics, "CRC", "2022", "2021", amendments)
}

// lawHarness is a harness whose admin stores snapshots.
func lawHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.admin.Laws = h.db
	return h
}

func (h *harness) importLaw(name, content string) api.ImportedLaw {
	h.t.Helper()
	res, err := h.admin.ImportLaw(context.Background(), name, []byte(content))
	if err != nil {
		h.t.Fatalf("import %s: %v", name, err)
	}
	return res
}

func (h *harness) certify(id string, scope ...string) {
	h.t.Helper()
	if _, err := h.admin.CertifyLaw(context.Background(), id, "CERT-2026-001", scope); err != nil {
		h.t.Fatalf("certify %s: %v", id, err)
	}
}

// residentialPDF is the generated residential set: violations in every
// residential topic, among them a 8 1/4" riser (R311.7.5.1).
func residentialPDF(t *testing.T) []byte {
	t.Helper()
	set, err := plangen.Generate(plangen.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return set.Files[0].PDF
}

// scanJob creates a job with body, uploads pdf, scans it with the real
// pipeline (snapshots from the harness's database, its clock) and returns
// the job and findings answers, raw.
func (h *harness) scanJob(p partner, body map[string]any, pdf []byte) (job, findings map[string]json.RawMessage, csvRows [][]string) {
	job, findings, csvRows, _ = h.scanJobMarked(p, body, pdf)
	return job, findings, csvRows
}

// scanJobMarked is scanJob that also returns the marked-up PDF.
func (h *harness) scanJobMarked(p partner, body map[string]any, pdf []byte) (job, findings map[string]json.RawMessage, csvRows [][]string, markedUp []byte) {
	t := h.t
	t.Helper()
	r := h.post(p.Key, "/api/v1/jobs", body)
	wantStatus(t, r, http.StatusCreated)
	jobID := decode[jobJSON](t, r).JobID
	reg := h.post(p.Key, "/api/v1/jobs/"+jobID+"/files", map[string]any{
		"fileName": "set.pdf", "fileSize": len(pdf), "contentType": "application/pdf"})
	wantStatus(t, reg, http.StatusCreated)
	up := h.upload(decode[fileJSON](t, reg).UploadURL, pdf, nil)
	wantStatus(t, up, http.StatusOK)
	wantStatus(t, h.post(p.Key, "/api/v1/jobs/"+jobID+"/scan", nil), http.StatusOK)

	pipeline, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	pipeline.Laws, pipeline.Now = h.db, h.clock.Now
	runner := &scan.Runner{Store: h.db, Blobs: h.blobs, Pipeline: pipeline, Workers: 1, Timeout: time.Minute,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { runner.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(time.Minute)
	for {
		st := decode[jobJSON](t, h.get(p.Key, "/api/v1/jobs/"+jobID))
		if st.Status == "complete" {
			break
		}
		if st.Status == "failed" || time.Now().After(deadline) {
			t.Fatalf("scan ended %s: %s", st.Status, st.Pipeline.Error)
		}
		runner.Wake()
		time.Sleep(10 * time.Millisecond)
	}
	job = decode[map[string]json.RawMessage](t, h.get(p.Key, "/api/v1/jobs/"+jobID))
	findings = decode[map[string]json.RawMessage](t, h.get(p.Key, "/api/v1/jobs/"+jobID+"/findings"))
	files := h.files(p, jobID)
	link := decode[struct{ URL string }](t, h.get(p.Key, "/api/v1/jobs/"+jobID+"/files/"+files[0].FileID+"/annotated"))
	marked := h.send(req{Method: http.MethodGet, Path: link.URL})
	wantStatus(t, marked, http.StatusOK)
	c := h.get(p.Key, "/api/v1/jobs/"+jobID+"/export/csv")
	wantStatus(t, c, http.StatusOK)
	rows, err := csv.NewReader(bytes.NewReader(c.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return job, findings, rows[1:], marked.Body
}

type coverageJSON struct {
	SchemaVersion      string           `json:"schemaVersion"`
	Status             string           `json:"status"`
	JurisdictionID     *string          `json:"jurisdictionId"`
	VestingBasis       []string         `json:"vestingBasis"`
	SelectedSnapshotID *string          `json:"selectedSnapshotId"`
	CertificateID      *string          `json:"certificateId"`
	CertifiedScope     *json.RawMessage `json:"certifiedScope"`
	FreshnessCheckedAt string           `json:"freshnessCheckedAt"`
	DeliveredTopics    []string         `json:"deliveredTopics"`
	HeldTopics         []string         `json:"heldTopics"`
	MissingLayers      []string         `json:"missingLayers"`
	Limitations        []string         `json:"limitations"`
}

type codeBasisJSON struct {
	RequiresAck      bool            `json:"requiresAck"`
	Lines            []string        `json:"lines"`
	LocalLawCoverage json.RawMessage `json:"localLawCoverage"`
}

type lawFinding struct {
	RuleID        string `json:"ruleId"`
	Title         string `json:"title"`
	Topic         string `json:"topic"`
	Rationale     string `json:"rationale"`
	GoverningRefs string `json:"governingRefs"`
}

// coverageOf checks that the job and the findings answer carry the same
// stored coverage, byte for byte, that it validates against the OpenAPI
// schema, and decodes it.
func coverageOf(t *testing.T, job, findings map[string]json.RawMessage) (coverageJSON, codeBasisJSON, []lawFinding) {
	t.Helper()
	if !bytes.Equal(job["localLawCoverage"], findings["localLawCoverage"]) {
		t.Fatalf("job and findings coverage differ:\n%s\n%s", job["localLawCoverage"], findings["localLawCoverage"])
	}
	var basis codeBasisJSON
	if err := json.Unmarshal(findings["codeBasis"], &basis); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(basis.LocalLawCoverage, findings["localLawCoverage"]) {
		t.Fatalf("codeBasis.localLawCoverage differs from localLawCoverage:\n%s\n%s", basis.LocalLawCoverage, findings["localLawCoverage"])
	}
	var list []lawFinding
	if err := json.Unmarshal(findings["findings"], &list); err != nil {
		t.Fatal(err)
	}
	var cov coverageJSON
	if string(findings["localLawCoverage"]) != "null" {
		validateSchema(t, "LocalLawCoverage", findings["localLawCoverage"])
		if err := json.Unmarshal(findings["localLawCoverage"], &cov); err != nil {
			t.Fatal(err)
		}
	}
	validateSchema(t, "CodeBasis", findings["codeBasis"])
	return cov, basis, list
}

func topicsOf(list []lawFinding) []string {
	var out []string
	for _, f := range list {
		if !slices.Contains(out, f.Topic) {
			out = append(out, f.Topic)
		}
	}
	slices.Sort(out)
	return out
}

func TestCoverageNullWithoutJurisdiction(t *testing.T) {
	h := lawHarness(t)
	p := h.newPartner("p")
	job, findings, rows := h.scanJob(p, map[string]any{"name": "no jurisdiction"}, residentialPDF(t))
	if string(job["localLawCoverage"]) != "null" || string(job["jurisdictionId"]) != "null" {
		t.Fatalf("coverage %s, jurisdictionId %s; want null, null", job["localLawCoverage"], job["jurisdictionId"])
	}
	_, basis, list := coverageOf(t, job, findings)
	if !basis.RequiresAck || !strings.Contains(strings.Join(basis.Lines, "\n"), "Local law: not evaluated") {
		t.Errorf("codeBasis %+v: want requiresAck and a line saying local law was not evaluated", basis)
	}
	if !slices.Contains(topicsOf(list), "life-safety.stairs") || len(rows) != len(list) {
		t.Errorf("without a jurisdiction every finding is delivered: topics %v, %d CSV rows for %d findings", topicsOf(list), len(rows), len(list))
	}
}

func TestCoverageCertifiedThenStale(t *testing.T) {
	h := lawHarness(t)
	p := h.newPartner("p")
	snap := h.importLaw("county.yaml", crc2022(""))
	h.certify(snap.SnapshotID)
	pdf := residentialPDF(t)
	body := map[string]any{"name": "fresh", "jurisdictionId": countyID, "applicationDate": "2024-03-01"}

	job, findings, rows, marked := h.scanJobMarked(p, body, pdf)
	if got := string(job["jurisdictionId"]); got != `"`+countyID+`"` {
		t.Errorf("jurisdictionId %s", got)
	}
	cov, basis, list := coverageOf(t, job, findings)
	if cov.Status != "CERTIFIED" || basis.RequiresAck || len(cov.Limitations) != 0 || len(cov.HeldTopics) != 0 || len(cov.MissingLayers) != 0 {
		t.Fatalf("fresh certified snapshot: %s\ncodeBasis %+v", findings["localLawCoverage"], basis)
	}
	if *cov.SelectedSnapshotID != snap.SnapshotID || *cov.CertificateID != "CERT-2026-001" || !slices.Contains(cov.DeliveredTopics, "life-safety.stairs") {
		t.Errorf("coverage %s", findings["localLawCoverage"])
	}
	if len(rows) != len(list) || !slices.Contains(topicsOf(list), "life-safety.stairs") {
		t.Errorf("certified: all findings delivered; topics %v, %d CSV rows for %d findings", topicsOf(list), len(rows), len(list))
	}
	lines := strings.Join(basis.Lines, "\n")
	for _, want := range []string{"2022 California Residential Code (based on IRC 2021), effective 2023-01-01 — snapshot " + snap.SnapshotID + ", certificate CERT-2026-001",
		"2021 International Residential Code (IRC), model code", "Example County Code title 19 (local layer, 0 amendments), effective 2023-01-01"} {
		if !strings.Contains(lines, want) {
			t.Errorf("codeBasis lines lack %q:\n%s", want, lines)
		}
	}
	if !bytes.Contains(marked, []byte("R311.7.5.1")) {
		t.Errorf("certified: the marked-up PDF lacks the riser finding")
	}
	for _, f := range list {
		if f.RuleID == "irc-r311.7.5.1-riser-height" && f.GoverningRefs != "CRC 2022 R311.7.5.1 (IRC 2021 R311.7.5.1)" {
			t.Errorf("governingRefs %q, want the adopted code with its base", f.GoverningRefs)
		}
	}

	// Past laws.max_staleness (90 days) without a re-verification.
	h.clock.Advance(91 * 24 * time.Hour)
	body["name"] = "stale"
	job, findings, rows = h.scanJob(p, body, pdf)
	cov, basis, list = coverageOf(t, job, findings)
	if cov.Status != "HELD" || !basis.RequiresAck || !strings.Contains(strings.Join(cov.Limitations, " "), "stale") {
		t.Fatalf("stale snapshot: %s", findings["localLawCoverage"])
	}
	if !slices.Contains(cov.HeldTopics, "life-safety.stairs") || !slices.Contains(cov.HeldTopics, "completeness.code-analysis") {
		t.Errorf("held topics %v: want every law-based topic", cov.HeldTopics)
	}
	if len(list) == 0 || len(rows) != len(list) {
		t.Fatalf("%d findings, %d CSV rows: want the completeness findings, in both", len(list), len(rows))
	}
	for _, f := range list {
		if !codebasis.IsDocumentTopic(f.Topic) {
			t.Errorf("stale coverage delivered a law-based finding: %s (%s)", f.RuleID, f.Topic)
		}
	}
	if !slices.Contains(topicsOf(list), "completeness.title-block") && !slices.Contains(topicsOf(list), "completeness.sheet-index") {
		t.Errorf("document-completeness findings missing: %v", topicsOf(list))
	}

	// laws verify confirms it again: CERTIFIED.
	if _, err := h.admin.VerifyLaw(context.Background(), snap.SnapshotID); err != nil {
		t.Fatal(err)
	}
	body["name"] = "verified"
	job, findings, _ = h.scanJob(p, body, pdf)
	if cov, _, _ = coverageOf(t, job, findings); cov.Status != "CERTIFIED" {
		t.Errorf("after laws verify: %s", findings["localLawCoverage"])
	}
}

func TestCoverageScopeMissingTopic(t *testing.T) {
	h := lawHarness(t)
	p := h.newPartner("p")
	snap := h.importLaw("county.yaml", crc2022(""))
	h.certify(snap.SnapshotID, "completeness", "egress", "interior") // not life-safety
	job, findings, _, marked := h.scanJobMarked(p, map[string]any{"name": "scope", "jurisdictionId": countyID, "applicationDate": "2024-03-01"}, residentialPDF(t))
	cov, basis, list := coverageOf(t, job, findings)
	if cov.Status != "HELD" || !basis.RequiresAck || !slices.Contains(cov.HeldTopics, "life-safety.stairs") {
		t.Fatalf("scope without life-safety: %s", findings["localLawCoverage"])
	}
	if slices.Contains(cov.HeldTopics, "egress.doors") || !slices.Contains(cov.DeliveredTopics, "completeness.code-analysis") {
		t.Errorf("topics inside the scope must be delivered: %s", findings["localLawCoverage"])
	}
	for _, f := range list {
		if strings.HasPrefix(f.Topic, "life-safety") {
			t.Errorf("held topic delivered: %s (%s)", f.RuleID, f.Topic)
		}
	}
	if n := bytes.Count(marked, []byte("/Square")); n == 0 || bytes.Contains(marked, []byte("R311.7.5.1")) {
		t.Errorf("marked-up PDF: %d marks, R311.7.5.1 present %v; want marks, none of a held topic", n, bytes.Contains(marked, []byte("R311.7.5.1")))
	}
	if !strings.Contains(strings.Join(cov.Limitations, " "), "life-safety.stairs is outside the certified scope") {
		t.Errorf("limitations %v", cov.Limitations)
	}
}

func TestCoverageVestingBoundary(t *testing.T) {
	h := lawHarness(t)
	p := h.newPartner("p")
	old := h.importLaw("2022.yaml", crc2022(""))
	next := h.importLaw("2025.yaml", snapshotYAML("2026-01-01", "null", allTopics, "CRC", "2025", "2024", ""))
	h.certify(old.SnapshotID)
	h.certify(next.SnapshotID)
	pdf := residentialPDF(t)
	for _, tc := range []struct{ date, want string }{
		{"2025-12-31", old.SnapshotID},
		{"2026-01-01", next.SnapshotID},
	} {
		job, findings, _ := h.scanJob(p, map[string]any{"name": tc.date, "jurisdictionId": countyID, "applicationDate": tc.date}, pdf)
		cov, _, _ := coverageOf(t, job, findings)
		if cov.SelectedSnapshotID == nil || *cov.SelectedSnapshotID != tc.want {
			t.Errorf("application date %s selected %v, want %s", tc.date, cov.SelectedSnapshotID, tc.want)
		}
		if !strings.Contains(strings.Join(cov.VestingBasis, " "), "Application date "+tc.date) {
			t.Errorf("vestingBasis %v", cov.VestingBasis)
		}
	}
}

func TestCoverageValueAmendmentChangesLimit(t *testing.T) {
	h := lawHarness(t)
	p := h.newPartner("p")
	amended := h.importLaw("amended.yaml", crc2022(`      - {section: R311.7.5.1, topic: life-safety.stairs, action: value, values: {max: 7 1/2"}}
`))
	h.certify(amended.SnapshotID)
	job, findings, _ := h.scanJob(p, map[string]any{"name": "amended", "jurisdictionId": countyID, "applicationDate": "2024-03-01"}, residentialPDF(t))
	_, _, list := coverageOf(t, job, findings)
	var riser *lawFinding
	for i := range list {
		if list[i].RuleID == "irc-r311.7.5.1-riser-height" {
			riser = &list[i]
		}
	}
	if riser == nil {
		t.Fatalf("riser finding missing")
	}
	for _, want := range []string{"may not exceed 7 1/2 in", "Limit set by Example County Code title 19 (local amendment to R311.7.5.1)", `model code: 7 3/4"`} {
		if !strings.Contains(riser.Rationale, want) {
			t.Errorf("rationale %q lacks %q", riser.Rationale, want)
		}
	}
	if riser.GoverningRefs != "CRC 2022 R311.7.5.1 (IRC 2021 R311.7.5.1)" {
		t.Errorf("governingRefs %q", riser.GoverningRefs)
	}

	// The same set without a jurisdiction: the model limit.
	_, findings, _ = h.scanJob(p, map[string]any{"name": "model"}, residentialPDF(t))
	_, _, list = coverageOf(t, map[string]json.RawMessage{"localLawCoverage": findings["localLawCoverage"]}, findings)
	for _, f := range list {
		if f.RuleID == "irc-r311.7.5.1-riser-height" && !strings.Contains(f.Rationale, "may not exceed 7 3/4 in") {
			t.Errorf("model rationale %q", f.Rationale)
		}
	}
}

func TestJobJurisdiction(t *testing.T) {
	h := lawHarness(t)
	p := h.newPartner("p")
	for _, bad := range []string{"california", "ocd-division/country:US", strings.Repeat("ocd-division/country:us/place:x", 7), ""} {
		wantError(t, h.post(p.Key, "/api/v1/jobs", map[string]any{"name": "x", "jurisdictionId": bad}), http.StatusBadRequest, "invalid_request", "jurisdictionId")
	}
	r := h.post(p.Key, "/api/v1/jobs", map[string]any{"name": "none"})
	wantStatus(t, r, http.StatusCreated)
	if got := decode[map[string]json.RawMessage](t, r)["jurisdictionId"]; string(got) != "null" {
		t.Errorf("jurisdictionId without one: %s", got)
	}
	withID := h.createJob(p, map[string]any{"name": "given", "jurisdictionId": countyID})

	// The partner's default applies to jobs that name none.
	other := "ocd-division/country:us/state:fl"
	if _, err := h.admin.SetPartner(context.Background(), p.Name, api.PartnerSettings{Jurisdiction: &other}); err != nil {
		t.Fatal(err)
	}
	r = h.post(p.Key, "/api/v1/jobs", map[string]any{"name": "defaulted"})
	wantStatus(t, r, http.StatusCreated)
	if got := decode[map[string]json.RawMessage](t, r)["jurisdictionId"]; string(got) != `"`+other+`"` {
		t.Errorf("partner default: jurisdictionId %s", got)
	}
	bad := "not an id"
	if _, err := h.admin.SetPartner(context.Background(), p.Name, api.PartnerSettings{Jurisdiction: &bad}); err == nil {
		t.Error("partners set --jurisdiction accepted a malformed id")
	}

	list := decode[jobListJSON](t, h.get(p.Key, "/api/v1/jobs?jurisdictionId="+url.QueryEscape(countyID)))
	if len(list.Jobs) != 1 || list.Jobs[0].JobID != withID.JobID {
		t.Errorf("filter by jurisdictionId: %+v", list.Jobs)
	}
	raw := h.get(p.Key, "/api/v1/jobs/"+withID.JobID)
	if got := decode[map[string]json.RawMessage](t, raw)["jurisdictionId"]; string(got) != `"`+countyID+`"` {
		t.Errorf("GET job jurisdictionId %s", got)
	}
	wantError(t, h.get(p.Key, "/api/v1/jobs?jurisdictionId=nonsense"), http.StatusBadRequest, "invalid_request", "jurisdictionId")
}

// validateSchema checks a JSON value against a component schema of
// api/openapi.json: type (with null), required, const, enum, properties
// and array items, following $ref and oneOf. Enough for the contract's
// objects; no external validator is needed.
func validateSchema(t *testing.T, component string, raw json.RawMessage) {
	t.Helper()
	doc := openAPIDoc(t)
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	schema := doc["components"].(map[string]any)["schemas"].(map[string]any)[component]
	if schema == nil {
		t.Fatalf("openapi.json has no schema %s", component)
	}
	if errs := checkSchema(doc, schema.(map[string]any), v, component); len(errs) > 0 {
		t.Errorf("%s does not validate against openapi.json:\n%s\n%s", component, strings.Join(errs, "\n"), raw)
	}
}

func openAPIDoc(t *testing.T) map[string]any {
	t.Helper()
	raw, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func checkSchema(doc map[string]any, s map[string]any, v any, path string) []string {
	if ref, ok := s["$ref"].(string); ok {
		target := doc
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			target = target[part].(map[string]any)
		}
		return checkSchema(doc, target, v, path)
	}
	if alts, ok := s["oneOf"].([]any); ok {
		matched := 0
		var last []string
		for _, alt := range alts {
			errs := checkSchema(doc, alt.(map[string]any), v, path)
			if len(errs) == 0 {
				matched++
			} else {
				last = errs
			}
		}
		if matched != 1 {
			return append([]string{fmt.Sprintf("%s: matches %d of oneOf", path, matched)}, last...)
		}
		return nil
	}
	var errs []string
	if c, ok := s["const"]; ok && v != c {
		errs = append(errs, fmt.Sprintf("%s: %v, want const %v", path, v, c))
	}
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, v) {
		errs = append(errs, fmt.Sprintf("%s: %v not in %v", path, v, enum))
	}
	if typ, ok := s["type"]; ok {
		var types []string
		switch tt := typ.(type) {
		case string:
			types = []string{tt}
		case []any:
			for _, x := range tt {
				types = append(types, x.(string))
			}
		}
		if !slices.Contains(types, jsonType(v)) && !(jsonType(v) == "integer" && slices.Contains(types, "number")) {
			return append(errs, fmt.Sprintf("%s: %s, want %v", path, jsonType(v), types))
		}
		if f, _ := s["format"].(string); f == "date-time" {
			if str, ok := v.(string); ok {
				if _, err := time.Parse(time.RFC3339, str); err != nil {
					errs = append(errs, fmt.Sprintf("%s: %q is not date-time", path, str))
				}
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		for _, r := range asList(s["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				errs = append(errs, fmt.Sprintf("%s: required %s missing", path, r))
			}
		}
		props, _ := s["properties"].(map[string]any)
		for k, pv := range obj {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, checkSchema(doc, ps, pv, path+"."+k)...)
			}
		}
	}
	if arr, ok := v.([]any); ok {
		if items, ok := s["items"].(map[string]any); ok {
			for i, it := range arr {
				errs = append(errs, checkSchema(doc, items, it, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	return errs
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	default:
		return "object"
	}
}

func TestCoverageHeldWithoutSnapshot(t *testing.T) {
	h := lawHarness(t)
	p := h.newPartner("p")
	uncertified := h.importLaw("county.yaml", crc2022("")) // imported, never certified
	job, findings, rows := h.scanJob(p, map[string]any{"name": "no snapshot", "jurisdictionId": countyID, "applicationDate": "2024-03-01"}, residentialPDF(t))
	cov, basis, list := coverageOf(t, job, findings)
	if cov.Status != "HELD" || cov.SelectedSnapshotID != nil || cov.CertificateID != nil || cov.CertifiedScope != nil || !basis.RequiresAck {
		t.Fatalf("no certified snapshot: %s", findings["localLawCoverage"])
	}
	if strings.Join(cov.MissingLayers, ",") != "state,local" || !strings.Contains(strings.Join(cov.Limitations, " "), uncertified.SnapshotID+" (Example County, California) is in force on 2024-03-01 but not certified") {
		t.Errorf("missingLayers %v, limitations %v", cov.MissingLayers, cov.Limitations)
	}
	for _, f := range list {
		if !codebasis.IsDocumentTopic(f.Topic) {
			t.Errorf("law-based finding delivered without certified law: %s", f.RuleID)
		}
	}
	if len(rows) != len(list) || len(list) == 0 {
		t.Errorf("%d CSV rows for %d findings", len(rows), len(list))
	}
	if !strings.Contains(strings.Join(basis.Lines, "\n"), "Local law of "+countyID+": not evaluated") {
		t.Errorf("lines %v", basis.Lines)
	}
}

// TestLocalLawCoverageSchemaMatchesContract: the OpenAPI schema and the Go
// type carry exactly the contract's twelve fields (partner-api-v1.md,
// LocalLawCoverage), all required, with the contract's types.
func TestLocalLawCoverageSchemaMatchesContract(t *testing.T) {
	contract := map[string]string{ // field -> JSON types allowed
		"schemaVersion": "string", "status": "string", "jurisdictionId": "string|null", "vestingBasis": "array",
		"selectedSnapshotId": "string|null", "certificateId": "string|null", "certifiedScope": "object|null",
		"freshnessCheckedAt": "string", "deliveredTopics": "array", "heldTopics": "array", "missingLayers": "array",
		"limitations": "array",
	}
	schema := openAPIDoc(t)["components"].(map[string]any)["schemas"].(map[string]any)["LocalLawCoverage"].(map[string]any)
	props := schema["properties"].(map[string]any)
	required := map[string]bool{}
	for _, r := range asList(schema["required"]) {
		required[r.(string)] = true
	}
	if len(props) != len(contract) || len(required) != len(contract) {
		t.Errorf("openapi LocalLawCoverage: %d properties, %d required; the contract has %d fields", len(props), len(required), len(contract))
	}
	for field, types := range contract {
		p, ok := props[field].(map[string]any)
		if !ok || !required[field] {
			t.Errorf("%s: missing or not required in openapi.json", field)
			continue
		}
		var got []string
		switch tt := p["type"].(type) {
		case string:
			got = []string{tt}
		case []any:
			for _, x := range tt {
				got = append(got, x.(string))
			}
		case nil:
			// A named object that may be null: oneOf [{type: null}, {$ref}].
			for _, alt := range asList(p["oneOf"]) {
				alt := alt.(map[string]any)
				if ref, ok := alt["$ref"].(string); ok {
					name := strings.TrimPrefix(ref, "#/components/schemas/")
					alt = openAPIDoc(t)["components"].(map[string]any)["schemas"].(map[string]any)[name].(map[string]any)
				}
				got = append(got, alt["type"].(string))
			}
			if i := slices.Index(got, "null"); i >= 0 { // the contract lists null last
				got = append(slices.Delete(got, i, i+1), "null")
			}
		}
		if strings.Join(got, "|") != types {
			t.Errorf("%s: openapi type %v, contract %s", field, got, types)
		}
	}
	if c := props["schemaVersion"].(map[string]any)["const"]; c != codebasis.SchemaCoverage {
		t.Errorf("schemaVersion const %v", c)
	}
	if f := props["freshnessCheckedAt"].(map[string]any)["format"]; f != "date-time" {
		t.Errorf("freshnessCheckedAt format %v", f)
	}
	// The Go type marshals exactly these keys, nothing more.
	raw, err := json.Marshal(codebasis.Coverage{})
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	_ = json.Unmarshal(raw, &keys)
	if len(keys) != len(contract) {
		t.Errorf("codebasis.Coverage has keys %v", keys)
	}
	for k := range keys {
		if _, ok := contract[k]; !ok {
			t.Errorf("codebasis.Coverage has key %s, not in the contract", k)
		}
	}
}
