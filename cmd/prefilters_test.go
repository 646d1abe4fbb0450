package cmd

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"planreview/scan/rules"
	"planreview/textmatch"
)

// declaredPatterns: set by TestMain, once every package is initialised.
var declaredPatterns []string

var updatePrefilters = flag.Bool("update", false, "rewrite textmatch/prefilters_table.go from the program's patterns")

// TestPrefilterTable: textmatch's table of prefilters (prefilters_table.go)
// holds exactly the patterns this program's packages declare and the rule
// packs', each as a fresh parse gives it (patterns made at run time from
// data, such as a local law's, are parsed when they are made). A changed,
// added or removed pattern makes it stale: regenerate it with
//
//	go test ./cmd -run TestPrefilterTable -update
func TestPrefilterTable(t *testing.T) {
	// The rule packs' patterns are compiled as the library loads.
	lib, err := rules.LoadLibrary(rules.Packs())
	if err != nil {
		t.Fatal(err)
	}
	patterns := slices.Clone(declaredPatterns)
	for _, r := range lib.Rules() {
		for _, re := range []*textmatch.Regexp{r.Pattern, r.Unless} {
			if re != nil {
				patterns = append(patterns, re.String())
			}
		}
	}
	src, err := textmatch.TableSource(patterns)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "textmatch", "prefilters_table.go")
	if *updatePrefilters {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, src) {
		t.Errorf("%s is stale (a pattern changed, was added or removed): regenerate it with\n\tgo test ./cmd -run TestPrefilterTable -update", path)
	}
}
