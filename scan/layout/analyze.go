package layout

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	"planreview/scan/pdftext"
)

// Bounds that keep one hostile or enormous page cheap: words and segments
// beyond them are not considered (the first ones in reading order and
// drawing order are), and table building stops at the caps.
const (
	maxWords         = 60000 // words considered per page
	maxSegments      = 20000 // as pdftext keeps per page
	maxEdges         = 4000  // ruled edges per orientation after joining
	maxIntersections = 60000
	maxCells         = 20000 // ruled cells per page
	maxCellSearch    = 64    // corner candidates tried per intersection
)

// Thresholds, in multiples of the font size unless said otherwise.
const (
	baselineTol  = 0.2  // baselines this close share a line
	runGap       = 1.0  // widest gap inside a run (poppler's word space is ≤ 0.5)
	lineGap      = 2.5  // widest gap between runs of one line
	stackGap     = 0.9  // widest white space between stacked lines of a block
	sizeRatio    = 1.3  // font sizes of one run differ by at most this factor
	blockRatio   = 1.5  // …and of one block
	noSpaceGap   = 0.1  // words closer than this are one token ("A-" "101")
	columnClear  = 0.1  // a column rule stands this clear of the text on both sides
	axisSnap     = 1.5  // degrees: text within this of a quarter turn is axis text
	overlaySize  = 2.5  // × the page's median size: large type
	snapTol      = 2.0  // points: edges this close are one rule (pdfplumber snap)
	joinTol      = 3.0  // points: collinear edges this close are joined
	minEdge      = 3.0  // points: shorter strokes are not rules
	crossTol     = 1.5  // points: an edge ending this short of another still meets it
	maxCellShare = 0.25 // a ruled "cell" larger than this share of the page is a frame
)

// geom is a word's place in its text direction's frame: p along the text,
// t across it (growing downwards for upright text), s the baseline.
type geom struct {
	box       Box
	p0, p1    float64
	t0, t1, s float64
	fs        float64
	key       int // direction: rounded degrees; 0, 90, 180, 270 for axis text
	diagonal  bool
	run, rank int
}

// frame is the unit vector along the text (u) and the one "down" across
// it (d), in displayed coordinates (y down).
type frame struct{ ux, uy, dx, dy float64 }

func frameOf(deg float64) frame {
	switch deg {
	case 0:
		return frame{ux: 1, uy: 0, dx: 0, dy: 1}
	case 90:
		return frame{ux: 0, uy: -1, dx: 1, dy: 0}
	case 180:
		return frame{ux: -1, uy: 0, dx: 0, dy: -1}
	case 270:
		return frame{ux: 0, uy: 1, dx: -1, dy: 0}
	}
	r := deg * math.Pi / 180
	c, s := math.Cos(r), math.Sin(r)
	if deg == 0 || deg == 90 || deg == 180 || deg == 270 {
		c, s = math.Round(c), math.Round(s)
	}
	return frame{ux: c, uy: -s, dx: s, dy: c}
}

func (f frame) p(x, y float64) float64 { return x*f.ux + y*f.uy }
func (f frame) t(x, y float64) float64 { return x*f.dx + y*f.dy }

// analysis is the state of one Analyze call.
type analysis struct {
	page  *Page
	words []pdftext.Word
	g     []geom
	rules *ruleIndex
	med   float64    // median font size of the page's words
	rb    []runBuild // runs in their frames, parallel to page.Runs

	// cellOf numbers each word's ruled cell (from 1; 0: in none), cells
	// counting them; nil until a ruled table is found.
	cellOf []int32
	cells  int32

	wordGrid *boxGrid // drawing-text word centres, made on first use
	lineGrid *boxGrid // line boxes, made on first use

	sc *scratch // working arrays, returned by release
}

// Analyze builds the layout of one extracted page: runs, blocks, lines,
// ruled and unruled tables and label/value pairs. It is pure and bounded:
// at most maxWords words and maxSegments segments are considered.
func Analyze(p *pdftext.Page) *Page {
	out, a := analyzeLines(p)
	if a != nil {
		a.complete()
		a.release()
	}
	return out
}

// AnalyzeLines builds the runs, blocks and lines of one extracted page
// (and the lines read across) and leaves its tables and label/value pairs
// to Complete: for a reader that needs the lines of every page and the
// rest of a few (the document model reads every page's lines; its
// regions and tables are asked for page by page).
func AnalyzeLines(p *pdftext.Page) *Page {
	out, a := analyzeLines(p)
	// The analysis is not kept: most pages are never completed, and the
	// words' and runs' frames and the rule index weigh more than the
	// lines. Complete rebuilds them from the page.
	if a != nil {
		out.completeOnce = sync.OnceFunc(func() {
			b := out.reanalyse()
			b.complete()
			b.release()
		})
	}
	a.release()
	return out
}

func analyzeLines(p *pdftext.Page) (*Page, *analysis) {
	if p == nil {
		return &Page{}, nil
	}
	out := &Page{Number: p.Number, Width: p.Width, Height: p.Height, Words: p.Words, LineOf: make([]int, len(p.Words)), roles: &rolesOnce{}}
	out.Outlined = PartlyOutlined(p)
	for i := range out.LineOf {
		out.LineOf[i] = -1
	}
	if !(p.Width > 0) || !(p.Height > 0) || !finite(p.Width) || !finite(p.Height) {
		return out, nil
	}
	a := runsOf(p, out)
	a.buildBlocksAndLines()
	a.readAcross()
	return out, a
}

// ReadingOrder is the page's lines in reading order: block by block, each
// block's lines in order, then any line no block holds.
func (p *Page) ReadingOrder() []int {
	order := make([]int, 0, len(p.Lines))
	inBlock := make([]bool, len(p.Lines))
	for _, b := range p.Blocks {
		for _, li := range b.Lines {
			if li >= 0 && li < len(p.Lines) && !inBlock[li] {
				inBlock[li] = true
				order = append(order, li)
			}
		}
	}
	for li := range p.Lines {
		if !inBlock[li] {
			order = append(order, li)
		}
	}
	return order
}

// Complete builds the tables and label/value pairs of a page made by
// AnalyzeLines; on a complete page it does nothing. Readers on several
// goroutines may ask at once: the first builds them, the others wait.
func (p *Page) Complete() {
	if p.completeOnce != nil {
		p.completeOnce()
	}
}

func (a *analysis) complete() {
	a.ruledTables()
	a.unruledTables()
	a.pairs()
}

// reanalyse rebuilds the analysis AnalyzeLines made of the page from what
// the page keeps: the words' frames and the rule index afresh, each
// word's run and reading rank and each run's frame from the runs and
// lines, exactly as the runs and lines were built from them.
func (p *Page) reanalyse() *analysis {
	a := &analysis{page: p, words: p.Words[:min(len(p.Words), maxWords)], sc: getScratch()}
	a.rules = newRuleIndex(p.Segments, a.sc)
	a.measure()
	a.rb = zeroed(&a.sc.rb, len(p.Runs))
	for ri := range p.Runs {
		words := p.Runs[ri].Words
		g := &a.g[words[0]]
		r := runBuild{p0: g.p0, p1: g.p1, t0: g.t0, t1: g.t1, s: g.s, fs: g.fs, key: g.key, diagonal: g.diagonal}
		for _, wi := range words {
			g := &a.g[wi]
			g.run = ri
			r.p1 = max(r.p1, g.p1)
			r.t0, r.t1 = min(r.t0, g.t0), max(r.t1, g.t1)
			r.fs = max(r.fs, g.fs)
		}
		a.rb[ri] = r
	}
	rank := 0
	for li := range p.Lines {
		for _, wi := range p.Lines[li].Words {
			a.g[wi].rank = rank
			rank++
		}
	}
	return a
}

// Runs returns the runs of one extracted page alone (words on one
// baseline at one angle, in reading order), without the blocks, tables and
// pairs Analyze builds: for a reader that needs only the runs of a page it
// does not keep, such as a page's text turned a quarter.
func Runs(p *pdftext.Page) []Run {
	if p == nil || !(p.Width > 0) || !(p.Height > 0) || !finite(p.Width) || !finite(p.Height) {
		return nil
	}
	out := &Page{Number: p.Number, Width: p.Width, Height: p.Height, Words: p.Words}
	runsOf(p, out).release()
	return out.Runs
}

// runsOf starts the analysis of page p into out: its words placed, their
// runs built and the overlay marked.
func runsOf(p *pdftext.Page, out *Page) *analysis {
	a := &analysis{page: out, words: p.Words, sc: getScratch()}
	if len(a.words) > maxWords {
		a.words = a.words[:maxWords]
	}
	out.Segments = p.Segments[:min(len(p.Segments), maxSegments):min(len(p.Segments), maxSegments)]
	a.rules = newRuleIndex(out.Segments, a.sc)
	a.measure()
	a.buildRuns()
	a.markOverlays()
	return a
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// sane clamps a box to the page and a margin of one page around it, NaN
// to 0: a hostile file's coordinates cannot overflow the grids.
func sane(b Box, w, h float64) Box {
	c := func(v, lo, hi float64) float64 {
		if !(v >= lo) {
			return lo
		}
		return min(v, hi)
	}
	return Box{c(b.X0, -w, 2*w), c(b.Y0, -h, 2*h), c(b.X1, -w, 2*w), c(b.Y1, -h, 2*h)}
}

// WordBox is word i's box in displayed points.
func (p *Page) WordBox(i int) Box {
	if i < 0 || i >= len(p.Words) {
		return Box{}
	}
	return wordBox(p.Words[i].BBox, p.Width, p.Height)
}

func wordBox(b pdftext.BBox, w, h float64) Box {
	return Box{X0: b.Left * w, Y0: b.Top * h, X1: (b.Left + b.Width) * w, Y1: (b.Top + b.Height) * h}
}

func (b Box) center() (float64, float64) { return (b.X0 + b.X1) / 2, (b.Y0 + b.Y1) / 2 }

// measure places every word in its direction's frame.
func (a *analysis) measure() {
	pw, ph := a.page.Width, a.page.Height
	a.g = zeroed(&a.sc.g, len(a.words))
	sizes := emptied(&a.sc.sizes, len(a.words))
	for i := range a.words {
		w := &a.words[i]
		g := &a.g[i]
		g.box = sane(wordBox(w.BBox, pw, ph), pw, ph)
		g.run = -1
		ang := w.Angle
		if !finite(ang) {
			ang = 0
		}
		ang = math.Mod(math.Mod(ang, 360)+360, 360)
		q := math.Round(ang/90) * 90
		if math.Abs(ang-q) <= axisSnap {
			g.key = int(q) % 360
		} else {
			g.key = int(math.Round(ang)) % 360
			g.diagonal = true
		}
		f := frameOf(float64(g.key))
		if g.diagonal {
			f = frameOf(ang)
		}
		g.fs = w.FontSize
		if !(g.fs > 0) || g.fs > max(pw, ph) {
			g.fs = 0 // unknown: taken from the box below
		}
		bl := w.Baseline
		hasBase := (bl[0] != bl[2] || bl[1] != bl[3]) && sane(Box{bl[0], bl[1], bl[2], bl[3]}, pw, ph) == Box{bl[0], bl[1], bl[2], bl[3]}
		if g.diagonal && hasBase {
			g.p0, g.p1 = f.p(bl[0], bl[1]), f.p(bl[2], bl[3])
			if g.p1 < g.p0 {
				g.p0, g.p1 = g.p1, g.p0
			}
			g.s = f.t(bl[0], bl[1])
			if g.fs <= 0 || !finite(g.fs) {
				g.fs = 10
			}
			g.t0, g.t1 = g.s-0.8*g.fs, g.s+0.25*g.fs
		} else {
			b := g.box
			g.p0, g.p1 = math.Inf(1), math.Inf(-1)
			g.t0, g.t1 = math.Inf(1), math.Inf(-1)
			for _, c := range [4][2]float64{{b.X0, b.Y0}, {b.X1, b.Y0}, {b.X0, b.Y1}, {b.X1, b.Y1}} {
				pp, tt := f.p(c[0], c[1]), f.t(c[0], c[1])
				g.p0, g.p1 = min(g.p0, pp), max(g.p1, pp)
				g.t0, g.t1 = min(g.t0, tt), max(g.t1, tt)
			}
			if g.fs <= 0 || !finite(g.fs) {
				g.fs = max(g.t1-g.t0, 1)
			}
			g.s = g.t1 - 0.22*(g.t1-g.t0)
			if hasBase {
				if s := f.t(bl[0], bl[1]); s >= g.t0-0.5*g.fs && s <= g.t1+0.5*g.fs {
					g.s = s
				}
			}
		}
		sizes = append(sizes, g.fs)
	}
	a.med = 10
	if len(sizes) > 0 {
		slices.Sort(sizes)
		a.med = sizes[len(sizes)/2]
	}
}

// runItem is a word as buildRuns sorts it: baseline, start along the
// text, index.
type runItem struct {
	s, p0 float64
	wi    int
}

// runBuild is a run under construction, in its frame.
type runBuild struct {
	start     int // of its words in the build order (Run.Words once built)
	last, n   int // the last word joined and the word count
	p0, p1    float64
	t0, t1, s float64
	fs        float64
	key       int
	diagonal  bool
}

// buildRuns joins words on one baseline, in one direction and size, with
// word-sized gaps and no drawn rule between them, into runs. A run's
// baseline is its first word's, never chained, so a run cannot drift from
// one row onto the next.
func (a *analysis) buildRuns() {
	// The words of each direction (key 0…359), in word order, laid out
	// direction by direction in one array: a counting sort, not a map of
	// growing lists.
	var count [361]int
	for i := range a.g {
		count[a.g[i].key+1]++
	}
	for k := 1; k < len(count); k++ {
		count[k] += count[k-1]
	}
	all := zeroed(&a.sc.items, len(a.g))
	fill := count
	for i := range a.g {
		g := &a.g[i]
		all[fill[g.key]] = runItem{g.s, g.p0, i}
		fill[g.key]++
	}
	// Per direction, words sorted by baseline fall into bands (baselines
	// within baselineTol of the band's first word, never chained); a band
	// sorted along the text splits into runs at wide gaps, size changes
	// and drawn rules. A run's words are consecutive in that order.
	runs := emptied(&a.sc.rb, len(a.g)) // a run per word at most
	order := make([]int, 0, len(a.g))
	aside, spare := a.sc.aside[:0], a.sc.spare[:0]
	for k := range 360 {
		items := all[count[k]:count[k+1]]
		if len(items) == 0 {
			continue
		}
		slices.SortFunc(items, func(x, y runItem) int { return cmp.Compare(x.s, y.s) })
		for i := 0; i < len(items); {
			tol := baselineTol * a.g[items[i].wi].fs
			j := i + 1
			for j < len(items) && items[j].s-items[i].s <= tol {
				j++
			}
			band := items[i:j]
			slices.SortFunc(band, func(x, y runItem) int { return cmp.Compare(x.p0, y.p0) })
			// A word printed over the run's own words (a stray glyph, an
			// overprinted copy) does not end the run: it is set aside and
			// read after, with the others like it, in a pass of its own
			// (a few passes at most; a pile of words on one spot is then
			// read as it comes).
			pending := band
			for pass := 0; len(pending) > 0; pass++ {
				rest := aside[:0]
				cur := -1
				for _, it := range pending {
					g := &a.g[it.wi]
					if cur >= 0 {
						r := &runs[cur]
						fs := max(r.fs, g.fs)
						gap := g.p0 - r.p1
						if gap < -0.5*fs && pass < maxOverprintPasses {
							rest = append(rest, it)
							continue
						}
						if gap <= runGap*fs && gap >= -0.5*fs && fs <= sizeRatio*min(r.fs, g.fs) &&
							(g.diagonal || !a.columnRule(k, a.g[r.last].p1, g.p0, (max(a.g[r.last].t0, g.t0)+min(a.g[r.last].t1, g.t1))/2, fs)) {
							r.last, r.n = it.wi, r.n+1
							r.p1 = max(r.p1, g.p1)
							r.t0, r.t1 = min(r.t0, g.t0), max(r.t1, g.t1)
							r.fs = max(r.fs, g.fs)
							g.run = cur
							order = append(order, it.wi)
							continue
						}
					}
					cur = len(runs)
					g.run = cur
					runs = append(runs, runBuild{start: len(order), last: it.wi, n: 1, p0: g.p0, p1: g.p1, t0: g.t0, t1: g.t1, s: g.s, fs: g.fs, key: k, diagonal: g.diagonal})
					order = append(order, it.wi)
				}
				// The words set aside become the next pass's (copied out
				// of the scratch the next pass refills).
				aside = rest
				pending = append(spare[:0], rest...)
				spare = pending
			}
			i = j
		}
	}
	a.sc.aside, a.sc.spare = aside[:0], spare[:0]
	a.page.Runs = make([]Run, len(runs))
	a.rb = runs
	for ri := range runs {
		r := &runs[ri]
		words := order[r.start : r.start+r.n : r.start+r.n]
		box := a.g[words[0]].box
		angle := 0.0
		for _, wi := range words {
			box = box.Union(a.g[wi].box)
			angle += normDeg(a.words[wi].Angle)
		}
		if r.diagonal {
			angle /= float64(len(words))
		} else {
			angle = float64(r.key)
		}
		a.page.Runs[ri] = Run{Words: words, Angle: math.Round(angle*100) / 100, Box: box, Text: a.join(words), FontSize: r.fs}
		if r.diagonal {
			a.page.Runs[ri].Layer = LayerOverlay
		}
	}
}

// maxOverprintPasses bounds the passes that read words printed over a
// run apart from it.
const maxOverprintPasses = 4

// columnRule reports whether a drawn rule stands between text ending at
// p1 and text starting at p0 on one baseline (size fs), across the text
// at t: a column rule between two cells. A stroke closer than a tenth of
// the size to either side (a glyph drawn as strokes, an underline's end)
// belongs to the text, not to a column between.
func (a *analysis) columnRule(key int, p1, p0, t, fs float64) bool {
	c := columnClear * fs
	return a.rules.crossAlong(key, p1+c, p0-c, t)
}

// maxCandidates bounds the neighbours one run is compared with when
// blocks are built: only a page of thousands of runs piled on one spot
// reaches it.
const maxCandidates = 256

func normDeg(d float64) float64 {
	if !finite(d) {
		return 0
	}
	return math.Mod(math.Mod(d, 360)+360, 360)
}

// join writes words in order: a space between words, none where two
// words touch on one baseline (a glyph split off by a font change, or the
// letters of diagonal text that poppler-style extraction leaves apart).
func (a *analysis) join(words []int) string {
	var b strings.Builder
	for k, wi := range words {
		if k > 0 {
			prev := &a.g[words[k-1]]
			g := &a.g[wi]
			touching := prev.key == g.key && math.Abs(prev.s-g.s) < baselineTol*g.fs &&
				g.p0-prev.p1 < noSpaceGap*max(g.fs, prev.fs) && g.p0-prev.p1 > -0.5*g.fs
			if !touching {
				b.WriteByte(' ')
			}
		}
		b.WriteString(a.words[wi].Text)
	}
	return b.String()
}

// markOverlays puts large type drawn over other text (a watermark, a
// stamp's big letters) in the overlay layer; diagonal runs are already
// there. Large type that stands alone (a sheet number in its title block)
// stays drawing text.
func (a *analysis) markOverlays() {
	big := overlaySize * a.med
	var grid *boxGrid
	defer func() { releaseGrid(grid) }()
	for ri := range a.page.Runs {
		r := &a.page.Runs[ri]
		if r.Layer == LayerOverlay || r.FontSize < big || r.FontSize < 12 {
			continue
		}
		if grid == nil {
			grid = newPointGrid(a.page.Width, a.page.Height, 64, len(a.g), func(wi int) (float64, float64, bool) {
				x, y := a.g[wi].box.center()
				return x, y, a.g[wi].fs < big
			})
		}
		covered := 0
		grid.query(r.Box, func(wi int) bool {
			if a.g[wi].run != ri {
				covered++
			}
			return covered < 2
		})
		if covered >= 2 {
			r.Layer = LayerOverlay
		}
	}
}
