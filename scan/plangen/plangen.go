// Package plangen writes synthetic plan sets — ARCH D sheets with title
// blocks, a sheet index, a code analysis block, notes and dimension strings —
// with known violations at known positions, the findings a correct review
// must produce, and a compliant twin of every set. It also writes large
// label-dense sets for extractor benchmarks. Every placed label comes back
// with its exact box, so rule tests can build pdftext pages from ground
// truth without running the extractor.
package plangen

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"

	"planreview/scan/pdftext"
)

// ARCH D landscape, in points.
const (
	PageWidth  = 2592.0
	PageHeight = 1728.0
)

// Label is one text object placed on a page.
type Label struct {
	Text string  `json:"text"`
	Font string  `json:"font"` // standard-14 font name
	Size float64 `json:"size"` // points
	X    float64 `json:"x"`    // baseline start in user space
	Y    float64 `json:"y"`
	// Rotate is the page's /Rotate; the text is drawn turned against it so
	// that it reads left to right as displayed.
	Rotate int `json:"rotate"`
	// BBox (fractions, top-left origin) and Rect (user space) span the
	// font's ascender to descender over the text's advance width.
	BBox  pdftext.BBox   `json:"bbox"`
	Rect  pdftext.Rect   `json:"rect"`
	Words []pdftext.Word `json:"words"` // per-word boxes, same convention
}

// Page is the ground truth of one generated page.
type Page struct {
	Number      int     `json:"page"`
	Width       float64 `json:"width"`  // displayed, after Rotate
	Height      float64 `json:"height"` // displayed, after Rotate
	Rotate      int     `json:"rotate"` // /Rotate: 0, 90, 180 or 270
	SheetNumber string  `json:"sheetNumber"`
	SheetTitle  string  `json:"sheetTitle"`
	Labels      []Label `json:"labels"`
	// Strokes are ruled lines (table grids), in displayed points.
	Strokes []Stroke `json:"strokes,omitempty"`
	// Images are boxes painted with an image (a placed seal or logo),
	// Circles are circles drawn as curves (a seal drawn as paths), in
	// displayed points.
	Images  []Area   `json:"images,omitempty"`
	Circles []Circle `json:"circles,omitempty"`
}

// Area is a box from (X0, Y0) to (X1, Y1), in points from the displayed
// page's top-left corner.
type Area struct {
	X0, Y0, X1, Y1 float64
}

// Circle is a circle around (X, Y) of radius R, in displayed points.
type Circle struct {
	X, Y, R float64
}

// Stroke is a straight ruled line from (X0, Y0) to (X1, Y1), in points
// from the displayed page's top-left corner.
type Stroke struct {
	X0, Y0, X1, Y1 float64
}

// TextPage returns the page as a perfect extractor would: every word with
// its box, label by label in placement order (the layout groups them into
// lines).
func (p *Page) TextPage() pdftext.Page {
	tp := pdftext.Page{Number: p.Number, Width: p.Width, Height: p.Height, Rotate: p.Rotate, Readable: true}
	for _, l := range p.Labels {
		tp.Words = append(tp.Words, l.Words...)
	}
	return tp
}

func unionBBox(a, b pdftext.BBox) pdftext.BBox {
	l, t := min(a.Left, b.Left), min(a.Top, b.Top)
	r, bt := max(a.Left+a.Width, b.Left+b.Width), max(a.Top+a.Height, b.Top+b.Height)
	return pdftext.BBox{Left: l, Top: t, Width: r - l, Height: bt - t}
}

// File is one generated PDF with its pages' ground truth.
type File struct {
	Name  string `json:"name"`
	Pages []Page `json:"pages"`
	PDF   []byte `json:"-"` // nil when Options.SkipPDF
}

// TextPages returns the file's pages as the engine reads them.
func (f *File) TextPages() []pdftext.Page {
	out := make([]pdftext.Page, len(f.Pages))
	for i := range f.Pages {
		out[i] = f.Pages[i].TextPage()
	}
	return out
}

// Expected is a finding a correct review of the set must produce.
type Expected struct {
	RuleID      string        `json:"ruleId"`
	Severity    string        `json:"severity"`
	File        int           `json:"file"` // index into Set.Files
	Page        int           `json:"page"` // 1-based within the file
	SheetNumber string        `json:"sheetNumber"`
	Text        string        `json:"text"` // the planted evidence text; empty for set-level findings
	BBox        *pdftext.BBox `json:"bbox"` // union box of the planted evidence; nil when the finding has no anchor
}

// Set is a generated plan set.
type Set struct {
	Name      string     `json:"name"`
	Variant   string     `json:"variant"` // VariantResidential or VariantCommercial
	Compliant bool       `json:"compliant"`
	Adopted   []string   `json:"adopted"` // the codes the set is designed against
	Files     []File     `json:"files"`
	Expected  []Expected `json:"expected"` // empty for a compliant twin
}

// Variants.
const (
	VariantResidential = "residential"
	VariantCommercial  = "commercial"
)

// Options choose a set.
type Options struct {
	Variant   string // VariantResidential (default) or VariantCommercial
	Compliant bool   // the compliant twin: same sheets, every value compliant
	// FillerPerPage adds that many neutral labels (room names, grid marks,
	// plain dimensions) to every drawing sheet.
	FillerPerPage int
	// Rotate sets every page's /Rotate (0, 90, 180, 270); the sheets still
	// display as 36×24 in landscape with text reading left to right, and the
	// ground truth is given as displayed (BBox) and in user space (Rect).
	Rotate int
	// ExtraSheets adds that many more floor-plan sheets (A-102, A-103, …,
	// at most 70), each listed in the sheet index and compliant, to reach a
	// page count.
	ExtraSheets int
	Seed        int64
	SkipPDF     bool // ground truth only (fast rule tests)
}

// Generate writes a plan set with its expectations.
func Generate(opts Options) (*Set, error) {
	if opts.Variant == "" {
		opts.Variant = VariantResidential
	}
	if opts.Rotate%90 != 0 || opts.Rotate < 0 || opts.Rotate >= 360 {
		return nil, fmt.Errorf("plangen: Rotate %d: want 0, 90, 180 or 270", opts.Rotate)
	}
	if opts.ExtraSheets < 0 || opts.ExtraSheets > maxExtraSheets {
		return nil, fmt.Errorf("plangen: ExtraSheets %d outside 0–%d", opts.ExtraSheets, maxExtraSheets)
	}
	g := &generator{opts: opts, rng: rand.New(rand.NewSource(opts.Seed + 1))}
	var err error
	switch opts.Variant {
	case VariantResidential:
		err = g.residential()
	case VariantCommercial:
		err = g.commercial()
	default:
		return nil, fmt.Errorf("plangen: unknown variant %q", opts.Variant)
	}
	if err != nil {
		return nil, err
	}
	if !opts.SkipPDF {
		for i := range g.set.Files {
			pdf, err := writePDF(g.set.Files[i].Pages)
			if err != nil {
				return nil, err
			}
			g.set.Files[i].PDF = pdf
		}
	}
	sort.SliceStable(g.set.Expected, func(i, j int) bool {
		a, b := g.set.Expected[i], g.set.Expected[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Page != b.Page {
			return a.Page < b.Page
		}
		return a.RuleID < b.RuleID
	})
	return g.set, nil
}

// generator builds one set.
type generator struct {
	opts Options
	rng  *rand.Rand
	set  *Set
	err  error
}

// sheet is the page being laid out. It holds indexes, not pointers: the
// files' and pages' slices grow while a set is built.
type sheet struct {
	g    *generator
	file int
	idx  int
}

func (s *sheet) page() *Page { return &s.g.set.Files[s.file].Pages[s.idx] }

func (g *generator) newFile(name string) int {
	g.set.Files = append(g.set.Files, File{Name: name})
	return len(g.set.Files) - 1
}

func (g *generator) newSheet(file int, number, title string) *sheet {
	f := &g.set.Files[file]
	f.Pages = append(f.Pages, Page{Number: len(f.Pages) + 1, Width: PageWidth, Height: PageHeight,
		Rotate: g.opts.Rotate, SheetNumber: number, SheetTitle: title})
	return &sheet{g: g, file: file, idx: len(f.Pages) - 1}
}

// text places a label with its top-left corner at (left, top), in points
// from the page's top-left corner, and returns it. Errors are kept on the
// generator and reported once at the end.
func (s *sheet) text(text, font string, size, left, top float64) Label {
	p := s.page()
	l, err := placeLabel(text, font, size, left, top, orientation{rot: p.Rotate, dispW: p.Width, dispH: p.Height})
	if err != nil {
		if s.g.err == nil {
			s.g.err = err
		}
		return Label{}
	}
	p.Labels = append(p.Labels, l)
	return l
}

// after places text on the same baseline right after label l, one space on.
func (s *sheet) after(l Label, text string) Label {
	space, _ := textWidth(" ", l.Font, l.Size)
	p := s.page()
	right := (l.BBox.Left + l.BBox.Width) * p.Width
	return s.text(text, l.Font, l.Size, right+space, l.BBox.Top*p.Height)
}

// expect records an expected finding anchored at the union of labels
// (none for a set-level finding).
func (s *sheet) expect(ruleID, severity string, labels ...Label) {
	if s.g.opts.Compliant {
		return
	}
	p := s.page()
	e := Expected{RuleID: ruleID, Severity: severity, File: s.file, Page: p.Number, SheetNumber: p.SheetNumber}
	if len(labels) > 0 {
		b := labels[0].BBox
		text := labels[0].Text
		for _, l := range labels[1:] {
			b = unionBBox(b, l.BBox)
			text += " " + l.Text
		}
		e.BBox, e.Text = &b, text
	}
	s.g.set.Expected = append(s.g.set.Expected, e)
}

// pick returns the violating text, or the compliant one for the twin.
func (g *generator) pick(bad, good string) string {
	if g.opts.Compliant {
		return good
	}
	return bad
}

// titleBlock writes the right-hand title block strip.
func (s *sheet) titleBlock(project, address, date, scale string) Label {
	x := PageWidth - 330
	s.text("NORTHWIND ARCHITECTS", "Helvetica-Bold", 16, x, 60)
	s.text("1200 HARBOR WAY, SUITE 4", "Helvetica", 10, x, 84)
	s.text("PROJECT", "Helvetica", 8, x, 130)
	s.text(project, "Helvetica-Bold", 14, x, 144)
	s.text(address, "Helvetica", 10, x, 166)
	s.text("SHEET TITLE", "Helvetica", 8, x, PageHeight-330)
	s.text(s.page().SheetTitle, "Helvetica-Bold", 18, x, PageHeight-316)
	if date != "" {
		s.text("DATE: "+date, "Helvetica", 10, x, PageHeight-262)
	}
	if scale != "" {
		s.text("SCALE: "+scale, "Helvetica", 10, x, PageHeight-244)
	}
	s.text("SHEET", "Helvetica", 8, x, PageHeight-200)
	return s.text(s.page().SheetNumber, "Helvetica-Bold", 40, x, PageHeight-186)
}

// maxExtraSheets keeps the sheet index within two columns left of the code
// analysis block.
const maxExtraSheets = 70

// indexRowsPerColumn wraps long drawing lists into a second column.
const indexRowsPerColumn = 40

// sheetIndex writes the drawing list; it returns the row labels by number.
func (s *sheet) sheetIndex(left, top float64, rows [][2]string) map[string][2]Label {
	s.text("SHEET INDEX", "Helvetica-Bold", 16, left, top)
	out := map[string][2]Label{}
	for i, r := range rows {
		x := left + float64(i/indexRowsPerColumn)*400
		y := top + 30 + float64(i%indexRowsPerColumn)*24
		n := s.text(r[0], "Helvetica", 14, x, y)
		t := s.text(r[1], "Helvetica", 14, x+110, y)
		out[r[0]] = [2]Label{n, t}
	}
	return out
}

// extraRows lists the ExtraSheets floor plans for the index.
func (g *generator) extraRows() [][2]string {
	var rows [][2]string
	for i := range g.opts.ExtraSheets {
		rows = append(rows, [2]string{fmt.Sprintf("A-%d", 102+i), fmt.Sprintf("FLOOR PLAN AREA %d", i+2)})
	}
	return rows
}

// extraSheets writes the ExtraSheets floor plans into file f.
func (g *generator) extraSheets(f int, project, address string) {
	for _, r := range g.extraRows() {
		s := g.newSheet(f, r[0], r[1])
		s.titleBlock(project, address, issueDate, `1/4" = 1'-0"`)
		s.note("PARTIAL FLOOR PLAN", 120, 140)
		g.fill(s)
	}
}

var fillerWords = []string{"BEDROOM", "KITCHEN", "LIVING", "DINING", "CLOSET", "OFFICE", "LOBBY",
	"STORAGE", "MECH.", "ELEC.", "JANITOR", "CONF. RM", "OPEN OFFICE", "BREAK RM", "COPY"}

// filler adds neutral labels in the drawing area: room names with numbers,
// plain dimensions and grid marks, none of which any rule reads.
func (s *sheet) filler(n int, left, top, right, bottom float64) {
	cols := 8
	rows := (n + cols - 1) / cols
	if rows == 0 {
		return
	}
	cw, rh := (right-left)/float64(cols), (bottom-top)/float64(rows)
	for i := range n {
		c, r := i%cols, i/cols
		var t string
		switch s.g.rng.Intn(3) {
		case 0:
			t = fmt.Sprintf("%s %d", fillerWords[s.g.rng.Intn(len(fillerWords))], 100+s.g.rng.Intn(300))
		case 1:
			t = fmt.Sprintf("%d'-%d\"", 4+s.g.rng.Intn(30), s.g.rng.Intn(12))
		default:
			// Grid marks without letters: "A-1" would read as a sheet number.
			t = fmt.Sprintf("COL. LINE %d", 1+s.g.rng.Intn(9))
		}
		s.text(t, "Helvetica", 9, left+float64(c)*cw, top+float64(r)*rh)
	}
}

// WriteDir writes the file's PDF as dir/<Name> and its ground truth as
// dir/<Name>.truth.json (pages, labels, word boxes).
func (f *File) WriteDir(dir string) error {
	if f.PDF == nil {
		return fmt.Errorf("plangen: %s was generated without a PDF", f.Name)
	}
	if err := os.WriteFile(filepath.Join(dir, f.Name), f.PDF, 0o644); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, f.Name+".truth.json"), f)
}

// WriteDir writes every file of the set (see File.WriteDir) and the set's
// expectations as dir/<Name>.expected.json.
func (s *Set) WriteDir(dir string) error {
	for i := range s.Files {
		if err := s.Files[i].WriteDir(dir); err != nil {
			return err
		}
	}
	return writeJSON(filepath.Join(dir, s.Name+".expected.json"), struct {
		Name      string     `json:"name"`
		Variant   string     `json:"variant"`
		Compliant bool       `json:"compliant"`
		Adopted   []string   `json:"adopted"`
		Files     []string   `json:"files"`
		Expected  []Expected `json:"expected"`
	}{s.Name, s.Variant, s.Compliant, s.Adopted, s.fileNames(), s.Expected})
}

func (s *Set) fileNames() []string {
	names := make([]string, len(s.Files))
	for i, f := range s.Files {
		names[i] = f.Name
	}
	return names
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
