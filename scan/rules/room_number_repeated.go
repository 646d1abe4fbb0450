package rules

import (
	"planreview/scan/model"
	"sort"
	"strconv"
	"strings"
)

// A room tag on a plan: the room's name on one line and its number alone
// on the line just under it, centred on the name ("HC BATH RM." over
// "2042"). Two tags on one sheet that give one number to rooms of
// different names leave the schedules, keynotes and specifications that
// cite the number unable to say which room is meant.

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
		byNumber := map[string][]model.RoomTag{}
		for _, t := range pv.RoomTags() {
			byNumber[t.Number] = append(byNumber[t.Number], t)
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
				words := append(append([]int{}, b.NameWords...), pv.Lines[b.NumberLine].Words...)
				out = append(out, observation{page: pv, words: words,
					vars:     map[string]string{"number": n, "first": a.Name, "second": b.Name},
					evidence: "room " + n + " " + a.Name + " / " + b.Name,
					also:     []evidenceRef{{page: pv, words: append(append([]int{}, a.NameWords...), pv.Lines[a.NumberLine].Words...)}}})
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
func differentRooms(tags []model.RoomTag) (model.RoomTag, model.RoomTag, bool) {
	for i := range tags {
		for j := i + 1; j < len(tags); j++ {
			if !sharesWord(tags[i].Distinctive, tags[j].Distinctive) {
				return tags[i], tags[j], true
			}
		}
	}
	return model.RoomTag{}, model.RoomTag{}, false
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
