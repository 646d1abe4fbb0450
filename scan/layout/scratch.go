package layout

import "sync"

// scratch holds the working arrays of one analysis, reused page after
// page: an analysis's frames, runs, edges, corners and cells live only
// while the page is laid out, and allocating them afresh for every page
// of a set costs the heap (and page faults) several times what the
// layouts themselves keep. Nothing a Page keeps points into a scratch.
type scratch struct {
	g     []geom
	rb    []runBuild
	items []runItem
	aside []runItem
	spare []runItem
	sizes []float64
	edges []edge // the rule index's
	// sortEdges' keys and gathered edges
	edgeKeys  []uint64
	edgeKeys2 []uint64
	edgeSort  []edge
	snapped   []edge // snapJoin's copies of both orientations
	corners   []corner
	kept      []int32
	cells     []cellBox
	boxes     []Box
	ints      [10][]int
	// addTable's words of every cell of a grid
	tableWords []int
	centres    []wordCentre
	lineRuns   [][]int
	blocks     []blockBuild
	lineGeoms  []lineGeom
	frames     []lineFrame
	at         map[uint64]int
}

var scratchPool = sync.Pool{New: func() any { return &scratch{} }}

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

// release returns the analysis's scratch (and grids) for the next page;
// the analysis is not used after.
func (a *analysis) release() {
	if a == nil || a.sc == nil {
		return
	}
	releaseGrid(a.wordGrid)
	releaseGrid(a.lineGrid)
	a.wordGrid, a.lineGrid = nil, nil
	a.g, a.rb, a.rules = nil, nil, nil
	scratchPool.Put(a.sc)
	a.sc = nil
}

// zeroed resizes *buf to n zero elements, reusing its array when it is
// large enough, and returns it.
func zeroed[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
		return *buf
	}
	*buf = (*buf)[:n]
	clear(*buf)
	return *buf
}

// emptied is buf with no elements and room for n, reusing its array when
// it is large enough.
func emptied[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, 0, n)
	}
	return (*buf)[:0]
}

// gridPool keeps the arrays of released grids.
var gridPool = sync.Pool{New: func() any { return &boxGrid{} }}

func releaseGrid(g *boxGrid) {
	if g != nil {
		gridPool.Put(g)
	}
}
