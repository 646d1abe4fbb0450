package metrics

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The Go runtime's metrics, under the names, help texts and meanings the
// Prometheus Go client gives them, so dashboards and alerts made for any
// Go service read them. Everything is read at scrape time from
// runtime/metrics (no stop-the-world ReadMemStats) and debug.ReadGCStats.

// runtimeSamples are the runtime/metrics names read at each scrape, in the
// order of the rs* indexes below.
var runtimeSamples = []string{
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/free:bytes",
	"/memory/classes/heap/stacks:bytes",
	"/memory/classes/os-stacks:bytes",
	"/memory/classes/metadata/mspan/inuse:bytes",
	"/memory/classes/metadata/mspan/free:bytes",
	"/memory/classes/metadata/mcache/inuse:bytes",
	"/memory/classes/metadata/mcache/free:bytes",
	"/memory/classes/metadata/other:bytes",
	"/memory/classes/profiling/buckets:bytes",
	"/memory/classes/other:bytes",
	"/memory/classes/total:bytes",
	"/gc/heap/allocs:bytes",
	"/gc/heap/allocs:objects",
	"/gc/heap/frees:objects",
	"/gc/heap/tiny/allocs:objects",
	"/gc/heap/objects:objects",
	"/gc/heap/goal:bytes",
	"/gc/gogc:percent",
	"/gc/gomemlimit:bytes",
	"/sched/gomaxprocs:threads",
}

const (
	rsHeapObjects = iota
	rsHeapUnused
	rsHeapReleased
	rsHeapFree
	rsHeapStacks
	rsOSStacks
	rsMSpanInuse
	rsMSpanFree
	rsMCacheInuse
	rsMCacheFree
	rsMetadataOther
	rsProfilingBuckets
	rsOther
	rsTotal
	rsAllocsBytes
	rsAllocsObjects
	rsFreesObjects
	rsTinyAllocs
	rsObjects
	rsGoal
	rsGOGC
	rsMemLimit
	rsGOMAXPROCS
)

// runtimeGauge is one go_* family computed from the samples.
type runtimeGauge struct {
	desc  desc
	value func(s []float64) float64
}

var runtimeGauges = []runtimeGauge{
	{desc{name: "go_memstats_alloc_bytes", kind: kindGauge, help: "Number of bytes allocated in heap and currently in use. Equals to /memory/classes/heap/objects:bytes."},
		func(s []float64) float64 { return s[rsHeapObjects] }},
	{desc{name: "go_memstats_alloc_bytes_total", kind: kindCounter, help: "Total number of bytes allocated in heap until now, even if released already. Equals to /gc/heap/allocs:bytes."},
		func(s []float64) float64 { return s[rsAllocsBytes] }},
	{desc{name: "go_memstats_sys_bytes", kind: kindGauge, help: "Number of bytes obtained from system. Equals to /memory/classes/total:byte."},
		func(s []float64) float64 { return s[rsTotal] }},
	{desc{name: "go_memstats_mallocs_total", kind: kindCounter, help: "Total number of heap objects allocated, both live and gc-ed. Semantically a counter version for go_memstats_heap_objects gauge. Equals to /gc/heap/allocs:objects + /gc/heap/tiny/allocs:objects."},
		func(s []float64) float64 { return s[rsAllocsObjects] + s[rsTinyAllocs] }},
	{desc{name: "go_memstats_frees_total", kind: kindCounter, help: "Total number of heap objects frees. Equals to /gc/heap/frees:objects + /gc/heap/tiny/allocs:objects."},
		func(s []float64) float64 { return s[rsFreesObjects] + s[rsTinyAllocs] }},
	{desc{name: "go_memstats_heap_alloc_bytes", kind: kindGauge, help: "Number of heap bytes allocated and currently in use, same as go_memstats_alloc_bytes. Equals to /memory/classes/heap/objects:bytes."},
		func(s []float64) float64 { return s[rsHeapObjects] }},
	{desc{name: "go_memstats_heap_sys_bytes", kind: kindGauge, help: "Number of heap bytes obtained from system. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes + /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes."},
		func(s []float64) float64 {
			return s[rsHeapObjects] + s[rsHeapUnused] + s[rsHeapReleased] + s[rsHeapFree]
		}},
	{desc{name: "go_memstats_heap_idle_bytes", kind: kindGauge, help: "Number of heap bytes waiting to be used. Equals to /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes."},
		func(s []float64) float64 { return s[rsHeapReleased] + s[rsHeapFree] }},
	{desc{name: "go_memstats_heap_inuse_bytes", kind: kindGauge, help: "Number of heap bytes that are in use. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes"},
		func(s []float64) float64 { return s[rsHeapObjects] + s[rsHeapUnused] }},
	{desc{name: "go_memstats_heap_released_bytes", kind: kindGauge, help: "Number of heap bytes released to OS. Equals to /memory/classes/heap/released:bytes."},
		func(s []float64) float64 { return s[rsHeapReleased] }},
	{desc{name: "go_memstats_heap_objects", kind: kindGauge, help: "Number of currently allocated objects. Equals to /gc/heap/objects:objects."},
		func(s []float64) float64 { return s[rsObjects] }},
	{desc{name: "go_memstats_stack_inuse_bytes", kind: kindGauge, help: "Number of bytes obtained from system for stack allocator in non-CGO environments. Equals to /memory/classes/heap/stacks:bytes."},
		func(s []float64) float64 { return s[rsHeapStacks] }},
	{desc{name: "go_memstats_stack_sys_bytes", kind: kindGauge, help: "Number of bytes obtained from system for stack allocator. Equals to /memory/classes/heap/stacks:bytes + /memory/classes/os-stacks:bytes."},
		func(s []float64) float64 { return s[rsHeapStacks] + s[rsOSStacks] }},
	{desc{name: "go_memstats_mspan_inuse_bytes", kind: kindGauge, help: "Number of bytes in use by mspan structures. Equals to /memory/classes/metadata/mspan/inuse:bytes."},
		func(s []float64) float64 { return s[rsMSpanInuse] }},
	{desc{name: "go_memstats_mspan_sys_bytes", kind: kindGauge, help: "Number of bytes used for mspan structures obtained from system. Equals to /memory/classes/metadata/mspan/inuse:bytes + /memory/classes/metadata/mspan/free:bytes."},
		func(s []float64) float64 { return s[rsMSpanInuse] + s[rsMSpanFree] }},
	{desc{name: "go_memstats_mcache_inuse_bytes", kind: kindGauge, help: "Number of bytes in use by mcache structures. Equals to /memory/classes/metadata/mcache/inuse:bytes."},
		func(s []float64) float64 { return s[rsMCacheInuse] }},
	{desc{name: "go_memstats_mcache_sys_bytes", kind: kindGauge, help: "Number of bytes used for mcache structures obtained from system. Equals to /memory/classes/metadata/mcache/inuse:bytes + /memory/classes/metadata/mcache/free:bytes."},
		func(s []float64) float64 { return s[rsMCacheInuse] + s[rsMCacheFree] }},
	{desc{name: "go_memstats_buck_hash_sys_bytes", kind: kindGauge, help: "Number of bytes used by the profiling bucket hash table. Equals to /memory/classes/profiling/buckets:bytes."},
		func(s []float64) float64 { return s[rsProfilingBuckets] }},
	{desc{name: "go_memstats_gc_sys_bytes", kind: kindGauge, help: "Number of bytes used for garbage collection system metadata. Equals to /memory/classes/metadata/other:bytes."},
		func(s []float64) float64 { return s[rsMetadataOther] }},
	{desc{name: "go_memstats_other_sys_bytes", kind: kindGauge, help: "Number of bytes used for other system allocations. Equals to /memory/classes/other:bytes."},
		func(s []float64) float64 { return s[rsOther] }},
	{desc{name: "go_memstats_next_gc_bytes", kind: kindGauge, help: "Number of heap bytes when next garbage collection will take place. Equals to /gc/heap/goal:bytes."},
		func(s []float64) float64 { return s[rsGoal] }},
	{desc{name: "go_gc_gogc_percent", kind: kindGauge, help: "Heap size target percentage configured by the user, otherwise 100. This value is set by the GOGC environment variable, and the runtime/debug.SetGCPercent function. Sourced from /gc/gogc:percent."},
		func(s []float64) float64 { return s[rsGOGC] }},
	{desc{name: "go_gc_gomemlimit_bytes", kind: kindGauge, help: "Go runtime memory limit configured by the user, otherwise math.MaxInt64. This value is set by the GOMEMLIMIT environment variable, and the runtime/debug.SetMemoryLimit function. Sourced from /gc/gomemlimit:bytes."},
		func(s []float64) float64 { return s[rsMemLimit] }},
	{desc{name: "go_sched_gomaxprocs_threads", kind: kindGauge, help: "The current runtime.GOMAXPROCS setting, or the number of operating system threads that can execute user-level Go code simultaneously. Sourced from /sched/gomaxprocs:threads."},
		func(s []float64) float64 { return s[rsGOMAXPROCS] }},
}

var (
	goroutinesDesc = desc{name: "go_goroutines", kind: kindGauge, help: "Number of goroutines that currently exist."}
	threadsDesc    = desc{name: "go_threads", kind: kindGauge, help: "Number of OS threads created."}
	goInfoDesc     = desc{name: "go_info", kind: kindGauge, help: "Information about the Go environment.", labels: []string{"version"}}
	gcPausesDesc   = desc{name: "go_gc_duration_seconds", kind: kindSummary, help: "A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles."}
	lastGCDesc     = desc{name: "go_memstats_last_gc_time_seconds", kind: kindGauge, help: "Number of seconds since 1970 of last garbage collection."}
)

// gcPauseQuantiles are the ranks of go_gc_duration_seconds.
var gcPauseQuantiles = []float64{0, 0.25, 0.5, 0.75, 1}

func collectRuntime(s *scrape) {
	samples := make([]metrics.Sample, len(runtimeSamples))
	for i, name := range runtimeSamples {
		samples[i].Name = name
	}
	metrics.Read(samples)
	values := make([]float64, len(samples))
	for i, sample := range samples {
		switch sample.Value.Kind() {
		case metrics.KindUint64:
			values[i] = float64(sample.Value.Uint64())
		case metrics.KindFloat64:
			values[i] = sample.Value.Float64()
		default:
			values[i] = math.NaN() // not in this Go version
		}
	}
	for i := range runtimeGauges {
		g := &runtimeGauges[i]
		if v := g.value(values); !math.IsNaN(v) {
			s.gaugeValue(&g.desc, v)
		}
	}

	s.gaugeValue(&goroutinesDesc, float64(runtime.NumGoroutine()))
	threads, _ := runtime.ThreadCreateProfile(nil)
	s.gaugeValue(&threadsDesc, float64(threads))
	s.add(&goInfoDesc, series{labels: []string{runtime.Version()}, value: 1})

	stats := debug.GCStats{PauseQuantiles: make([]time.Duration, len(gcPauseQuantiles))}
	debug.ReadGCStats(&stats)
	pauses := &summarySnapshot{quantiles: gcPauseQuantiles, values: make([]float64, len(gcPauseQuantiles)),
		sum: stats.PauseTotal.Seconds(), count: uint64(stats.NumGC)}
	for i, d := range stats.PauseQuantiles {
		pauses.values[i] = d.Seconds()
	}
	s.add(&gcPausesDesc, series{summary: pauses})
	lastGC := 0.0
	if stats.NumGC > 0 {
		lastGC = float64(stats.LastGC.UnixNano()) / 1e9
	}
	s.gaugeValue(&lastGCDesc, lastGC)
}
