package model_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"planreview/scan/model"
)

// TestReadRegionsAsReadOneByOne: the regions, references, project data,
// blank fields, stamps and room tags read on every core are those each
// sheet reads alone on first use (run with -race), and so is what the
// sheet shows; the code facts read beside them are those the set reads
// alone.
func TestReadRegionsAsReadOneByOne(t *testing.T) {
	for _, name := range []string{"ca_calgary_sample_dp_bp_house_26p.pdf", "us_in_purdue_lily_hall_teaching_lab_reno_cd_14sh.pdf"} {
		path := filepath.Join(corpusDir, name)
		prefetched, err := buildCorpusSet(path)
		if err != nil {
			t.Skipf("%s: %v", name, err)
		}
		alone, err := buildCorpusSet(path)
		if err != nil {
			t.Fatal(err)
		}
		prefetched.ReadRegions()
		if got, want := codeFactsText(prefetched), codeFactsText(alone); got != want {
			t.Errorf("%s: code facts read beside the regions differ:\n%s\nwant\n%s", name, got, want)
		}
		for i, s := range alone.Sheets {
			p := prefetched.Sheets[i]
			if !reflect.DeepEqual(p.Roles(), s.Roles()) || !reflect.DeepEqual(p.References(), s.References()) ||
				!reflect.DeepEqual(p.BlankFields(), s.BlankFields()) || !reflect.DeepEqual(unsheeted(p.ProjectFacts()), unsheeted(s.ProjectFacts())) ||
				!reflect.DeepEqual(unsheetedLists(p.AreaLists()), unsheetedLists(s.AreaLists())) ||
				!reflect.DeepEqual(p.Stamps(), s.Stamps()) || !reflect.DeepEqual(p.RoomTags(), s.RoomTags()) {
				t.Errorf("%s page %d: regions, references, project data, blank fields, stamps or room tags differ when read on every core", name, i+1)
			}
			for _, k := range model.DrawingKinds {
				if p.ShowsDrawing(k.Name) != s.ShowsDrawing(k.Name) {
					t.Errorf("%s page %d: shows %s differs", name, i+1, k.Name)
				}
			}
		}
	}
}

// unsheeted is the facts without the sheet they point to: the two sets'
// sheets differ in what they have read so far, not in the facts.
func unsheeted(facts []model.ProjectFact) []model.ProjectFact {
	out := make([]model.ProjectFact, len(facts))
	for i, f := range facts {
		f.Sheet = nil
		out[i] = f
	}
	return out
}

func unsheetedLists(lists []model.AreaList) []model.AreaList {
	out := make([]model.AreaList, len(lists))
	for i, l := range lists {
		l.Items = unsheeted(l.Items)
		l.Total = unsheeted([]model.ProjectFact{l.Total})[0]
		out[i] = l
	}
	return out
}

// codeFactsText is the set's code facts printed, each sheet named by its
// place in the set rather than its address.
func codeFactsText(set *model.Set) string {
	text := fmt.Sprint(set.CodeFacts())
	for i, s := range set.Sheets {
		text = strings.ReplaceAll(text, fmt.Sprintf("%p", s), fmt.Sprintf("sheet%d", i))
	}
	return text
}
