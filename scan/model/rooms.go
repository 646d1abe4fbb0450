package model

import (
	"math"
	"slices"
	"strings"

	"planreview/scan/sheets"
	"planreview/textmatch"
)

// A room tag on a plan: the room's name on one to three lines and its
// number alone on the line just under them, centred on the name ("HC
// BATH RM." over "2042").

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

// RoomTag is a room's name and number as a plan tags it.
type RoomTag struct {
	Number     string
	NumberLine int    // index in Sheet.Lines
	Name       string // as printed, its lines joined
	NameWords  []int  // the name's words, top line first
	// Distinctive holds the words of the name that tell the room from
	// others: no "RM", "ROOM" or leading count, apostrophes dropped.
	Distinctive []string
}

// RoomTags are the sheet's room tags, read on first use. Numbers inside a
// legend or symbol key are samples, not rooms.
func (s *Sheet) RoomTags() []RoomTag {
	if s.roomTagsRead {
		return s.roomTags
	}
	s.roomTagsRead = true
	for ni, nl := range s.Lines {
		num := strings.TrimSpace(nl.Text)
		if !roomNumberRe.MatchString(num) || s.Explains(nl.Words) {
			continue
		}
		// The name: up to three lines stacked just above the number,
		// each centred on it ("HC BATH" / "RM." over "2042").
		var above []int
		cur := nl
		for len(above) < 3 {
			next := s.lineJustAbove(cur, ni, above)
			if next < 0 {
				break
			}
			above = append(above, next)
			cur = s.Lines[next]
		}
		if len(above) == 0 {
			continue
		}
		var parts []string
		for i := len(above) - 1; i >= 0; i-- {
			parts = append(parts, strings.TrimSpace(s.Lines[above[i]].Text))
		}
		name := strings.Join(parts, " ")
		distinctive, ok := roomName(name)
		if !ok {
			continue
		}
		var nameWords []int
		for i := len(above) - 1; i >= 0; i-- {
			nameWords = append(nameWords, s.Lines[above[i]].Words...)
		}
		s.roomTags = append(s.roomTags, RoomTag{Number: num, NumberLine: ni, Name: name, NameWords: nameWords, Distinctive: distinctive})
	}
	return s.roomTags
}

// roomName reads a room's name: two to five words, all of letters but a
// leading count ("2 BED RM."), and the words that tell it from other
// rooms.
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
func (s *Sheet) lineJustAbove(below sheets.Line, ni int, skip []int) int {
	num := s.Lines[ni].Box
	best, bestGap := -1, math.Inf(1)
	for li, l := range s.Lines {
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
