package cmd

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"planreview/api"
	"planreview/store/blob"
)

type jobSummary struct {
	JobID      string `json:"jobId"`
	VersionID  string `json:"versionId"`
	Name       string `json:"name"`
	ExternalID string `json:"externalId"`
	Status     string `json:"status"`
}

type fileSummary struct {
	FileID    string  `json:"fileId"`
	VersionID string  `json:"versionId"`
	FileName  string  `json:"fileName"`
	FileSize  int64   `json:"fileSize"`
	Status    string  `json:"status"`
	SHA256    *string `json:"sha256"`
}

func (c apiClient) listJobs() []jobSummary {
	c.t.Helper()
	var out struct{ Jobs []jobSummary }
	if status := c.do(http.MethodGet, "/api/v1/jobs?limit=200", nil, &out); status != http.StatusOK {
		c.t.Fatalf("list jobs: %d", status)
	}
	return out.Jobs
}

func (c apiClient) listFiles(jobID string) []fileSummary {
	c.t.Helper()
	var out struct{ Files []fileSummary }
	if status := c.do(http.MethodGet, "/api/v1/jobs/"+jobID+"/files", nil, &out); status != http.StatusOK {
		c.t.Fatalf("list files: %d", status)
	}
	return out.Files
}

func (c apiClient) createJob(name string, header ...string) jobSummary {
	c.t.Helper()
	var j jobSummary
	if status := c.do(http.MethodPost, "/api/v1/jobs", map[string]any{"name": name, "externalId": "EXT-" + name}, &j, header...); status != http.StatusCreated {
		c.t.Fatalf("create job: status %d", status)
	}
	return j
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestRestartDurability: everything the server acknowledged survives a
// SIGKILL (no graceful shutdown): jobs, files with their hashes, uploaded
// bytes, idempotency records. The restart also replaces the stale socket.
func TestRestartDurability(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	srv := startServer(t, dir)
	key := issueKey(t, dir, "Durable Inc")
	c := apiClient{t: t, base: srv.base, key: key.Key}

	var jobs []jobSummary
	for i := range 5 {
		jobs = append(jobs, c.createJob(fmt.Sprintf("job %d", i)))
	}
	idem := c.createJob("idempotent", "Idempotency-Key", "restart-1")

	type upl struct {
		fileID, jobID, sha string
		body               []byte
	}
	var uploads []upl
	for i, j := range jobs[:3] {
		body := pdfBytes(t, 64<<10+i*1000)
		reg := c.registerFile(j.JobID, fmt.Sprintf("A-%d.pdf", i), len(body))
		status, out := upload(t, reg.UploadURL, bytes.NewReader(body), int64(len(body)))
		if status != http.StatusOK || out["sha256"] != sha256Hex(body) {
			t.Fatalf("upload: %d %v", status, out)
		}
		uploads = append(uploads, upl{reg.FileID, j.JobID, sha256Hex(body), body})
	}
	// One file registered but never uploaded stays pending.
	pending := c.registerFile(jobs[3].JobID, "pending.pdf", 1000).FileID

	before := c.listJobs()
	filesBefore := map[string][]fileSummary{}
	for _, j := range jobs {
		filesBefore[j.JobID] = c.listFiles(j.JobID)
	}

	srv.kill()
	// SIGKILL leaves the socket file behind; the restart must replace it.
	if _, err := os.Stat(filepath.Join(dir, "admin.sock")); err != nil {
		t.Logf("no stale admin socket after SIGKILL (%v); the replace path is not exercised", err)
	}

	srv = startServer(t, dir)
	c.base = srv.base
	after := c.listJobs()
	if len(after) != len(jobs)+1 || !slices.Equal(after, before) {
		t.Errorf("jobs after restart:\n%+v\nwant\n%+v", after, before)
	}
	for _, j := range jobs {
		got := c.listFiles(j.JobID)
		if !slices.EqualFunc(got, filesBefore[j.JobID], func(a, b fileSummary) bool {
			return a.FileID == b.FileID && a.Status == b.Status && a.FileSize == b.FileSize &&
				(a.SHA256 == nil) == (b.SHA256 == nil) && (a.SHA256 == nil || *a.SHA256 == *b.SHA256)
		}) {
			t.Errorf("files of %s after restart:\n%+v\nwant\n%+v", j.JobID, got, filesBefore[j.JobID])
		}
	}
	blobs, err := blob.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range uploads {
		files := c.listFiles(u.jobID)
		if len(files) != 1 || files[0].Status != "uploaded" || files[0].SHA256 == nil || *files[0].SHA256 != u.sha {
			t.Errorf("file %s after restart: %+v, want uploaded with sha256 %s", u.fileID, files, u.sha)
			continue
		}
		f, err := blobs.Open(u.fileID, u.sha)
		if err != nil {
			t.Errorf("uploaded bytes of %s: %v", u.fileID, err)
			continue
		}
		stored, _ := io.ReadAll(f)
		f.Close()
		if !bytes.Equal(stored, u.body) {
			t.Errorf("uploaded bytes of %s differ after restart (%d bytes, want %d)", u.fileID, len(stored), len(u.body))
		}
	}
	if files := c.listFiles(jobs[3].JobID); len(files) != 1 || files[0].FileID != pending || files[0].Status != "pending_upload" {
		t.Errorf("pending file after restart: %+v", files)
	}
	// The idempotency record survived: the same request replays the job.
	if again := c.createJob("idempotent", "Idempotency-Key", "restart-1"); again.JobID != idem.JobID {
		t.Errorf("idempotent replay after restart made job %s, want %s", again.JobID, idem.JobID)
	}
	// The restarted server took over the admin socket.
	if got := issueKey(t, dir, "Durable Inc"); ping(t, srv.base, got.Key) != http.StatusOK {
		t.Errorf("key issued through the restarted server's socket does not work")
	}
}

// slowBody yields first, then signals started, then trickles the rest in
// pieces with pauses: an upload still in flight when the server is told to
// stop.
type slowBody struct {
	data    []byte
	first   int
	piece   int
	pause   time.Duration
	started chan struct{}
	sent    int // touched only by the client's goroutine
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.sent >= len(b.data) {
		return 0, io.EOF
	}
	limit := b.first // the first bytes go at once
	if b.sent >= b.first {
		if b.sent == b.first {
			close(b.started)
		}
		// Pause each time a piece has gone, whatever size the reads are.
		if (b.sent-b.first)%b.piece == 0 {
			time.Sleep(b.pause)
		}
		limit = b.first + ((b.sent-b.first)/b.piece+1)*b.piece
	}
	n := min(len(p), limit-b.sent, len(b.data)-b.sent)
	copy(p, b.data[b.sent:b.sent+n])
	b.sent += n
	return n, nil
}

// TestGracefulShutdown: SIGTERM while an upload is in flight lets it
// finish (200, committed), refuses new connections, exits 0 and removes
// the admin socket.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	srv := startServer(t, dir)
	key := issueKey(t, dir, "Graceful Ltd")
	c := apiClient{t: t, base: srv.base, key: key.Key}
	job := c.createJob("slow upload")
	data := pdfBytes(t, 8<<20)
	reg := c.registerFile(job.JobID, "big.pdf", len(data))

	body := &slowBody{data: data, first: 1 << 20, piece: 512 << 10, pause: 100 * time.Millisecond, started: make(chan struct{})}
	type result struct {
		status int
		out    map[string]any
	}
	done := make(chan result, 1)
	go func() {
		status, out := upload(t, reg.UploadURL, body, int64(len(data)))
		done <- result{status, out}
	}()
	select {
	case <-body.started:
	case <-time.After(20 * time.Second):
		t.Fatal("upload did not start")
	}
	time.Sleep(100 * time.Millisecond) // let the server read into the handler
	srv.signal(syscall.SIGTERM)
	if !srv.logged("shutting down", 5*time.Second) {
		t.Errorf("no shutting down log line after SIGTERM")
	}
	var res result
	select {
	case res = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("in-flight upload did not finish")
	}
	if res.status != http.StatusOK || res.out["sha256"] != sha256Hex(data) {
		t.Errorf("in-flight upload during shutdown: %d %v, want 200 with its sha256", res.status, res.out)
	}
	if code := srv.wait(30 * time.Second); code != 0 {
		t.Errorf("serve exited %d after SIGTERM, want 0", code)
	}
	// The test means something only if the upload was still in flight
	// when shutdown began: its access log line comes after.
	out := srv.stderr.String()
	if stop, put := strings.Index(out, "shutting down"), strings.Index(out, "path=/uploads/"); stop < 0 || put < stop {
		t.Errorf("the upload finished before shutdown began (shutdown at %d, upload logged at %d)", stop, put)
	}
	if _, err := os.Stat(filepath.Join(dir, "admin.sock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("admin socket after graceful shutdown: %v, want it removed", err)
	}
	// The upload acknowledged during shutdown is committed.
	srv = startServer(t, dir)
	c.base = srv.base
	files := c.listFiles(job.JobID)
	if len(files) != 1 || files[0].Status != "uploaded" || files[0].SHA256 == nil || *files[0].SHA256 != sha256Hex(data) {
		t.Errorf("file after restart: %+v", files)
	}
}

// TestKillDuringUpload: a SIGKILL while a re-upload streams leaves the
// file as last acknowledged: the earlier bytes, hash and status.
func TestKillDuringUpload(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	srv := startServer(t, dir)
	key := issueKey(t, dir, "Crashy")
	c := apiClient{t: t, base: srv.base, key: key.Key}
	job := c.createJob("cut off")
	first := pdfBytes(t, 4<<20)
	reg := c.registerFile(job.JobID, "plans.pdf", len(first))
	if status, out := upload(t, reg.UploadURL, bytes.NewReader(first), int64(len(first))); status != http.StatusOK {
		t.Fatalf("first upload: %d %v", status, out)
	}

	second := pdfBytes(t, len(first))
	body := &slowBody{data: second, first: 1 << 20, piece: 256 << 10, pause: 200 * time.Millisecond, started: make(chan struct{})}
	done := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPut, reg.UploadURL, body)
		req.ContentLength = int64(len(second))
		req.Header.Set("Content-Type", "application/pdf")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	select {
	case <-body.started:
	case <-time.After(20 * time.Second):
		t.Fatal("re-upload did not start")
	}
	time.Sleep(100 * time.Millisecond)
	srv.kill()
	if status := <-done; status == http.StatusOK {
		t.Fatalf("the cut-off re-upload was acknowledged")
	}

	srv = startServer(t, dir)
	c.base = srv.base
	files := c.listFiles(job.JobID)
	if len(files) != 1 || files[0].Status != "uploaded" || files[0].SHA256 == nil || *files[0].SHA256 != sha256Hex(first) {
		t.Fatalf("after a cut-off re-upload: %+v, want the first upload (sha256 %s)", files, sha256Hex(first))
	}
	blobs, err := blob.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := blobs.Open(reg.FileID, sha256Hex(first))
	if err != nil {
		t.Fatalf("first upload's bytes: %v", err)
	}
	stored, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(stored, first) {
		t.Errorf("first upload's bytes changed (%d bytes)", len(stored))
	}
	// The file takes a new upload after the restart (the signed URL still
	// holds; the restarted server listens on another port).
	u, err := url.Parse(reg.UploadURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = srv.addr
	if status, out := upload(t, u.String(), bytes.NewReader(second), int64(len(second))); status != http.StatusOK || out["sha256"] != sha256Hex(second) {
		t.Errorf("re-upload after restart: %d %v", status, out)
	}
}

// TestSecondServeFailsFast: a second serve on the same data folder stops
// at once with a message, and leaves the first one (and its socket) alone.
func TestSecondServeFailsFast(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	first := startServer(t, dir)
	key := issueKey(t, dir, "Only One")

	second := launchServer(t, dir)
	code := second.wait(15 * time.Second)
	msg := second.stderr.String()
	if code == 0 {
		t.Errorf("second serve exited 0")
	}
	if !strings.Contains(msg, "another planreview") || !strings.Contains(msg, dir) {
		t.Errorf("second serve's message does not say another planreview serves %s:\n%s", dir, msg)
	}
	if strings.Contains(msg, `msg="planreview serving"`) {
		t.Errorf("second serve claimed to serve:\n%s", msg)
	}
	// The first still serves, through HTTP and its admin socket.
	if got := ping(t, first.base, key.Key); got != http.StatusOK {
		t.Errorf("first server after the second failed: ping %d", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "admin.sock")); err != nil {
		t.Errorf("first server's admin socket: %v", err)
	}
	if res := mustCLI(t, dir, "keys", "list"); !strings.Contains(res.stdout, key.KeyID) || res.took > 10*time.Second {
		t.Errorf("keys list through the first server's socket: took %s\n%s", res.took, res.stdout)
	}
}

// TestServeBadListen: a listen address in use is a start-up error naming
// server.listen, and nothing is left behind that blocks the next start.
func TestServeBadListen(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := newDataDir(t)
	res := runCLI(t, "", "serve", "--data-dir", dir, "--listen", ln.Addr().String())
	if res.code == 0 || !strings.Contains(res.stderr, "server.listen") {
		t.Errorf("serve on a busy port: exit %d, stderr:\n%s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "admin.sock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("failed start left the admin socket: %v", err)
	}
	// The database lock was released: a direct admin command works at once.
	if res := mustCLI(t, dir, "keys", "list"); res.took > 10*time.Second {
		t.Errorf("keys list after a failed start took %s", res.took)
	}
}

// benchAppliance starts the real appliance in-process (the serve command's
// startAppliance) on a temp data folder, logging at info level to nowhere,
// with one partner key whose rate limit is out of the way.
func benchAppliance(b *testing.B) (*appliance, string) {
	b.Helper()
	cfg, err := loadConfig(newViper(), "", pflag.NewFlagSet("bench", pflag.ContinueOnError))
	if err != nil {
		b.Fatal(err)
	}
	cfg.Data.Dir = newDataDir(b)
	cfg.Server.Listen = "127.0.0.1:0"
	ap, err := startAppliance(cfg, newLogger(cfg, io.Discard))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ap.Shutdown(context.Background()) })
	admin := &api.Admin{Store: ap.db}
	k, err := admin.IssueKey(context.Background(), "bench")
	if err != nil {
		b.Fatal(err)
	}
	rate, burst := 1e9, 1_000_000_000
	if _, err := admin.SetPartner(context.Background(), "bench", api.PartnerSettings{RateLimit: &rate, RateBurst: &burst}); err != nil {
		b.Fatal(err)
	}
	return ap, k.Key
}

func benchRequest(method, target, key, body string) *http.Request {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, target, rd)
	r.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	return r
}

// BenchmarkHandlerGetJob is the GET /api/v1/jobs/{id} handler chain
// (observe, auth, rate limit, store, JSON) without the network: run with
// -cpuprofile to see where bench/api.sh's GET time goes.
func BenchmarkHandlerGetJob(b *testing.B) {
	ap, key := benchAppliance(b)
	w := httptest.NewRecorder()
	ap.api.ServeHTTP(w, benchRequest(http.MethodPost, "/api/v1/jobs", key, `{"name":"bench job","description":"Bench job","externalId":"EXT-1"}`))
	var job struct{ JobID string }
	if err := json.Unmarshal(w.Body.Bytes(), &job); err != nil || w.Code != http.StatusCreated {
		b.Fatalf("create job: %d %s", w.Code, w.Body)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			w := httptest.NewRecorder()
			ap.api.ServeHTTP(w, benchRequest(http.MethodGet, "/api/v1/jobs/"+job.JobID, key, ""))
			if w.Code != http.StatusOK {
				b.Fatalf("GET job: %d %s", w.Code, w.Body)
			}
		}
	})
}

// BenchmarkHandlerPing is the partner API's fixed cost: auth, rate limit,
// access log.
func BenchmarkHandlerPing(b *testing.B) {
	ap, key := benchAppliance(b)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			w := httptest.NewRecorder()
			ap.api.ServeHTTP(w, benchRequest(http.MethodGet, "/api/v1/ping", key, ""))
			if w.Code != http.StatusOK {
				b.Fatalf("ping: %d %s", w.Code, w.Body)
			}
		}
	})
}

// BenchmarkHandlerCreateJob is POST /api/v1/jobs through the handler chain
// with 64 goroutines, so bbolt's Batch can group commits as under load.
func BenchmarkHandlerCreateJob(b *testing.B) {
	ap, key := benchAppliance(b)
	b.ReportAllocs()
	b.SetParallelism(32) // x GOMAXPROCS (2 here) = 64 concurrent clients
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			w := httptest.NewRecorder()
			ap.api.ServeHTTP(w, benchRequest(http.MethodPost, "/api/v1/jobs", key, `{"name":"bench job","description":"Bench job"}`))
			if w.Code != http.StatusCreated {
				b.Fatalf("create job: %d %s", w.Code, w.Body)
			}
		}
	})
}
