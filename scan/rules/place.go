package rules

import (
	"sort"
	"strings"
)

// Place is what the plans say about where the project is and under which
// codes, read before the law is chosen: when the job names no
// jurisdiction, the review's code basis is presumed from it.
type Place struct {
	// Codes are the US codes the sheets state, family and edition read
	// ("CBC", "2022"; the edition empty when none is printed).
	Codes []StatedCode
	// States are the two-letter states of the addresses with a ZIP code
	// printed on the sheets, most often printed first; Addresses holds
	// the address each was read from, in the same order.
	States    []string
	Addresses []string
	// Outside says why the plans place the project outside the United
	// States (an authority, a drawing language with metric units); empty
	// when they don't, or when they also show a US address.
	Outside string
}

// StatedCode is one code statement of the plans. Jurisdiction is the
// state or city division whose code it names, from the adoption table (""
// for a model code or a code the table does not hold); a name of a
// state's codes as a whole ("NORTH CAROLINA STATE BUILDING CODE") has a
// Jurisdiction and no Family.
type StatedCode struct{ Text, Family, Edition, Jurisdiction string }

// Place reads the set's place from its models' hints and its code
// statements.
func (c *Classified) Place() Place {
	var pl Place
	seen := map[string]bool{}
	facts := c.set.CodeFacts()
	named := map[string]bool{}
	for _, h := range facts.Codes {
		sc := StatedCode{Text: strings.TrimSpace(h.Text), Family: h.Group, Edition: h.Extra, Jurisdiction: adoptions().JurisdictionOf(h.Group)}
		if k := sc.Family + " " + sc.Edition; sc.Family != "" && !seen[k] {
			seen[k] = true
			named[sc.Jurisdiction] = true
			pl.Codes = append(pl.Codes, sc)
		}
	}
	// A state's code named without an edition, or its codes named as a
	// whole, still say where the project is.
	for _, h := range facts.StateNames {
		if h.Extra == "" || named[h.Extra] {
			continue
		}
		named[h.Extra] = true
		pl.Codes = append(pl.Codes, StatedCode{Text: strings.TrimSpace(h.Text), Family: h.Group, Jurisdiction: h.Extra})
	}
	count := map[string]int{}
	first := map[string]string{}
	var hints []string
	for _, m := range c.models {
		hints = append(hints, m.JurisdictionHints...)
		for _, h := range m.JurisdictionHints {
			a, ok := strings.CutPrefix(h, "address: ")
			if !ok {
				continue
			}
			for _, z := range usStateZIP.FindAllString(strings.ToUpper(a), -1) {
				st := z[:2]
				count[st]++
				if _, ok := first[st]; !ok {
					first[st] = a
				}
			}
		}
	}
	for st := range count {
		pl.States = append(pl.States, st)
	}
	sort.Slice(pl.States, func(i, j int) bool {
		a, b := pl.States[i], pl.States[j]
		if count[a] != count[b] {
			return count[a] > count[b]
		}
		return a < b
	})
	for _, st := range pl.States {
		pl.Addresses = append(pl.Addresses, first[st])
	}
	if us, foreign := placeSignals(hints); !us {
		pl.Outside = foreign
	}
	return pl
}
