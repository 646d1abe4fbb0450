package sheets

import (
	"sort"
	"strings"
	"sync"

	"planreview/internal/perpage"
	"planreview/scan/pdftext"
	"planreview/textmatch"
)

// Document types, as `inspect --sheets` names them.
const (
	DocPermitSet       = "permit_set"
	DocSingleSheet     = "single_sheet"
	DocCivil           = "civil_or_transport"
	DocSpecOrForm      = "spec_or_form"
	DocLetter          = "letter"
	DocNonConstruction = "non_construction"
	DocUnreadable      = "unreadable"
)

// Signals of a civil or transport set: stations, routes, mileposts, a
// department of transportation.
var civilRe = textmatch.MustCompile(`(?i)\bDEPARTMENT\s+OF\s+TRANSPORTATION\b|\bDOT\b|\bSTA\.?\s*\d+\+\d{2}|\b\d{1,4}\+\d{2}(?:\.\d+)?\b|\bMILEPOST\b|\bMP\s+\d+\.\d+|\bM\.P\.\s*\d+\.\d+|\b(?:SR|US|HWY|ROUTE)[\s-]\d{1,3}\b|\bI-\d{1,3}\b|\bROADWAY\b|\bRIGHT\s+OF\s+WAY\b|\bINTERCHANGE\b|\bSTATIONING\b|\bFED\.?\s*AID\b|\bTOLLING\b|\bEXPRESSWAY\b|\bFREEWAY\b|\bCARRIAGEWAY\b|\bCHAINAGE\b`)

// Signals of a building drawing: the words title blocks and plans of
// buildings print in any of the set's languages.
var buildingRe = textmatch.MustCompile(`(?i)\bFLOOR\s+PLAN\b|\bSITE\s+PLAN\b|\bELEVATIONS?\b|\bSECTIONS?\b|\bFOUNDATION\b|\bFOOTINGS?\b|\bROOF\b|\bSCHEDULE\b|\bDETAILS?\b|\bPIANTA\b|\bPROSPETTO\b|\bSEZIONE\b|\bGRUNDRISS\b|\bANSICHT\b|\bSCHNITT\b|\bTLORIS\b|\bPREREZ\b|\bLUKISAN\b|\bPELAN\b|\bBEDROOM\b|\bKITCHEN\b|\bBATH\b|\bSTAIR\b|\bWALL\b|\bDOOR\b|\bWINDOW\b`)

// Signals of a drawing rather than a real-estate plan: the marks of a
// construction document.
var constructionRe = textmatch.MustCompile(`(?i)\bDRAWN\b|\bCHECKED\b|\bREVISIONS?\b|\bISSUED?\b|\bSCALE\b|\bSCALA\b|\bMASSSTAB\b|\bMERILO\b|\bARCHITECT\b|\bENGINEER\b|\bCONTRACTOR\b|\bPERMIT\b|\bGENERAL\s+NOTES\b|\bCODE\b|\bSPECIFICATIONS?\b|\bCONSTRUCTION\b|\bDWG\b|\bSHEET\b|\bRISBA\b|\bTAVOLA\b|\bPROJECT\b|\bPROGETTO\b|\bLEGEND\b`)

// Signals of a letter and of a specification or form.
var (
	letterRe = textmatch.MustCompile(`(?i)^\s*(?:DEAR|SINCERELY|YOURS\s+(?:SINCERELY|FAITHFULLY|TRULY)|KIND\s+REGARDS|RE:|SUBJECT:)`)
	// A spec or form line: a heading at its start (specHeadRe) or a form's
	// words anywhere (specWordsRe). Two expressions, not one alternation:
	// anchored alone, the heading is tried at the start of a line only,
	// where in one alternation it was tried at every position.
	specHeadRe  = textmatch.MustCompile(`(?i)^\s*(?:SECTION\s+\d{2}\s?\d{2}\s?\d{2}|PART\s+[123]\s*[-–]?\s*(?:GENERAL|PRODUCTS|EXECUTION)|\d+\.\d+\s+[A-Z][A-Z ]+$)`)
	specWordsRe = textmatch.MustCompile(`(?i)\bAPPLICATION\s+FORM\b|\bSIGNATURE\s+OF\s+APPLICANT\b|\bCHECKLIST\b`)
)

// classifyDoc decides the document type from what the pages read as.
func classifyDoc(pages []*pdftext.Page, models []PageModel, reads []pageRead) string {
	readable := 0
	for _, p := range pages {
		if p != nil && p.Readable && len(p.Words) > 0 {
			readable++
		}
	}
	if readable == 0 {
		return unreadableType(pages)
	}
	var civil, building, construction, letter, spec, sheetLike, words, pagesLetter int
	for i, p := range pages {
		if p == nil || len(p.Words) == 0 {
			continue
		}
		words += len(p.Words)
		if p.Width <= 700 && p.Height <= 1100 || p.Height <= 700 && p.Width <= 1100 {
			pagesLetter++
		}
		m := models[i]
		if m.SheetNumber != "" || len(m.Fields) >= 3 {
			sheetLike++
		}
	}
	allLetter := pagesLetter == readable
	// Each count is taken only where the decision below reads it: letter
	// and spec lines on letter-size files, construction words on files
	// with no sheet-like page, building words against at least 8 civil
	// signals. The type is the same as with every count taken.
	// Counted page by page on every core, then summed.
	type signals struct{ civil, construction, letter, spec int }
	counts := make([]signals, len(pages))
	perpage.Each(len(pages), func(i int) {
		if p := pages[i]; p == nil || len(p.Words) == 0 {
			return
		}
		c := &counts[i]
		for _, q := range reads[i].phrases {
			t := q.Text
			if mayHoldCivil(t) {
				c.civil += len(civilRe.FindAllStringIndex(t, -1))
			}
			if sheetLike == 0 {
				c.construction += len(constructionRe.FindAllStringIndex(t, -1))
			}
			if allLetter {
				if letterRe.MatchString(t) {
					c.letter++
				}
				if specHeadRe.MatchString(t) || specWordsRe.MatchString(t) {
					c.spec++
				}
			}
		}
	})
	for _, c := range counts {
		civil, construction, letter, spec = civil+c.civil, construction+c.construction, letter+c.letter, spec+c.spec
	}
	if civil >= 8 {
		for i, p := range pages {
			if p == nil || len(p.Words) == 0 {
				continue
			}
			for _, q := range reads[i].phrases {
				building += len(buildingRe.FindAllStringIndex(q.Text, -1))
			}
		}
	}
	switch {
	case allLetter && letter >= 2 && sheetLike == 0:
		return DocLetter
	case allLetter && spec >= 3 && sheetLike*2 < readable:
		return DocSpecOrForm
	case civil >= 8 && civil > building:
		return DocCivil
	case construction < 2 && sheetLike == 0:
		return DocNonConstruction
	case len(pages) == 1:
		return DocSingleSheet
	}
	return DocPermitSet
}

// unreadableType types a file none of whose pages reads as text. Scans
// and outlined text have no text layer at all: unreadable. Text drawn in
// fonts that do not map back to characters is a text layer the extractor
// cannot read; on drawing-size paper (11×17 in and up) it is still a
// drawing set, whose type the sheet count tells.
func unreadableType(pages []*pdftext.Page) string {
	drawings := 0
	for _, p := range pages {
		if p != nil && p.Reason == pdftext.ReasonUnmappedText && max(p.Width, p.Height) >= 1224 {
			drawings++
		}
	}
	switch {
	case drawings == 0 || drawings < len(pages):
		return DocUnreadable
	case len(pages) == 1:
		return DocSingleSheet
	}
	return DocPermitSet
}

// Code editions as printed: "2021 IBC", "IRC 2018", "2011 NEC", "5th Edition
// (2014) FBC", "AS3600", "AS 1379", "SANS 10400", "Eurocode 2", "DIN 4102",
// "NBC 2020", "Alberta Building Code 2019", "National Building Regulations
// … Act No. 103 of 1977".
var codeRe = textmatch.MustCompile(`(?i)\b(?:(?:19|20)\d{2}\s+(?:IBC|IRC|IECC|IFC|IPC|IMC|IEBC|NEC|NFPA\s*\d+|CBC|CRC|CEC|CPC|CMC|FBC|NBC|OBC|UBC)\b|(?:IBC|IRC|IECC|IFC|IPC|IMC|IEBC|NEC|CBC|CRC|FBC|NBC|OBC|ABC)\s*(?:\(?(?:19|20)\d{2}\)?)|\d+(?:st|nd|rd|th)\s+Edition\s*\((?:19|20)\d{2}\)\s*[A-Z]{2,4}|NFPA\s*\d+(?:\s*[-,]?\s*(?:19|20)\d{2})?|AS\s?/?\s?(?:NZS\s?)?\d{4}(?:\.\d+)?(?:\s*[-:]\s*(?:19|20)\d{2})?|SANS\s*\d{4,5}(?:-\d+)?|EUROCODE\s*\d|EN\s*199\d(?:-\d+)*|DIN\s*(?:EN\s*)?\d{3,5}|NTC\s*(?:19|20)\d{2}|(?:ALBERTA|NATIONAL|ONTARIO|BRITISH\s+COLUMBIA|CALIFORNIA|FLORIDA|INTERNATIONAL)\s+BUILDING\s+CODE(?:\s*[-,]?\s*\(?(?:19|20)\d{2}\)?)?(?:\s*(?:EDITION|\d+\.\d+(?:\.\d+)*))?|NATIONAL\s+BUILDING\s+REGULATIONS(?:[^.]{0,60}?ACT\s+NO\.?\s*\d+\s+OF\s+\d{4})?|UNIFORM\s+BUILDING\s+BY-?LAWS(?:\s+\d{4})?)`)

var (
	addressRe      = textmatch.MustCompile(`(?i)\b\d{1,6}[A-Z]?\s+(?:[A-Z0-9][\w'.-]*\s+){0,4}(?:ST|STREET|RD|ROAD|AVE|AVENUE|BLVD|BOULEVARD|DR|DRIVE|LN|LANE|WAY|CT|COURT|PL|PLACE|HWY|HIGHWAY|CRES|CRESCENT|TCE|TERRACE|PKWY|PARKWAY|CIR|CIRCLE|TRL|TRAIL|SQ|SQUARE|LOOP|PIKE|CL|CLOSE)\b\.?(?:\s+(?:SW|SE|NW|NE|N|S|E|W))?(?:,?\s+[A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+)??)?(?:,?\s+[A-Z]{2,3}\s+\d{4,5}(?:-\d{4})?)?`)
	authorityRe    = textmatch.MustCompile(`(?i)\b(?:CITY|COUNTY|TOWN|VILLAGE|MUNICIPALITY|DISTRICT|STATE|PROVINCE)\s+OF\s+[A-Z][\w-]+(?:\s+[A-Z][\w-]+)?|\b(?:COMUNE\s+DI|STADT|GEMEINDE|MESTNA\s+OB(?:Č|C)INA|OB(?:Č|C)INA)\s+[A-Z][\w-]+|\b[A-Z][\w]+\s+(?:CITY|COUNTY)\s+COUNCIL\b|\bDEPARTMENT\s+OF\s+[A-Z][\w]+(?:\s+(?:AFFAIRS|TRANSPORTATION|WORKS))?|\bJABATAN\s+KERJA\s+RAYA\b|\bJKR\b|\bWASHINGTON\s+STATE\b|\bVETERANS\s+AFFAIRS\b|\bBUILDING\s+RULES\s+CONSENT\b|\bCOUNCIL\s+APPROVAL\b|\bPOLITECNICO\s+DI\s+[A-Z]+`)
	cityStateZIPRe = textmatch.MustCompile(`\b[A-Z][A-Za-z.'-]+(?:\s[A-Z][A-Za-z.'-]+){0,3},\s*(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC)\s+\d{5}(?:-\d{4})?\b`)
	metricRe       = textmatch.MustCompile(`\b\d+(?:[.,]\d+)?\s?(?:mm|cm|m|m²|m2|kPa|MPa|sqm)\b`)
	imperialRe     = textmatch.MustCompile(`\d+'\s*-?\s*\d+(?:\s*\d+/\d+)?"|\b\d+\s?(?:SF|SQ\.?\s?FT|FT2|ft)\b|\d+/\d+"\s*=\s*1'`)
)

// languageWords are frequent words of drawings in each language.
var languageWords = map[string][]string{
	"it": {"PIANTA", "SCALA", "TAVOLA", "PROGETTO", "SEZIONE", "PROSPETTO", "OGGETTO", "DOCENTE", "STUDENTI"},
	"de": {"GRUNDRISS", "MASSSTAB", "MAßSTAB", "PLAN-NR", "SCHNITT", "ANSICHT", "BAUHERR", "GEZEICHNET"},
	"sl": {"RISBA", "MERILO", "TLORIS", "PRITLIČJA", "IZDELAL", "PROSTOROV", "POVRŠINA"},
	"ms": {"LUKISAN", "PELAN", "TINGKAT", "BLOK", "PIAWAI", "PENTADBIRAN", "TARIKH"},
	"fr": {"ÉCHELLE", "PLANCHE", "FAÇADE", "COUPE", "NIVEAU"},
	"es": {"ESCALA", "PLANTA", "LÁMINA", "FACHADA", "CORTE"},
}

// languageOf lists, for each word of languageWords, the languages it is a
// frequent word of: one lookup per word of a phrase.
var languageOf = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for l, ws := range languageWords {
		for _, w := range ws {
			m[w] = append(m[w], l)
		}
	}
	return m
})

// jurisdictionHints collects what a file says about where it is: addresses,
// authorities, codes stated with their editions (as printed), units and
// languages.
func jurisdictionHints(pages []*pdftext.Page, reads []pageRead) (hints, codes []string) {
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		s = strings.Join(strings.Fields(strings.TrimRight(s, " ,;.")), " ")
		k := strings.ToUpper(s)
		if s == "" || seen[k] {
			return
		}
		seen[k] = true
		*list = append(*list, s)
	}
	// Each text is read once, and the texts on every core: a phrase
	// printed again (a title block on every sheet) adds no code, address
	// or authority its first reading did not (add keeps the first of
	// each), but its metric marks and its words' languages count every
	// time. A title strip along the sheet's edge is printed a quarter
	// turned (project name and address read bottom to top): its phrases
	// are read in the page's turned layers, and name codes and addresses
	// as the upright ones do; units and languages stay with the upright
	// text.
	lang := map[string]int{}
	languageOf := languageOf()
	times := map[string]int{}
	var texts []string // upright, then turned (with a digit), each once
	for _, r := range reads {
		for _, q := range r.phrases {
			if times[q.Text] == 0 {
				texts = append(texts, q.Text)
			}
			times[q.Text]++
			for _, n := range q.Norms {
				for _, l := range languageOf[n] {
					lang[l]++
				}
			}
		}
	}
	upright := len(texts)
	turnedRead := map[string]bool{}
	for _, r := range reads {
		for _, l := range r.turned {
			for _, q := range l.phrases {
				if t := q.Text; !turnedRead[t] && hasASCIIDigit(t) {
					turnedRead[t] = true
					texts = append(texts, t)
				}
			}
		}
	}
	read := make([]placeReading, len(texts))
	perpage.Each(len(texts), func(i int) { read[i] = readPlace(texts[i], i < upright) })
	metric := 0
	for i, r := range read {
		for _, c := range r.codes {
			add(&codes, c)
		}
		for _, h := range r.hints {
			add(&hints, h)
		}
		if i < upright {
			metric += r.metric * times[texts[i]]
		}
	}
	if len(hints) > 20 {
		hints = hints[:20]
	}
	// Imperial marks are counted once the metric ones are known, and only
	// until they settle the units: past twice the metric count (and 3),
	// more of them change nothing below.
	imperial := 0
	for _, r := range reads {
		for _, q := range r.phrases {
			if imperial > 2*metric && imperial >= 3 {
				break
			}
			if t := q.Text; hasASCIIDigit(t) && mayHoldImperial(t) {
				imperial += len(imperialRe.FindAllStringIndex(t, -1))
			}
		}
	}
	switch {
	case metric > 2*imperial && metric >= 3:
		add(&hints, "units: metric")
	case imperial > 2*metric && imperial >= 3:
		add(&hints, "units: imperial")
	}
	var langs []string
	for l, n := range lang {
		if n >= 3 {
			langs = append(langs, l)
		}
	}
	sort.Strings(langs)
	for _, l := range langs {
		add(&hints, "language: "+l)
	}
	return hints, codes
}

// placeReading is what one text says about where the file is: codes
// stated with their editions, address and authority hints (as add takes
// them, in the order read), and its metric marks.
type placeReading struct {
	codes, hints []string
	metric       int
}

// readPlace reads the codes and addresses a text names, and when it is
// upright text its authorities and metric marks.
func readPlace(t string, upright bool) placeReading {
	var r placeReading
	digits := hasASCIIDigit(t)
	if mayHoldCode(t, digits) {
		r.codes = codeRe.FindAllString(t, -1)
	}
	if digits {
		if mayHoldAddress(t) {
			for _, a := range addressRe.FindAllString(t, 3) {
				if len(a) > 8 {
					r.hints = append(r.hints, "address: "+a)
				}
			}
		}
		// A US address is often printed over two lines, the street above
		// "City, ST 12345": the second line alone names the state.
		for _, a := range cityStateZIPRe.FindAllString(t, 3) {
			r.hints = append(r.hints, "address: "+a)
		}
	}
	if !upright {
		return r
	}
	for _, a := range authorityRe.FindAllString(t, 3) {
		r.hints = append(r.hints, "authority: "+trimStopWords(a))
	}
	if digits && mayHoldMetric(t) {
		r.metric = len(metricRe.FindAllStringIndex(t, -1))
	}
	return r
}

// trimStopWords drops the joining words a match may end on ("CITY OF
// CALGARY AND").
func trimStopWords(s string) string {
	f := strings.Fields(s)
	for len(f) > 1 {
		switch strings.ToUpper(f[len(f)-1]) {
		case "AND", "OR", "THE", "OF", "FOR", "TO", "IN", "&":
			f = f[:len(f)-1]
			continue
		}
		break
	}
	return strings.Join(f, " ")
}
