package annotate

import (
	"planreview/scan/pdftext"
	"planreview/store"
)

// MarksFor turns a file's findings into annotation marks: one per anchor;
// for a finding without one, a sheet-level mark (a margin tag) on the sheet
// it is about, or a summary-only mark when it names no sheet. A finding an
// examiner dismissed is left off the sheet and the summary: the marked-up
// copy shows what is asked of the applicant (and what is still open).
func MarksFor(findings []store.Finding, fileID string) []Mark {
	var marks []Mark
	for _, f := range findings {
		if f.FileID != fileID || store.DispositionOf(f).Status == store.DispositionDismissed {
			continue
		}
		base := Mark{Number: f.Number, FindingID: f.ID, Severity: f.Severity, Title: f.Title,
			GoverningRefs: f.GoverningRefs, Rationale: f.Rationale, SheetNumber: f.Sheet.SheetNumber}
		if len(f.Anchors) == 0 {
			base.Page = max(0, f.Sheet.Page) // a zero Rect: the sheet as a whole
			marks = append(marks, base)
			continue
		}
		for _, a := range f.Anchors {
			m := base
			m.Page, m.Rect = a.Page, pdftext.Rect(a.Rect)
			marks = append(marks, m)
		}
	}
	return marks
}
