package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"

	"planreview/letter"
	"planreview/store"
)

const docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

// getLetter writes the correction letter of a finished version as PDF
// (default) or DOCX.
func (s *Server) getLetter(w http.ResponseWriter, r *http.Request) error {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "pdf"
	}
	if format != "pdf" && format != "docx" {
		return invalidParam("format", "format must be pdf or docx.")
	}
	jobID, v, findings, err := s.finishedFindings(r)
	if err != nil {
		return err
	}
	partnerID := principalFrom(r.Context()).partner.ID
	job, _, err := s.store.Job(partnerID, jobID)
	if err != nil {
		return err
	}
	files, err := s.store.Files(partnerID, jobID, v.ID)
	if err != nil {
		return err
	}
	in := letter.Input{
		JobID: jobID, JobName: job.Name, ExternalID: job.ExternalID, VersionID: v.ID, Round: v.Number,
		Address: v.ProjectAddress, Date: s.now(), CodeBasis: codeBasisLines(v.CodeBasis),
		Pages: s.letterPages(partnerID, jobID, v.ID, files, findings), Findings: findings,
	}
	if err := s.previousRound(r, &in, v); err != nil {
		return err
	}
	l := letter.Build(in)
	var buf bytes.Buffer
	contentType := "application/pdf"
	if format == "docx" {
		contentType = docxType
		err = l.WriteDOCX(&buf)
	} else {
		err = l.WritePDF(&buf)
	}
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s-letter.%s"`, jobID, v.ID, format))
	h.Set("Content-Length", fmt.Sprint(buf.Len()))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
	return nil
}

// previousRound fills in what a later round's letter says of the round it
// answers: the earlier corrections resolved since, the sheets that did not
// change, and the partner's setting for new findings on them.
func (s *Server) previousRound(r *http.Request, in *letter.Input, v store.Version) error {
	if v.Round == nil || v.Round.PreviousVersionID == nil {
		return nil
	}
	principal := principalFrom(r.Context())
	c, err := s.store.Compare(principal.partner.ID, in.JobID, *v.Round.PreviousVersionID, v.ID)
	if err != nil {
		return err
	}
	prevFiles, err := s.store.Files(principal.partner.ID, in.JobID, c.From.ID)
	if err != nil {
		return err
	}
	prev := &letter.PreviousRound{Round: c.From.Number,
		Pages: s.letterPages(principal.partner.ID, in.JobID, c.From.ID, prevFiles, c.Prev)}
	for _, i := range c.FindingMatch.Resolved {
		prev.Resolved = append(prev.Resolved, c.Prev[i])
	}
	in.Previous = prev
	in.UnchangedPages = map[string]bool{}
	for _, p := range c.SheetMatch.Pairs {
		if !p.Revised {
			sh := c.Sheets[p.Next]
			in.UnchangedPages[letter.PageKey(sh.FileID, sh.Page)] = true
		}
	}
	partner, err := s.store.Partner(principal.partner.ID)
	if err != nil {
		return err
	}
	in.LeaveOutUnchanged = partner.LaterRoundsLifeSafetyOnly
	return nil
}

// letterPages is the set in order with its sheets: from the version's chat
// index, or, for a version scanned before it existed, from the sheets the
// findings name.
func (s *Server) letterPages(partnerID, jobID, versionID string, files []store.File, findings []store.Finding) []letter.SetPage {
	names := map[string]string{}
	order := map[string]int{}
	for i, f := range files {
		names[f.ID], order[f.ID] = f.FileName, i
	}
	var out []letter.SetPage
	if pages := s.setPages(partnerID, jobID, versionID); len(pages) > 0 {
		for _, p := range pages {
			out = append(out, letter.SetPage{FileID: p.FileID, FileName: names[p.FileID], Page: p.Page,
				SheetNumber: p.SheetNumber, SheetTitle: p.SheetTitle})
		}
		return out
	}
	seen := map[string]bool{}
	for _, f := range findings {
		k := fmt.Sprint(f.FileID, f.Sheet.Page)
		if f.Sheet.Page > 0 && !seen[k] {
			seen[k] = true
			out = append(out, letter.SetPage{FileID: f.FileID, FileName: names[f.FileID], Page: f.Sheet.Page,
				SheetNumber: f.Sheet.SheetNumber, SheetTitle: f.Sheet.SheetTitle})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if order[out[i].FileID] != order[out[j].FileID] {
			return order[out[i].FileID] < order[out[j].FileID]
		}
		return out[i].Page < out[j].Page
	})
	return out
}

// codeBasisLines reads the lines of a version's stored codeBasis.
func codeBasisLines(raw json.RawMessage) []string {
	var cb struct {
		Lines []string `json:"lines"`
	}
	_ = json.Unmarshal(raw, &cb)
	return cb.Lines
}
