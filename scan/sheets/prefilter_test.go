package sheets

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
)

// prefilterTexts are cases at the edges of the prefilters: folded K and S,
// codes after years and editions, addresses with a letter after the house
// number, scales, and texts each prefilter rules out.
var prefilterTexts = []string{
	"", "1", "2021 IBC", "IRC 2018", "2021 ibc", "5th Edition (2014) FBC", "5TH EDITION (2014) FBC", "AS3600", "AS 1379", "Aſ 1379",
	"AS/NZS 1170.2", "SANS 10400-XA", "ſANS 10400", "Eurocode 2", "EN 1992-1-1", "DIN 4102", "DIN EN 13501", "NTC 2018", "NFPA 13",
	"NFPA 72-2019", "Alberta Building Code 2019", "NATIONAL BUILDING REGULATIONS AND BUILDING STANDARDS ACT NO. 103 OF 1977",
	"UNIFORM BUILDING BY-LAWS 1984", "GLASS 2021", "OPENING 1995", "BASE 2021 IBCX", "X2021 IBC", "(2021 IBC)", "é2021 IBC",
	"123 MAIN ST", "12B MAIN STREET", "12b Main St", "7 FLETT RD", "7ſ FLETT RD", "7\u212a FLETT RD", "12'-6\" X 10'-0\"",
	"2X4 @ 16\" O.C.", "1234567 ELM ST", "12'-6\"", "1200 SF", "1200SQ FT", "120 SQ. FT", "10 ft", "10 FT2", "1/4\" = 1'-0\"",
	"1 : 100", "M 1:50", "m 1:50", "1:50 @ A1", "1:50 at a1", "NTS", "N.T.S.", "n.t.ſ.", "NOT TO SCALE", "not to ſcale", "SCALE: NTS",
	"THE DIAGRAM IS NOT TO SCALE", "N T S", "2021 ıBC",
	"1200 mm", "1200mm", "3.5 m", "2,4m", "12 m²", "12 m2", "25 kPa", "30MPa", "120 sqm", "12 cm", "12  mm", "12 MM", "12 Mm",
	"03/02/2026", "3-2-26", "3.2.26", "2026-03-02", "2026.3.2", "2026/03/02", "MAR 2, 2026", "Mar. 2 2026", "2 MARCH 2026", "APRIL 2024",
	"ſEPT 2024", "ſeptember 12, 2024", "7 3/4\"", "1/2/", "12/12", "DATE: 12.05.24", "REV 1 - 2024-1-5",
	"DEPARTMENT OF TRANSPORTATION", "WSDOT", "DOT", "DOT.", "DOTTED", "STA 12+50", "STA. 12+50.00", "12+50", "MILEPOST 12", "MP 12.5",
	"M.P. 12.5", "SR 520", "SR-520", "US 101", "USE 2", "HWY 99", "ROUTE 66", "I-5", "I-405", "ROADWAY", "RIGHT OF WAY", "INTERCHANGE",
	"STATIONING", "FED. AID", "FED AID", "TOLLING", "EXPRESSWAY", "FREEWAY", "CARRIAGEWAY", "CHAINAGE", "ſR 520", "u\u212a", "(I-90)",
	"SHEET INDEX", "DRAWING INDEX", "INDEX OF DRAWINGS", "DRAWING LIST", "LIST OF SHEETS", "SHEET SCHEDULE", "CONTENTS", "INDEX",
	" index ", "SHEET NO.", "DRAWING TITLE", "ſHEET LIſT",
	"SCALE: 1/4\" = 1'-0\"", "scale 1:100", "1/4\" = 1'-0\"", "1/4\"=1'0\"", "AS NOTED", "as  noted", "NTS", "N.TS", "NT.S", "N.T.S.",
	"(NTS)", "ſCALE: NTS", "PLAN NTS", "SCALE:", "MAINTAIN", "POINT",
}

// checkPrefilters fails when a prefilter rules out a text its expression
// matches.
func checkPrefilters(t *testing.T, s string) {
	t.Helper()
	digits := hasASCIIDigit(s)
	if digits != strings.ContainsAny(s, "0123456789") {
		t.Errorf("hasASCIIDigit(%q) = %v", s, digits)
	}
	if codeRe.MatchString(s) && !mayHoldCode(s, digits) {
		t.Errorf("mayHoldCode ruled out %q", s)
	}
	if addressRe.MatchString(s) && !(digits && mayHoldAddress(s)) {
		t.Errorf("mayHoldAddress ruled out %q", s)
	}
	if metricRe.MatchString(s) && !(digits && mayHoldMetric(s)) {
		t.Errorf("mayHoldMetric ruled out %q", s)
	}
	if imperialRe.MatchString(s) && !(digits && mayHoldImperial(s)) {
		t.Errorf("mayHoldImperial ruled out %q", s)
	}
	if ratioOnlyRe.MatchString(strings.ToUpper(s)) && !(digits && mayBeRatioOnly(s)) {
		t.Errorf("mayBeRatioOnly ruled out %q", s)
	}
	if civilRe.MatchString(s) && !mayHoldCivil(s) {
		t.Errorf("mayHoldCivil ruled out %q", s)
	}
	if scaleRe.MatchString(s) && !mayHoldScale(s) {
		t.Errorf("mayHoldScale ruled out %q", s)
	}
	if dateRe.MatchString(s) && !mayHoldDate(s) {
		t.Errorf("mayHoldDate ruled out %q", s)
	}
	if ntsRe.MatchString(s) != isNotToScale(s) {
		t.Errorf("isNotToScale(%q) = %v", s, isNotToScale(s))
	}
	if got, want := normWord(s), strings.ToUpper(strings.Trim(s, ":.,;()[]*")); got != want {
		t.Errorf("normWord(%q) = %q, want %q", s, got, want)
	}
}

// TestPrefiltersNeverRuleOutAMatch checks the set model's prefilters on
// edge cases, and on every phrase and line of the real corpus when it is
// present.
func TestPrefiltersNeverRuleOutAMatch(t *testing.T) {
	for _, s := range prefilterTexts {
		checkPrefilters(t, s)
	}
	const corpus = "../../../shared/corpus"
	files, _ := filepath.Glob(filepath.Join(corpus, "*.pdf"))
	if len(files) == 0 || testing.Short() {
		return
	}
	phrases := 0
	for _, f := range files {
		doc, err := pdftext.Open(context.Background(), f)
		if err != nil {
			continue
		}
		for p := range doc.Pages(context.Background()) {
			for _, q := range buildPhrases(p) {
				checkPrefilters(t, q.Text)
				phrases++
			}
			for _, l := range Lines(layout.Analyze(p)) {
				checkPrefilters(t, l.Text)
			}
		}
		doc.Close()
	}
	if _, err := os.Stat(corpus); err == nil && phrases == 0 {
		t.Fatal("no phrase read from the corpus")
	}
}

// TestGenericSortKeepsSliceOrder: buildPhrases sorts with slices.SortFunc
// where it used sort.Slice; with many ties (words on one baseline) the
// order must be the same, or phrases would group differently.
func TestGenericSortKeepsSliceOrder(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 3000; n += 37 {
		keys := make([]float64, n)
		for i := range keys {
			keys[i] = float64(rnd.IntN(5))
		}
		a, b := make([]int, n), make([]int, n)
		for i := range a {
			a[i], b[i] = i, i
		}
		sort.Slice(a, func(i, j int) bool { return keys[a[i]] < keys[a[j]] })
		slices.SortFunc(b, func(i, j int) int { return lessAsCmp(keys[i], keys[j]) })
		if !slices.Equal(a, b) {
			t.Fatalf("n=%d: sort.Slice %v, slices.SortFunc %v", n, a, b)
		}
	}
}
