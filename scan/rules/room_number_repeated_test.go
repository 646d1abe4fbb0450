package rules

import (
	"testing"

	"planreview/scan/plangen"
)

// roomTagLabels draws a room tag: the name at 10 pt over the number at
// 8 pt, centred under it.
func roomTagLabels(name, number string, left, top float64) []plangen.LabelSpec {
	nameWidth, numberWidth := float64(len(name))*5.6, float64(len(number))*4.4
	return []plangen.LabelSpec{
		{Text: name, Left: left, Top: top, Size: 10},
		{Text: number, Left: left + (nameWidth-numberWidth)/2, Top: top + 12, Size: 8},
	}
}

func tagsAt(tags ...[]plangen.LabelSpec) []plangen.LabelSpec {
	var out []plangen.LabelSpec
	for _, t := range tags {
		out = append(out, t...)
	}
	return out
}

func TestRoomNumberRepeatedPDF(t *testing.T) {
	fs := reviewPDF(t,
		plangen.SheetSpec{Number: "A-120", Title: "SECOND FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: tagsAt(
				roomTagLabels("HC BATH RM.", "2042", 300, 300),
				roomTagLabels("2 BED RM.", "2042", 600, 300),
				roomTagLabels("2 BED RM.", "2041", 300, 600),
				roomTagLabels("HC BATH RM.", "2041A", 600, 600))},
		// Look-alikes: one room tagged twice (a large room, an enlarged
		// plan on the sheet), the same room named shorter, numbers
		// without a name over them, different numbers.
		plangen.SheetSpec{Number: "A-121", Title: "THIRD FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: append(tagsAt(
				roomTagLabels("CORRIDOR", "3001", 300, 300),
				roomTagLabels("CORRIDOR", "3001", 900, 300),
				roomTagLabels("MEN'S TOILET", "3010", 300, 600),
				roomTagLabels("MENS TOILET RM.", "3010", 900, 600),
				roomTagLabels("OFFICE", "3020", 300, 900),
				roomTagLabels("STORAGE", "3021", 900, 900),
				// Metric dimensions under labels, numbered in no series.
				roomTagLabels("WINDOW", "1500", 300, 1100),
				roomTagLabels("DOOR", "1500", 900, 1100)),
				plangen.LabelSpec{Text: "3030", Left: 500, Top: 1000, Size: 8},
				plangen.LabelSpec{Text: "3030", Left: 700, Top: 1000, Size: 8})},
	)
	got := byRule(fs, "consistency-room-number-repeated")
	if len(got) != 1 || got[0].SheetNumber != "A-120" {
		t.Fatalf("want one repeated room number on A-120, got %v", anchorTexts(got))
	}
	if a := got[0].Anchors[0].Text; a != "2 BED RM. 2042" && a != "HC BATH RM. 2042" {
		t.Errorf("anchor %q", a)
	}
}
