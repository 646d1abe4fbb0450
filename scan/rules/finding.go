package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"planreview/scan/pdftext"
)

// Severities, most severe first.
const (
	SeverityCritical = "critical"
	SeverityHigh     = "high"
	SeverityMedium   = "medium"
	SeverityLow      = "low"
	SeverityInfo     = "info"
)

var severityRank = map[string]int{
	SeverityCritical: 0, SeverityHigh: 1, SeverityMedium: 2, SeverityLow: 3, SeverityInfo: 4,
}

// SeverityRank orders severities: 0 for critical up to 4 for info; unknown
// severities sort last.
func SeverityRank(s string) int {
	if r, ok := severityRank[s]; ok {
		return r
	}
	return len(severityRank)
}

// SourceRules is the Finding.Source of every finding this engine makes.
const SourceRules = "rules"

// Anchor is one piece of evidence on a page: the union box of the evidence
// words and their text.
type Anchor struct {
	Page int          `json:"page"`
	BBox pdftext.BBox `json:"bbox"`
	Rect pdftext.Rect `json:"rect"`
	Text string       `json:"text"`
}

// Finding is one rule result. FileID and FileIndex say which file of the set
// it is on; Page is 1-based within that file (0 for set-level findings that
// have no page, e.g. "no code edition stated anywhere").
type Finding struct {
	RuleID        string   `json:"ruleId"`
	Title         string   `json:"title"`
	Topic         string   `json:"topic"`
	Severity      string   `json:"severity"`
	Confidence    float64  `json:"confidence"`
	Rationale     string   `json:"rationale"`
	GoverningRefs string   `json:"governingRefs"`
	Source        string   `json:"source"`
	FileID        string   `json:"fileId"`
	FileIndex     int      `json:"-"`
	Page          int      `json:"page"`
	SheetNumber   string   `json:"sheetNumber"`
	SheetTitle    string   `json:"sheetTitle"`
	SheetType     string   `json:"sheetType"`
	Anchors       []Anchor `json:"evidenceAnchors"`
	Fingerprint   string   `json:"fingerprint"`
}

// fingerprint hashes what identifies the issue for a reviewer across
// resubmittals: the rule, the sheet number and the normalised evidence (text
// and value). File ids, page numbers and coordinates change between versions
// and are left out on purpose.
func fingerprint(ruleID, sheetNumber, evidence string) string {
	h := sha256.New()
	h.Write([]byte(ruleID))
	h.Write([]byte{0})
	h.Write([]byte(strings.ToUpper(strings.Join(strings.Fields(sheetNumber), ""))))
	h.Write([]byte{0})
	h.Write([]byte(normaliseEvidence(evidence)))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

var quoteMarks = strings.NewReplacer("’", "'", "′", "'", "”", `"`, "″", `"`, "“", `"`)

// normaliseEvidence upper-cases, unifies quote marks and collapses spaces, so
// that re-typed but identical notes keep their fingerprint.
func normaliseEvidence(s string) string {
	s = quoteMarks.Replace(s)
	return strings.ToUpper(strings.Join(strings.Fields(s), " "))
}

// SortFindings orders findings deterministically: severity (critical first),
// file in registration order, page, then sheet, rule, position and
// fingerprint so that equal keys never depend on map iteration.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if ra, rb := SeverityRank(a.Severity), SeverityRank(b.Severity); ra != rb {
			return ra < rb
		}
		if a.FileIndex != b.FileIndex {
			return a.FileIndex < b.FileIndex
		}
		if a.Page != b.Page {
			return a.Page < b.Page
		}
		if a.RuleID != b.RuleID {
			return a.RuleID < b.RuleID
		}
		at, bt := firstAnchorPos(a), firstAnchorPos(b)
		if at[0] != bt[0] {
			return at[0] < bt[0]
		}
		if at[1] != bt[1] {
			return at[1] < bt[1]
		}
		return a.Fingerprint < b.Fingerprint
	})
}

func firstAnchorPos(f Finding) [2]float64 {
	if len(f.Anchors) == 0 {
		return [2]float64{-1, -1}
	}
	return [2]float64{f.Anchors[0].BBox.Top, f.Anchors[0].BBox.Left}
}

// anchorFor builds the anchor of a set of words on a page: the union of
// their boxes (fractions and user space) and their text in reading order.
func anchorFor(p *pdftext.Page, words []int) (Anchor, bool) {
	if len(words) == 0 {
		return Anchor{}, false
	}
	var texts []string
	var l, t, r, b float64
	var rect pdftext.Rect
	for k, i := range words {
		w := p.Words[i]
		texts = append(texts, w.Text)
		wl, wt := w.BBox.Left, w.BBox.Top
		wr, wb := wl+w.BBox.Width, wt+w.BBox.Height
		if k == 0 {
			l, t, r, b = wl, wt, wr, wb
			rect = w.Rect
			continue
		}
		l, t, r, b = min(l, wl), min(t, wt), max(r, wr), max(b, wb)
		rect = pdftext.Rect{min(rect[0], w.Rect[0]), min(rect[1], w.Rect[1]), max(rect[2], w.Rect[2]), max(rect[3], w.Rect[3])}
	}
	return Anchor{
		Page: p.Number,
		BBox: pdftext.BBox{Left: l, Top: t, Width: r - l, Height: b - t},
		Rect: rect,
		Text: strings.Join(texts, " "),
	}, true
}
