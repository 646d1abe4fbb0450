package rules

import (
	"strings"

	"planreview/scan/model"
	"planreview/scan/sheets"
)

// checkSheetReferences reports references to sheets not in the set (the
// model's callouts, matchline tags and written sheet references, legend
// samples excluded). With a sheet index, any strong sheet number referred
// to is checked. Without one, the set's own title-block numbers are the
// list: a reference counts when its target has the shape of the set's
// numbers (or of their series, A-501 beside A-101, IF111-2 beside
// IF111-A), so equipment codes, panel circuits and grid lines that merely
// look like numbers are not read as sheets.
func checkSheetReferences(rv *review, r *Rule) []observation {
	present := rv.presentSheets()
	if len(present) == 0 {
		return nil
	}
	indexed := len(rv.indexPages()) > 0
	// Sheets the index lists as submitted apart (BY OTHERS, UNDER
	// SEPARATE PERMIT) are accounted for: a note may point at them.
	elsewhere := map[string]bool{}
	for _, ip := range rv.indexPages() {
		for _, e := range ip.Index {
			if notExpected(e) {
				elsewhere[e.Key] = true
			}
		}
	}
	shapes := map[string]bool{}
	fine := map[string]bool{}
	for _, pv := range present {
		n := strings.ToUpper(pv.Ident.Number)
		shapes[model.FineShape(n)] = true
		shapes[model.FineShape(model.SeriesOf(n))] = true
		shapes[looseShape(n)] = true
		fine[model.FineShape(n)] = true
	}
	looksLikeSheet := func(target string) bool {
		if n, ok := sheets.ParseNumber(target); ok && n.Strong && indexed {
			return true
		}
		return shapes[model.FineShape(target)] || shapes[model.FineShape(model.SeriesOf(target))]
	}
	// schemeTarget: a sheet part without a designator letter is a sheet
	// only when the page's file numbers its sheets by a scheme without
	// letters (a single sheet by its own number's shape), the part follows
	// that scheme, and some sheet of the set has its exact shape (digit
	// counts included): "99" in a set numbered 1 to 23, "9.9.99" beside
	// 5.1.00, "999-99" beside 100-00.
	schemeTarget := func(pv *pageView, ref model.Reference) bool {
		if pv.set == nil || pv.set.Scheme == "" || strings.ContainsAny(pv.set.Scheme, "A") {
			return false
		}
		if pv.set.NumberedPages == 0 || sheets.Shape(ref.Target) != pv.set.Scheme {
			return false
		}
		return fine[model.FineShape(ref.Target)] && !ref.MeasureAfter
	}
	var out []observation
	for _, pv := range rv.pages {
		if !pv.Readable {
			continue
		}
		reported := map[string]bool{}
		for _, ref := range pv.References() {
			if ref.Kind != model.RefCallout && ref.Kind != model.RefMatchline && ref.Kind != model.RefSheet {
				continue
			}
			if ref.Sample || ref.Unlettered && !schemeTarget(pv, ref) || ref.Bare && !indexed {
				continue
			}
			key := sheets.NumberKey(ref.Target)
			if _, ok := present[key]; ok || reported[key] || elsewhere[key] || key == pv.Ident.Key {
				continue
			}
			if ref.Stacked {
				// A callout on two lines may drop the hyphen the title
				// block prints: its geometry is the context a number
				// alone lacks.
				if !looksLikeSheet(ref.Target) && !shapes[looseShape(ref.Target)] {
					continue
				}
			} else if !looksLikeSheet(ref.Target) && !schemeTarget(pv, ref) || ref.NamesDocument {
				continue
			}
			reported[key] = true
			out = append(out, observation{page: pv, words: ref.Words,
				vars:     map[string]string{"target": ref.Target, "reference": ref.Text},
				evidence: "ref " + ref.Text})
		}
	}
	return out
}

// looseShape is a sheet number's shape without its hyphens and part
// suffix, marked apart from FineShape's: a bubble often drops the hyphen
// the title block prints (A301 in a bubble, A-101 in the title block).
// Only callouts on two lines use it.
func looseShape(s string) string {
	return "~" + strings.ReplaceAll(model.FineShape(model.SeriesOf(strings.ToUpper(s))), "-", "")
}
