package rules

import (
	"strings"
	"testing"

	"planreview/scan/plangen"
)

func TestTemplateMarksPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-711", Title: "FINISH PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140,
				"GENERAL FINISH NOTES",
				"K. HOLLOW METAL DOOR FRAMES ARE TO BE PAINTED (Px) IN A SEMI-GLOSS FINISH.")},
		plangen.SheetSpec{Number: "E-600", Title: "ELECTRICAL DETAILS", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140,
				"LIGHTING SEQUENCE NOTES",
				"2. CONTROL STATION SHALL BE CAPABLE OF [RAISE/LOWER AND] SWITCHING ON/OFF.")},
		plangen.SheetSpec{Number: "E-601", Title: "LUMINAIRE SCHEDULE", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140, "LUMINAIRE NOTES", "1. PROVIDE DRIVERS PER [DESIGN SPECIFIC BLANKS] IN SCHEDULE.")},
		// Look-alikes: units, code citations, symbols, a drawing's own
		// bracketed remarks, tags with a number, mixed-case text.
		plangen.SheetSpec{Number: "A-712", Title: "SECOND FLOOR FINISH PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 140,
				"1. CONCRETE STRENGTH 32 (MPa) AT 28 DAYS.",
				"2. WARNING LABEL PER [2014 NEC 110.21(B)].",
				"3. [Z#] DENOTES LIGHTING CONTROL ZONE.",
				"4. CASEWORK [BY OTHERS] SHOWN DASHED.",
				"5. SWITCH [ON/OFF] AT PANEL.",
				"6. PAINT FRAMES (P1) SEMI-GLOSS; DOORS (EX) TO REMAIN.",
				"7. Paint frames (Px) semi-gloss.")},
	)
	got := byRule(fs, "completeness-unfinished-text")
	want := map[string]bool{"(Px)": false, "[RAISE/LOWER AND]": false, "[DESIGN SPECIFIC BLANKS]": false}
	for _, f := range got {
		if f.SheetNumber == "A-712" {
			t.Errorf("look-alike reported: %v", anchorTexts([]Finding{f}))
			continue
		}
		for k := range want {
			if strings.Contains(f.Rationale, k) {
				want[k] = true
			}
		}
	}
	for k, found := range want {
		if !found {
			t.Errorf("template mark %s not reported; got %v", k, anchorTexts(got))
		}
	}
}
