package scan

import (
	"context"
	"fmt"
	"runtime/debug"

	"planreview/chat"
	"planreview/scan/model"
	"planreview/scan/sheets"
)

// The version's chat index is built from the reviewed set: every page's
// layout (blocks, pairs, table rows), its title-block fields, its sheet as
// the findings name it (so chat and findings agree), the typed project
// facts the checks read (occupancy, construction type, codes, areas…),
// and the delivered findings. Held topics are recorded so chat can say
// what it may not answer from. The pages are indexed while the review
// runs (indexPagesForChat), and so is the stored form's part they make;
// the findings and facts go in once it is done (finishChatIndex).

// chatIndexing is the pages' index being built on a goroutine of its own.
type chatIndexing struct {
	done chan struct{}
	ix   *chat.Index
	enc  *chat.Encoding
	err  error
}

// indexPagesForChat starts indexing the set's pages. models is each
// file's set model (nil entries or pages: the fields are read again),
// whose title-block fields the index takes rather than reading each page
// twice. The pages and layouts are only read, here and by the review.
func indexPagesForChat(ctx context.Context, res Result, models []sheets.SetModel) *chatIndexing {
	ci := &chatIndexing{done: make(chan struct{})}
	var pages []chat.SourcePage
	for fi, f := range res.Files {
		for i := range f.Pages {
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
	go func() {
		defer close(ci.done)
		defer func() {
			if p := recover(); p != nil {
				ci.ix, ci.enc, ci.err = nil, nil, fmt.Errorf("chat index: %v\n%s", p, debug.Stack())
			}
		}()
		if ci.err = ctx.Err(); ci.err == nil {
			ci.ix, ci.enc, ci.err = chat.BuildPagesEncoding(pages)
		}
	}()
	return ci
}

// wait waits for the pages' index and its encoding begun; every path
// out of the review waits, so no indexing outlives the scan.
func (ci *chatIndexing) wait() (*chat.Index, *chat.Encoding, error) {
	<-ci.done
	return ci.ix, ci.enc, ci.err
}

// finishChatIndex adds the delivered findings, the held topics and the
// project facts to the pages' index and finishes its stored form.
func finishChatIndex(ci *chatIndexing, res Result, facts []model.Fact) ([]byte, error) {
	ix, enc, err := ci.wait()
	if err != nil {
		return nil, err
	}
	var held []string
	if c := res.CodeBasis.LocalLawCoverage; c != nil {
		held = c.HeldTopics
	}
	ix.AddFindings(res.Findings, held)
	for _, f := range facts {
		if f.FileIndex < 0 || f.FileIndex >= len(res.Files) {
			continue
		}
		kind := f.Kind
		if kind == model.FactArea && f.AreaKind != "" {
			kind += "/" + f.AreaKind
		}
		label := f.Label
		if f.Level != "" && label == "" {
			label = f.Level
		}
		ix.AddFact(chat.Fact{Kind: kind, Label: label, Value: f.Value, Qualifier: f.Qualifier},
			res.Files[f.FileIndex].FileID, f.Page, f.Text)
	}
	return enc.Finish()
}
