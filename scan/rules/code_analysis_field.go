package rules

import (
	"strings"

	"planreview/scan/model"
)

func checkCodeAnalysisField(rv *review, r *Rule) []observation {
	where, ok := rv.codeAnalysisExpected()
	if rv.firstReadable() == nil || !ok {
		return nil
	}
	var stated bool
	switch r.Params["field"] {
	case "occupancy":
		stated = len(rv.facts.Groups) > 0
	case "construction_type":
		// The residential code does not classify a dwelling by
		// construction type (that is the building code's chapter 6): an
		// IRC house is not asked for one.
		stated = len(rv.facts.Construction) > 0 || underResidentialCode(rv.facts)
	case "sprinklers":
		stated = rv.sprinklersStated()
	}
	// A field printed blank is reported once, on its label, by
	// project_data_blank.
	if stated || rv.blankOf(r.Params["field"]) {
		return nil
	}
	return []observation{{vars: map[string]string{"field": strings.ReplaceAll(r.Params["field"], "_", " "), "where": where.sheetNumberOr()},
		evidence: "no " + r.Params["field"]}}
}

// residentialCode reports whether a code family is one of one- and
// two-family dwellings and townhouses: the IRC and the adoption table's
// codes based on it.
func residentialCode(family string) bool {
	return family == "IRC" || adoptions().ModelOf(family) == "IRC"
}

// underResidentialCode reports whether the set is a dwelling under the
// residential code: it states one, and every occupancy it states is R-3
// or U (a house and its garage). With no occupancy stated, a building
// code stated beside it leaves the question open.
func underResidentialCode(f model.CodeFacts) bool {
	residential, building := false, false
	for _, c := range f.Codes {
		switch {
		case residentialCode(c.Group):
			residential = true
		case buildingFamily(c.Group):
			building = true
		}
	}
	if !residential {
		return false
	}
	for _, g := range f.Groups {
		if g.Group != "R-3" && g.Group != "U" {
			return false
		}
	}
	return len(f.Groups) > 0 || !building
}
