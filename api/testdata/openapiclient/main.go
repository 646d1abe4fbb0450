// Command clientcheck runs the partner flow against a running appliance
// with a client generated from its OpenAPI document (package client, made
// by scripts/openapi-client-check.sh) and no hand-written API types. Every
// typed answer is re-encoded and compared with the JSON the server sent, so
// a field the document lacks, a number it narrows or a null it turns into
// an omission fails the check.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"clientcheck/client"
)

func main() {
	base := flag.String("base", "", "appliance address, e.g. http://127.0.0.1:8080")
	pdfPath := flag.String("pdf", "", "plan set PDF to upload")
	timeout := flag.Duration("timeout", 10*time.Minute, "how long the scan may take")
	flag.Parse()
	key := os.Getenv("PLANREVIEW_KEY")
	if *base == "" || *pdfPath == "" || key == "" {
		fmt.Fprintln(os.Stderr, "usage: PLANREVIEW_KEY=prk_live_... clientcheck -base URL -pdf FILE")
		os.Exit(2)
	}
	pdf, err := os.ReadFile(*pdfPath)
	if err != nil {
		fail("%v", err)
	}
	ctx := context.Background()
	c, err := client.NewClientWithResponses(*base, client.WithRequestEditorFn(
		func(_ context.Context, r *http.Request) error {
			r.Header.Set("Authorization", "Bearer "+key)
			return nil
		}))
	if err != nil {
		fail("client: %v", err)
	}
	anonymous, err := client.NewClientWithResponses(*base)
	if err != nil {
		fail("client: %v", err)
	}
	check := &checker{}

	ping, err := c.PingWithResponse(ctx)
	check.answer("ping", ping, err, http.StatusOK, ping.JSON200)
	if !ping.JSON200.Ok {
		fail("ping: ok is false")
	}
	noKey, err := anonymous.PingWithResponse(ctx)
	check.errorAnswer("ping without key", noKey, err, http.StatusUnauthorized, noKey.JSON401, "unauthorized")

	externalID := "BLD-2026-0042"
	idem := fmt.Sprintf("clientcheck-%d", time.Now().UnixNano())
	created, err := c.CreateJobWithResponse(ctx, &client.CreateJobParams{IdempotencyKey: &idem},
		client.CreateJobJSONRequestBody{Name: "123 Main St ADU", ExternalId: &externalID})
	check.answer("createJob", created, err, http.StatusCreated, created.JSON201)
	job := created.JSON201
	if loc := created.HTTPResponse.Header.Get("Location"); !strings.HasSuffix(loc, "/api/v1/jobs/"+job.JobId) {
		fail("createJob: Location %q does not name job %s", loc, job.JobId)
	}
	replayed, err := c.CreateJobWithResponse(ctx, &client.CreateJobParams{IdempotencyKey: &idem},
		client.CreateJobJSONRequestBody{Name: "123 Main St ADU", ExternalId: &externalID})
	check.answer("createJob replay", replayed, err, http.StatusCreated, replayed.JSON201)
	if replayed.HTTPResponse.Header.Get("Idempotent-Replayed") != "true" || replayed.JSON201.JobId != job.JobId {
		fail("createJob replay: want the same job with Idempotent-Replayed: true")
	}
	conflict, err := c.CreateJobWithResponse(ctx, &client.CreateJobParams{IdempotencyKey: &idem},
		client.CreateJobJSONRequestBody{Name: "Another job"})
	check.errorAnswer("createJob conflict", conflict, err, http.StatusConflict, conflict.JSON409, "idempotency_conflict")
	blank, err := c.CreateJobWithResponse(ctx, nil, client.CreateJobJSONRequestBody{Name: " "})
	check.errorAnswer("createJob blank name", blank, err, http.StatusBadRequest, blank.JSON400, "invalid_request")

	missing, err := c.GetJobWithResponse(ctx, "job_01KBZZZZZZZZZZZZZZZZZZZZZZ")
	check.errorAnswer("getJob unknown", missing, err, http.StatusNotFound, missing.JSON404, "not_found")
	noFiles, err := c.StartScanWithResponse(ctx, job.JobId, nil)
	check.errorAnswer("startScan without files", noFiles, err, http.StatusBadRequest, noFiles.JSON400, "no_files")
	early, err := c.GetFindingsWithResponse(ctx, job.JobId, nil)
	check.errorAnswer("getFindings before scan", early, err, http.StatusConflict, early.JSON409, "scan_not_complete")

	tooLarge, err := c.RegisterFileWithResponse(ctx, job.JobId, nil, client.RegisterFileJSONRequestBody{
		FileName: "plans.pdf", FileSize: 200 << 20, ContentType: "application/pdf"})
	check.errorAnswer("registerFile too large", tooLarge, err, http.StatusBadRequest, tooLarge.JSON400, "file_too_large")
	stray, err := c.RegisterFileWithResponse(ctx, job.JobId, nil, client.RegisterFileJSONRequestBody{
		FileName: "never-uploaded.pdf", FileSize: 1024, ContentType: "application/pdf"})
	check.answer("registerFile (to delete)", stray, err, http.StatusCreated, stray.JSON201)
	removed, err := c.DeleteFileWithResponse(ctx, job.JobId, stray.JSON201.FileId)
	if err != nil || removed.StatusCode() != http.StatusNoContent {
		fail("deleteFile: %v %d %s", err, removed.StatusCode(), removed.Body)
	}
	gone, err := c.DeleteFileWithResponse(ctx, job.JobId, stray.JSON201.FileId)
	check.errorAnswer("deleteFile again", gone, err, http.StatusNotFound, gone.JSON404, "not_found")
	tag := "architectural"
	reg, err := c.RegisterFileWithResponse(ctx, job.JobId, nil, client.RegisterFileJSONRequestBody{
		FileName: "plans.pdf", FileSize: int64(len(pdf)), ContentType: "application/pdf", FileTag: &tag})
	check.answer("registerFile", reg, err, http.StatusCreated, reg.JSON201)

	// The upload goes to the signed URL registration returned, through the
	// generated upload operation: its path, expiry and signature.
	fileID, upParams := uploadTarget(*base, reg.JSON201.UploadUrl)
	wrongType, err := c.UploadFileWithBodyWithResponse(ctx, fileID, upParams, "text/plain", bytes.NewReader(pdf))
	check.errorAnswer("uploadFile text/plain", wrongType, err, http.StatusBadRequest, wrongType.JSON400, "unsupported_content_type")
	chunked, err := c.UploadFileWithBodyWithResponse(ctx, fileID, upParams, "application/pdf", io.MultiReader(bytes.NewReader(pdf)))
	check.errorAnswer("uploadFile without Content-Length", chunked, err, http.StatusLengthRequired, chunked.JSON411, "length_required")
	uploaded, err := c.UploadFileWithBodyWithResponse(ctx, fileID, upParams, "application/pdf", bytes.NewReader(pdf))
	check.answer("uploadFile", uploaded, err, http.StatusOK, uploaded.JSON200)
	if uploaded.JSON200.Size != int64(len(pdf)) || uploaded.HTTPResponse.Header.Get("ETag") != strconv.Quote(uploaded.JSON200.Sha256) {
		fail("uploadFile: size %d, ETag %q for %d bytes, sha256 %s", uploaded.JSON200.Size,
			uploaded.HTTPResponse.Header.Get("ETag"), len(pdf), uploaded.JSON200.Sha256)
	}
	files, err := c.ListFilesWithResponse(ctx, job.JobId, nil)
	check.answer("listFiles", files, err, http.StatusOK, files.JSON200)
	file, err := c.GetFileWithResponse(ctx, job.JobId, fileID)
	check.answer("getFile", file, err, http.StatusOK, file.JSON200)

	scan, err := c.StartScanWithResponse(ctx, job.JobId, nil)
	check.answer("startScan", scan, err, http.StatusOK, scan.JSON200)
	deadline := time.Now().Add(*timeout)
	var status client.JobStatus
	for {
		got, err := c.GetJobWithResponse(ctx, job.JobId)
		check.answer("getJob", got, err, http.StatusOK, got.JSON200)
		status = got.JSON200.Status
		if status == "complete" || status == "failed" {
			break
		}
		if time.Now().After(deadline) {
			fail("getJob: still %s after %s", status, *timeout)
		}
		time.Sleep(250 * time.Millisecond)
	}
	if status != "complete" {
		fail("scan ended %s", status)
	}
	list, err := c.ListJobsWithResponse(ctx, nil)
	check.answer("listJobs", list, err, http.StatusOK, list.JSON200)

	findings, err := c.GetFindingsWithResponse(ctx, job.JobId, nil)
	check.answer("getFindings", findings, err, http.StatusOK, findings.JSON200)
	if len(findings.JSON200.Findings) == 0 {
		fail("getFindings: no findings for %s; the check needs a set with findings", *pdfPath)
	}
	csv, err := c.ExportCSVWithResponse(ctx, job.JobId, nil)
	if err != nil || csv.StatusCode() != http.StatusOK || !bytes.HasPrefix(csv.Body, []byte("findingId,")) {
		fail("exportCSV: %v %d %.80q", err, csv.StatusCode(), csv.Body)
	}
	if cd := csv.HTTPResponse.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") {
		fail("exportCSV: Content-Disposition %q", cd)
	}

	annotated, err := c.GetAnnotatedPDFWithResponse(ctx, job.JobId, fileID)
	check.answer("getAnnotatedPDF", annotated, err, http.StatusOK, annotated.JSON200)
	dlFile, dlParams := downloadTarget(*base, annotated.JSON200.Url)
	download, err := anonymous.DownloadAnnotatedPDFWithResponse(ctx, dlFile, dlParams)
	if err != nil || download.StatusCode() != http.StatusOK || !bytes.HasPrefix(download.Body, []byte("%PDF-")) {
		fail("downloadAnnotatedPDF: %v %d", err, download.StatusCode())
	}

	var cited *client.ChatCitation
	for _, q := range []string{"What is the occupancy group?", "What is the inverter model?", "What is the project address?"} {
		answer, err := c.ChatWithResponse(ctx, job.JobId, client.ChatJSONRequestBody{Message: q})
		check.answer("chat", answer, err, http.StatusOK, answer.JSON200)
		if len(answer.JSON200.Citations) > 0 && cited == nil {
			cited = &answer.JSON200.Citations[0]
		}
	}
	noMessage, err := c.ChatWithResponse(ctx, job.JobId, client.ChatJSONRequestBody{Message: " "})
	check.errorAnswer("chat blank message", noMessage, err, http.StatusBadRequest, noMessage.JSON400, "missing_message")

	link, err := c.CreateEmbedLinkWithResponse(ctx, client.CreateEmbedLinkJSONRequestBody{Screen: "job", JobId: &job.JobId})
	check.answer("createEmbedLink", link, err, http.StatusOK, link.JSON200)
	// The hosted screens' JSON calls, with the link's token.
	jobToken := linkToken(link.JSON200.Url)
	embedJob, err := anonymous.EmbedGetJobWithResponse(ctx, job.JobId, &client.EmbedGetJobParams{XEmbedToken: &jobToken})
	check.answer("embedGetJob", embedJob, err, http.StatusOK, embedJob.JSON200)
	embedFindings, err := anonymous.EmbedFindingsWithResponse(ctx, job.JobId, &client.EmbedFindingsParams{XEmbedToken: &jobToken})
	check.answer("embedFindings", embedFindings, err, http.StatusOK, embedFindings.JSON200)
	chatLink, err := c.CreateEmbedLinkWithResponse(ctx, client.CreateEmbedLinkJSONRequestBody{Screen: "chat", JobId: &job.JobId})
	check.answer("createEmbedLink chat", chatLink, err, http.StatusOK, chatLink.JSON200)
	chatToken := linkToken(chatLink.JSON200.Url)
	embedAnswer, err := anonymous.EmbedChatWithResponse(ctx, job.JobId, &client.EmbedChatParams{XEmbedToken: &chatToken},
		client.EmbedChatJSONRequestBody{Message: "What is the inverter model?"})
	check.answer("embedChat", embedAnswer, err, http.StatusOK, embedAnswer.JSON200)
	if cited != nil {
		words, err := anonymous.EmbedCitedWordsWithResponse(ctx, job.JobId, cited.FileId, cited.Page,
			&client.EmbedCitedWordsParams{Text: cited.Excerpt, XEmbedToken: &chatToken})
		check.answer("embedCitedWords", words, err, http.StatusOK, words.JSON200)
		if len(words.JSON200.Boxes) == 0 {
			fail("embedCitedWords: no box for the cited excerpt %q on page %d", cited.Excerpt, cited.Page)
		}
	}
	viaChat, err := anonymous.EmbedGetJobWithResponse(ctx, job.JobId, &client.EmbedGetJobParams{XEmbedToken: &chatToken})
	if err != nil || viaChat.StatusCode() != http.StatusOK {
		fail("embedGetJob with the chat link: %v %d", err, viaChat.StatusCode())
	}
	tampered := jobToken + "0"
	refused, err := anonymous.EmbedGetJobWithResponse(ctx, job.JobId, &client.EmbedGetJobParams{XEmbedToken: &tampered})
	check.errorAnswer("embedGetJob tampered token", refused, err, http.StatusForbidden, refused.JSON403, "signature_invalid")

	document, err := anonymous.OpenapiWithResponse(ctx)
	check.answer("openapi", document, err, http.StatusOK, document.JSON200)

	noJob, err := c.CreateEmbedLinkWithResponse(ctx, client.CreateEmbedLinkJSONRequestBody{Screen: "chat"})
	check.errorAnswer("createEmbedLink without jobId", noJob, err, http.StatusBadRequest, noJob.JSON400, "missing_job_id")

	fmt.Printf("clientcheck: %d typed answers matched the server's JSON (%d findings, job %s)\n",
		check.answers, len(findings.JSON200.Findings), job.JobId)
}

// linkToken is the signed token of an embed link (its t parameter).
func linkToken(link string) string {
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("t") == "" {
		fail("embed link %q has no token", link)
	}
	return u.Query().Get("t")
}

// uploadTarget splits a signed upload URL into the generated operation's
// path parameter and query parameters.
func uploadTarget(base, signed string) (string, *client.UploadFileParams) {
	fileID, q := signedParts(base, signed, "/uploads/", "")
	expires, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil {
		fail("upload URL %s: expires: %v", signed, err)
	}
	return fileID, &client.UploadFileParams{Expires: expires, Signature: q.Get("signature")}
}

func downloadTarget(base, signed string) (string, *client.DownloadAnnotatedPDFParams) {
	fileID, q := signedParts(base, signed, "/downloads/", "/marked-up.pdf")
	expires, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil {
		fail("download URL %s: expires: %v", signed, err)
	}
	return fileID, &client.DownloadAnnotatedPDFParams{Expires: expires, Signature: q.Get("signature")}
}

func signedParts(base, signed, prefix, suffix string) (string, url.Values) {
	u, err := url.Parse(signed)
	if err != nil || !strings.HasPrefix(signed, base+prefix) {
		fail("signed URL %q is not under %s%s", signed, base, prefix)
	}
	return strings.TrimSuffix(strings.TrimPrefix(u.Path, prefix), suffix), u.Query()
}

// checker holds the generated client's answers to what the server sent.
type checker struct{ answers int }

// typedResponse is what every generated *Response has.
type typedResponse interface {
	StatusCode() int
}

func (c *checker) answer(what string, resp typedResponse, err error, status int, typed any) {
	if err != nil {
		fail("%s: %v", what, err)
	}
	body := reflect.ValueOf(resp).Elem().FieldByName("Body").Bytes()
	if resp.StatusCode() != status {
		fail("%s: status %d, want %d: %s", what, resp.StatusCode(), status, body)
	}
	if reflect.ValueOf(typed).IsNil() {
		fail("%s: the generated client decoded no typed %d body from %s", what, status, body)
	}
	c.same(what, body, typed)
}

func (c *checker) errorAnswer(what string, resp typedResponse, err error, status int, typed *client.Error, code string) {
	c.answer(what, resp, err, status, typed)
	if string(typed.Error.Code) != code {
		fail("%s: error.code %q, want %q", what, typed.Error.Code, code)
	}
	if typed.Error.RequestId == "" || typed.Error.Message == "" {
		fail("%s: error without message or requestId", what)
	}
}

// same re-encodes the typed value and compares it with the server's JSON.
func (c *checker) same(what string, raw []byte, typed any) {
	c.answers++
	again, err := json.Marshal(typed)
	if err != nil {
		fail("%s: re-encode the typed answer: %v", what, err)
	}
	var want, got any
	if err := json.Unmarshal(raw, &want); err != nil {
		fail("%s: server sent no JSON: %v", what, err)
	}
	if err := json.Unmarshal(again, &got); err != nil {
		fail("%s: %v", what, err)
	}
	if diffs := diff("$", want, got); len(diffs) > 0 {
		fail("%s: the typed answer differs from the server's JSON:\n  %s\nserver: %s\ntyped:  %s",
			what, strings.Join(diffs, "\n  "), raw, again)
	}
}

func diff(at string, want, got any) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: server %s, typed %s", at, short(want), short(got))}
		}
		var out []string
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inG:
				out = append(out, fmt.Sprintf("%s.%s: sent as %s, lost by the typed answer (undeclared, or optional with omitempty)", at, k, short(wv)))
			case !inW:
				out = append(out, fmt.Sprintf("%s.%s: not sent, typed answer adds %s (required in the document but omitted by the server?)", at, k, short(gv)))
			default:
				out = append(out, diff(at+"."+k, wv, gv)...)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: server %s, typed %s", at, short(want), short(got))}
		}
		var out []string
		for i := range w {
			out = append(out, diff(fmt.Sprintf("%s[%d]", at, i), w[i], g[i])...)
		}
		return out
	default:
		if !reflect.DeepEqual(want, got) {
			return []string{fmt.Sprintf("%s: server %s, typed %s", at, short(want), short(got))}
		}
	}
	return nil
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 100 {
		return string(b[:97]) + "..."
	}
	return string(b)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "clientcheck: "+format+"\n", args...)
	os.Exit(1)
}
