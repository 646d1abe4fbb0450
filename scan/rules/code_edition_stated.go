package rules

import (
	"strings"
)

func (rv *review) adoptedText() string {
	// A state code is named with the model code it is based on, which is
	// then not named again: "IBC 2021, CRC 2022 (based on IRC 2021)".
	var state []string
	based := map[string]bool{}
	for _, a := range rv.eng.stateCodes {
		text := a.Code + " " + a.Edition
		if rv.eng.base != nil {
			if bc, be, ok := rv.eng.base(a.Code, a.Edition); ok {
				text += " (based on " + bc + " " + be + ")"
				based[bc+" "+be] = true
			}
		}
		state = append(state, text)
	}
	var parts []string
	for _, a := range rv.eng.adopted {
		if !based[a.Code+" "+a.Edition] {
			parts = append(parts, a.Code+" "+a.Edition)
		}
	}
	parts = append(parts, state...)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func checkCodeEditionStated(rv *review, r *Rule) []observation {
	where, ok := rv.codeAnalysisExpected()
	// A state's codes named as a whole with their edition ("2018 NORTH
	// CAROLINA STATE BUILDING CODE") state an edition too.
	if len(rv.facts.Codes) > 0 || len(rv.facts.StateEditions) > 0 || rv.firstReadable() == nil || !ok {
		return nil
	}
	adopted := rv.adoptedText()
	return []observation{{vars: map[string]string{"adopted": adopted, "where": where.sheetNumberOr(), "basis": rv.basisClause(adopted)}, evidence: "no code edition"}}
}

// basisClause says where the codes a review applies come from, for
// rationales: the job's jurisdiction, the plans they were presumed from,
// or the appliance's configured codes when neither names one.
func (rv *review) basisClause(codes string) string {
	switch {
	case rv.eng.presumedFrom != "":
		return "the code basis presumed from " + rv.eng.presumedFrom + " is " + codes
	case rv.job.Jurisdiction == "":
		return "the job names no jurisdiction and the review applies " + codes + " (the codes configured for this appliance)"
	}
	return "the jurisdiction has adopted " + codes
}

func (rv *review) firstReadable() *pageView {
	for _, pv := range rv.pages {
		if pv.Readable {
			return pv
		}
	}
	return nil
}
