package api

import (
	"errors"
	"net/http"

	"planreview/rounds"
	"planreview/store"
)

// compareBody is GET /jobs/{jobId}/compare's answer.
type compareBody struct {
	JobID     string           `json:"jobId"`
	From      *string          `json:"from"`
	To        string           `json:"to"`
	FromRound *int             `json:"fromRound"`
	ToRound   int              `json:"toRound"`
	Findings  compareFindings  `json:"findings"`
	Sheets    compareSheetSets `json:"sheets"`
}

type compareFindings struct {
	New        []findingView `json:"new"`
	Persisting []findingView `json:"persisting"`
	Resolved   []findingView `json:"resolved"`
}

type compareSheetSets struct {
	Added     []compareSheet `json:"added"`
	Removed   []compareSheet `json:"removed"`
	Revised   []compareSheet `json:"revised"`
	Unchanged []compareSheet `json:"unchanged"`
}

// compareSheet is one sheet of a comparison, named by its sheet number
// (and where it is, for pages that print none).
type compareSheet struct {
	SheetNumber *string         `json:"sheetNumber"`
	SheetTitle  *string         `json:"sheetTitle"`
	FileID      string          `json:"fileId"`
	Page        int             `json:"page"`
	Previous    *sheetPlace     `json:"previous"`
	Renumbered  bool            `json:"renumbered"`
	Reasons     []string        `json:"reasons,omitempty"`
	Changes     []rounds.Change `json:"changes,omitempty"`
}

type sheetPlace struct {
	SheetNumber *string `json:"sheetNumber"`
	FileID      string  `json:"fileId"`
	Page        int     `json:"page"`
}

func (s *Server) compareVersions(w http.ResponseWriter, r *http.Request) error {
	jobID := r.PathValue("jobId")
	if !store.ValidID(jobID, store.PrefixJob) {
		return errNotFound
	}
	q := r.URL.Query()
	from, to := q.Get("from"), q.Get("to")
	for _, p := range []struct{ name, value string }{{"from", from}, {"to", to}} {
		if p.value != "" && !store.ValidID(p.value, store.PrefixVersion) {
			return errNotFound
		}
	}
	c, err := s.store.Compare(principalFrom(r.Context()).partner.ID, jobID, from, to)
	switch {
	case errors.Is(err, store.ErrVersionOrder):
		return invalidParam("from", "from must name a version older than to.")
	case errors.Is(err, store.ErrScanNotComplete):
		return errorf(http.StatusConflict, "scan_not_complete", "Both versions compared must have completed their scans; this one has not.")
	case err != nil:
		return err
	}
	writeJSON(w, http.StatusOK, newCompareBody(jobID, c))
	return nil
}

func newCompareBody(jobID string, c store.Comparison) compareBody {
	body := compareBody{JobID: jobID, To: c.To.ID, ToRound: c.To.Number,
		Findings: compareFindings{New: []findingView{}, Persisting: []findingView{}, Resolved: []findingView{}},
		Sheets:   compareSheetSets{Added: []compareSheet{}, Removed: []compareSheet{}, Revised: []compareSheet{}, Unchanged: []compareSheet{}}}
	if c.From != nil {
		body.From, body.FromRound = &c.From.ID, &c.From.Number
	}
	// The findings' statuses as this comparison found them (a comparison
	// over several rounds differs from the stored round of each finding).
	var prevID *string
	if c.From != nil {
		prevID = &c.From.ID
	}
	persisting := map[int]int{}
	for _, p := range c.FindingMatch.Pairs {
		persisting[p.Next] = p.Prev
	}
	for i, f := range c.Next {
		round := &store.FindingRound{Status: store.RoundNew, PreviousVersionID: prevID}
		if p, ok := persisting[i]; ok {
			id := c.Prev[p].ID
			round = &store.FindingRound{Status: store.RoundPersisting, PreviousFindingID: &id, PreviousVersionID: prevID}
		}
		f.Round = round
		if round.Status == store.RoundPersisting {
			body.Findings.Persisting = append(body.Findings.Persisting, ViewFinding(f))
		} else {
			body.Findings.New = append(body.Findings.New, ViewFinding(f))
		}
	}
	for _, i := range c.FindingMatch.Resolved {
		body.Findings.Resolved = append(body.Findings.Resolved, ViewFinding(c.Prev[i]))
	}

	place := func(sh rounds.Sheet) compareSheet {
		return compareSheet{SheetNumber: optional(sh.Number), SheetTitle: optional(sh.Title), FileID: sh.FileID, Page: sh.Page}
	}
	for _, p := range c.SheetMatch.Pairs {
		prev, next := c.PrevSheets[p.Prev], c.Sheets[p.Next]
		cs := place(next)
		cs.Previous = &sheetPlace{SheetNumber: optional(prev.Number), FileID: prev.FileID, Page: prev.Page}
		cs.Renumbered = p.Renumbered
		if !p.Revised {
			body.Sheets.Unchanged = append(body.Sheets.Unchanged, cs)
			continue
		}
		if p.WordsChanged {
			cs.Reasons = append(cs.Reasons, "words")
		}
		if p.RevisionChanged {
			cs.Reasons = append(cs.Reasons, "revision")
		}
		cs.Changes = rounds.Changes(&prev, &next)
		body.Sheets.Revised = append(body.Sheets.Revised, cs)
	}
	for _, i := range c.SheetMatch.Added {
		body.Sheets.Added = append(body.Sheets.Added, place(c.Sheets[i]))
	}
	for _, i := range c.SheetMatch.Removed {
		body.Sheets.Removed = append(body.Sheets.Removed, place(c.PrevSheets[i]))
	}
	return body
}
