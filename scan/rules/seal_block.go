package rules

import (
	"fmt"
	"strconv"
	"strings"

	"planreview/scan/model"
	"planreview/textmatch"
)

// An empty seal block on a set issued for permit: the sheets' title
// blocks keep a box for the design professional's seal, the set says it is
// issued for the permit, and the box is empty on its sheets. Whether a
// seal is required is state law (IBC 107.1 and IRC R106.1 defer to it), so
// the finding is a completeness item to confirm, not a code violation.
//
// The check reads the model: each sheet's seal blocks (model.SealBlocks:
// the box found by the title block's drawn rules, filled by words, an
// image or a drawing) and its issue as the title block or a stamp states
// it. A sheet counts as issued for permit only when its own status, a
// short line of its title block or a stamp names the permit, and nothing
// there says the drawings are preliminary, not for construction or a
// record of what was built. One finding for the set, naming the sheets;
// none when any permit sheet's block holds a seal (a set signed on one
// sheet per discipline is the signer's decision to explain), and "could
// not read" for the sheets whose block could not be read.

// permitNamedRe names the permit (or its plan check, a building consent)
// as the purpose of an issue; "PRE-PERMIT", "NOT PERMITTED" and a permit
// number field ("PERMIT NO.", "PERMIT #") do not.
var permitNamedRe = lineSet.MustCompile(`(?i)(?:^|[^-\w])(?:PERMIT|PLAN\s+CHECK|BUILDING\s+CONSENT)\b`)

// permitFieldRe is a permit-number field: the jurisdiction fills it in.
var permitFieldRe = textmatch.MustCompile(`(?i)\bPERMIT\s*(?:NO\b|NUMBER\b|#)`)

// notForPermitRe: an issue that is not for the permit, or a record.
var notForPermitRe = lineSet.MustCompile(`(?i)\bNOT\s+FOR\s+(?:CONSTRUCTION|PERMIT)\b|\bPRELIMINARY\b|\bAS[\s_-]*BUILT\b|\bRECORD\s+(?:DRAWINGS?|SET|DOCUMENTS?)\b|\bFOR\s+REVIEW\s+ONLY\b|\bDRAFT\b`)

// sealStatusWords: a title-block line longer than this is a note, not a
// status.
const sealStatusWords = 8

// permitIssue says how the sheet states an issue for permit: its status,
// a short title-block line or a stamp naming the permit, with the words;
// ok is false when none does or one says the sheet is not for permit.
func permitIssue(pv *pageView) (status string, words []int, ok bool) {
	var texts []string
	var found []int
	consider := func(text string, ws []int) {
		if pv.History(ws) {
			return
		}
		texts = append(texts, text)
		if status == "" && permitNamedRe.Regexp().MatchString(text) && !permitFieldRe.MatchString(text) {
			status, found = strings.Join(strings.Fields(text), " "), ws
		}
	}
	if pv.Model != nil && pv.Model.IssueStatus != "" {
		consider(pv.Model.IssueStatus, pv.Model.StatusWords)
	}
	w, h := pv.Page.Width, pv.Page.Height
	for li, l := range pv.Lines {
		if len(l.Words) > sealStatusWords || !(l.Box.X0 > 0.65*w || l.Box.Y0 > 0.75*h) {
			continue
		}
		if pv.matches(permitNamedRe, li) || pv.matches(notForPermitRe, li) {
			consider(l.Text, l.Words)
		}
	}
	for _, s := range pv.Stamps() {
		consider(s.Text, s.Words)
	}
	for _, t := range texts {
		if notForPermitRe.Regexp().MatchString(t) {
			return "", nil, false
		}
	}
	return status, found, status != ""
}

// checkSealBlock reports, once for the set, the sheets issued for permit
// whose seal blocks are all empty.
func checkSealBlock(rv *review, r *Rule) []observation {
	var empty []*pageView
	var captions []evidenceRef
	status, filled := "", false
	var statusPage *pageView
	var statusWords []int
	for _, pages := range rv.filePages() {
		fi := pages[0].FileIndex
		if !rv.underUSCodes(fi) || fi < len(rv.scopes) && rv.scopes[fi].Class == ScopeOutOfScope {
			continue
		}
		for _, pv := range pages {
			st, sw, ok := permitIssue(pv)
			if !ok {
				continue
			}
			state, words := sheetSeal(pv.SealBlocks())
			switch state {
			case model.SealFilled:
				filled = true
			case model.SealEmpty:
				empty = append(empty, pv)
				captions = append(captions, evidenceRef{page: pv, words: words})
				if status == "" {
					status, statusPage, statusWords = st, pv, sw
				}
			}
		}
	}
	if len(empty) == 0 || filled {
		return nil
	}
	first := empty[0]
	ob := observation{page: first, words: captions[0].words,
		vars: map[string]string{"sheets": sheetNames(empty), "count": strconv.Itoa(len(empty)),
			"status": status, "caption": sealCaption(first)},
		evidence: "seal block empty " + strings.ToUpper(status),
		also:     captions[1:]}
	if statusPage != nil && len(statusWords) > 0 {
		ob.also = append(ob.also, evidenceRef{page: statusPage, words: statusWords})
	}
	return []observation{ob}
}

// sheetSeal is what a sheet's seal blocks hold together: filled when one
// holds a seal, empty when every block read is empty (with their
// captions), unreadable when none was read, 0 when the sheet has none.
func sheetSeal(blocks []model.SealBlock) (model.SealState, []int) {
	var state model.SealState
	var words []int
	for _, b := range blocks {
		switch b.State {
		case model.SealFilled:
			return model.SealFilled, nil
		case model.SealEmpty:
			state = model.SealEmpty
			words = append(words, b.CaptionWords...)
		case model.SealUnreadable:
			if state == 0 {
				state = model.SealUnreadable
			}
		}
	}
	return state, words
}

// sealCaption is the caption of the sheet's first empty seal block.
func sealCaption(pv *pageView) string {
	for _, b := range pv.SealBlocks() {
		if b.State == model.SealEmpty {
			return b.Caption
		}
	}
	return ""
}

// sheetNames lists sheets by number (page when unnumbered), the first
// eight and a count of the rest.
func sheetNames(pvs []*pageView) string {
	var names []string
	for i, pv := range pvs {
		if i == 8 {
			names = append(names, fmt.Sprintf("%d more", len(pvs)-8))
			break
		}
		if pv.Ident.Number != "" {
			names = append(names, pv.Ident.Number)
		} else {
			names = append(names, fmt.Sprintf("page %d", pv.Page.Number))
		}
	}
	return joinAnd(names)
}

// sealCoverage says, for a file under US codes, which sheets issued for
// permit have a seal block that could not be read, so whether they were
// sealed was not checked.
func (rv *review) sealCoverage(pages []*pageView) []string {
	if len(pages) == 0 || !rv.checkActive("seal_block") || !rv.underUSCodes(pages[0].FileIndex) {
		return nil
	}
	var unread []*pageView
	for _, pv := range pages {
		if _, _, ok := permitIssue(pv); !ok {
			continue
		}
		if state, _ := sheetSeal(pv.SealBlocks()); state == model.SealUnreadable {
			unread = append(unread, pv)
		}
	}
	if len(unread) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("Whether the seal block is filled on the sheets issued for permit was not checked on %s: the seal block could not be read.", pageList(unread))}
}
