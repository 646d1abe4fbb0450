package rounds

import (
	"math"
	"slices"
	"strings"
)

// Change is a region of a revised sheet whose words were added (in the
// next round) or removed (printed in the previous round, placed where it
// was there).
type Change struct {
	Kind string `json:"kind"` // added or removed
	BBox Box    `json:"bbox"`
}

// Change kinds.
const (
	ChangeAdded   = "added"
	ChangeRemoved = "removed"
)

const (
	// A word is the same word in the other round when its text is and it
	// sits within this share of the page of where it was (a sheet plotted
	// again moves by a hair, never by this much).
	sameWordDistance = 0.02
	// Changed words this close (share of the page) form one region.
	regionGap = 0.01
	// maxChanges bounds what one sheet's overlay draws.
	maxChanges = 200
)

// Changes are the regions where the words of a sheet differ between two
// rounds: words of next that prev does not print at about the same place
// (added), and words of prev that next does not (removed), joined into
// regions of nearby words.
func Changes(prev, next *Sheet) []Change {
	added, removed := unmatchedWords(prev.Words, next.Words)
	out := append(regions(ChangeAdded, added), regions(ChangeRemoved, removed)...)
	if len(out) > maxChanges {
		out = out[:maxChanges]
	}
	return out
}

// unmatchedWords pairs words of equal text nearest first and returns the
// boxes of those left on each side.
func unmatchedWords(prev, next []Word) (added, removed []Box) {
	byText := map[string][]int{}
	for i, w := range prev {
		if n := changeWord(w.Text); n != "" {
			byText[n] = append(byText[n], i)
		}
	}
	usedPrev := make([]bool, len(prev))
	for _, w := range next {
		n := changeWord(w.Text)
		if n == "" {
			continue
		}
		best, bestD := -1, math.Inf(1)
		for _, i := range byText[n] {
			if usedPrev[i] {
				continue
			}
			if d := centreDistance(prev[i], w); d < bestD {
				best, bestD = i, d
			}
		}
		if best >= 0 && bestD <= sameWordDistance {
			usedPrev[best] = true
			continue
		}
		added = append(added, boxOf(w))
	}
	for i, w := range prev {
		if !usedPrev[i] && changeWord(w.Text) != "" {
			removed = append(removed, boxOf(w))
		}
	}
	return added, removed
}

// changeWord is a word as the overlay compares it: punctuation counts.
func changeWord(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

func centreDistance(a, b Word) float64 {
	dx := float64(a.Left+a.Width/2) - float64(b.Left+b.Width/2)
	dy := float64(a.Top+a.Height/2) - float64(b.Top+b.Height/2)
	return math.Hypot(dx, dy)
}

func boxOf(w Word) Box {
	return Box{Left: float64(w.Left), Top: float64(w.Top), Width: float64(w.Width), Height: float64(w.Height)}
}

// regions joins boxes closer than regionGap into their union, in reading
// order (top to bottom, left to right).
func regions(kind string, boxes []Box) []Change {
	if len(boxes) == 0 {
		return nil
	}
	// Connected components of the "near" relation, by a sweep over the
	// boxes sorted by their left edge (union-find).
	sorted := slices.Clone(boxes)
	slices.SortFunc(sorted, func(a, b Box) int { return cmpFloat(a.Left, b.Left) })
	parent := make([]int, len(sorted))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range sorted {
		right := sorted[i].Left + sorted[i].Width + regionGap
		for j := i + 1; j < len(sorted) && sorted[j].Left <= right; j++ {
			if near(sorted[i], sorted[j]) {
				parent[find(j)] = find(i)
			}
		}
	}
	byRoot := map[int]int{}
	var merged []Box
	for i, b := range sorted {
		r := find(i)
		if k, ok := byRoot[r]; ok {
			merged[k] = union(merged[k], b)
			continue
		}
		byRoot[r] = len(merged)
		merged = append(merged, b)
	}
	slices.SortFunc(merged, func(a, b Box) int {
		if c := cmpFloat(a.Top, b.Top); c != 0 {
			return c
		}
		return cmpFloat(a.Left, b.Left)
	})
	out := make([]Change, len(merged))
	for i, b := range merged {
		out[i] = Change{Kind: kind, BBox: Box{Left: round6(b.Left), Top: round6(b.Top), Width: round6(b.Width), Height: round6(b.Height)}}
	}
	return out
}

func near(a, b Box) bool {
	return a.Left <= b.Left+b.Width+regionGap && b.Left <= a.Left+a.Width+regionGap &&
		a.Top <= b.Top+b.Height+regionGap && b.Top <= a.Top+a.Height+regionGap
}

func union(a, b Box) Box {
	l, t := math.Min(a.Left, b.Left), math.Min(a.Top, b.Top)
	r, bt := math.Max(a.Left+a.Width, b.Left+b.Width), math.Max(a.Top+a.Height, b.Top+b.Height)
	return Box{Left: l, Top: t, Width: r - l, Height: bt - t}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }
