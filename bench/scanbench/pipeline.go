package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"planreview/scan"
	"planreview/scan/annotate"
	"planreview/scan/model"
	"planreview/scan/rules"
)

// stageClock is a scan.Progress that stamps stage changes and records the
// heap peak of each stage (sampled every millisecond).
type stageClock struct {
	names []string
	at    []time.Time
	peaks []uint64 // heap objects bytes, per stage
	stop  chan struct{}
	done  chan struct{}
	cur   chan int
}

func newStageClock() *stageClock {
	c := &stageClock{stop: make(chan struct{}), done: make(chan struct{}), cur: make(chan int, 64)}
	go func() {
		defer close(c.done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		stage := -1
		var peaks []uint64
		for {
			select {
			case i := <-c.cur:
				stage = i
				for len(peaks) <= i {
					peaks = append(peaks, 0)
				}
			case <-c.stop:
				c.peaks = peaks
				return
			case <-t.C:
			}
			if stage >= 0 {
				metrics.Read(s)
				peaks[stage] = max(peaks[stage], s[0].Value.Uint64())
			}
		}
	}()
	return c
}

func (c *stageClock) Stage(name string) {
	c.names = append(c.names, name)
	c.at = append(c.at, time.Now())
	c.cur <- len(c.names) - 1
}

func (c *stageClock) Pages(done, total int) {}

func (c *stageClock) finish() time.Time {
	end := time.Now()
	close(c.stop)
	<-c.done
	return end
}

// inProcess runs Review and Annotate on one file in this process, as the
// runner does, and prints each stage's time and heap peak; with -rules N it
// also times every word-matcher rule's patterns over the set's lines and
// prints the N costliest.
func inProcess(args []string) error {
	fs := flag.NewFlagSet("pipeline", flag.ExitOnError)
	file := fs.String("file", "", "PDF")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile")
	memprofile := fs.String("memprofile", "", "write a heap profile (allocations) at the end")
	topRules := fs.Int("rules", 0, "print the N costliest rule patterns")
	fs.Parse(args)
	p, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		return err
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	runtime.GC()
	dir, err := os.MkdirTemp("", "scanbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	in := []scan.Input{{FileID: "file_bench", Name: filepath.Base(*file), Path: *file}}
	clock := newStageClock()
	res, err := p.Review(ctx, in, clock)
	if err != nil {
		return err
	}
	clock.Stage("annotating")
	for _, f := range res.Files {
		if err := p.Annotate(ctx, res, f, filepath.Join(dir, "out.pdf"), annotate.Summary{JobID: "job", VersionID: "ver"}); err != nil {
			return err
		}
	}
	end := clock.finish()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("RESULT file=%s findings=%d", *file, len(res.Findings))
	for i, name := range clock.names {
		stop := end
		if i+1 < len(clock.at) {
			stop = clock.at[i+1]
		}
		fmt.Printf(" %s_s=%.3f %s_heap_mb=%.1f", name, stop.Sub(clock.at[i]).Seconds(), name, float64(clock.peaks[i])/1e6)
	}
	fmt.Printf(" total_alloc_mb=%.0f num_gc=%d\n", float64(ms.TotalAlloc)/1e6, ms.NumGC)
	if *memprofile != "" {
		f, err := os.Create(*memprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
	}
	if *topRules > 0 {
		ruleCosts(p.Engine, res, *topRules)
	}
	return nil
}

// ruleCosts times each word-matcher rule's Unless and Pattern over every
// line of every readable page, the way the engine's match loop runs them
// (all sheet types, so an upper bound for rules limited to some types).
func ruleCosts(eng *rules.Engine, res scan.Result, n int) {
	// The document model, as the pipeline's classifying stage builds it
	// (layouts analysed here, the scan having dropped its own).
	srcs := make([]model.Source, len(res.Files))
	for i, f := range res.Files {
		srcs[i] = model.Source{ID: f.FileID, Pages: f.Pages}
	}
	t0 := time.Now()
	set, err := model.Build(context.Background(), srcs)
	modelTime := time.Since(t0)
	var lines []string
	if err == nil {
		for _, s := range set.Sheets {
			for _, l := range s.Lines {
				lines = append(lines, l.Text)
			}
		}
	}
	type cost struct {
		id      string
		d       time.Duration
		matches int
		// The same search case-sensitively on upper-cased lines, which lets
		// the regexp package skip ahead to a literal prefix: what a rule
		// would cost with a literal prefilter.
		dUpper       time.Duration
		matchesUpper int
	}
	upperLines := make([]string, len(lines))
	for i, l := range lines {
		upperLines[i] = strings.ToUpper(l)
	}
	var costs []cost
	var total, totalUpper time.Duration
	for _, r := range eng.Rules() {
		if r.Pattern == nil {
			continue
		}
		t0 := time.Now()
		m := 0
		for _, l := range lines {
			if r.Unless != nil && r.Unless.MatchString(l) {
				continue
			}
			m += len(r.Pattern.FindAllStringSubmatchIndex(l, -1))
		}
		d := time.Since(t0)
		total += d
		c := cost{id: r.ID, d: d, matches: m, dUpper: -1}
		pat, err1 := regexp.Compile(upperPattern(r.Pattern.String()))
		var unless *regexp.Regexp
		var err2 error
		if r.Unless != nil {
			unless, err2 = regexp.Compile(upperPattern(r.Unless.String()))
		}
		if err1 == nil && err2 == nil {
			t0 = time.Now()
			for _, l := range upperLines {
				if unless != nil && unless.MatchString(l) {
					continue
				}
				c.matchesUpper += len(pat.FindAllStringSubmatchIndex(l, -1))
			}
			c.dUpper = time.Since(t0)
			totalUpper += c.dUpper
		}
		costs = append(costs, c)
	}
	sort.Slice(costs, func(i, j int) bool { return costs[i].d > costs[j].d })
	fmt.Printf("RULES lines=%d model.Build=%.1fms pattern_rules=%d all_patterns=%.1fms all_patterns_upper=%.1fms\n",
		len(lines), ms(modelTime), len(costs), ms(total), ms(totalUpper))
	for i, c := range costs {
		if i >= n {
			break
		}
		fmt.Printf("RULE %-40s %8.1fms %5.1f%% matches=%d upper=%.1fms upper_matches=%d\n",
			c.id, ms(c.d), 100*float64(c.d)/float64(total), c.matches, ms(c.dUpper), c.matchesUpper)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// upperPattern turns a (?i) pattern into a case-sensitive one for
// upper-cased text: the flag goes, ASCII letters not escaped become upper
// case (group names too, harmlessly).
func upperPattern(p string) string {
	p = strings.TrimPrefix(p, "(?i)")
	b := []byte(p)
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' {
			i++
			if i < len(b) && (b[i] == 'p' || b[i] == 'P') && i+1 < len(b) && b[i+1] == '{' {
				for i < len(b) && b[i] != '}' {
					i++
				}
			}
			continue
		}
		if b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}
