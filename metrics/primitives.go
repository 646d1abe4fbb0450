package metrics

import (
	"math"
	"sync"
	"sync/atomic"
)

// counter is a count that only goes up. Every counter of the appliance
// counts whole things (requests, bytes, scans), so it is an integer.
type counter struct{ n atomic.Uint64 }

func (c *counter) add(n uint64)   { c.n.Add(n) }
func (c *counter) value() float64 { return float64(c.n.Load()) }

// gauge is a count that goes up and down.
type gauge struct{ n atomic.Int64 }

func (g *gauge) add(n int64)    { g.n.Add(n) }
func (g *gauge) value() float64 { return float64(g.n.Load()) }

// histogram counts observations into fixed buckets. counts holds one
// count per bucket (not cumulative; the last is above every bound), so an
// observation is one atomic add plus the sum's compare-and-swap; the
// scrape adds them up.
type histogram struct {
	upper   []float64 // bucket upper bounds, ascending, shared by the series of a family
	counts  []atomic.Uint64
	sumBits atomic.Uint64 // float64 bits
}

func newHistogram(upper []float64) *histogram {
	return &histogram{upper: upper, counts: make([]atomic.Uint64, len(upper)+1)}
}

func (h *histogram) observe(v float64) {
	// A linear scan: under 20 bounds it beats a binary search.
	i := 0
	for i < len(h.upper) && v > h.upper[i] {
		i++
	}
	h.counts[i].Add(1)
	for {
		old := h.sumBits.Load()
		if h.sumBits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// histogramSnapshot is a histogram as one scrape reads it: cumulative
// bucket counts, the +Inf bucket last. Its count is the +Inf bucket, so
// the two always agree even while observations arrive.
type histogramSnapshot struct {
	upper      []float64
	cumulative []uint64 // len(upper)+1
	sum        float64
}

func (h *histogram) snapshot() histogramSnapshot {
	s := histogramSnapshot{upper: h.upper, cumulative: make([]uint64, len(h.counts))}
	var total uint64
	for i := range h.counts {
		total += h.counts[i].Load()
		s.cumulative[i] = total
	}
	s.sum = math.Float64frombits(h.sumBits.Load())
	return s
}

// vec holds one series per label key K. The map is replaced whole when a
// series is added and never changed in place, so recording into an
// existing series is an atomic load and a map lookup: no lock, no
// allocation. New series are rare (the label sets are bounded) and take
// the mutex.
type vec[K comparable, S any] struct {
	series atomic.Pointer[map[K]*S]
	mu     sync.Mutex
	create func() *S
}

func newVec[K comparable, S any](create func() *S) *vec[K, S] {
	return &vec[K, S]{create: create}
}

// with is the series of key k, made on first use.
func (v *vec[K, S]) with(k K) *S {
	if m := v.series.Load(); m != nil {
		if s, ok := (*m)[k]; ok {
			return s
		}
	}
	return v.add(k)
}

func (v *vec[K, S]) add(k K) *S {
	v.mu.Lock()
	defer v.mu.Unlock()
	old := v.series.Load()
	if old != nil {
		if s, ok := (*old)[k]; ok {
			return s
		}
	}
	next := make(map[K]*S, 1+len(derefMap(old)))
	for key, s := range derefMap(old) {
		next[key] = s
	}
	s := v.create()
	next[k] = s
	v.series.Store(&next)
	return s
}

// each calls fn for every series (in no particular order).
func (v *vec[K, S]) each(fn func(K, *S)) {
	for k, s := range derefMap(v.series.Load()) {
		fn(k, s)
	}
}

func derefMap[K comparable, S any](m *map[K]*S) map[K]*S {
	if m == nil {
		return nil
	}
	return *m
}

// counterVec is a counter family with labels; labels turns a key into its
// label values, in the order of the family's label names.
type counterVec[K comparable] struct {
	desc   *desc
	series *vec[K, counter]
	labels func(K) []string
}

func newCounterVec[K comparable](d *desc, labels func(K) []string) *counterVec[K] {
	return &counterVec[K]{desc: d, series: newVec[K](func() *counter { return new(counter) }), labels: labels}
}

func (c *counterVec[K]) with(k K) *counter { return c.series.with(k) }

func (c *counterVec[K]) collect(s *scrape) {
	var rows []series
	c.series.each(func(k K, v *counter) { rows = append(rows, series{labels: c.labels(k), value: v.value()}) })
	s.add(c.desc, rows...)
}

// histogramVec is a histogram family with labels and fixed buckets.
type histogramVec[K comparable] struct {
	desc   *desc
	series *vec[K, histogram]
	labels func(K) []string
}

func newHistogramVec[K comparable](d *desc, buckets []float64, labels func(K) []string) *histogramVec[K] {
	return &histogramVec[K]{desc: d, series: newVec[K](func() *histogram { return newHistogram(buckets) }), labels: labels}
}

func (h *histogramVec[K]) with(k K) *histogram { return h.series.with(k) }

func (h *histogramVec[K]) collect(s *scrape) {
	var rows []series
	h.series.each(func(k K, v *histogram) {
		snap := v.snapshot()
		rows = append(rows, series{labels: h.labels(k), histogram: &snap})
	})
	s.add(h.desc, rows...)
}

// Label-value functions for the key types the families use.
func oneLabel(k string) []string     { return []string{k} }
func twoLabels(k [2]string) []string { return []string{k[0], k[1]} }
