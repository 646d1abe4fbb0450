// Package layout turns the words and rules of one extracted page into the
// structure a reader sees: runs of words at their true angle, lines that
// never join stacked rows, blocks split by white space and drawn rules,
// ruled and unruled tables, and label/value pairs. It is the layer between
// pdftext (words, segments) and the document model (package model, which
// reads title blocks and numbering with package sheets):
// words → layout → document model → checks → findings.
//
// Coordinates are displayed page points (CropBox after /Rotate), origin at
// the top-left corner, y growing downwards: pdftext.BBox scaled by the
// page's Width and Height.
package layout

import (
	"math"

	"planreview/scan/pdftext"
)

// Box is an axis-aligned box in displayed page points, top-left origin:
// the one box type of the layout, the document model and the checks.
// Geometry works in points rather than fractions so that horizontal and
// vertical distances compare on the same scale.
type Box struct{ X0, Y0, X1, Y1 float64 }

func (b Box) Width() float64   { return b.X1 - b.X0 }
func (b Box) Height() float64  { return b.Y1 - b.Y0 }
func (b Box) CenterX() float64 { return (b.X0 + b.X1) / 2 }
func (b Box) CenterY() float64 { return (b.Y0 + b.Y1) / 2 }

// Encloses reports whether o's centre lies inside b.
func (b Box) Encloses(o Box) bool {
	cx, cy := o.CenterX(), o.CenterY()
	return cx >= b.X0 && cx <= b.X1 && cy >= b.Y0 && cy <= b.Y1
}

// ContainsPoint reports whether (x, y) lies inside b or on its edge.
func (b Box) ContainsPoint(x, y float64) bool {
	return x >= b.X0 && x <= b.X1 && y >= b.Y0 && y <= b.Y1
}

// GapTo is the distance between b and o, zero when they overlap.
func (b Box) GapTo(o Box) float64 {
	dx := max(0, max(o.X0-b.X1, b.X0-o.X1))
	dy := max(0, max(o.Y0-b.Y1, b.Y0-o.Y1))
	return math.Hypot(dx, dy)
}

// Union is the smallest box holding b and o.
func (b Box) Union(o Box) Box {
	return Box{min(b.X0, o.X0), min(b.Y0, o.Y0), max(b.X1, o.X1), max(b.Y1, o.Y1)}
}

// Layer tells drawing text from text laid over the drawing.
type Layer uint8

const (
	// LayerText is ordinary drawing and note text.
	LayerText Layer = iota
	// LayerOverlay is a stamp, seal or watermark: large, rotated at an odd
	// angle or drawn over other text. Kept apart so it never joins lines.
	LayerOverlay
)

// Run is words on one baseline at one angle, in reading order.
type Run struct {
	Words    []int   // indexes into Page.Words
	Angle    float64 // degrees, counter-clockwise from the page's x axis, [0, 360)
	Box      Box     // axis-aligned bounds of the run's words
	Text     string  // words joined by single spaces; none between words that touch ("A-" "101", a stamp's letters)
	FontSize float64
	Layer    Layer
}

// Line is a reading line: runs at the same angle and baseline inside one
// block, left to right along the text direction.
type Line struct {
	Runs  []int // indexes into Page.Runs
	Words []int // indexes into Page.Words, in reading order
	Box   Box
	Text  string
	Angle float64
	Block int // index into Page.Blocks
	// FontSize is the largest of the line's runs; Layer its first run's.
	FontSize float64
	Layer    Layer
}

// Block is a region of text separated from others by white space or drawn
// rules; its lines are in reading order.
type Block struct {
	Lines []int // indexes into Page.Lines
	Box   Box
}

// Cell is one cell of a table; Words may be empty (a blank cell).
type Cell struct {
	Box   Box
	Words []int
	Text  string
}

// Row is one row of a table.
type Row struct {
	Box   Box
	Cells []Cell
}

// Table is a grid of cells, found from drawn rules (Ruled) or from aligned
// columns of text.
type Table struct {
	Box   Box
	Ruled bool
	Rows  []Row
}

// Placement says where a value sits relative to its label.
type Placement uint8

const (
	PlaceRight Placement = iota // "SCALE: 1/4" = 1'-0"" on one line
	PlaceBelow                  // "Occupancy Type:" above "R-3"
	PlaceCell                   // label cell, value in the next cell
)

// Pair is a label and its value as printed ("DWG NO:" → "100-00").
type Pair struct {
	Label      string // label text as printed, trailing colon removed
	LabelWords []int
	Value      string
	ValueWords []int
	Placement  Placement
	Box        Box // union of label and value
}

// Segment is a stroked straight line (or one edge of a stroked or filled
// rectangle) in displayed page points: the extractor's own type, so a
// page's segments are shared with it, not copied.
type Segment = pdftext.Segment

// Page is the layout of one page.
type Page struct {
	// Words are the page's words as extracted (the pdftext page's slice,
	// shared, not copied); the index space of Run.Words and the rest.
	Words    []pdftext.Word
	Number   int
	Width    float64
	Height   float64
	Runs     []Run
	Lines    []Line
	Blocks   []Block
	Tables   []Table
	Pairs    []Pair
	Segments []Segment
	// ReadAcross lists the lines a reader reads as one, left to right along
	// the text: lines on one baseline, at one angle and in one layer, a few
	// spaces apart, that the layout keeps apart only for a drawn rule or a
	// change of size between them (the cells of a table row, a note's
	// number in its own ruled column, a large tag inside a line of small
	// text). A line alone is not listed; a line is in one entry at most.
	ReadAcross [][]int
	// LineOf is the index in Lines of each word's line (-1 for a word
	// beyond the words considered).
	LineOf []int
	// Outlined holds the page's regions of text drawn as outlines when
	// they are a meaningful share of its text (PartlyOutlined), else nil.
	Outlined []OutlinedText
	// roles caches FindRoles for a page made by Analyze: the document
	// model and the pipeline's round sheets both ask for a page's roles.
	roles *rolesOnce
	// completeOnce builds the tables and pairs of a page made by
	// AnalyzeLines, once (Complete); nil on a page made by Analyze.
	completeOnce func()
}
