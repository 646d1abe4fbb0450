package api

import (
	"net/http"
	"sync"
)

// OpenAPISource is the document as written, for comparing with the served one.
func OpenAPISource() []byte { return openAPIDocument }

// CheckAgainstOpenAPI checks a real response against the document (see
// apiDoc.checkResponse); the harness runs it on every response the api
// tests receive. It returns nothing for a request no operation describes
// (an unknown path), whose 404 is the router's.
func CheckAgainstOpenAPI(method, path string, status int, header http.Header, body []byte) []string {
	docOnce.Do(func() { doc, docErr = loadAPIDoc() })
	if docErr != nil {
		return []string{docErr.Error()}
	}
	if _, ok := doc.findOperation(method, path); !ok {
		if status != http.StatusMethodNotAllowed {
			return nil
		}
		// Another method of a documented path: its operations document 405.
		for _, m := range httpMethods {
			if _, ok := doc.findOperation(m, path); ok {
				method = m
				break
			}
		}
		if _, ok := doc.findOperation(method, path); !ok {
			return nil
		}
	}
	return doc.checkResponse(method, path, status, header, body)
}

var (
	docOnce sync.Once
	doc     *apiDoc
	docErr  error
)
