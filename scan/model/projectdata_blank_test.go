package model

import "testing"

func TestValueShape(t *testing.T) {
	for _, tc := range []struct {
		field, value string
		blank        bool
	}{
		{FieldOccupancy, "", true},
		{FieldOccupancy, "--", true},
		{FieldOccupancy, "-", true},
		{FieldOccupancy, "TBD", true},
		{FieldConstruction, "XX", true},
		{FieldHeight, "FT", true},
		{FieldHeight, "___ FT.", true},
		{FieldHeight, "XX'-XX\"", true},
		{FieldArea, "SF", true},
		{FieldArea, "XXXX SF", true},
		{FieldStories, "???", true},
		// Answers and values.
		{FieldSprinklers, "N/A", false},
		{FieldSprinklers, "NONE", false},
		{FieldSprinklers, "NO", false},
		{FieldSprinklers, "NOT REQUIRED", false},
		{FieldSprinklers, "X", false}, // a check mark
		{FieldOccupancy, "R-3", false},
		{FieldHeight, "24 FT", false},
		{FieldArea, "-", false}, // a level without area
		{FieldOwner, "JOHN SMITH", false},
	} {
		if got := valueShape(tc.field, tc.value) == valueBlank; got != tc.blank {
			t.Errorf("%s %q: blank %v, want %v", tc.field, tc.value, got, tc.blank)
		}
	}
}

func TestProjectFieldOf(t *testing.T) {
	for label, want := range map[string]string{
		"OCCUPANCY":             FieldOccupancy,
		"OCCUPANCY GROUP:":      FieldOccupancy,
		"CONSTRUCTION TYPE":     FieldConstruction,
		"SPRINKLERED":           FieldSprinklers,
		"FIRE SPRINKLERS:":      FieldSprinklers,
		"BUILDING HEIGHT":       FieldHeight,
		"NUMBER OF STORIES":     FieldStories,
		"LOT AREA":              FieldArea,
		"TOTAL FLOOR AREA":      FieldArea,
		"OWNER":                 FieldOwner,
		"APN":                   FieldParcel,
		"ASSESSOR'S PARCEL NO.": FieldParcel,
		"PROJECT ADDRESS":       FieldAddress,
		"LEGAL DESCRIPTION":     FieldLegal,
		"ZONING":                FieldZoning,
		// Not project data.
		"DRAWN BY":   "",
		"DATE":       "",
		"GROUP":      "",
		"KITCHEN":    "",
		"SCALE":      "",
		"MAX HEIGHT": "",
	} {
		if got := projectFieldOf(label); got != want {
			t.Errorf("%q: %q, want %q", label, got, want)
		}
	}
}
