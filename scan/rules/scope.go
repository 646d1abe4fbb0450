package rules

import (
	"sort"
	"strconv"
	"strings"

	"planreview/scan/codebasis/adoption"
	"planreview/scan/model"
	"planreview/scan/sheets"
	"planreview/textmatch"
)

// Scope classes of one file: what the review may say about it.
const (
	// ScopeInScope: a construction document under codes the appliance
	// holds; every rule applies.
	ScopeInScope = "in_scope"
	// ScopeCodesNotHeld: a construction document whose stated codes or
	// jurisdiction the appliance holds no pack for (another country, a code
	// without a pack); the document checks apply, the code packs and the
	// code-analysis statements do not.
	ScopeCodesNotHeld = "codes_not_held"
	// ScopeOutOfScope: not a construction document for a building permit
	// (letter, form or specification, civil or transport plans, real-estate
	// or other non-construction drawings); only coverage findings.
	ScopeOutOfScope = "out_of_scope"
)

// JobContext is what the job, not the file, says about the law: the job's
// jurisdiction (an OCD division id, "" when none) and the adoption table's
// answer to which model code a state or city code is based on (nil: none).
type JobContext struct {
	Jurisdiction string
	Base         EditionBase
	// NotHeld, when the law was presumed from the plans, names the building
	// codes in force there whose model-code edition the appliance holds no
	// pack for ("Indiana Building Code 2014 (based on IBC 2012)"): the
	// files are then reviewed by the document checks only.
	NotHeld []string
}

// FileScope is the scope decision for one file, with its reasons.
type FileScope struct {
	Class string
	// Reason says why a file is out of scope or why its codes are not
	// applied, in words for the info finding.
	Reason string
	// NotApplied lists the codes the file states (as printed) that the
	// appliance holds no pack for.
	NotApplied []string
	DocType    string
	// CodeOfRecord names the US building code that governs a file whose
	// codes are not held (a state's code on an edition without a pack):
	// whether the plans state their code analysis is asked under it, with
	// no section cited. Empty for every other file.
	CodeOfRecord string
}

// usCodeRe reads a stated US code: family and edition as printed ("2011
// NEC", "5th Edition (2014) FBC", "IBC 2021", "2022 California Building
// Code").
var (
	usFamilyRe  = textmatch.MustCompile(`(?i)\b(IBC|IRC|IFC|IMC|IPC|IECC|IEBC|IFGC|IPMC|ISPSC|NEC|FBC|CBC|CRC|CEC|CPC|CMC|CFC|OBC|UBC|NFPA\s*\d+[A-Z]?)\b|\b(INTERNATIONAL|CALIFORNIA|FLORIDA)\s+(BUILDING|RESIDENTIAL)\s+CODE\b`)
	editionRe   = textmatch.MustCompile(`\b((?:19|20)\d{2})\b`)
	usStateZIP  = textmatch.MustCompile(`\b(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC)\s+\d{5}(?:-\d{4})?\b`)
	countryRe   = textmatch.MustCompile(`country:([a-z]{2})`)
	foreignAuth = textmatch.MustCompile(`(?i)\b(?:JKR|JABATAN\s+KERJA\s+RAYA|POLITECNICO|BUILDING\s+RULES\s+CONSENT|COMUNE|STADT|GEMEINDE|OBČINA)\b`)
)

// spelledFamily maps a spelled-out state or model code name to its
// abbreviation.
var spelledFamily = map[string]string{
	"INTERNATIONAL BUILDING": "IBC", "INTERNATIONAL RESIDENTIAL": "IRC",
	"CALIFORNIA BUILDING": "CBC", "CALIFORNIA RESIDENTIAL": "CRC",
	"FLORIDA BUILDING": "FBC", "FLORIDA RESIDENTIAL": "FBC",
}

// buildingFamily reports whether a code family governs a building as a
// whole (a set that states only such codes without a pack is not reviewed
// against the packs the appliance holds): the model building and
// residential codes, the Ohio/Ontario "OBC" and the Uniform Building Code,
// and the adoption table's codes based on the IBC or IRC.
func buildingFamily(family string) bool {
	switch family {
	case "IBC", "IRC", "OBC", "UBC":
		return true
	}
	m := adoptions().ModelOf(family)
	return m == "IBC" || m == "IRC"
}

// stateBuildingCodeRe is another state's own building or residential code
// by name ("INDIANA BUILDING CODE", "OREGON RESIDENTIAL SPECIALTY CODE").
// adoptions is the adoption table (scan/codebasis/adoption): the state and
// city codes, the model codes they are based on, and the names plans print
// for them; nil when the embedded table does not load (codebasis reports
// that error).
func adoptions() *adoption.Table {
	t, _ := adoption.Load()
	return t
}

var stateBuildingCodeRe = textmatch.MustCompile(`(?i)\b(?:` + model.OtherStateNames + `)\s+(?:RESIDENTIAL|BUILDING|STRUCTURAL)(?:\s+SPECIALTY)?\s+CODE\b`)

// governsBuilding reports whether a stated code governs a building as a
// whole: a model or state building code, not a trade code.
func governsBuilding(sc statedCode) bool {
	return buildingFamily(sc.Family) || stateBuildingCodeRe.MatchString(sc.Text)
}

// statedCode is one code statement of the set model, read.
type statedCode struct {
	Text    string // as printed
	Family  string // US family, "" for a code of another country
	Edition string
}

func readStatedCode(text string) statedCode {
	sc := statedCode{Text: text}
	if m := usFamilyRe.FindStringSubmatch(text); m != nil {
		if m[1] != "" {
			sc.Family = strings.ToUpper(strings.Join(strings.Fields(m[1]), " "))
		} else {
			sc.Family = spelledFamily[strings.ToUpper(m[2]+" "+m[3])]
		}
	}
	// "5th Edition (2014) FBC": the year is the edition.
	if m := editionRe.FindStringSubmatch(text); m != nil {
		sc.Edition = m[1]
	}
	return sc
}

// held reports whether the engine applies this code: its family and
// edition are an adopted pack or a state code adopted above one, directly
// or through the adoption table's base.
func (e *Engine) held(sc statedCode, base EditionBase) bool {
	if sc.Family == "" || sc.Edition == "" {
		return false
	}
	for _, a := range e.adopted {
		if a.Code == sc.Family && a.Edition == sc.Edition {
			return true
		}
	}
	for _, a := range e.stateCodes {
		if strings.EqualFold(a.Code, sc.Family) && a.Edition == sc.Edition {
			return true
		}
	}
	for _, b := range []EditionBase{e.base, base} {
		if b == nil {
			continue
		}
		if bc, be, ok := b(sc.Family, sc.Edition); ok {
			for _, a := range e.adopted {
				if a.Code == bc && a.Edition == be {
					return true
				}
			}
		}
	}
	return false
}

func (e *Engine) adoptsFamily(family string) bool {
	for _, a := range e.adopted {
		if a.Code == family {
			return true
		}
	}
	return false
}

// familyInTable reports whether the adoption table knows a state or city
// code family as based on an adopted model code, in some edition: a set
// that names the code without its year ("CALIFORNIA BUILDING CODE") is
// under a code the appliance holds.
func (e *Engine) familyInTable(family string, base EditionBase) bool {
	for _, b := range []EditionBase{e.base, base} {
		if b == nil {
			continue
		}
		for y := 2000; y <= 2035; y++ {
			if bc, _, ok := b(family, strconv.Itoa(y)); ok && e.adoptsFamily(bc) {
				return true
			}
		}
	}
	return false
}

// outOfScopeReasons says, per document type, what was not reviewed and why.
var outOfScopeReasons = map[string]string{
	sheets.DocLetter:          "The file reads as a letter, not as construction drawings; the building-code and sheet checks were not applied.",
	sheets.DocSpecOrForm:      "The file reads as a specification, form or checklist, not as construction drawings; the building-code and sheet checks were not applied.",
	sheets.DocCivil:           "The file reads as civil or transportation plans (stations, routes, roadway or utility work), which the building-code packs do not govern; the building-code and sheet checks were not applied.",
	sheets.DocNonConstruction: "The file reads as a drawing that is not a construction document (no title block, sheet numbers or construction notes, e.g. a real-estate floor plan); the building-code and sheet checks were not applied.",
}

// scopeOf decides what the review may say about one file, from its document
// type and what it states about its codes and place, and from the job's
// jurisdiction. The adopted codes are never assumed for a file that says it
// is under other codes.
//
// Codes of other countries come from the set model's statements; US codes
// (family and edition) from the engine's own reading of code statements
// (usCodes), which knows state codes by name and editions written before
// or after them.
func (e *Engine) scopeOf(m sheets.SetModel, job JobContext, usCodes []statedCode) FileScope {
	fs := FileScope{Class: ScopeInScope, DocType: m.DocType}
	if reason, ok := outOfScopeReasons[m.DocType]; ok {
		fs.Class, fs.Reason = ScopeOutOfScope, reason
		return fs
	}
	if m.DocType == sheets.DocUnreadable {
		// Coverage findings say the file could not be read.
		return fs
	}
	var foreign, usHeld, usNotHeld, buildingNotHeld, buildingHeld []string
	for _, text := range m.CodesStated {
		if readStatedCode(text).Family == "" {
			foreign = append(foreign, text)
		}
	}
	seen := map[string]bool{}
	for _, sc := range usCodes {
		text := sc.Text
		if seen[strings.ToUpper(text)] {
			continue
		}
		seen[strings.ToUpper(text)] = true
		if e.held(sc, job.Base) && governsBuilding(sc) {
			buildingHeld = append(buildingHeld, text)
		}
		switch {
		case e.held(sc, job.Base) || e.adoptsFamily(sc.Family) || sc.Edition == "" && e.familyInTable(sc.Family, job.Base):
			// Another edition of an adopted model code (or none named) is
			// still the code the jurisdiction applies; the edition checks
			// report the stated edition.
			usHeld = append(usHeld, text)
		default:
			usNotHeld = append(usNotHeld, text)
			if governsBuilding(sc) {
				buildingNotHeld = append(buildingNotHeld, text)
			}
		}
	}
	jobCountry := ""
	if mm := countryRe.FindStringSubmatch(job.Jurisdiction); mm != nil {
		jobCountry = mm[1]
	}
	usPlace, foreignPlace := placeSignals(m.JurisdictionHints)
	fs.NotApplied = append(append([]string{}, foreign...), usNotHeld...)
	switch {
	case jobCountry != "" && jobCountry != "us":
		fs.Class = ScopeCodesNotHeld
		fs.Reason = "The job's jurisdiction (" + job.Jurisdiction + ") is outside the United States; the appliance holds no code pack for it."
	case len(foreign) > 0:
		fs.Class = ScopeCodesNotHeld
		fs.Reason = "The sheets state codes the appliance holds no pack for."
	case len(buildingHeld) == 0 && len(buildingNotHeld) > 0:
		// A state building code the appliance holds no edition of governs
		// the set, whatever model-code edition it also names ("2014
		// Indiana Building Code" beside "2012 IBC").
		fs.Class = ScopeCodesNotHeld
		fs.Reason = "The sheets state code editions the appliance holds no pack for."
		fs.CodeOfRecord = buildingNotHeld[0]
	case len(job.NotHeld) > 0:
		fs.Class = ScopeCodesNotHeld
		fs.Reason = "The plans place the project where " + strings.Join(job.NotHeld, " and ") + " is in force; the appliance holds no code pack for that edition."
		fs.NotApplied = append(fs.NotApplied, job.NotHeld...)
		fs.CodeOfRecord = job.NotHeld[0]
	case len(usHeld) == 0 && foreignPlace != "" && !usPlace && jobCountry == "":
		fs.Class = ScopeCodesNotHeld
		fs.Reason = "The sheets read as a project outside the United States (" + foreignPlace + "); the appliance holds no code pack for it."
	}
	sort.Strings(fs.NotApplied)
	return fs
}

// placeSignals reads the set model's hints for where the project is: a US
// state with a ZIP code, or signs of another country (a non-English drawing
// language together with metric units, an authority of another country).
func placeSignals(hints []string) (us bool, foreign string) {
	metric := false
	var lang, auth string
	for _, h := range hints {
		switch {
		case strings.HasPrefix(h, "address: ") && usStateZIP.MatchString(strings.ToUpper(h)):
			us = true
		case h == "units: metric":
			metric = true
		case strings.HasPrefix(h, "language: "):
			if lang == "" {
				lang = strings.TrimPrefix(h, "language: ")
			}
		case strings.HasPrefix(h, "authority: ") && foreignAuth.MatchString(h):
			auth = strings.TrimPrefix(h, "authority: ")
		}
	}
	switch {
	case auth != "":
		return us, auth
	case lang != "" && metric:
		return us, "drawing language " + languageNames[lang] + ", metric units"
	}
	return us, ""
}

var languageNames = map[string]string{"it": "Italian", "de": "German", "sl": "Slovene", "ms": "Malay", "fr": "French", "es": "Spanish"}

// filesOfClass returns, for each file of this review with the given scope
// class, its first page (readable first): where its scope finding goes.
func (rv *review) filesOfClass(class string) []*pageView {
	var out []*pageView
	seen := map[int]int{}
	for _, pv := range rv.pages {
		if rv.scopes[pv.FileIndex].Class != class {
			continue
		}
		i, ok := seen[pv.FileIndex]
		if !ok {
			seen[pv.FileIndex] = len(out)
			out = append(out, pv)
			continue
		}
		if !out[i].Readable && pv.Readable {
			out[i] = pv
		}
	}
	return out
}

// checkScopeNotReviewed gives each out-of-scope file one info finding
// saying what was not reviewed and why.
func checkScopeNotReviewed(rv *review, r *Rule) []observation {
	var out []observation
	for _, pv := range rv.filesOfClass(ScopeOutOfScope) {
		fs := rv.scopes[pv.FileIndex]
		out = append(out, observation{page: pv,
			vars:     map[string]string{"reason": fs.Reason, "docType": strings.ReplaceAll(fs.DocType, "_", " ")},
			evidence: "scope " + fs.DocType})
	}
	return out
}

// checkCodesNotApplied gives each file whose codes are not held one info
// finding naming the codes not applied; an in-scope file that also states
// codes without a pack (an electrical code beside the IBC) gets one too.
func checkCodesNotApplied(rv *review, r *Rule) []observation {
	var out []observation
	for _, pv := range rv.filesOfClass(ScopeCodesNotHeld) {
		fs := rv.scopes[pv.FileIndex]
		codes := "none named on the sheets"
		if len(fs.NotApplied) > 0 {
			codes = strings.Join(fs.NotApplied, "; ")
		}
		out = append(out, observation{page: pv,
			vars:     map[string]string{"codes": codes, "reason": fs.Reason, "applied": rv.eng.appliedText(ScopeCodesNotHeld, rv.underUSRecord())},
			evidence: "codes not applied " + codes})
	}
	return out
}

// appliedText says what the review applied to files of a class.
func (e *Engine) appliedText(class string, analysisAsked bool) string {
	if class == ScopeCodesNotHeld && analysisAsked {
		return "only the document checks (sheet index, references, title blocks, issue status, unfinished text, and whether the code analysis states occupancy, construction type and sprinklers) were applied"
	}
	if class == ScopeCodesNotHeld {
		return "only the document checks (sheet index, references, title blocks, issue status, unfinished text) were applied"
	}
	var parts []string
	for _, a := range e.adopted {
		parts = append(parts, a.Code+" "+a.Edition)
	}
	if len(parts) == 0 {
		return "only the document checks were applied"
	}
	return strings.Join(parts, ", ") + " and the document checks were applied"
}

// underUSRecord says whether every file of the review whose codes are not
// held has a US code of record (a file outside the United States owes no
// US code analysis).
func (rv *review) underUSRecord() bool {
	found := false
	for _, pv := range rv.pages {
		fs := rv.scopes[pv.FileIndex]
		if fs.Class != ScopeCodesNotHeld {
			continue
		}
		if fs.CodeOfRecord == "" {
			return false
		}
		found = true
	}
	return found
}

// uncitedRefs is what a finding on a file whose codes are not held cites
// instead of a model-code section.
func uncitedRefs(fs FileScope) string {
	if fs.CodeOfRecord != "" {
		return fs.CodeOfRecord + " (no section cited: the appliance holds no rules for this edition)"
	}
	return "no code section cited: the appliance holds no rules for the codes that govern this set"
}
