// Package model is the document model: a plan set as read, built once per
// set on the words and layout of its pages, between the layout and the
// checks (words → layout → model → checks → findings). The set carries each
// file's document type, jurisdiction hints, codes stated, numbering scheme
// and sheet index; each sheet its number, title, scale, issue status,
// title-block fields, regions by role (legends, abbreviation lists,
// revision rows, notes) and stamps, every value with the words it was read
// from. The checks (package rules) only read it: every decision about what
// a sheet is, which number and title it carries and where its index is,
// is made here.
package model

import (
	"context"
	"sync"

	"planreview/internal/perpage"
	"planreview/scan/layout"
	"planreview/scan/pdftext"
	"planreview/scan/sheets"
)

// Source is one registered PDF of a plan set: its extracted pages and,
// when the scan analysed them already, their layouts.
type Source struct {
	ID    string
	Pages []pdftext.Page
	// Layouts, when set, is each page's layout as the scan analysed it
	// right after extraction (same order as Pages; a nil entry, or no
	// slice, is analysed on first use), so a page is analysed once per
	// scan however many readers it has.
	Layouts []*layout.Page
}

// Set is a plan set as read: its files in registration order, and all
// their sheets (one per page) in order.
type Set struct {
	Files  []*File
	Sheets []*Sheet

	// memo is the set's memo of project-data label and value readings
	// (projectdata.go), made on first use.
	memoOnce sync.Once
	memo     *factMemo
	// code holds the code-analysis statements of every sheet
	// (codefacts.go), read once for the set on first use.
	codeOnce sync.Once
	code     *codeReading
}

// File is one file of the set as read. The embedded SetModel holds what the
// set-level reading decided: document type, jurisdiction hints, codes
// stated, numbering scheme and each page's title-block reading.
type File struct {
	Index int
	ID    string
	sheets.SetModel
	// ReadablePages counts the pages read in full or but for text drawn
	// as outlines, NumberedPages those of them with a sheet number.
	ReadablePages int
	NumberedPages int
	Sheets        []*Sheet
}

// SchemeLearned reports whether most of the file's readable sheets follow
// one numbering scheme (two at least): only then is a page without a
// number a title block missing its number rather than a number that could
// not be read.
func (f *File) SchemeLearned() bool {
	return f != nil && f.NumberedPages >= 2 && f.NumberedPages*2 > f.ReadablePages
}

// Sheet is one page of the set as read.
type Sheet struct {
	File      *File
	FileIndex int
	FileID    string
	Page      *pdftext.Page
	// Readable: the page has a text layer the review can read.
	Readable bool
	// Ident is the sheet's identity: number (chosen by the file's
	// numbering scheme), title (title block, else the set's index), type,
	// date and scale, with their words.
	Ident sheets.Sheet
	// Lines are the page's text lines in reading order.
	Lines []sheets.Line
	// Index holds the rows of the sheet index printed on this page, if
	// any, read by its structure against the set's numbers (readSetIndexes).
	Index []IndexEntry
	// Model is the page as the file's set reading read it: title-block
	// fields, issue status, text layer, fields drawn as outlines (nil
	// before Build linked it).
	Model *sheets.PageModel

	set            *Set
	scan           lineScan
	layout         *layout.Page
	roles          *layout.Roles
	stamps         []Stamp
	stampsRead     bool
	quantities     []Quantity
	quantitiesRead bool
	references     *sheetReferences
	marks          []Mark
	marksRead      bool
	roomTags       []RoomTag
	roomTagsRead   bool
	schedules      []Schedule
	schedulesRead  bool
	project        sheetProjectData
	levelMarks     sheetLevelMarks
	codePairs      sheetCodePairs
	blanks         sheetBlankFields
}

// Layout is the page's layout: the scan's, else analysed on first use
// (the lines when the model is built, the tables and pairs when a reader
// first asks for the layout).
func (s *Sheet) Layout() *layout.Page {
	s.lines().Complete()
	return s.layout
}

// lines is the page's layout with at least its lines built.
func (s *Sheet) lines() *layout.Page {
	if s.layout == nil {
		s.layout = layout.AnalyzeLines(s.Page)
	}
	return s.layout
}

// ReadInFull reports whether the page's text was read in full: readable,
// and not a few words over a raster or outlined drawing.
func (s *Sheet) ReadInFull() bool {
	return s.Readable && (s.Model == nil || s.Model.TextLayer == sheets.TextFull)
}

// Build reads a plan set: every page's lines, each file's set model (title
// blocks by repetition, numbering scheme, document type, jurisdiction
// hints), then the decisions across the set (each sheet's number and
// title, indexes read by the set's own numbers, titles from the index,
// document types settled by the numbers found).
func Build(ctx context.Context, files []Source) (*Set, error) {
	set := &Set{Files: make([]*File, len(files))}
	for fi := range files {
		f := &files[fi]
		mf := &File{Index: fi, ID: f.ID}
		set.Files[fi] = mf
		for pi := range f.Pages {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			p := &f.Pages[pi]
			s := &Sheet{File: mf, FileIndex: fi, FileID: f.ID, Page: p, set: set,
				Readable: p.Readable && p.Err == nil && len(p.Words) > 0}
			if pi < len(f.Layouts) {
				s.layout = f.Layouts[pi]
			}
			s.Ident = sheets.Sheet{Type: sheets.TypeUnknown}
			mf.Sheets = append(mf.Sheets, s)
			set.Sheets = append(set.Sheets, s)
		}
	}
	// Each page's lines depend on that page alone.
	perpage.Each(len(set.Sheets), func(i int) {
		if s := set.Sheets[i]; s.Readable {
			s.Lines = sheets.Lines(s.lines())
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for fi := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ps := make([]*pdftext.Page, len(files[fi].Pages))
		lps := make([]*layout.Page, len(files[fi].Pages))
		for pi := range files[fi].Pages {
			ps[pi] = &files[fi].Pages[pi]
			if s := set.Files[fi].Sheets[pi]; s.Readable {
				lps[pi] = s.lines()
			}
		}
		set.Files[fi].SetModel = sheets.ReadSetLayouts(ps, lps)
	}
	set.link()
	set.readSetIndexes()
	set.titlesFromIndex()
	set.settleDocTypes()
	return set, nil
}

// Models returns each file's set model, in registration order.
func (set *Set) Models() []sheets.SetModel {
	out := make([]sheets.SetModel, len(set.Files))
	for i, f := range set.Files {
		out[i] = f.SetModel
	}
	return out
}

// link points every sheet at its page of its file's set model and reads
// its identity from it: the number the set's numbering scheme chose (it
// reads short numbers such as "12" or "E1" that one page alone cannot),
// the title and the scale.
func (set *Set) link() {
	for _, f := range set.Files {
		for pi, s := range f.Sheets {
			if pi >= len(f.Pages) {
				continue
			}
			s.Model = &f.Pages[pi]
			m := s.Model
			if s.Readable {
				s.Ident = sheets.FromModel(s.Page, m, s.Lines)
			} else {
				// Not read for review, but the model may still name the
				// sheet its "not reviewed" finding is about.
				if m.SheetNumber != "" {
					s.Ident.Number, s.Ident.Key, s.Ident.Type = m.SheetNumber, sheets.NumberKey(m.SheetNumber), sheets.TypeOf(m.SheetNumber)
					s.Ident.NumberWords = m.NumberWords
				}
				s.Ident.Title, s.Ident.TitleWords = m.SheetTitle, m.TitleWords
				s.Ident.Scale, s.Ident.ScaleWords = m.Scale, m.ScaleWords
			}
			// A page with notes drawn as outlines reads its title block
			// from the text layer all the same.
			if s.Readable && (m.TextLayer == sheets.TextFull || m.PartlyOutlined) {
				f.ReadablePages++
				if s.Ident.Number != "" {
					f.NumberedPages++
				}
			}
		}
	}
}

// titlesFromIndex gives a sheet whose title block has no title the title
// its set's sheet index lists for its number.
func (set *Set) titlesFromIndex() {
	titles := map[string]string{}
	for _, s := range set.Sheets {
		for _, e := range s.Index {
			if e.Title != "" {
				titles[e.Key] = e.Title
			}
		}
	}
	for _, s := range set.Sheets {
		if s.Ident.Title == "" && s.Ident.Key != "" {
			s.Ident.Title = titles[s.Ident.Key]
		}
		// A page numbered by its own reading, where neither its title
		// block nor the index gives a title, takes the set model's.
		if s.Ident.Title == "" && s.Model != nil && s.Model.SheetTitle != "" {
			s.Ident.Title, s.Ident.TitleWords = s.Model.SheetTitle, s.Model.TitleWords
		}
	}
}

// settleDocTypes corrects a file the set model read as a non-construction
// drawing when the sheet classifier found full NCS sheet numbers (A-101,
// G-001) on its pages: a sheet numbered to the National CAD Standard is a
// construction document however little else its text says.
func (set *Set) settleDocTypes() {
	for _, f := range set.Files {
		if f.DocType != sheets.DocNonConstruction {
			continue
		}
		ncs := 0
		for _, s := range f.Sheets {
			if s.Ident.Type != sheets.TypeUnknown && s.Ident.Type != "" {
				if n, ok := sheets.ParseNumber(s.Ident.Number); ok && n.Strong {
					ncs++
				}
			}
		}
		if ncs == 0 {
			continue
		}
		if len(f.Pages) == 1 {
			f.DocType = sheets.DocSingleSheet
		} else {
			f.DocType = sheets.DocPermitSet
		}
	}
}
