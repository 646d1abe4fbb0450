package rules

import (
	"context"
	"fmt"
	"planreview/scan/units"
	"sort"
	"strings"
)

// Parameter is a numeric limit of a rule that a jurisdiction's amendment
// may change by name: a match rule's min and max, and a check's quantity
// params (stair_rise max, riser_uniformity tolerance).
type Parameter struct {
	Name     string // min, max, tolerance, …
	Quantity string // length, slope, area, count, number
	Value    string // as the pack writes it: 7 3/4"
}

// Parameters lists the rule's overridable limits, by name.
func (r *Rule) Parameters() []Parameter {
	var out []Parameter
	if r.Check != "" {
		spec := checks[r.Check]
		for _, name := range spec.params {
			if q := spec.quantities[name]; q != "" {
				out = append(out, Parameter{Name: name, Quantity: q, Value: r.Params[name]})
			}
		}
		return out
	}
	if r.Min != nil {
		out = append(out, Parameter{Name: "min", Quantity: r.Quantity, Value: r.MinText})
	}
	if r.Max != nil {
		out = append(out, Parameter{Name: "max", Quantity: r.Quantity, Value: r.MaxText})
	}
	return out
}

// Cites reports whether the rule cites section of the given code and
// edition ("IRC", "2021", "R311.7.5.1").
func (r *Rule) Cites(code, edition, section string) bool {
	for _, ref := range r.Refs {
		if strings.EqualFold(ref.Code, code) && ref.Edition == edition && strings.EqualFold(ref.Section, section) {
			return true
		}
	}
	return false
}

// Rules lists every rule of every pack in the library (for validating
// amendments against the rules they would change), ordered by id.
func (lib *Library) Rules() []*Rule {
	var out []*Rule
	for _, p := range lib.packs {
		out = append(out, p.Rules...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// PackFor returns the id of the code pack for a code and edition ("IRC",
// "2021" → "irc-2021").
func (lib *Library) PackFor(code, edition string) (string, bool) {
	for _, p := range lib.packs {
		if p.Kind == KindCode && strings.EqualFold(p.Code, code) && p.Edition == edition {
			return p.ID, true
		}
	}
	return "", false
}

// Override is what a jurisdiction's law changes in one rule.
type Override struct {
	// Values replaces limits by parameter name, each as the rule's
	// quantity is written ("7 1/2\"").
	Values map[string]string
	// SetBy names the layer that set Values, for the rationale
	// ("Marin County Code title 19, amending R311.7.5.1").
	SetBy string
	// Disabled drops the rule: its section was deleted, or replaced by
	// text the rule cannot read.
	Disabled bool
}

// Citation turns a model-code reference into the one the jurisdiction's
// adopted code carries: "CRC 2022 R311.7.5.1 (IRC 2021 R311.7.5.1)". An
// empty answer keeps the model reference.
type Citation func(Ref) string

// EditionBase answers which model code and edition a stated code is based
// on ("CRC", "2022" → "IRC", "2021"), from the adoption table.
type EditionBase func(code, edition string) (baseCode, baseEdition string, ok bool)

// Jurisdiction is what a jurisdiction's local law changes in an engine.
type Jurisdiction struct {
	Overrides map[string]Override // by rule id
	Cite      Citation
	Base      EditionBase
	// Adopted are the codes the jurisdiction adopted above the model
	// codes (CRC 2022), judged by code_edition_current like the packs'.
	Adopted []AdoptedCode
	// PresumedFrom, when the job names no jurisdiction, says what the
	// plans showed that the law was presumed from ("the project address
	// (CARLSBAD, CA 92011)"); rationales name it instead of a jurisdiction.
	PresumedFrom string
}

// AdoptedCode is one adopted code and edition: "CRC", "2022".
type AdoptedCode struct{ Code, Edition string }

// ValidateOverride checks values against the rule's parameters: each name
// must be one of them and each value must parse as its quantity.
func (r *Rule) ValidateOverride(name, value string) error {
	for _, p := range r.Parameters() {
		if p.Name != name {
			continue
		}
		if _, err := units.ParseQuantity(p.Quantity, value); err != nil {
			return fmt.Errorf("%q is not a %s (the rule's limit is written %q)", value, p.Quantity, p.Value)
		}
		return nil
	}
	names := make([]string, 0, 2)
	for _, p := range r.Parameters() {
		names = append(names, p.Name)
	}
	return fmt.Errorf("rule %s has no parameter %q (it has: %s)", r.ID, name, strings.Join(names, ", "))
}

// ForJurisdiction returns an engine with the jurisdiction's changes: the
// rules it overrides are copies with the new limits (the library's rules
// stay as loaded), disabled rules are left out, citations name the adopted
// code. It costs a copy of the rule list and of each changed rule.
func (e *Engine) ForJurisdiction(j Jurisdiction) (*Engine, error) {
	out := &Engine{packs: e.packs, adopted: e.adopted, cite: j.Cite, base: j.Base, stateCodes: j.Adopted,
		presumedFrom: j.PresumedFrom, rules: make([]*Rule, 0, len(e.rules))}
	for _, r := range e.rules {
		o, ok := j.Overrides[r.ID]
		if !ok {
			out.rules = append(out.rules, r)
			continue
		}
		if o.Disabled {
			continue
		}
		changed, err := r.withValues(o)
		if err != nil {
			return nil, err
		}
		out.rules = append(out.rules, changed)
	}
	return out, nil
}

// withValues is a copy of the rule with its limits replaced.
func (r *Rule) withValues(o Override) (*Rule, error) {
	c := *r
	if len(o.Values) == 0 {
		return &c, nil
	}
	names := make([]string, 0, len(o.Values))
	for name := range o.Values {
		names = append(names, name)
	}
	sort.Strings(names)
	var notes []string
	for _, name := range names {
		value := o.Values[name]
		if err := r.ValidateOverride(name, value); err != nil {
			return nil, err
		}
		v, _ := units.ParseQuantity(r.paramQuantity(name), value)
		was := ""
		switch {
		case c.Check != "":
			params := make(map[string]string, len(c.Params))
			for k, pv := range c.Params {
				params[k] = pv
			}
			was, params[name] = params[name], value
			c.Params = params
		case name == "min":
			was, c.Min, c.MinText = c.MinText, &v, value
		case name == "max":
			was, c.Max, c.MaxText = c.MaxText, &v, value
		}
		notes = append(notes, fmt.Sprintf("%s %s (model code: %s)", name, units.Format(r.paramQuantity(name), v), was))
	}
	// A doubtful band that the new limit swallowed or inverted no longer
	// means "an exception may apply": drop it rather than mislabel.
	if c.DoubtfulUntil != nil && ((c.Max != nil && *c.DoubtfulUntil <= *c.Max) || (c.Min != nil && *c.DoubtfulUntil >= *c.Min)) {
		c.DoubtfulUntil = nil
	}
	c.amendedBy = fmt.Sprintf("Limit set by %s: %s.", o.SetBy, strings.Join(notes, ", "))
	// Titles quote the model limit ("over 7 3/4 inches"); say it changed.
	c.Title = r.Title + " (amended limit)"
	return &c, nil
}

func (r *Rule) paramQuantity(name string) string {
	for _, p := range r.Parameters() {
		if p.Name == name {
			return p.Quantity
		}
	}
	return ""
}

// citedRefs is the rule's references as the engine's jurisdiction cites them.
func (e *Engine) citedRefs(r *Rule) string {
	if e.cite == nil {
		return r.GoverningRefs()
	}
	parts := make([]string, len(r.Refs))
	for i, ref := range r.Refs {
		if s := e.cite(ref); s != "" {
			parts[i] = s
		} else {
			parts[i] = ref.String()
		}
	}
	return strings.Join(parts, "; ")
}

// citesAll says whether the law in force cites every section a rule
// names (a jurisdiction's or a presumed state's code on a held edition).
func (e *Engine) citesAll(r *Rule) bool {
	if e.cite == nil || len(r.Refs) == 0 {
		return false
	}
	for _, ref := range r.Refs {
		if e.cite(ref) == "" {
			return false
		}
	}
	return true
}

// Report is a review's findings and the topics of the rules that ran on
// the set (whether or not they found anything): what local-law coverage
// must vouch for.
type Report struct {
	Findings []Finding
	Topics   []string
	// Occupancy is how the set reads: OccupancyResidential (IRC),
	// OccupancyCommercial (IBC), or "" when it does not say.
	Occupancy string
}

// ReviewReport is ReviewClassified that also returns the topics reviewed
// and the set's occupancy.
func (e *Engine) ReviewReport(ctx context.Context, c *Classified) (Report, error) {
	findings, topics, occupancy, err := e.review(ctx, c)
	return Report{Findings: findings, Topics: topics, Occupancy: occupancy}, err
}
