package rules

import (
	"strings"

	"planreview/textmatch"
)

// Template marks: what a master template (office standard notes, a
// master specification) leaves for the drafter to edit, printed as is.
var (
	// "PAINTED (Px) IN A SEMI-GLOSS FINISH": a finish tag whose number is
	// the template's lower-case variable, in a note otherwise in capitals.
	// A unit in parentheses ("(MPa)", "(kN)") is not a tag followed by x.
	templateTagRe = lineSet.MustCompile(`\(([A-Z]{1,3}-?x)\)`)
	// "SHALL BE CAPABLE OF [RAISE/LOWER AND]", "[DESIGN SPECIFIC BLANKS]":
	// a bracketed option of words, no digits (a code citation "[2014 NEC
	// 110.21]" and a symbol "[Z#]" are not options).
	templateOptionRe = lineSet.MustCompile(`\[([A-Z][A-Z'.]*(?:\s*/\s*|\s+)[A-Z][A-Z'./\s]*)\]`)
	// An option is the template's when it is an incomplete phrase (it
	// starts or ends with a connective: the sentence reads on with or
	// without it) or tells the editor what to do. A bracketed remark of
	// the drawing ("[BY OTHERS]", "[NOT IN CONTRACT]", "[ON/OFF]") is
	// neither.
	templateConnectiveRe = textmatch.MustCompile(`^(?:AND|OR|AND/OR)\b|\b(?:AND|OR|AND/OR)$`)
	templateEditorRe     = textmatch.MustCompile(`\b(?:BLANKS?|INSERT|SPECIFY|EDIT|DELETE|SELECT\s+ONE|OPTIONS?|(?:DESIGN|PROJECT|JOB)\s+SPECIFIC)\b`)
)

// templateMark finds a template mark on line li of the page: where it is
// and how to name it, or ok false.
func templateMark(pv *pageView, li int) (mark string, ok bool) {
	text := pv.Lines[li].Text
	if m := pv.find(templateTagRe, li); m != nil {
		// The rest of the line in capitals: the lower-case x is the
		// template's variable, not the drawing's own mixed-case text.
		rest := text[:m[0]] + text[m[1]:]
		if rest == strings.ToUpper(rest) {
			return text[m[0]:m[1]], true
		}
	}
	for _, m := range pv.findAll(templateOptionRe, li) {
		inner := strings.Join(strings.Fields(text[m[2]:m[3]]), " ")
		inner = strings.ReplaceAll(strings.ReplaceAll(inner, " /", "/"), "/ ", "/")
		if templateConnectiveRe.MatchString(inner) || templateEditorRe.MatchString(inner) {
			return text[m[0]:m[1]], true
		}
	}
	return "", false
}
