package rules

import (
	"math"
	"strconv"

	"planreview/scan/units"
)

var (
	totalRiseRe  = lineSet.MustCompile(`(?i)\bTOTAL\s+RISE\s*[:=\-]?\s*(` + units.LengthPattern + `)`)
	riserCountRe = lineSet.MustCompile(`(?i)\b(\d{1,2})\s+(?:EQ(?:UAL)?\.?\s+)?RISERS?\b(?:\s*(?:@|AT)\s*(` + units.LengthPattern + `))?`)
	riserRangeRe = lineSet.MustCompile(`(?i)\bRISERS?\b[^0-9]{0,20}(` + units.LengthPattern + `)\s*(?:TO|-|–|AND|/)\s*(` + units.LengthPattern + `)`)
)

// stairStatement is a stair's total rise with its riser count (and the
// stated riser height, when "N RISERS @ x" gives one), read from one line or
// two lines stacked in the same note.
type stairStatement struct {
	pv              *pageView
	words           []int
	text            string
	total           float64
	risers          int
	stated          float64 // 0 when not stated
	totalText       string
	riserCountText  string
	statedRiserText string
}

func (rv *review) stairStatements() []stairStatement {
	var out []stairStatement
	for _, pv := range rv.pages {
		if !pv.Readable {
			continue
		}
		for li, l := range pv.Lines {
			tm := pv.find(totalRiseRe, li)
			if tm == nil {
				continue
			}
			total, err := units.ParseLength(l.Text[tm[2]:tm[3]])
			if err != nil || total <= 0 {
				continue
			}
			// The riser count on the same line, else on the line just above
			// or below in the same column.
			candidates := []int{li}
			for lj, m := range pv.Lines {
				if lj == li {
					continue
				}
				gap := math.Max(m.Box.Y0-l.Box.Y1, l.Box.Y0-m.Box.Y1)
				overlap := m.Box.X0 < l.Box.X1 && m.Box.X1 > l.Box.X0
				if overlap && gap < 1.5*l.Box.Y1-1.5*l.Box.Y0 {
					candidates = append(candidates, lj)
				}
			}
			for _, lj := range candidates {
				m := pv.Lines[lj]
				cm := pv.find(riserCountRe, lj)
				if cm == nil {
					continue
				}
				n, _ := strconv.Atoi(m.Text[cm[2]:cm[3]])
				if n < 2 {
					continue
				}
				s := stairStatement{pv: pv, total: total, risers: n,
					totalText: l.Text[tm[0]:tm[1]], riserCountText: m.Text[cm[0]:cm[1]]}
				if cm[4] >= 0 {
					if v, err := units.ParseLength(m.Text[cm[4]:cm[5]]); err == nil {
						s.stated, s.statedRiserText = v, m.Text[cm[4]:cm[5]]
					}
				}
				s.words = append(l.WordsInSpan(tm[0], tm[1]), m.WordsInSpan(cm[0], cm[1])...)
				if lj == li {
					s.words = l.WordsInSpan(min(tm[0], cm[0]), max(tm[1], cm[1]))
				}
				s.text = s.totalText + " " + s.riserCountText
				out = append(out, s)
				break
			}
		}
	}
	return out
}

func checkStairRise(rv *review, r *Rule) []observation {
	limit, err := units.ParseLength(r.Params["max"])
	if err != nil {
		return nil
	}
	var out []observation
	for _, s := range rv.stairStatements() {
		if !r.appliesToType(s.pv.Ident.Type) {
			continue
		}
		computed := s.total / float64(s.risers)
		if computed <= limit+1e-6 {
			continue
		}
		out = append(out, observation{page: s.pv, words: s.words,
			vars: map[string]string{"totalRise": units.FormatLength(s.total), "risers": strconv.Itoa(s.risers),
				"computed": units.FormatLength(computed), "limit": units.FormatLength(limit)},
			evidence: s.text})
	}
	return out
}
