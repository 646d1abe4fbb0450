package pdftext

import (
	"context"
	"fmt"
	"html"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// popplerWord is one word of `pdftotext -bbox`, in displayed-page points.
type popplerWord struct {
	text                   string
	xMin, yMin, xMax, yMax float64
}

type popplerPage struct {
	width, height float64
	words         []popplerWord
}

var (
	popplerPageRe = regexp.MustCompile(`<page width="([0-9.]+)" height="([0-9.]+)">`)
	popplerWordRe = regexp.MustCompile(`<word xMin="([-0-9.]+)" yMin="([-0-9.]+)" xMax="([-0-9.]+)" yMax="([-0-9.]+)">(.*?)</word>`)
)

func havePoppler() bool {
	_, err := exec.LookPath("pdftotext")
	return err == nil
}

// popplerWords runs `pdftotext -bbox` on path; skip the test without it.
func popplerWords(t testing.TB, path string) []popplerPage {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext not installed")
	}
	out, err := exec.Command(bin, "-bbox", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", path, err)
	}
	var pages []popplerPage
	for _, line := range strings.Split(string(out), "\n") {
		if m := popplerPageRe.FindStringSubmatch(line); m != nil {
			w, _ := strconv.ParseFloat(m[1], 64)
			h, _ := strconv.ParseFloat(m[2], 64)
			pages = append(pages, popplerPage{width: w, height: h})
			continue
		}
		if m := popplerWordRe.FindStringSubmatch(line); m != nil && len(pages) > 0 {
			var v [4]float64
			for i := range v {
				v[i], _ = strconv.ParseFloat(m[i+1], 64)
			}
			p := &pages[len(pages)-1]
			p.words = append(p.words, popplerWord{text: html.UnescapeString(m[5]), xMin: v[0], yMin: v[1], xMax: v[2], yMax: v[3]})
		}
	}
	return pages
}

func iou(a, b [4]float64) float64 {
	ix := min(a[2], b[2]) - max(a[0], b[0])
	iy := min(a[3], b[3]) - max(a[1], b[1])
	if ix <= 0 || iy <= 0 {
		return 0
	}
	inter := ix * iy
	union := (a[2]-a[0])*(a[3]-a[1]) + (b[2]-b[0])*(b[3]-b[1]) - inter
	if union <= 0 {
		return 0
	}
	return inter / union
}

// agreement is how many of poppler's words we found with the same text and
// a box overlap of at least minIoU.
type agreement struct {
	file         string
	pages        int
	popplerWords int
	ourWords     int
	matched      int
	misses       []string
}

func (a agreement) ratio() float64 {
	if a.popplerWords == 0 {
		return 1
	}
	return float64(a.matched) / float64(a.popplerWords)
}

const minIoU = 0.8

func compareWithPoppler(t testing.TB, path string) agreement {
	t.Helper()
	ref := popplerWords(t, path)
	doc, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer doc.Close()
	a := agreement{file: path, pages: doc.NumPages()}
	if len(ref) != doc.NumPages() {
		t.Errorf("%s: poppler sees %d pages, we see %d", path, len(ref), doc.NumPages())
	}
	n := 0
	for p := range doc.Pages(context.Background()) {
		n++
		if p.Err != nil {
			t.Errorf("%s page %d: %v", path, p.Number, p.Err)
		}
		if n > len(ref) {
			break
		}
		rp := ref[n-1]
		// pdftotext prints the unrotated CropBox size; words are in the
		// rotated (displayed) space like ours.
		wantW, wantH := rp.width, rp.height
		if p.Rotate == 90 || p.Rotate == 270 {
			wantW, wantH = wantH, wantW
		}
		if abs(wantW-p.Width) > 0.01 || abs(wantH-p.Height) > 0.01 {
			t.Errorf("%s page %d: size %.2fx%.2f, poppler %.2fx%.2f", path, n, p.Width, p.Height, rp.width, rp.height)
		}
		byText := map[string][]int{}
		for i, w := range p.Words {
			byText[w.Text] = append(byText[w.Text], i)
		}
		a.ourWords += len(p.Words)
		used := make([]bool, len(p.Words))
		var unmatched []popplerWord
		for _, pw := range rp.words {
			a.popplerWords++
			// Our boxes are clipped to the page (the contract's fractions
			// stay within 0–1); poppler's may run past its edges.
			box := [4]float64{max(pw.xMin, 0), max(pw.yMin, 0), min(pw.xMax, p.Width), min(pw.yMax, p.Height)}
			best, bestIoU := -1, 0.0
			for _, i := range byText[pw.text] {
				if used[i] {
					continue
				}
				if v := iou(box, ourBox(p, i)); v > bestIoU {
					best, bestIoU = i, v
				}
			}
			if best >= 0 && bestIoU >= minIoU {
				used[best] = true
				a.matched++
				continue
			}
			unmatched = append(unmatched, pw)
		}
		// A word poppler joins and we keep as two (a stacked fraction's
		// numerator and denominator, which poppler reads as "14" for ¼) is
		// the same glyphs found: it counts when our words inside its box
		// spell it.
		for _, pw := range unmatched {
			if spelledBySplit(p, pw, used) {
				a.matched++
				continue
			}
			if len(a.misses) < 40 {
				a.misses = append(a.misses, fmt.Sprintf("p%d %q [%.1f %.1f %.1f %.1f]", n, pw.text, pw.xMin, pw.yMin, pw.xMax, pw.yMax))
			}
		}
	}
	return a
}

func formatRow(a agreement) string {
	return fmt.Sprintf("| %s | %d | %d | %d | %d | %.2f%% |\n", filepath.Base(a.file), a.pages, a.popplerWords, a.ourWords, a.matched, 100*a.ratio())
}

func ourBox(p *Page, i int) [4]float64 {
	b := p.Words[i].BBox
	return [4]float64{b.Left * p.Width, b.Top * p.Height, (b.Left + b.Width) * p.Width, (b.Top + b.Height) * p.Height}
}

// spelledBySplit reports whether two or more of our unused words lying
// inside poppler's word box spell its text, read left to right or top to
// bottom; it marks them used when they do.
func spelledBySplit(p *Page, pw popplerWord, used []bool) bool {
	const slack = 1.0 // points
	var inside []int
	for i := range p.Words {
		if used[i] {
			continue
		}
		b := ourBox(p, i)
		if b[0] >= pw.xMin-slack && b[1] >= pw.yMin-slack && b[2] <= pw.xMax+slack && b[3] <= pw.yMax+slack {
			inside = append(inside, i)
		}
	}
	if len(inside) < 2 {
		return false
	}
	for _, axis := range []int{0, 1} {
		sort.Slice(inside, func(x, y int) bool { return ourBox(p, inside[x])[axis] < ourBox(p, inside[y])[axis] })
		var text strings.Builder
		for _, i := range inside {
			text.WriteString(p.Words[i].Text)
		}
		if text.String() == pw.text {
			for _, i := range inside {
				used[i] = true
			}
			return true
		}
	}
	return false
}
