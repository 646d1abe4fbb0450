package api

// OpenAPISource is the document as written, for comparing with the served one.
func OpenAPISource() []byte { return openAPIDocument }
