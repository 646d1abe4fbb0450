package api

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"planreview/scan"
	"planreview/scan/codebasis"
	"planreview/scan/sheets"
)

// The rules below hold for every operation of api/openapi.json, present and
// future, so that a client generated from it (oapi-codegen, openapi-generator)
// is typed, exact and safe to call, and a partner reading it sees a real
// request and answer for every case. Each failure names the operation or
// schema and what to add.

// contractErrorStatus is the contract's status for every error code
// (contract.md, "Errors").
var contractErrorStatus = map[string]int{
	"invalid_json": 400, "invalid_request": 400, "unsupported_content_type": 400, "file_too_large": 400,
	"no_files": 400, "file_not_uploaded": 400, "invalid_screen": 400, "missing_job_id": 400,
	"missing_message": 400, "not_a_pdf": 400,
	"unauthorized": 401,
	"url_expired":  403, "signature_invalid": 403,
	"not_found": 404, "not_ready": 404,
	"method_not_allowed": 405,
	"scan_not_complete":  409, "version_locked": 409, "idempotency_conflict": 409,
	"length_required": 411,
	"rate_limited":    429, "quota_exceeded": 429,
	"internal":    500,
	"unavailable": 503,
}

// contractOperationErrors are the codes partner-api-v1.md and contract.md
// name for the published operations: each needs an example of its own.
var contractOperationErrors = map[string][]string{
	"ping":            {"unauthorized", "rate_limited"},
	"createJob":       {"invalid_json", "invalid_request", "unauthorized", "idempotency_conflict", "rate_limited"},
	"listJobs":        {"invalid_request", "unauthorized"},
	"getJob":          {"not_found", "unauthorized"},
	"registerFile":    {"invalid_json", "invalid_request", "unsupported_content_type", "file_too_large", "not_found", "idempotency_conflict"},
	"listFiles":       {"not_found"},
	"uploadFile":      {"unsupported_content_type", "invalid_request", "not_a_pdf", "url_expired", "signature_invalid", "version_locked", "length_required"},
	"startScan":       {"no_files", "file_not_uploaded", "not_found", "idempotency_conflict", "rate_limited", "quota_exceeded"},
	"getFindings":     {"not_found", "scan_not_complete"},
	"exportCSV":       {"not_found", "scan_not_complete"},
	"getAnnotatedPDF": {"not_found", "not_ready"},
	"chat":            {"missing_message", "invalid_request", "not_found", "scan_not_complete"},
	"createEmbedLink": {"invalid_screen", "missing_job_id", "invalid_request", "not_found"},
}

func mustLoadAPIDoc(t *testing.T) *apiDoc {
	t.Helper()
	d, err := loadAPIDoc()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestOpenAPIOperations: every operation has a unique operationId, a
// summary, and declares every parameter of its path template.
func TestOpenAPIOperations(t *testing.T) {
	d := mustLoadAPIDoc(t)
	seen := map[string]string{}
	for _, o := range d.operations() {
		if o.id == "" {
			t.Errorf("%s: no operationId; generated clients name their methods after it", o)
		} else if other, dup := seen[o.id]; dup {
			t.Errorf("%s: operationId %q is also used by %s", o, o.id, other)
		}
		seen[o.id] = o.String()
		if s, _ := o.op["summary"].(string); s == "" {
			t.Errorf("%s: no summary", o)
		}
		declared := map[string]bool{}
		for _, p := range d.parameters(o) {
			if p["in"] == "path" {
				declared[p["name"].(string)] = true
			}
		}
		for _, m := range regexp.MustCompile(`\{([^}]+)\}`).FindAllStringSubmatch(o.path, -1) {
			if !declared[m[1]] {
				t.Errorf("%s: path parameter {%s} is not declared in parameters", o, m[1])
			}
		}
	}
}

// parameters resolves an operation's parameters (with its path item's).
func (d *apiDoc) parameters(o operation) []map[string]any {
	var out []map[string]any
	item, _ := d.root["paths"].(map[string]any)[o.path].(map[string]any)
	for _, p := range append(asSlice(item["parameters"]), asSlice(o.op["parameters"])...) {
		if m, _ := d.deref(p); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// TestOpenAPIHeaderParameters: Content-Type, Accept, Authorization and
// Content-Length are not parameters (OpenAPI ignores the first three; a
// generated client would send a zero Content-Length or panic on an empty
// one). The body's media type sets Content-Type; the body sets its length.
func TestOpenAPIHeaderParameters(t *testing.T) {
	d := mustLoadAPIDoc(t)
	for _, o := range d.operations() {
		for _, p := range d.parameters(o) {
			name, _ := p["name"].(string)
			if p["in"] == "header" && slices.Contains([]string{"content-type", "content-length", "accept", "authorization"}, strings.ToLower(name)) {
				t.Errorf("%s: header parameter %s: remove it; say in the operation's description what the request must carry", o, name)
			}
		}
	}
}

// TestOpenAPIExamples: every parameter, every request body and every
// response body that is not binary or an HTML page has an example, and
// every example validates against its schema and sends no field the schema
// does not declare.
func TestOpenAPIExamples(t *testing.T) {
	d := mustLoadAPIDoc(t)
	for _, o := range d.operations() {
		// The request: each parameter's example, then the body's.
		for _, p := range d.parameters(o) {
			ex, ok := p["example"]
			where := fmt.Sprintf("%s %s parameter %v", o, p["in"], p["name"])
			if !ok {
				t.Errorf(`%s: no example; add "example" with a real value`, where)
				continue
			}
			for _, e := range d.validate(p["schema"], ex, where+" example") {
				t.Error(e)
			}
		}
		if rb, _ := d.deref(o.op["requestBody"]); rb != nil {
			d.checkMediaExamples(t, fmt.Sprintf("%s request body", o), rb)
		}
		responses, _ := o.op["responses"].(map[string]any)
		if len(responses) == 0 {
			t.Errorf("%s: no responses", o)
		}
		for _, status := range sortedKeys(responses) {
			resp, name := d.deref(responses[status])
			if resp == nil {
				t.Errorf("%s response %s: %v does not resolve", o, status, responses[status])
				continue
			}
			where := fmt.Sprintf("%s response %s", o, status)
			if name != "" {
				where += " (" + name + ")"
			}
			d.checkMediaExamples(t, where, resp)
		}
	}
}

func (d *apiDoc) checkMediaExamples(t *testing.T, where string, holder map[string]any) {
	t.Helper()
	content, _ := holder["content"].(map[string]any)
	for _, mt := range sortedKeys(content) {
		media, _ := content[mt].(map[string]any)
		if media["schema"] == nil {
			t.Errorf("%s %s: no schema", where, mt)
			continue
		}
		if binaryMedia(d, mt, media) {
			continue
		}
		examples := mediaExamples(media)
		if len(examples) == 0 {
			t.Errorf(`%s %s: no example; add "examples": {"<name>": {"summary": "...", "value": ...}} with a real body`, where, mt)
		}
		for _, name := range sortedKeys(examples) {
			v := examples[name]
			if ex, _ := d.deref(v); ex != nil {
				if _, ok := ex["value"]; ok {
					v = ex["value"]
				}
			}
			if strings.HasPrefix(mt, "text/") {
				if _, ok := v.(string); !ok {
					t.Errorf("%s %s example %q: a %s example is a string", where, mt, name, mt)
				}
				continue
			}
			at := fmt.Sprintf("%s %s example %q", where, mt, name)
			for _, e := range append(d.validate(media["schema"], v, at), d.undeclared(media["schema"], v, at)...) {
				t.Error(e)
			}
		}
	}
}

// mediaExamples returns a media type's examples by name ("example" for a
// single unnamed one).
func mediaExamples(media map[string]any) map[string]any {
	out := map[string]any{}
	if ex, ok := media["example"]; ok {
		out["example"] = ex
	}
	if exs, ok := media["examples"].(map[string]any); ok {
		for k, v := range exs {
			out[k] = v
		}
	}
	return out
}

func binaryMedia(d *apiDoc, mt string, media map[string]any) bool {
	s, _ := d.deref(media["schema"])
	if s != nil && s["format"] == "binary" {
		return true
	}
	// HTML pages are screens for people, not API payloads.
	return strings.HasPrefix(mt, "image/") || mt == "application/pdf" || mt == "application/octet-stream" || mt == "text/html"
}

// TestOpenAPIErrorResponses: every 4xx and 5xx answer of an API (JSON)
// operation is the contract's error envelope (#/components/schemas/Error),
// declares X-Request-Id, and has one example per error code it answers,
// each with the contract's status for that code. Every contract code has
// an example somewhere, and each published operation has examples for the
// codes the contract names for it.
func TestOpenAPIErrorResponses(t *testing.T) {
	d := mustLoadAPIDoc(t)
	enum := d.enum("ErrorCode")
	var want []string
	for code := range contractErrorStatus {
		want = append(want, code)
	}
	sort.Strings(want)
	if got := slices.Sorted(slices.Values(enum)); !slices.Equal(got, want) {
		t.Errorf("#/components/schemas/ErrorCode enum = %v, want the contract's codes %v", got, want)
	}
	exampled := map[string]bool{}
	for _, o := range d.operations() {
		byOp := map[string]bool{}
		responses, _ := o.op["responses"].(map[string]any)
		for _, status := range sortedKeys(responses) {
			n, err := strconv.Atoi(status)
			if err != nil || n < 400 {
				continue
			}
			resp, name := d.deref(responses[status])
			where := fmt.Sprintf("%s response %s", o, status)
			if name != "" {
				where += " (" + name + ")"
			}
			content, _ := resp["content"].(map[string]any)
			if _, html := content["text/html"]; html && len(content) == 1 {
				continue // a hosted screen's page answers errors as HTML
			}
			if n == 416 || n == 431 {
				continue // answered by net/http before any handler
			}
			if headers, _ := resp["headers"].(map[string]any); headers["X-Request-Id"] == nil {
				t.Errorf("%s: declares no X-Request-Id header; add {\"$ref\": \"#/components/headers/X-Request-Id\"}", where)
			}
			media, _ := content["application/json"].(map[string]any)
			if media == nil {
				t.Errorf("%s: no application/json body; errors use the envelope #/components/schemas/Error", where)
				continue
			}
			if ref, _ := media["schema"].(map[string]any)["$ref"].(string); ref != "#/components/schemas/Error" {
				t.Errorf("%s: schema is %v, want {\"$ref\": \"#/components/schemas/Error\"}", where, media["schema"])
			}
			examples := mediaExamples(media)
			if len(examples) == 0 {
				t.Errorf("%s: no examples; add one per error code this answer carries, named after the code", where)
			}
			for _, exName := range sortedKeys(examples) {
				code := exampleErrorCode(d, examples[exName])
				if code == "" {
					t.Errorf("%s example %q: value has no error.code", where, exName)
					continue
				}
				if st, ok := contractErrorStatus[code]; !ok {
					t.Errorf("%s example %q: code %q is not a contract code", where, exName, code)
				} else if st != n {
					t.Errorf("%s example %q: code %q is answered with %d in the contract, not %s; move the example to response %d", where, exName, code, st, status, st)
				}
				exampled[code], byOp[code] = true, true
			}
		}
		for _, code := range contractOperationErrors[o.id] {
			if !byOp[code] {
				t.Errorf("%s: no example of error %q, which the contract names for it; add it under response %d", o, code, contractErrorStatus[code])
			}
		}
	}
	for _, code := range want {
		if !exampled[code] {
			t.Errorf("contract error code %q has no example in any operation; add one where the server answers it", code)
		}
	}
}

func exampleErrorCode(d *apiDoc, ex any) string {
	m, _ := d.deref(ex)
	if v, ok := m["value"].(map[string]any); ok {
		m = v
	}
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

// TestOpenAPIMethodNotAllowed: every operation documents the 405 its path
// answers for other methods, with the Allow header.
func TestOpenAPIMethodNotAllowed(t *testing.T) {
	d := mustLoadAPIDoc(t)
	for _, o := range d.operations() {
		responses, _ := o.op["responses"].(map[string]any)
		resp, _ := d.deref(responses["405"])
		if resp == nil {
			t.Errorf(`%s: no 405 response; add "405": {"$ref": "#/components/responses/MethodNotAllowed"}`, o)
			continue
		}
		if headers, _ := resp["headers"].(map[string]any); headers["Allow"] == nil {
			t.Errorf("%s response 405: declares no Allow header", o)
		}
	}
}

// TestOpenAPIResponseHeaders: every response declares X-Request-Id; every
// response of /api/v1 and /embed/api declares the RateLimit-* headers;
// every 429 declares Retry-After; a 2xx of an operation that takes an
// Idempotency-Key declares Idempotent-Replayed.
func TestOpenAPIResponseHeaders(t *testing.T) {
	d := mustLoadAPIDoc(t)
	for _, o := range d.operations() {
		limited := strings.HasPrefix(o.path, "/api/v1/") || strings.HasPrefix(o.path, "/embed/api/")
		idempotent := slices.ContainsFunc(d.parameters(o), func(p map[string]any) bool {
			return p["in"] == "header" && p["name"] == "Idempotency-Key"
		})
		responses, _ := o.op["responses"].(map[string]any)
		for _, status := range sortedKeys(responses) {
			resp, _ := d.deref(responses[status])
			headers, _ := resp["headers"].(map[string]any)
			want := []string{"X-Request-Id"}
			if limited && status != "405" {
				want = append(want, "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")
			}
			if status == "429" {
				want = append(want, "Retry-After")
			}
			if idempotent && strings.HasPrefix(status, "2") {
				want = append(want, "Idempotent-Replayed")
			}
			for _, h := range want {
				if headers[h] == nil {
					t.Errorf(`%s response %s: declares no %s header; add "%s": {"$ref": "#/components/headers/%s"}`, o, status, h, h, h)
				}
			}
		}
	}
}

// TestOpenAPISchemas walks every schema in the document: numbers say their
// format (a generated client otherwise picks float32: 0.9 reads back as
// 0.8999999761581421), a const says its type, required properties exist,
// and no object is declared inline (generated clients then invent names
// like Error_Error; name it under components/schemas and $ref it).
func TestOpenAPISchemas(t *testing.T) {
	d := mustLoadAPIDoc(t)
	var walk func(at string, s map[string]any, named bool)
	walkAny := func(at string, v any, named bool) {
		if m, ok := v.(map[string]any); ok {
			walk(at, m, named)
		}
	}
	walk = func(at string, s map[string]any, named bool) {
		if _, isRef := s["$ref"]; isRef {
			return
		}
		types := schemaTypes(s)
		if slices.Contains(types, "number") {
			if f, _ := s["format"].(string); f != "double" && f != "float" {
				t.Errorf(`%s: type number without "format": "double"`, at)
			}
		}
		if _, ok := s["const"]; ok && len(types) == 0 {
			t.Errorf(`%s: const without "type"`, at)
		}
		if _, ok := s["enum"]; ok && len(types) == 0 {
			t.Errorf(`%s: enum without "type"`, at)
		}
		props, _ := s["properties"].(map[string]any)
		if !named && (len(props) > 0 || (slices.Contains(types, "object") && s["additionalProperties"] == nil)) {
			t.Errorf("%s: inline object schema; move it to #/components/schemas/<Name> and $ref it", at)
		}
		for _, r := range asSlice(s["required"]) {
			if _, ok := props[r.(string)]; !ok && len(asSlice(s["allOf"])) == 0 {
				t.Errorf("%s: required %q is not among its properties", at, r)
			}
		}
		for _, k := range sortedKeys(props) {
			walkAny(at+"/properties/"+k, props[k], false)
		}
		walkAny(at+"/items", s["items"], false)
		walkAny(at+"/additionalProperties", s["additionalProperties"], false)
		for _, key := range []string{"allOf", "oneOf", "anyOf"} {
			for i, sub := range asSlice(s[key]) {
				// The members of a composition are parts of a named
				// schema, not types of their own.
				walkAny(fmt.Sprintf("%s/%s/%d", at, key, i), sub, named && key == "allOf")
			}
		}
	}
	schemas, _ := d.root["components"].(map[string]any)["schemas"].(map[string]any)
	for _, name := range sortedKeys(schemas) {
		walkAny("#/components/schemas/"+name, schemas[name], true)
	}
	for _, o := range d.operations() {
		for _, p := range d.parameters(o) {
			walkAny(fmt.Sprintf("%s parameter %v", o, p["name"]), p["schema"], false)
		}
		if rb, _ := d.deref(o.op["requestBody"]); rb != nil {
			for mt, media := range asMap(rb["content"]) {
				walkAny(fmt.Sprintf("%s request body %s", o, mt), asMap(media)["schema"], false)
			}
		}
		for status, r := range asMap(o.op["responses"]) {
			resp, _ := d.deref(r)
			for mt, media := range asMap(resp["content"]) {
				walkAny(fmt.Sprintf("%s response %s %s", o, status, mt), asMap(media)["schema"], false)
			}
			for h, hv := range asMap(resp["headers"]) {
				hs, _ := d.deref(hv)
				walkAny(fmt.Sprintf("%s response %s header %s", o, status, h), hs["schema"], false)
			}
		}
	}
}

func schemaTypes(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

// TestOpenAPIEnumsMatchTheCode: the enums a client switches on are the
// values the appliance produces.
func TestOpenAPIEnumsMatchTheCode(t *testing.T) {
	d := mustLoadAPIDoc(t)
	check := func(schema string, want []string) {
		t.Helper()
		got := d.enum(schema)
		if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
			t.Errorf("#/components/schemas/%s enum = %v, want %v", schema, got, want)
		}
	}
	check("SheetType", sheets.Types())
	check("ProblemCode", []string{scan.CodeInvalidPDF, scan.CodeEncryptedPDF, scan.CodeEmptyPDF, scan.CodeTooManyPages,
		scan.CodeTooComplex, scan.CodeTimeout, scan.CodeInternal})
	desc, _ := d.lookup("#/components/schemas/LocalLawCoverage/description").(string)
	for _, topic := range codebasis.DocumentTopics {
		if !strings.Contains(desc, topic) {
			t.Errorf("LocalLawCoverage's description does not name %q among the always-delivered topics (codebasis.DocumentTopics)", topic)
		}
	}
	if c, _ := d.lookup("#/components/schemas/LocalLawCoverage/properties/schemaVersion/const").(string); c != codebasis.SchemaCoverage {
		t.Errorf("LocalLawCoverage.schemaVersion const = %q, want %q", c, codebasis.SchemaCoverage)
	}
}

func (d *apiDoc) enum(schema string) []string {
	var out []string
	for _, v := range asSlice(d.lookup("#/components/schemas/" + schema + "/enum")) {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
