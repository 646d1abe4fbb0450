package rules

import (
	"sync"

	"planreview/scan/model"
	"planreview/scan/sheets"
	"planreview/textmatch"
)

// fileModel is a file of the set's model with what the checks remember of
// it.
type fileModel struct {
	*model.File

	// indexOnce guards index, what the review knows of the file's sheet
	// index (outcomes.go), read once for the rules that ask.
	indexOnce sync.Once
	index     indexState
}

// scaledViewRe names views drawn to scale; diagrams, schedules, notes and
// legends are not.
var (
	scaledViewRe   = textmatch.MustCompile(`(?i)\b(?:PLANS?|ELEVATIONS?|SECTIONS?|DETAILS?|LAYOUT|FRAMING)\b`)
	unscaledViewRe = textmatch.MustCompile(`(?i)\b(?:DIAGRAMS?|SCHEDULES?|NOTES|LEGENDS?|SPECIFICATIONS?|CALCULATIONS?|RISER|ONE-LINE|SINGLE-LINE|COVER|INDEX|TITLE\s+SHEET)\b`)
)

// schemeLearned reports whether the page's file has a numbering scheme
// that most of its readable sheets follow: only then is a page without a
// number a title block missing its number rather than a number the engine
// could not read.
func (pv *pageView) schemeLearned() bool {
	return pv.set != nil && pv.set.SchemeLearned()
}

// codeAnalysisExpected reports whether the review read, in full, a sheet
// of a permit set for a building on which the codes, occupancy and
// construction type are stated: a cover, general or code-analysis sheet,
// in a set that draws a building (an architectural sheet or a floor plan;
// a PV or electrical-only set has no occupancy to state). It returns that
// sheet, where the statement should have been. Without one, "not stated"
// would only mean "not on the sheets submitted", which a single sheet or a
// partial set does not claim to be.
func (rv *review) codeAnalysisExpected() (*pageView, bool) {
	pv, _ := rv.codeAnalysisSheet()
	return pv, pv != nil
}

// codeAnalysisSheet returns the cover, general or code sheet of an in-scope
// building permit set read in full, or else (unread) one that exists but
// could not be read in full.
func (rv *review) codeAnalysisSheet() (read, unread *pageView) {
	building := false
	for _, pv := range rv.pages {
		if pv.Ident.Type == sheets.TypeArchitectural || floorPlanRe.MatchString(pv.Ident.Title) {
			building = true
			break
		}
	}
	if !building {
		return nil, nil
	}
	for _, pv := range rv.pages {
		if pv.set == nil || pv.set.DocType != sheets.DocPermitSet {
			continue
		}
		if pv.Ident.Type != sheets.TypeGeneral && !pv.IsCodeSheet() {
			continue
		}
		if pv.Readable && (pv.Model == nil || pv.Model.TextLayer == sheets.TextFull) && pv.drawingAreaWords() >= 10 {
			return pv, nil
		}
		if unread == nil {
			unread = pv
		}
	}
	return nil, unread
}

// drawingAreaWords counts the words outside the title-block zone (right
// 35 %, bottom 25 %): a cover scanned under a vector title block has none,
// so its code analysis was not read.
func (pv *pageView) drawingAreaWords() int {
	n := 0
	for _, w := range pv.Page.Words {
		cx, cy := w.BBox.Left+w.BBox.Width/2, w.BBox.Top+w.BBox.Height/2
		if cx < 0.65 && cy < 0.75 {
			n++
		}
	}
	return n
}

var floorPlanRe = textmatch.MustCompile(`(?i)\bFLOOR\s+PLAN\b`)

// checkCodeAnalysisUnread is the third outcome of the code-analysis
// checks: the set has a cover or code sheet the engine could not read in
// full, so it can say neither "stated" nor "not stated".
func checkCodeAnalysisUnread(rv *review, r *Rule) []observation {
	read, unread := rv.codeAnalysisSheet()
	if read != nil || unread == nil || rv.scopes[unread.FileIndex].Class != ScopeInScope {
		return nil
	}
	return []observation{{page: unread, vars: map[string]string{"where": unread.sheetNumberOr()},
		evidence: "code analysis unread " + unread.sheetNumberOr()}}
}
