package cmd

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"planreview/scan/hostile"
)

// limitedAS is the address-space limit the kill test runs the server
// under (prlimit --as). The runtime and its threads' stacks take about
// 1-2 GB of address space; 3 GiB leaves a scan roughly 1 GB before
// allocations fail, well under the 3-9 GB the content-array bomb took
// before the budgets.
const limitedAS = 3 << 30

// startLimited is startServer under `prlimit --as=limitedAS`; prlimit
// execs the server, so the process it starts is the server itself.
func startLimited(t *testing.T, dir string, args ...string) *server {
	t.Helper()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit not installed")
	}
	for attempt := 1; ; attempt++ {
		all := append([]string{fmt.Sprintf("--as=%d", limitedAS), "--", planreviewBinary(t), "serve", "--data-dir", dir,
			"--listen", freePort(t)}, args...)
		cmd := exec.Command(prlimit, all...)
		cmd.Env = childEnv()
		cmd.Dir = os.TempDir()
		s := &server{t: t, dir: dir, cmd: cmd, stderr: &syncBuffer{}, done: make(chan struct{})}
		cmd.Stdout, cmd.Stderr = s.stderr, s.stderr
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
		if s.waitReady(20 * time.Second) {
			return s
		}
		select {
		case <-s.done:
			if attempt < 3 && strings.Contains(s.stderr.String(), "address already in use") {
				continue
			}
			t.Fatalf("serve exited before serving (%v); output:\n%s", cmd.ProcessState, s.stderr)
		default:
			t.Fatalf("serve not ready within 20s; output:\n%s", s.stderr)
		}
	}
}

// jobWithFiles creates a job whose version holds the given PDFs, uploaded.
func (c apiClient) jobWithFiles(name string, pdfs ...[]byte) (jobID string, fileIDs []string) {
	c.t.Helper()
	job := c.createJob(name)
	for i, pdf := range pdfs {
		reg := c.registerFile(job.JobID, fmt.Sprintf("%s-%d.pdf", name, i), len(pdf))
		if status, out := upload(c.t, reg.UploadURL, bytes.NewReader(pdf), int64(len(pdf))); status != http.StatusOK {
			c.t.Fatalf("upload: %d %v", status, out)
		}
		fileIDs = append(fileIDs, reg.FileID)
	}
	return job.JobID, fileIDs
}

// catchProcessing polls until the job's scan is processing.
func (c apiClient) catchProcessing(jobID string) {
	c.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for s := c.state(jobID); s.Status != "processing"; s = c.state(jobID) {
		if s.Status == "complete" || s.Status == "failed" || time.Now().After(deadline) {
			c.t.Fatalf("could not catch the scan mid-way: %+v", s)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (c apiClient) fileStatus(jobID string) map[string]string {
	c.t.Helper()
	out := map[string]string{}
	for _, f := range c.listFiles(jobID) {
		out[f.FileID] = f.Status
	}
	return out
}

// TestBombScanSurvivesSIGKILL: the real binary under an address-space
// limit is killed (SIGKILL) while it scans a set whose second file is a
// content-array bomb. Restarted, it comes up, runs the scan again, and the
// scan ends failed too_complex with the bomb rejected. A scan the process
// dies during at every start (three kills) is given up at the next start:
// failed internal, with a message, and the server serves.
func TestBombScanSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("several server starts and a 200-page scan")
	}
	dir := newDataDir(t)
	config := writeConfig(t, hostileConfig+"scan:\n  workers: 1\n  max_attempts: 3\n")
	srv := startLimited(t, dir, "--config", config)
	c := apiClient{t: t, base: srv.base, key: issueKey(t, dir, "killed").Key}
	plans, bomb := benchSet(t, 200), hostile.ContentArrayBomb()

	// One kill, one restart: the scan runs again and fails on the bomb.
	job, files := c.jobWithFiles("bomb", plans, bomb)
	if status := c.do(http.MethodPost, "/api/v1/jobs/"+job+"/scan", nil, nil); status != http.StatusOK {
		t.Fatalf("scan: %d", status)
	}
	c.catchProcessing(job)
	srv.kill()
	srv = startLimited(t, dir, "--config", config)
	c.base = srv.base
	s := c.waitTerminal(job, 2*time.Minute)
	if s.Status != "failed" || s.Pipeline.Error == nil || s.Pipeline.Error.Code != "too_complex" {
		t.Fatalf("scan after the kill: %+v", s)
	}
	if st := c.fileStatus(job); st[files[1]] != "rejected" || st[files[0]] == "rejected" {
		t.Errorf("file statuses %v: want the bomb (%s) rejected, the plans not", st, files[1])
	}

	// Killed during the scan at every start: given up after three.
	job, _ = c.jobWithFiles("crashing", plans, bomb)
	if status := c.do(http.MethodPost, "/api/v1/jobs/"+job+"/scan", nil, nil); status != http.StatusOK {
		t.Fatalf("scan: %d", status)
	}
	for kill := 1; kill <= 3; kill++ {
		c.catchProcessing(job)
		srv.kill()
		srv = startLimited(t, dir, "--config", config)
		c.base = srv.base
	}
	s = c.waitTerminal(job, time.Minute)
	if s.Status != "failed" || s.Pipeline.Error == nil || s.Pipeline.Error.Code != "internal" {
		t.Fatalf("scan after three kills: %+v", s)
	}
	var full struct {
		Pipeline struct{ Error struct{ Message string } }
	}
	c.do(http.MethodGet, "/api/v1/jobs/"+job, nil, &full)
	if !strings.Contains(full.Pipeline.Error.Message, "stopped 3 times") {
		t.Errorf("message %q does not say why", full.Pipeline.Error.Message)
	}
	if !srv.logged("stopped during it too many times", 5*time.Second) {
		t.Error("the start-up did not log the scan it gave up")
	}
	if status := ping(t, srv.base, c.key); status != http.StatusOK {
		t.Errorf("ping after recovery: %d", status)
	}
}
