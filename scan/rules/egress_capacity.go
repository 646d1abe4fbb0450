package rules

import (
	"math"

	"planreview/scan/units"
)

// capacityFactors returns the code's stair and other-component factors
// (IBC 2021 1005.3.1, 1005.3.2): 0.3 and 0.2 inch per occupant, or 0.2 and
// 0.15 where the set states both an automatic sprinkler system and an
// emergency voice/alarm communication system. reduced tells whether the
// reduced factors were used.
func (rv *review) capacityFactors() (stairs, other float64, reduced bool) {
	if rv.facts.Sprinklered && rv.facts.VoiceAlarm {
		return 0.2, 0.15, true
	}
	return 0.3, 0.2, false
}

func checkCapacityFactor(rv *review, r *Rule) []observation {
	stairs, other, reduced := rv.capacityFactors()
	stated, minimum := rv.facts.StairFactors, stairs
	if r.Params["component"] == "other" {
		stated, minimum = rv.facts.OtherFactors, other
	}
	var out []observation
	for _, s := range stated {
		if s.Value >= minimum-1e-9 {
			continue
		}
		o := observation{page: rv.view(s.Sheet), words: s.Words,
			vars:     map[string]string{"stated": units.TrimFloat(s.Value, 3) + " in per occupant", "minimum": units.TrimFloat(minimum, 3) + " in per occupant"},
			evidence: s.Text}
		// Below the full factor but at or above the reduced one: the
		// reduction may apply through systems the sheets do not mention.
		reducedMin := 0.2
		if r.Params["component"] == "other" {
			reducedMin = 0.15
		}
		if !reduced && s.Value >= reducedMin-1e-9 {
			o.confidence = math.Min(r.Confidence, 0.6)
		}
		out = append(out, o)
	}
	return out
}

func checkCapacityWidth(rv *review, r *Rule) []observation {
	stairs, other, reduced := rv.capacityFactors()
	widths, factor := rv.facts.StairWidths, stairs
	if r.Params["component"] == "other" {
		widths, factor = rv.facts.OtherWidths, other
	}
	var out []observation
	for _, w := range widths {
		load, ok := nearest(w, rv.facts.OccupantLoads, 12)
		if !ok {
			continue
		}
		required := load.Value * factor
		if w.Value >= required-1e-6 {
			continue
		}
		o := observation{page: rv.view(w.Sheet), words: append(append([]int{}, load.Words...), w.Words...),
			vars: map[string]string{"provided": units.FormatLength(w.Value), "required": units.FormatLength(required),
				"load": units.TrimFloat(load.Value, 0), "factor": units.TrimFloat(factor, 3) + " in per occupant"},
			evidence: w.Text + "|" + load.Text}
		if !reduced && rv.facts.Sprinklered {
			// Sprinklered but no voice/alarm system stated: the reduced
			// factor might apply; report only what fails even with it, and
			// with less confidence what fails only the full factor.
			redFactor := 0.2
			if r.Params["component"] == "other" {
				redFactor = 0.15
			}
			if w.Value >= load.Value*redFactor-1e-6 {
				o.confidence = math.Min(r.Confidence, 0.6)
			}
		}
		out = append(out, o)
	}
	return out
}
