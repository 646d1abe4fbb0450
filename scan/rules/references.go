package rules

import (
	"strings"

	"planreview/lazyregexp"
	"planreview/scan/model"
	"planreview/scan/sheets"
	"planreview/scan/textmatch"
)

// sheetTarget is a sheet number as references print it: a designator of
// one to three letters and a number, with the parts and suffixes numbering
// schemes use (A-501, A4.2, S3.01, IF111-2, E201B).
const sheetTarget = `[A-Z]{1,3}[-.]?\d{1,4}(?:\.\d{1,3})?(?:-[A-Z0-9]{1,2}|[A-Z])?`

var (
	// Detail and section callouts: "3/A4.2", "A/A-501", "SEE: 1 / E201B".
	// A letter mark is written against its slash ("A/A-501"): "W/ R-19"
	// (with), "T/ SLAB" (top of) are abbreviations, and W is never a mark.
	calloutRe = lineSet.MustCompile(`(?:^|[\s(:])(?:\d{1,3}\s*/\s*|[A-VX-Z]/)(` + sheetTarget + `)\b`)
	// Written references: "SEE SHEET A-501", "REFER TO DWG S-201", "ON
	// DRAWINGS S3.01 & S3.11", "SEE A-501" (the bare form only with an index).
	writtenRe = lineSet.MustCompile(`(?i)\b(?:SEE|REFER\s+TO|ON|IN)\s+(?:SHEETS?|DWGS?\.?|DRAWINGS?)\s*:?\s*(` + sheetTarget + `)\b`)
	bareSeeRe = lineSet.MustCompile(`(?i)\b(?:SEE|REFER\s+TO)\s+(?:DETAIL\s+|DET\.?\s+)?(` + sheetTarget + `)\b`)
	// schemeCalloutRe is a written callout whose sheet part has no
	// designator letter: "SEE 3/12", "SEE DETAIL 2/5.1.02", "REFER TO
	// 3/100-01". Only the set's own numbering scheme makes the sheet part
	// a sheet (schemeTarget), and the verb before the mark keeps
	// dimensions ("3/4\""), scales ("1/8") and dates out.
	schemeCalloutRe = lineSet.MustCompile(`(?i)\b(?:SEE|REFER\s+TO)\s+(?:(?:DETAIL|DET\.?|SECTION)\s+)?(?:\d{1,3}|[A-Z])\s*/\s*(\d(?:[\d.\-\x{2010}-\x{2013}\x{2212}]*\d)?)`)
	// notSheetAfterRe is what follows a number that makes it a measure or a
	// date rather than a sheet: inch and foot marks, a further slash
	// ("3/12/2024"), a ratio, an equals sign ("1/8\" = 1'-0\""), a unit.
	// A full stop ends the sentence: the target took every digit after it.
	notSheetAfterRe = lazyregexp.New(`(?i)^(?:\s*["'\x{2032}\x{2033}\x{201D}/:=]|\s*(?:IN|INCH(?:ES)?|MM|CM|M|FT|FEET|PLY|SCALE)\b)`)
	targetListRe    = lineSet.MustCompile(`^\s*(?:&|,|AND)\s*(` + sheetTarget + `)\b`)
	targetSuffixR   = lineSet.MustCompile(`(?:-[A-Z0-9]{1,2}|[A-Z])$`)
	// documentAfterRe is a word after a reference's target that makes the
	// target a document's name: "SEE T-24 FORMS", "REFER TO ACI-318
	// STANDARD".
	documentAfterRe = lazyregexp.New(`(?i)^\s*(?:FORMS?|REPORTS?|CALCS?\.?|CALCULATIONS?|COMPLIANCE|DOCUMENTATION|DOCUMENTS?|REQUIREMENTS|STANDARDS?|SPEC(?:IFICATION)?S?|MANUAL|CERTIFICATES?|WORKSHEETS?)\b`)
)

// seriesOf strips a part suffix: "IF111-A" and "IF111-2" are parts of
// IF111, "E201B" of E201.
func seriesOf(s string) string {
	if loc := targetSuffixR.Regexp().FindStringIndex(s); loc != nil && loc[0] > 0 {
		return s[:loc[0]]
	}
	return s
}

// checkSheetReferences reports references to sheets not in the set. With a
// sheet index, any strong sheet number referred to is checked. Without one,
// the set's own title-block numbers are the list: a reference counts when
// its target has the shape of the set's numbers (or of their series, A-501
// beside A-101, IF111-2 beside IF111-A), so equipment codes, panel
// circuits and grid lines that merely look like numbers are not read as
// sheets.
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
	for _, pv := range present {
		n := strings.ToUpper(pv.Ident.Number)
		shapes[model.FineShape(n)] = true
		shapes[model.FineShape(seriesOf(n))] = true
		shapes[looseShape(n)] = true
	}
	looksLikeSheet := func(target string) bool {
		if n, ok := sheets.ParseNumber(target); ok && n.Strong && indexed {
			return true
		}
		return shapes[model.FineShape(target)] || shapes[model.FineShape(seriesOf(target))]
	}
	var out []observation
	// schemeTarget: a sheet part without a designator letter is a sheet
	// only when the page's file numbers its sheets by a scheme without
	// letters (a single sheet by its own number's shape), the part follows
	// that scheme, and some sheet of the set has its exact
	// shape (digit counts included): "99" in a set numbered 1 to 23,
	// "9.9.99" beside 5.1.00, "999-99" beside 100-00.
	fine := map[string]bool{}
	for _, pv := range present {
		fine[model.FineShape(strings.ToUpper(pv.Ident.Number))] = true
	}
	schemeTarget := func(pv *pageView, target, after string) bool {
		if pv.set == nil || pv.set.Scheme == "" || strings.ContainsAny(pv.set.Scheme, "A") {
			return false
		}
		if pv.set.NumberedPages == 0 || sheets.Shape(target) != pv.set.Scheme {
			return false
		}
		return fine[model.FineShape(target)] && !notSheetAfterRe.MatchString(after)
	}
	for _, pv := range rv.pages {
		if !pv.Readable {
			continue
		}
		reported := map[string]bool{}
		wanted := func(target string) bool {
			key := sheets.NumberKey(target)
			_, in := present[key]
			return !in && !reported[key] && !elsewhere[key] && key != pv.Ident.Key && (looksLikeSheet(target) || shapes[looseShape(target)])
		}
		for li, l := range pv.Lines {
			var spans [][3]int // reference start, end; target start
			for _, m := range pv.findAll(schemeCalloutRe, li) {
				if schemeTarget(pv, l.Text[m[2]:m[3]], l.Text[m[3]:]) {
					spans = append(spans, [3]int{m[0], m[3], m[2]})
				}
			}
			for _, re := range []*textmatch.Regexp{calloutRe, writtenRe, bareSeeRe} {
				if re == bareSeeRe && !indexed {
					continue
				}
				for _, m := range pv.findAll(re, li) {
					spans = append(spans, [3]int{m[0], m[3], m[2]})
					// A list of targets after the first: "S3.01 & S3.11".
					end := m[3]
					for {
						lm := targetListRe.Regexp().FindStringSubmatchIndex(l.Text[end:])
						if lm == nil {
							break
						}
						spans = append(spans, [3]int{end + lm[2], end + lm[3], end + lm[2]})
						end += lm[3]
					}
				}
			}
			// A legend's sample callout ("1" over "A101" beside "SHEET
			// NUMBER") shows what a callout looks like; it points nowhere.
			if target, ref, words, ok := stackedReference(pv, li, wanted); ok && !pv.Explains(words) {
				reported[sheets.NumberKey(target)] = true
				out = append(out, observation{page: pv, words: words,
					vars: map[string]string{"target": target, "reference": ref}, evidence: "ref " + ref})
			}
			for _, sp := range spans {
				target := strings.ToUpper(strings.Trim(l.Text[sp[2]:sp[1]], ".,;:"))
				key := sheets.NumberKey(target)
				if _, ok := present[key]; ok || reported[key] || elsewhere[key] || key == pv.Ident.Key || !looksLikeSheet(target) && !schemeTarget(pv, target, l.Text[sp[1]:]) {
					continue
				}
				if documentAfterRe.MatchString(l.Text[sp[1]:]) || pv.Explains(l.WordsInSpan(sp[0], sp[1])) {
					continue
				}
				reported[key] = true
				ref := strings.TrimSpace(strings.TrimLeft(l.Text[sp[0]:sp[1]], "(:"))
				out = append(out, observation{page: pv, words: l.WordsInSpan(sp[0], sp[1]),
					vars:     map[string]string{"target": target, "reference": ref},
					evidence: "ref " + ref})
			}
		}
	}
	return out
}
