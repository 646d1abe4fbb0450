// Command deskbench measures the examiner's desk against the real binary
// (-bin): -examiners concurrent examiners PATCH findings of a scanned job
// for -duration, first with no scan running (the reference), then while
// two scans of a larger set run; a GET of the job, sent the same way
// beside them, is the second reference. It prints p50, p90, p99 and max of
// each. Everything binds 127.0.0.1 and runs in a temp folder.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

var (
	bin       = flag.String("bin", "", "planreview binary (required)")
	corpus    = flag.String("corpus", "../shared/corpus", "folder of real plan PDFs")
	small     = flag.String("small", "fsec_pv_permit_sample_generated.pdf", "the set the examiners work on")
	large     = flag.String("large", "us_va_stcloud_bldg28_renovation_cds.pdf", "the set scanned twice during the second phase")
	examiners = flag.Int("examiners", 16, "concurrent examiners")
	duration  = flag.Duration("duration", 10*time.Second, "length of each phase")
)

func main() {
	flag.Parse()
	if *bin == "" {
		fail("-bin is required")
	}
	dir, err := os.MkdirTemp("", "deskbench-")
	check(err)
	defer os.RemoveAll(dir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(*bin, "serve", "--data-dir", dir, "--listen", addr)
	srv.Env = append(cleanEnv(), "PLANREVIEW_SCAN_WORKERS=2", "PLANREVIEW_LOG_LEVEL=warn")
	check(srv.Start())
	defer func() { _ = srv.Process.Signal(syscall.SIGTERM); _ = srv.Wait() }()
	base := "http://" + addr
	waitReady(base)
	var key struct{ Key string }
	check(json.Unmarshal(cli("keys", "issue", "--partner", "bench", "--json", "--data-dir", dir), &key))
	cli("partners", "set", "bench", "--rate-limit", "1000000", "--rate-burst", "1000000", "--scan-quota", "1000", "--data-dir", dir)
	c := client{base: base, key: key.Key}

	job := c.scanned(filepath.Join(*corpus, *small))
	var body struct{ Findings []struct{ FindingID string } }
	c.call("GET", "/api/v1/jobs/"+job+"/findings", nil, &body)
	if len(body.Findings) == 0 {
		fail("the small set has no findings")
	}
	fmt.Printf("examiners %d, %d findings, phases of %s, GOMAXPROCS of the host %d\n", *examiners, len(body.Findings), *duration, nprocs())

	quietPatch, quietGet := c.phase(job, body.Findings, "quiet")
	large := mustRead(filepath.Join(*corpus, *large))
	jobs := []string{c.uploaded("scan A", large), c.uploaded("scan B", large)}
	for _, j := range jobs {
		c.call("POST", "/api/v1/jobs/"+j+"/scan", nil, nil)
	}
	time.Sleep(time.Second) // both scans claimed and extracting
	busyPatch, busyGet := c.phase(job, body.Findings, "busy")
	for _, j := range jobs {
		var s struct{ Status string }
		c.call("GET", "/api/v1/jobs/"+j, nil, &s)
		fmt.Printf("scan %s at the end of the phase: %s\n", j, s.Status)
	}
	fmt.Println()
	fmt.Println("| measurement | requests | p50 ms | p90 ms | p99 ms | max ms |")
	fmt.Println("|---|---|---|---|---|---|")
	row("PATCH, no scan running", quietPatch)
	row("GET job, no scan running (reference)", quietGet)
	row("PATCH, two scans running", busyPatch)
	row("GET job, two scans running (reference)", busyGet)
}

type client struct{ base, key string }

func (c client) call(method, path string, body, out any, header ...string) int {
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	check(err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		fail(fmt.Sprintf("%s %s: %d %s", method, path, resp.StatusCode, raw))
	}
	if out != nil {
		check(json.Unmarshal(raw, out))
	}
	return resp.StatusCode
}

func (c client) uploaded(name string, pdf []byte) string {
	var job struct{ JobID string }
	c.call("POST", "/api/v1/jobs", map[string]any{"name": name}, &job)
	var reg struct{ UploadURL string }
	c.call("POST", "/api/v1/jobs/"+job.JobID+"/files", map[string]any{"fileName": name + ".pdf", "fileSize": len(pdf), "contentType": "application/pdf"}, &reg)
	req, _ := http.NewRequest("PUT", reg.UploadURL, bytes.NewReader(pdf))
	req.Header.Set("Content-Type", "application/pdf")
	resp, err := http.DefaultClient.Do(req)
	check(err)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		fail(fmt.Sprintf("upload: %d", resp.StatusCode))
	}
	return job.JobID
}

func (c client) scanned(path string) string {
	job := c.uploaded("desk", mustRead(path))
	c.call("POST", "/api/v1/jobs/"+job+"/scan", nil, nil)
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var s struct{ Status string }
		c.call("GET", "/api/v1/jobs/"+job, nil, &s)
		if s.Status == "complete" {
			return job
		}
		if s.Status == "failed" {
			fail("the small set's scan failed")
		}
	}
	fail("the small set's scan did not finish")
	return ""
}

// phase runs the examiners and one GET loop beside them for -duration.
func (c client) phase(job string, findings []struct{ FindingID string }, name string) (patch, get []time.Duration) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	stop := time.Now().Add(*duration)
	for e := range *examiners {
		wg.Go(func() {
			var mine []time.Duration
			for i := 0; time.Now().Before(stop); i++ {
				f := findings[(e+i)%len(findings)]
				body := map[string]any{"note": fmt.Sprintf("%s examiner %d change %d", name, e, i), "actor": map[string]string{"id": fmt.Sprint("u", e), "name": "Examiner"}}
				start := time.Now()
				c.call("PATCH", "/api/v1/jobs/"+job+"/findings/"+f.FindingID, body, nil)
				mine = append(mine, time.Since(start))
				time.Sleep(20 * time.Millisecond) // a person's pace is far slower; this keeps the store busy
			}
			mu.Lock()
			patch = append(patch, mine...)
			mu.Unlock()
		})
	}
	wg.Go(func() {
		for time.Now().Before(stop) {
			start := time.Now()
			c.call("GET", "/api/v1/jobs/"+job, nil, nil)
			d := time.Since(start)
			mu.Lock()
			get = append(get, d)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		}
	})
	wg.Wait()
	return patch, get
}

func row(name string, d []time.Duration) {
	slices.Sort(d)
	q := func(p float64) string {
		return fmt.Sprintf("%.1f", float64(d[min(len(d)-1, int(p*float64(len(d))))].Microseconds())/1000)
	}
	fmt.Printf("| %s | %d | %s | %s | %s | %s |\n", name, len(d), q(0.5), q(0.9), q(0.99), q(1))
}

func waitReady(base string) {
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
	}
	fail("server not ready")
}

func cli(args ...string) []byte {
	cmd := exec.Command(*bin, args...)
	cmd.Env = cleanEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		fail(fmt.Sprintf("%v: %v\n%s", args, err, stderr.String()))
	}
	return out
}

func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PLANREVIEW_") {
			env = append(env, kv)
		}
	}
	return env
}

func nprocs() int {
	out, err := exec.Command("nproc").Output()
	if err != nil {
		return 0
	}
	var n int
	fmt.Sscan(string(out), &n)
	return n
}

func mustRead(path string) []byte {
	b, err := os.ReadFile(path)
	check(err)
	return b
}

func check(err error) {
	if err != nil {
		fail(err.Error())
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "deskbench:", msg)
	os.Exit(1)
}
