package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"net/http"
)

// openAPIDocument describes every route; openapi_test.go fails when a route
// exists that it lacks.
//
//go:embed openapi.json
var openAPIDocument []byte

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, err := w.Write(s.openAPIDoc)
	return err
}

// openAPIFor is the document as this appliance serves it: its servers
// list names publicURL, where partners reach it, instead of the default
// address the source file shows. Only the servers value is replaced, so the
// rest of the document stays byte for byte as written.
func openAPIFor(publicURL string) []byte {
	if publicURL == "" {
		return openAPIDocument
	}
	servers, err := json.MarshalIndent([]map[string]string{{
		"url":         publicURL,
		"description": "This appliance (server.public_url).",
	}}, "  ", "  ")
	if err != nil {
		return openAPIDocument
	}
	start, end, ok := topLevelValue(openAPIDocument, "servers")
	if !ok {
		return openAPIDocument
	}
	var doc bytes.Buffer
	doc.Grow(len(openAPIDocument) + len(servers))
	doc.Write(openAPIDocument[:start])
	doc.Write(servers)
	doc.Write(openAPIDocument[end:])
	return doc.Bytes()
}

// topLevelValue finds the byte range of a top-level member's value in a
// JSON object.
func topLevelValue(doc []byte, name string) (start, end int, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, 0, false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return 0, 0, false
		}
		// After the key, the offset sits before the colon; the value
		// starts at the first non-space byte after it.
		afterKey := int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, 0, false
		}
		if key == name {
			end = int(dec.InputOffset())
			start = afterKey + bytes.IndexByte(doc[afterKey:end], ':') + 1
			for start < end && (doc[start] == ' ' || doc[start] == '\n' || doc[start] == '\t' || doc[start] == '\r') {
				start++
			}
			return start, end, true
		}
	}
	return 0, 0, false
}
