// Package codebasis is the law layer of a review: local-law snapshots (the
// local-law-snapshot-v1 file format, validated strictly and hashed into
// content-derived ids), the adoption table (which model code each state or
// city code is based on), and the coverage a scan computes from them: which
// snapshot applies on the application date, what its certification covers,
// which findings may be delivered, and the code-basis lines.
package codebasis

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"planreview/scan/rules"
)

//go:embed adoptions.yaml
var adoptionsYAML []byte

// Adoption is one state or city code and the model code it is based on.
type Adoption struct {
	Jurisdiction string    `yaml:"jurisdiction"`
	Code         string    `yaml:"code"`
	Name         string    `yaml:"name"`
	Edition      string    `yaml:"edition"`
	BasedOn      CodeRef   `yaml:"basedOn"`
	Effective    string    `yaml:"effective"`
	Sources      []TSource `yaml:"sources"`
}

// TSource is a source of the adoption table.
type TSource struct {
	Title string `yaml:"title"`
	URL   string `yaml:"url"`
}

// AdoptionTable is the embedded table, decoded and checked once.
type AdoptionTable struct {
	Adoptions []Adoption
}

var loadAdoptions = sync.OnceValues(func() (*AdoptionTable, error) {
	return parseAdoptions(adoptionsYAML)
})

// Adoptions returns the embedded adoption table.
func Adoptions() (*AdoptionTable, error) { return loadAdoptions() }

func parseAdoptions(raw []byte) (*AdoptionTable, error) {
	var doc struct {
		SchemaVersion string     `yaml:"schemaVersion"`
		Adoptions     []Adoption `yaml:"adoptions"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("adoptions.yaml: %w", err)
	}
	if doc.SchemaVersion != "adoption-table-v1" {
		return nil, fmt.Errorf("adoptions.yaml: schemaVersion %q, want adoption-table-v1", doc.SchemaVersion)
	}
	seen := map[string]bool{}
	for i, a := range doc.Adoptions {
		key := strings.ToUpper(a.Code) + " " + a.Edition
		switch {
		case !ValidJurisdictionID(a.Jurisdiction):
			return nil, fmt.Errorf("adoptions.yaml: entry %d: jurisdiction %q is not an OCD division id", i+1, a.Jurisdiction)
		case a.Code == "" || a.Name == "" || a.Edition == "" || a.BasedOn.Code == "" || a.BasedOn.Edition == "":
			return nil, fmt.Errorf("adoptions.yaml: entry %d: code, name, edition and basedOn are required", i+1)
		case len(a.Sources) == 0:
			return nil, fmt.Errorf("adoptions.yaml: entry %d (%s): cite at least one source", i+1, key)
		case seen[key]:
			return nil, fmt.Errorf("adoptions.yaml: entry %d: %s listed twice", i+1, key)
		}
		if _, err := time.Parse(time.DateOnly, a.Effective); err != nil {
			return nil, fmt.Errorf("adoptions.yaml: entry %d (%s): effective %q is not YYYY-MM-DD", i+1, key, a.Effective)
		}
		seen[key] = true
	}
	return &AdoptionTable{Adoptions: doc.Adoptions}, nil
}

// Find returns the adoption of a code and edition ("CRC", "2022").
func (t *AdoptionTable) Find(code, edition string) (Adoption, bool) {
	for _, a := range t.Adoptions {
		if strings.EqualFold(a.Code, code) && a.Edition == edition {
			return a, true
		}
	}
	return Adoption{}, false
}

// Base answers which model code a stated code is based on, for the rules'
// code_edition_current check.
func (t *AdoptionTable) Base(code, edition string) (string, string, bool) {
	a, ok := t.Find(code, edition)
	return a.BasedOn.Code, a.BasedOn.Edition, ok
}

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
