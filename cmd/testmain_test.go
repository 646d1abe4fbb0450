package cmd

// Helpers for the end-to-end tests: the real binary, built once per test
// run, run as a subprocess on a private data folder and a loopback port.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"planreview/textmatch"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	// The patterns the packages declare, before any test makes others
	// (the prefilter table holds these and the rule packs').
	declaredPatterns = textmatch.Patterns()
	// Servers started in this process compile the sheet-image renderer
	// here (the test binary cannot run planreview's compile-pdfium) into
	// one folder every test shares.
	sheetImageModuleCache = filepath.Join(os.TempDir(), "planreview-test-wasm-cache")
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// planreviewBinary builds the module's binary the first time a test needs
// it; tests that only need the package (config) never pay for the build.
func planreviewBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "planreview-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binDir = dir
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		bin := filepath.Join(dir, "planreview")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		build := exec.CommandContext(ctx, goTool, "build", "-o", bin, ".")
		build.Dir = ".." // the module root: main.go lives there
		out, err := build.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		binPath = bin
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// newDataDir is a private data folder with a short path: the admin socket
// lives in it and unix socket paths are limited to ~108 bytes, which long
// test names under t.TempDir() can exceed.
func newDataDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "prt-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// childEnv is the test process's environment without PLANREVIEW_* settings,
// so the developer's shell cannot change what the tests see.
func childEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PLANREVIEW_") {
			env = append(env, kv)
		}
	}
	// Every binary the tests start shares one compiled sheet-image
	// renderer, as an installed appliance keeps its own from start to start.
	env = append(env, "PLANREVIEW_EMBED_PDFIUM_CACHE_DIR="+filepath.Join(os.TempDir(), "planreview-test-wasm-cache"))
	return append(env, extra...)
}

// syncBuffer collects a child's output while it runs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// server is a running `planreview serve` subprocess.
type server struct {
	t      testing.TB
	dir    string
	cmd    *exec.Cmd
	stderr *syncBuffer
	addr   string // host:port of the partner API
	base   string // http://addr
	done   chan struct{}
}

var servingAddr = regexp.MustCompile(`msg="planreview serving" addr=(\S+)`)

// startServer runs serve on dir and a free loopback port and waits for
// /readyz. The port is picked by listening on :0 and closing, and passed as
// --listen, so the default public URL (http://LISTEN, which signed upload
// URLs use) is reachable; a port taken in between is retried.
func startServer(t testing.TB, dir string, args ...string) *server {
	t.Helper()
	for attempt := 1; ; attempt++ {
		port := freePort(t)
		s := launchServer(t, dir, append([]string{"--listen", port}, args...)...)
		if s.waitReady(20 * time.Second) {
			return s
		}
		select {
		case <-s.done:
			if attempt < 3 && strings.Contains(s.stderr.String(), "address already in use") {
				continue
			}
			t.Fatalf("serve exited before serving (%v); output:\n%s", s.cmd.ProcessState, s.stderr)
		default:
			t.Fatalf("serve not ready within 20s; output:\n%s", s.stderr)
		}
	}
}

// freePort returns a loopback host:port nothing listens on right now.
func freePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitReady waits for the "planreview serving" log line (its addr= is the
// bound address) and then for /readyz to answer 200.
func (s *server) waitReady(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for s.addr == "" {
		if m := servingAddr.FindStringSubmatch(s.stderr.String()); m != nil {
			s.addr = m[1]
			break
		}
		select {
		case <-s.done:
			return false
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return false
		}
	}
	s.base = "http://" + s.addr
	for {
		resp, err := http.Get(s.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return true
			}
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// launchServer starts serve without waiting for it to be ready. The test's
// cleanup kills it if it still runs.
func launchServer(t testing.TB, dir string, args ...string) *server {
	t.Helper()
	all := append([]string{"serve", "--data-dir", dir}, args...)
	if !slices.Contains(args, "--listen") {
		all = append(all, "--listen", "127.0.0.1:0")
	}
	cmd := exec.Command(planreviewBinary(t), all...)
	cmd.Env = childEnv()
	cmd.Dir = os.TempDir()
	s := &server{t: t, dir: dir, cmd: cmd, stderr: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout = s.stderr
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			_ = cmd.Process.Kill()
			<-s.done
		}
		if t.Failed() {
			t.Logf("serve %s stderr:\n%s", dir, s.stderr)
		}
	})
	return s
}

// signal sends sig to the server process.
func (s *server) signal(sig syscall.Signal) {
	s.t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("signal %v: %v", sig, err)
	}
}

// wait waits for the process to exit and returns its exit code (-1 when
// killed by a signal).
func (s *server) wait(timeout time.Duration) int {
	s.t.Helper()
	select {
	case <-s.done:
	case <-time.After(timeout):
		s.t.Fatalf("serve did not exit within %s; stderr:\n%s", timeout, s.stderr)
	}
	return s.cmd.ProcessState.ExitCode()
}

// logged waits up to timeout for the server's output to contain s (the
// output arrives through a pipe, a little after the server wrote it).
func (s *server) logged(substr string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for !strings.Contains(s.stderr.String(), substr) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// kill ends the server with SIGKILL: no graceful shutdown at all.
func (s *server) kill() {
	s.t.Helper()
	s.signal(syscall.SIGKILL)
	s.wait(10 * time.Second)
}

// cliResult is what one command-line run printed and returned.
type cliResult struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// runCLI runs the binary with args and --data-dir dir. A run that takes over
// 30 s fails the test: nothing here may hang (e.g. on bbolt's file lock).
func runCLI(t testing.TB, dir string, args ...string) cliResult {
	t.Helper()
	bin := planreviewBinary(t) // the first call builds it: not part of the run's 30 s
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if dir != "" {
		args = append(args, "--data-dir", dir)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = childEnv()
	cmd.Dir = os.TempDir() // a forgotten --data-dir must not make ./data in the repo
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := cliResult{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("planreview %s: still running after 30s; stderr:\n%s", strings.Join(args, " "), res.stderr)
	case errors.As(err, &exitErr):
		res.code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("planreview %s: %v", strings.Join(args, " "), err)
	}
	return res
}

// mustCLI is runCLI for commands that must succeed.
func mustCLI(t testing.TB, dir string, args ...string) cliResult {
	t.Helper()
	res := runCLI(t, dir, args...)
	if res.code != 0 {
		t.Fatalf("planreview %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), res.code, res.stdout, res.stderr)
	}
	return res
}

// issuedKey is the output of `keys issue --json`.
type issuedKey struct {
	KeyID     string `json:"keyId"`
	PartnerID string `json:"partnerId"`
	Partner   string `json:"partner"`
	Key       string `json:"key"`
}

// issueKey issues a key through the command line (socket or direct).
func issueKey(t testing.TB, dir, partner string) issuedKey {
	t.Helper()
	res := mustCLI(t, dir, "keys", "issue", "--partner", partner, "--json")
	var k issuedKey
	if err := json.Unmarshal([]byte(res.stdout), &k); err != nil {
		t.Fatalf("keys issue --json: %v\n%s", err, res.stdout)
	}
	return k
}

// apiClient calls the partner API with one key.
type apiClient struct {
	t    testing.TB
	base string
	key  string
}

// do sends a JSON request and decodes a JSON answer into out (if non-nil).
func (c apiClient) do(method, path string, body, out any, header ...string) int {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("%s %s: %v\n%s", method, path, err, raw)
		}
	}
	return resp.StatusCode
}

// ping answers the status of GET /api/v1/ping with key.
func ping(t testing.TB, base, key string) int {
	t.Helper()
	return apiClient{t: t, base: base, key: key}.do(http.MethodGet, "/api/v1/ping", nil, nil)
}

// pdfBytes is n bytes that pass the upload's PDF sniffing, random after the
// header so every file hashes differently.
func pdfBytes(t testing.TB, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	copy(b, "%PDF-1.7\n")
	return b
}

// registered is the answer to POST /jobs/{id}/files.
type registered struct {
	FileID    string `json:"fileId"`
	UploadURL string `json:"uploadUrl"`
	VersionID string `json:"versionId"`
}

// registerFile registers a PDF of size bytes on a job.
func (c apiClient) registerFile(jobID, name string, size int) registered {
	c.t.Helper()
	var reg registered
	status := c.do(http.MethodPost, "/api/v1/jobs/"+jobID+"/files", map[string]any{
		"fileName": name, "fileSize": size, "contentType": "application/pdf",
	}, &reg)
	if status != http.StatusCreated {
		c.t.Fatalf("register file: status %d", status)
	}
	return reg
}

// upload PUTs body to a signed upload URL and returns status and answer.
func upload(t testing.TB, url string, body io.Reader, size int64) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPut, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "application/pdf")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("PUT upload: %v", err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}
