package cmd

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	pdfapi "github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"planreview/scan/plangen"
)

// chatQuestions rotate through the benchmark: fact, which-sheets, findings
// and unrelated questions, so every answer path is timed.
var chatQuestions = []string{
	"What is the stair riser height on the section?",
	"Which occupancy and construction type does the code analysis state?",
	"Which sheets show the door schedule?",
	"What are the high findings?",
	"What is the guard height?",
	"What is the capital of France?",
	"What are the findings on A-101?",
	"What is the ceiling height in the bedroom?",
}

// realistic100 merges plangen residential sets (planted violations, 300
// filler labels per sheet) into one 100-page PDF.
func realistic100(b *testing.B) []byte {
	b.Helper()
	var parts []io.ReadSeeker
	for seed, n := int64(7), 0; n < 100; seed++ {
		set, err := plangen.Generate(plangen.Options{Variant: plangen.VariantResidential, FillerPerPage: 300, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range set.Files {
			parts = append(parts, bytes.NewReader(f.PDF))
			n += len(f.Pages)
		}
	}
	var out bytes.Buffer
	if err := pdfapi.MergeRaw(parts, &out, false, model.NewDefaultConfiguration()); err != nil {
		b.Fatal(err)
	}
	return out.Bytes()
}

// BenchmarkChat100Pages is the chat endpoint over real loopback HTTP on a
// scanned 100-page set, without a model, at 16 concurrent callers; it
// reports the latency percentiles of all requests. The corpus case is the
// City of Calgary's 26-page permit set (skipped when the corpus is absent).
func BenchmarkChat100Pages(b *testing.B) {
	sets := []struct {
		name string
		pdf  func(b *testing.B) []byte
	}{
		{"realistic-100p", realistic100},
		{"corpus-calgary-26p", func(b *testing.B) []byte {
			raw, err := os.ReadFile(filepath.Join("..", "..", "shared", "corpus", "ca_calgary_sample_dp_bp_house_26p.pdf"))
			if err != nil {
				b.Skip("corpus absent")
			}
			return raw
		}},
	}
	for _, set := range sets {
		b.Run(set.name, func(b *testing.B) {
			pdf := set.pdf(b)
			ap, key := benchAppliance(b)
			base := "http://" + ap.Addr() + "/api/v1"
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}, Timeout: time.Minute}
			call := func(method, url string, body any, out any) int {
				var rd io.Reader
				switch v := body.(type) {
				case nil:
				case []byte:
					rd = bytes.NewReader(v)
				default:
					raw, _ := json.Marshal(v)
					rd = bytes.NewReader(raw)
				}
				req, _ := http.NewRequest(method, url, rd)
				if strings.HasPrefix(url, base) {
					req.Header.Set("Authorization", "Bearer "+key)
				}
				req.Header.Set("Content-Type", "application/json")
				if method == http.MethodPut {
					req.Header.Set("Content-Type", "application/pdf")
				}
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				defer resp.Body.Close()
				raw, _ := io.ReadAll(resp.Body)
				if out != nil {
					json.Unmarshal(raw, out)
				}
				return resp.StatusCode
			}
			var job struct{ JobID string }
			call("POST", base+"/jobs", map[string]any{"name": "chat bench"}, &job)
			var file struct{ FileID, UploadURL string }
			call("POST", base+"/jobs/"+job.JobID+"/files", map[string]any{"fileName": "set.pdf", "fileSize": len(pdf), "contentType": "application/pdf"}, &file)
			if code := call("PUT", file.UploadURL, pdf, nil); code != http.StatusOK {
				b.Fatalf("upload: %d", code)
			}
			call("POST", base+"/jobs/"+job.JobID+"/scan", nil, nil)
			for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
				var st struct{ Status string }
				call("GET", base+"/jobs/"+job.JobID, nil, &st)
				if st.Status == "complete" {
					break
				}
				if st.Status == "failed" || time.Now().After(deadline) {
					b.Fatalf("scan %s", st.Status)
				}
			}
			chatURL := base + "/jobs/" + job.JobID + "/chat"
			call("POST", chatURL, map[string]any{"message": chatQuestions[0]}, nil) // decode the index once
			const callers = 16
			// load runs n requests from 16 callers and returns the sorted
			// latencies.
			load := func(n int, one func(c, i int) bool) []time.Duration {
				var mu sync.Mutex
				var all []time.Duration
				var wg sync.WaitGroup
				per := (n + callers - 1) / callers
				for c := range callers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						mine := make([]time.Duration, 0, per)
						for i := range per {
							start := time.Now()
							if !one(c, i) {
								return
							}
							mine = append(mine, time.Since(start))
						}
						mu.Lock()
						all = append(all, mine...)
						mu.Unlock()
					}()
				}
				wg.Wait()
				slices.Sort(all)
				return all
			}
			pct := func(l []time.Duration, p float64) float64 {
				if len(l) == 0 {
					return 0
				}
				return float64(l[min(len(l)-1, int(p*float64(len(l))))].Microseconds()) / 1000
			}
			b.ResetTimer()
			latencies := load(b.N, func(c, i int) bool {
				var a struct{ Answer string }
				if code := call("POST", chatURL, map[string]any{"message": chatQuestions[(c+i)%len(chatQuestions)]}, &a); code != http.StatusOK || a.Answer == "" {
					b.Errorf("chat: %d", code)
					return false
				}
				return true
			})
			b.StopTimer()
			// The reference in the same run: GET /jobs/{id} under the same load.
			ref := load(b.N, func(c, i int) bool {
				if code := call("GET", base+"/jobs/"+job.JobID, nil, nil); code != http.StatusOK {
					b.Errorf("get job: %d", code)
					return false
				}
				return true
			})
			b.ReportMetric(pct(latencies, 0.50), "p50-ms")
			b.ReportMetric(pct(latencies, 0.99), "p99-ms")
			b.ReportMetric(pct(ref, 0.50), "getjob-p50-ms")
			b.ReportMetric(pct(ref, 0.99), "getjob-p99-ms")
			b.ReportMetric(float64(len(latencies)), "requests")
		})
	}
}
