package rules

import (
	"fmt"

	"planreview/scan/model"
)

// Project-data fields printed with their label and no value (the model's
// BlankFields): a form whose labels are printed reads as stated to a
// reader skimming it. Fields inside the title block are the title-block
// checks' business (completeness-title-block-*).
//
// One finding per blank field: where the blank is occupancy, construction
// type or sprinklers and no value for it is stated anywhere else, the
// "stated" checks (code_analysis_field) leave the report to this one,
// which points at the label, instead of saying the same thing twice.

// blankFields gathers the review's blank project-data fields, once.
func (rv *review) blankFields() []model.BlankField {
	pd := rv.projectData()
	if pd.blanks == nil {
		pd.blanks = &blankFieldsRead{}
		for _, pv := range rv.pages {
			if !pv.Readable {
				continue
			}
			if !pv.ReadInFull() {
				if pv.isCover() {
					pd.unreadable(pv, "blank project-data fields", fmt.Sprintf("page %d not read in full", pv.Page.Number))
				}
				continue
			}
			pd.blanks.fields = append(pd.blanks.fields, pv.BlankFields()...)
		}
	}
	return pd.blanks.fields
}

// blankFieldsRead holds the blank fields once gathered (nil: not yet).
type blankFieldsRead struct{ fields []model.BlankField }

// blankOf reports whether the set prints a field blank.
func (rv *review) blankOf(field string) bool {
	for _, b := range rv.blankFields() {
		if b.Field == field && !rv.statedElsewhere(b) {
			return true
		}
	}
	return false
}

// checkProjectDataBlank reports each project-data field printed with its
// label and no value.
func checkProjectDataBlank(rv *review, r *Rule) []observation {
	var out []observation
	for _, b := range rv.blankFields() {
		if rv.statedElsewhere(b) {
			continue
		}
		shown := "nothing"
		if b.Value != "" {
			shown = `only "` + b.Value + `"`
		}
		out = append(out, observation{page: rv.view(b.Sheet), words: b.Words,
			vars:     map[string]string{"label": b.Label, "field": b.Field, "shown": shown, "placement": b.Placement},
			evidence: "blank " + b.Field + " " + b.Label})
	}
	return out
}

// sprinklersStated reports whether the set says whether it is sprinklered:
// a statement with its value, or a caption whose value was not read,
// unless that caption is printed blank.
func (rv *review) sprinklersStated() bool {
	for _, s := range rv.facts.SprinklerStmts {
		if s.Group != model.SprinklerUnknown {
			return true
		}
	}
	return len(rv.facts.SprinklerStmts) > 0 && !rv.blankOf(model.FieldSprinklers)
}

// statedElsewhere reports whether the set states a value for the blank
// field somewhere: a blank repeat of a field filled in elsewhere is no
// missing information.
func (rv *review) statedElsewhere(b model.BlankField) bool {
	switch b.Field {
	case model.FieldOccupancy:
		return len(rv.facts.Groups) > 0
	case model.FieldConstruction:
		// A dwelling under the residential code is not asked for one.
		return len(rv.facts.Construction) > 0 || underResidentialCode(rv.facts)
	case model.FieldSprinklers:
		for _, s := range rv.facts.SprinklerStmts {
			if s.Group != model.SprinklerUnknown {
				return true
			}
		}
		return false
	}
	kind := map[string]string{model.FieldStories: model.FactStories, model.FieldHeight: model.FactBuildingHeight, model.FieldArea: model.FactArea}[b.Field]
	if kind == "" {
		return false
	}
	// An area is the same field when it measures the same thing: its
	// kind (lot, total, a floor) and level.
	for _, f := range rv.projectData().facts {
		if f.Kind != kind || f.Qualifier == "allowable" {
			continue
		}
		if kind != model.FactArea || f.AreaKind == b.AreaKind && f.Level == b.Level {
			return true
		}
	}
	return false
}
