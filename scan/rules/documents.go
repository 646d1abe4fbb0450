package rules

import (
	"strings"

	"planreview/lazyregexp"
	"planreview/scan/textmatch"
)

// referencedDocument is a kind of document the sheets rely on without
// drawing it: how a note points at it, and how a submitted sheet or file
// that is that document is titled.
type referencedDocument struct {
	kind    string
	mention *textmatch.Regexp  // run on every line: prefiltered by its literals
	present *lazyregexp.Regexp // run on sheet titles
	// itself marks a page that is the document (a REScheck certificate,
	// a calculation package's cover): nil when titles alone tell.
	itself *lazyregexp.Regexp
}

var referencedDocuments = []referencedDocument{
	{"truss layouts and calculations",
		lineSet.MustCompile(`(?i)\bTRUSS(?:ES)?\b.*\bPER\s+(?:MANUF(?:ACTURER)?'?S?\.?\s+)?(?:LAYOUTS?|DESIGNS?|CALC(?:ULATION)?S)\b|\bTRUSS\s+(?:LAYOUTS?|CALC(?:ULATION)?S|DESIGNS?)\s+(?:BY|FROM)\s+(?:OTHERS|(?:THE\s+)?(?:MANUFACTURER|SUPPLIER|FABRICATOR))`),
		lazyregexp.New(`(?i)\bTRUSS\s+(?:LAYOUT|CALC|DESIGN|PLAN)`), nil},
	{"structural engineer's design",
		lineSet.MustCompile(`(?i)\bTO\s+(?:THE\s+)?(?:STRUCTURAL\s+)?ENG(?:INEE)?R'?S\.?\s+(?:DESIGN|DETAILS?|SPECIFICATION)|\bPER\s+(?:THE\s+)?STRUCTURAL\s+(?:CALC(?:ULATION)?S|DRAWINGS|ENGINEER)\b`),
		lazyregexp.New(`(?i)\bSTRUCTURAL\b|\bFOUNDATION\b|\bFRAMING\b`), nil},
	{"calculations",
		lineSet.MustCompile(`(?i)\bPER\s+(?:[A-Z0-9.]+\s+){0,3}CALC(?:ULATION)?S\b`),
		lazyregexp.New(`(?i)\bCALC(?:ULATION)?S\b`),
		lazyregexp.New(`(?i)^\s*(?:STRUCTURAL\s+)?CALCULATIONS\s*$`)},
	{"soils report",
		lineSet.MustCompile(`(?i)\bPER\s+(?:THE\s+)?(?:SOILS?|GEOTECHNICAL)\s+(?:REPORT|ENGINEER|INVESTIGATION)\b`),
		lazyregexp.New(`(?i)\b(?:SOILS?|GEOTECHNICAL)\s+(?:REPORT|INVESTIGATION)\b`), nil},
	{"energy compliance documentation",
		lineSet.MustCompile(`(?i)\bPER\s+(?:THE\s+)?(?:TITLE\s+24|ENERGY)\s+(?:REPORT|CALC(?:ULATION)?S|COMPLIANCE|DOCUMENTATION)\b|\bREScheck\b|\bCOMcheck\b`),
		lazyregexp.New(`(?i)\bTITLE\s+24\b|\bENERGY\s+(?:COMPLIANCE|REPORT|CALC)|\bREScheck\b|\bCOMcheck\b`),
		lazyregexp.New(`(?i)\b(?:REScheck|COMcheck)(?:-Web)?\s+(?:Software\s+Version|Compliance\s+Certificate)\b|^\s*CERTIFICATE\s+OF\s+COMPLIANCE\b|^\s*(?:ENERGY\s+)?COMPLIANCE\s+CERTIFICATE\s*$`)},
	{"deferred submittals",
		lineSet.MustCompile(`(?i)\bDEFERRED\s+SUBMITTALS?\b`),
		lazyregexp.New(`(?i)\bDEFERRED\s+SUBMITTAL\b`), nil},
	{"project specifications",
		lineSet.MustCompile(`(?i)\b(?:REFER\s+TO|SEE)\s+(?:THE\s+)?(?:PROJECT\s+)?SPECIFICATIONS?\b`),
		lazyregexp.New(`(?i)\bSPECIFICATIONS?\b`), nil},
}

// A set lists its deferred submittals under a heading of their own
// ("DEFERRED SUBMITTALS", "LIST OF DEFERRED SUBMITTAL ITEMS:"), or as a
// label with its items ("DEFERRED SUBMITTALS: FIRE SPRINKLERS, TRUSSES").
// A sentence about them ("DEFERRED SUBMITTAL DOCUMENTS SHALL BE …") is
// no list.
var (
	deferredListRe = lazyregexp.New(`(?i)^\s*(?:LIST\s+OF\s+)?DEFERRED\s+SUBMITTALS?(?:\s+(?:LIST|ITEMS|SCHEDULE|REQUIRED))?\s*(?::\s*(.*?))?\s*$`)
	listItemRe     = lazyregexp.New(`^\s*(?:\d{1,2}[.)]|[A-Za-z][.)]|[-•*–])\s+\S`)
)

// deferredList returns whether the set lists its deferred submittals, and
// the text of the items listed: the rest of the heading's line and the
// numbered or bulleted lines that follow it.
func deferredList(rv *review) (bool, string) {
	found := false
	var items []string
	for _, pv := range rv.pages {
		if !pv.Readable {
			continue
		}
		for li, l := range pv.Lines {
			m := deferredListRe.FindStringSubmatch(l.Text)
			if m == nil {
				continue
			}
			found = true
			items = append(items, m[1])
			for _, next := range pv.Lines[li+1 : min(li+13, len(pv.Lines))] {
				if !listItemRe.MatchString(next.Text) {
					break
				}
				items = append(items, next.Text)
			}
		}
	}
	return found, strings.Join(items, " | ")
}

// deferredSubject tells, per kind of document, whether a deferred
// submittal list names it: truss design is the usual deferred item.
var deferredSubject = map[string]*lazyregexp.Regexp{
	"truss layouts and calculations": lazyregexp.New(`(?i)\bTRUSS`),
	"deferred submittals":            lazyregexp.New(`.`),
}

// checkMissingDocuments reports, once per kind of document, a note that
// relies on a document the submittal does not include (truss layouts,
// engineer's design, calculations, soils report, energy compliance,
// deferred submittals, specifications): anchored on its first mention.
// A sheet of the set titled as that document, or a file read as a
// specification or form, counts as submitted.
func checkMissingDocuments(rv *review, r *Rule) []observation {
	specFile := false
	for _, pv := range rv.pages {
		if pv.set != nil && pv.set.DocType == "spec_or_form" {
			specFile = true
		}
	}
	listed, deferredItems := deferredList(rv)
	var out []observation
	for _, d := range referencedDocuments {
		if specFile {
			break
		}
		submitted := false
		for _, pv := range rv.pages {
			if pv.Ident.Title != "" && d.present.MatchString(pv.Ident.Title) {
				submitted = true
				break
			}
		}
		// A document the set defers on its list is submitted the way the
		// code allows (IBC 107.3.4.1, IRC R106.3.3's deferral): the list
		// is what the examiner approves. The heading alone answers a note
		// that defers something; a truss note needs trusses on the list.
		if re := deferredSubject[d.kind]; listed && re != nil && (d.kind == "deferred submittals" || re.MatchString(deferredItems)) {
			submitted = true
		}
		for _, pv := range rv.pages {
			if submitted || d.itself == nil || !pv.Readable {
				continue
			}
			for _, l := range pv.Lines {
				if d.itself.MatchString(l.Text) {
					submitted = true
					break
				}
			}
		}
		if submitted {
			continue
		}
	pages:
		for _, pv := range rv.pages {
			if !pv.Readable {
				continue
			}
			for li, l := range pv.Lines {
				if !pv.matches(d.mention, li) {
					continue
				}
				advice := "submit it or list it as a deferred submittal"
				if d.kind == "deferred submittals" {
					// The note already defers them: what the examiner
					// needs is the list and the approval, not the
					// documents now.
					advice = "each deferred item must be listed on the cover sheet and approved by the building official, and its documents submitted before that work is installed"
				}
				out = append(out, observation{page: pv, words: l.WordsInSpan(0, len(l.Text)),
					vars:     map[string]string{"document": d.kind, "text": l.Text, "advice": advice},
					evidence: "document " + d.kind})
				break pages
			}
		}
	}
	return out
}
