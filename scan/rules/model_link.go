package rules

import (
	"regexp"
	"sync"

	"planreview/scan/sheets"
)

// linkModels points every page view at its page of its file's set model
// and classifies each readable page from it: the number the set's
// numbering scheme chose (it reads short numbers such as "12" or "E1" that
// one page alone cannot), the title and the scale.
func linkModels(pages []*pageView, models []sheets.SetModel) {
	next := make([]int, len(models))
	files := make([]*fileModel, len(models))
	for fi := range models {
		files[fi] = &fileModel{SetModel: &models[fi]}
	}
	for _, pv := range pages {
		fi := pv.fileIndex
		if fi >= len(models) || next[fi] >= len(models[fi].Pages) {
			continue
		}
		pv.set = files[fi]
		pv.model = &models[fi].Pages[next[fi]]
		next[fi]++
		m := pv.model
		if pv.readable {
			pv.sheet = sheets.FromModel(pv.page, m, pv.lines)
		} else {
			// Not read for review, but the model may still name the sheet
			// its "not reviewed" finding is about.
			if m.SheetNumber != "" {
				pv.sheet.Number, pv.sheet.Key, pv.sheet.Type = m.SheetNumber, sheets.NumberKey(m.SheetNumber), sheets.TypeOf(m.SheetNumber)
				pv.sheet.NumberWords = m.NumberWords
			}
			pv.sheet.Title, pv.sheet.TitleWords = m.SheetTitle, m.TitleWords
			pv.sheet.Scale, pv.sheet.ScaleWords = m.Scale, m.ScaleWords
		}
		if pv.readable && m.TextLayer == sheets.TextFull {
			pv.set.readablePages++
			if pv.sheet.Number != "" {
				pv.set.numberedPages++
			}
		}
	}
}

// fileModel is a file's set model with the counts the checks share.
type fileModel struct {
	*sheets.SetModel
	readablePages int // read in full
	numberedPages int // of those, with a sheet number

	// indexOnce guards index, what the review knows of the file's sheet
	// index (outcomes.go), read once for the rules that ask.
	indexOnce sync.Once
	index     indexState
}

// settleDocTypes corrects a file the set model read as a non-construction
// drawing when the sheet classifier found full NCS sheet numbers (A-101,
// G-001) on its pages: a sheet numbered to the National CAD Standard is a
// construction document however little else its text says.
func settleDocTypes(pages []*pageView, models []sheets.SetModel) {
	ncs := make([]int, len(models))
	for _, pv := range pages {
		if pv.fileIndex < len(models) && pv.sheet.Type != sheets.TypeUnknown && pv.sheet.Type != "" {
			if n, ok := sheets.ParseNumber(pv.sheet.Number); ok && n.Strong {
				ncs[pv.fileIndex]++
			}
		}
	}
	for fi := range models {
		if models[fi].DocType != sheets.DocNonConstruction || ncs[fi] == 0 {
			continue
		}
		if len(models[fi].Pages) == 1 {
			models[fi].DocType = sheets.DocSingleSheet
		} else {
			models[fi].DocType = sheets.DocPermitSet
		}
	}
}

// scaledViewRe names views drawn to scale; diagrams, schedules, notes and
// legends are not.
var (
	scaledViewRe   = regexp.MustCompile(`(?i)\b(?:PLANS?|ELEVATIONS?|SECTIONS?|DETAILS?|LAYOUT|FRAMING)\b`)
	unscaledViewRe = regexp.MustCompile(`(?i)\b(?:DIAGRAMS?|SCHEDULES?|NOTES|LEGENDS?|SPECIFICATIONS?|CALCULATIONS?|RISER|ONE-LINE|SINGLE-LINE|COVER|INDEX|TITLE\s+SHEET)\b`)
	codeSheetRe    = regexp.MustCompile(`(?i)\b(?:COVER|TITLE\s+SHEET|CODE\s+(?:ANALYSIS|SUMMARY|REVIEW|COMPLIANCE|PLAN)|PROJECT\s+(?:DATA|INFORMATION|SUMMARY)|GENERAL\s+(?:INFORMATION|NOTES))\b`)
)

// schemeLearned reports whether the page's file has a numbering scheme
// that most of its readable sheets follow: only then is a page without a
// number a title block missing its number rather than a number the engine
// could not read.
func (pv *pageView) schemeLearned() bool {
	if pv.set == nil {
		return false
	}
	return pv.set.numberedPages >= 2 && pv.set.numberedPages*2 > pv.set.readablePages
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
		if pv.sheet.Type == sheets.TypeArchitectural || floorPlanRe.MatchString(pv.sheet.Title) {
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
		if pv.sheet.Type != sheets.TypeGeneral && !codeSheetRe.MatchString(pv.sheet.Title) {
			continue
		}
		if pv.readable && (pv.model == nil || pv.model.TextLayer == sheets.TextFull) && pv.drawingAreaWords() >= 10 {
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
	for _, w := range pv.page.Words {
		cx, cy := w.BBox.Left+w.BBox.Width/2, w.BBox.Top+w.BBox.Height/2
		if cx < 0.65 && cy < 0.75 {
			n++
		}
	}
	return n
}

var floorPlanRe = regexp.MustCompile(`(?i)\bFLOOR\s+PLAN\b`)

// checkCodeAnalysisUnread is the third outcome of the code-analysis
// checks: the set has a cover or code sheet the engine could not read in
// full, so it can say neither "stated" nor "not stated".
func checkCodeAnalysisUnread(rv *review, r *Rule) []observation {
	read, unread := rv.codeAnalysisSheet()
	if read != nil || unread == nil || rv.scopes[unread.fileIndex].Class != ScopeInScope {
		return nil
	}
	return []observation{{page: unread, vars: map[string]string{"where": unread.sheetNumberOr()},
		evidence: "code analysis unread " + unread.sheetNumberOr()}}
}
