// Package layout turns the words and rules of one extracted page into the
// structure a reader sees: runs of words at their true angle, lines that
// never join stacked rows, blocks split by white space and drawn rules,
// ruled and unruled tables, and label/value pairs. It is the layer between
// pdftext (words, segments) and the sheet and set model (package sheets):
// words → layout → sheet and set model → checks → findings.
//
// Coordinates are displayed page points (CropBox after /Rotate), origin at
// the top-left corner, y growing downwards: pdftext.BBox scaled by the
// page's Width and Height.
package layout

import "planreview/scan/pdftext"

// Box is an axis-aligned box in displayed page points, top-left origin.
type Box struct{ X0, Y0, X1, Y1 float64 }

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
	// LineOf is the index in Lines of each word's line (-1 for a word
	// beyond the words considered).
	LineOf []int
}
