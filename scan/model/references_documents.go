package model

import (
	"planreview/textmatch"
)

// Kinds of document the sheets rely on without drawing them, as the
// document references name them.
const (
	DocTrusses        = "truss layouts and calculations"
	DocEngineerDesign = "structural engineer's design"
	DocCalculations   = "calculations"
	DocSoilsReport    = "soils report"
	DocEnergy         = "energy compliance documentation"
	DocDeferred       = "deferred submittals"
	DocSpecifications = "project specifications"
)

// documentMentions is how a note points at each kind of document.
var documentMentions = []struct {
	kind    string
	mention *textmatch.Regexp
}{
	{DocTrusses, refSet.MustCompile(`(?i)\bTRUSS(?:ES)?\b.*\bPER\s+(?:MANUF(?:ACTURER)?'?S?\.?\s+)?(?:LAYOUTS?|DESIGNS?|CALC(?:ULATION)?S)\b|\bTRUSS\s+(?:LAYOUTS?|CALC(?:ULATION)?S|DESIGNS?)\s+(?:BY|FROM)\s+(?:OTHERS|(?:THE\s+)?(?:MANUFACTURER|SUPPLIER|FABRICATOR))`)},
	{DocEngineerDesign, refSet.MustCompile(`(?i)\bTO\s+(?:THE\s+)?(?:STRUCTURAL\s+)?ENG(?:INEE)?R'?S\.?\s+(?:DESIGN|DETAILS?|SPECIFICATION)|\bPER\s+(?:THE\s+)?STRUCTURAL\s+(?:CALC(?:ULATION)?S|DRAWINGS|ENGINEER)\b`)},
	{DocCalculations, refSet.MustCompile(`(?i)\bPER\s+(?:[A-Z0-9.]+\s+){0,3}CALC(?:ULATION)?S\b`)},
	{DocSoilsReport, refSet.MustCompile(`(?i)\bPER\s+(?:THE\s+)?(?:SOILS?|GEOTECHNICAL)\s+(?:REPORT|ENGINEER|INVESTIGATION)\b`)},
	{DocEnergy, refSet.MustCompile(`(?i)\bPER\s+(?:THE\s+)?(?:TITLE\s+24|ENERGY)\s+(?:REPORT|CALC(?:ULATION)?S|COMPLIANCE|DOCUMENTATION)\b|\bREScheck\b|\bCOMcheck\b`)},
	{DocDeferred, refSet.MustCompile(`(?i)\bDEFERRED\s+SUBMITTALS?\b`)},
	{DocSpecifications, refSet.MustCompile(`(?i)\b(?:REFER\s+TO|SEE)\s+(?:THE\s+)?(?:PROJECT\s+)?SPECIFICATIONS?\b`)},
}

// documentItself is how a sheet shows it is a document the notes rely on:
// its title, or for a document that names itself on its page (a REScheck
// certificate, a calculation package's cover) a line of its own.
var documentItself = map[string]struct{ title, page *textmatch.Regexp }{
	DocTrusses:        {textmatch.MustCompile(`(?i)\bTRUSS\s+(?:LAYOUT|CALC|DESIGN|PLAN)`), nil},
	DocEngineerDesign: {textmatch.MustCompile(`(?i)\bSTRUCTURAL\b|\bFOUNDATION\b|\bFRAMING\b`), nil},
	DocCalculations: {textmatch.MustCompile(`(?i)\bCALC(?:ULATION)?S\b`),
		textmatch.MustCompile(`(?i)^\s*(?:STRUCTURAL\s+)?CALCULATIONS\s*$`)},
	DocSoilsReport: {textmatch.MustCompile(`(?i)\b(?:SOILS?|GEOTECHNICAL)\s+(?:REPORT|INVESTIGATION)\b`), nil},
	DocEnergy: {textmatch.MustCompile(`(?i)\bTITLE\s+24\b|\bENERGY\s+(?:COMPLIANCE|REPORT|CALC)|\bREScheck\b|\bCOMcheck\b`),
		textmatch.MustCompile(`(?i)\b(?:REScheck|COMcheck)(?:-Web)?\s+(?:Software\s+Version|Compliance\s+Certificate)\b|^\s*CERTIFICATE\s+OF\s+COMPLIANCE\b|^\s*(?:ENERGY\s+)?COMPLIANCE\s+CERTIFICATE\s*$`)},
	DocDeferred:       {textmatch.MustCompile(`(?i)\bDEFERRED\s+SUBMITTAL\b`), nil},
	DocSpecifications: {textmatch.MustCompile(`(?i)\bSPECIFICATIONS?\b`), nil},
}

// IsDocument reports whether the sheet is the document of the kind
// (DocTrusses…): titled as it, or, read, printing the line a document of
// that kind names itself with.
func (s *Sheet) IsDocument(kind string) bool {
	d, ok := documentItself[kind]
	if !ok {
		return false
	}
	if s.Ident.Title != "" && d.title.MatchString(s.Ident.Title) {
		return true
	}
	if d.page == nil || !s.Readable {
		return false
	}
	for _, l := range s.Lines {
		if d.page.MatchString(l.Text) {
			return true
		}
	}
	return false
}

// A set lists its deferred submittals under a heading of their own
// ("DEFERRED SUBMITTALS", "LIST OF DEFERRED SUBMITTAL ITEMS:"), or as a
// label with its items ("DEFERRED SUBMITTALS: FIRE SPRINKLERS, TRUSSES").
// A sentence about them ("DEFERRED SUBMITTAL DOCUMENTS SHALL BE …") is
// no list.
var (
	deferredListRe = textmatch.MustCompile(`(?i)^\s*(?:LIST\s+OF\s+)?DEFERRED\s+SUBMITTALS?(?:\s+(?:LIST|ITEMS|SCHEDULE|REQUIRED))?\s*(?::\s*(.*?))?\s*$`)
	listItemRe     = textmatch.MustCompile(`^\s*(?:\d{1,2}[.)]|[A-Za-z][.)]|[-•*–])\s+\S`)
)

// DeferredList is a list of deferred submittals printed on a sheet.
type DeferredList struct {
	// Items is the text listed: the rest of the heading's line and the
	// numbered or bulleted lines that follow it (a heading alone lists
	// nothing, and is still a list).
	Items []string
	Words []int
}

// DeferredLists is every list of deferred submittals the sheet prints,
// read on first use.
func (s *Sheet) DeferredLists() []DeferredList {
	s.References()
	if s.references.deferredRead {
		return s.references.deferred
	}
	s.references.deferredRead = true
	if !s.Readable {
		return nil
	}
	for li, l := range s.Lines {
		m := deferredListRe.FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		d := DeferredList{Items: []string{m[1]}, Words: append([]int{}, l.Words...)}
		for _, next := range s.Lines[li+1 : min(li+13, len(s.Lines))] {
			if !listItemRe.MatchString(next.Text) {
				break
			}
			d.Items = append(d.Items, next.Text)
			d.Words = append(d.Words, next.Words...)
		}
		s.references.deferred = append(s.references.deferred, d)
	}
	return s.references.deferred
}
