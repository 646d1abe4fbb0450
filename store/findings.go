package store

import "math"

// Finding is one rule result, stored with its version in the contract's
// shape; Rect (PDF user space) is kept for the marked-up PDF and not shown.
type Finding struct {
	ID            string   `json:"findingId"`
	Number        int      `json:"number"` // tag on the marked-up sheet and its summary
	RuleID        string   `json:"ruleId"`
	Title         string   `json:"title"`
	Severity      string   `json:"severity"`
	Confidence    float64  `json:"confidence"`
	Rationale     string   `json:"rationale"`
	GoverningRefs string   `json:"governingRefs"`
	Topic         string   `json:"topic"`
	Source        string   `json:"source"`
	FileID        string   `json:"fileId"`
	Sheet         SheetRef `json:"sheet"`
	Anchors       []Anchor `json:"evidenceAnchors"`
	Fingerprint   string   `json:"fingerprint"`
	// Disposition is nil until someone acts on the finding (open).
	Disposition *Disposition `json:"disposition,omitempty"`
	// TemplateID names the comment template an examiner comment came from.
	TemplateID string `json:"templateId,omitempty"`
	// Round is the finding's standing against the previous completed
	// version (nil in a job's first round).
	Round *FindingRound `json:"round,omitempty"`
}

// SheetRef names the sheet a finding is on.
type SheetRef struct {
	Page        int    `json:"page"`
	SheetNumber string `json:"sheetNumber"`
	SheetTitle  string `json:"sheetTitle"`
	SheetType   string `json:"sheetType"`
}

// Anchor is a spot on a page that shows the evidence.
type Anchor struct {
	Page int        `json:"page"`
	BBox BBox       `json:"bbox"`
	Rect [4]float64 `json:"rect"`
	Text string     `json:"text"`
}

// BBox is a box as fractions of the displayed page, top-left origin.
type BBox struct {
	Left   float64 `json:"left"`
	Top    float64 `json:"top"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// BoxFractionDecimals is the precision of box fractions wherever they are
// shown (JSON, CSV): a millionth of an A0 sheet's long side is about a
// micrometre, far below any drawing's precision, and it keeps float noise
// (0.035797999999999996) out of what partners and spreadsheets read.
const BoxFractionDecimals = 6

// RoundFraction rounds a box fraction to BoxFractionDecimals places.
func RoundFraction(f float64) float64 {
	const scale = 1e6
	return math.Round(f*scale) / scale
}

// Rounded is the box with every fraction rounded (see RoundFraction).
func (b BBox) Rounded() BBox {
	return BBox{RoundFraction(b.Left), RoundFraction(b.Top), RoundFraction(b.Width), RoundFraction(b.Height)}
}
