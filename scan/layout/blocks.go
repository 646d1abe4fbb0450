package layout

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// blockBuild is a block under construction: its lines' runs and box.
type blockBuild struct {
	lines [][]int // runs per line: a slice of allLines
	box   Box
}

// buildBlocksAndLines groups runs into blocks first, by white space and
// drawn rules (runs on one baseline a few spaces apart, or stacked with
// less than a line of white space and no rule between), and only then
// builds lines inside each block, from runs sharing a baseline. Lines
// therefore never join text across a rule or from stacked rows.
func (a *analysis) buildBlocksAndLines() {
	runs := a.rb
	n := len(runs)
	if n == 0 {
		return
	}
	sc := a.sc
	uf := newUnionFind(&sc.ints[0], n)
	grid := newBoxGrid(a.page.Width, a.page.Height, 48, n, func(i int) (Box, bool) { return a.page.Runs[i].Box, true })
	defer releaseGrid(grid)
	seen := zeroed(&sc.ints[1], n)
	for i := range seen {
		seen[i] = -1
	}
	for i := range runs {
		tried := 0
		m := lineGap * runs[i].fs
		b := a.page.Runs[i].Box
		reach := Box{b.X0 - m, b.Y0 - m, b.X1 + m, b.Y1 + m}
		grid.query(reach, func(j int) bool {
			if tried++; tried > 4*maxCandidates {
				return false
			}
			if j <= i || seen[j] == i {
				return true
			}
			seen[j] = i
			if uf.find(i) != uf.find(j) && a.connected(i, j) {
				uf.union(i, j)
			}
			return true
		})
	}
	// Group runs by their root: the union-find's smallest member is the
	// root, so roots come in run order; members are laid out root by root.
	count := zeroed(&sc.ints[2], n)
	roots := sc.ints[3][:0]
	for i := range runs {
		r := uf.find(i)
		if count[r] == 0 {
			roots = append(roots, r)
		}
		count[r]++
	}
	sc.ints[3] = roots
	start := zeroed(&sc.ints[4], n)
	members := make([]int, n)
	at := 0
	for _, r := range roots {
		start[r] = at
		at += count[r]
	}
	fill := append(sc.ints[5][:0], start...)
	sc.ints[5] = fill
	for i := range runs {
		r := uf.find(i)
		members[fill[r]] = i
		fill[r]++
	}
	groups := func(r int) []int { return members[start[r] : start[r]+count[r]] }
	// A block's lines are runs of members (sorted in place), listed in
	// one array for all blocks: Line.Runs are slices of members, kept
	// with the page.
	allLines := emptied(&sc.lineRuns, n)
	blocks := emptied(&sc.blocks, len(roots))
	lineWordCount := 0
	for _, r := range roots {
		group := groups(r)
		b := blockBuild{box: a.page.Runs[group[0]].Box}
		for _, ri := range group {
			b.box = b.box.Union(a.page.Runs[ri].Box)
		}
		at := len(allLines)
		allLines = a.linesOf(group, allLines)
		b.lines = allLines[at:len(allLines):len(allLines)]
		for _, lineRuns := range b.lines {
			if len(lineRuns) > 1 {
				for _, ri := range lineRuns {
					lineWordCount += len(a.page.Runs[ri].Words)
				}
			}
		}
		blocks = append(blocks, b)
	}
	// allLines and blocks keep their arrays: they had room for them all.
	// Reading order of blocks: top to bottom, then left to right (sorted
	// through an index: the block values are large to move).
	order := zeroed(&sc.ints[6], len(blocks))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		x, y := &blocks[i].box, &blocks[j].box
		if c := cmp.Compare(math.Round(x.Y0), math.Round(y.Y0)); c != 0 {
			return c
		}
		if c := cmp.Compare(x.X0, y.X0); c != 0 {
			return c
		}
		return cmp.Compare(i, j)
	})
	rank := 0
	// Sized exactly: the page keeps them as long as the set is read.
	a.page.Lines = make([]Line, 0, len(allLines))
	a.page.Blocks = make([]Block, 0, len(blocks))
	// Blocks' line lists and multi-run lines' words are slices of shared
	// arrays: most blocks on a drawing are one label of one run.
	blockLines := make([]int, 0, len(allLines))
	var lineWords []int
	if lineWordCount > 0 {
		lineWords = make([]int, 0, lineWordCount)
	}
	for bi, oi := range order {
		b := &blocks[oi]
		blk := Block{Box: b.box}
		at := len(blockLines)
		for _, lineRuns := range b.lines {
			li := len(a.page.Lines)
			first := &a.page.Runs[lineRuns[0]]
			ln := Line{Runs: lineRuns, Box: first.Box, Angle: first.Angle, Block: bi, Layer: first.Layer,
				FontSize: first.FontSize, Words: first.Words, Text: first.Text}
			if len(lineRuns) > 1 {
				start := len(lineWords)
				size := len(lineRuns) - 1
				for _, ri := range lineRuns {
					r := &a.page.Runs[ri]
					ln.Box = ln.Box.Union(r.Box)
					ln.FontSize = max(ln.FontSize, r.FontSize)
					size += len(r.Text)
					lineWords = append(lineWords, r.Words...)
				}
				ln.Words = lineWords[start:len(lineWords):len(lineWords)]
				var text strings.Builder
				text.Grow(size)
				for k, ri := range lineRuns {
					if k > 0 {
						text.WriteByte(' ')
					}
					text.WriteString(a.page.Runs[ri].Text)
				}
				ln.Text = text.String()
			}
			for _, wi := range ln.Words {
				a.page.LineOf[wi] = li
				a.g[wi].rank = rank
				rank++
			}
			a.page.Lines = append(a.page.Lines, ln)
			blockLines = append(blockLines, li)
		}
		blk.Lines = blockLines[at:len(blockLines):len(blockLines)]
		a.page.Blocks = append(a.page.Blocks, blk)
	}
}

// lineGeom is a line's extent along its baseline, as readAcross reads it.
type lineGeom struct {
	li        int
	key       int
	s, p0, p1 float64
	fs        float64
	layer     Layer
}

// readAcross finds the lines a reader reads as one (Page.ReadAcross):
// per direction, lines whose baselines lie within baselineTol of the
// first's, sorted along the text, chained while the gap between them is
// at most lineGap of the larger size, as the lines of one block are, but
// across blocks. Diagonal (overlay) text is read as its runs are.
func (a *analysis) readAcross() {
	ls := emptied(&a.sc.lineGeoms, len(a.page.Lines))
	for li := range a.page.Lines {
		l := &a.page.Lines[li]
		if len(l.Runs) == 0 {
			continue
		}
		first := &a.rb[l.Runs[0]]
		if first.diagonal {
			continue
		}
		g := lineGeom{li: li, key: first.key, s: first.s, p0: first.p0, p1: first.p1, fs: first.fs, layer: l.Layer}
		for _, ri := range l.Runs[1:] {
			r := &a.rb[ri]
			g.p0, g.p1, g.fs = min(g.p0, r.p0), max(g.p1, r.p1), max(g.fs, r.fs)
		}
		ls = append(ls, g)
	}
	slices.SortFunc(ls, func(x, y lineGeom) int {
		if c := cmp.Compare(x.key, y.key); c != 0 {
			return c
		}
		return cmp.Compare(x.s, y.s)
	})
	var row []int
	flush := func() {
		if len(row) > 1 {
			a.page.ReadAcross = append(a.page.ReadAcross, row)
		}
		row = nil
	}
	for i := 0; i < len(ls); {
		first := &ls[i]
		j := i + 1
		for j < len(ls) && ls[j].key == first.key && ls[j].s-first.s <= baselineTol*max(first.fs, ls[j].fs) {
			j++
		}
		band := ls[i:j]
		slices.SortFunc(band, func(x, y lineGeom) int { return cmp.Compare(x.p0, y.p0) })
		end, fs, layer := band[0].p1, band[0].fs, band[0].layer
		row = []int{band[0].li}
		for _, g := range band[1:] {
			if g.layer != layer || g.p0-end > lineGap*max(fs, g.fs) {
				flush()
				fs, layer = g.fs, g.layer
				end = g.p1
				row = []int{g.li}
				continue
			}
			row = append(row, g.li)
			end, fs = max(end, g.p1), max(fs, g.fs)
		}
		flush()
		i = j
	}
}

// connected reports whether runs i and j belong to one block.
func (a *analysis) connected(i, j int) bool {
	x, y := &a.rb[i], &a.rb[j]
	if x.key != y.key || a.page.Runs[i].Layer != a.page.Runs[j].Layer {
		return false
	}
	fs := max(x.fs, y.fs)
	if fs > blockRatio*min(x.fs, y.fs) {
		return false
	}
	if math.Abs(x.s-y.s) <= baselineTol*fs {
		left, right := x, y
		if right.p0 < left.p0 {
			left, right = right, left
		}
		gap := right.p0 - left.p1
		if gap > lineGap*fs {
			return false
		}
		return x.diagonal || gap <= 0 || !a.columnRule(x.key, left.p1, right.p0, (max(x.t0, y.t0)+min(x.t1, y.t1))/2, fs)
	}
	up, down := x, y
	if down.s < up.s {
		up, down = down, up
	}
	lo, hi := max(x.p0, y.p0), min(x.p1, y.p1)
	if hi <= lo {
		return false
	}
	white := down.t0 - up.t1
	if down.s-up.s < 0.6*fs {
		// A superscript or a baseline shift inside one line: close along
		// the text as well.
		left, right := x, y
		if right.p0 < left.p0 {
			left, right = right, left
		}
		return right.p0-left.p1 <= lineGap*fs
	}
	if white > stackGap*fs {
		return false
	}
	return x.diagonal || white <= 0 || !a.rules.crossAcross(x.key, up.t1, down.t0, (lo+hi)/2)
}

// linesOf splits one block's runs into lines: runs whose baselines lie
// within baselineTol of the line's first run, a few spaces apart along
// the text and with no rule between; top to bottom, then along the text.
// members is sorted in place and each line is a slice of it, appended
// to lines.
func (a *analysis) linesOf(members []int, lines [][]int) [][]int {
	if len(members) == 1 {
		return append(lines, members[:1:1])
	}
	rb := a.rb
	slices.SortFunc(members, func(x, y int) int {
		if c := cmp.Compare(rb[x].s, rb[y].s); c != 0 {
			return c
		}
		return cmp.Compare(rb[x].p0, rb[y].p0)
	})
	for i := 0; i < len(members); {
		first := &rb[members[i]]
		j := i + 1
		for j < len(members) && rb[members[j]].s-first.s <= baselineTol*max(first.fs, rb[members[j]].fs) {
			j++
		}
		// The band is sorted along the text in place: nothing reads
		// members[i:j] in baseline order after this.
		band := members[i:j]
		slices.SortFunc(band, func(x, y int) int { return cmp.Compare(rb[x].p0, rb[y].p0) })
		cur := 0 // the current line is band[cur:k]
		end := rb[band[0]].p1
		for k := 1; k < len(band); k++ {
			r := &rb[band[k]]
			prev := &rb[band[k-1]]
			fs := max(r.fs, prev.fs)
			split := r.p0-end > lineGap*fs
			if !split && !r.diagonal && r.p0 > end {
				split = a.columnRule(r.key, end, r.p0, (max(r.t0, prev.t0)+min(r.t1, prev.t1))/2, fs)
			}
			if split {
				lines = append(lines, band[cur:k:k])
				cur = k
			}
			end = max(end, r.p1)
		}
		lines = append(lines, band[cur:len(band):len(band)])
		i = j
	}
	return lines
}

type unionFind struct{ parent []int }

// newUnionFind makes a union-find of n members in *buf's array (reused
// when it is large enough).
func newUnionFind(buf *[]int, n int) *unionFind {
	u := &unionFind{parent: zeroed(buf, n)}
	for i := range u.parent {
		u.parent[i] = i
	}
	return u
}

func (u *unionFind) find(i int) int {
	for u.parent[i] != i {
		u.parent[i] = u.parent[u.parent[i]]
		i = u.parent[i]
	}
	return i
}

func (u *unionFind) union(i, j int) {
	ri, rj := u.find(i), u.find(j)
	if ri != rj {
		if ri < rj {
			u.parent[rj] = ri
		} else {
			u.parent[ri] = rj
		}
	}
}

// boxGrid finds boxes near a box. It is built once from all its boxes in
// two passes (count per cell, then fill one array), so a page costs a few
// allocations however many boxes it has, none once a released grid's
// arrays are reused. A box covering more than 64 cells is kept in a side
// list every query visits.
type boxGrid struct {
	cell       float64
	cols, rows int
	start      []int32 // cell c holds ids[start[c]:start[c+1]]
	ids        []int32
	big        []int32
	pts        []Box // points of a point grid (query filters by them)
	points     bool
	list       []placed // building scratch
	fill       []int32  // building scratch
}

// placed is a box's span of cells while a grid is built.
type placed struct {
	id             int32
	c0, r0, c1, r1 int32
}

// newBoxGrid indexes n boxes; box(i) gives box i, or ok false to leave it
// out.
func newBoxGrid(w, h, cell float64, n int, box func(i int) (Box, bool)) *boxGrid {
	g := gridPool.Get().(*boxGrid)
	g.points = false
	g.build(w, h, cell, n, box)
	return g
}

// build indexes the boxes in g, reusing its arrays.
func (g *boxGrid) build(w, h, cell float64, n int, box func(i int) (Box, bool)) {
	cols, rows := int(w/cell)+1, int(h/cell)+1
	cols, rows = min(max(cols, 1), 512), min(max(rows, 1), 512)
	g.cell, g.cols, g.rows = max(w/float64(cols), h/float64(rows), 1), cols, rows
	g.start = zeroed(&g.start, cols*rows+1)
	g.big = g.big[:0]
	list := emptied(&g.list, n)
	for i := 0; i < n; i++ {
		b, ok := box(i)
		if !ok {
			continue
		}
		c0, r0, c1, r1 := g.span(b)
		if (c1-c0+1)*(r1-r0+1) > 64 {
			g.big = append(g.big, int32(i))
			continue
		}
		list = append(list, placed{int32(i), int32(c0), int32(r0), int32(c1), int32(r1)})
		for r := r0; r <= r1; r++ {
			for c := c0; c <= c1; c++ {
				g.start[r*cols+c+1]++
			}
		}
	}
	for c := 1; c < len(g.start); c++ {
		g.start[c] += g.start[c-1]
	}
	g.ids = zeroed(&g.ids, int(g.start[len(g.start)-1]))
	fill := append(g.fill[:0], g.start[:cols*rows]...)
	g.fill = fill
	for _, p := range list {
		for r := int(p.r0); r <= int(p.r1); r++ {
			for c := int(p.c0); c <= int(p.c1); c++ {
				g.ids[fill[r*cols+c]] = p.id
				fill[r*cols+c]++
			}
		}
	}
}

// newPointGrid indexes n points; pt(i) gives point i or ok false.
func newPointGrid(w, h, cell float64, n int, pt func(i int) (x, y float64, ok bool)) *boxGrid {
	g := gridPool.Get().(*boxGrid)
	pts := zeroed(&g.pts, n) // g.pts is this slice: query reads it
	g.points = true
	g.build(w, h, cell, n, func(i int) (Box, bool) {
		x, y, ok := pt(i)
		pts[i] = Box{x, y, x, y}
		return pts[i], ok
	})
	return g
}

func (g *boxGrid) span(b Box) (c0, r0, c1, r1 int) {
	clampI := func(v float64, n int) int {
		c := v / g.cell
		switch {
		case !(c >= 0): // negative or NaN
			return 0
		case c >= float64(n-1):
			return n - 1
		}
		return int(c)
	}
	return clampI(b.X0, g.cols), clampI(b.Y0, g.rows), clampI(b.X1, g.cols), clampI(b.Y1, g.rows)
}

// maxVisit bounds the entries one query visits: only a pathological page
// (thousands of boxes piled on one spot) reaches it.
const maxVisit = 8192

// query calls fn with the ids of boxes in the cells b covers (an id may
// come more than once; a point grid gives only points inside b), at most
// maxVisit of them; fn returns false to stop.
func (g *boxGrid) query(b Box, fn func(int) bool) {
	visited := 0
	visit := func(id int32) bool {
		if visited++; visited > maxVisit {
			return false
		}
		if g.points {
			if p := g.pts[id]; !b.ContainsPoint(p.X0, p.Y0) {
				return true
			}
		}
		return fn(int(id))
	}
	for _, id := range g.big {
		if !visit(id) {
			return
		}
	}
	c0, r0, c1, r1 := g.span(b)
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			k := r*g.cols + c
			for _, id := range g.ids[g.start[k]:g.start[k+1]] {
				if !visit(id) {
					return
				}
			}
		}
	}
}
