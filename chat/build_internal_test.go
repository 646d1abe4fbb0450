package chat

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"planreview/scan/pdftext"
)

// TextPage lays lines out top to bottom in one column, as an extractor
// would report them. (Exported in the package's tests only, for its
// external tests too.)
func TextPage(number int, lines ...string) pdftext.Page {
	const w, h, size = 612.0, 792.0, 10.0
	p := pdftext.Page{Number: number, Width: w, Height: h, Readable: true}
	y := 60.0
	for _, line := range lines {
		x := 50.0
		for _, word := range strings.Fields(line) {
			ww := float64(len(word)) * size * 0.55
			p.Words = append(p.Words, pdftext.Word{Text: word, Norm: word, FontSize: size,
				BBox:     pdftext.BBox{Left: x / w, Top: (y - size) / h, Width: ww / w, Height: size * 1.2 / h},
				Rect:     pdftext.Rect{x, h - y - 2, x + ww, h - y + size},
				Baseline: [4]float64{x, y, x + ww, y}})
			x += ww + size*0.3
		}
		y += size * 1.4
	}
	return p
}

// captionPage is a page of caption/value lines ("ROOM101: OFFICE101",
// numbered from the page's number times 100), one under the other: a
// pair and a share of a passage each, more units than its words alone
// suggest.
func captionPage(number, lines int) pdftext.Page {
	text := make([]string, lines)
	for i := range text {
		n := number*100 + i + 1
		text[i] = fmt.Sprintf("ROOM%d: OFFICE%d", n, n)
	}
	return TextPage(number, text...)
}

// TestBuildPagesOutgrownRoom: a page making more units than its room in
// the shared array moves out of it, and the set's units are still each
// page's own, in order, whichever pages outgrew their room.
func TestBuildPagesOutgrownRoom(t *testing.T) {
	var pages []SourcePage
	for i, lines := range []int{40, 3, 40, 1, 40} {
		p := captionPage(i+1, lines)
		pages = append(pages, SourcePage{FileID: "file_a", Text: &p, SheetNumber: fmt.Sprintf("A%d", i+1)})
	}
	outgrown := 0
	var want []Unit
	for i, sp := range pages {
		alone := BuildPages([]SourcePage{sp})
		if len(alone.Units) > pageUnits(sp) {
			outgrown++
		}
		for _, u := range alone.Units {
			u.Page = i
			want = append(want, u)
		}
	}
	if outgrown == 0 {
		t.Fatal("no page outgrows its room: the test does not test it")
	}
	ix := BuildPages(pages)
	if !reflect.DeepEqual(ix.Units, want) {
		t.Errorf("units of the set differ from the pages' own (%d units, want %d)", len(ix.Units), len(want))
	}
	// Pages within their room are moved down in the one array.
	ix = BuildPages(pages[1:2])
	if len(ix.Units) == 0 || len(ix.Units) > pageUnits(pages[1]) {
		t.Errorf("a 3-line page made %d units", len(ix.Units))
	}
}

// TestTitleMatch checks the cover title's words found on a page against
// gathering the page's titleWords first, on random lines.
func TestTitleMatch(t *testing.T) {
	vocab := []string{"Lily", "HALL", "hall.", "(LILY", "teaching", "LAB", "lab", "Renovation;", "RÉNOVATION", "rénovation", "Ünï", "\xff",
		"of", "THE", "\"Lab\"", "purdue", "PURDUE,", "a", "\u00a0", "\t", "…", "K", "\u212a", "ok"}
	rng := rand.New(rand.NewSource(3))
	line := func() string {
		var sb strings.Builder
		for range rng.Intn(8) {
			sb.WriteString(vocab[rng.Intn(len(vocab))])
			sb.WriteString([]string{" ", "  ", "", "\t"}[rng.Intn(4)])
		}
		return sb.String()
	}
	for range 3000 {
		words := titleWords(line() + " " + line())
		if len(words) == 0 {
			continue
		}
		m := newTitleMatch(words)
		for range 3 {
			lines := make([]string, rng.Intn(6))
			for i := range lines {
				lines[i] = line()
			}
			have := map[string]bool{}
			for _, l := range lines {
				for _, w := range titleWords(l) {
					have[w] = true
				}
			}
			want := 0
			for _, w := range words {
				if have[w] {
					want++
				}
			}
			if got := m.count(lines); got != want {
				t.Fatalf("title %q on %q: %d words found, want %d", words, lines, got, want)
			}
		}
	}
}
