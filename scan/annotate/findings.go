package annotate

import (
	"planreview/scan/pdftext"
	"planreview/store"
)

// MarksFor turns a file's findings into annotation marks: one per anchor,
// or one summary-only mark for a finding without an anchor. A finding an
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
