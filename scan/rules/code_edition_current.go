package rules

// checkCodeEditionCurrent reports a stated code whose family the
// jurisdiction adopted in another edition ("2018 IBC" where IBC 2021 is in
// force). Codes the jurisdiction did not adopt through a pack are not judged.
//
// With a jurisdiction's adoption table, a stated state code is read through
// its base: "2022 CBC" (based on IBC 2021) is current where IBC 2021 is the
// model code; "2019 CRC" is judged against the CRC edition adopted, or
// through its base (IRC 2018) against the IRC.
func checkCodeEditionCurrent(rv *review, r *Rule) []observation {
	adopted := map[string]string{}
	for _, a := range rv.eng.adopted {
		adopted[a.Code] = a.Edition
	}
	for _, a := range rv.eng.stateCodes {
		adopted[a.Code] = a.Edition
	}
	var out []observation
	for _, c := range rv.facts.Codes {
		code, edition := c.Group, c.Extra
		want, ok := adopted[code]
		if !ok && rv.eng.base != nil {
			if bc, be, known := rv.eng.base(code, edition); known {
				if w, adoptedBase := adopted[bc]; adoptedBase {
					code, edition, want, ok = bc, be, w, true
				}
			}
		}
		if !ok || edition == want {
			continue
		}
		stated := c.Group + " " + c.Extra
		if code != c.Group {
			stated += " (based on " + code + " " + edition + ")"
		}
		out = append(out, observation{page: rv.view(c.Sheet), words: c.Words,
			vars:     map[string]string{"stated": stated, "adopted": code + " " + want, "code": code, "basis": rv.basisClause(code + " " + want)},
			evidence: c.Group + " " + c.Extra})
	}
	return out
}
