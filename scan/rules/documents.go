package rules

import (
	"strings"

	"planreview/scan/model"
	"planreview/textmatch"
)

// documentKinds are the kinds of document the sheets rely on without
// drawing them (the model reads the notes that point at them and the
// sheets that are them).
var documentKinds = []string{model.DocTrusses, model.DocEngineerDesign, model.DocCalculations,
	model.DocSoilsReport, model.DocEnergy, model.DocDeferred, model.DocSpecifications}

// deferredList returns whether the set lists its deferred submittals, and
// the text of the items listed.
func deferredList(rv *review) (bool, string) {
	found := false
	var items []string
	for _, pv := range rv.pages {
		for _, d := range pv.DeferredLists() {
			found = true
			items = append(items, d.Items...)
		}
	}
	return found, strings.Join(items, " | ")
}

// deferredSubject tells, per kind of document, whether a deferred
// submittal list names it: truss design is the usual deferred item.
var deferredSubject = map[string]*textmatch.Regexp{
	model.DocTrusses:  textmatch.MustCompile(`(?i)\bTRUSS`),
	model.DocDeferred: textmatch.MustCompile(`.`),
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
	for _, kind := range documentKinds {
		if specFile {
			break
		}
		// A document the set defers on its list is submitted the way the
		// code allows (IBC 107.3.4.1, IRC R106.3.3's deferral): the list
		// is what the examiner approves. The heading alone answers a note
		// that defers something; a truss note needs trusses on the list.
		submitted := false
		if re := deferredSubject[kind]; listed && re != nil && (kind == model.DocDeferred || re.MatchString(deferredItems)) {
			submitted = true
		}
		for _, pv := range rv.pages {
			if submitted {
				break
			}
			submitted = pv.IsDocument(kind)
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
				if ref.Document != kind {
					continue
				}
				advice := "submit it or list it as a deferred submittal"
				if kind == model.DocDeferred {
					// The note already defers them: what the examiner
					// needs is the list and the approval, not the
					// documents now.
					advice = "each deferred item must be listed on the cover sheet and approved by the building official, and its documents submitted before that work is installed"
				}
				out = append(out, observation{page: pv, words: ref.Words,
					vars:     map[string]string{"document": kind, "text": ref.Text, "advice": advice},
					evidence: "document " + kind})
				break refs
			}
		}
	}
	return out
}
