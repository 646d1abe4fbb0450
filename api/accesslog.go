package api

import (
	"net/http"
	"strings"

	"planreview/store"
)

// pathIDs are the path wildcards whose values the logs show, each when it is
// a well-formed id of its kind. Anything else a client puts in a path (a
// mistyped id, a secret pasted into a URL) never reaches a log line.
var pathIDs = map[string]string{
	"jobId":     store.PrefixJob,
	"fileId":    store.PrefixFile,
	"versionId": store.PrefixVersion,
}

// loggedPath is what the logs say of a request's path: the route pattern
// it matched, and that pattern with the well-formed ids filled in. A request
// no route matched has the catch-all route "/" and no path.
func loggedPath(r *http.Request) (route, path string) {
	route = r.Pattern
	if _, p, ok := strings.Cut(route, " "); ok {
		route = p // without the method: the log line has its own
	}
	if route == "" || route == "/" {
		return route, ""
	}
	segments := strings.Split(route, "/")
	for i, seg := range segments {
		name, ok := strings.CutPrefix(seg, "{")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(strings.TrimSuffix(name, "}"), "...")
		if name == "$" {
			segments[i] = ""
			continue
		}
		if prefix, ok := pathIDs[name]; ok && store.ValidID(r.PathValue(name), prefix) {
			segments[i] = r.PathValue(name)
		}
	}
	return route, strings.Join(segments, "/")
}
