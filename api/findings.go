package api

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"planreview/store"
)

type findingView struct {
	FindingID       string            `json:"findingId"`
	Number          int               `json:"number"`
	RuleID          string            `json:"ruleId"`
	Title           string            `json:"title"`
	Severity        string            `json:"severity"`
	Confidence      float64           `json:"confidence"`
	Rationale       string            `json:"rationale"`
	GoverningRefs   string            `json:"governingRefs"`
	Topic           string            `json:"topic"`
	Source          string            `json:"source"`
	FileID          string            `json:"fileId"`
	Sheet           store.SheetRef    `json:"sheet"`
	EvidenceAnchors []anchorView      `json:"evidenceAnchors"`
	Fingerprint     string            `json:"fingerprint"`
	Disposition     store.Disposition `json:"disposition"`
	TemplateID      string            `json:"templateId,omitempty"`
	// Round is the finding's standing against the previous completed
	// version: omitted in a job's first round.
	Round *store.FindingRound `json:"round,omitempty"`
}

type anchorView struct {
	Page int        `json:"page"`
	BBox store.BBox `json:"bbox"`
	Text string     `json:"text"`
}

// ViewFinding renders a stored finding in the contract's shape (the review
// command prints the same JSON).
func ViewFinding(f store.Finding) findingView {
	v := findingView{
		FindingID: f.ID, Number: f.Number, RuleID: f.RuleID, Title: f.Title, Severity: f.Severity,
		Confidence: f.Confidence, Rationale: f.Rationale, GoverningRefs: f.GoverningRefs, Topic: f.Topic,
		Source: f.Source, FileID: f.FileID, Sheet: f.Sheet, Fingerprint: f.Fingerprint,
		Disposition: store.DispositionOf(f), TemplateID: f.TemplateID, Round: f.Round,
		EvidenceAnchors: make([]anchorView, len(f.Anchors)),
	}
	for i, a := range f.Anchors {
		// Rounded here too: versions scanned before rounding was stored.
		v.EvidenceAnchors[i] = anchorView{Page: a.Page, BBox: a.BBox.Rounded(), Text: a.Text}
	}
	return v
}

// FindingsBody is the findings endpoint's answer.
type FindingsBody struct {
	JobID            string          `json:"jobId"`
	VersionID        string          `json:"versionId"`
	Findings         []findingView   `json:"findings"`
	CodeBasis        json.RawMessage `json:"codeBasis"`
	LocalLawCoverage json.RawMessage `json:"localLawCoverage"`
}

// NewFindingsBody assembles the findings answer for a finished version.
func NewFindingsBody(jobID string, v store.Version, findings []store.Finding) FindingsBody {
	body := FindingsBody{JobID: jobID, VersionID: v.ID, Findings: make([]findingView, len(findings)),
		CodeBasis: orNull(v.CodeBasis), LocalLawCoverage: orNull(v.LocalLawCoverage)}
	for i, f := range findings {
		body.Findings[i] = ViewFinding(f)
	}
	return body
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// finishedFindings loads a version's findings, refusing with 409 before
// the scan completed: an empty list must never read as "no issues".
func (s *Server) finishedFindings(r *http.Request) (string, store.Version, []store.Finding, error) {
	jobID := r.PathValue("jobId")
	if !store.ValidID(jobID, store.PrefixJob) {
		return "", store.Version{}, nil, errNotFound
	}
	versionID := r.URL.Query().Get("versionId")
	if versionID != "" && !store.ValidID(versionID, store.PrefixVersion) {
		return "", store.Version{}, nil, errNotFound
	}
	v, findings, err := s.store.Findings(principalFrom(r.Context()).partner.ID, jobID, versionID)
	if err != nil {
		return "", v, nil, err
	}
	switch v.Status {
	case store.StatusComplete:
		return jobID, v, findings, nil
	case store.StatusFailed:
		msg := "The scan of this version failed."
		if e := v.Pipeline.Error; e != nil {
			msg = fmt.Sprintf("The scan of this version failed (%s): %s", e.Code, e.Message)
		}
		return "", v, nil, errorf(http.StatusConflict, "scan_not_complete", "%s", msg)
	default:
		return "", v, nil, errorf(http.StatusConflict, "scan_not_complete",
			"The scan of this version is %s; findings are available when it is complete.", v.Status)
	}
}

func (s *Server) getFindings(w http.ResponseWriter, r *http.Request) error {
	jobID, v, findings, err := s.finishedFindings(r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, NewFindingsBody(jobID, v, findings))
	return nil
}

// CSVHeader is the contract's export header row.
var CSVHeader = []string{"findingId", "versionId", "fileId", "page", "sheetNumber", "sheetType", "severity",
	"confidence", "ruleId", "title", "governingRefs", "rationale", "left", "top", "width", "height",
	// Additive, after the contract's columns: who made the finding and
	// what examiners decided about it.
	"source", "disposition", "dispositionNote",
	// The finding's round status against the previous completed version
	// (empty in a first round) and the finding it persists from.
	"roundStatus", "previousFindingId"}

// WriteFindingsCSV writes the contract's CSV export: RFC 4180 with CRLF,
// one row per finding, first anchor's page and box, and a leading ' on any
// cell a spreadsheet would run as a formula.
func WriteFindingsCSV(w *csv.Writer, versionID string, findings []store.Finding) error {
	w.UseCRLF = true
	if err := w.Write(CSVHeader); err != nil {
		return err
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	for _, f := range findings {
		page, left, top, width, height := "", "", "", "", ""
		if len(f.Anchors) > 0 {
			a := f.Anchors[0]
			a.BBox = a.BBox.Rounded()
			page = strconv.Itoa(a.Page)
			left, top, width, height = num(a.BBox.Left), num(a.BBox.Top), num(a.BBox.Width), num(a.BBox.Height)
		}
		row := []string{f.ID, versionID, f.FileID, page, f.Sheet.SheetNumber, f.Sheet.SheetType, f.Severity,
			num(f.Confidence), f.RuleID, f.Title, f.GoverningRefs, f.Rationale, left, top, width, height,
			f.Source, store.DispositionOf(f).Status, store.DispositionOf(f).Note, roundStatus(f), previousFinding(f)}
		for i, cell := range row {
			row[i] = neutraliseFormula(cell)
		}
		if err := w.Write(row); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

func roundStatus(f store.Finding) string {
	if f.Round == nil {
		return ""
	}
	return f.Round.Status
}

func previousFinding(f store.Finding) string {
	if f.Round == nil || f.Round.PreviousFindingID == nil {
		return ""
	}
	return *f.Round.PreviousFindingID
}

func neutraliseFormula(cell string) string {
	if cell != "" && (cell[0] == '=' || cell[0] == '+' || cell[0] == '-' || cell[0] == '@' || cell[0] == '\t' || cell[0] == '\r') {
		return "'" + cell
	}
	return cell
}

// UTF8BOM is the byte-order mark a spreadsheet download starts with: Excel
// reads a CSV without one in the machine's legacy code page, which garbles
// every en dash and accented sheet title; with it, Excel, LibreOffice and
// Numbers read UTF-8. The partner API's export leaves it out: the contract
// fixes its header row, and RFC 4180 readers that do not strip a BOM
// (Go's encoding/csv among them) would see it in the first header cell.
const UTF8BOM = "\ufeff"

// exportCSV is the partner API's export, exactly the contract's bytes.
func (s *Server) exportCSV(w http.ResponseWriter, r *http.Request) error {
	return s.writeCSVExport(w, r, false)
}

// exportCSVDownload is the hosted screen's "Findings CSV" link, which a
// person opens in a spreadsheet: the same file after a UTF-8 byte-order mark.
func (s *Server) exportCSVDownload(w http.ResponseWriter, r *http.Request) error {
	return s.writeCSVExport(w, r, true)
}

func (s *Server) writeCSVExport(w http.ResponseWriter, r *http.Request, bom bool) error {
	jobID, v, findings, err := s.finishedFindings(r)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s-findings.csv"`, jobID, v.ID))
	w.Header().Set("Cache-Control", "no-store")
	if bom {
		if _, err := io.WriteString(w, UTF8BOM); err != nil {
			return err
		}
	}
	return WriteFindingsCSV(csv.NewWriter(w), v.ID, findings)
}
