package api

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"time"

	"planreview/scan/annotate"
	"planreview/store"
)

type signedURL struct {
	URL       string `json:"url"`
	ExpiresAt int64  `json:"expiresAt"`
}

// annotatedURL hands out a short-lived signed URL to a file's marked-up
// copy, once its version's scan has finished.
func (s *Server) annotatedURL(w http.ResponseWriter, r *http.Request) error {
	jobID, fileID := r.PathValue("jobId"), r.PathValue("fileId")
	if !store.ValidID(jobID, store.PrefixJob) || !store.ValidID(fileID, store.PrefixFile) {
		return errNotFound
	}
	f, v, err := s.store.JobFile(principalFrom(r.Context()).partner.ID, jobID, fileID)
	if err != nil {
		return err
	}
	switch v.Status {
	case store.StatusComplete:
	case store.StatusFailed:
		return errorf(http.StatusNotFound, "not_ready", "The scan of this file's version failed; there is no marked-up copy.")
	default:
		return errorf(http.StatusNotFound, "not_ready", "The marked-up PDF is ready when the scan of this file's version is complete (now %s).", v.Status)
	}
	sig, expires := s.signer.SignExpiring(s.opts.DownloadURLTTL, http.MethodGet, f.ID, "marked-up")
	q := url.Values{"expires": {itoa(expires)}, "signature": {sig}}
	writeJSON(w, http.StatusOK, signedURL{
		URL:       s.opts.PublicURL + "/downloads/" + f.ID + "/marked-up.pdf?" + q.Encode(),
		ExpiresAt: expires,
	})
	return nil
}

// download serves a marked-up PDF to the holder of a signed URL, with
// Range, ETag and conditional requests (http.ServeContent).
func (s *Server) download(w http.ResponseWriter, r *http.Request) error {
	fileID := r.PathValue("fileId")
	q := r.URL.Query()
	if err := s.signer.Verify(q.Get("signature"), q.Get("expires"), http.MethodGet, fileID, "marked-up"); err != nil {
		return err
	}
	f, err := s.store.File(fileID)
	if err != nil {
		return err
	}
	if err := s.redrawMarkedUp(r.Context(), f); err != nil {
		return err
	}
	file, err := os.Open(s.blobs.AnnotatedPath(fileID))
	if errors.Is(err, os.ErrNotExist) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return err
	}
	name := strings.TrimSuffix(f.FileName, path.Ext(f.FileName)) + "-marked-up.pdf"
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": name}))
	h.Set("ETag", fmt.Sprintf(`"%s-%x-%x"`, f.SHA256[:16], st.Size(), st.ModTime().UnixNano()))
	h.Set("Cache-Control", "private, max-age=900")
	http.ServeContent(w, r, name, st.ModTime(), file)
	return nil
}

// redrawMarkedUp draws a file's marked-up copy again when people changed
// its version's findings since it was drawn (dispositions, edits, examiner
// comments), so the copy always shows the findings as they stand. One
// request draws at a time per file; the others then find it current.
func (s *Server) redrawMarkedUp(ctx context.Context, f store.File) error {
	v, findings, err := s.store.VersionFindings(f.VersionID)
	if err != nil || v.FindingsRevision == f.AnnotatedRevision || v.Status != store.StatusComplete {
		return err
	}
	defer s.idem.lock("marked-up\x00" + f.ID)()
	if current, err := s.store.File(f.ID); err != nil || current.AnnotatedRevision == v.FindingsRevision {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	sum := annotate.Summary{JobID: v.JobID, VersionID: v.ID, FileName: f.FileName, CodeBasis: codeBasisLines(v.CodeBasis)}
	if err := annotate.RenderFile(ctx, s.blobs.Path(f.ID, f.SHA256), s.blobs.AnnotatedPath(f.ID), annotate.MarksFor(findings, f.ID), sum); err != nil {
		return err
	}
	return s.store.SetAnnotatedRevision(f.ID, v.FindingsRevision)
}
