// Command opsbench measures the operator's figures of docs/operations.md
// and docs/benchmarks.md against the real binary (-bin):
//
//	-mode backup: a data folder of -jobs jobs with one upload each
//	  (-bytes in all, random bytes: PDFs are compressed already) is built
//	  through the store packages; a server runs on it; `planreview backup`
//	  is timed (twice: uploads cold, as written with O_DIRECT, then warm)
//	  with the server's peak RSS over its resting RSS and the CLI's max
//	  RSS; `planreview restore` is timed into a new folder; GNU tar over
//	  the same files in the same run is the reference.
//	-mode sizing: a server with 2 scan workers reviews -scans uploads of
//	  real plan sets (-corpus, round robin); the data folder's growth and
//	  the server's peak RSS are reported per scan and per 1,000 scans.
//
// Everything binds 127.0.0.1 and runs in -work (a temp folder by default).
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"planreview/store"
	"planreview/store/blob"
)

var (
	bin    = flag.String("bin", "", "planreview binary (required)")
	mode   = flag.String("mode", "backup", "backup or sizing")
	work   = flag.String("work", "", "work folder (default: a new temp folder, removed at the end)")
	jobs   = flag.Int("jobs", 10000, "backup: jobs, one upload each")
	total  = flag.Int64("bytes", 2_000_000_000, "backup: upload bytes in all")
	scans  = flag.Int("scans", 100, "sizing: scans to run")
	corpus = flag.String("corpus", "../shared/corpus", "sizing: folder of real plan PDFs")
	sets   = flag.String("sets", "fsec_pv_permit_sample_generated.pdf,ca_calgary_sample_dp_bp_house_26p.pdf,measurex_kirkland-sample-plans.pdf,us_va_stcloud_bldg28_renovation_cds.pdf",
		"sizing: comma-separated files of -corpus, uploaded round robin")
)

func main() {
	flag.Parse()
	if *bin == "" {
		fail("-bin is required")
	}
	dir := *work
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "opsbench-"); err != nil {
			fail(err.Error())
		}
		defer os.RemoveAll(dir)
	}
	switch *mode {
	case "backup":
		benchBackup(dir)
	case "sizing":
		benchSizing(dir)
	default:
		fail("unknown -mode " + *mode)
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "opsbench:", msg)
	os.Exit(1)
}

func check(err error) {
	if err != nil {
		fail(err.Error())
	}
}

// populate builds a data folder with the store packages, as the server
// would have written it.
func populate(data string) {
	check(os.MkdirAll(data, 0o700))
	db, err := store.Open(filepath.Join(data, "planreview.db"), store.Options{})
	check(err)
	defer db.Close()
	blobs, err := blob.Open(filepath.Join(data, "files"))
	check(err)
	p, _, err := db.EnsurePartner("bench")
	check(err)
	size := *total / int64(*jobs)
	body := make([]byte, size)
	start := time.Now()
	for i := range *jobs {
		_, _ = rand.Read(body)
		copy(body, "%PDF-1.7\n")
		j, _, err := db.CreateJob(store.Job{PartnerID: p.ID, Name: fmt.Sprintf("job %d", i), ExternalID: fmt.Sprintf("BLD-%05d", i)})
		check(err)
		f, err := db.RegisterFile(p.ID, j.ID, store.File{FileName: "plans.pdf", FileSize: size, ContentType: "application/pdf"}, 100)
		check(err)
		st, err := blobs.Put(f.ID, bytes.NewReader(body), size)
		check(err)
		_, _, err = db.CommitUpload(f.ID, st.Size, st.SHA256)
		check(err)
		if i%1000 == 999 {
			fmt.Fprintf(os.Stderr, "populated %d jobs (%s)\n", i+1, time.Since(start).Round(time.Second))
		}
	}
}

// server is a running `planreview serve`.
type server struct {
	cmd  *exec.Cmd
	base string
}

func startServer(data string, extra ...string) *server {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(*bin, append([]string{"serve", "--data-dir", data, "--listen", addr}, extra...)...)
	cmd.Env = cleanEnv()
	cmd.Stderr = io.Discard
	check(cmd.Start())
	s := &server{cmd: cmd, base: "http://" + addr}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if resp, err := http.Get(s.base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s
			}
		}
		if time.Now().After(deadline) {
			fail("server not ready")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	_ = s.cmd.Wait()
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

// procKB reads a "VmRSS:"-style field of /proc/PID/status in KiB.
func procKB(pid int, field string) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	check(err)
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, field+":") {
			n, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return n
		}
	}
	return 0
}

// resetPeak makes VmHWM start again from the current RSS.
func resetPeak(pid int) {
	check(os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0o200))
}

type run struct {
	took   time.Duration
	maxRSS int64 // KiB
	out    string
}

// cli runs the binary and reports its time and max RSS.
func cli(args ...string) run {
	cmd := exec.Command(*bin, args...)
	cmd.Env = cleanEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	r := run{took: time.Since(start), out: strings.TrimSpace(stderr.String())}
	if err != nil {
		fail(fmt.Sprintf("%v: %v\n%s", args, err, stderr.String()))
	}
	r.maxRSS = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	return r
}

func timed(name string, args ...string) time.Duration {
	start := time.Now()
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	check(cmd.Run())
	return time.Since(start)
}

func mib(kb int64) string { return fmt.Sprintf("%.1f MiB", float64(kb)/1024) }

func dirBytes(dir string) int64 {
	var n int64
	_ = filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return nil
	})
	return n
}

func benchBackup(dir string) {
	data := filepath.Join(dir, "data")
	start := time.Now()
	if _, err := os.Stat(filepath.Join(data, "planreview.db")); err == nil && *work != "" {
		fmt.Fprintln(os.Stderr, "reusing the data folder in -work")
	} else {
		populate(data)
	}
	fmt.Printf("data folder: %d jobs, %d uploads of %d bytes, %.2f GB on disk (built in %s)\n\n",
		*jobs, *jobs, *total/int64(*jobs), float64(dirBytes(data))/1e9, time.Since(start).Round(time.Second))

	srv := startServer(data)
	pid := srv.cmd.Process.Pid
	base := cli("version").maxRSS // the CLI's own resting RSS, for "extra"
	fmt.Println("| run | time | server RSS before (anon + file) | server peak during: anon / file-backed | extra anon | backup CLI max RSS (extra over `version`) | archive |")
	fmt.Println("|---|---|---|---|---|---|---|")
	var archive string
	var backupTook time.Duration
	for i, label := range []string{"backup, uploads cold", "backup, uploads warm"} {
		archive = filepath.Join(dir, fmt.Sprintf("backup-%d.tar", i))
		time.Sleep(time.Second) // settle
		anonBefore, fileBefore := procKB(pid, "RssAnon"), procKB(pid, "RssFile")
		stopSampling := make(chan struct{})
		peaks := make(chan [2]int64)
		go func() { // RssAnon is the memory the backup costs; RssFile is the database's mmap, reclaimable
			var anon, file int64
			for {
				anon, file = max(anon, procKB(pid, "RssAnon")), max(file, procKB(pid, "RssFile"))
				select {
				case <-stopSampling:
					peaks <- [2]int64{anon, file}
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
		r := cli("backup", archive, "--data-dir", data)
		close(stopSampling)
		peak := <-peaks
		info, err := os.Stat(archive)
		check(err)
		fmt.Printf("| %s | %.1f s | %s + %s | %s / %s | %s | %s (%s) | %.2f GB |\n", label, r.took.Seconds(), mib(anonBefore), mib(fileBefore),
			mib(peak[0]), mib(peak[1]), mib(peak[0]-anonBefore), mib(r.maxRSS), mib(r.maxRSS-base), float64(info.Size())/1e9)
		backupTook = r.took
		if i == 0 {
			check(os.Remove(archive))
		}
	}
	srv.stop()

	restored := filepath.Join(dir, "restored")
	r := cli("restore", archive, "--data-dir", restored)
	fmt.Printf("| restore (verifies every SHA-256, syncs every file) | %.1f s (%.2fx the warm backup) | | | | %s (%s) | |\n",
		r.took.Seconds(), r.took.Seconds()/backupTook.Seconds(), mib(r.maxRSS), mib(r.maxRSS-base))

	ref := filepath.Join(dir, "reference.tar")
	tarC := timed("tar", "-cf", ref, "-C", data, "planreview.db", "signing.key", "files")
	refOut := filepath.Join(dir, "reference-out")
	check(os.MkdirAll(refOut, 0o700))
	tarX := timed("tar", "-xf", ref, "-C", refOut)
	syncT := timed("sync")
	fmt.Printf("| reference: GNU tar -cf of the same files (no snapshot, no hashing) | %.1f s | | | | | |\n", tarC.Seconds())
	fmt.Printf("| reference: GNU tar -xf, then sync (no verification) | %.1f s | | | | | |\n", (tarX + syncT).Seconds())
	fmt.Printf("\nrestore said: %s\n", r.out)
}

func benchSizing(dir string) {
	data := filepath.Join(dir, "data")
	check(os.MkdirAll(data, 0o700))
	cfg := filepath.Join(dir, "config.yaml")
	check(os.WriteFile(cfg, []byte("scan:\n  workers: 2\n"), 0o600))
	srv := startServer(data, "--config", cfg)
	defer srv.stop()
	pid := srv.cmd.Process.Pid
	var key struct{ Key string }
	cmd := exec.Command(*bin, "keys", "issue", "--partner", "bench", "--json", "--data-dir", data)
	cmd.Env = cleanEnv()
	out, err := cmd.Output()
	check(err)
	check(json.Unmarshal(out, &key))
	cli("partners", "set", "bench", "--rate-limit", "100000", "--rate-burst", "100000", "--scan-quota", "1000000", "--data-dir", data)

	var pdfs [][]byte
	var names []string
	for _, name := range strings.Split(*sets, ",") {
		b, err := os.ReadFile(filepath.Join(*corpus, name))
		check(err)
		pdfs, names = append(pdfs, b), append(names, name)
	}
	call := func(method, path string, body any, out any) {
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.base+path, bytes.NewReader(raw))
		req.Header.Set("Authorization", "Bearer "+key.Key)
		resp, err := http.DefaultClient.Do(req)
		check(err)
		defer resp.Body.Close()
		if resp.StatusCode >= 300 {
			b, _ := io.ReadAll(resp.Body)
			fail(fmt.Sprintf("%s %s: %d %s", method, path, resp.StatusCode, b))
		}
		if out != nil {
			check(json.NewDecoder(resp.Body).Decode(out))
		}
	}
	restRSS := procKB(pid, "VmRSS")
	diskBefore := dirBytes(data)
	resetPeak(pid)
	start := time.Now()
	var uploaded int64
	var ids []string
	for i := range *scans {
		pdf := pdfs[i%len(pdfs)]
		var job struct{ JobID string }
		call(http.MethodPost, "/api/v1/jobs", map[string]string{"name": fmt.Sprintf("sizing %d", i)}, &job)
		var reg struct{ UploadURL string }
		call(http.MethodPost, "/api/v1/jobs/"+job.JobID+"/files", map[string]any{"fileName": "plans.pdf", "fileSize": len(pdf), "contentType": "application/pdf"}, &reg)
		req, _ := http.NewRequest(http.MethodPut, reg.UploadURL, bytes.NewReader(pdf))
		req.Header.Set("Content-Type", "application/pdf")
		resp, err := http.DefaultClient.Do(req)
		check(err)
		resp.Body.Close()
		call(http.MethodPost, "/api/v1/jobs/"+job.JobID+"/scan", nil, nil)
		uploaded += int64(len(pdf))
		ids = append(ids, job.JobID)
	}
	failed := 0
	for _, id := range ids {
		for {
			var j struct{ Status string }
			call(http.MethodGet, "/api/v1/jobs/"+id, nil, &j)
			if j.Status == "complete" || j.Status == "failed" {
				if j.Status == "failed" {
					failed++
				}
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	took := time.Since(start)
	peak := procKB(pid, "VmHWM")
	grown := dirBytes(data) - diskBefore
	db, err := os.Stat(filepath.Join(data, "planreview.db"))
	check(err)
	marked := int64(0)
	_ = filepath.Walk(filepath.Join(data, "files"), func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Name() == "marked-up.pdf" {
			marked += info.Size()
		}
		return nil
	})
	n := float64(*scans)
	fmt.Printf("sets (round robin): %s\n", strings.Join(names, ", "))
	fmt.Printf("%d scans (%d failed) in %s on 2 workers: %.2f s per scan\n", *scans, failed, took.Round(time.Second), took.Seconds()/n)
	fmt.Println()
	fmt.Println("| measure | for these scans | per scan | per 1,000 scans |")
	fmt.Println("|---|---|---|---|")
	row := func(name string, v float64) {
		fmt.Printf("| %s | %.1f MB | %.2f MB | %.2f GB |\n", name, v/1e6, v/n/1e6, v/n*1000/1e9)
	}
	row("uploads (the plan sets as sent)", float64(uploaded))
	row("marked-up copies", float64(marked))
	row("database file (planreview.db)", float64(db.Size()))
	row("data folder growth in all", float64(grown))
	fmt.Printf("\nserver RSS at rest %s; peak during the scans %s (2 workers)\n", mib(restRSS), mib(peak))
}
