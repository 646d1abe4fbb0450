package rules

import (
	"planreview/textmatch"
	"strings"
)

// Issue status read from the title block by the set model. A permit set is
// issued for construction or for the permit ("ISSUED FOR PERMIT", "BUILDING
// RULES CONSENT", "CONSTRUCTION DOCUMENTS", "AUSFÜHRUNGSPLANUNG"): those are
// not findings. A sheet issued at an earlier stage or for another purpose
// (bid, tender, addendum, design development, schematic or conceptual
// design, a draft, for review or approval) is: the drawings may still
// change before construction. The strong stamps (NOT FOR CONSTRUCTION,
// PRELIMINARY) anywhere on a sheet are completeness-preliminary-stamp's.
var (
	stageStatusRe = lineSet.MustCompile(`(?i)\bPRE-?BID\b|\bBID\s+(?:SET|ISSUE|DOCUMENTS?|PACKAGE)\b|\bFOR\s+BID(?:DING)?\b|\bTENDER\b|\bADDENDUM\b|\bDESIGN\s+DEVELOPMENT\b|\bSCHEMATIC\s+DESIGN\b|\bCONCEPT(?:UAL)?\s+DESIGN\b|\bDRAFT\b|\bFOR\s+(?:REVIEW|APPROVAL|COMMENTS?|INFORMATION|COORDINATION|PRICING)\b|\b[1-9]\d?\s*%\s*(?:CD'?S|CONSTRUCTION\s+DOC(?:UMENT)?S|DD|SD)\b|\bVORENTWURF|\bENTWURFSPLANUNG\b|\bPROGETTO\s+(?:PRELIMINARE|DEFINITIVO)\b`)
)

// checkIssueStatus reports, once per sheet, a title-block status of an
// earlier stage than construction, anchored on the status as printed.
func checkIssueStatus(rv *review, r *Rule) []observation {
	strong := rv.eng.ruleByID("completeness-preliminary-stamp")
	var out []observation
	for _, pv := range rv.pages {
		if !pv.Readable || pv.Model == nil {
			continue
		}
		status, words := strings.Join(strings.Fields(pv.Model.IssueStatus), " "), pv.Model.StatusWords
		// A revision row ("1 ADDENDUM 1 6/10/20") records an earlier
		// issue and a notes paragraph states conditions ("samples sent
		// for review and approval"): neither is the sheet's status.
		if status != "" && pv.History(words) {
			status, words = "", nil
		}
		if status == "" {
			status, words = pv.titleBlockStage()
		}
		// A drawing phase schedule dates the stages as they are issued:
		// its last dated stage is the sheet's, unless the status read
		// names a stage or construction itself.
		if !stageStatusRe.MatchString(status) && !laterStageRe.MatchString(status) {
			if s, w := pv.phaseScheduleStage(); s != "" {
				status, words = s, w
			}
		}
		m := stageStatusRe.FindString(status)
		// A status naming the permit beside another purpose ("PERMIT /
		// BID SET", "ISSUED FOR REVIEW & PERMIT") is an issue for permit.
		if m == "" || strong != nil && strong.Pattern.Regexp().MatchString(status) || permitPurposeRe.MatchString(status) || pv.issuedForPermit() {
			continue
		}
		out = append(out, observation{page: pv, words: words,
			vars:     map[string]string{"status": status, "stage": strings.ToUpper(m)},
			evidence: "status " + strings.ToUpper(status)})
	}
	return out
}

func (e *Engine) ruleByID(id string) *Rule {
	for _, r := range e.rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// permitPurposeRe names the permit (or its review, plan check) as a purpose
// of an issue; "PRE-PERMIT" is not.
var permitPurposeRe = textmatch.MustCompile(`(?i)(?:^|[^-\w])(?:PERMIT|PLAN\s+CHECK)\b`)

// permitIssueRe is an issue for the permit or for construction.
var permitIssueRe = lineSet.MustCompile(`(?i)\bISSUED\s+FOR\s+(?:PERMIT|CONSTRUCTION|BUILDING\s+(?:PERMIT|CONSENT))\b|\bPERMIT\s+(?:SET|SUBMITTAL|ISSUE)\b|^\s*FOR\s+CONSTRUCTION\s*$`)

// issuedForPermit reports whether the title-block zone also records an
// issue for permit or construction: an earlier bid or review issue in the
// revision history is then history, not the sheet's status.
func (pv *pageView) issuedForPermit() bool {
	w, h := pv.Page.Width, pv.Page.Height
	for li, l := range pv.Lines {
		if (l.Box.X0 > 0.65*w || l.Box.Y0 > 0.75*h) && pv.matches(permitIssueRe, li) {
			return true
		}
	}
	return false
}

// titleBlockStage finds a stage stamp the set model did not take as the
// sheet's status: a short line in the title-block zone (right third or
// bottom quarter) that names a stage.
func (pv *pageView) titleBlockStage() (string, []int) {
	w, h := pv.Page.Width, pv.Page.Height
	for li, l := range pv.Lines {
		if len(l.Words) > 8 || !(l.Box.X0 > 0.65*w || l.Box.Y0 > 0.75*h) {
			continue
		}
		if pv.matches(stageStatusRe, li) && !pv.History(l.Words) {
			return strings.Join(strings.Fields(l.Text), " "), l.Words
		}
	}
	return "", nil
}
