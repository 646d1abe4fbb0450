package api

import (
	"errors"
	"net/http"
	"slices"
	"strconv"

	"planreview/store"
	"planreview/store/blob"
)

type uploadResponse struct {
	FileID string `json:"fileId"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// upload takes the PDF bytes a registration's signed URL allows. Cheap
// checks come first, so a doomed 100 MB upload is refused before its body
// is read; the body then streams to disk and is committed only when whole.
func (s *Server) upload(w http.ResponseWriter, r *http.Request) error {
	fileID := r.PathValue("fileId")
	q := r.URL.Query()
	if err := s.signer.Verify(q.Get("signature"), q.Get("expires"), http.MethodPut, fileID, "application/pdf"); err != nil {
		s.allowOrigin(w, r, "") // appliance-wide origins may read why
		return err
	}
	f, err := s.store.UploadTarget(fileID)
	if f.PartnerID != "" { // also when locked: a browser may read the 409
		s.allowOrigin(w, r, f.PartnerID)
	}
	if err != nil {
		return err
	}
	if !isPDFContentType(r.Header.Get("Content-Type")) {
		e := errorf(http.StatusBadRequest, "unsupported_content_type", "Content-Type must be application/pdf.")
		e.Param = "Content-Type"
		return e
	}
	if r.ContentLength < 0 {
		return errorf(http.StatusLengthRequired, "length_required", "Content-Length is required; chunked uploads are not accepted.")
	}
	if r.ContentLength != f.FileSize {
		return invalidParam("Content-Length", "Content-Length is %d but the file was registered with fileSize %d.", r.ContentLength, f.FileSize)
	}

	stored, err := s.blobs.Put(fileID, r.Body, r.ContentLength)
	switch {
	case errors.Is(err, blob.ErrNotPDF):
		return errorf(http.StatusBadRequest, "not_a_pdf", "The body does not start with %%PDF-; it is not a PDF.")
	case errors.Is(err, blob.ErrShortBody):
		return invalidParam("Content-Length", "The body ended before Content-Length bytes arrived; nothing was stored.")
	case err != nil:
		if _, ferr := s.store.File(fileID); errors.Is(ferr, store.ErrNotFound) {
			return ferr // deleted while its body streamed
		}
		return err
	}
	committed, _, err := s.store.CommitUpload(fileID, stored.Size, stored.SHA256)
	if errors.Is(err, store.ErrNotFound) {
		// Deleted while the body streamed: its bytes go with it.
		if rerr := s.blobs.Remove(fileID); rerr != nil {
			s.log.Warn("remove a deleted file's blobs; the start-up sweep retries", "file_id", fileID, "error", rerr)
		}
		return err
	}
	if err != nil {
		// A scan locked the version while the body streamed: keep only the
		// bytes the database points at.
		if current, ferr := s.store.File(fileID); ferr == nil {
			s.pruneBlobs(fileID, current.SHA256)
		}
		return err
	}
	s.pruneBlobs(fileID, committed.SHA256)
	w.Header().Set("ETag", `"`+committed.SHA256+`"`)
	writeJSON(w, http.StatusOK, uploadResponse{FileID: fileID, Size: committed.FileSize, SHA256: committed.SHA256})
	return nil
}

// pruneBlobs drops a file's superseded bytes; failing to is only wasted disk.
func (s *Server) pruneBlobs(fileID, keep string) {
	if err := s.blobs.Prune(fileID, keep); err != nil {
		s.log.Warn("prune replaced upload", "file_id", fileID, "error", err)
	}
}

// uploadPreflight answers a browser's CORS preflight for a PUT upload.
// Origins not configured get no CORS headers, which the browser refuses.
func (s *Server) uploadPreflight(w http.ResponseWriter, r *http.Request) error {
	if f, err := s.store.File(r.PathValue("fileId")); err == nil && s.allowOrigin(w, r, f.PartnerID) {
		h := w.Header()
		h.Set("Access-Control-Allow-Methods", "PUT")
		h.Set("Access-Control-Allow-Headers", "Content-Type")
		h.Set("Access-Control-Max-Age", "600")
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// allowOrigin sets CORS headers when the request's Origin is configured
// appliance-wide or for the owning partner.
func (s *Server) allowOrigin(w http.ResponseWriter, r *http.Request, partnerID string) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	w.Header().Add("Vary", "Origin")
	allowed := slices.Contains(s.opts.CORSOrigins, origin)
	if !allowed {
		if p, err := s.store.Partner(partnerID); err == nil {
			allowed = slices.Contains(p.FrameOrigins, origin)
		}
	}
	if allowed {
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Set("Access-Control-Expose-Headers", "ETag, X-Request-Id")
	}
	return allowed
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
