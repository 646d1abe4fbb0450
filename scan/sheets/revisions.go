package sheets

import (
	"strconv"
	"strings"

	"planreview/scan/pdftext"
	"planreview/textmatch"
)

// Words of a revision table's header row, in the languages of captionTable.
var (
	revDateWords = map[string]bool{"DATE": true, "DATA": true, "DATUM": true, "TARIKH": true, "FECHA": true}
	revMarkWords = map[string]bool{"REV": true, "NO": true, "MARK": true, "ISSUE": true, "Δ": true, "#": true,
		"INDEX": true, "VERS": true, "REVISION": true, "AMENDMENTS": true, "REVISIONS": true, "PINDAAN": true}
	revDescWords = map[string]bool{"DESCRIPTION": true, "DESCRIPTIONS": true, "REMARKS": true, "AMENDMENT": true,
		"AMENDMENTS": true, "REVISION": true, "REVISIONS": true, "ISSUE": true, "BESCHREIBUNG": true, "ÄNDERUNG": true,
		"DESCRIZIONE": true, "OPIS": true, "KETERANGAN": true, "PINDAAN": true, "DESCRIPCIÓN": true, "OMSCHRIJVING": true}
)

// latestRevision returns the description of the newest row of the page's
// revision table (the row with the latest date), e.g. "ISSUED FOR BUILDING
// RULES CONSENT". It returns "" when the page has no such table or no row
// with a date and a description.
func latestRevision(p *pdftext.Page, phrases []textRun) (string, []int) {
	bestKey := ""
	var bestText string
	var bestWords []int
	for hi, hq := range phrases {
		if !isTitleBlockZone(p, hq.Box) || !hasAny(hq.Norms, revDateWords) {
			continue
		}
		// The header row: this phrase and its neighbours on the row.
		h := hq.H
		header := rowAround(phrases, hi, 12*h)
		var norms []string
		for _, qi := range header.members {
			norms = append(norms, phrases[qi].Norms...)
		}
		if !hasAny(norms, revDescWords) || !hasAny(norms, revMarkWords) {
			continue
		}
		inSpan := func(b Box) bool { return b.X0 >= header.box.X0-h && b.X0 <= header.box.X1+h }
		for qi, q := range phrases {
			if abs(q.Box.CenterY()-hq.Box.CenterY()) < 0.5*h || abs(q.Box.CenterY()-hq.Box.CenterY()) > 15*h {
				continue
			}
			if !inSpan(q.Box) || abs(q.H-h) > 0.3*h {
				continue
			}
			d := dateRe.FindString(q.Text)
			if d == "" {
				continue
			}
			row := rowAround(phrases, qi, 12*h)
			var texts []string
			var words []int
			for _, m := range row.members {
				if !inSpan(phrases[m].Box) || strings.ContainsAny(phrases[m].Text, `\@`) {
					continue
				}
				texts = append(texts, phrases[m].Raw)
				words = append(words, phrases[m].Words...)
			}
			text := strings.Join(texts, " ")
			desc := revisionDescription(text, d)
			key := dateKey(d)
			if desc == "" || key == "" || key <= bestKey {
				continue
			}
			bestKey, bestText, bestWords = key, desc, words
		}
	}
	return bestText, bestWords
}

type phraseRow struct {
	members []int
	box     Box
}

// rowAround returns the phrases on the row of phrase qi within reach of it.
func rowAround(phrases []textRun, qi int, reach float64) phraseRow {
	q := phrases[qi]
	row := phraseRow{box: q.Box}
	for qj, o := range phrases {
		if abs(o.Box.CenterY()-q.Box.CenterY()) > 0.4*max(q.H, o.H) || o.Box.X1 < q.Box.X0-reach || o.Box.X0 > q.Box.X1+reach {
			continue
		}
		row.members = append(row.members, qj)
		row.box = row.box.Union(o.Box)
	}
	return row
}

func hasAny(norms []string, set map[string]bool) bool {
	for _, n := range norms {
		if set[n] {
			return true
		}
	}
	return false
}

// revisionDescription is a revision row without its date, its mark (A, 1,
// P2) and its initials: what the issue was for.
func revisionDescription(row, date string) string {
	rest := strings.Replace(dashes.Replace(row), dashes.Replace(date), " ", 1)
	var keep []string
	for _, w := range strings.Fields(rest) {
		// Marks and initials: short tokens without a vowel run ("A",
		// "P2", "FR.N.", "JS").
		if len([]rune(w)) <= 3 || initialsRe.MatchString(w) {
			if len(keep) == 0 || initialsRe.MatchString(w) {
				continue
			}
		}
		keep = append(keep, w)
	}
	out := strings.Join(keep, " ")
	if !hasTitleWord(out) || len(keep) < 2 {
		return ""
	}
	return out
}

var digitsRe = textmatch.MustCompile(`\d+`)

var initialsRe = textmatch.MustCompile(`^(?:[A-Z]\.){1,3}[A-Z]?\.?$`)

var dashes = strings.NewReplacer("\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2212", "-")

// dateKey turns a printed date into a key that sorts by time for the dates
// of one table (which print them alike): year, then the two other fields
// as printed.
func dateKey(d string) string {
	nums := digitsRe.FindAllString(d, -1)
	month := 0
	if m := monthRe.FindString(d); m != "" {
		month = monthIndex(strings.ToUpper(m[:3]))
	}
	var year, a, b int
	switch {
	case month > 0 && len(nums) >= 1:
		year, a = atoi(nums[len(nums)-1]), month
		if len(nums) >= 2 {
			b = atoi(nums[0])
		}
	case len(nums) == 3 && len(nums[0]) == 4:
		year, a, b = atoi(nums[0]), atoi(nums[1]), atoi(nums[2])
	case len(nums) == 3:
		year, a, b = atoi(nums[2]), atoi(nums[1]), atoi(nums[0])
		if year < 100 {
			year += 2000
		}
	default:
		return ""
	}
	return strconv.Itoa(year*10000 + a*100 + b)
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func monthIndex(m string) int {
	for i, name := range []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"} {
		if m == name {
			return i + 1
		}
	}
	return 0
}
