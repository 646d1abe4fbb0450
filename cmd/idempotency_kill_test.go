package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// keyedRequest is one POST sent with an Idempotency-Key, and the first
// answer it got (if the server answered before it died).
type keyedRequest struct {
	path, key string
	body      []byte
	wantJob   bool // POST /jobs (else POST /jobs/{id}/files)

	acked  bool
	status int
	answer []byte
}

// sendKeyed posts r's body with its key; err means no complete answer
// (the server died before or while answering).
func sendKeyed(client *http.Client, base, secret string, r *keyedRequest) (status int, body []byte, replayed bool, err error) {
	req, err := http.NewRequest(http.MethodPost, base+r.path, bytes.NewReader(r.body))
	if err != nil {
		return 0, nil, false, err
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", r.key)
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, false, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	return resp.StatusCode, body, resp.Header.Get("Idempotent-Replayed") == "true", err
}

// TestKillDuringIdempotentPosts: SIGKILL the real server in the middle of
// bursts of keyed POST /jobs and POST /jobs/{id}/files, restart it and send
// every request again with its key. Each request must have made exactly one
// job or file (the key's record is written in the same transaction as the
// write), and every request that had been answered must replay that answer
// byte for byte.
func TestKillDuringIdempotentPosts(t *testing.T) {
	t.Parallel()
	const (
		trials  = 5
		senders = 6
		targets = 12 // jobs that take the file registrations (100 files each at most)
	)
	dir := newDataDir(t)
	srv := startServer(t, dir)
	key := issueKey(t, dir, "Kill Tester")
	mustCLI(t, dir, "partners", "set", "Kill Tester", "--rate-limit", "100000", "--rate-burst", "100000")
	c := apiClient{t: t, base: srv.base, key: key.Key}
	var targetJobs []string
	for i := range targets {
		targetJobs = append(targetJobs, c.createJob(fmt.Sprintf("target %d", i)).JobID)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 14))

	var all []*keyedRequest
	for trial := range trials {
		var mu sync.Mutex
		var wg sync.WaitGroup
		stop := make(chan struct{})
		base := srv.base
		for g := range senders {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					r := &keyedRequest{key: fmt.Sprintf("t%d-g%d-%d", trial, g, i)}
					if i%2 == 0 {
						r.path, r.wantJob = "/api/v1/jobs", true
						r.body = fmt.Appendf(nil, `{"name":"burst %s","externalId":"%s"}`, r.key, r.key)
					} else {
						r.path = "/api/v1/jobs/" + targetJobs[(trial*senders+g+i)%targets] + "/files"
						r.body = fmt.Appendf(nil, `{"fileName":"%s.pdf","fileSize":1000,"contentType":"application/pdf"}`, r.key)
					}
					mu.Lock()
					all = append(all, r)
					mu.Unlock()
					status, body, _, err := sendKeyed(client, base, key.Key, r)
					if err != nil {
						return // the server is gone; r stays unacknowledged
					}
					if status != http.StatusCreated {
						t.Errorf("%s %s: %d %s", r.path, r.key, status, body)
						return
					}
					r.acked, r.status, r.answer = true, status, body
				}
			})
		}
		time.Sleep(time.Duration(40+rng.IntN(160)) * time.Millisecond)
		srv.kill()
		close(stop)
		wg.Wait()
		srv = startServer(t, dir)
		c.base = srv.base
	}

	acked, committedUnanswered := 0, 0
	for _, r := range all {
		status, body, replayed, err := sendKeyed(client, srv.base, key.Key, r)
		if err != nil || status != http.StatusCreated {
			t.Fatalf("retry %s %s: %d %v %s", r.path, r.key, status, err, body)
		}
		if !r.acked {
			// Replayed: the write and its record committed, the answer
			// died with the server.
			if replayed {
				committedUnanswered++
			}
			r.acked, r.status, r.answer = true, status, body
			continue
		}
		acked++
		if !replayed || !bytes.Equal(body, r.answer) {
			t.Errorf("retry of answered %s %s: replayed=%v\n%s\nwant the first answer\n%s", r.path, r.key, replayed, body, r.answer)
		}
	}
	// The retries of requests never answered before are answered now;
	// a third round must replay those answers too.
	for _, r := range all {
		status, body, replayed, err := sendKeyed(client, srv.base, key.Key, r)
		if err != nil || status != r.status || !replayed || !bytes.Equal(body, r.answer) {
			t.Errorf("second retry of %s %s: %d replayed=%v %v\n%s\nwant\n%s", r.path, r.key, status, replayed, err, body, r.answer)
		}
	}

	// Exactly one job or file per key: count what the database holds.
	wantJobs, wantFiles := map[string]bool{}, map[string]bool{}
	for _, r := range all {
		var ids struct {
			JobID  string `json:"jobId"`
			FileID string `json:"fileId"`
		}
		if err := json.Unmarshal(r.answer, &ids); err != nil {
			t.Fatalf("answer of %s: %v", r.key, err)
		}
		if r.wantJob {
			wantJobs[ids.JobID] = true
		} else {
			wantFiles[ids.FileID] = true
		}
	}
	jobs := listAllJobs(t, c)
	gotJobs, names := 0, map[string]int{}
	for _, j := range jobs {
		if strings.HasPrefix(j.Name, "burst ") {
			gotJobs++
			names[j.Name]++
			if !wantJobs[j.JobID] {
				t.Errorf("job %s (%s) is no request's answer: a duplicate", j.JobID, j.Name)
			}
		}
	}
	for name, n := range names {
		if n > 1 {
			t.Errorf("%d jobs named %q", n, name)
		}
	}
	gotFiles := 0
	for _, jobID := range targetJobs {
		for _, f := range c.listFiles(jobID) {
			gotFiles++
			if !wantFiles[f.FileID] {
				t.Errorf("file %s (%s) is no request's answer: a duplicate", f.FileID, f.FileName)
			}
		}
	}
	if gotJobs != len(wantJobs) || gotFiles != len(wantFiles) {
		t.Errorf("database holds %d jobs and %d files, want %d and %d (one per key)", gotJobs, gotFiles, len(wantJobs), len(wantFiles))
	}
	t.Logf("%d trials: %d keyed requests, %d answered before a kill, %d unanswered (%d of them committed, replayed on retry); %d jobs, %d files",
		trials, len(all), acked, len(all)-acked, committedUnanswered, gotJobs, gotFiles)
}

// listAllJobs pages through GET /jobs.
func listAllJobs(t *testing.T, c apiClient) []jobSummary {
	t.Helper()
	var out []jobSummary
	cursor := ""
	for {
		var page struct {
			Jobs       []jobSummary
			NextCursor *string
		}
		path := "/api/v1/jobs?limit=200"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		if status := c.do(http.MethodGet, path, nil, &page); status != http.StatusOK {
			t.Fatalf("list jobs: %d", status)
		}
		out = append(out, page.Jobs...)
		if page.NextCursor == nil {
			return out
		}
		cursor = *page.NextCursor
	}
}
