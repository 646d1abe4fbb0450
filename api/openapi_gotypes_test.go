package api

import (
	"reflect"
	"strings"
	"testing"

	"planreview/chat"
	"planreview/scan/codebasis"
	"planreview/scan/pdftext"
	"planreview/store"
)

// schemaGoTypes pairs each schema of the document with the Go type the
// server encodes it from (answers) or decodes it into (requests).
var schemaGoTypes = []struct {
	schema  string
	goType  any
	request bool
}{
	{"ErrorDetail", errorDetail{}, false},
	{"Error", errorBody{}, false},
	{"Ping", pingResponse{}, false},
	{"Job", jobView{}, false},
	{"Version", versionView{}, false},
	{"Pipeline", store.Pipeline{}, false},
	{"Stage", store.Stage{}, false},
	{"Problem", store.Problem{}, false},
	{"FindingCounts", store.FindingCounts{}, false},
	{"ModelPass", store.ModelPass{}, false},
	{"JobList", jobList{}, false},
	{"File", fileView{}, false},
	{"RegisteredFile", registerFileResponse{}, false},
	{"FileDetail", fileDetail{}, false},
	{"FileList", fileList{}, false},
	{"Upload", uploadResponse{}, false},
	{"ScanStatus", scanResponse{}, false},
	{"Findings", FindingsBody{}, false},
	{"Finding", findingView{}, false},
	{"Anchor", anchorView{}, false},
	{"BBox", store.BBox{}, false},
	{"SheetRef", store.SheetRef{}, false},
	{"CodeBasis", codebasis.CodeBasis{}, false},
	{"LocalLawCoverage", codebasis.Coverage{}, false},
	{"CertifiedScope", codebasis.Scope{}, false},
	{"SignedURL", signedURL{}, false},
	{"ChatAnswer", chatResponse{}, false},
	{"ChatCitation", chat.Citation{}, false},
	{"EmbedLink", embedLink{}, false},
	{"CitedWords", wordBoxes{}, false},
	{"BBox", pdftext.BBox{}, false},
	{"CreateJobRequest", createJobRequest{}, true},
	{"RegisterFileRequest", registerFileRequest{}, true},
	{"ChatRequest", chatRequest{}, true},
	{"ChatHistoryItem", chatHistoryItem{}, true},
	{"EmbedRequest", embedRequest{}, true},
}

// TestOpenAPISchemasMatchGoTypes: each schema declares exactly the fields
// its Go type carries, and an answer's required list is exactly the fields
// the server always sends (no omitempty: sent even when null or empty).
// When you add a response type, add it to schemaGoTypes.
func TestOpenAPISchemasMatchGoTypes(t *testing.T) {
	d := mustLoadAPIDoc(t)
	for _, pair := range schemaGoTypes {
		ref := "#/components/schemas/" + pair.schema
		if d.lookup(ref) == nil {
			t.Errorf("%s: no such schema", ref)
			continue
		}
		names, required, _ := d.declaredProperties(map[string]any{"$ref": ref})
		goType := reflect.TypeOf(pair.goType)
		sent := jsonFields(goType)
		for _, f := range sortedKeys(sent) {
			if _, ok := names[f]; !ok {
				t.Errorf("%s (Go %s) has field %q, which schema %s does not declare", pair.schema, goType, f, pair.schema)
				continue
			}
			if !pair.request && sent[f] && !required[f] {
				t.Errorf("%s.%s: Go %s always sends it (no omitempty); add %q to the schema's required", pair.schema, f, goType, f)
			}
		}
		for _, f := range sortedKeys(names) {
			always, ok := sent[f]
			switch {
			case !ok:
				t.Errorf("%s declares %q, which Go %s does not have", pair.schema, f, goType)
			case !pair.request && required[f] && !always:
				t.Errorf("%s.%s is required, but Go %s omits it when empty (omitempty)", pair.schema, f, goType)
			}
		}
	}
}

// jsonFields lists the JSON object keys encoding/json writes for a struct
// type, each with whether it is always written (no omitempty). Fields of
// embedded structs are promoted unless a shallower field has the name.
func jsonFields(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	type level struct {
		t     reflect.Type
		depth int
	}
	depthOf := map[string]int{}
	queue := []level{{t, 0}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for i := 0; i < cur.t.NumField(); i++ {
			f := cur.t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					queue = append(queue, level{ft, cur.depth + 1})
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if d, seen := depthOf[name]; seen && d <= cur.depth {
				continue
			}
			depthOf[name] = cur.depth
			out[name] = !strings.Contains(","+opts+",", ",omitempty,")
		}
	}
	return out
}
