package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"planreview/chat"
	"planreview/scan/pdftext"
	"planreview/store"
)

// The examiner's desk: dispositions, examiner comments, comment templates
// and the audit trail (contract, "Examiner workflow").

var severities = []string{"critical", "high", "medium", "low", "info"}

var dispositionStatuses = []string{store.DispositionOpen, store.DispositionAccepted, store.DispositionDismissed}

type actorRequest struct {
	ID   *string `json:"id"`
	Name *string `json:"name"`
}

// errReadOnlyLink refuses a write through a viewer link; like a link that
// does not grant a screen, it is the link that falls short.
var errReadOnlyLink = errorf(http.StatusForbidden, "signature_invalid",
	"This link is read-only (role viewer); request an examiner link to act on findings.")

// actorOf is who makes a change: the examiner an embed link names, or the
// actor a server call passes in its body (required there).
func actorOf(r *http.Request, given *actorRequest) (store.Actor, error) {
	if link := principalFrom(r.Context()).link; link != nil {
		if !link.Examiner() {
			return store.Actor{}, errReadOnlyLink
		}
		if given != nil {
			return store.Actor{}, invalidParam("actor", "An examiner link acts as the person it names; leave actor out.")
		}
		return store.Actor{ID: link.Actor.ID, Name: link.Actor.Name}, nil
	}
	return validActor("actor", given)
}

func validActor(param string, a *actorRequest) (store.Actor, error) {
	if a == nil {
		return store.Actor{}, invalidParam(param, "%s is required: {id, name} of the person making the change.", param)
	}
	if err := checkLine(param+".id", a.ID, true, 200); err != nil {
		return store.Actor{}, err
	}
	if err := checkLine(param+".name", a.Name, true, 200); err != nil {
		return store.Actor{}, err
	}
	return store.Actor{ID: *a.ID, Name: *a.Name}, nil
}

// checkLine is checkText for a single-line field.
func checkLine(param string, v *string, required bool, maxLen int) error {
	if err := checkText(param, v, required, maxLen); err != nil {
		return err
	}
	if v != nil && strings.ContainsAny(*v, "\r\n\t") {
		return invalidParam(param, "%s must be a single line.", param)
	}
	return nil
}

func checkEnum(param string, v *string, allowed []string) error {
	if v != nil && !slices.Contains(allowed, *v) {
		return invalidParam(param, "%s must be one of %s.", param, strings.Join(allowed, ", "))
	}
	return nil
}

type patchFindingRequest struct {
	Status    *string       `json:"status"`
	Note      *string       `json:"note"`
	Title     *string       `json:"title"`
	Rationale *string       `json:"rationale"`
	Severity  *string       `json:"severity"`
	Actor     *actorRequest `json:"actor"`
}

func (req patchFindingRequest) validate() error {
	if req.Status == nil && req.Note == nil && req.Title == nil && req.Rationale == nil && req.Severity == nil {
		return errorf(http.StatusBadRequest, "invalid_request", "Nothing to change: give status, note, title, rationale or severity.")
	}
	if err := checkEnum("status", req.Status, dispositionStatuses); err != nil {
		return err
	}
	if err := checkText("note", req.Note, false, 4000); err != nil {
		return err
	}
	if req.Status != nil && *req.Status == store.DispositionDismissed && (req.Note == nil || strings.TrimSpace(*req.Note) == "") {
		return invalidParam("note", "A dismissal needs its reason in note.")
	}
	if err := checkLine("title", req.Title, req.Title != nil, 200); err != nil {
		return err
	}
	if err := checkText("rationale", req.Rationale, req.Rationale != nil, 4000); err != nil {
		return err
	}
	return checkEnum("severity", req.Severity, severities)
}

// patchFinding changes a finding's disposition or text; the audit trail
// keeps what it was (the engine's original text included).
func (s *Server) patchFinding(w http.ResponseWriter, r *http.Request) error {
	jobID, findingID := r.PathValue("jobId"), r.PathValue("findingId")
	if !store.ValidID(jobID, store.PrefixJob) || !store.ValidID(findingID, store.PrefixFinding) {
		return errNotFound
	}
	var req patchFindingRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	actor, err := actorOf(r, req.Actor)
	if err != nil {
		return err
	}
	if err := req.validate(); err != nil {
		return err
	}
	changed, err := s.store.UpdateFinding(principalFrom(r.Context()).partner.ID, jobID, findingID, store.FindingChange{
		Status: req.Status, Note: req.Note, Title: req.Title, Rationale: req.Rationale, Severity: req.Severity, Actor: actor,
		View: func(f store.Finding) any { return ViewFinding(f) },
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ViewFinding(changed.Finding))
	return nil
}

type bboxRequest struct {
	Left   *float64 `json:"left"`
	Top    *float64 `json:"top"`
	Width  *float64 `json:"width"`
	Height *float64 `json:"height"`
}

type commentRequest struct {
	FileID        *string       `json:"fileId"`
	Page          *int          `json:"page"`
	BBox          *bboxRequest  `json:"bbox"`
	Title         *string       `json:"title"`
	Rationale     *string       `json:"rationale"`
	Severity      *string       `json:"severity"`
	GoverningRefs *string       `json:"governingRefs"`
	TemplateID    *string       `json:"templateId"`
	Actor         *actorRequest `json:"actor"`
}

func (b *bboxRequest) box() (store.BBox, error) {
	vals := []struct {
		name string
		v    *float64
	}{{"left", b.Left}, {"top", b.Top}, {"width", b.Width}, {"height", b.Height}}
	for _, f := range vals {
		if f.v == nil {
			return store.BBox{}, invalidParam("bbox."+f.name, "bbox.%s is required.", f.name)
		}
		if math.IsNaN(*f.v) || *f.v < 0 || *f.v > 1 {
			return store.BBox{}, invalidParam("bbox."+f.name, "bbox.%s must be a fraction of the page from 0 to 1.", f.name)
		}
	}
	box := store.BBox{Left: *b.Left, Top: *b.Top, Width: *b.Width, Height: *b.Height}
	const slack = 1e-9
	switch {
	case box.Width == 0 || box.Height == 0:
		return box, invalidParam("bbox", "bbox must have a width and a height.")
	case box.Left+box.Width > 1+slack || box.Top+box.Height > 1+slack:
		return box, invalidParam("bbox", "bbox must lie within the page (left + width and top + height at most 1).")
	}
	return box, nil
}

// createComment adds an examiner comment: a finding a person wrote, on a
// sheet and optionally a box drawn on it, from a template or not.
func (s *Server) createComment(w http.ResponseWriter, r *http.Request) error {
	jobID := r.PathValue("jobId")
	if !store.ValidID(jobID, store.PrefixJob) {
		return errNotFound
	}
	partnerID := principalFrom(r.Context()).partner.ID
	if _, _, err := s.store.Job(partnerID, jobID); err != nil {
		return err // another partner's job is not found, whatever the body
	}
	var req commentRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	actor, err := actorOf(r, req.Actor)
	if err != nil {
		return err
	}
	if req.FileID == nil || *req.FileID == "" {
		return invalidParam("fileId", "fileId is required.")
	}
	if req.Page == nil {
		return invalidParam("page", "page is required.")
	}
	var box *store.BBox
	if req.BBox != nil {
		b, err := req.BBox.box()
		if err != nil {
			return err
		}
		box = &b
	}
	if req.TemplateID != nil {
		if !store.ValidID(*req.TemplateID, store.PrefixTemplate) {
			return invalidParam("templateId", "No such comment template.")
		}
		t, err := s.store.Template(partnerID, *req.TemplateID)
		if err != nil {
			return invalidParam("templateId", "No such comment template.")
		}
		fill := func(dst **string, v string) {
			if *dst == nil && v != "" {
				*dst = &v
			}
		}
		fill(&req.Title, t.Title)
		fill(&req.Rationale, t.Text)
		fill(&req.Severity, t.Severity)
		fill(&req.GoverningRefs, t.GoverningRefs)
	}
	if err := checkLine("title", req.Title, true, 200); err != nil {
		return err
	}
	if err := checkText("rationale", req.Rationale, true, 4000); err != nil {
		return err
	}
	if req.Severity == nil {
		return invalidParam("severity", "severity is required.")
	}
	if err := checkEnum("severity", req.Severity, severities); err != nil {
		return err
	}
	if err := checkLine("governingRefs", req.GoverningRefs, false, 500); err != nil {
		return err
	}
	if !store.ValidID(*req.FileID, store.PrefixFile) {
		return invalidParam("fileId", "No such file in this job.")
	}
	file, v, err := s.store.JobFile(partnerID, jobID, *req.FileID)
	if errors.Is(err, store.ErrNotFound) {
		return invalidParam("fileId", "No such file in this job.")
	}
	if err != nil {
		return err
	}
	if v.Status != store.StatusComplete {
		return errorf(http.StatusConflict, "scan_not_complete", "Comments are added to a version whose scan is complete (this one is %s).", v.Status)
	}
	if file.Status == store.FileRejected || file.PageCount == nil {
		return invalidParam("fileId", "This file was not reviewed (its scan rejected it).")
	}
	if *req.Page < 1 || *req.Page > *file.PageCount {
		return invalidParam("page", "page must be from 1 to %d for this file.", *file.PageCount)
	}
	f := store.Finding{
		RuleID: "examiner.comment", Title: *req.Title, Severity: *req.Severity, Confidence: 1,
		Rationale: *req.Rationale, GoverningRefs: deref(req.GoverningRefs), Topic: "examiner",
		FileID: file.ID, Sheet: s.sheetOf(partnerID, jobID, v.ID, file.ID, *req.Page), TemplateID: deref(req.TemplateID),
	}
	if box != nil {
		anchor, err := s.anchorFor(r.Context(), file, *req.Page, *box)
		if err != nil {
			return err
		}
		f.Anchors = []store.Anchor{anchor}
	}
	f.Fingerprint = commentFingerprint(f)
	answer := replyTo(r, http.StatusCreated, func(c store.ChangedFinding) any { return ViewFinding(c.Finding) })
	if _, err := s.store.AddExaminerFinding(partnerID, jobID, f, actor, &answer.Reply); err != nil {
		return err
	}
	answer.send(w)
	return nil
}

// commentFingerprint follows the engine's: the same comment on the same
// sheet has the same fingerprint in every round.
func commentFingerprint(f store.Finding) string {
	sheet := f.Sheet.SheetNumber
	if sheet == "" {
		sheet = "page " + strconv.Itoa(f.Sheet.Page)
	}
	h := sha256.New()
	h.Write([]byte(f.RuleID + "\x00" + strings.ToUpper(strings.Join(strings.Fields(sheet), "")) + "\x00" +
		strings.ToUpper(strings.Join(strings.Fields(f.Title), " "))))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// sheetOf names the sheet on a file's page as the scan read it (the
// version's chat index holds every page); a page it cannot name is known
// by its number only.
func (s *Server) sheetOf(partnerID, jobID, versionID, fileID string, page int) store.SheetRef {
	ref := store.SheetRef{Page: page, SheetType: "unknown"}
	for _, p := range s.setPages(partnerID, jobID, versionID) {
		if p.FileID == fileID && p.Page == page {
			ref.SheetNumber, ref.SheetTitle = p.SheetNumber, p.SheetTitle
			if p.SheetType != "" {
				ref.SheetType = p.SheetType
			}
		}
	}
	return ref
}

// setPages lists a version's pages in set order with their sheets, from
// its chat index (nil when it has none).
func (s *Server) setPages(partnerID, jobID, versionID string) []chat.Page {
	_, raw, _, err := s.store.ChatIndex(partnerID, jobID, versionID, nil)
	if err != nil || raw == nil {
		return nil
	}
	idx, err := chat.Decode(raw)
	if err != nil {
		return nil
	}
	return idx.Pages
}

// anchorFor places a drawn box: its rectangle in the page's user space (for
// the marked-up copy) and the words it covers, as the sheet prints them.
func (s *Server) anchorFor(ctx context.Context, file store.File, page int, box store.BBox) (store.Anchor, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	a := store.Anchor{Page: page, BBox: box}
	doc, err := pdftext.Open(ctx, s.blobs.Path(file.ID, file.SHA256))
	if err != nil {
		return a, err
	}
	defer doc.Close()
	rect, err := doc.UserRect(page, pdftext.BBox{Left: box.Left, Top: box.Top, Width: box.Width, Height: box.Height})
	if err != nil {
		return a, invalidParam("page", "This page cannot be marked: %v", err)
	}
	a.Rect = rect
	if p, err := doc.Page(ctx, page); err == nil {
		var words []string
		n := 0
		for _, wd := range p.Words {
			cx, cy := wd.BBox.Left+wd.BBox.Width/2, wd.BBox.Top+wd.BBox.Height/2
			if cx >= box.Left && cx <= box.Left+box.Width && cy >= box.Top && cy <= box.Top+box.Height {
				if n += len(wd.Text) + 1; n > 300 {
					words = append(words, "…")
					break
				}
				words = append(words, wd.Text)
			}
		}
		a.Text = strings.Join(words, " ")
	}
	return a, nil
}

// ---- comment templates ----

type templateRequest struct {
	Title         *string `json:"title"`
	Text          *string `json:"text"`
	GoverningRefs *string `json:"governingRefs"`
	Severity      *string `json:"severity"`
}

type templateView struct {
	TemplateID    string  `json:"templateId"`
	Title         string  `json:"title"`
	Text          string  `json:"text"`
	GoverningRefs string  `json:"governingRefs"`
	Severity      *string `json:"severity"`
	CreatedAt     string  `json:"createdAt"`
}

func viewTemplate(t store.CommentTemplate) templateView {
	v := templateView{TemplateID: t.ID, Title: t.Title, Text: t.Text, GoverningRefs: t.GoverningRefs,
		CreatedAt: t.CreatedAt.UTC().Format(time.RFC3339)}
	if t.Severity != "" {
		v.Severity = &t.Severity
	}
	return v
}

func (s *Server) listTemplates(w http.ResponseWriter, r *http.Request) error {
	list, err := s.store.Templates(principalFrom(r.Context()).partner.ID)
	if err != nil {
		return err
	}
	out := struct {
		Templates []templateView `json:"templates"`
	}{Templates: make([]templateView, len(list))}
	for i, t := range list {
		out.Templates[i] = viewTemplate(t)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) createTemplate(w http.ResponseWriter, r *http.Request) error {
	var req templateRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if err := checkLine("title", req.Title, true, 200); err != nil {
		return err
	}
	if err := checkText("text", req.Text, true, 4000); err != nil {
		return err
	}
	if err := checkLine("governingRefs", req.GoverningRefs, false, 500); err != nil {
		return err
	}
	if err := checkEnum("severity", req.Severity, severities); err != nil {
		return err
	}
	answer := replyTo(r, http.StatusCreated, func(t store.CommentTemplate) any { return viewTemplate(t) })
	_, err := s.store.CreateTemplate(store.CommentTemplate{PartnerID: principalFrom(r.Context()).partner.ID,
		Title: *req.Title, Text: *req.Text, GoverningRefs: deref(req.GoverningRefs), Severity: deref(req.Severity)}, &answer.Reply)
	if err != nil {
		return err
	}
	answer.send(w)
	return nil
}

func (s *Server) deleteTemplate(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("templateId")
	if !store.ValidID(id, store.PrefixTemplate) {
		return errNotFound
	}
	if err := s.store.DeleteTemplate(principalFrom(r.Context()).partner.ID, id); err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// ---- audit trail ----

type auditPage struct {
	Events     []store.AuditEvent `json:"events"`
	NextCursor *string            `json:"nextCursor"`
}

// getAudit lists a job's audit events oldest first, exactly as stored and
// hashed, so a client can recompute the chain itself.
func (s *Server) getAudit(w http.ResponseWriter, r *http.Request) error {
	jobID := r.PathValue("jobId")
	if !store.ValidID(jobID, store.PrefixJob) {
		return errNotFound
	}
	query := r.URL.Query()
	q := store.AuditQuery{Limit: 100}
	if raw := query.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 500 {
			return invalidParam("limit", "limit must be a whole number from 1 to 500.")
		}
		q.Limit = n
	}
	if raw := query.Get("cursor"); raw != "" {
		if !store.ValidID(raw, store.PrefixAudit) {
			return invalidParam("cursor", "cursor is not one this API returned.")
		}
		q.After = raw
	}
	if raw := query.Get("findingId"); raw != "" {
		if !store.ValidID(raw, store.PrefixFinding) {
			return invalidParam("findingId", "findingId is not a finding id.")
		}
		q.FindingID = raw
	}
	events, next, err := s.store.Audit(principalFrom(r.Context()).partner.ID, jobID, q)
	if err != nil {
		return err
	}
	page := auditPage{Events: events}
	if page.Events == nil {
		page.Events = []store.AuditEvent{}
	}
	if next != "" {
		page.NextCursor = &next
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}
