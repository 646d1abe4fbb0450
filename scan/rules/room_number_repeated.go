package rules

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"planreview/scan/sheets"
	"planreview/textmatch"
)

// A room tag on a plan: the room's name on one line and its number alone
// on the line just under it, centred on the name ("HC BATH RM." over
// "2042"). Two tags on one sheet that give one number to rooms of
// different names leave the schedules, keynotes and specifications that
// cite the number unable to say which room is meant.

// roomNumberRe is a room number printed alone: three or four digits and an
// optional letter ("2042", "104A"). Dimensions, elevations and levels have
// units, signs or separators, so never match.
var roomNumberRe = textmatch.MustCompile(`^[0-9]{3,4}[A-Z]?$`)

// roomNameWordRe is a word of a room's name: letters, with an apostrophe or
// full stop ("MEN'S", "RM.").
var roomNameWordRe = textmatch.MustCompile(`^[A-Z][A-Z'.]*$`)

// roomGenericWords do not tell one room from another: "HC BATH RM." and
// "BATH ROOM" name the same kind of room.
var roomGenericWords = map[string]bool{"RM": true, "ROOM": true, "NO": true, "THE": true, "OF": true, "AND": true}

type roomTag struct {
	nameWords []int
	numLine   int
	number    string
	name      []string // distinguishing words of the name
	nameText  string
}

// roomTags reads the page's room tags.
func roomTags(pv *pageView) []roomTag {
	// Lines by their top, to find the line just above a number.
	var tags []roomTag
	for ni, nl := range pv.Lines {
		num := strings.TrimSpace(nl.Text)
		if !roomNumberRe.MatchString(num) || pv.Explains(nl.Words) {
			continue
		}
		// The name: up to three lines stacked just above the number,
		// each centred on it ("HC BATH" / "RM." over "2042").
		var above []int
		cur := nl
		for len(above) < 3 {
			next := lineJustAbove(pv, cur, ni, above)
			if next < 0 {
				break
			}
			above = append(above, next)
			cur = pv.Lines[next]
		}
		if len(above) == 0 {
			continue
		}
		var parts []string
		for i := len(above) - 1; i >= 0; i-- {
			parts = append(parts, strings.TrimSpace(pv.Lines[above[i]].Text))
		}
		nameText := strings.Join(parts, " ")
		name, ok := roomName(nameText)
		if !ok {
			continue
		}
		var nameWords []int
		for i := len(above) - 1; i >= 0; i-- {
			nameWords = append(nameWords, pv.Lines[above[i]].Words...)
		}
		tags = append(tags, roomTag{nameWords: nameWords, numLine: ni, number: num, name: name, nameText: nameText})
	}
	return tags
}

// roomName reads a room's name from a tag's first line: two to five words,
// all of letters but a leading count ("2 BED RM."), and the words that
// tell it from other rooms.
func roomName(text string) ([]string, bool) {
	f := strings.Fields(text)
	if len(f) == 0 || len(f) > 5 {
		return nil, false
	}
	if len(f) > 1 && len(f[0]) == 1 && f[0][0] >= '0' && f[0][0] <= '9' {
		f = f[1:]
	}
	var words []string
	for _, w := range f {
		if !roomNameWordRe.MatchString(w) {
			return nil, false
		}
		w = strings.TrimRight(w, ".")
		if !roomGenericWords[w] && len(w) > 1 {
			words = append(words, strings.ReplaceAll(w, "'", ""))
		}
	}
	return words, len(words) > 0
}

// lineJustAbove finds the line just above below (within about a line's
// height), centred on the number line ni, and of a text height no more
// than twice the smaller one's plus leading; -1 if none.
func lineJustAbove(pv *pageView, below sheets.Line, ni int, skip []int) int {
	num := pv.Lines[ni].Box
	best, bestGap := -1, math.Inf(1)
	for li, l := range pv.Lines {
		if li == ni || slices.Contains(skip, li) {
			continue
		}
		h := math.Min(l.Box.Height(), below.Box.Height())
		big := math.Max(l.Box.Height(), below.Box.Height())
		gap := below.Box.Y0 - l.Box.Y1
		if gap < -h*0.5 || gap > h || big > 2.5*h ||
			math.Abs(l.Box.CenterX()-num.CenterX()) > big*1.5 {
			continue
		}
		if gap < bestGap {
			best, bestGap = li, gap
		}
	}
	return best
}

// checkRoomNumberRepeated reports a room number a sheet's tags give to two
// rooms whose names share no distinguishing word: once per number and
// sheet, anchored on the second tag. A room tagged twice under one name
// (a large room, an enlarged plan on the same sheet) is not reported.
func checkRoomNumberRepeated(rv *review, r *Rule) []observation {
	var out []observation
	for _, pv := range rv.pages {
		if !pv.Readable {
			continue
		}
		byNumber := map[string][]roomTag{}
		for _, t := range roomTags(pv) {
			byNumber[t.number] = append(byNumber[t.number], t)
		}
		numbers := make([]string, 0, len(byNumber))
		for n := range byNumber {
			numbers = append(numbers, n)
		}
		sort.Strings(numbers)
		for _, n := range numbers {
			tags := byNumber[n]
			if !inRoomSeries(n, numbers) {
				continue
			}
			if a, b, ok := differentRooms(tags); ok {
				words := append(append([]int{}, b.nameWords...), pv.Lines[b.numLine].Words...)
				out = append(out, observation{page: pv, words: words,
					vars:     map[string]string{"number": n, "first": a.nameText, "second": b.nameText},
					evidence: "room " + n + " " + a.nameText + " / " + b.nameText,
					also:     []evidenceRef{{page: pv, words: append(append([]int{}, a.nameWords...), pv.Lines[a.numLine].Words...)}}})
			}
		}
	}
	return out
}

// inRoomSeries reports whether another number the page's tags carry is
// within ten of n: rooms are numbered in series (2041, 2042, 2043), a
// metric dimension under a label ("WINDOW" over "1500") seldom has such
// neighbours.
func inRoomSeries(n string, numbers []string) bool {
	v, ok := roomNumberValue(n)
	if !ok {
		return false
	}
	for _, m := range numbers {
		if w, ok := roomNumberValue(m); ok && m != n && w != v && w-v <= 10 && v-w <= 10 {
			return true
		}
	}
	return false
}

// roomNumberValue is a room number's digits as a number ("2041A": 2041).
func roomNumberValue(n string) (int, bool) {
	v, err := strconv.Atoi(strings.TrimRight(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
	return v, err == nil
}

// differentRooms finds two tags whose names share no distinguishing word.
func differentRooms(tags []roomTag) (roomTag, roomTag, bool) {
	for i := range tags {
		for j := i + 1; j < len(tags); j++ {
			if !sharesWord(tags[i].name, tags[j].name) {
				return tags[i], tags[j], true
			}
		}
	}
	return roomTag{}, roomTag{}, false
}

func sharesWord(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}
