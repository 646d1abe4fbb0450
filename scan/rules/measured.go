package rules

import (
	"planreview/scan/model"
	"planreview/scan/units"
)

// Measured rules: a quantity of the document model (a riser height, a
// guard height, a door's clear width) judged against the rule's limits.
// The model reads the values and their context once per sheet; the rule
// says which contexts it leaves alone (except) or is limited to (only),
// so an amendment of its limits (ForJurisdiction) applies to every value
// however it was printed.

// measure returns the observations of the values of the rule's quantity
// that break its limits.
func (rv *review) measure(r *Rule) []observation {
	type reading struct {
		pv *pageView
		q  model.Quantity
	}
	var readings []reading
	for _, pv := range rv.pages {
		if !pv.Readable || !r.appliesToType(pv.Ident.Type) {
			continue
		}
		for _, q := range pv.Quantities() {
			if q.Kind == r.Measure && r.judges(q) {
				readings = append(readings, reading{pv, q})
			}
		}
	}
	if r.OneSuffices {
		for _, rd := range readings {
			if violated, _ := r.violates(rd.q.Value); !violated {
				return nil
			}
		}
	}
	var out []observation
	for _, rd := range readings {
		q := rd.q
		violated, limit := r.violates(q.Value)
		if !violated {
			continue
		}
		value := q.Printed
		if q.Where != "" {
			value += " (" + q.Where + ")"
		}
		vars := map[string]string{"text": q.Text, "value": value,
			"measured": units.Format(r.Quantity, q.Value), "limit": units.Format(r.Quantity, limit)}
		if r.Min != nil {
			vars["min"] = units.Format(r.Quantity, *r.Min)
		}
		if r.Max != nil {
			vars["max"] = units.Format(r.Quantity, *r.Max)
		}
		conf := 0.0
		if r.doubtful(q.Value) {
			conf = r.DoubtfulConfidence
		}
		out = append(out, observation{page: rd.pv, words: q.Words, vars: vars, confidence: conf,
			evidence: q.Text + "=" + units.Format(r.Quantity, q.Value)})
	}
	return out
}

// judges reports whether the rule judges a value: none of its excepted
// contexts, all of its required ones, and not a stated bound that says
// nothing of the rule's limit ("1 1/2" MAX. RISE" is no riser under the
// 4 in minimum, nor "11" MIN. TREAD" a tread over a maximum).
func (r *Rule) judges(q model.Quantity) bool {
	if q.Any(r.Except) || !q.Has(r.Only) {
		return false
	}
	switch q.Bound {
	case model.BoundMax:
		return r.Max != nil
	case model.BoundMin:
		return r.Min != nil
	}
	return true
}
