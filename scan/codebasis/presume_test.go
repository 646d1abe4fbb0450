package codebasis

import (
	"context"
	"strings"
	"testing"

	"planreview/scan/pdftext"
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

func codesOf(p *Presumption) string {
	if p == nil {
		return ""
	}
	var out []string
	for _, a := range p.Adopted {
		out = append(out, a.Code+" "+a.Edition)
	}
	return strings.Join(out, ", ")
}

// TestPresumeStatesByDate: an address in a state of the table presumes
// the state's codes in force on the application date, the edition before
// the current one for an earlier date; a state whose cities and counties
// adopt their own codes presumes nothing.
func TestPresumeStatesByDate(t *testing.T) {
	table, err := Adoptions()
	if err != nil {
		t.Fatal(err)
	}
	at := func(st, address string) rules.Place {
		return rules.Place{States: []string{st}, Addresses: []string{address}}
	}
	for _, tc := range []struct {
		place rules.Place
		date  string
		codes string
	}{
		{at("VA", "RICHMOND, VA 23219"), "2022-05-01", "VCC 2018, VRC 2018"},
		{at("VA", "RICHMOND, VA 23219"), "2024-01-17", "VCC 2018, VRC 2018"},
		{at("VA", "RICHMOND, VA 23219"), "2024-01-18", "VCC 2021, VRC 2021"},
		{at("VA", "RICHMOND, VA 23219"), "2021-06-30", ""}, // before the oldest edition held
		{at("CT", "KENT, CT 06757"), "2020-03-01", "CT-BC 2018, CT-RC 2018"},
		{at("CT", "KENT, CT 06757"), "2026-11-27", "CT-BC 2022, CT-RC 2022"},
		{at("WA", "KIRKLAND, WA 98033"), "2023-06-01", "WA-BC 2018, WA-RC 2018"},
		{at("WA", "KIRKLAND, WA 98033"), "2024-03-15", "WA-BC 2021, WA-RC 2021"},
		// North Carolina's 2024 Building Code and its 2018 Residential
		// Code are in force together.
		{at("NC", "ASHEVILLE, NC 28801"), "2025-03-01", "NCBC 2018, NCRC 2018"},
		{at("NC", "ASHEVILLE, NC 28801"), "2025-07-01", "NCBC 2024, NCRC 2018"},
		{at("MN", "ST. CLOUD, MN 56303"), "2024-01-01", "MN-BC 2020, MN-RC 2020"},
		{at("OH", "COLUMBUS, OH 43215"), "2020-01-01", "OH-BC 2017"},
		{at("OR", "PORTLAND, OR 97201"), "2023-01-01", "ORSC 2021, OSSC 2022"},
		{at("MA", "BOSTON, MA 02108"), "2025-01-01", "MA-BC 10th, MA-RC 10th"},
		{at("NJ", "TRENTON, NJ 08608"), "2021-01-01", "NJ-BC 2018, NJ-RC 2018"},
		{at("PA", "HARRISBURG, PA 17101"), "2025-12-31", "PA-BC 2018, PA-RC 2018"},
		{at("PA", "HARRISBURG, PA 17101"), "2026-01-01", "PA-BC 2021, PA-RC 2021"},
		{at("SC", "COLUMBIA, SC 29201"), "2022-12-31", "SC-BC 2018, SC-RC 2018"},
		{at("SC", "COLUMBIA, SC 29201"), "2023-01-01", "SC-BC 2021, SC-RC 2021"},
		{at("GA", "ATLANTA, GA 30303"), "2019-12-31", ""},
		{at("GA", "ATLANTA, GA 30303"), "2020-01-01", "GA-BC 2018, GA-RC 2018"},
		{at("MI", "LANSING, MI 48933"), "2025-06-01", "MI-BC 2021, MI-RC 2018"},
		{at("TX", "AUSTIN, TX 78701"), "2025-01-01", ""},
		// A code stated with its edition comes before the address; a
		// code named without one comes after it.
		{rules.Place{Codes: []rules.StatedCode{{Text: "2018 VCC", Family: "VCC", Edition: "2018", Jurisdiction: "ocd-division/country:us/state:va"}}, States: []string{"CT"}, Addresses: []string{"KENT, CT 06757"}}, "2025-01-01", "VCC 2021, VRC 2021"},
		{rules.Place{Codes: []rules.StatedCode{{Text: "VIRGINIA CONSTRUCTION CODE", Family: "VCC", Jurisdiction: "ocd-division/country:us/state:va"}}, States: []string{"CT"}, Addresses: []string{"KENT, CT 06757"}}, "2025-01-01", "CT-BC 2022, CT-RC 2022"},
		{rules.Place{Codes: []rules.StatedCode{{Text: "VIRGINIA CONSTRUCTION CODE", Family: "VCC", Jurisdiction: "ocd-division/country:us/state:va"}}, States: []string{"CT", "VA"}, Addresses: []string{"KENT, CT 06757", "RICHMOND, VA 23219"}}, "2025-01-01", "VCC 2021, VRC 2021"},
		{at("AZ", "PHOENIX, AZ 85004"), "2025-01-01", ""},
		{at("CO", "DENVER, CO 80202"), "2025-01-01", ""},
	} {
		p := table.Presume(tc.place, tc.date)
		if got := codesOf(p); got != tc.codes {
			t.Errorf("%s on %s: presumed %q, want %q", tc.place.Addresses[0], tc.date, got, tc.codes)
		}
	}
}

// sheet is a page whose lines are the given text, one word after another.
func sheet(lines ...string) pdftext.Page {
	const w, h = 2592.0, 1728.0
	p := pdftext.Page{Number: 1, Width: w, Height: h, Readable: true}
	for i, l := range lines {
		x, top := 100.0, 100+float64(i)*30
		for _, word := range strings.Fields(l) {
			width := float64(len(word)) * 14 * 0.55
			p.Words = append(p.Words, pdftext.Word{Text: word, Norm: word, FontSize: 14,
				Rect: pdftext.Rect{x, h - top - 14, x + width, h - top},
				BBox: pdftext.BBox{Left: x / w, Top: top / h, Width: width / w, Height: 14 / h}})
			x += width + 4
		}
	}
	return p
}

// TestPresumeFromStatedCodes reads the codes a sheet prints as plans print
// them, by the adoption table's names, and presumes the state they name.
func TestPresumeFromStatedCodes(t *testing.T) {
	table, err := Adoptions()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line, date, codes, stated string
	}{
		{"ALL WORK SHALL COMPLY WITH THE 2021 VIRGINIA CONSTRUCTION CODE", "2025-02-01", "VCC 2021, VRC 2021", "VCC 2021"},
		{"APPLICABLE CODES: VCC 2018, 2018 IPC", "2022-02-01", "VCC 2018, VRC 2018", "VCC 2018"},
		{"BUILDING CODE: 2022 CT STATE BUILDING CODE", "2023-02-01", "CT-BC 2022, CT-RC 2022", "CT-BC 2022"},
		{"2018 NCBC WITH 2018 NC AMENDMENTS", "2024-02-01", "NCBC 2018, NCRC 2018", "NCBC 2018"},
		{"GOVERNING CODE: 2018 NORTH CAROLINA STATE BUILDING CODE", "2024-02-01", "NCBC 2018, NCRC 2018", ""},
		{"CONSTRUCTION SHALL CONFORM TO THE WA STATE BUILDING CODE", "2024-06-01", "WA-BC 2021, WA-RC 2021", ""},
		{"2021 OREGON RESIDENTIAL SPECIALTY CODE (ORSC)", "2022-02-01", "ORSC 2021, OSSC 2019", "ORSC 2021"},
		{"FLORIDA BUILDING CODE - RESIDENTIAL, 8TH EDITION (2023)", "2024-03-01", "FBC 2023, FBCR 2023", "FBCR 2023"},
		{"CODE: 780 CMR 9TH EDITION", "2020-01-01", "MA-BC 9th, MA-RC 9th", ""},
		{"2018 SOUTH CAROLINA RESIDENTIAL CODE", "2021-01-01", "SC-BC 2018, SC-RC 2018", "SC-RC 2018"},
		{"PER THE PA UCC", "2026-03-01", "PA-BC 2021, PA-RC 2021", ""},
		// Model codes name no state; "OBC" is also Ontario's.
		{"APPLICABLE CODES: 2021 IBC, 2021 IRC", "2025-01-01", "", ""},
		{"2012 OBC DIVISION B", "2025-01-01", "", ""},
		// An abbreviation without an edition is not read as a code.
		{"SEE VCC NOTES", "2025-01-01", "", ""},
	} {
		c, err := rules.Classify(context.Background(), rules.PlanSet{Files: []rules.File{{ID: "file_1", Pages: []pdftext.Page{sheet("CODE ANALYSIS", tc.line)}}}})
		if err != nil {
			t.Fatal(err)
		}
		place := c.Place()
		var stated []string
		for _, sc := range place.Codes {
			if sc.Edition != "" && sc.Jurisdiction != "" {
				stated = append(stated, sc.Family+" "+sc.Edition)
			}
		}
		if got := strings.Join(stated, ", "); got != tc.stated {
			t.Errorf("%q: read %q (%+v), want %q", tc.line, got, place.Codes, tc.stated)
		}
		p := table.Presume(place, tc.date)
		if got := codesOf(p); got != tc.codes {
			t.Errorf("%q on %s: presumed %q, want %q", tc.line, tc.date, got, tc.codes)
		}
		if p != nil && !strings.Contains(p.From, "the codes the sheets state") {
			t.Errorf("%q: from %q", tc.line, p.From)
		}
	}
}
