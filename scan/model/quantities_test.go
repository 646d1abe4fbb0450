package model_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"planreview/scan/model"
	"planreview/scan/pdftext"
	"planreview/scan/plangen"
)

// buildSpecs writes the sheets as a real PDF, extracts it and reads the
// set's model.
func buildSpecs(t *testing.T, specs ...plangen.SheetSpec) *model.Set {
	t.Helper()
	f, err := plangen.Sheets("test.pdf", specs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "test.pdf")
	if err := os.WriteFile(path, f.PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	doc, err := pdftext.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	src := model.Source{ID: "test"}
	for p := range doc.Pages(ctx) {
		src.Pages = append(src.Pages, *p)
	}
	set, err := model.Build(ctx, []model.Source{src})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func concat(groups ...[]plangen.LabelSpec) []plangen.LabelSpec {
	var out []plangen.LabelSpec
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

const scale14 = `1/4" = 1'-0"`

// tagNames lists the tags a quantity carries, by the names packs use.
func tagNames(q model.Quantity) string {
	var out []string
	for _, n := range model.TagNames() {
		if tag, _ := model.ParseTag(n); q.Has(tag) {
			out = append(out, n)
		}
	}
	return strings.Join(out, ",")
}

// quantities lists "kind value printing [tags]: text" for every quantity
// of the set, sorted.
func quantities(set *model.Set) []string {
	var out []string
	for _, s := range set.Sheets {
		for _, q := range s.Quantities() {
			out = append(out, fmt.Sprintf("%s %s %g %s [%s]: %s", s.Ident.Number, q.Kind, q.Value, q.Printing, tagNames(q), q.Text))
		}
	}
	sort.Strings(out)
	return out
}

func has(list []string, prefix string) bool {
	for _, l := range list {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// Every way of printing a value is read by one reader for all kinds: the
// value before its element, the element then its value (the plan
// generator's "KEYWORD value" among them), a stacked label, a schedule
// column; the context the codes' exceptions need is typed.
func TestQuantitiesByPrinting(t *testing.T) {
	set := buildSpecs(t,
		plangen.SheetSpec{Number: "A-301", Title: "BUILDING SECTIONS", Date: "2026-03-02", Scale: scale14,
			Labels: concat(
				plangen.Notes(120, 140, "MAIN STAIR", "15 RISERS", `8 1/4" RISE`, `9" RUN`, `6'-4" MIN. HEADROOM`, `HANDRAIL 39" ABOVE NOSING`),
				plangen.Notes(900, 140, "DECK NOTES", `32" HIGH GUARDRAIL`),
				plangen.Notes(1500, 140, "BEDROOM 3", `6'-10" CLG.`),
				plangen.Notes(120, 700, "GUARD HEIGHT 32\""),
				plangen.Notes(900, 700, `14 RISERS @ 8 1/4"`),
				plangen.Notes(1500, 700, `CEILING HEIGHT 6'-10"`),
				plangen.Notes(120, 1100, `FRONT DOOR 2'-6" CLEAR`),
				plangen.Notes(900, 1100, "EGRESS WINDOW NET CLEAR OPENING 4.8 SF"),
				plangen.Notes(1500, 1100, `EGRESS WINDOW SILL HEIGHT 48"`))},
	)
	got := quantities(set)
	for _, want := range []string{
		`A-301 riser-height 8.25 note [egress-path,stair]: 8 1/4" RISE`,
		`A-301 tread-depth 9 note [egress-path,stair]: 9" RUN`,
		`A-301 headroom 76 note [stair]: 6'-4" MIN. HEADROOM`,
		`A-301 handrail-height 39 note [stair]: HANDRAIL 39" ABOVE`,
		`A-301 guard-height 32 note [outdoor]: 32" HIGH GUARDRAIL`,
		`A-301 ceiling-height 82 note []: 6'-10" CLG.`,
		`A-301 guard-height 32 note []: GUARD HEIGHT 32"`,
		`A-301 riser-height 8.25 note [stair]: 14 RISERS @ 8 1/4"`,
		`A-301 ceiling-height 82 note []: CEILING HEIGHT 6'-10"`,
		`A-301 door-clear-width 30 note [egress]: FRONT DOOR 2'-6" CLEAR`,
		`A-301 escape-opening-area 4.8 note [egress,egress-path]: EGRESS WINDOW NET CLEAR OPENING 4.8 SF`,
		`A-301 escape-sill-height 48 note [egress,egress-path]: EGRESS WINDOW SILL HEIGHT 48"`,
	} {
		if !has(got, want) {
			t.Errorf("missing %s", want)
		}
	}
	if len(got) != 12 {
		t.Errorf("read %d quantities, want 12:\n%s", len(got), strings.Join(got, "\n"))
	}
	for _, s := range set.Sheets {
		for _, q := range s.Quantities() {
			if len(q.Words) == 0 || q.Box.X1 <= q.Box.X0 {
				t.Errorf("%s: no evidence words or box", q.Text)
			}
		}
	}
}

// Look-alikes: an existing stair (read, typed existing), a roof's rise, a
// window's head height, a corner guard, joist spacing, a metric stair
// (never read), a tread's thickness, a guard's drop above grade, a duct's
// run, a stair guard (typed stair), a legend's sample ceiling tag.
func TestQuantitiesLookAlikes(t *testing.T) {
	set := buildSpecs(t,
		plangen.SheetSpec{Number: "A-302", Title: "WALL SECTIONS", Date: "2026-03-02", Scale: scale14,
			Labels: concat(
				plangen.Notes(120, 140, "EXISTING STAIR TO REMAIN", "15 RISERS", `8 1/2" RISE`),
				plangen.Notes(900, 140, "ROOF FRAMING", `4" RISE PER FOOT`, `2X8 @ 16" CEILING JOISTS`),
				plangen.Notes(1500, 140, `6'-8" HEAD HEIGHT`, `4" CORNER GUARD`),
				plangen.Notes(900, 700, "STAIR B", "14 RISERS x 210mm HIGH", "TREADS X 230mm"),
				plangen.Notes(1500, 700, "STAIR C", `1 1/8" TREAD`, `36" TREAD WIDTH`),
				plangen.Notes(120, 1200, "DECK NOTES", `GUARD AT 30" ABOVE GRADE`, `8" DUCT RUN`),
				plangen.Notes(900, 1200, "STAIR NOTES", `34" HIGH GUARDRAIL`))},
	)
	got := quantities(set)
	want := []string{
		`A-302 guard-height 34 note [egress-path,stair]: 34" HIGH GUARDRAIL`,
		`A-302 riser-height 8.5 note [egress-path,existing,stair]: 8 1/2" RISE`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("quantities:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// The stair, corridor, ramp and guard-opening dimensions the packs
// measure: a rise stated with its landings is typed so, a width provided is
// a capacity statement, on-centre spacing is no opening.
func TestQuantitiesWidthsSlopesOpenings(t *testing.T) {
	set := buildSpecs(t,
		plangen.SheetSpec{Number: "A-201", Title: "PLANS", Date: "2026-03-02", Scale: scale14,
			Labels: concat(
				plangen.Notes(120, 140, `STAIR WIDTH 34"`),
				plangen.Notes(900, 140, `HALLWAY WIDTH 2'-10"`),
				plangen.Notes(1500, 140, "RAMP SLOPE 1:10"),
				plangen.Notes(120, 700, `TOTAL RISE 13'-0" WITH LANDING`),
				plangen.Notes(900, 700, `BALUSTER SPACING 4 1/2" CLEAR`),
				plangen.Notes(1500, 700, `BALUSTERS @ 5" O.C.`),
				plangen.Notes(120, 1100, `STAIR WIDTH PROVIDED: 88"`),
				plangen.Notes(900, 1100, `44" MIN. CLEAR CORRIDOR WIDTH`),
				plangen.Notes(1500, 1100, "RAMP @ 8.33%"))},
	)
	got := quantities(set)
	want := []string{
		`A-201 corridor-width 34 note []: HALLWAY WIDTH 2'-10"`,
		`A-201 corridor-width 44 note [egress-path]: 44" MIN. CLEAR CORRIDOR WIDTH`,
		`A-201 flight-rise 156 note [landing,stair]: TOTAL RISE 13'-0"`,
		`A-201 guard-opening 4.5 note []: BALUSTER SPACING 4 1/2" CLEAR`,
		`A-201 ramp-slope 0.0833 note []: RAMP @ 8.33%`,
		`A-201 ramp-slope 0.1 note [sloped]: RAMP SLOPE 1:10`,
		`A-201 stair-width 34 note [egress-path,stair]: STAIR WIDTH 34"`,
		`A-201 stair-width 88 note [egress-path,provided,stair]: STAIR WIDTH PROVIDED: 88"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("quantities:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// A metric sheet's dimensions are never read: the codes the rules judge
// are imperial, and a metric sheet is from a jurisdiction they do not
// govern.
func TestQuantitiesMetricSheet(t *testing.T) {
	set := buildSpecs(t,
		plangen.SheetSpec{Number: "A-201", Title: "STAIR SECTION", Date: "2026-03-02", Scale: "1:50",
			Labels: concat(
				plangen.Notes(120, 140, "STAIR 1", "17 RISERS @ 175 MM", "TREAD 280 MM", "HEADROOM: 2000 MM", "HANDRAIL HEIGHT 900 MM", "STAIR WIDTH 1200 MM", "TOTAL RISE 2975 MM"),
				plangen.Notes(900, 140, "BALCONY", "GUARD HEIGHT 1.0 M", "CEILING HEIGHT 2.4 M", "BALUSTER SPACING 100 MM", "CORRIDOR WIDTH 1.5 M"),
				plangen.Notes(120, 700, "EGRESS WINDOW NET CLEAR OPENING 0.53 M2"))},
	)
	if got := quantities(set); len(got) != 0 {
		t.Errorf("metric values read: %v", got)
	}
}

// A legend's sample (a room tag with its ceiling height, shown to explain
// the tag) is no ceiling height of a room.
func TestQuantitiesLegendSample(t *testing.T) {
	meanings := []string{"ROOM NAME TAG", "CEILING HEIGHT TAG", "DOOR TAG DESIGNATION", "WINDOW TAG DESIGNATION", "SECTION INDICATOR"}
	var labels []plangen.LabelSpec
	for i, m := range meanings {
		labels = append(labels, plangen.LabelSpec{Text: m, Left: 300, Top: 140 + float64(i)*22, Size: 9})
	}
	for i, s := range []string{"NAME", `6'-0" CLG.`, "101", "A", "1"} {
		labels = append(labels, plangen.LabelSpec{Text: s, Left: 200, Top: 140 + float64(i)*22, Size: 9})
	}
	set := buildSpecs(t,
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14,
			Labels: concat(plangen.Notes(200, 110, "LEGEND"), labels, plangen.Notes(1200, 700, "BEDROOM 2", `6'-10" CLG.`))})
	got := quantities(set)
	want := []string{`A-101 ceiling-height 82 note []: 6'-10" CLG.`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("quantities:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// Schedules: a door schedule's entry doors (leaf width, or clear width by
// its header), a window schedule's escape openings, a room schedule's
// ceiling heights with the room's kind typed; frames, rough openings,
// unmarked windows and closets are not read.
func TestQuantitiesSchedules(t *testing.T) {
	doorLabels, doorRules := plangen.Table(120, 900, []float64{60, 220, 160, 120},
		[]string{"MARK", "LOCATION", "SIZE", "TYPE"},
		[]string{"101", "FRONT ENTRY", `2'-6" X 6'-8"`, "A"},
		[]string{"102", "BEDROOM 2", `2'-6" X 6'-8"`, "B"},
		[]string{"103", "REAR ENTRY (E)", "2668", "A"},
		[]string{"104", "ENTRY CLOSET", `2'-0" X 6'-8"`, "C"})
	winLabels, winRules := plangen.Table(900, 900, []float64{60, 180, 220, 100},
		[]string{"MARK", "ROOM", "NET CLEAR OPENING (SF)", "EGRESS"},
		[]string{"W1", "BEDROOM 1", "5.2", "YES"},
		[]string{"W2", "LIVING", "4.0", ""})
	roomLabels, roomRules := plangen.Table(120, 1300, []float64{60, 220, 160},
		[]string{"NO.", "ROOM NAME", "CEILING HEIGHT"},
		[]string{"201", "LIVING", `8'-0"`},
		[]string{"202", "BATH", `6'-8"`})
	set := buildSpecs(t,
		plangen.SheetSpec{Number: "A-601", Title: "SCHEDULES", Date: "2026-03-02", Scale: "NTS",
			Labels:  concat(plangen.Notes(120, 860, "DOOR SCHEDULE"), doorLabels, plangen.Notes(900, 860, "WINDOW SCHEDULE"), winLabels, roomLabels),
			Strokes: append(append(doorRules, winRules...), roomRules...)})
	got := quantities(set)
	want := []string{
		`A-601 ceiling-height 80 schedule [bath]: BATH 6'-8"`,
		`A-601 ceiling-height 96 schedule []: LIVING 8'-0"`,
		`A-601 door-clear-width 30 schedule [egress,existing]: 2668`,
		`A-601 door-clear-width 30 schedule [egress]: 2'-6" X 6'-8"`,
		`A-601 escape-opening-area 5.2 schedule [egress]: 5.2`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("quantities:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	for _, q := range set.Sheets[0].QuantitiesOf(model.DoorClearWidth) {
		if q.Where != "leaf width in the door schedule" {
			t.Errorf("door %s: where %q", q.Text, q.Where)
		}
	}
}

func TestDoorWidth(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{`3'-0"`, 36, true},
		{`2'-8" X 6'-8"`, 32, true},
		{`6'-8" x 3'-0"`, 36, true}, // height first: the smaller is the width
		{"3068", 36, true},
		{"2868", 32, true},
		{"3070", 36, true},
		{"2X4", 0, false},
		{"900 X 2100", 0, false}, // metric: never read
		{"A", 0, false},
	} {
		got, _, ok := model.DoorWidth(c.in)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("DoorWidth(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// On real sheets: the Calgary house section prints its stairs as stacked
// annotations ("15 RISERS" / "10" RUN" / "7 1/4" RISE") and a window head
// height ("7'-10 3/4" TYP HEAD HEIGHT") that is not stair headroom; the
// Crayfish Inn's stair note is metric ("14 RISERS x 163.9mm HIGH") and the
// JKR school's too ("RISER: 150MM"), never read; the VA finish plans name
// corner guards and handrail products, not heights.
func TestCorpusQuantities(t *testing.T) {
	read := func(name string) map[string]bool {
		set, err := model.Build(context.Background(), []model.Source{readSource(t, name)})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, s := range set.Sheets {
			for _, q := range s.Quantities() {
				out[string(q.Kind)+" "+q.Text] = true
			}
		}
		return out
	}
	calgary := read("ca_calgary_sample_dp_bp_house_26p.pdf")
	for _, want := range []string{`riser-height 7 1/4" RISE`, `tread-depth 10" RUN`} {
		if !calgary[want] {
			t.Errorf("calgary: %s not read; read %v", want, calgary)
		}
	}
	for k := range calgary {
		if strings.HasPrefix(k, "headroom") || strings.Contains(k, "HEAD HEIGHT") {
			t.Errorf("calgary: a head height read as %s", k)
		}
	}
	for _, name := range []string{"za_crayfish_inn_architectural_plans.pdf", "my_jkr_sabah_school_admin_block.pdf",
		"opentakeoff_va_finish_plan.pdf", "us_va_stcloud_bldg28_renovation_cds.pdf"} {
		if got := read(name); len(got) != 0 {
			t.Errorf("%s: read %v", name, got)
		}
	}
}
