package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestInspectFacts(t *testing.T) {
	file := tinyPDF(t, 0, `BT /F1 10 Tf 72 700 Td (PROJECT DATA) Tj 0 -14 Td (OCCUPANCY GROUP: R-3) Tj 0 -14 Td (NUMBER OF STORIES: 2) Tj `+
		`0 -14 Td (BUILDING HEIGHT: 24'-6") Tj 0 -14 Td (TOTAL CONDITIONED AREA: 2,450 SF) Tj 0 -14 Td (LOT AREA: 550.52 M2) Tj `+
		`0 -14 Td (NEW 2-STORY WOOD FRAME ADDITION) Tj ET`)
	out, err := runInspect(t, file, "--facts", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Facts []struct {
			Kind, AreaKind, Label, Value, Unit, Text, Sheet string
			Number, Canonical                               float64
			Page                                            int
		} `json:"facts"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	want := map[string]string{
		"occupancy":       "R-3",
		"stories":         "2",
		"building_height": `24'-6"`,
		"area/total":      "2,450 SF",
		"area/lot":        "550.52 M2",
	}
	seen := map[string]bool{}
	for _, f := range got.Facts {
		key := f.Kind
		if f.AreaKind != "" {
			key += "/" + f.AreaKind
		}
		v, ok := want[key]
		if !ok {
			t.Errorf("unexpected fact %+v", f)
			continue
		}
		if f.Value != v || f.Page != 1 || f.Text == "" {
			t.Errorf("%s: %+v, want value %q on page 1", key, f, v)
		}
		seen[key] = true
		switch key {
		case "building_height":
			if f.Unit != "ft-in" || f.Canonical != 294 {
				t.Errorf("height: %+v", f)
			}
		case "area/lot":
			if f.Unit != "m²" || f.Number != 550.52 || f.Canonical < 5925 || f.Canonical > 5926 {
				t.Errorf("lot area: %+v", f)
			}
		}
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("fact %s not printed:\n%s", k, out)
		}
	}
	text, err := runInspect(t, file, "--facts")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"fact(s)", "area/total", "2,450 SF (2450 sq ft)", "TOTAL CONDITIONED AREA: 2,450 SF", "building_height"} {
		if !strings.Contains(text, w) {
			t.Errorf("text output lacks %q:\n%s", w, text)
		}
	}
}
