// Package codebasis is the law layer of a review: local-law snapshots (the
// local-law-snapshot-v1 file format, validated strictly and hashed into
// content-derived ids), the adoption table (which model code each state or
// city code is based on), and the coverage a scan computes from them: which
// snapshot applies on the application date, what its certification covers,
// which findings may be delivered, and the code-basis lines.
package codebasis

import (
	"fmt"
	"sync"

	"planreview/scan/codebasis/adoption"
	"planreview/scan/rules"
)

// Adoption is one state or city code and the model code it is based on.
type Adoption = adoption.Adoption

// TSource is a source of the adoption table.
type TSource = adoption.Source

// AdoptionTable is the embedded adoption table (scan/codebasis/adoption),
// with the presumption of the law from the plans.
type AdoptionTable struct{ *adoption.Table }

var loadAdoptions = sync.OnceValues(func() (*AdoptionTable, error) {
	t, err := adoption.Load()
	if err != nil {
		return nil, err
	}
	for i, a := range t.Adoptions {
		if !ValidJurisdictionID(a.Jurisdiction) {
			return nil, fmt.Errorf("adoptions.yaml: entry %d: jurisdiction %q is not an OCD division id", i+1, a.Jurisdiction)
		}
	}
	return &AdoptionTable{t}, nil
})

// Adoptions returns the embedded adoption table.
func Adoptions() (*AdoptionTable, error) { return loadAdoptions() }

// modelNames are the model codes' titles, for code-basis lines.
var modelNames = map[string]string{
	"IBC": "International Building Code", "IRC": "International Residential Code",
	"IFC": "International Fire Code", "IEBC": "International Existing Building Code",
	"IMC": "International Mechanical Code", "IPC": "International Plumbing Code",
	"IECC": "International Energy Conservation Code", "IFGC": "International Fuel Gas Code",
}

var loadLibrary = sync.OnceValues(func() (*rules.Library, error) { return rules.LoadLibrary(rules.Packs()) })

// Library is the embedded rule library, loaded once, against which value
// amendments are checked at import.
func Library() (*rules.Library, error) { return loadLibrary() }
