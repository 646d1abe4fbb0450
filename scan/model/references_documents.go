package model

import "planreview/scan/textmatch"

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
