package codebasis

import (
	"strings"
	"testing"

	"planreview/scan/rules"
)

func TestPresumeFromThePlans(t *testing.T) {
	table, err := Adoptions()
	if err != nil {
		t.Fatal(err)
	}
	address := rules.Place{States: []string{"CA"}, Addresses: []string{"CARLSBAD, CA 92011"}}
	codesOf := func(p *Presumption) string {
		var out []string
		for _, a := range p.Adopted {
			out = append(out, a.Code+" "+a.Edition)
		}
		return strings.Join(out, ", ")
	}
	for _, tc := range []struct {
		name  string
		place rules.Place
		date  string
		codes string // "" = nothing presumed
		from  string
	}{
		{"address, 2024", address, "2024-03-01", "CBC 2022, CRC 2022", "the project address (CARLSBAD, CA 92011)"},
		{"address, 2026", address, "2026-03-01", "CBC 2025, CRC 2025", "the project address"},
		{"address, 2021", address, "2021-06-30", "CBC 2019, CRC 2019", "the project address"},
		{"a stated state code names its state", rules.Place{Codes: []rules.StatedCode{{Text: "2019 CBC", Family: "CBC", Edition: "2019"}}}, "2024-03-01", "CBC 2022, CRC 2022", "the codes the sheets state (2019 CBC)"},
		{"Florida by its code", rules.Place{Codes: []rules.StatedCode{{Text: "5th Edition (2014) FBC", Family: "FBC", Edition: "2014"}}}, "2024-03-01", "FBC 2023, FBCR 2023", "(5th Edition (2014) FBC)"},
		{"model codes name no state", rules.Place{Codes: []rules.StatedCode{{Text: "2021 IBC", Family: "IBC", Edition: "2021"}}}, "2024-03-01", "", ""},
		{"a city's own code is not a state's", rules.Place{Codes: []rules.StatedCode{{Text: "2022 NYC BUILDING CODE", Family: "NYCBC", Edition: "2022"}}}, "2024-03-01", "", ""},
		{"addresses in two states (an architect from another state)", rules.Place{States: []string{"CA", "TX"}, Addresses: []string{"CARLSBAD, CA 92011", "AUSTIN, TX 78701"}}, "2024-03-01", "", ""},
		{"a state the table does not hold", rules.Place{States: []string{"TX"}, Addresses: []string{"AUSTIN, TX 78701"}}, "2024-03-01", "", ""},
		{"outside the United States", rules.Place{Outside: "drawing language Italian, metric units", States: []string{"CA"}, Addresses: []string{"CA 92011"}}, "2024-03-01", "", ""},
	} {
		p := table.Presume(tc.place, tc.date)
		switch {
		case tc.codes == "" && p != nil:
			t.Errorf("%s: presumed %s from %s", tc.name, codesOf(p), p.From)
		case tc.codes != "" && p == nil:
			t.Errorf("%s: nothing presumed, want %s", tc.name, tc.codes)
		case p != nil && (codesOf(p) != tc.codes || !strings.Contains(p.From, tc.from)):
			t.Errorf("%s: presumed %s from %q, want %s from %q", tc.name, codesOf(p), p.From, tc.codes, tc.from)
		}
	}
}
