// Command scanbench is the helper of bench/scan.sh: it writes the plan sets
// the scan benchmarks use and drives scans through the partner API, printing
// one machine-readable RESULT line per measurement.
//
//	scanbench gen -kind bench -pages 100 -labels 300 -out set.pdf
//	scanbench gen -kind realistic -pages 100 -filler 300 -out set.pdf
//	scanbench gen -kind bulk -pages 500 -target-bytes 100000000 -out big.pdf
//	scanbench gen -kind realistic-bulk -pages 500 -target-bytes 100000000 -out big.pdf
//	scanbench run -base URL -key KEY -file set.pdf [-pid SERVER_PID]
//	scanbench prepare -base URL -key KEY -file set.pdf        (prints the job id)
//	scanbench start -base URL -key KEY JOB...                 (queues the scans)
//	scanbench wait -base URL -key KEY JOB...                  (one RESULT per job)
//	scanbench status -base URL -key KEY JOB...                (jobs per status)
//	scanbench probe -base URL -key KEY -job JOB -rate 200 -conns 8 -duration 10s
//	                                 (open-loop GET latency, a polling partner)
//	scanbench pipeline -file set.pdf [-cpuprofile F] [-memprofile F] [-rules N]
//	                                 (the pipeline in this process: stage times,
//	                                  heap peaks per stage, costliest rule patterns)
//
// Everything talks to the loopback address it is given, and every wait is
// bounded by -timeout.
package main

import (
	"bytes"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"planreview/scan/plangen"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: scanbench gen|run|prepare|start|wait [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "run", "prepare", "start", "wait", "status":
		err = drive(os.Args[1], os.Args[2:])
	case "pipeline":
		err = inProcess(os.Args[2:])
	case "probe":
		err = probe(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "scanbench:", err)
		os.Exit(1)
	}
}

// ---- plan sets ----

func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	kind := fs.String("kind", "bench", "bench, realistic, bulk (bench + random image bulk) or realistic-bulk")
	pages := fs.Int("pages", 100, "pages")
	labels := fs.Int("labels", 300, "labels per page (bench, bulk)")
	filler := fs.Int("filler", 300, "filler labels per drawing sheet (realistic)")
	seed := fs.Int64("seed", 7, "seed")
	target := fs.Int64("target-bytes", 100_000_000, "file size to reach with random image bulk (bulk)")
	out := fs.String("out", "", "output file")
	fs.Parse(args)
	if *out == "" {
		return errors.New("gen: -out is required")
	}
	var pdf []byte
	var err error
	switch *kind {
	case "bench":
		pdf, err = benchPDF(*pages, *labels, *seed)
	case "realistic":
		pdf, err = RealisticPDF(*pages, *filler, *seed)
	case "bulk":
		pdf, err = benchPDF(*pages, *labels, *seed)
		if err == nil {
			pdf, err = AddBulk(pdf, *target)
		}
	case "realistic-bulk":
		pdf, err = RealisticPDF(*pages, *filler, *seed)
		if err == nil {
			pdf, err = AddBulk(pdf, *target)
		}
	default:
		return fmt.Errorf("gen: unknown kind %q", *kind)
	}
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, pdf, 0o644); err != nil {
		return err
	}
	fmt.Printf("RESULT file=%s bytes=%d\n", *out, len(pdf))
	return nil
}

func benchPDF(pages, labels int, seed int64) ([]byte, error) {
	f, err := plangen.Bench(plangen.BenchOptions{Pages: pages, LabelsPerPage: labels, Seed: seed})
	if err != nil {
		return nil, err
	}
	return f.PDF, nil
}

// RealisticPDF pads plangen's realistic residential set (5 sheets with
// planted violations) to the page count by merging sets of successive seeds
// into one file: plangen.Options has no page count, so the padding is done
// here, with pdfcpu's merge, never in plangen.
func RealisticPDF(pages, filler int, seed int64) ([]byte, error) {
	var parts []io.ReadSeeker
	n := 0
	for i := int64(0); n < pages && i < 1000; i++ {
		set, err := plangen.Generate(plangen.Options{Variant: plangen.VariantResidential, FillerPerPage: filler, Seed: seed + i})
		if err != nil {
			return nil, err
		}
		for _, f := range set.Files {
			if n >= pages {
				break
			}
			parts = append(parts, bytes.NewReader(f.PDF))
			n += len(f.Pages)
		}
	}
	conf := model.NewDefaultConfiguration()
	var out bytes.Buffer
	if err := api.MergeRaw(parts, &out, false, conf); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return trimPages(out.Bytes(), pages)
}

// trimPages keeps the first n pages when a merge overshot.
func trimPages(pdf []byte, n int) ([]byte, error) {
	conf := model.NewDefaultConfiguration()
	ctx, err := api.ReadContext(bytes.NewReader(pdf), conf)
	if err != nil {
		return nil, err
	}
	if ctx.PageCount <= n {
		return pdf, nil
	}
	var out bytes.Buffer
	if err := api.Trim(bytes.NewReader(pdf), &out, []string{"1-" + strconv.Itoa(n)}, conf); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// AddBulk draws one uncompressed image of random bytes on every page (a
// scanned background, as far as size goes), sized so that the file reaches
// about target bytes. Random bytes do not compress, so the file really is
// that big on disk and in any reader that loads it.
func AddBulk(pdf []byte, target int64) ([]byte, error) {
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := api.ReadContext(bytes.NewReader(pdf), conf)
	if err != nil {
		return nil, err
	}
	if err := api.ValidateContext(ctx); err != nil {
		return nil, err
	}
	pages := ctx.PageCount
	perPage := (target - int64(len(pdf))) / int64(pages)
	perPage -= 400 // dictionaries and content
	side := 1
	for int64((side+1)*(side+1)*3) <= perPage {
		side++
	}
	for p := 1; p <= pages; p++ {
		d, _, _, err := ctx.PageDict(p, false)
		if err != nil {
			return nil, err
		}
		raw := make([]byte, side*side*3)
		crand.Read(raw)
		img := types.Dict(map[string]types.Object{
			"Type":             types.Name("XObject"),
			"Subtype":          types.Name("Image"),
			"Width":            types.Integer(side),
			"Height":           types.Integer(side),
			"ColorSpace":       types.Name("DeviceRGB"),
			"BitsPerComponent": types.Integer(8),
			"Length":           types.Integer(len(raw)),
		})
		length := int64(len(raw))
		sd := types.NewStreamDict(img, 0, &length, nil, nil)
		sd.Content, sd.Raw = raw, raw
		ref, err := ctx.IndRefForNewObject(sd)
		if err != nil {
			return nil, err
		}
		res, err := resources(ctx, d)
		if err != nil {
			return nil, err
		}
		xo, _ := res.Find("XObject")
		xod, err := ctx.DereferenceDict(xo)
		if err != nil {
			return nil, err
		}
		if xod == nil {
			xod = types.NewDict()
			res.Insert("XObject", xod)
		}
		xod.Insert("BenchBulk", *ref)
		// Under the drawing, bottom-left, 3 in square.
		content := "q 216 0 0 216 36 36 cm /BenchBulk Do Q\n"
		if err := ctx.AppendContent(d, []byte(content)); err != nil {
			return nil, err
		}
	}
	var out bytes.Buffer
	if err := api.WriteContext(ctx, &out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// resources returns the page's own resource dictionary (made direct, so the
// change stays on this page).
func resources(ctx *model.Context, page types.Dict) (types.Dict, error) {
	obj, ok := page.Find("Resources")
	if !ok {
		d := types.NewDict()
		page.Insert("Resources", d)
		return d, nil
	}
	d, err := ctx.DereferenceDict(obj)
	if err != nil {
		return nil, err
	}
	if _, indirect := obj.(types.IndirectRef); indirect {
		d = d.Clone().(types.Dict)
		page.Update("Resources", d)
	}
	return d, nil
}

// ---- driving scans ----

type client struct {
	base, key string
	http      *http.Client
}

func (c client) do(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

type stage struct {
	Name       string     `json:"name"`
	Status     string     `json:"status"`
	StartedAt  *time.Time `json:"startedAt"`
	FinishedAt *time.Time `json:"finishedAt"`
}

type job struct {
	JobID    string `json:"jobId"`
	Status   string `json:"status"`
	Pipeline struct {
		CurrentStage string     `json:"currentStage"`
		Stages       []stage    `json:"stages"`
		PagesTotal   int        `json:"pagesTotal"`
		StartedAt    *time.Time `json:"startedAt"`
		FinishedAt   *time.Time `json:"finishedAt"`
		Error        *struct {
			Code, Message string
		} `json:"error"`
	} `json:"pipeline"`
	FindingCounts map[string]int `json:"findingCounts"`
}

func drive(cmd string, args []string) error {
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	base := fs.String("base", "", "server base URL (http://127.0.0.1:PORT)")
	key := fs.String("key", "", "API key")
	file := fs.String("file", "", "PDF to upload (run, prepare)")
	pid := fs.Int("pid", 0, "server pid: record its VmHWM/VmRSS (run)")
	poll := fs.Duration("poll", 25*time.Millisecond, "job poll interval")
	timeout := fs.Duration("timeout", 10*time.Minute, "give up after")
	fs.Parse(args)
	c := client{base: strings.TrimRight(*base, "/"), key: *key, http: &http.Client{Timeout: 15 * time.Minute}}
	switch cmd {
	case "prepare":
		id, err := c.prepare(*file)
		if err != nil {
			return err
		}
		fmt.Println(id)
		return nil
	case "start":
		for _, id := range fs.Args() {
			if err := c.do(http.MethodPost, "/api/v1/jobs/"+id+"/scan", nil, nil); err != nil {
				return err
			}
		}
		fmt.Printf("RESULT started_unix=%.6f\n", float64(time.Now().UnixNano())/1e9)
		return nil
	case "status":
		count := map[string]int{}
		for _, id := range fs.Args() {
			var j job
			if err := c.do(http.MethodGet, "/api/v1/jobs/"+id, nil, &j); err != nil {
				return err
			}
			count[j.Status]++
		}
		fmt.Print("RESULT")
		for _, st := range []string{"created", "queued", "processing", "complete", "failed"} {
			fmt.Printf(" %s=%d", st, count[st])
			delete(count, st)
		}
		for st, n := range count {
			fmt.Printf(" %s=%d", st, n)
		}
		fmt.Println()
		return nil
	case "wait":
		for _, id := range fs.Args() {
			j, _, err := c.wait(id, *poll, *timeout)
			if err != nil {
				return err
			}
			fmt.Println("RESULT job=" + id + " " + stageFields(j, nil))
		}
		return nil
	}
	// run: one scan from the scan call to complete.
	mem := memProbe{pid: *pid}
	hwmBefore := mem.read("VmHWM")
	id, err := c.prepare(*file)
	if err != nil {
		return err
	}
	hwmUpload := mem.read("VmHWM")
	rssUpload := mem.read("VmRSS")
	// Reset the high-water mark so the peak below is the scan's own.
	resetOK := mem.resetHWM()
	stop, series := mem.sample(20 * time.Millisecond)
	t0 := time.Now()
	if err := c.do(http.MethodPost, "/api/v1/jobs/"+id+"/scan", nil, nil); err != nil {
		return err
	}
	j, seen, err := c.wait(id, *poll, *timeout)
	rssPeak := stop()
	if err != nil {
		return err
	}
	extra := fmt.Sprintf("observed_s=%.3f", seen.Sub(t0).Seconds())
	if j.Pipeline.FinishedAt != nil {
		extra += fmt.Sprintf(" total_s=%.3f", j.Pipeline.FinishedAt.Sub(t0).Seconds())
	}
	if *pid != 0 {
		extra += fmt.Sprintf(" hwm_before_mb=%.1f hwm_upload_mb=%.1f rss_upload_mb=%.1f hwm_scan_mb=%.1f rss_peak_sampled_mb=%.1f hwm_reset=%v",
			hwmBefore, hwmUpload, rssUpload, mem.read("VmHWM"), rssPeak, resetOK)
		// The sampled peak of each stage: which stage sets the high-water mark.
		for _, st := range j.Pipeline.Stages {
			if st.StartedAt == nil || st.FinishedAt == nil {
				continue
			}
			p := 0.0
			for _, smp := range series() {
				if !smp.at.Before(*st.StartedAt) && !smp.at.After(*st.FinishedAt) {
					p = max(p, smp.mb)
				}
			}
			extra += fmt.Sprintf(" rss_%s_mb=%.1f", st.Name, p)
		}
	}
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		extra += " load1=" + strings.Fields(string(la))[0]
	}
	fmt.Println("RESULT job=" + id + " " + stageFields(j, nil) + " " + extra)
	return nil
}

// prepare creates a job, registers the file and uploads it.
func (c client) prepare(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var j job
	if err := c.do(http.MethodPost, "/api/v1/jobs", map[string]string{"name": "scan bench " + path, "externalId": "BENCH"}, &j); err != nil {
		return "", err
	}
	var reg struct {
		UploadURL string `json:"uploadUrl"`
	}
	if err := c.do(http.MethodPost, "/api/v1/jobs/"+j.JobID+"/files",
		map[string]any{"fileName": "set.pdf", "fileSize": len(data), "contentType": "application/pdf"}, &reg); err != nil {
		return "", err
	}
	req, err := http.NewRequest(http.MethodPut, reg.UploadURL, bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/pdf")
	data = nil
	resp, err := c.http.Do(req)
	if err != nil {
		return "", err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("upload: %d %s", resp.StatusCode, body)
	}
	return j.JobID, nil
}

// wait polls the job until it is complete or failed; it returns the job and
// when the final state was first seen.
func (c client) wait(id string, poll, timeout time.Duration) (job, time.Time, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		var j job
		if err := c.do(http.MethodGet, "/api/v1/jobs/"+id, nil, &j); err != nil {
			return j, time.Time{}, err
		}
		switch j.Status {
		case "complete":
			return j, time.Now(), nil
		case "failed":
			msg := ""
			if j.Pipeline.Error != nil {
				msg = j.Pipeline.Error.Code + ": " + j.Pipeline.Error.Message
			}
			return j, time.Time{}, fmt.Errorf("job %s failed: %s", id, msg)
		}
		time.Sleep(poll)
	}
	return job{}, time.Time{}, fmt.Errorf("job %s: not done after %s", id, timeout)
}

// stageFields formats per-stage seconds from the job's pipeline stamps, the
// review stages' share of extraction, page and finding counts.
func stageFields(j job, _ []string) string {
	secs := map[string]float64{}
	var b strings.Builder
	for _, s := range j.Pipeline.Stages {
		if s.StartedAt == nil || s.FinishedAt == nil {
			continue
		}
		secs[s.Name] = s.FinishedAt.Sub(*s.StartedAt).Seconds()
		fmt.Fprintf(&b, "%s_s=%.3f ", s.Name, secs[s.Name])
	}
	if j.Pipeline.StartedAt != nil && j.Pipeline.FinishedAt != nil {
		fmt.Fprintf(&b, "pipeline_s=%.3f ", j.Pipeline.FinishedAt.Sub(*j.Pipeline.StartedAt).Seconds())
		fmt.Fprintf(&b, "finished_unix=%.6f ", float64(j.Pipeline.FinishedAt.UnixNano())/1e9)
	}
	if e := secs["extracting"]; e > 0 {
		fmt.Fprintf(&b, "review_over_extract=%.4f ", (secs["classifying"]+secs["reviewing"])/e)
	}
	n := 0
	for _, v := range j.FindingCounts {
		n += v
	}
	fmt.Fprintf(&b, "pages=%d findings=%d", j.Pipeline.PagesTotal, n)
	return b.String()
}

// memProbe reads a process's memory figures from /proc.
type memProbe struct{ pid int }

// read returns a /proc/PID/status field in MB (0 without a pid).
func (m memProbe) read(field string) float64 {
	if m.pid == 0 {
		return 0
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", m.pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// resetHWM sets VmHWM back to the current RSS (clear_refs 5), so that a
// later VmHWM is the peak since now.
func (m memProbe) resetHWM() bool {
	if m.pid == 0 {
		return false
	}
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", m.pid), []byte("5"), 0) == nil
}

// sample reads VmRSS every interval until the returned stop is called
// (bounded: at most an hour of samples); stop returns the peak in MB, and
// series the samples (valid after stop).
func (m memProbe) sample(every time.Duration) (stop func() float64, series func() []rssSample) {
	if m.pid == 0 {
		return func() float64 { return 0 }, func() []rssSample { return nil }
	}
	done := make(chan struct{})
	peak := make(chan float64, 1)
	var samples []rssSample
	go func() {
		p := 0.0
		t := time.NewTicker(every)
		defer t.Stop()
		for i := 0; i < int(time.Hour/every); i++ {
			v := m.read("VmRSS")
			samples = append(samples, rssSample{time.Now(), v})
			p = max(p, v)
			select {
			case <-done:
				peak <- max(p, m.read("VmRSS"))
				return
			case <-t.C:
			}
		}
		<-done
		peak <- p
	}()
	return func() float64 { close(done); return <-peak }, func() []rssSample { return samples }
}

type rssSample struct {
	at time.Time
	mb float64
}
