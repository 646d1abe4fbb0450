package codebasis

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"planreview/scan/rules"
)

// Presumption is the law presumed from the plans when the job names no
// jurisdiction: the state the sheets point to (by the state codes they
// state, else by the project address) and that state's codes in force on
// the application date, from the adoption table.
type Presumption struct {
	Jurisdiction string     // the state's OCD division id
	From         string     // what the plans showed, for code-basis lines and rationales
	Adopted      []Adoption // in force on the date, one per code
	Date         string     // the date the codes are in force on
}

// Presume reads the place the plans give and returns the law it presumes,
// or nil when they name no state the adoption table holds (the configured
// model codes then apply): a state code the sheets state with its edition,
// else the state of the project address, else a state's code the sheets
// name without an edition. A set the plans place outside the United
// States presumes nothing: its scope decides that no US code applies.
func (t *AdoptionTable) Presume(place rules.Place, date string) *Presumption {
	if place.Outside != "" {
		return nil
	}
	// A state code stated with its edition names its state outright; an
	// address comes next, and a state's code named without an edition (in
	// a general note: "COMPLY WITH THE WASHINGTON STATE BUILDING CODE")
	// last, as the weakest of the three.
	stated := func(withEdition bool) *Presumption {
		for _, sc := range place.Codes {
			if (sc.Edition != "") != withEdition {
				continue
			}
			j := sc.Jurisdiction
			if j == "" {
				j = t.JurisdictionOf(sc.Family)
			}
			if stateOf(j) == "" {
				continue
			}
			if p := t.inForce(j, date); p != nil {
				p.From = fmt.Sprintf("the codes the sheets state (%s)", sc.Text)
				return p
			}
		}
		return nil
	}
	if p := stated(true); p != nil {
		return p
	}
	// Addresses in more than one state are a firm's beside the project's
	// (an architect from another state): which is the project's is not
	// presumed from them.
	if len(place.States) == 1 {
		if p := t.inForce("ocd-division/country:us/state:"+strings.ToLower(place.States[0]), date); p != nil {
			p.From = fmt.Sprintf("the project address (%s)", place.Addresses[0])
			return p
		}
	}
	return stated(false)
}

// stateOf is the state division of an adoption's jurisdiction; "" for a
// city's own codes (New York City's), which an address alone does not
// presume.
func stateOf(jurisdiction string) string {
	parts := strings.Split(jurisdiction, "/")
	if len(parts) != 3 || !strings.HasPrefix(parts[2], "state:") {
		return ""
	}
	return jurisdiction
}

// inForce is the state's codes in force on date: for each code, the
// edition with the latest effective date not after it.
func (t *AdoptionTable) inForce(state, date string) *Presumption {
	latest := map[string]Adoption{}
	for _, a := range t.Adoptions {
		if a.Jurisdiction != state || a.Effective > date {
			continue
		}
		if cur, ok := latest[a.Code]; !ok || a.Effective > cur.Effective {
			latest[a.Code] = a
		}
	}
	if len(latest) == 0 {
		return nil
	}
	p := &Presumption{Jurisdiction: state, Date: date}
	for _, a := range latest {
		p.Adopted = append(p.Adopted, a)
	}
	sort.Slice(p.Adopted, func(i, j int) bool { return p.Adopted[i].Code < p.Adopted[j].Code })
	return p
}

// Presume applies a presumption to a plan for a job without a
// jurisdiction: the engine cites the state's codes over the model codes
// they are based on and judges stated editions against them; codes based
// on an edition the appliance holds no pack for are returned, so the scope
// decision reviews the files by the document checks only.
func (p *Plan) Presume(pr *Presumption, table *AdoptionTable) (notHeld []string, err error) {
	if pr == nil || p.Case.JurisdictionID != "" {
		return nil, nil
	}
	var codes []rules.AdoptedCode
	var held []Adoption
	for _, a := range pr.Adopted {
		if !p.Engine.Adopts(a.BasedOn.Code, a.BasedOn.Edition) {
			notHeld = append(notHeld, fmt.Sprintf("the %s %s (based on %s %s)", a.Edition, a.Name, a.BasedOn.Code, a.BasedOn.Edition))
			p.presumedNotHeld = append(p.presumedNotHeld, a)
			continue
		}
		held = append(held, a)
		codes = append(codes, rules.AdoptedCode{Code: a.Code, Edition: a.Edition})
	}
	cite := func(ref rules.Ref) string {
		for _, a := range held {
			if strings.EqualFold(a.BasedOn.Code, ref.Code) && a.BasedOn.Edition == ref.Edition {
				return fmt.Sprintf("%s %s %s (%s)", a.Code, a.Edition, ref.Section, ref.String())
			}
		}
		return ""
	}
	eng, err := p.Engine.ForJurisdiction(rules.Jurisdiction{Cite: cite, Base: table.Base, Adopted: codes, PresumedFrom: pr.From})
	if err != nil {
		return nil, err
	}
	p.Engine = eng
	p.presumed = pr
	return notHeld, nil
}

// presumedLines are the code-basis lines of a presumption: one per code in
// force, saying what it was presumed from.
func (p *Plan) presumedLines() []string {
	pr := p.presumed
	var lines []string
	for _, a := range pr.Adopted {
		note := "presumed from " + pr.From + "; the job names no jurisdiction"
		if slices.ContainsFunc(p.presumedNotHeld, func(n Adoption) bool { return n.Code == a.Code && n.Edition == a.Edition }) {
			note += "; not reviewed: the appliance holds no rules for " + a.BasedOn.Code + " " + a.BasedOn.Edition
		}
		lines = append(lines, fmt.Sprintf("%s %s (%s, based on %s %s), effective %s — %s", a.Edition, a.Name, a.Code, a.BasedOn.Code, a.BasedOn.Edition, a.Effective, note))
	}
	return lines
}
