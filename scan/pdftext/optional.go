package pdftext

import "github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

// Optional content (PDF 32000-1 8.11): layers of CAD sheets. Text in a
// layer that is off in the default configuration is not on the sheet a
// reviewer sees, so it must not become evidence; poppler leaves it out too.

// hiddenLayers reads the default configuration's OFF optional content
// groups (by object number) from the catalog.
func (o objects) hiddenLayers(catalog types.Dict) map[int]bool {
	props := o.dict(catalog["OCProperties"])
	if props == nil {
		return nil
	}
	cfg := o.dict(props["D"])
	if cfg == nil {
		return nil
	}
	hidden := map[int]bool{}
	if o.name(cfg["BaseState"]) == "OFF" {
		for _, g := range o.array(props["OCGs"]) {
			if id := objectID(g); id != 0 {
				hidden[id] = true
			}
		}
	}
	for _, g := range o.array(cfg["ON"]) {
		delete(hidden, objectID(g))
	}
	for _, g := range o.array(cfg["OFF"]) {
		if id := objectID(g); id != 0 {
			hidden[id] = true
		}
	}
	return hidden
}

// ocHidden reports whether an optional content group or membership
// dictionary (OCMD) is off. OCMD visibility expressions (/VE) are not
// evaluated; their /OCGs and /P policy are.
func (d *Document) ocHidden(oc types.Object) bool {
	if len(d.hidden) == 0 || oc == nil {
		return false
	}
	dict := d.obj.dict(oc)
	if dict == nil {
		return false
	}
	if d.obj.name(dict["Type"]) != "OCMD" {
		return d.hidden[objectID(oc)]
	}
	groups := d.obj.array(dict["OCGs"])
	if groups == nil {
		if g := dict["OCGs"]; g != nil {
			groups = types.Array{g}
		}
	}
	if len(groups) == 0 {
		return false
	}
	on := 0
	for _, g := range groups {
		if !d.hidden[objectID(g)] {
			on++
		}
	}
	switch d.obj.name(dict["P"]) {
	case "AllOn":
		return on < len(groups)
	case "AnyOff":
		return on == len(groups)
	case "AllOff":
		return on > 0
	}
	return on == 0 // AnyOn, the default
}

// markedOC returns the optional content a BDC with tag /OC refers to: a
// name in the resources' /Properties, or an inline dictionary reference.
func (in *interp) markedOC(ops []token, res *resources) types.Object {
	if len(ops) < 2 || ops[0].kind != tokName || string(ops[0].b) != "OC" || ops[1].kind != tokName {
		return nil
	}
	props := in.doc.obj.dict(res.dict["Properties"])
	if props == nil {
		return nil
	}
	return props[string(ops[1].b)]
}
