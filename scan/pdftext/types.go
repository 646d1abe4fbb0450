// Package pdftext extracts words with exact boxes from PDF pages, on top of
// pdfcpu's parsed document, so that every finding can point at its evidence.
package pdftext

// BBox is a box as fractions (0–1) of the page as displayed (CropBox after
// /Rotate), origin at the top-left corner: the contract's bbox convention.
type BBox struct {
	Left   float64 `json:"left"`
	Top    float64 `json:"top"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Rect is a rectangle in PDF default user space of the page (unrotated,
// bottom-left origin): [llx, lly, urx, ury]. Annotations are placed with it.
type Rect [4]float64

// Word is one run of non-space glyphs on a page.
type Word struct {
	Text     string  `json:"text"`
	BBox     BBox    `json:"bbox"`
	Rect     Rect    `json:"rect"`
	FontSize float64 `json:"fontSize"`
	// Norm is Text in NFKC with ligatures expanded: what search and rules match.
	Norm string `json:"-"`
	// Angle is the direction of the word's baseline in degrees,
	// counter-clockwise from the displayed page's x axis, in [0, 360):
	// 0 for ordinary text, 90 for text read bottom to top, 30 for a stamp
	// set at 30°. Words are still split like poppler's (by quarter turns),
	// so diagonal text comes as short words the layout joins into runs.
	Angle float64 `json:"-"`
	// Baseline is the start and end of the word's baseline (x0, y0, x1,
	// y1) in displayed points: exact also for diagonal text, whose BBox
	// is only the axis-aligned hull.
	Baseline [4]float64 `json:"-"`
}

// Reasons a page has no machine-readable text.
const (
	ReasonImageOnly     = "image_only"      // only raster images (a scan)
	ReasonNoTextObjects = "no_text_objects" // vector art only, e.g. text as outlines
	// ReasonUnmappedText: text is drawn, but in fonts with no way back to
	// Unicode (no ToUnicode, glyph names or known encoding), so it reads as
	// nothing. Added by the extractor; treat it like the other two.
	ReasonUnmappedText = "unmapped_text"
)

// Page is what the engine sees of one page.
type Page struct {
	Number   int     `json:"page"`   // 1-based
	Width    float64 `json:"width"`  // displayed width in points (after /Rotate)
	Height   float64 `json:"height"` // displayed height in points (after /Rotate)
	Rotate   int     `json:"rotate"` // 0, 90, 180 or 270
	Readable bool    `json:"readable"`
	Reason   string  `json:"reason,omitempty"`
	Words    []Word  `json:"words"`
	// Segments are the page's stroked lines and rectangle edges in
	// displayed points, at least 2 pt long, the first maxSegmentsPerPage
	// (20,000) in drawing order; SegmentsDropped says more were drawn.
	Segments        []Segment `json:"-"`
	SegmentsDropped bool      `json:"-"`
	// Images are the boxes of the images painted on the page (image
	// XObjects and inline images: the unit square through the transform
	// they were painted with), the first maxImagesPerPage (4,096) in
	// drawing order; ImagesDropped says more were drawn.
	Images        []Box `json:"-"`
	ImagesDropped bool  `json:"-"`
	// Signatures are the boxes of the page's signed signature fields (a
	// box without area for an invisible one): a seal or signature applied
	// digitally.
	Signatures []Box `json:"-"`
	// SmallPaths are the painted subpaths no larger than a large glyph
	// (maxSmallPath), the first maxSmallPathsPerPage in drawing order;
	// SmallPathsDropped says more were drawn. Text drawn as strokes or
	// outlines is found among them.
	SmallPaths        []SmallPath `json:"-"`
	SmallPathsDropped bool        `json:"-"`
	// Glyphs counts the glyphs the page's text showed, UnmappedGlyphs
	// those whose font gives no text for them: words missing letters
	// ("ETAL" for METAL) when they are many.
	Glyphs, UnmappedGlyphs int `json:"-"`
	// Ink is where the page drew vector marks, curves and the shortest
	// strokes included (nil when not extracted).
	Ink *Ink `json:"-"`
	// Err is set when this page failed on its own; the other pages still read.
	Err error `json:"-"`
}
