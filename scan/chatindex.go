package scan

import (
	"context"

	"planreview/chat"
	"planreview/scan/rules"
	"planreview/scan/sheets"
)

// indexForChat builds the version's chat index from the reviewed set: every
// page's layout (blocks, pairs, table rows), its title-block fields, its
// sheet as the findings name it (so chat and findings agree), the typed
// project facts the checks read (occupancy, construction type, codes,
// areas…), and the delivered findings. Held topics are recorded so chat
// can say what it may not answer from. models is each file's set model (nil
// entries or pages: the fields are read again), whose title-block fields
// the index takes rather than reading each page twice.
func indexForChat(ctx context.Context, res Result, models []sheets.SetModel, facts []rules.Fact) ([]byte, error) {
	var pages []chat.SourcePage
	for fi, f := range res.Files {
		for i := range f.Pages {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sp := chat.SourcePage{FileID: f.FileID, Text: &f.Pages[i]}
			if fi < len(models) && i < len(models[fi].Pages) && models[fi].Pages[i].PageFieldsRead {
				sp.Fields = models[fi].Pages[i].PageFields
			} else {
				sp.Fields = sheets.ReadFields(&f.Pages[i])
			}
			if i < len(f.Layouts) {
				sp.Layout = f.Layouts[i]
			}
			if i < len(f.Sheets) {
				s := f.Sheets[i]
				sp.SheetNumber, sp.SheetType, sp.SheetTitle = s.Number, s.Type, s.Title
			}
			pages = append(pages, sp)
		}
	}
	var held []string
	if c := res.CodeBasis.LocalLawCoverage; c != nil {
		held = c.HeldTopics
	}
	ix := chat.Build(pages, res.Findings, held)
	for _, f := range facts {
		if f.FileIndex < 0 || f.FileIndex >= len(res.Files) {
			continue
		}
		kind := f.Kind
		if kind == rules.FactArea && f.AreaKind != "" {
			kind += "/" + f.AreaKind
		}
		label := f.Label
		if f.Level != "" && label == "" {
			label = f.Level
		}
		ix.AddFact(chat.Fact{Kind: kind, Label: label, Value: f.Value, Qualifier: f.Qualifier},
			res.Files[f.FileIndex].FileID, f.Page, f.Text)
	}
	return ix.Encode()
}
