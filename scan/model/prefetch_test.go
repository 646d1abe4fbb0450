package model_test

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestReadRegionsAsReadOneByOne: the regions, references and blank fields read on every
// core are those each sheet reads alone on first use (run with -race).
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
		for i, s := range alone.Sheets {
			p := prefetched.Sheets[i]
			if !reflect.DeepEqual(p.Roles(), s.Roles()) || !reflect.DeepEqual(p.References(), s.References()) ||
				!reflect.DeepEqual(p.BlankFields(), s.BlankFields()) {
				t.Errorf("%s page %d: regions, references or blank fields differ when read on every core", name, i+1)
			}
		}
	}
}
