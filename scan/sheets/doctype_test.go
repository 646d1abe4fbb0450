package sheets

import (
	"testing"

	"planreview/scan/pdftext"
)

// textPage is a letter-size page with the given lines, top to bottom.
func textPage(n int, lines ...string) *pdftext.Page {
	const pw, ph = 612.0, 792.0
	p := &pdftext.Page{Number: n, Width: pw, Height: ph, Readable: true}
	for i, l := range lines {
		p.Words = append(p.Words, phrase(l, 72, 72+float64(i)*14, 10, pw, ph)...)
	}
	return p
}

func TestDocumentType(t *testing.T) {
	sheet := func(n int, num string) *pdftext.Page {
		return tbPage{captions: []string{"SHEET NO."}, values: []string{num}, title: "FLOOR PLAN"}.build(n)
	}
	civil := func(n int) *pdftext.Page {
		p := tbPage{captions: []string{"PLAN REF NO"}, values: []string{"TSDE0" + string(rune('0'+n))}, title: "ROADWAY PLAN"}.build(n)
		for i, l := range []string{"STA 12+50 BEGIN PROJECT", "SR 167 NB ROADWAY", "RIGHT OF WAY LINE", "STA 14+00 MATCH LINE",
			"INTERCHANGE RAMP A", "DEPARTMENT OF TRANSPORTATION", "SR 18 EXPRESSWAY", "STA 16+25 END PROJECT"} {
			p.Words = append(p.Words, phrase(l, 200, 200+float64(i)*20, 8, 1191, 842)...)
		}
		return p
	}
	tests := []struct {
		name  string
		pages []*pdftext.Page
		want  string
	}{
		{"set", []*pdftext.Page{sheet(1, "A-101"), sheet(2, "A-102")}, DocPermitSet},
		{"one sheet", []*pdftext.Page{sheet(1, "A-101")}, DocSingleSheet},
		{"civil", []*pdftext.Page{civil(1), civil(2)}, DocCivil},
		{"letter", []*pdftext.Page{textPage(1, "March 2, 2026", "Dear Plans Examiner,", "RE: 123 Main St permit",
			"Please find enclosed the revised drawings.", "Sincerely,", "Jane Architect")}, DocLetter},
		{"spec", []*pdftext.Page{textPage(1, "SECTION 09 91 23", "INTERIOR PAINTING", "PART 1 - GENERAL", "1.1 SUMMARY",
			"PART 2 - PRODUCTS", "2.1 MANUFACTURERS", "PART 3 - EXECUTION", "3.1 EXAMINATION")}, DocSpecOrForm},
		{"real-estate plan", []*pdftext.Page{textPage(1, "Main Floor", "Kitchen 12'0\" x 10'4\"", "Bedroom 11'2\" x 10'0\"",
			"Total 1,234 sq ft")}, DocNonConstruction},
		{"scanned", []*pdftext.Page{{Number: 1, Width: 612, Height: 792, Reason: pdftext.ReasonImageOnly}}, DocUnreadable},
		{"outlined text", []*pdftext.Page{{Number: 1, Width: 792, Height: 1224, Reason: pdftext.ReasonNoTextObjects}}, DocUnreadable},
		{"unmapped fonts, A0 sheet", []*pdftext.Page{{Number: 1, Width: 3370, Height: 2384, Reason: pdftext.ReasonUnmappedText}}, DocSingleSheet},
		{"unmapped fonts, letter", []*pdftext.Page{{Number: 1, Width: 612, Height: 792, Reason: pdftext.ReasonUnmappedText}}, DocUnreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ReadSet(tt.pages).DocType; got != tt.want {
				t.Errorf("docType %s, want %s", got, tt.want)
			}
		})
	}
}

func TestCodesAndHints(t *testing.T) {
	p := textPage(1, "ALL WORK TO COMPLY WITH THE 2021 IBC AND 2020 NEC.", "Based on 2011 NEC & 5th Edition (2014) FBC",
		"CONCRETE TO AS3600 AND AS 1379", "PROJECT: 7 FLETT ROAD, ROSEWORTHY SA 5371", "CITY OF CALGARY AND PARTNERS",
		"WALL 2400mm HIGH, SLAB 150mm, SPAN 3.6m")
	m := ReadSet([]*pdftext.Page{p})
	want := map[string]bool{"2021 IBC": true, "2020 NEC": true, "2011 NEC": true, "5th Edition (2014) FBC": true, "AS3600": true, "AS 1379": true}
	for _, c := range m.CodesStated {
		delete(want, c)
	}
	if len(want) > 0 {
		t.Errorf("codes %q lack %v", m.CodesStated, want)
	}
	hints := map[string]bool{}
	for _, h := range m.JurisdictionHints {
		hints[h] = true
	}
	for _, h := range []string{"address: 7 FLETT ROAD, ROSEWORTHY SA 5371", "authority: CITY OF CALGARY", "units: metric"} {
		if !hints[h] {
			t.Errorf("hints %q lack %q", m.JurisdictionHints, h)
		}
	}
}
