package rules

import (
	"fmt"
	"planreview/scan/layout"
	"planreview/textmatch"
	"strings"
)

// Unfinished text: what the drafter left to fill in. Each pattern matches a
// value inside one text line; what decides that it is a placeholder and
// not a size, an abbreviation or a contractor's instruction is written
// beside it.
var (
	// "F.F.L. xx.xx", "XX'-XX"": only x's, with the separators of a number.
	// Sizes (2X4, 48X48) have digits, so never match.
	xPlaceholderRe = lineSet.MustCompile(`(?:^|[\s:=(])([xX]{2,}(?:[.,:\-/'"][xX]+)*['"]?)(?:$|[\s.,;)])`)
	// "? GROUNDING ELECTRODE": a lone run of question marks as a value.
	questionRe = lineSet.MustCompile(`(?:^|\s)(\?{1,3})(?:\s|$)`)
	// "projektant: #", "vodja projekta: #CVVVV": a field whose value is an
	// unexpanded autotext mark (a hash without a number; "#5 BAR" and
	// "BEDROOM #2" have digits, "REVISION#" is a caption).
	hashRe = lineSet.MustCompile(`:\s*(#[A-Za-z]*)\s*$`)
	// "LOCATION TO BE DETERMINED", "TBD": decisions not yet made. "TO BE
	// SELECTED BY OWNER" is a finish chosen later by design and not listed.
	tbdRe = lineSet.MustCompile(`(?i)\b(?:TBD|T\.B\.D\.?|TO\s+BE\s+(?:DETERMINED|CONFIRMED|DECIDED|ADVISED|SPECIFIED))\b|\bTO\s+LATER\s+DETAIL\b|\bDETAILS?\s+TO\s+FOLLOW\b`)
	// "CABINET HARDWARE: TBD BY OWNER": finishes and furnishings the
	// owner selects; no code or construction requirement waits on them.
	ownerRe = textmatch.MustCompile(`(?i)\bOWNER'?S?\b`)
	// A colour waits on nobody's code: "PAINT COLOR TBD" is a selection
	// whoever makes it.
	colourTBDRe      = textmatch.MustCompile(`(?i)\b(?:COLOU?RS?|STAIN)\b`)
	ownerSelectionRe = textmatch.MustCompile(`(?i)\b(?:HARDWARE|COLOU?RS?|PAINT|FINISH(?:ES)?|TILES?|CARPET|CABINET(?:S|RY)?|COUNTER\s*TOPS?|APPLIANCES?|FURNITURE|FURNISHINGS|ACCESSORIES|WALL\s*PAPER|STAIN|BACKSPLASH|PLUMBING\s+FIXTURE\s+MODELS?|LIGHT\s+FIXTURE\s+(?:MODELS?|SELECTIONS?))\b`)
	// "GENERAL CONTRACTOR: TBD", "SPECIAL INSPECTOR: TO BE DETERMINED": a
	// party hired after the permit (a contractor bids on the permitted
	// set), named on the permit application, not in the drawings; no
	// construction information waits on it.
	partyTBDRe = textmatch.MustCompile(`(?i)^\s*(?:(?:GENERAL|PRIME|ELECTRICAL|MECHANICAL|PLUMBING|ROOFING|FRAMING|FIRE\s+(?:SPRINKLER|ALARM)|SOLAR|PV)\s+)?(?:CONTRACTOR|BUILDER|SUB-?CONTRACTOR|INSTALLER|SPECIAL\s+INSPECTOR|INSPECTION\s+AGENCY|TESTING\s+(?:AGENCY|LAB(?:ORATORY)?)|LENDER)(?:'S)?(?:\s+(?:NAME|LICENSE(?:\s+NO\.?)?|LIC\.?\s*#?))?\s*[:\-–]?\s*(?:TBD|T\.B\.D\.?|TO\s+BE\s+(?:DETERMINED|SELECTED|ADVISED|CONFIRMED))\.?\s*$`)
	// "PROVIDE ____ LF OF BLOCKING": a blank inside a sentence. A blank at
	// the end of a line or after a label ("INSPECTOR: ______", "APPROVED
	// BY ______") is a fill-in line of a form meant for the field.
	blankRe = lineSet.MustCompile(`(?i)\b[A-Z][A-Z0-9'.]*\s+(_{3,})\s+[A-Z0-9]`)
	// "VA TO VERIFY NUMBER AND LOCATIONS", "VERIFY BLOCKING REQ'D AND
	// LOCATIONS WITH VA": information the owner or designer still owes.
	verifyRe = lineSet.MustCompile(`(?i)^(?:\d{1,3}\.?\s+)?(?:(?:VA|OWNER|ARCHITECT|ENGINEER|DESIGNER|CLIENT)\s+TO\s+)?VERIFY\s+\S.*$`)
	// A contractor's standing instruction to check the site is not a
	// placeholder: "FIELD VERIFY ALL NEW CONDITIONS", "CONTRACTOR SHALL
	// VERIFY ALL JOB SITE CONDITIONS AND RELATED DIMENSIONS".
	// So is checking a product against its maker's data: "VERIFY ROUGH
	// OPENING W/ WINDOW MFR.".
	verifyStandingRe = textmatch.MustCompile(`(?i)\b(?:ALL|EXISTING|CONDITIONS|DIMENSIONS?|PRIOR\s+TO|BEFORE|IN\s+(?:THE\s+)?FIELD|FIELD|SITE|CONTRACTOR|SHALL|SUBCONTRACTOR|G\.?C\.?)\b|(?:\bW/|\bWITH)\s*(?:THE\s+)?(?:[A-Z]+\s+)?(?:MFR|MANUF|MANUFACTURER|SUPPLIER|VENDOR|FABRICATOR)S?\b`)
	// A coordination note: the step is confirming or coordinating with a
	// named party ("TO BE CONFIRMED W/ OWNER", "VERIFY AND COORDINATE …
	// WITH OWNER"), not a decision left open. Confirming a value against
	// another quantity ("TO BE CONFIRMED WITH CIVIL PAVEMENT THICKNESS")
	// still leaves it open.
	coordinationRe = textmatch.MustCompile(`(?i)\b(?:CONFIRM(?:ED)?|COORDINATED?)\b(?:\s+\S+){0,8}?\s+(?:W/|WITH\b)\s*(?:THE\s+)?(?:OWNER|CLIENT|TENANT|USER|ARCHITECT|ENGINEER|DESIGNER|CONSULTANT|AHJ|UTILITY|OWNER'S\s+REP(?:RESENTATIVE)?)\b`)
	verifyOwnerRe  = textmatch.MustCompile(`(?i)\b(?:VA|OWNER|ARCHITECT|ENGINEER|DESIGNER|CLIENT)\s+TO\s+VERIFY\b|\bWITH\s+(?:THE\s+)?(?:VA|OWNER|CLIENT)\b`)
	// The tasks of a statement of special inspections ("VERIFY
	// REINFORCEMENT", "VERIFY USE OF REQUIRED DESIGN MIX", IBC Table
	// 1705.3) are what the inspector verifies, not what the designer owes.
	inspectionPageRe = lineSet.MustCompile(`(?i)\bSPECIAL\s+INSPECTIONS?\b|\bVERIFICATION\s+AND\s+INSPECTION\b|\bINSPECTION\s+(?:SCHEDULE|CHECKLIST)\b`)
)

// formFieldWordRe is the caption of a form's fill-in line: "Name - Title
// ______ Signature ______ Date ______" has no colons, but its blanks follow
// the field they are for.
var formFieldWordRe = textmatch.MustCompile(`(?i)^(?:NAME|TITLE|SIGNATURE|SIGNED|DATE|PHONE|TEL|EMAIL|E-MAIL|LICENSE|LIC|NO|NUMBER|INITIALS|PRINT|BY|ADDRESS|COMPANY|FIRM|STAMP)$`)

// formFieldBlank reports whether the blank after before is a form's
// fill-in line: the word just before it names a field.
func formFieldBlank(before string) bool {
	f := strings.Fields(before)
	if len(f) == 0 {
		return false
	}
	return formFieldWordRe.MatchString(strings.Trim(f[len(f)-1], ".#:-"))
}

// checkUnfinishedText reports placeholders and deferred decisions left in
// the notes and schedules: one finding per distinct text on a sheet.
func checkUnfinishedText(rv *review, r *Rule) []observation {
	var out []observation
	for _, pv := range rv.pages {
		if !pv.Readable {
			continue
		}
		inspectionPage := false
		for li := range pv.Lines {
			inspectionPage = inspectionPage || pv.matches(inspectionPageRe, li)
		}
		// One finding per kind of placeholder on a sheet, anchored on its
		// first occurrence: a keynote list that defers ten items is one
		// comment for the examiner, not ten.
		first := map[string]int{} // kind → index in out
		more := map[string]int{}
		add := func(li, start, end int, kind, what string) {
			l := pv.Lines[li]
			text := strings.TrimSpace(l.Text[start:end])
			if text == "" {
				return
			}
			if i, ok := first[kind]; ok {
				if !strings.EqualFold(out[i].vars["text"], text) {
					more[kind]++
				}
				return
			}
			first[kind] = len(out)
			out = append(out, observation{page: pv, words: l.WordsInSpan(start, end),
				vars:     map[string]string{"text": text, "what": what, "more": ""},
				evidence: "unfinished " + kind + " " + strings.ToUpper(strings.Join(strings.Fields(text), " "))})
		}
		for li, l := range pv.Lines {
			// A legend's sample tags ("XX", "XXX") and an abbreviation
			// list's definitions ("TBD  TO BE DETERMINED") explain the
			// drawing's conventions; they are not its notes.
			if pv.Explains(l.Words) {
				continue
			}
			if m := pv.find(xPlaceholderRe, li); m != nil {
				add(li, 0, len(l.Text), "x", "a placeholder ("+l.Text[m[2]:m[3]]+") where a value belongs")
				continue
			}
			if m := pv.find(questionRe, li); m != nil && layout.WordCount(l.Text) > 1 {
				add(li, 0, len(l.Text), "?", "a question mark where a value belongs")
				continue
			}
			if m := pv.find(blankRe, li); m != nil && !strings.HasSuffix(strings.TrimSpace(l.Text[:m[2]]), ":") && !formFieldBlank(l.Text[:m[2]]) {
				add(li, 0, len(l.Text), "_", "a blank left in a note")
				continue
			}
			if m := pv.find(hashRe, li); m != nil {
				add(li, 0, len(l.Text), "#", "an unfilled field ("+l.Text[m[2]:m[3]]+")")
				continue
			}
			if mark, ok := templateMark(pv, li); ok {
				add(li, 0, len(l.Text), "template", "a template's mark left unedited ("+mark+")")
				continue
			}
			if m := pv.find(tbdRe, li); m != nil {
				// A value to be confirmed with a named party is a
				// coordination step ("LOCKSETS TO BE CONFIRMED W/ OWNER"):
				// the value is drawn, its confirmation comes in construction.
				if coordinationRe.MatchString(l.Text[m[0]:]) {
					continue
				}
				// A finish the owner will choose (hardware, colours, tile)
				// is a selection, not missing construction information; so
				// is a contractor not yet hired.
				if ownerRe.MatchString(l.Text) && ownerSelectionRe.MatchString(l.Text) || colourTBDRe.MatchString(l.Text) || partyTBDRe.MatchString(l.Text) {
					continue
				}
				add(li, 0, len(l.Text), "tbd", "a decision left open ("+strings.TrimSpace(l.Text[m[0]:m[1]])+")")
				continue
			}
			if pv.matches(verifyRe, li) {
				rest := l.Text[strings.Index(strings.ToUpper(l.Text), "VERIFY")+len("VERIFY"):]
				// The owner still owes the answer; otherwise a standing
				// instruction to the contractor is not a placeholder.
				// A check the contractor coordinates with a party ("VERIFY
				// AND COORDINATE ALL … WITH OWNER PRIOR TO …") is a
				// standing step too; the owner owing information ("OWNER
				// TO VERIFY", "VERIFY LOCATIONS WITH VA") is not.
				owes := verifyOwnerRe.MatchString(l.Text) && !coordinationRe.MatchString(l.Text)
				if !owes && (verifyStandingRe.MatchString(rest) || inspectionPage) {
					continue
				}
				add(li, 0, len(l.Text), "verify", "information still to be verified")
			}
		}
		for kind, n := range more {
			out[first[kind]].vars["more"] = fmt.Sprintf(" (and %d more like it on this sheet)", n)
		}
	}
	return out
}
