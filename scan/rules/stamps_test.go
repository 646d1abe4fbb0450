package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"planreview/scan/plangen"
)

// stampedPages writes the sheets as a PDF, has pdfcpu stamp text over
// every page as a user's PDF tool does (desc in pdfcpu's stamp syntax),
// and extracts the stamped pages.
func stampedPages(t *testing.T, text, desc string, specs ...plangen.SheetSpec) []Finding {
	t.Helper()
	f, err := plangen.Sheets("test.pdf", specs)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "out.pdf")
	if err := os.WriteFile(in, f.PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	if err := api.AddTextWatermarksFile(in, out, nil, true, text, desc, conf); err != nil {
		t.Fatal(err)
	}
	return reviewPages(t, loadAll(t), pdfPages(t, out)...)
}

// A PRELIMINARY stamp at 45° over the title block of every sheet.
func TestPreliminaryStampRotatedPDF(t *testing.T) {
	fs := stampedPages(t, "PRELIMINARY", "font:Helvetica, points:72, rot:45, scale:1 abs, pos:br, off:-200 200, op:1",
		plangen.SheetSpec{Number: "A-101", Title: "FLOOR PLAN", Date: "2026-03-02", Scale: scale14},
		plangen.SheetSpec{Number: "A-102", Title: "ROOF PLAN", Date: "2026-03-02", Scale: scale14},
		plangen.SheetSpec{Number: "A-103", Title: "SECTIONS", Date: "2026-03-02", Scale: scale14},
	)
	got := byRule(fs, "completeness-preliminary-stamp")
	// Its letters extract as fragments ("PR" "EL" …): read whole, and the
	// same stamp on every sheet is the set's one stamp.
	if len(got) != 1 || !strings.Contains(got[0].Rationale, `"PRELIMINARY"`) {
		t.Errorf("rotated PRELIMINARY stamp: want one finding for the set, got %v", anchorTexts(got))
	}
}

// Look-alike: a large rotated word that is no status.
func TestRotatedOverlayIsNoStampPDF(t *testing.T) {
	fs := stampedPages(t, "DEMOLITION", "font:Helvetica, points:72, rot:45, scale:1 abs, pos:c, op:1",
		plangen.SheetSpec{Number: "D-101", Title: "DEMOLITION PLAN", Date: "2026-03-02", Scale: scale14},
	)
	if got := byRule(fs, "completeness-preliminary-stamp"); len(got) != 0 {
		t.Errorf("a rotated DEMOLITION label reported as a stamp: %v", anchorTexts(got))
	}
}
