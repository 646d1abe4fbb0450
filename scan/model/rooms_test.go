package model_test

import (
	"fmt"
	"strings"
	"testing"

	"planreview/scan/plangen"
)

// A room tag is a name over a number centred on it; a number with no
// name over it, or a legend's sample, is none.
func TestRoomTags(t *testing.T) {
	set := buildSpecs(t, plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: []plangen.LabelSpec{
			label("HC BATH", 300, 300, 9), label("RM.", 312, 312, 9), label("2042", 308, 324, 9),
			label("2 BED RM.", 600, 300, 9), label("2043", 612, 312, 9),
			label("2044", 900, 300, 9),
		}})
	var got []string
	for _, r := range set.Sheets[0].RoomTags() {
		got = append(got, fmt.Sprintf("%s=%s%v", r.Number, r.Name, r.Distinctive))
	}
	want := "2042=HC BATH RM.[HC BATH] 2043=2 BED RM.[BED]"
	if strings.Join(got, " ") != want {
		t.Errorf("room tags %q, want %q", strings.Join(got, " "), want)
	}
}
