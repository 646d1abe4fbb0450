package adoption

import (
	"strings"
	"testing"
	"time"
)

// TestEmbeddedTable checks every entry of the embedded table the way the
// loader does, and a few facts of each state against its sources.
func TestEmbeddedTable(t *testing.T) {
	table, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]bool{}
	for _, a := range table.Adoptions {
		if a.BasedOn.Code == "" || a.BasedOn.Edition == "" || len(a.Sources) == 0 {
			t.Errorf("%s %s: base or sources missing", a.Code, a.Edition)
		}
		if _, err := time.Parse(time.DateOnly, a.Effective); err != nil {
			t.Errorf("%s %s: effective %q", a.Code, a.Edition, a.Effective)
		}
		for _, s := range a.Sources {
			if s.Title == "" || !strings.HasPrefix(s.URL, "http") {
				t.Errorf("%s %s: source %+v", a.Code, a.Edition, s)
			}
		}
		states[a.Jurisdiction] = true
	}
	for _, st := range []string{"ca", "fl", "in", "va", "ct", "wa", "nc", "mn", "oh", "or", "ma", "nj", "pa", "sc", "ga", "mi"} {
		if !states["ocd-division/country:us/state:"+st] {
			t.Errorf("state %s missing", st)
		}
	}
	for _, st := range []string{"tx", "az", "co"} {
		if states["ocd-division/country:us/state:"+st] {
			t.Errorf("state %s adopts locally and must not be in the table", st)
		}
	}
	for _, tc := range []struct{ code, edition, base, baseEdition, effective string }{
		{"CBC", "2022", "IBC", "2021", "2023-01-01"},
		{"CRC", "2025", "IRC", "2024", "2026-01-01"},
		{"FBC", "2023", "IBC", "2021", "2023-12-31"},
		{"FBCR", "2023", "IRC", "2021", "2023-12-31"},
		{"NYCBC", "2022", "IBC", "2015", "2022-11-07"},
		{"VCC", "2018", "IBC", "2018", "2021-07-01"},
		{"VRC", "2021", "IRC", "2021", "2024-01-18"},
		{"CT-BC", "2018", "IBC", "2015", "2018-10-01"},
		{"CT-RC", "2022", "IRC", "2021", "2022-10-01"},
		{"WA-BC", "2018", "IBC", "2018", "2021-02-01"},
		{"WA-RC", "2021", "IRC", "2021", "2024-03-15"},
		{"NCBC", "2018", "IBC", "2015", "2019-01-01"},
		{"NCBC", "2024", "IBC", "2021", "2025-07-01"},
		{"NCRC", "2018", "IRC", "2015", "2019-01-01"},
		{"MN-BC", "2020", "IBC", "2018", "2020-03-31"},
		{"OH-BC", "2024", "IBC", "2021", "2024-03-01"},
		{"OSSC", "2022", "IBC", "2021", "2022-10-01"},
		{"ORSC", "2023", "IRC", "2021", "2023-10-01"},
		{"MA-BC", "10th", "IBC", "2021", "2024-10-11"},
		{"NJ-RC", "2021", "IRC", "2021", "2022-09-06"},
		{"PA-BC", "2021", "IBC", "2021", "2026-01-01"},
		{"SC-RC", "2018", "IRC", "2018", "2020-01-01"},
		{"GA-BC", "2018", "IBC", "2018", "2020-01-01"},
		{"MI-BC", "2021", "IBC", "2021", "2025-04-09"},
		{"MI-RC", "2018", "IRC", "2018", "2021-10-04"},
	} {
		a, ok := table.Find(tc.code, tc.edition)
		if !ok || a.BasedOn.Code != tc.base || a.BasedOn.Edition != tc.baseEdition || a.Effective != tc.effective {
			t.Errorf("%s %s: %+v %v", tc.code, tc.edition, a, ok)
		}
	}
}

func TestPrintedForms(t *testing.T) {
	table, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ form, code, state string }{
		{"Virginia Construction Code", "VCC", "va"},
		{"VCC", "VCC", "va"},
		{"CT  STATE BUILDING CODE", "CT-BC", "ct"},
		{"WA STATE BUILDING CODE", "WA-BC", "wa"},
		{"NCBC", "NCBC", "nc"},
		{"NORTH CAROLINA STATE BUILDING CODE", "", "nc"},
		{"Florida Building Code - Residential", "FBCR", "fl"},
		{"OREGON RESIDENTIAL SPECIALTY CODE", "ORSC", "or"},
		{"780 CMR", "", "ma"},
	} {
		code, j, ok := table.Printed(tc.form)
		if !ok || code != tc.code || j != "ocd-division/country:us/state:"+tc.state {
			t.Errorf("%q: %q %q %v", tc.form, code, j, ok)
		}
	}
	for _, form := range []string{"IBC", "OBC", "STATE BUILDING CODE", "MSBC", "UCC"} {
		if code, j, ok := table.Printed(form); ok {
			t.Errorf("%q read as %q %q", form, code, j)
		}
	}
	names, abbrevs := table.Forms()
	if len(names) == 0 || len(abbrevs) == 0 || strings.Contains(abbrevs[0], " ") || len(names[0]) < len(names[len(names)-1]) {
		t.Errorf("forms: %v %v", names, abbrevs)
	}
}

// TestParseRejects: the loader refuses an entry without what the
// presumption and the citations need.
func TestParseRejects(t *testing.T) {
	const entry = `  - jurisdiction: ocd-division/country:us/state:va
    code: VCC
    name: Virginia Construction Code
    edition: "2021"
    basedOn: {code: IBC, edition: "2021"}
    effective: 2024-01-18
    sources: [{title: Botetourt County, url: "https://www.botetourtva.gov/777/Current-Code"}]
`
	doc := func(entries, names string) string {
		return "schemaVersion: adoption-table-v1\nadoptions:\n" + entries + names
	}
	if _, err := parse([]byte(doc(entry, "names:\n  - {code: VCC, printed: [VIRGINIA CONSTRUCTION CODE, VCC]}\n"))); err != nil {
		t.Fatalf("valid table: %v", err)
	}
	for _, tc := range []struct{ name, doc, want string }{
		{"no sources", doc(strings.Replace(entry, `sources: [{title: Botetourt County, url: "https://www.botetourtva.gov/777/Current-Code"}]`, "sources: []", 1), ""), "cite at least one source"},
		{"source without address", doc(strings.Replace(entry, `https://www.botetourtva.gov/777/Current-Code`, "botetourt", 1), ""), "web address"},
		{"source without title", doc(strings.Replace(entry, `title: Botetourt County`, `title: ""`, 1), ""), "web address"},
		{"no base", doc(strings.Replace(entry, `basedOn: {code: IBC, edition: "2021"}`, "", 1), ""), "basedOn are required"},
		{"base not a model code", doc(strings.Replace(entry, `code: IBC`, "code: CBC", 1), ""), "not a model code"},
		{"base edition not a year", doc(strings.Replace(entry, `edition: "2021"}`, `edition: "21"}`, 1), ""), "not a model code and year"},
		{"edition not a year", doc(strings.Replace(entry, `edition: "2021"`+"\n", `edition: "new"`+"\n", 1), ""), "neither a year nor an ordinal"},
		{"bad date", doc(strings.Replace(entry, "2024-01-18", "2024-18-01", 1), ""), "not YYYY-MM-DD"},
		{"no date", doc(strings.Replace(entry, "    effective: 2024-01-18\n", "", 1), ""), "not YYYY-MM-DD"},
		{"not a US division", doc(strings.Replace(entry, "country:us/state:va", "country:ca/province:on", 1), ""), "not a US state"},
		{"twice", doc(entry+entry, ""), "listed twice"},
		{"a code of two states", doc(entry+strings.Replace(strings.Replace(entry, "state:va", "state:md", 1), `"2021"`+"\n", `"2018"`+"\n", 1), ""), "also"},
		{"unknown field", doc(entry+"    notes: x\n", ""), "notes"},
		{"name of no code", doc(entry, "names:\n  - {code: VRC, printed: [VIRGINIA RESIDENTIAL CODE]}\n"), "not a code of the table"},
		{"name of a state without codes", doc(entry, "names:\n  - {jurisdiction: ocd-division/country:us/state:md, printed: [MARYLAND BUILDING CODE]}\n"), "has no code"},
		{"model code as a name", doc(entry, "names:\n  - {code: VCC, printed: [IBC]}\n"), "is a model code"},
		{"short abbreviation", doc(entry, "names:\n  - {code: VCC, printed: [VC]}\n"), "too short"},
		{"lower case", doc(entry, "names:\n  - {code: VCC, printed: [Virginia Construction Code]}\n"), "upper-case"},
		{"one form, two codes", doc(entry, "names:\n  - {code: VCC, printed: [VCC]}\n  - {jurisdiction: ocd-division/country:us/state:va, printed: [VCC]}\n"), "already names"},
	} {
		if _, err := parse([]byte(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
