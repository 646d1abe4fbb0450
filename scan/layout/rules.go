package layout

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// edge is an axis-aligned rule: at coordinate c (y for a horizontal
// edge, x for a vertical one) from lo to hi along it.
type edge struct{ c, lo, hi float64 }

// ruleIndex holds the page's horizontal and vertical rules sorted by
// their coordinate, to ask whether a rule separates two pieces of text.
type ruleIndex struct {
	h, v []edge
}

// axisTol is how far (points) a stroke may lean and still be a rule.
const axisTol = 1.0

// ruleAxis tells a horizontal rule (1) and a vertical one (2) from a
// stroke that is neither (0).
func ruleAxis(s *Segment) int {
	if !finite(s.X0) || !finite(s.Y0) || !finite(s.X1) || !finite(s.Y1) {
		return 0
	}
	dx, dy := math.Abs(s.X1-s.X0), math.Abs(s.Y1-s.Y0)
	switch {
	case dy <= axisTol && dx >= minEdge:
		return 1
	case dx <= axisTol && dy >= minEdge:
		return 2
	}
	return 0
}

// newRuleIndex indexes the rules among segs, in sc's arrays (sc may be
// nil).
func newRuleIndex(segs []Segment, sc *scratch) *ruleIndex {
	if sc == nil {
		sc = &scratch{}
	}
	// Counted first, so both orientations share one array of their exact
	// size: a drawing's thousands of strokes otherwise grow it a dozen
	// times over.
	nh, nv := 0, 0
	for i := range segs {
		switch ruleAxis(&segs[i]) {
		case 1:
			nh++
		case 2:
			nv++
		}
	}
	all := emptied(&sc.edges, nh+nv)
	ri := &ruleIndex{h: all[:0:nh], v: all[nh : nh : nh+nv]}
	for i := range segs {
		s := &segs[i]
		switch ruleAxis(s) {
		case 1:
			ri.h = append(ri.h, edge{c: (s.Y0 + s.Y1) / 2, lo: min(s.X0, s.X1), hi: max(s.X0, s.X1)})
		case 2:
			ri.v = append(ri.v, edge{c: (s.X0 + s.X1) / 2, lo: min(s.Y0, s.Y1), hi: max(s.Y0, s.Y1)})
		}
	}
	sortEdges(ri.h, false, sc)
	sortEdges(ri.v, false, sc)
	return ri
}

// sortEdges sorts edges by coordinate (byLo false) or by start (byLo
// true). The order of edges that tie is left open: the rule index reads
// only the coordinates' order, and snapJoin joins edges of one start
// alike in either order. A comparison sort through a function cost a
// drawing's page more than the rest of its layout; here each edge's key
// (the value's order-preserving bits, truncated, beside the edge's index)
// is sorted as a plain integer, the edges gathered in that order, and
// the few keys the truncation made equal put in order among themselves.
// Values are finite.
func sortEdges(es []edge, byLo bool, sc *scratch) {
	const idxBits = 20
	value := func(e *edge) float64 {
		if byLo {
			return e.lo
		}
		return e.c
	}
	n := len(es)
	if n <= 12 || n >= 1<<idxBits {
		// Short: insertion sort, as pdqsort does for so few.
		for i := 1; i < n; i++ {
			for j := i; j > 0 && value(&es[j]) < value(&es[j-1]); j-- {
				es[j], es[j-1] = es[j-1], es[j]
			}
		}
		return
	}
	keys := zeroed(&sc.edgeKeys, n)
	for i := range es {
		b := math.Float64bits(value(&es[i]))
		if b>>63 != 0 {
			b = ^b // negative: larger magnitudes first
		} else {
			b |= 1 << 63
		}
		keys[i] = b>>idxBits<<idxBits | uint64(i)
	}
	keys = radixSort(keys, zeroed(&sc.edgeKeys2, n), idxBits)
	sorted := zeroed(&sc.edgeSort, n)
	for k, key := range keys {
		sorted[k] = es[key&(1<<idxBits-1)]
	}
	// Edges whose truncated keys tie are sorted among themselves (a
	// hostile page can make many tie).
	for i := 0; i < n; {
		j := i + 1
		for j < n && keys[j]>>idxBits == keys[i]>>idxBits {
			j++
		}
		if j-i > 1 {
			tie := sorted[i:j]
			slices.SortFunc(tie, func(x, y edge) int { return cmp.Compare(value(&x), value(&y)) })
		}
		i = j
	}
	copy(es, sorted)
}

// any reports whether an edge of es lies at c in [lo, hi] and covers at.
func anyEdge(es []edge, lo, hi, at float64) bool {
	i := sort.Search(len(es), func(i int) bool { return es[i].c >= lo })
	for ; i < len(es) && es[i].c <= hi; i++ {
		if es[i].lo <= at && es[i].hi >= at {
			return true
		}
	}
	return false
}

// crossAlong reports whether a rule crosses the text direction of an
// axis frame (key 0, 90, 180, 270) between p = plo and p = phi, at the
// text's middle t: a column rule between two words of a row.
func (ri *ruleIndex) crossAlong(key int, plo, phi, t float64) bool {
	if ri == nil || phi <= plo {
		return false
	}
	switch key {
	case 0:
		return anyEdge(ri.v, plo, phi, t)
	case 180:
		return anyEdge(ri.v, -phi, -plo, -t)
	case 90:
		return anyEdge(ri.h, -phi, -plo, t)
	case 270:
		return anyEdge(ri.h, plo, phi, -t)
	}
	return false
}

// crossAcross reports whether a rule parallel to the text lies between
// t = tlo and t = thi, under p: a row rule between two stacked lines.
func (ri *ruleIndex) crossAcross(key int, tlo, thi, p float64) bool {
	if ri == nil || thi <= tlo {
		return false
	}
	switch key {
	case 0:
		return anyEdge(ri.h, tlo, thi, p)
	case 180:
		return anyEdge(ri.h, -thi, -tlo, -p)
	case 90:
		return anyEdge(ri.v, tlo, thi, -p)
	case 270:
		return anyEdge(ri.v, -thi, -tlo, p)
	}
	return false
}

// blocksAlong reports whether a rule separates word prev from the next
// word g along the text (both in frame key).
func (ri *ruleIndex) blocksAlong(key int, prev, g *geom) bool {
	return ri.crossAlong(key, prev.p1-0.5, g.p0+0.5, (max(prev.t0, g.t0)+min(prev.t1, g.t1))/2)
}

// radixSort sorts keys by their bits above the low skip bits (a least
// significant digit radix sort, a byte at a time, skipping the bytes all
// keys share), using tmp (as long as keys) for the passes; it returns the
// sorted array, keys or tmp.
func radixSort(keys, tmp []uint64, skip uint) []uint64 {
	for shift := skip; shift < 64; shift += 8 {
		var count [257]int
		for _, k := range keys {
			count[(k>>shift)&0xff+1]++
		}
		if count[(keys[0]>>shift)&0xff+1] == len(keys) {
			continue // every key has this byte
		}
		for d := 1; d < len(count); d++ {
			count[d] += count[d-1]
		}
		for _, k := range keys {
			d := (k >> shift) & 0xff
			tmp[count[d]] = k
			count[d]++
		}
		keys, tmp = tmp, keys
	}
	return keys
}

// snapJoin merges the edges of one orientation the way pdfplumber's table
// finder does: edges whose coordinates are within snapTol take their
// cluster's mean coordinate, then collinear edges that overlap or nearly
// touch (joinTol) become one; edges shorter than minEdge are dropped.
// The edges are copied into into's array (room for them all).
func snapJoin(es, into []edge, sc *scratch) []edge {
	if len(es) == 0 {
		return nil
	}
	es = append(into[:0], es...)
	// The rule index keeps its edges sorted by coordinate already.
	for k := 1; k < len(es); k++ {
		if es[k].c < es[k-1].c {
			sortEdges(es, false, sc)
			break
		}
	}
	// Each cluster takes its mean coordinate; the means keep the clusters
	// in order (a cluster's mean lies within it, and clusters are apart),
	// so ordering by coordinate then start is ordering each cluster by
	// start.
	for i := 0; i < len(es); {
		j, sum := i+1, es[i].c
		for j < len(es) && es[j].c-es[j-1].c <= snapTol {
			sum += es[j].c
			j++
		}
		mean := sum / float64(j-i)
		for k := i; k < j; k++ {
			es[k].c = mean
		}
		if j-i > 1 {
			sortEdges(es[i:j], true, sc)
		}
		i = j
	}
	out := es[:0]
	for _, e := range es {
		if n := len(out); n > 0 && out[n-1].c == e.c && e.lo <= out[n-1].hi+joinTol {
			out[n-1].hi = max(out[n-1].hi, e.hi)
			continue
		}
		out = append(out, e)
	}
	kept := out[:0]
	for _, e := range out {
		if e.hi-e.lo >= minEdge {
			kept = append(kept, e)
		}
	}
	return kept
}

// corner is an intersection of a horizontal and a vertical edge.
type corner struct {
	x, y   float64
	hi, vi int // the edges through it
}

// cornerPlaces numbers the distinct coordinates of sorted edges (equal
// coordinates are neighbours), in *buf's array: a corner's place is then
// a pair of small integers, a cheaper map key than a pair of floats.
func cornerPlaces(es []edge, buf *[]int) []int {
	ids := zeroed(buf, len(es))
	for i := 1; i < len(es); i++ {
		ids[i] = ids[i-1]
		if es[i].c != es[i-1].c {
			ids[i]++
		}
	}
	return ids
}

// cellBox is a closed ruled cell and its four corners.
type cellBox struct {
	box            Box
	tl, tr, bl, br int
}

// ruledTables finds tables drawn with rules, as pdfplumber's lattice
// finder: edges are snapped and joined, their intersections found, each
// intersection closed into the smallest cell whose four sides are drawn,
// and cells that share corners grouped into tables. Its working arrays
// are the analysis's scratch.
func (a *analysis) ruledTables() {
	sc := a.sc
	nh, nv := len(a.rules.h), len(a.rules.v)
	snapped := emptied(&sc.snapped, nh+nv)
	hs, vs := snapJoin(a.rules.h, snapped[:0:nh], sc), snapJoin(a.rules.v, snapped[nh:nh:nh+nv], sc)
	if len(hs) < 2 || len(vs) < 2 {
		return
	}
	if len(hs) > maxEdges {
		hs = hs[:maxEdges]
	}
	if len(vs) > maxEdges {
		vs = vs[:maxEdges]
	}
	// vs is sorted by x: each horizontal edge meets the verticals whose x
	// falls inside it.
	corners := sc.corners[:0]
	defer func() { sc.corners = corners[:0] }()
	for hi, h := range hs {
		start := sort.Search(len(vs), func(i int) bool { return vs[i].c >= h.lo-crossTol })
		for vi := start; vi < len(vs) && vs[vi].c <= h.hi+crossTol; vi++ {
			v := vs[vi]
			if h.c >= v.lo-crossTol && h.c <= v.hi+crossTol {
				corners = append(corners, corner{x: v.c, y: h.c, hi: hi, vi: vi})
			}
		}
		if len(corners) > maxIntersections {
			break
		}
	}
	if len(corners) < 4 {
		return
	}
	if sc.at == nil {
		sc.at = make(map[uint64]int, len(corners))
	} else {
		clear(sc.at)
	}
	at := sc.at
	xs, ys := cornerPlaces(vs, &sc.ints[8]), cornerPlaces(hs, &sc.ints[9])
	place := func(hi, vi int) uint64 { return uint64(ys[hi])<<32 | uint64(xs[vi]) }
	// Columns: corners on one vertical edge, by y; rows: on one
	// horizontal edge, by x (corners come sorted by h edge, then x).
	// Each edge's corners are a stretch of one array (counted, then
	// filled in corner order).
	kept := emptied(&sc.kept, len(corners))
	vStart, hStart := zeroed(&sc.ints[0], len(vs)+1), zeroed(&sc.ints[1], len(hs)+1)
	for i, c := range corners {
		if _, dup := at[place(c.hi, c.vi)]; dup {
			continue
		}
		at[place(c.hi, c.vi)] = i
		kept = append(kept, int32(i))
		vStart[c.vi+1]++
		hStart[c.hi+1]++
	}
	for k := 1; k < len(vStart); k++ {
		vStart[k] += vStart[k-1]
	}
	for k := 1; k < len(hStart); k++ {
		hStart[k] += hStart[k-1]
	}
	vIdx, hIdx := zeroed(&sc.ints[2], len(kept)), zeroed(&sc.ints[3], len(kept))
	vFill, hFill := append(sc.ints[4][:0], vStart...), append(sc.ints[5][:0], hStart...)
	sc.ints[4], sc.ints[5] = vFill, hFill
	for _, i := range kept {
		c := &corners[i]
		vIdx[vFill[c.vi]] = int(i)
		vFill[c.vi]++
		hIdx[hFill[c.hi]] = int(i)
		hFill[c.hi]++
	}
	byV := func(vi int) []int { return vIdx[vStart[vi]:vStart[vi+1]] }
	byH := func(hi int) []int { return hIdx[hStart[hi]:hStart[hi+1]] }
	for vi := range vs {
		if col := byV(vi); len(col) > 1 {
			slices.SortFunc(col, func(p, q int) int { return cmp.Compare(corners[p].y, corners[q].y) })
		}
	}
	next := func(list []int, i int) []int {
		k := slices.Index(list, i)
		if k < 0 {
			return nil
		}
		return list[k+1 : min(len(list), k+1+maxCellSearch)]
	}
	pageArea := a.page.Width * a.page.Height
	cells := sc.cells[:0]
	defer func() { sc.cells = cells[:0] }()
	for i, c := range corners {
		if at[place(c.hi, c.vi)] != i {
			continue
		}
		below := next(byV(c.vi), i)
		right := next(byH(c.hi), i)
	search:
		for _, b := range below {
			for _, r := range right {
				br, ok := at[place(corners[b].hi, corners[r].vi)]
				if !ok {
					continue
				}
				// The bottom-right corner must be joined to both by edges.
				if corners[br].hi != corners[b].hi || corners[br].vi != corners[r].vi {
					continue
				}
				box := Box{c.x, c.y, corners[r].x, corners[b].y}
				if (box.X1-box.X0)*(box.Y1-box.Y0) <= maxCellShare*pageArea {
					cells = append(cells, cellBox{box: box, tl: i, tr: r, bl: b, br: br})
				}
				break search
			}
		}
		if len(cells) >= maxCells {
			break
		}
	}
	if len(cells) < 2 {
		return
	}
	// Tables: cells sharing a corner, in the order of their first cell;
	// each table's cell boxes a stretch of one array, in cell order.
	uf := newUnionFind(&sc.ints[4], len(corners))
	for _, c := range cells {
		uf.union(c.tl, c.tr)
		uf.union(c.tl, c.bl)
		uf.union(c.tl, c.br)
	}
	count := zeroed(&sc.ints[5], len(corners))
	roots := sc.ints[0][:0] // vStart is not read again
	for _, c := range cells {
		r := uf.find(c.tl)
		if count[r] == 0 {
			roots = append(roots, r)
		}
		count[r]++
	}
	sc.ints[0] = roots
	off := 0
	for _, r := range roots {
		n := count[r]
		count[r] = off
		off += n
	}
	boxes := zeroed(&sc.boxes, len(cells))
	for _, c := range cells {
		r := uf.find(c.tl)
		boxes[count[r]] = c.box
		count[r]++
	}
	start := 0
	for _, r := range roots {
		end := count[r]
		if end-start >= 2 {
			a.addTable(boxes[start:end:end], true)
		}
		start = end
	}
}

// addTable turns cell boxes into rows (cells sharing a top edge, left to
// right) with the words whose centres fall in each cell. The cells' words
// are gathered in scratch first: most grids a drawing closes are walls,
// not tables, and only a table kept is copied out, in arrays of its size.
func (a *analysis) addTable(boxes []Box, ruled bool) {
	slices.SortFunc(boxes, func(p, q Box) int {
		if c := cmp.Compare(p.Y0, q.Y0); c != 0 {
			return c
		}
		return cmp.Compare(p.X0, q.X0)
	})
	t := Table{Box: boxes[0], Ruled: ruled}
	for _, b := range boxes {
		t.Box = t.Box.Union(b)
	}
	words := a.wordsIn(t.Box)
	sc := a.sc
	// Cell k's words are cellWords[bounds[k]:bounds[k+1]].
	cellWords := sc.tableWords[:0]
	bounds := zeroed(&sc.ints[6], len(boxes)+1)
	// The words' centres, once for all cells, sorted down the page: a
	// cell reads only the words level with it. The order a cell's words
	// are found in does not matter: they are then sorted by reading
	// rank, which no two words share.
	centres := zeroed(&sc.centres, len(words))
	for k, wi := range words {
		x, y := a.g[wi].box.center()
		centres[k] = wordCentre{x, y, wi}
	}
	slices.SortFunc(centres, func(p, q wordCentre) int { return cmp.Compare(p.y, q.y) })
	filled := 0
	for k, b := range boxes {
		start := len(cellWords)
		i, _ := slices.BinarySearchFunc(centres, b.Y0, func(c wordCentre, y float64) int { return cmp.Compare(c.y, y) })
		for ; i < len(centres) && centres[i].y <= b.Y1; i++ {
			if c := &centres[i]; c.x >= b.X0 && c.x <= b.X1 {
				cellWords = append(cellWords, c.wi)
			}
		}
		a.sortByRank(cellWords[start:])
		bounds[k+1] = len(cellWords)
		if len(cellWords) > start {
			filled++
		}
	}
	sc.tableWords = cellWords[:0]
	// A drawing's walls and grid lines close into "cells" too; a grid
	// that is mostly empty is not a table.
	if cells := len(boxes); filled == 0 || (cells > 30 && float64(filled) < 0.2*float64(cells)) {
		return
	}
	rows := 0
	for i := 0; i < len(boxes); rows++ {
		j := i + 1
		for j < len(boxes) && boxes[j].Y0-boxes[i].Y0 <= 1 {
			j++
		}
		i = j
	}
	allWords := slices.Clone(cellWords)
	allCells := make([]Cell, len(boxes))
	t.Rows = make([]Row, 0, rows)
	for i := 0; i < len(boxes); {
		j := i + 1
		for j < len(boxes) && boxes[j].Y0-boxes[i].Y0 <= 1 {
			j++
		}
		row := Row{Box: boxes[i], Cells: allCells[i:j:j]}
		for k := i; k < j; k++ {
			b := boxes[k]
			row.Box = row.Box.Union(b)
			c := &allCells[k]
			c.Box = b
			if lo, hi := bounds[k], bounds[k+1]; hi > lo {
				c.Words = allWords[lo:hi:hi]
			}
			c.Text = a.join(c.Words)
		}
		t.Rows = append(t.Rows, row)
		i = j
	}
	if ruled {
		if a.cellOf == nil {
			a.cellOf = make([]int32, len(a.g))
		}
		for _, r := range t.Rows {
			for _, c := range r.Cells {
				a.cells++
				for _, w := range c.Words {
					a.cellOf[w] = int32(a.cells)
				}
			}
		}
	}
	a.page.Tables = append(a.page.Tables, t)
}

// wordCentre is a word's centre, as addTable finds a cell's words.
type wordCentre struct {
	x, y float64
	wi   int
}

// wordsIn lists the drawing-text words whose centres fall in b (in
// scratch: valid until the next call).
func (a *analysis) wordsIn(b Box) []int {
	if a.wordGrid == nil {
		a.wordGrid = newPointGrid(a.page.Width, a.page.Height, 48, len(a.g), func(wi int) (float64, float64, bool) {
			x, y := a.g[wi].box.center()
			r := a.g[wi].run
			return x, y, r >= 0 && a.page.Runs[r].Layer == LayerText
		})
	}
	out := a.sc.ints[7][:0]
	a.wordGrid.query(b, func(wi int) bool {
		out = append(out, wi)
		return true
	})
	slices.Sort(out)
	out = slices.Compact(out)
	a.sc.ints[7] = out
	return out
}

func (a *analysis) sortByRank(words []int) {
	slices.SortFunc(words, func(x, y int) int { return cmp.Compare(a.g[x].rank, a.g[y].rank) })
}
