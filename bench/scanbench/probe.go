package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// probe sends GET /api/v1/jobs/{id} at a fixed rate (open loop: a request
// is due at its slot whether or not earlier ones came back) over a few
// keep-alive connections, and reports latency percentiles measured from
// each request's due time, so a stalled server is not hidden by a client
// that waits for it. Unlike wrk it leaves the CPU mostly to the server.
func probe(args []string) error {
	fs := flag.NewFlagSet("probe", flag.ExitOnError)
	base := fs.String("base", "", "server base URL")
	key := fs.String("key", "", "API key")
	job := fs.String("job", "", "job id to GET")
	rate := fs.Int("rate", 200, "requests per second")
	conns := fs.Int("conns", 8, "connections (concurrent requests at most)")
	duration := fs.Duration("duration", 10*time.Second, "how long")
	fs.Parse(args)
	if *rate <= 0 || *conns <= 0 {
		return fmt.Errorf("probe: -rate and -conns must be positive")
	}
	url := strings.TrimRight(*base, "/") + "/api/v1/jobs/" + *job
	tr := &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	defer tr.CloseIdleConnections()
	n := int(duration.Seconds() * float64(*rate))
	interval := time.Second / time.Duration(*rate)
	slots := make(chan time.Time, n)
	lat := make([]time.Duration, 0, n)
	var mu sync.Mutex
	errs := 0
	var wg sync.WaitGroup
	for range *conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for due := range slots {
				if d := time.Until(due); d > 0 {
					time.Sleep(d)
				}
				req, _ := http.NewRequest(http.MethodGet, url, nil)
				req.Header.Set("Authorization", "Bearer "+*key)
				resp, err := client.Do(req)
				ok := err == nil && resp.StatusCode == http.StatusOK
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				l := time.Since(due)
				mu.Lock()
				if ok {
					lat = append(lat, l)
				} else {
					errs++
				}
				mu.Unlock()
			}
		}()
	}
	start := time.Now().Add(50 * time.Millisecond)
	for i := range n {
		slots <- start.Add(time.Duration(i) * interval)
	}
	close(slots)
	wg.Wait()
	if len(lat) == 0 {
		return fmt.Errorf("probe: no successful request (%d errors)", errs)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 {
		i := int(float64(len(lat))*p/100+0.5) - 1
		i = max(0, min(i, len(lat)-1))
		return float64(lat[i].Microseconds()) / 1000
	}
	fmt.Printf("RESULT probe_requests=%d probe_errors=%d probe_p50_ms=%.3f probe_p90_ms=%.3f probe_p99_ms=%.3f probe_max_ms=%.3f\n",
		len(lat), errs, pct(50), pct(90), pct(99), float64(lat[len(lat)-1].Microseconds())/1000)
	return nil
}
