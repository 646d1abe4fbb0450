package model_test

import (
	"fmt"
	"strings"
	"testing"

	"planreview/scan/model"
	"planreview/scan/plangen"
)

func label(text string, left, top, size float64) plangen.LabelSpec {
	return plangen.LabelSpec{Text: text, Left: left, Top: top, Size: size}
}

var refKindNames = map[model.RefKind]string{
	model.RefCallout: "callout", model.RefMatchline: "matchline", model.RefSheet: "sheet",
	model.RefDrawings: "drawings", model.RefDocument: "document",
}

// describe is a reference as the test compares it: kind, what it points
// at, and its flags.
func describe(r model.Reference) string {
	at := r.Target
	switch r.Kind {
	case model.RefDrawings:
		at = r.Drawing
	case model.RefDocument:
		at = r.Document
	}
	var flags []string
	for name, on := range map[string]bool{"sample": r.Sample, "bare": r.Bare, "unlettered": r.Unlettered,
		"measure": r.MeasureAfter, "document": r.NamesDocument, "stacked": r.Stacked, "particular": r.Particular} {
		if on {
			flags = append(flags, name)
		}
	}
	sortStrings(flags)
	s := fmt.Sprintf("%s %s", refKindNames[r.Kind], at)
	if r.Detail != "" {
		s += " detail " + r.Detail
	}
	if len(flags) > 0 {
		s += " [" + strings.Join(flags, ",") + "]"
	}
	return s
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Every way a sheet points elsewhere is one typed reference with its
// words and box: callouts inline and in a bubble, a matchline's tag,
// written sheet references with their lists, a kind of drawing, a
// document; a legend's sample callout is marked a sample; what follows a
// target that makes it a measure or a document's name is recorded for
// the checks to judge.
func TestReferencesByKind(t *testing.T) {
	legend := []plangen.LabelSpec{
		label("XX", 400, 140, 10), label("NEW COLUMN LINE", 500, 140, 10),
		label("1", 409, 157, 9), label("A-501", 400, 168, 9), label("SECTION INDICATOR", 500, 162, 10),
		label("SHEET NUMBER", 500, 184, 10),
		label("100", 402, 206, 10), label("ROOM NUMBER DESIGNATION", 500, 206, 10),
		label("XXX", 400, 228, 10), label("DOOR TAG", 500, 228, 10),
	}
	plan := []plangen.LabelSpec{
		label("3", 1209, 900, 9), label("A-502", 1200, 911, 9),
		label("MATCHLINE", 1500, 400, 10), label("A-103", 1505, 416, 10),
	}
	notes := plangen.Notes(120, 600,
		"1. FLASHING SEE 3/A-401.",
		"2. SEE SHEET S-201 & S-202 FOR FRAMING.",
		"3. ANCHORS, REFER TO STRUCTURAL DRAWINGS.",
		"4. SEE ROOF PLAN 2/A-301 FOR SLOPES.",
		"5. FOOTINGS PER SOILS REPORT.",
		"6. SEE T-24 FORMS.",
		"7. SEE 3/12 FOR TRIM.",
		`8. SEE 1/8" = 1'-0" SCALE.`,
	)
	set := buildSpecs(t, plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
		Labels: concat(legend, plan, notes)})
	s := set.Sheets[0]
	var got []string
	for _, r := range s.References() {
		if len(r.Words) == 0 || r.Box.X1 <= r.Box.X0 || r.Text == "" {
			t.Errorf("%s: no evidence (words %v box %v text %q)", describe(r), r.Words, r.Box, r.Text)
		}
		got = append(got, describe(r))
	}
	want := []string{
		"callout A-501 detail 1 [sample,stacked]",
		"matchline A-103 [stacked]",
		"callout A-502 detail 3 [stacked]",
		"callout A-401 detail 3",
		"sheet S-201",
		"sheet S-202",
		"drawings structural drawings",
		"callout A-301 detail 2",
		"drawings a roof plan [particular]",
		"document soils report",
		"sheet T-24 [bare,document]",
		"callout 12 detail 3 [unlettered]",
		"callout 8 detail 1 [measure,unlettered]",
	}
	sortStrings(got)
	sortStrings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("references:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	if len(s.ReferencesOf(model.RefDocument)) != 1 {
		t.Errorf("documents: %d, want 1", len(s.ReferencesOf(model.RefDocument)))
	}
}

// A sheet shows a kind of drawing by its title, its discipline or a
// view's caption; a note pointing at the kind does not show it.
func TestShowsDrawing(t *testing.T) {
	set := buildSpecs(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: concat(plangen.Notes(120, 600, "1. SEE REFLECTED CEILING PLAN FOR LIGHTS."),
				plangen.Notes(900, 900, `ROOF PLAN  SCALE: 1/8" = 1'-0"`))},
		plangen.SheetSpec{Number: "S-201", Title: "FOUNDATION PLAN", Date: "2026-03-02", Scale: scale14},
	)
	a, st := set.Sheets[0], set.Sheets[1]
	for _, c := range []struct {
		s    *model.Sheet
		kind string
		want bool
	}{
		{a, "reflected ceiling plans", false},
		{a, "a roof plan", true},
		{a, "structural drawings", false},
		{st, "structural drawings", true},
		{st, "a foundation plan", true},
	} {
		if got := c.s.ShowsDrawing(c.kind); got != c.want {
			t.Errorf("%s shows %s: %v, want %v", c.s.Ident.Number, c.kind, got, c.want)
		}
	}
}

// A sheet is a document the notes rely on by its title, or by the line
// such a document names itself with; a deferred-submittal list is its
// heading and the items under it, a sentence about deferred submittals
// is none.
func TestDocumentsAndDeferredLists(t *testing.T) {
	set := buildSpecs(t,
		plangen.SheetSpec{Number: "G-001", Title: "COVER SHEET", Date: "2026-03-02", Scale: scale14,
			Labels: concat(plangen.Notes(120, 600, "DEFERRED SUBMITTALS:", "1. FIRE SPRINKLERS", "2. ROOF TRUSSES", "PROJECT TEAM"),
				plangen.Notes(900, 1200, "DEFERRED SUBMITTAL DOCUMENTS SHALL BE REVIEWED BY THE ARCHITECT."))},
		plangen.SheetSpec{Number: "S-001", Title: "TRUSS LAYOUT", Date: "2026-03-02", Scale: scale14},
		plangen.SheetSpec{Number: "E-001", Title: "ENERGY", Date: "2026-03-02", Scale: scale14,
			Labels: plangen.Notes(120, 600, "COMPLIANCE CERTIFICATE")},
	)
	g, s, e := set.Sheets[0], set.Sheets[1], set.Sheets[2]
	lists := g.DeferredLists()
	if len(lists) != 1 || strings.Join(lists[0].Items, "|") != "|1. FIRE SPRINKLERS|2. ROOF TRUSSES" || len(lists[0].Words) == 0 {
		t.Errorf("deferred lists: %+v", lists)
	}
	if len(s.DeferredLists()) != 0 {
		t.Errorf("S-001 deferred lists: %+v", s.DeferredLists())
	}
	for _, c := range []struct {
		s    *model.Sheet
		kind string
		want bool
	}{
		{s, model.DocTrusses, true},
		{g, model.DocTrusses, false},
		{e, model.DocEnergy, true},
		{e, model.DocCalculations, false},
	} {
		if got := c.s.IsDocument(c.kind); got != c.want {
			t.Errorf("%s is %s: %v, want %v", c.s.Ident.Number, c.kind, got, c.want)
		}
	}
}
