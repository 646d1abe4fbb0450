package rules

import (
	"fmt"
	"strings"

	"planreview/scan/sheets"
)

func checkTitleBlock(rv *review, r *Rule) []observation {
	field := r.Params["field"]
	var out []observation
	for _, pv := range rv.pages {
		if !pv.Readable || !r.appliesToType(pv.Ident.Type) {
			continue
		}
		// A page read only in part (stamps over a raster drawing) may print
		// the field where the engine cannot read it.
		if pv.Model != nil && pv.Model.TextLayer != sheets.TextFull {
			continue
		}
		var missing bool
		switch field {
		case "number":
			// Only against the numbering the rest of the set follows; a file
			// whose numbers the engine cannot read at all is not a file
			// without numbers.
			// A number drawn as outlines is printed: it could not be
			// read (the coverage finding says so), it is not missing.
			missing = pv.Ident.Number == "" && (pv.Model == nil || pv.schemeLearned()) && !pv.Model.FieldUnread(sheets.FieldNumber)
		case "title":
			missing = pv.Ident.Number != "" && pv.Ident.Title == ""
		case "date":
			missing = pv.Ident.Number != "" && pv.Ident.Date == "" && !pv.hasField(sheets.FieldDate)
		case "scale":
			missing = pv.Ident.Number != "" && pv.Ident.Scale == "" && pv.drawnToScale()
		}
		if missing {
			out = append(out, observation{page: pv, vars: map[string]string{"field": strings.ReplaceAll(field, "_", " ")},
				evidence: fmt.Sprintf("no %s p%d", field, pv.Page.Number)})
		}
	}
	return out
}

// hasField reports whether the set model read a filled field of this kind
// in the page's title block.
func (pv *pageView) hasField(kind string) bool {
	if pv.Model == nil {
		return false
	}
	for _, f := range pv.Model.Fields {
		if f.Kind == kind && strings.TrimSpace(f.Value) != "" {
			return true
		}
	}
	return false
}

// drawnToScale reports whether the sheet's title names a view drawn to
// scale (plan, elevation, section, detail) and no diagram, schedule or
// notes, whose sheets are commonly unscaled. Without a title the sheet is
// judged by the set model's view scales alone.
func (pv *pageView) drawnToScale() bool {
	if pv.Model != nil && len(pv.Model.ViewScales) > 0 {
		return false
	}
	t := pv.Ident.Title
	return t != "" && scaledViewRe.MatchString(t) && !unscaledViewRe.MatchString(t)
}
