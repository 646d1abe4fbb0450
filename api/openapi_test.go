package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestOpenAPICoversEveryRoute fails when a route exists that the served
// OpenAPI document lacks, or the document names a route that does not exist.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openAPIDocument, &doc); err != nil {
		t.Fatalf("openapi.json is not JSON: %v", err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	s := New(Options{})
	served := map[string]bool{}
	for _, rt := range s.routeTable() {
		path := strings.TrimSuffix(rt.path, "{$}") // "/{$}" is the mux's exact "/"
		key := strings.ToLower(rt.method) + " " + path
		served[key] = true
		if _, ok := doc.Paths[path][strings.ToLower(rt.method)]; !ok {
			t.Errorf("route %s %s is missing from openapi.json", rt.method, rt.path)
		}
	}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" || method == "summary" || method == "description" {
				continue
			}
			if !served[method+" "+path] {
				t.Errorf("openapi.json documents %s %s, which no route serves", strings.ToUpper(method), path)
			}
		}
	}
}

// TestOpenAPIReferencesResolve catches a $ref to a schema, response or
// header the document does not define.
func TestOpenAPIReferencesResolve(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(openAPIDocument, &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				if !resolves(doc, ref) {
					t.Errorf("unresolved $ref %s", ref)
				}
			}
			for _, child := range v {
				walk(child)
			}
		case []any:
			for _, child := range v {
				walk(child)
			}
		}
	}
	walk(doc)
}

func resolves(doc map[string]any, ref string) bool {
	var cur any = doc
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		if cur, ok = m[part]; !ok {
			return false
		}
	}
	return true
}
