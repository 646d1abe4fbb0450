package api

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// apiDoc is the served OpenAPI document, decoded for the tests that hold it
// to its rules and check real responses against it.
type apiDoc struct {
	root map[string]any
}

func loadAPIDoc() (*apiDoc, error) {
	var root map[string]any
	if err := json.Unmarshal(openAPIDocument, &root); err != nil {
		return nil, fmt.Errorf("openapi.json is not JSON: %w", err)
	}
	return &apiDoc{root: root}, nil
}

// operation is one method of one path, with where it sits in the document
// (for messages a person can act on).
type operation struct {
	method, path, id string
	op               map[string]any
}

func (o operation) String() string {
	return fmt.Sprintf("%s %s (%s)", strings.ToUpper(o.method), o.path, o.id)
}

var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// operations lists every operation, sorted by path then method.
func (d *apiDoc) operations() []operation {
	paths, _ := d.root["paths"].(map[string]any)
	var ops []operation
	for path, item := range paths {
		item, _ := item.(map[string]any)
		for _, m := range httpMethods {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			id, _ := op["operationId"].(string)
			ops = append(ops, operation{method: m, path: path, id: id, op: op})
		}
	}
	sort.Slice(ops, func(i, j int) bool {
		if ops[i].path != ops[j].path {
			return ops[i].path < ops[j].path
		}
		return ops[i].method < ops[j].method
	})
	return ops
}

// deref follows $ref (repeatedly) to the object it names.
func (d *apiDoc) deref(v any) (map[string]any, string) {
	m, _ := v.(map[string]any)
	name := ""
	for i := 0; i < 16 && m != nil; i++ {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m, name
		}
		name = ref
		m, _ = d.lookup(ref).(map[string]any)
	}
	return m, name
}

func (d *apiDoc) lookup(ref string) any {
	var cur any = d.root
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	return cur
}

// findOperation matches a request path (no query) to the document's path
// template and returns its operation for method.
func (d *apiDoc) findOperation(method, path string) (operation, bool) {
	segs := strings.Split(path, "/")
	for _, o := range d.operations() {
		if o.method != strings.ToLower(method) {
			continue
		}
		tmpl := strings.Split(o.path, "/")
		if len(tmpl) != len(segs) {
			continue
		}
		match := true
		for i := range tmpl {
			if strings.HasPrefix(tmpl[i], "{") || tmpl[i] == segs[i] {
				continue
			}
			match = false
			break
		}
		if match {
			return o, true
		}
	}
	return operation{}, false
}

// validate checks v against schema and returns one line per violation,
// each naming the JSON path in the value (at) and the schema rule broken.
// It covers the keywords the document uses: $ref, type, enum, const,
// required, properties, additionalProperties, items, oneOf, anyOf, allOf,
// minimum, maximum, minLength, maxLength, maxItems, pattern and the formats
// date-time, date and uri.
func (d *apiDoc) validate(schema any, v any, at string) []string {
	s, name := d.deref(schema)
	if s == nil {
		return []string{fmt.Sprintf("%s: schema %v does not resolve", at, schema)}
	}
	var errs []string
	fail := func(format string, args ...any) {
		where := ""
		if name != "" {
			where = " (" + name + ")"
		}
		errs = append(errs, fmt.Sprintf("%s%s: %s", at, where, fmt.Sprintf(format, args...)))
	}
	if t, ok := s["type"]; ok && !typeMatches(t, v) {
		fail("is %s, schema type is %v", jsonType(v), t)
		return errs
	}
	if c, ok := s["const"]; ok && !jsonEqual(c, v) {
		fail("is %s, want const %s", short(v), short(c))
	}
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return jsonEqual(e, v) }) {
		fail("%s is not one of the enum %s", short(v), short(enum))
	}
	for _, sub := range asSlice(s["allOf"]) {
		errs = append(errs, d.validate(sub, v, at)...)
	}
	if any := asSlice(s["anyOf"]); len(any) > 0 {
		ok := false
		for _, sub := range any {
			if len(d.validate(sub, v, at)) == 0 {
				ok = true
				break
			}
		}
		if !ok {
			fail("matches none of anyOf")
		}
	}
	if one := asSlice(s["oneOf"]); len(one) > 0 {
		var matched int
		var why []string
		for _, sub := range one {
			if e := d.validate(sub, v, at); len(e) == 0 {
				matched++
			} else {
				why = append(why, e...)
			}
		}
		if matched != 1 {
			fail("matches %d of oneOf, want exactly 1: %s", matched, strings.Join(why, "; "))
		}
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range asSlice(s["required"]) {
			if _, ok := v[r.(string)]; !ok {
				fail("required property %q is missing", r)
			}
		}
		for k, pv := range v {
			if ps, ok := props[k]; ok {
				errs = append(errs, d.validate(ps, pv, at+"."+k)...)
			} else if ap, ok := s["additionalProperties"]; ok {
				if ap == false {
					fail("property %q is not allowed (additionalProperties: false)", k)
				} else if apm, ok := ap.(map[string]any); ok {
					errs = append(errs, d.validate(apm, pv, at+"."+k)...)
				}
			}
		}
	case []any:
		if max, ok := s["maxItems"].(float64); ok && float64(len(v)) > max {
			fail("has %d items, maxItems %v", len(v), max)
		}
		if items, ok := s["items"]; ok {
			for i, item := range v {
				errs = append(errs, d.validate(items, item, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	case float64:
		if min, ok := s["minimum"].(float64); ok && v < min {
			fail("%v is below minimum %v", v, min)
		}
		if max, ok := s["maximum"].(float64); ok && v > max {
			fail("%v is above maximum %v", v, max)
		}
	case string:
		n := len([]rune(v))
		if min, ok := s["minLength"].(float64); ok && float64(n) < min {
			fail("has %d characters, minLength %v", n, min)
		}
		if max, ok := s["maxLength"].(float64); ok && float64(n) > max {
			fail("has %d characters, maxLength %v", n, max)
		}
		if p, ok := s["pattern"].(string); ok {
			if re, err := regexp.Compile(p); err == nil && !re.MatchString(v) {
				fail("%q does not match pattern %s", v, p)
			}
		}
		switch s["format"] {
		case "date-time":
			if _, err := time.Parse(time.RFC3339, v); err != nil {
				fail("%q is not an RFC 3339 date-time", v)
			}
		case "date":
			if _, err := time.Parse(time.DateOnly, v); err != nil {
				fail("%q is not a YYYY-MM-DD date", v)
			}
		case "uri":
			if !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") {
				fail("%q is not an absolute http(s) URI", v)
			}
		}
	}
	return errs
}

// declaredProperties lists every property name a schema declares through
// $ref, allOf, oneOf and anyOf, and which of them are required; open is
// true when it allows any.
func (d *apiDoc) declaredProperties(schema any) (names map[string]any, required map[string]bool, open bool) {
	names, required = map[string]any{}, map[string]bool{}
	var walk func(any, int)
	walk = func(schema any, depth int) {
		s, _ := d.deref(schema)
		if s == nil || depth > 8 {
			return
		}
		props, hasProps := s["properties"].(map[string]any)
		for k, v := range props {
			names[k] = v
		}
		for _, r := range asSlice(s["required"]) {
			required[r.(string)] = true
		}
		if ap, ok := s["additionalProperties"]; ok && ap != false {
			open = true
		}
		composite := false
		for _, key := range []string{"allOf", "oneOf", "anyOf"} {
			for _, sub := range asSlice(s[key]) {
				composite = true
				walk(sub, depth+1)
			}
		}
		if !hasProps && !composite && s["type"] == "object" {
			open = true
		}
	}
	walk(schema, 0)
	return names, required, open
}

// undeclared reports object properties in v that its schema does not
// declare, at any depth (a field the server sends that the document omits),
// and properties sent as null that are not required: a generated client
// turns an optional field into one it leaves out when empty, so it would
// drop the null the server sends.
func (d *apiDoc) undeclared(schema any, v any, at string) []string {
	var errs []string
	switch v := v.(type) {
	case map[string]any:
		names, required, open := d.declaredProperties(schema)
		if open {
			return nil
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps, ok := names[k]
			if !ok {
				errs = append(errs, fmt.Sprintf("%s.%s is sent but the schema does not declare it", at, k))
				continue
			}
			if v[k] == nil && !required[k] {
				errs = append(errs, fmt.Sprintf("%s.%s is sent as null but is not required; a field the server always sends belongs in required", at, k))
			}
			errs = append(errs, d.undeclared(d.branchFor(ps, v[k]), v[k], at+"."+k)...)
		}
	case []any:
		s, _ := d.deref(schema)
		if s == nil {
			return nil
		}
		if items, ok := s["items"]; ok {
			for i, item := range v {
				errs = append(errs, d.undeclared(items, item, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	}
	return errs
}

// branchFor picks the oneOf/anyOf branch a value matches, so nested
// objects are checked against the right one.
func (d *apiDoc) branchFor(schema any, v any) any {
	s, _ := d.deref(schema)
	if s == nil {
		return schema
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		for _, sub := range asSlice(s[key]) {
			if len(d.validate(sub, v, "")) == 0 {
				return sub
			}
		}
	}
	return schema
}

// checkResponse checks a real response against the document: the
// operation exists and documents the status; a JSON body validates
// against the schema and sends no undeclared field; the headers the
// contract names are declared.
func (d *apiDoc) checkResponse(method, path string, status int, header http.Header, body []byte) []string {
	o, ok := d.findOperation(method, path)
	if !ok {
		return []string{fmt.Sprintf("%s %s: no operation in openapi.json", method, path)}
	}
	code := fmt.Sprint(status)
	responses, _ := o.op["responses"].(map[string]any)
	resp, _ := d.deref(responses[code])
	if resp == nil {
		return []string{fmt.Sprintf("%s answered %d, which it does not document", o, status)}
	}
	var errs []string
	declared, _ := resp["headers"].(map[string]any)
	for _, h := range contractHeaders {
		if header.Get(h) != "" {
			if _, ok := declared[h]; !ok {
				errs = append(errs, fmt.Sprintf("%s %d sends header %s, which the response does not declare", o, status, h))
			}
		}
	}
	ct := header.Get("Content-Type")
	if len(body) == 0 || !strings.HasPrefix(ct, "application/json") {
		return errs
	}
	content, _ := resp["content"].(map[string]any)
	media, _ := content["application/json"].(map[string]any)
	if media == nil {
		return append(errs, fmt.Sprintf("%s %d answers JSON, but the response declares no application/json content", o, status))
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return append(errs, fmt.Sprintf("%s %d: body is not JSON: %v", o, status, err))
	}
	at := fmt.Sprintf("%s %d body", o, status)
	errs = append(errs, d.validate(media["schema"], v, at)...)
	errs = append(errs, d.undeclared(media["schema"], v, at)...)
	return errs
}

// contractHeaders are the response headers the contract gives meaning to;
// whenever the server sends one, the response must declare it.
var contractHeaders = []string{
	"X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After",
	"Location", "Idempotent-Replayed", "Content-Disposition", "ETag", "Allow", "Content-Range",
}

func typeMatches(t any, v any) bool {
	switch t := t.(type) {
	case string:
		return typeIs(t, v)
	case []any:
		for _, one := range t {
			if s, ok := one.(string); ok && typeIs(s, v) {
				return true
			}
		}
	}
	return false
}

func typeIs(t string, v any) bool {
	switch t {
	case "null":
		return v == nil
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return false
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
