package pdftext

import (
	"os"
	"path/filepath"
	"testing"

	"planreview/internal/pdfgen"
)

// generatedPlanSets are the generated sheets checked against poppler: small
// versions of the two benchmark sets (label grid and text-heavy with a font
// switch per label).
var generatedPlanSets = []struct {
	name string
	opts pdfgen.PlanSetOptions
}{
	{"archd_labels.pdf", pdfgen.PlanSetOptions{Pages: 3, LabelsPerPage: 300, Seed: 1}},
	{"archd_text_heavy.pdf", pdfgen.PlanSetOptions{Pages: 2, LabelsPerPage: 3000, FontSize: 5, SwitchFonts: true, Seed: 2}},
	{"letter_small.pdf", pdfgen.PlanSetOptions{Pages: 2, LabelsPerPage: 60, Width: 612, Height: 792, FontSize: 9, Seed: 3}},
}

func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGeneratedPlanSetsAgreeWithPoppler(t *testing.T) {
	var rows []agreement
	for _, g := range generatedPlanSets {
		t.Run(g.name, func(t *testing.T) {
			a := compareWithPoppler(t, writeTemp(t, g.name, pdfgen.PlanSet(g.opts)))
			rows = append(rows, a)
			if a.ratio() < minAgreement {
				t.Errorf("%s: %.2f%% agreement; first misses:\n  %v", g.name, 100*a.ratio(), a.misses)
			}
		})
	}
	logAgreementTable(t, rows)
}
