package annotate

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/font"
)

const (
	regularFont    = "Helvetica"
	boldFont       = "Helvetica-Bold"
	regularFontKey = "F1"
	boldFontKey    = "F2"
	// minSummarySide: below this the first page is a label or a detail
	// snippet, too small for a readable table; Letter is used instead.
	minSummarySide = 400.0
	maxPageSide    = 14400.0 // the PDF limit on a page side
)

// summaryRow is one finding in the summary table; anchors of one finding
// share its row.
type summaryRow struct {
	number    int
	severity  string
	title     string
	refs      string
	rationale string
	sheets    []string
	pages     []int
}

// summaryRows groups marks by finding, in tag-number order.
func summaryRows(marks []Mark) []summaryRow {
	byID := map[string]int{}
	var rows []summaryRow
	for _, m := range marks {
		i, ok := byID[m.FindingID]
		if !ok {
			i = len(rows)
			byID[m.FindingID] = i
			rows = append(rows, summaryRow{
				number: m.Number, severity: strings.ToLower(m.Severity),
				title: m.Title, refs: m.GoverningRefs, rationale: m.Rationale,
			})
		}
		r := &rows[i]
		if m.SheetNumber != "" && !slices.Contains(r.sheets, m.SheetNumber) {
			r.sheets = append(r.sheets, m.SheetNumber)
		}
		if m.Page > 0 && !slices.Contains(r.pages, m.Page) {
			r.pages = append(r.pages, m.Page)
		}
	}
	for i := range rows {
		sort.Ints(rows[i].pages)
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].number < rows[b].number })
	return rows
}

// summaryPageSize is the first page's displayed size, so the summary prints
// on the same paper as the set, or Letter when that page is tiny.
func summaryPageSize(first pageGeometry) (w, h float64) {
	w, h = first.displaySize()
	if min(w, h) < minSummarySide {
		return letter.width(), letter.height()
	}
	return min(w, maxPageSide), min(h, maxPageSide)
}

type textLine struct {
	text []byte // WinAnsi
	bold bool
	ink  rgb
}

type column struct {
	title string
	frac  float64 // share of the table width
}

var summaryColumns = []column{
	{"No.", 0.06}, {"Severity", 0.12}, {"Sheet", 0.12}, {"Page", 0.09}, {"Finding", 0.61},
}

// summaryLayout lays text out on pages of one size; everything scales with
// the page so a summary on an A1 set looks like a Letter page enlarged.
type summaryLayout struct {
	w, h, k      float64
	margin       float64
	fontSize     float64
	lineHeight   float64
	pad          float64
	pages        []*[]byte // content streams, one per page
	cur          *[]byte
	y            float64
	continuation string
	links        []summaryLink
}

// summaryLink is a row's link to the sheet its finding is marked on.
type summaryLink struct {
	page   int // index into the summary's pages
	rect   box // on that page
	target int // 1-based page of the set
}

func newSummaryLayout(w, h float64) *summaryLayout {
	k := clamp(min(w, h)/612, 1, 6)
	fs := 9 * k
	return &summaryLayout{w: w, h: h, k: k, margin: 40 * k, fontSize: fs, lineHeight: fs * 1.3, pad: 3 * k}
}

func (s *summaryLayout) bottom() float64 { return s.margin + 2*s.lineHeight } // room for the footer

func (s *summaryLayout) newPage() {
	page := make([]byte, 0, 16<<10)
	s.cur = &page
	s.pages = append(s.pages, s.cur)
	s.y = s.h - s.margin
	if s.continuation != "" {
		s.text(s.margin, s.y-s.fontSize, s.fontSize, true, black, winAnsi(s.continuation))
		s.y -= 2 * s.lineHeight
		s.tableHeader()
	}
}

// op appends one content-stream line: operands, each followed by a space,
// then the operator. Hundreds of findings make thousands of these, so they
// are appended in place rather than formatted.
func (s *summaryLayout) op(parts ...string) {
	b := *s.cur
	for i, p := range parts {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, p...)
	}
	*s.cur = append(b, '\n')
}

func (s *summaryLayout) text(x, baseline, size float64, bold bool, ink rgb, t []byte) {
	key := "/" + regularFontKey
	if bold {
		key = "/" + boldFontKey
	}
	s.op("BT", key, num(size), "Tf", ink.fill(), num(x), num(baseline), "Td", "("+escapeLiteral(t)+")", "Tj", "ET")
}

func (s *summaryLayout) rule(y float64, width float64) {
	s.op("q 0.6 G", num(width), "w", num(s.margin), num(y), "m", num(s.w-s.margin), num(y), "l S Q")
}

func (s *summaryLayout) textWidth() float64 { return s.w - 2*s.margin }

// paragraph writes wrapped text across the full width.
func (s *summaryLayout) paragraph(t string, size float64, bold bool) {
	lh := size * 1.3
	for _, line := range wrap(t, fontFor(bold), size, s.textWidth()) {
		if s.y-lh < s.bottom() {
			s.newPage()
		}
		s.text(s.margin, s.y-size, size, bold, black, line)
		s.y -= lh
	}
}

func fontFor(bold bool) string {
	if bold {
		return boldFont
	}
	return regularFont
}

func (s *summaryLayout) columnX() []float64 {
	xs := make([]float64, len(summaryColumns)+1)
	x := s.margin
	for i, c := range summaryColumns {
		xs[i] = x
		x += c.frac * s.textWidth()
	}
	xs[len(summaryColumns)] = s.w - s.margin
	return xs
}

func (s *summaryLayout) tableHeader() {
	xs := s.columnX()
	for i, c := range summaryColumns {
		s.text(xs[i]+s.pad, s.y-s.pad-s.fontSize, s.fontSize, true, black, winAnsi(c.title))
	}
	s.y -= s.lineHeight + 2*s.pad
	s.rule(s.y, 0.8*s.k)
}

// row writes one finding; a row taller than the space left moves to the next
// page whole when it fits there, and is split across pages only when it is
// taller than a page.
//
// A row with a target page links to it: the reader goes from the list to
// the mark (for a finding about a whole sheet, to its margin tag).
func (s *summaryLayout) row(cells [][]textLine, swatch *rgb, target int) {
	n := 0
	for _, c := range cells {
		n = max(n, len(c))
	}
	xs := s.columnX()
	fullPage := int((s.h - 2*s.margin - 6*s.lineHeight - s.bottom()) / s.lineHeight)
	rowFits := func(lines int) bool { return s.y-float64(lines)*s.lineHeight-2*s.pad >= s.bottom() }
	if !rowFits(n) && n <= fullPage {
		s.newPage()
	}
	for start, fresh := 0, false; start < n; {
		avail := int((s.y - 2*s.pad - s.bottom()) / s.lineHeight)
		if avail <= 0 && !fresh {
			s.newPage()
			fresh = true
			continue
		}
		// A page always takes at least one line, so the loop ends whatever
		// the page size.
		avail, fresh = max(avail, 1), false
		end := min(n, start+avail)
		top := s.y - s.pad
		if swatch != nil && start == 0 {
			sw := s.fontSize * 0.75
			s.op("q", swatch.fill(), num(xs[1]+s.pad), num(top-s.fontSize+0.05*s.fontSize), num(sw), num(sw), "re f Q")
		}
		if start > 0 && len(cells[0]) > 0 {
			// A finding split across pages repeats its number, in grey.
			s.text(xs[0]+s.pad, top-s.fontSize, s.fontSize, true, rgb{0.5, 0.5, 0.5}, cells[0][0].text)
		}
		for ci, c := range cells {
			x := xs[ci] + s.pad
			if ci == 1 && swatch != nil {
				x += s.fontSize
			}
			for li := start; li < end && li < len(c); li++ {
				l := c[li]
				s.text(x, top-float64(li-start)*s.lineHeight-s.fontSize, s.fontSize, l.bold, l.ink, l.text)
			}
		}
		s.y = top - float64(end-start)*s.lineHeight - s.pad
		if target > 0 {
			s.links = append(s.links, summaryLink{page: len(s.pages) - 1,
				rect: box{xs[0], s.y, xs[len(xs)-1], top + s.pad}, target: target})
		}
		s.rule(s.y, 0.3*s.k)
		start = end
		if start < n {
			s.newPage()
		}
	}
}

// summaryContents lays out the findings summary and returns one content
// stream per page, and the rows' links.
func summaryContents(w, h float64, sum Summary, rows []summaryRow) ([][]byte, []summaryLink) {
	s := newSummaryLayout(w, h)
	s.newPage()
	generated := sum.GeneratedAt.UTC().Format("2006-01-02 15:04 UTC")
	s.paragraph("planreview findings summary", 16*s.k, true)
	s.y -= s.lineHeight / 2
	if sum.FileName != "" {
		s.paragraph("File: "+sum.FileName, s.fontSize, false)
	}
	s.paragraph("Job: "+orDash(sum.JobID)+"    Version: "+orDash(sum.VersionID)+"    Generated: "+generated, s.fontSize, false)
	s.paragraph(countLine(rows), s.fontSize, false)
	s.y -= s.lineHeight / 2
	s.paragraph("Code basis", s.fontSize*1.1, true)
	if len(sum.CodeBasis) == 0 {
		s.paragraph("(no code basis recorded)", s.fontSize, false)
	}
	for _, l := range sum.CodeBasis {
		s.paragraph("\u2022 "+l, s.fontSize, false)
	}
	s.y -= s.lineHeight
	s.continuation = "planreview findings summary (continued)"
	if sum.FileName != "" {
		s.continuation += " \u2014 " + sum.FileName
	}
	if s.y-4*s.lineHeight < s.bottom() {
		s.newPage()
	} else {
		s.tableHeader()
	}

	xs := s.columnX()
	colW := func(i int) float64 { return xs[i+1] - xs[i] - 2*s.pad }
	if len(rows) == 0 {
		s.row([][]textLine{nil, nil, nil, nil, s.lines("No findings are anchored in this file.", false, colW(4))}, nil, 0)
	}
	for _, r := range rows {
		st := severityStyles[r.severity]
		pages := make([]string, len(r.pages))
		for i, p := range r.pages {
			pages[i] = strconv.Itoa(p)
		}
		finding := s.lines(r.title, true, colW(4))
		if r.refs != "" {
			finding = append(finding, s.lines("Refs: "+r.refs, false, colW(4))...)
		}
		if r.rationale != "" {
			finding = append(finding, s.lines(r.rationale, false, colW(4))...)
		}
		cells := [][]textLine{
			s.lines(strconv.Itoa(r.number), true, colW(0)),
			s.lines(st.label, false, colW(1)-s.fontSize),
			s.lines(strings.Join(r.sheets, ", "), false, colW(2)),
			s.lines(orDash(strings.Join(pages, ", ")), false, colW(3)),
			finding,
		}
		sw := st.color
		target := 0
		if len(r.pages) > 0 {
			target = r.pages[0]
		}
		s.row(cells, &sw, target)
	}

	out := make([][]byte, len(s.pages))
	for i, p := range s.pages {
		footer := fmt.Sprintf("planreview \u00b7 job %s \u00b7 version %s \u00b7 summary page %d of %d",
			orDash(sum.JobID), orDash(sum.VersionID), i+1, len(s.pages))
		s.cur = p
		s.text(s.margin, s.margin, s.fontSize*0.85, false, rgb{0.35, 0.35, 0.35}, winAnsi(footer))
		out[i] = *p
	}
	return out, s.links
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "\u2014"
	}
	return s
}

func countLine(rows []summaryRow) string {
	counts := map[string]int{}
	for _, r := range rows {
		counts[r.severity]++
	}
	parts := []string{}
	for _, sev := range []string{"critical", "high", "medium", "low", "info"} {
		if counts[sev] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[sev], sev))
		}
	}
	line := fmt.Sprintf("Findings: %d", len(rows))
	if len(parts) > 0 {
		line += " (" + strings.Join(parts, ", ") + ")"
	}
	return line
}

func (s *summaryLayout) lines(t string, bold bool, width float64) []textLine {
	wrapped := wrap(t, fontFor(bold), s.fontSize, width)
	out := make([]textLine, len(wrapped))
	for i, w := range wrapped {
		out[i] = textLine{text: w, bold: bold, ink: black}
	}
	return out
}

// glyphWidths holds the standard fonts' advance widths per WinAnsi code, in
// 1/1000 em, so measuring text is a table lookup per byte.
var glyphWidths = func() map[string]*[256]float64 {
	tables := map[string]*[256]float64{}
	for _, name := range []string{regularFont, boldFont} {
		var t [256]float64
		for c := range t {
			w, err := font.CharWidth(name, rune(c))
			if err != nil || w <= 0 {
				w = 600 // an average glyph, should the metrics ever lack one
			}
			t[c] = float64(w)
		}
		tables[name] = &t
	}
	return tables
}()

// textWidth is the advance width of WinAnsi text in points.
func textWidth(fontName string, b []byte, size float64) float64 {
	t := glyphWidths[fontName]
	if t == nil {
		t = glyphWidths[regularFont]
	}
	var units float64
	for _, c := range b {
		units += t[c]
	}
	return units * size / 1000
}

// wrap breaks text into lines no wider than width at the given font size.
// Explicit newlines start new lines; a word wider than a line is broken.
func wrap(t, fontName string, size, width float64) [][]byte {
	space := textWidth(fontName, []byte{' '}, size)
	var lines [][]byte
	for _, para := range strings.Split(strings.ReplaceAll(t, "\r\n", "\n"), "\n") {
		words := strings.Fields(para)
		if len(words) == 0 {
			lines = append(lines, nil)
			continue
		}
		var cur []byte
		var curW float64
		for _, word := range words {
			wb := winAnsi(word)
			ww := textWidth(fontName, wb, size)
			if len(cur) > 0 && curW+space+ww <= width {
				cur = append(append(cur, ' '), wb...)
				curW += space + ww
				continue
			}
			if len(cur) > 0 {
				lines = append(lines, cur)
			}
			// Break a word wider than the line where it overflows.
			for ww > width && len(wb) > 1 {
				n, w := 0, 0.0
				for n < len(wb) {
					cw := textWidth(fontName, wb[n:n+1], size)
					if n > 0 && w+cw > width {
						break
					}
					w += cw
					n++
				}
				lines = append(lines, wb[:n:n])
				wb = wb[n:]
				ww -= w
			}
			cur, curW = wb, ww
		}
		lines = append(lines, cur)
	}
	return lines
}
