package layout

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

func findRun(p *Page, text string) *Run {
	for i := range p.Runs {
		if p.Runs[i].Text == text {
			return &p.Runs[i]
		}
	}
	return nil
}

func angleDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	return min(d, 360-d)
}

// TestRunsAtAngles: a stamp's words at 0, 30, 45, 90 and 270 degrees come
// out as one run at its true angle; axis text stays drawing text, text at
// an odd angle goes to the overlay layer; the drawing's own note beside it
// is not joined to it.
func TestRunsAtAngles(t *testing.T) {
	const stamp = "APPROVED FOR CONSTRUCTION"
	for _, deg := range []float64{0, 30, 45, 90, 270} {
		t.Run(fmt.Sprint(deg), func(t *testing.T) {
			s := newSheet(612, 792)
			s.text(300, 400, 14, deg, stamp)
			s.text(60, 80, 8, 0, "GENERAL NOTES")
			s.text(60, 700, 8, 0, "1. VERIFY ALL DIMENSIONS")
			p := s.analyze(t)
			r := findRun(p, stamp)
			if r == nil {
				t.Fatalf("no run %q; runs: %q", stamp, runTexts(p))
			}
			if angleDiff(r.Angle, deg) > 0.5 {
				t.Errorf("angle = %.2f, want %g", r.Angle, deg)
			}
			wantLayer := LayerText
			if math.Mod(deg, 90) != 0 {
				wantLayer = LayerOverlay
			}
			if r.Layer != wantLayer {
				t.Errorf("layer = %d, want %d", r.Layer, wantLayer)
			}
			if findRun(p, "GENERAL NOTES") == nil || findRun(p, "1. VERIFY ALL DIMENSIONS") == nil {
				t.Errorf("drawing text not kept apart: %q", runTexts(p))
			}
			// The run's line carries the same angle and text.
			found := false
			for _, l := range p.Lines {
				if l.Text == stamp {
					found = angleDiff(l.Angle, deg) <= 0.5
				}
			}
			if !found {
				t.Errorf("no line %q at %g°: %q", stamp, deg, lineTexts(p))
			}
		})
	}
}

func runTexts(p *Page) []string {
	out := make([]string, len(p.Runs))
	for i, r := range p.Runs {
		out[i] = r.Text
	}
	return out
}

// TestLargeOverlaidText: large type drawn across notes is an overlay (a
// watermark); the same size standing alone (a sheet number) is not.
func TestLargeOverlaidText(t *testing.T) {
	s := newSheet(612, 792)
	for i := range 12 {
		s.text(60, 200+float64(i)*10, 7, 0, fmt.Sprintf("NOTE %d: PROVIDE BLOCKING AT ALL WALL MOUNTED FIXTURES", i+1))
	}
	s.text(70, 250, 48, 0, "PRELIMINARY")
	s.text(480, 740, 36, 0, "A-101")
	p := s.analyze(t)
	if r := findRun(p, "PRELIMINARY"); r == nil || r.Layer != LayerOverlay {
		t.Errorf("watermark: %+v", r)
	}
	if r := findRun(p, "A-101"); r == nil || r.Layer != LayerText {
		t.Errorf("sheet number: %+v", r)
	}
}

// denseRows draws a table of cols × rows cells whose columns' baselines
// are staggered by 2.5 pt (a quarter of the size), as on dense CAD sheets:
// chaining baselines within 0.3 × size links every row of the page.
func denseRows(s *sheet, cols, rows int) {
	for c := range cols {
		for r := range rows {
			y := 100 + float64(r)*11 + float64(c)*2.5
			s.text(40+float64(c)*78, y, 10, 0, fmt.Sprintf("R%dC%d VALUE", r, c))
		}
	}
}

// TestBlocksSplitDenseRows: on a dense page lines never join stacked rows,
// columns apart are separate blocks, and a drawn rule splits a block.
func TestBlocksSplitDenseRows(t *testing.T) {
	s := newSheet(612, 792)
	denseRows(s, 4, 20)
	// Two paragraphs of one column, a rule between them.
	s.text(40, 400, 8, 0, "ABOVE THE RULE ONE")
	s.text(40, 410, 8, 0, "ABOVE THE RULE TWO")
	s.line(35, 413, 300, 413)
	s.text(40, 421, 8, 0, "BELOW THE RULE ONE")
	s.text(40, 431, 8, 0, "BELOW THE RULE TWO")
	pg := s.page(t)
	p := Analyze(pg)
	want := map[string]bool{}
	for c := range 4 {
		for r := range 20 {
			want[fmt.Sprintf("R%dC%d VALUE", r, c)] = true
		}
	}
	for _, l := range p.Lines {
		if strings.HasPrefix(l.Text, "R") && !want[l.Text] {
			t.Errorf("line joins cells: %q", l.Text)
		}
		delete(want, l.Text)
	}
	if len(want) > 0 {
		t.Errorf("%d cells not read as lines of their own", len(want))
	}

	blockOf := func(text string) int {
		for _, l := range p.Lines {
			if l.Text == text {
				return l.Block
			}
		}
		t.Fatalf("no line %q", text)
		return -1
	}
	if blockOf("R0C0 VALUE") != blockOf("R19C0 VALUE") {
		t.Errorf("a column of stacked rows is split into blocks")
	}
	if blockOf("R0C0 VALUE") == blockOf("R0C1 VALUE") {
		t.Errorf("columns on staggered baselines share a block")
	}
	if blockOf("ABOVE THE RULE ONE") != blockOf("ABOVE THE RULE TWO") {
		t.Errorf("a paragraph is split")
	}
	if blockOf("ABOVE THE RULE TWO") == blockOf("BELOW THE RULE ONE") {
		t.Errorf("a drawn rule does not split the block")
	}
	// Block order is reading order: lines of a block are consecutive.
	for bi, b := range p.Blocks {
		for _, li := range b.Lines {
			if p.Lines[li].Block != bi {
				t.Fatalf("line %d lists block %d, block %d lists it", li, p.Lines[li].Block, bi)
			}
		}
	}
}

// TestRuleSplitsRow: a column rule between two words on one baseline
// makes two runs and two lines (two cells), not one.
func TestRuleSplitsRow(t *testing.T) {
	s := newSheet(612, 792)
	s.text(100, 100, 10, 0, "REV")
	s.line(124, 85, 124, 110)
	s.text(127, 100, 10, 0, "DATE")
	p := s.analyze(t)
	if got := lineTexts(p); !slices.Contains(got, "REV") || !slices.Contains(got, "DATE") {
		t.Errorf("lines = %q, want REV and DATE apart", got)
	}
}

// TestStrokeTouchingAWordIsNoColumnRule: a short stroke drawn against
// a word (a glyph drawn as strokes) does not cut the run a column rule
// would.
func TestStrokeTouchingAWordIsNoColumnRule(t *testing.T) {
	s := newSheet(612, 792)
	s.text(100, 200, 10, 0, "As indicated")
	s.line(114.2, 195, 114.2, 199)
	p := s.analyze(t)
	if findRun(p, "As indicated") == nil {
		t.Errorf("runs = %q, want \"As indicated\" whole", runTexts(p))
	}
}

// TestOverprintedWordKeepsTheRun: a word printed over a run's own words
// is read apart; the run goes on past it.
func TestOverprintedWordKeepsTheRun(t *testing.T) {
	s := newSheet(612, 792)
	s.text(100, 100, 10, 0, "SCALE 1:200 AT A1")
	s.text(136, 100, 10, 0, "1:")
	p := s.analyze(t)
	if findRun(p, "SCALE 1:200 AT A1") == nil || findRun(p, "1:") == nil {
		t.Errorf("runs = %q, want the scale whole and the stray 1: apart", runTexts(p))
	}
}

// TestReadAcross: the two cells of a ruled row are two lines read across
// as one; a cell farther along the row than a few spaces, a line of
// another row and text at another angle are not.
func TestReadAcross(t *testing.T) {
	s := newSheet(612, 792)
	s.text(100, 100, 10, 0, "REV")
	s.line(124, 85, 124, 110)
	s.text(127, 100, 10, 0, "DATE")
	s.text(300, 100, 10, 0, "FAR CELL")
	s.text(100, 140, 10, 0, "NEXT ROW")
	s.text(500, 300, 10, 90, "SIDEWAYS")
	p := s.analyze(t)
	var got []string
	for _, row := range p.ReadAcross {
		var texts []string
		for _, li := range row {
			texts = append(texts, p.Lines[li].Text)
		}
		got = append(got, strings.Join(texts, "|"))
	}
	if want := []string{"REV|DATE"}; !slices.Equal(got, want) {
		t.Errorf("read across = %q, want %q", got, want)
	}
}

func cellTexts(t Table) [][]string {
	var out [][]string
	for _, r := range t.Rows {
		var row []string
		for _, c := range r.Cells {
			row = append(row, c.Text)
		}
		out = append(out, row)
	}
	return out
}

// TestAnalyzeLinesThenComplete: a page whose lines are built first and
// its tables and pairs later, by whichever of several readers asks first,
// is the page Analyze builds at once.
func TestAnalyzeLinesThenComplete(t *testing.T) {
	s := newSheet(612, 792)
	xs := []float64{300, 330, 400, 560}
	ys := []float64{600, 615, 630}
	s.grid(xs, ys)
	s.text(303, 611, 8, 0, "REV")
	s.text(333, 611, 8, 0, "DATE")
	s.text(403, 611, 8, 0, "DESCRIPTION")
	s.text(303, 626, 8, 0, "1")
	s.text(333, 626, 8, 0, "01/05/24")
	s.text(403, 626, 8, 0, "ISSUED FOR PERMIT")
	s.text(60, 100, 10, 0, "SCALE: 1/4\" = 1'-0\"")
	pg := s.page(t)
	whole := Analyze(pg)
	p := AnalyzeLines(pg)
	if len(p.Lines) != len(whole.Lines) || len(p.Tables) != 0 || len(p.Pairs) != 0 {
		t.Fatalf("lines first: %d lines (want %d), %d tables, %d pairs (want none yet)", len(p.Lines), len(whole.Lines), len(p.Tables), len(p.Pairs))
	}
	// Readers on several goroutines may complete it at once (run with
	// -race): one builds, the others wait, and a later call does nothing.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(p.Complete)
	}
	wg.Wait()
	p.Complete()
	if !reflect.DeepEqual(p.Tables, whole.Tables) || !reflect.DeepEqual(p.Pairs, whole.Pairs) || !reflect.DeepEqual(p.LineOf, whole.LineOf) {
		t.Errorf("completed page differs from Analyze's: %d tables %d pairs, want %d %d", len(p.Tables), len(p.Pairs), len(whole.Tables), len(whole.Pairs))
	}
	if len(whole.Tables) == 0 || len(whole.Pairs) == 0 {
		t.Errorf("the test page should hold a table and a pair: %d, %d", len(whole.Tables), len(whole.Pairs))
	}
}

// TestRuledTable: a revision grid drawn with rules becomes rows and cells,
// blank cells included, each cell's words only.
func TestRuledTable(t *testing.T) {
	s := newSheet(612, 792)
	xs := []float64{300, 330, 400, 560}
	ys := []float64{600, 615, 630, 645, 660}
	s.grid(xs, ys)
	rows := [][]string{
		{"REV", "DATE", "DESCRIPTION"},
		{"1", "01/05/24", "ISSUED FOR PERMIT"},
		{"2", "02/10/24", "REVISED PER COMMENTS"},
		{"", "", ""},
	}
	for r, row := range rows {
		for c, text := range row {
			if text != "" {
				s.text(xs[c]+3, ys[r]+11, 8, 0, text)
			}
		}
	}
	// A frame around the sheet is not a table of one cell.
	s.rect(10, 10, 592, 772)
	p := s.analyze(t)
	var ruled []Table
	for _, tb := range p.Tables {
		if tb.Ruled {
			ruled = append(ruled, tb)
		}
	}
	if len(ruled) != 1 {
		t.Fatalf("%d ruled tables, want 1: %+v", len(ruled), p.Tables)
	}
	if got := cellTexts(ruled[0]); !slices.EqualFunc(got, rows, slices.Equal) {
		t.Errorf("cells = %q\nwant %q", got, rows)
	}
	// The rows read as lines of their own: no line crosses a column rule.
	for _, l := range p.Lines {
		if strings.Contains(l.Text, "DATE DESCRIPTION") || strings.Contains(l.Text, "1 01/05/24") {
			t.Errorf("line crosses a rule: %q", l.Text)
		}
	}
}

// TestRuledTableFilledBars: rules drawn as thin filled rectangles (as CAD
// exports draw heavy lines) are rules too.
func TestRuledTableFilledBars(t *testing.T) {
	s := newSheet(612, 792)
	bar := func(x, y, w, h float64) { fmt.Fprintf(&s.content, "%g %g %g %g re f\n", x, s.h-y-h, w, h) }
	for _, x := range []float64{100, 200, 300} {
		bar(x-0.5, 100, 1, 40)
	}
	for _, y := range []float64{100, 120, 140} {
		bar(100, y-0.5, 200, 1)
	}
	s.text(105, 114, 8, 0, "SHEET")
	s.text(205, 114, 8, 0, "A-101")
	s.text(105, 134, 8, 0, "DATE")
	s.text(205, 134, 8, 0, "2024-05-01")
	p := s.analyze(t)
	if len(p.Tables) != 1 || !p.Tables[0].Ruled {
		t.Fatalf("tables = %+v", p.Tables)
	}
	want := [][]string{{"SHEET", "A-101"}, {"DATE", "2024-05-01"}}
	if got := cellTexts(p.Tables[0]); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("cells = %q, want %q", got, want)
	}
}

// TestUnruledTable: a sheet index typed in aligned columns, wide apart,
// is one table of rows and cells; a paragraph beside it is not a table.
func TestUnruledTable(t *testing.T) {
	s := newSheet(612, 792)
	index := [][]string{
		{"A0.0", "COVER SHEET", "1"},
		{"A1.1", "FLOOR PLAN", "2"},
		{"A2.1", "ELEVATIONS", "3"},
		{"A3.1", "SECTIONS", "4"},
		{"S1.0", "FOUNDATION PLAN", "5"},
	}
	for r, row := range index {
		y := 200 + float64(r)*12
		s.text(60, y, 8, 0, row[0])
		s.text(120, y, 8, 0, row[1])
		s.text(260, y, 8, 0, row[2])
	}
	for r := range 6 {
		s.text(330, 200+float64(r)*12, 8, 0, "THE CONTRACTOR SHALL VERIFY ALL CONDITIONS ON SITE")
	}
	p := s.analyze(t)
	var found *Table
	for i := range p.Tables {
		if !p.Tables[i].Ruled {
			if found != nil {
				t.Fatalf("two unruled tables: %q and %q", cellTexts(*found), cellTexts(p.Tables[i]))
			}
			found = &p.Tables[i]
		}
	}
	if found == nil {
		t.Fatalf("no unruled table; lines %q", lineTexts(p))
	}
	if got := cellTexts(*found); !slices.EqualFunc(got, index, slices.Equal) {
		t.Errorf("cells = %q\nwant %q", got, index)
	}
}

// TestPairs: labels pair with values to the right, below and in the next
// cell; headers, notes and captions over same-size text do not.
func TestPairs(t *testing.T) {
	s := newSheet(792, 612)
	// Right: on one line, and set apart on the label's baseline.
	s.text(40, 60, 8, 0, "SCALE: 1:50")
	s.text(40, 80, 8, 0, "DATE: 2024-05-01 DRAWN BY: JD")
	s.text(40, 100, 8, 0, "Occupancy Group:")
	s.text(140, 100, 8, 0, "R-3")
	// Below.
	s.text(300, 60, 8, 0, "Occupancy Type:")
	s.text(300, 71, 8, 0, "R-3")
	s.text(300, 100, 5, 0, "PROJECT NO")
	s.text(300, 111, 9, 0, "1601")
	// Cells: a title block's grid.
	xs := []float64{500, 560, 680}
	ys := []float64{400, 420, 440, 460}
	s.grid(xs, ys)
	s.text(503, 413, 6, 0, "DWG NO:")
	s.text(563, 414, 10, 0, "100-00")
	s.text(503, 433, 6, 0, "SCALE")
	s.text(563, 434, 10, 0, "NOTED")
	s.text(503, 453, 6, 0, "SHEET")
	s.text(563, 454, 10, 0, "A-101")
	// Not pairs: a schedule header row, a long note, a caption over text
	// of its own size.
	hx := []float64{40, 80, 160, 300}
	hy := []float64{300, 315, 330}
	s.grid(hx, hy)
	for c, h := range []string{"NO.", "DATE", "DESCRIPTION"} {
		s.text(hx[c]+3, 311, 8, 0, h)
	}
	for c, v := range []string{"1", "01/05/24", "PERMIT SET"} {
		s.text(hx[c]+3, 326, 8, 0, v)
	}
	s.text(40, 400, 8, 0, "NOTE: ALL WORK SHALL COMPLY WITH THE 2021 IBC AND ALL LOCAL AMENDMENTS")
	s.text(40, 440, 8, 0, "GENERAL NOTES")
	s.text(40, 451, 8, 0, "VERIFY DIMENSIONS")

	p := s.analyze(t)
	got := map[string]bool{}
	for _, pr := range p.Pairs {
		got[fmt.Sprintf("%s → %s (%d)", pr.Label, pr.Value, pr.Placement)] = true
	}
	want := []string{
		fmt.Sprintf("SCALE → 1:50 (%d)", PlaceRight),
		fmt.Sprintf("DATE → 2024-05-01 (%d)", PlaceRight),
		fmt.Sprintf("DRAWN BY → JD (%d)", PlaceRight),
		fmt.Sprintf("Occupancy Group → R-3 (%d)", PlaceRight),
		fmt.Sprintf("Occupancy Type → R-3 (%d)", PlaceBelow),
		fmt.Sprintf("PROJECT NO → 1601 (%d)", PlaceBelow),
		fmt.Sprintf("DWG NO → 100-00 (%d)", PlaceCell),
		fmt.Sprintf("SCALE → NOTED (%d)", PlaceCell),
		fmt.Sprintf("SHEET → A-101 (%d)", PlaceCell),
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("missing pair %s", w)
		}
		delete(got, w)
	}
	for w := range got {
		t.Errorf("unexpected pair %s", w)
	}
}
