package layout

import (
	"cmp"
	"math"
	"slices"
)

// Unruled tables: text set in aligned columns with no rules, such as a
// sheet index or a schedule typed with tabs. Columns further apart than a
// line's widest gap are separate blocks, so side-by-side blocks whose lines
// share baselines are read together; a group is a table when at least
// minTableRows rows fill two columns or more, at least two columns are
// filled in minTableRows rows, and its cells are short (a paragraph set in
// two columns has long runs and is not a table).
const (
	minTableRows     = 3
	maxCellWordsMed  = 5  // median words per cell
	maxColumnGapSize = 20 // × font size between side-by-side column blocks
	maxUnruledBlocks = 4000
	columnTol        = 0.6 // × font size: left edges this close start one column
)

func (a *analysis) unruledTables() {
	blocks := a.page.Blocks
	if len(blocks) == 0 || len(blocks) > maxUnruledBlocks {
		return
	}
	// Blocks of upright drawing text outside ruled tables, with a line
	// per row at least.
	var cand []int
	for bi, b := range blocks {
		if len(b.Lines) < minTableRows {
			continue
		}
		ln := &a.page.Lines[b.Lines[0]]
		if ln.Angle != 0 || ln.Layer != LayerText || a.medianRunWords(bi) > maxCellWordsMed || a.inRuledTable(b.Box) {
			continue // not upright drawing text, prose, or in a ruled table
		}
		cand = append(cand, bi)
	}
	if len(cand) == 0 {
		return
	}
	uf := newUnionFind(&a.sc.ints[0], len(blocks))
	slices.SortFunc(cand, func(x, y int) int { return cmp.Compare(blocks[x].Box.X0, blocks[y].Box.X0) })
	for i, x := range cand {
		bx := blocks[x].Box
		fs := a.blockSize(x)
		for _, y := range cand[i+1:] {
			by := blocks[y].Box
			gap := by.X0 - bx.X1
			if gap > maxColumnGapSize*fs {
				break // sorted by X0: the rest start further right still
			}
			if gap < 0 {
				continue
			}
			overlap := min(bx.Y1, by.Y1) - max(bx.Y0, by.Y0)
			if overlap < 0.5*min(bx.Y1-bx.Y0, by.Y1-by.Y0) {
				continue
			}
			if a.sharedBaselines(x, y) {
				uf.union(x, y)
			}
		}
	}
	groups := map[int][]int{}
	var roots []int
	for _, bi := range cand {
		r := uf.find(bi)
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], bi)
	}
	for _, r := range roots {
		if g := groups[r]; len(g) > 1 || a.hasMultiRunLines(g[0]) {
			a.unruledTable(g)
		}
	}
}

// hasMultiRunLines reports whether minTableRows of a block's lines have
// two runs or more (columns closer than a line's widest gap).
func (a *analysis) hasMultiRunLines(bi int) bool {
	n := 0
	for _, li := range a.page.Blocks[bi].Lines {
		if len(a.page.Lines[li].Runs) > 1 {
			n++
		}
	}
	return n >= minTableRows
}

func (a *analysis) inRuledTable(b Box) bool {
	x, y := b.center()
	for _, t := range a.page.Tables {
		if t.Ruled && t.Box.ContainsPoint(x, y) {
			return true
		}
	}
	return false
}

func (a *analysis) medianRunWords(bi int) int {
	var n []int
	for _, li := range a.page.Blocks[bi].Lines {
		for _, ri := range a.page.Lines[li].Runs {
			n = append(n, len(a.page.Runs[ri].Words))
		}
	}
	slices.Sort(n)
	return n[len(n)/2]
}

func (a *analysis) blockSize(bi int) float64 {
	fs := 0.0
	for _, li := range a.page.Blocks[bi].Lines {
		fs = max(fs, a.page.Lines[li].FontSize)
	}
	return max(fs, 1)
}

// sharedBaselines reports whether two blocks' lines sit on common
// baselines: at least minTableRows of them, and most of the smaller one's.
func (a *analysis) sharedBaselines(x, y int) bool {
	lx, ly := a.page.Blocks[x].Lines, a.page.Blocks[y].Lines
	if len(lx) < minTableRows || len(ly) < minTableRows {
		return false
	}
	shared := 0
	for _, i := range lx {
		ri := &a.rb[a.page.Lines[i].Runs[0]]
		for _, j := range ly {
			rj := &a.rb[a.page.Lines[j].Runs[0]]
			if math.Abs(ri.s-rj.s) <= baselineTol*max(ri.fs, rj.fs) {
				shared++
				break
			}
		}
	}
	return shared >= minTableRows && float64(shared) >= 0.6*float64(min(len(lx), len(ly)))
}

// unruledTable makes a table of a group of blocks when its runs fall into
// aligned rows and columns.
func (a *analysis) unruledTable(group []int) {
	var runs []int
	for _, bi := range group {
		for _, li := range a.page.Blocks[bi].Lines {
			runs = append(runs, a.page.Lines[li].Runs...)
		}
	}
	if len(runs) < 2*minTableRows || len(runs) > maxCells {
		return
	}
	// Rows: runs on one baseline (anchored on the row's first run).
	slices.SortFunc(runs, func(x, y int) int { return cmp.Compare(a.rb[x].s, a.rb[y].s) })
	var rows [][]int
	for i := 0; i < len(runs); {
		first := &a.rb[runs[i]]
		j := i + 1
		for j < len(runs) && a.rb[runs[j]].s-first.s <= baselineTol*first.fs {
			j++
		}
		rows = append(rows, slices.Clone(runs[i:j]))
		i = j
	}
	// Columns: clusters of left edges met in several rows.
	sizes := make([]float64, 0, len(runs))
	for _, ri := range runs {
		sizes = append(sizes, a.rb[ri].fs)
	}
	slices.Sort(sizes)
	fs := sizes[len(sizes)/2]
	byX := slices.Clone(runs)
	slices.SortFunc(byX, func(x, y int) int { return cmp.Compare(a.rb[x].p0, a.rb[y].p0) })
	type column struct{ x0, x1 float64 }
	var cols []column
	for i := 0; i < len(byX); {
		j := i + 1
		for j < len(byX) && a.rb[byX[j]].p0-a.rb[byX[j-1]].p0 <= columnTol*fs {
			j++
		}
		if j-i >= minTableRows {
			c := column{x0: a.rb[byX[i]].p0, x1: a.rb[byX[i]].p1}
			for _, ri := range byX[i:j] {
				c.x1 = max(c.x1, a.rb[ri].p1)
			}
			cols = append(cols, c)
		}
		i = j
	}
	if len(cols) < 2 {
		return
	}
	// Each run goes to the last column starting at or before it.
	colOf := func(ri int) int {
		x := a.rb[ri].p0 + columnTol*fs
		k := 0
		for c := range cols {
			if cols[c].x0 <= x {
				k = c
			}
		}
		return k
	}
	words := 0
	perRun := make([]int, 0, len(runs))
	fullRows := 0
	colRows := make([]int, len(cols))
	for _, row := range rows {
		seen := map[int]bool{}
		for _, ri := range row {
			seen[colOf(ri)] = true
			perRun = append(perRun, len(a.page.Runs[ri].Words))
			words += len(a.page.Runs[ri].Words)
		}
		if len(seen) >= 2 {
			fullRows++
		}
		for c := range seen {
			colRows[c]++
		}
	}
	filledCols := 0
	for _, n := range colRows {
		if n >= minTableRows {
			filledCols++
		}
	}
	slices.Sort(perRun)
	if fullRows < minTableRows || filledCols < 2 || perRun[len(perRun)/2] > maxCellWordsMed {
		return
	}
	t := Table{}
	for ri, row := range rows {
		cells := make([]Cell, len(cols))
		rowBox := a.page.Runs[row[0]].Box
		for _, r := range row {
			rowBox = rowBox.Union(a.page.Runs[r].Box)
		}
		for c := range cells {
			next := math.Inf(1)
			if c+1 < len(cols) {
				next = cols[c+1].x0
			}
			cells[c].Box = Box{X0: cols[c].x0, Y0: rowBox.Y0, X1: min(cols[c].x1, next), Y1: rowBox.Y1}
		}
		slices.SortFunc(row, func(x, y int) int { return cmp.Compare(a.rb[x].p0, a.rb[y].p0) })
		for _, r := range row {
			c := &cells[colOf(r)]
			c.Words = append(c.Words, a.page.Runs[r].Words...)
			c.Box = c.Box.Union(a.page.Runs[r].Box)
		}
		for c := range cells {
			cells[c].Text = a.join(cells[c].Words)
		}
		if ri == 0 {
			t.Box = rowBox
		}
		t.Box = t.Box.Union(rowBox)
		t.Rows = append(t.Rows, Row{Box: rowBox, Cells: cells})
	}
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			t.Box = t.Box.Union(c.Box)
		}
	}
	a.page.Tables = append(a.page.Tables, t)
}
