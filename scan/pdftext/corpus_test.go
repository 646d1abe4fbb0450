package pdftext

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir holds real plan PDFs shared by the team (see its README.md);
// tests that need it skip when it is absent.
const corpusDir = "../../../shared/corpus"

func corpusFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(corpusDir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus file %s not available", name)
	}
	return p
}

// corpusText lists the corpus files with a text layer on some page.
var corpusText = []string{
	"au_7_flett_rd_structural_S2.01.pdf",
	"drawingparser_adu_existing_site_plan.pdf",
	"fsec_pv_permit_sample_generated.pdf",
	"opentakeoff_va_finish_plan.pdf",
	"polimi_QM-S3_A101_pianta.pdf",
	"si_archicad_atrium_house_floor_plan.pdf",
	"us_asheville_realestate_floorplan.pdf",
	"wsdot_its_tolling_2b_plansheets.pdf",
	"za_crayfish_inn_architectural_plans.pdf",
}

const minAgreement = 0.98

func TestCorpusAgreesWithPoppler(t *testing.T) {
	var rows []agreement
	for _, name := range corpusText {
		t.Run(name, func(t *testing.T) {
			a := compareWithPoppler(t, corpusFile(t, name))
			rows = append(rows, a)
			if a.ratio() < minAgreement {
				t.Errorf("%s: %.2f%% of poppler's words found (want ≥ %.0f%%); first misses:\n  %s",
					name, 100*a.ratio(), 100*minAgreement, strings.Join(a.misses, "\n  "))
			}
		})
	}
	logAgreementTable(t, rows)
}

func logAgreementTable(t *testing.T, rows []agreement) {
	var b strings.Builder
	b.WriteString("\n| file | pages | poppler words | our words | matched | agreement |\n|---|---:|---:|---:|---:|---:|\n")
	for _, a := range rows {
		b.WriteString(formatRow(a))
	}
	t.Log(b.String())
}

func TestCorpusUnreadablePages(t *testing.T) {
	cases := []struct {
		name   string
		reason string
	}{
		{"yale_TC_scanned_floorplans_8p.pdf", ReasonImageOnly},
		{"measurex_kirkland-sample-plans.pdf", ReasonNoTextObjects},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Open(context.Background(), corpusFile(t, tc.name))
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			if doc.NumPages() == 0 {
				t.Fatal("no pages")
			}
			for p := range doc.Pages(context.Background()) {
				if p.Err != nil || p.Readable || p.Reason != tc.reason {
					t.Errorf("page %d: readable=%v reason=%q err=%v, want unreadable %q", p.Number, p.Readable, p.Reason, p.Err, tc.reason)
				}
			}
		})
	}
}

func TestCorpusNotAPDF(t *testing.T) {
	_, err := Open(context.Background(), corpusFile(t, "measurex_vancouver-dwelling-plans_FAKE_HTML.pdf"))
	if !errors.Is(err, ErrNotPDF) {
		t.Fatalf("err = %v, want ErrNotPDF", err)
	}
}
