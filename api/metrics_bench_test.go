package api_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"planreview/api"
	"planreview/api/signing"
	"planreview/metrics"
	"planreview/store"
	"planreview/store/blob"
)

// benchServer is the real API (bbolt, blobs, access log at info level to
// nowhere) on a loopback listener, with or without metrics, one key whose
// rate limit is out of the way and one job to read.
func benchServer(b *testing.B, withMetrics bool) (handler http.Handler, base, key, jobID string) {
	b.Helper()
	dir := b.TempDir()
	db, err := store.Open(filepath.Join(dir, "planreview.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	signer, err := signing.LoadOrCreate(filepath.Join(dir, "signing.key"))
	if err != nil {
		b.Fatal(err)
	}
	blobs, err := blob.Open(filepath.Join(dir, "files"))
	if err != nil {
		b.Fatal(err)
	}
	opts := api.Options{Store: db, Blobs: blobs, Signer: signer,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if withMetrics {
		m := metrics.New("bench", db.ScanQueueDepth)
		opts.Metrics, opts.MetricsHandler = m, m.Handler()
	}
	handler = api.New(opts)
	srv := httptest.NewServer(handler)
	b.Cleanup(srv.Close)
	admin := &api.Admin{Store: db}
	k, err := admin.IssueKey(context.Background(), "bench")
	if err != nil {
		b.Fatal(err)
	}
	rate, burst := 1e9, 1_000_000_000
	if _, err := admin.SetPartner(context.Background(), "bench", api.PartnerSettings{RateLimit: &rate, RateBurst: &burst}); err != nil {
		b.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/jobs", strings.NewReader(`{"name":"bench job","externalId":"EXT-1"}`))
	req.Header.Set("Authorization", "Bearer "+k.Key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var job struct{ JobID string }
	if err := json.NewDecoder(resp.Body).Decode(&job); err != nil || resp.StatusCode != http.StatusCreated {
		b.Fatalf("create job: %d %v", resp.StatusCode, err)
	}
	return handler, srv.URL, k.Key, job.JobID
}

// BenchmarkMetricsOverheadInterleaved alternates the two servers (metrics
// off and on) every few hundred requests, 64 goroutines at a time, and
// adds up each side's process CPU time: load from other processes, which
// changes over seconds, falls on both sides alike, so the overhead-% it
// reports resolves differences that separate runs on a shared machine
// cannot. "handler" is the handler chain alone (the server's own work);
// "http" goes over loopback with 64 keep-alive connections (client and
// server CPU).
func BenchmarkMetricsOverheadInterleaved(b *testing.B) {
	for _, viaHTTP := range []bool{false, true} {
		name := "handler"
		if viaHTTP {
			name = "http"
		}
		b.Run(name, func(b *testing.B) {
			var do [2]func()
			for side, on := range []bool{false, true} {
				handler, base, key, jobID := benchServer(b, on)
				if viaHTTP {
					tr := &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}
					b.Cleanup(tr.CloseIdleConnections)
					client := &http.Client{Transport: tr}
					url := base + "/api/v1/jobs/" + jobID
					do[side] = func() {
						req, _ := http.NewRequest(http.MethodGet, url, nil)
						req.Header.Set("Authorization", "Bearer "+key)
						resp, err := client.Do(req)
						if err != nil {
							panic(err)
						}
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				} else {
					do[side] = func() {
						req := httptest.NewRequest(http.MethodGet, "/api/v1/jobs/"+jobID, nil)
						req.Header.Set("Authorization", "Bearer "+key)
						handler.ServeHTTP(httptest.NewRecorder(), req)
					}
				}
			}
			const goroutines, perGoroutine = 64, 8 // 512 requests a slice
			slice := func(fn func()) int64 {
				start := processCPU()
				var wg sync.WaitGroup
				for range goroutines {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for range perGoroutine {
							fn()
						}
					}()
				}
				wg.Wait()
				return processCPU() - start
			}
			var cpu [2]int64
			var reqs int64
			b.ResetTimer()
			for round := 0; reqs < int64(b.N); round++ {
				first := round % 2 // alternate which side goes first
				cpu[first] += slice(do[first])
				cpu[1-first] += slice(do[1-first])
				reqs += goroutines * perGoroutine
			}
			off, on := float64(cpu[0])/float64(reqs), float64(cpu[1])/float64(reqs)
			b.ReportMetric(off, "off-cpu-ns/req")
			b.ReportMetric(on, "on-cpu-ns/req")
			b.ReportMetric((on-off)*100/off, "overhead-%")
		})
	}
}

// processCPU is the CPU time (user + system) this process has used, in
// ns. Per request it is steadier than wall time on a machine shared with
// other work, which slows the wall clock but not the CPU a request needs.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
