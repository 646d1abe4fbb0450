package model_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"planreview/scan/model"
	"planreview/scan/plangen"
)

// setProjectData is every sheet's project facts and area lists, in order.
type setProjectData struct {
	facts []model.ProjectFact
	lists []model.AreaList
}

func projectDataOf(set *model.Set) setProjectData {
	var pd setProjectData
	for _, s := range set.Sheets {
		pd.facts = append(pd.facts, s.ProjectFacts()...)
		pd.lists = append(pd.lists, s.AreaLists()...)
	}
	return pd
}

// TestProjectDataCorpus reads the project data of real sheets: the
// Calgary house's GROSS AREAS block (values under and right of wrapped
// labels) and the Slovenian room list whose column adds up to its total.
func TestProjectDataCorpus(t *testing.T) {
	read := func(name string) setProjectData {
		path := filepath.Join(corpusDir, name)
		if _, err := os.Stat(path); err != nil {
			t.Skip("corpus not present")
		}
		set, err := buildCorpusSet(path)
		if err != nil {
			t.Fatal(err)
		}
		return projectDataOf(set)
	}
	pd := read("ca_calgary_sample_dp_bp_house_26p.pdf")
	want := map[string]string{
		"lot":                "550.52M2",
		"footprint":          "66.28M2",
		"total":              "1177.33FT2",
		"floor MAIN":         "593.33FT2",
		"floor SECOND":       "584.00FT2",
		"floor BASEMENT":     "584.00FT2",
		"coverage":           "17.43%",
		"coverage allowable": "45%",
	}
	got := map[string]string{}
	for _, f := range pd.facts {
		if f.Sheet.Page.Number != 3 {
			continue
		}
		k := f.AreaKind
		if f.Level != "" {
			k += " " + f.Level
		}
		if f.Qualifier != "" {
			k += " " + f.Qualifier
		}
		got[k] = f.Value
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Calgary sheet 2 %s: %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	// The South African inn: NEW 1ST FLOOR AREA from its area schedule,
	// room tags named by their first line (name over finishes over area).
	pd = read("za_crayfish_inn_architectural_plans.pdf")
	var newFirst, kitchen bool
	for _, f := range pd.facts {
		newFirst = newFirst || f.AreaKind == model.AreaFloor && f.Level == "FIRST" && f.Qualifier == "new" && f.Value == "109sqm"
		kitchen = kitchen || f.AreaKind == model.AreaRoom && f.Label == "EX. KITCHEN" && f.Value == "26 m²" && f.Sheet.Page.Number == 2
	}
	if !newFirst || !kitchen {
		t.Errorf("crayfish inn: new first floor read %v, kitchen tag read %v", newFirst, kitchen)
	}
	pd = read("si_archicad_atrium_house_floor_plan.pdf")
	if len(pd.lists) != 1 || len(pd.lists[0].Items) != 13 || pd.lists[0].Total.Value != "143.39 m²" {
		t.Fatalf("room list: %+v", pd.lists)
	}
	sum := 0.0
	for _, it := range pd.lists[0].Items {
		sum += it.Measure.Value
	}
	if math.Abs(sum-143.39) > 1e-6 {
		t.Errorf("room list items add up to %v", sum)
	}
}

// factsOfPDF writes the sheets as a PDF and reads their project data.
func factsOfPDF(t *testing.T, specs ...plangen.SheetSpec) setProjectData {
	t.Helper()
	return projectDataOf(buildSpecs(t, specs...))
}

func TestProjectDataLayoutsPDF(t *testing.T) {
	row := func(top float64, texts ...string) []plangen.LabelSpec {
		var out []plangen.LabelSpec
		for i, s := range texts {
			out = append(out, plangen.LabelSpec{Text: s, Left: 120 + float64(i)*110, Top: top, Size: 9})
		}
		return out
	}
	var labels []plangen.LabelSpec
	// Two label/value pairs on one baseline, each a run of its own.
	labels = append(labels, row(140, "LOT AREA:", "6,000 SF", "LOT COVERAGE:", "30%")...)
	// One label, two values (existing, proposed) with no header: not read.
	labels = append(labels, row(200, "SECOND FLOOR AREA:", "800 SF", "900 SF")...)
	// Metric phrasings.
	labels = append(labels, plangen.Notes(120, 260, "GROSS MAIN FLOOR AREA: 66.28M2", "NEW 1ST FLOOR AREA 109sqm",
		"TOTAL CONDITIONED AREA 2,450 SF", "STORIES 2", `BUILDING HEIGHT 24'-6"`, "NOTE: 2-STORY WOOD FRAME ADDITION")...)
	pd := factsOfPDF(t, plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Labels: labels})
	got := map[string]string{}
	for _, f := range pd.facts {
		if f.AreaKind == model.AreaRoom {
			continue // an area no label claims
		}
		k := f.Kind + "/" + f.AreaKind + "/" + f.Level
		if _, dup := got[k]; dup {
			t.Errorf("%s read twice", k)
		}
		got[k] = f.Value
	}
	want := map[string]string{
		"area/lot/":         "6,000 SF",
		"area/coverage/":    "30%",
		"area/floor/MAIN":   "66.28M2",
		"area/floor/FIRST":  "109sqm",
		"area/total/":       "2,450 SF",
		"stories//":         "2",
		"building_height//": `24'-6"`,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	if v, ok := got["area/floor/SECOND"]; ok {
		t.Errorf("a label with two values read as %q", v)
	}
	if len(got) != len(want) {
		t.Errorf("facts %v, want %v", got, want)
	}
}
