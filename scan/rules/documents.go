package rules

import (
	"strings"

	"planreview/lazyregexp"
	"planreview/scan/model"
)

// referencedDocument is a kind of document the sheets rely on without
// drawing it (the model reads the notes that point at it): how a submitted
// sheet or file that is that document is titled.
type referencedDocument struct {
	kind    string
	present *lazyregexp.Regexp // run on sheet titles
	// itself marks a page that is the document (a REScheck certificate,
	// a calculation package's cover): nil when titles alone tell.
	itself *lazyregexp.Regexp
}

var referencedDocuments = []referencedDocument{
	{model.DocTrusses, lazyregexp.New(`(?i)\bTRUSS\s+(?:LAYOUT|CALC|DESIGN|PLAN)`), nil},
	{model.DocEngineerDesign, lazyregexp.New(`(?i)\bSTRUCTURAL\b|\bFOUNDATION\b|\bFRAMING\b`), nil},
	{model.DocCalculations, lazyregexp.New(`(?i)\bCALC(?:ULATION)?S\b`),
		lazyregexp.New(`(?i)^\s*(?:STRUCTURAL\s+)?CALCULATIONS\s*$`)},
	{model.DocSoilsReport, lazyregexp.New(`(?i)\b(?:SOILS?|GEOTECHNICAL)\s+(?:REPORT|INVESTIGATION)\b`), nil},
	{model.DocEnergy, lazyregexp.New(`(?i)\bTITLE\s+24\b|\bENERGY\s+(?:COMPLIANCE|REPORT|CALC)|\bREScheck\b|\bCOMcheck\b`),
		lazyregexp.New(`(?i)\b(?:REScheck|COMcheck)(?:-Web)?\s+(?:Software\s+Version|Compliance\s+Certificate)\b|^\s*CERTIFICATE\s+OF\s+COMPLIANCE\b|^\s*(?:ENERGY\s+)?COMPLIANCE\s+CERTIFICATE\s*$`)},
	{model.DocDeferred, lazyregexp.New(`(?i)\bDEFERRED\s+SUBMITTAL\b`), nil},
	{model.DocSpecifications, lazyregexp.New(`(?i)\bSPECIFICATIONS?\b`), nil},
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
	model.DocTrusses:  lazyregexp.New(`(?i)\bTRUSS`),
	model.DocDeferred: lazyregexp.New(`.`),
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
		if re := deferredSubject[d.kind]; listed && re != nil && (d.kind == model.DocDeferred || re.MatchString(deferredItems)) {
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
	refs:
		for _, pv := range rv.pages {
			if !pv.Readable {
				continue
			}
			// A legend may state a reliance too (a wall-assembly key's
			// "TRUSSES PER LAYOUTS" describes the construction, it is no
			// sample): a document reference counts wherever it lies.
			for _, ref := range pv.ReferencesOf(model.RefDocument) {
				if ref.Document != d.kind {
					continue
				}
				advice := "submit it or list it as a deferred submittal"
				if d.kind == model.DocDeferred {
					// The note already defers them: what the examiner
					// needs is the list and the approval, not the
					// documents now.
					advice = "each deferred item must be listed on the cover sheet and approved by the building official, and its documents submitted before that work is installed"
				}
				out = append(out, observation{page: pv, words: ref.Words,
					vars:     map[string]string{"document": d.kind, "text": ref.Text, "advice": advice},
					evidence: "document " + d.kind})
				break refs
			}
		}
	}
	return out
}
