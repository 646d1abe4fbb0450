// Package adoption is the adoption table: which model code and edition each
// state or city code is based on, when it took effect, and the names plans
// print for it. It is a package of its own, importing nothing of the
// review, so that the rules (which recognise the codes a sheet states) and
// codebasis (which presumes the law from them) read one table.
package adoption

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// Schema is the table's schemaVersion.
const Schema = "adoption-table-v1"

// CodeRef names a code and edition.
type CodeRef struct {
	Code    string `json:"code" yaml:"code"`
	Edition string `json:"edition" yaml:"edition"`
}

// Adoption is one state or city code and the model code it is based on.
type Adoption struct {
	Jurisdiction string   `yaml:"jurisdiction"`
	Code         string   `yaml:"code"`
	Name         string   `yaml:"name"`
	Edition      string   `yaml:"edition"`
	BasedOn      CodeRef  `yaml:"basedOn"`
	Effective    string   `yaml:"effective"`
	Sources      []Source `yaml:"sources"`
}

// Source is a source of the adoption table.
type Source struct {
	Title string `yaml:"title"`
	URL   string `yaml:"url"`
}

// Names are the forms plans print for one code of the table (Code set) or
// for a state's codes as a whole (Jurisdiction set: "NORTH CAROLINA STATE
// BUILDING CODE" names the state, not one of its volumes). A form of one
// word is an abbreviation, read only beside an edition year; a form of
// several words is a name, which also names the state without one.
type Names struct {
	Code         string   `yaml:"code"`
	Jurisdiction string   `yaml:"jurisdiction"`
	Printed      []string `yaml:"printed"`
}

// Table is the adoption table, decoded and checked.
type Table struct {
	Adoptions []Adoption
	Names     []Names

	printed map[string]Names // normalised printed form -> its entry
}

// modelCodes are the model codes a state code may be based on.
var modelCodes = map[string]bool{"IBC": true, "IRC": true, "IEBC": true, "IFC": true, "IMC": true, "IPC": true, "IECC": true, "IFGC": true}

var (
	jurisdictionRe = regexp.MustCompile(`^ocd-division/country:us/state:[a-z]{2}(?:/place:[a-z0-9_]+)?$`)
	yearRe         = regexp.MustCompile(`^(?:19|20)\d{2}$`)
	// An edition is the year in the code's title, or an ordinal where
	// the title has none (Massachusetts' "10th edition" of 780 CMR).
	editionRe = regexp.MustCompile(`^(?:(?:19|20)\d{2}|\d{1,2}(?:st|nd|rd|th))$`)
	printedRe = regexp.MustCompile(`^[A-Z0-9.\-]+(?: [A-Z0-9.\-]+)*$`)
)

// document is adoptions.yaml as decoded, before it is checked.
type document struct {
	SchemaVersion string     `yaml:"schemaVersion"`
	Adoptions     []Adoption `yaml:"adoptions"`
	Names         []Names    `yaml:"names"`
}

// The table is compiled in as tableDocument (adoptions_table.go, generated
// from adoptions.yaml by the package's tests): decoding the YAML cost each
// review 2-3 ms and 12,000 allocations before its first check.
var load = sync.OnceValues(func() (*Table, error) { return check(tableDocument) })

// Load returns the table of adoptions.yaml.
func Load() (*Table, error) { return load() }

// check checks a decoded table and indexes its printed forms: every entry
// names its jurisdiction, code, edition, the model code and edition it is
// based on, the date it took effect and at least one source with a title
// and a web address; every printed form names one code or state of the
// table.
func check(doc document) (*Table, error) {
	if doc.SchemaVersion != Schema {
		return nil, fmt.Errorf("adoptions.yaml: schemaVersion %q, want %s", doc.SchemaVersion, Schema)
	}
	seen := map[string]bool{}
	codeState := map[string]string{}
	for i, a := range doc.Adoptions {
		key := strings.ToUpper(a.Code) + " " + a.Edition
		switch {
		case !jurisdictionRe.MatchString(a.Jurisdiction):
			return nil, fmt.Errorf("adoptions.yaml: entry %d: jurisdiction %q is not a US state or city division id", i+1, a.Jurisdiction)
		case a.Code == "" || a.Name == "" || a.Edition == "" || a.BasedOn.Code == "" || a.BasedOn.Edition == "":
			return nil, fmt.Errorf("adoptions.yaml: entry %d: code, name, edition and basedOn are required", i+1)
		case !editionRe.MatchString(a.Edition):
			return nil, fmt.Errorf("adoptions.yaml: entry %d (%s): edition %q is neither a year nor an ordinal", i+1, key, a.Edition)
		case !modelCodes[a.BasedOn.Code] || !yearRe.MatchString(a.BasedOn.Edition):
			return nil, fmt.Errorf("adoptions.yaml: entry %d (%s): basedOn %s %s is not a model code and year", i+1, key, a.BasedOn.Code, a.BasedOn.Edition)
		case len(a.Sources) == 0:
			return nil, fmt.Errorf("adoptions.yaml: entry %d (%s): cite at least one source", i+1, key)
		case seen[key]:
			return nil, fmt.Errorf("adoptions.yaml: entry %d: %s listed twice", i+1, key)
		case codeState[a.Code] != "" && codeState[a.Code] != a.Jurisdiction:
			return nil, fmt.Errorf("adoptions.yaml: entry %d: %s is also %s's code", i+1, a.Code, codeState[a.Code])
		}
		if _, err := time.Parse(time.DateOnly, a.Effective); err != nil {
			return nil, fmt.Errorf("adoptions.yaml: entry %d (%s): effective %q is not YYYY-MM-DD", i+1, key, a.Effective)
		}
		for _, s := range a.Sources {
			u, err := url.Parse(s.URL)
			if s.Title == "" || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				return nil, fmt.Errorf("adoptions.yaml: entry %d (%s): a source needs a title and a web address (%q, %q)", i+1, key, s.Title, s.URL)
			}
		}
		seen[key] = true
		codeState[a.Code] = a.Jurisdiction
	}
	t := &Table{Adoptions: doc.Adoptions, Names: doc.Names, printed: map[string]Names{}}
	states := map[string]bool{}
	for _, j := range codeState {
		states[j] = true
	}
	for i, n := range doc.Names {
		switch {
		case (n.Code == "") == (n.Jurisdiction == ""):
			return nil, fmt.Errorf("adoptions.yaml: names entry %d: name either a code or a jurisdiction", i+1)
		case n.Code != "" && codeState[n.Code] == "":
			return nil, fmt.Errorf("adoptions.yaml: names entry %d: %s is not a code of the table", i+1, n.Code)
		case n.Jurisdiction != "" && !states[n.Jurisdiction]:
			return nil, fmt.Errorf("adoptions.yaml: names entry %d: %s has no code in the table", i+1, n.Jurisdiction)
		case len(n.Printed) == 0:
			return nil, fmt.Errorf("adoptions.yaml: names entry %d: no printed form", i+1)
		}
		for _, p := range n.Printed {
			k := Normalize(p)
			switch {
			case !printedRe.MatchString(p) || k != p:
				return nil, fmt.Errorf("adoptions.yaml: names entry %d: %q is not upper-case words joined by single spaces", i+1, p)
			case modelCodes[k]:
				return nil, fmt.Errorf("adoptions.yaml: names entry %d: %q is a model code", i+1, p)
			case !strings.Contains(k, " ") && len(k) < 3:
				return nil, fmt.Errorf("adoptions.yaml: names entry %d: abbreviation %q is too short to read safely", i+1, p)
			}
			if prev, dup := t.printed[k]; dup {
				return nil, fmt.Errorf("adoptions.yaml: names entry %d: %q already names %s%s", i+1, p, prev.Code, prev.Jurisdiction)
			}
			t.printed[k] = n
		}
	}
	return t, nil
}

// Normalize is a printed form as the table keys it: upper case, words
// joined by single spaces, the punctuation between words dropped ("FLORIDA
// BUILDING CODE - RESIDENTIAL" is "FLORIDA BUILDING CODE RESIDENTIAL").
func Normalize(s string) string {
	f := strings.FieldsFunc(strings.ToUpper(s), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == ',' || r == '–' || r == ':' || r == '/'
	})
	out := f[:0]
	for _, w := range f {
		if w != "-" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// Find returns the adoption of a code and edition ("CRC", "2022").
func (t *Table) Find(code, edition string) (Adoption, bool) {
	for _, a := range t.Adoptions {
		if strings.EqualFold(a.Code, code) && a.Edition == edition {
			return a, true
		}
	}
	return Adoption{}, false
}

// Base answers which model code a stated code is based on.
func (t *Table) Base(code, edition string) (string, string, bool) {
	a, ok := t.Find(code, edition)
	return a.BasedOn.Code, a.BasedOn.Edition, ok
}

// The readers below answer for a nil table (one that did not load) as for
// an empty one.

// ModelOf is the model code a state code is based on in every edition the
// table holds ("CRC" -> "IRC"); "" for a code the table does not hold.
func (t *Table) ModelOf(code string) string {
	if t == nil {
		return ""
	}
	for _, a := range t.Adoptions {
		if strings.EqualFold(a.Code, code) {
			return a.BasedOn.Code
		}
	}
	return ""
}

// JurisdictionOf is the division a table code belongs to; "" when the
// table does not hold it.
func (t *Table) JurisdictionOf(code string) string {
	if t == nil {
		return ""
	}
	for _, a := range t.Adoptions {
		if strings.EqualFold(a.Code, code) {
			return a.Jurisdiction
		}
	}
	return ""
}

// Printed reads a printed form: the code it names ("" for a name of a
// state's codes as a whole) and the state or city division it names.
func (t *Table) Printed(form string) (code, jurisdiction string, ok bool) {
	if t == nil {
		return "", "", false
	}
	n, ok := t.printed[Normalize(form)]
	if !ok {
		return "", "", false
	}
	if n.Code != "" {
		return n.Code, t.JurisdictionOf(n.Code), true
	}
	return "", n.Jurisdiction, true
}

// Forms are the table's printed forms, longest first (so that an
// alternation built from them prefers "FLORIDA BUILDING CODE RESIDENTIAL"
// to "FLORIDA BUILDING CODE"): names of several words and abbreviations
// of one.
func (t *Table) Forms() (names, abbreviations []string) {
	for k := range t.printed {
		if strings.Contains(k, " ") {
			names = append(names, k)
		} else {
			abbreviations = append(abbreviations, k)
		}
	}
	longestFirst := func(s []string) {
		sort.Slice(s, func(i, j int) bool {
			if len(s[i]) != len(s[j]) {
				return len(s[i]) > len(s[j])
			}
			return s[i] < s[j]
		})
	}
	longestFirst(names)
	longestFirst(abbreviations)
	return names, abbreviations
}
