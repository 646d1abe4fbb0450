package scan

import (
	"context"

	"planreview/chat"
	"planreview/scan/pdftext"
	"planreview/scan/sheets"
)

// indexForChat builds the version's chat index from the reviewed set: every
// page's layout (blocks, pairs, table rows), its title-block fields, its
// sheet as the findings name it, and the delivered findings. Held topics
// are recorded so chat can say what it may not answer from.
func indexForChat(ctx context.Context, res Result) ([]byte, error) {
	var pages []chat.SourcePage
	for _, f := range res.Files {
		ptrs := make([]*pdftext.Page, len(f.Pages))
		for i := range f.Pages {
			ptrs[i] = &f.Pages[i]
		}
		set := sheets.ReadSet(ptrs)
		for i := range f.Pages {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sp := chat.SourcePage{FileID: f.FileID, Text: &f.Pages[i]}
			if i < len(f.Sheets) {
				s := f.Sheets[i]
				sp.SheetNumber, sp.SheetType, sp.SheetTitle = s.Number, s.Type, s.Title
			}
			if i < len(set.Pages) {
				pm := set.Pages[i]
				sp.Fields = pm.Fields
				// The set model reads numbers the per-page classifier
				// misses; the findings' own number wins when there is one.
				if sp.SheetNumber == "" && pm.SheetNumber != "" {
					sp.SheetNumber, sp.SheetType = pm.SheetNumber, sheets.TypeOf(pm.SheetNumber)
				}
				if sp.SheetTitle == "" {
					sp.SheetTitle = pm.SheetTitle
				}
			}
			pages = append(pages, sp)
		}
	}
	var held []string
	if c := res.CodeBasis.LocalLawCoverage; c != nil {
		held = c.HeldTopics
	}
	return chat.Build(pages, res.Findings, held).Encode()
}
