package api

import (
	"encoding/json"
	"math/big"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"planreview/store"
)

// maxFileSize is the contract's limit on one PDF (100 MB).
const maxFileSize = 104857600

type registerFileRequest struct {
	FileName    *string     `json:"fileName"`
	FileSize    *jsonNumber `json:"fileSize"`
	ContentType *string     `json:"contentType"`
	FileTag     *string     `json:"fileTag"`
}

// validate checks the request and returns the file size.
func (req registerFileRequest) validate() (int64, error) {
	if err := checkText("fileName", req.FileName, true, 255); err != nil {
		return 0, err
	}
	if strings.ContainsAny(*req.FileName, `/\`) || strings.ContainsFunc(*req.FileName, isControl) {
		return 0, invalidParam("fileName", "fileName must not contain /, \\ or control characters.")
	}
	if req.FileSize == nil {
		return 0, invalidParam("fileSize", "fileSize is required.")
	}
	// Parse as an exact number so 1e9 or 10^30 bytes count as too large and
	// 1.5 bytes as invalid, instead of overflowing or rounding.
	size, ok := new(big.Rat).SetString(string(*req.FileSize))
	switch {
	case !ok || !size.IsInt():
		return 0, invalidParam("fileSize", "fileSize must be a whole number of bytes.")
	case size.Sign() <= 0:
		return 0, invalidParam("fileSize", "fileSize must be at least 1 byte.")
	case size.Cmp(big.NewRat(maxFileSize, 1)) > 0:
		e := errorf(http.StatusBadRequest, "file_too_large", "fileSize is over the limit of %d bytes (100 MB).", maxFileSize)
		e.Param = "fileSize"
		return 0, e
	}
	if req.ContentType == nil {
		return 0, invalidParam("contentType", "contentType is required.")
	}
	if !strings.EqualFold(*req.ContentType, "application/pdf") {
		e := errorf(http.StatusBadRequest, "unsupported_content_type", "contentType must be application/pdf.")
		e.Param = "contentType"
		return 0, e
	}
	if err := checkText("fileTag", req.FileTag, false, 64); err != nil {
		return 0, err
	}
	return size.Num().Int64(), nil
}

// jsonNumber is a JSON number kept as its literal. Unlike json.Number it
// refuses a quoted number ("12"): the contract's fileSize is an integer.
type jsonNumber string

func (n *jsonNumber) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return &json.UnmarshalTypeError{Value: "string", Type: reflect.TypeFor[int64]()}
	}
	var num json.Number
	if err := json.Unmarshal(b, &num); err != nil {
		return err
	}
	*n = jsonNumber(num)
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

type registerFileResponse struct {
	FileID          string `json:"fileId"`
	UploadURL       string `json:"uploadUrl"`
	UploadExpiresAt int64  `json:"uploadExpiresAt"`
	VersionID       string `json:"versionId"`
	fileView
}

func (s *Server) registerFile(w http.ResponseWriter, r *http.Request) error {
	jobID := r.PathValue("jobId")
	if !store.ValidID(jobID, store.PrefixJob) {
		return errNotFound
	}
	var req registerFileRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	size, err := req.validate()
	if err != nil {
		return err
	}
	answer := replyTo(r, http.StatusCreated, func(f store.File) any {
		uploadURL, expires := s.uploadURL(f.ID)
		return registerFileResponse{
			FileID: f.ID, UploadURL: uploadURL, UploadExpiresAt: expires, VersionID: f.VersionID, fileView: viewFile(f),
		}
	})
	_, err = s.store.RegisterFileWithReply(principalFrom(r.Context()).partner.ID, jobID, store.File{
		FileName: *req.FileName, FileSize: size, ContentType: "application/pdf", FileTag: deref(req.FileTag),
	}, maxFilesPerVersion, &answer.Reply)
	if err != nil {
		return err
	}
	answer.send(w)
	return nil
}

// uploadURL signs a PUT of application/pdf to the file, valid for the
// configured upload lifetime.
func (s *Server) uploadURL(fileID string) (string, int64) {
	sig, expires := s.signer.SignExpiring(s.opts.UploadURLTTL, http.MethodPut, fileID, "application/pdf")
	q := url.Values{"expires": {itoa(expires)}, "signature": {sig}}
	return s.opts.PublicURL + "/uploads/" + fileID + "?" + q.Encode(), expires
}

// fileDetail is a file as GET /jobs/{jobId}/files/{fileId} returns it: while
// its version is open and it takes uploads, with a freshly signed upload
// URL (the one from registration may have expired).
type fileDetail struct {
	fileView
	UploadURL       *string `json:"uploadUrl"`
	UploadExpiresAt *int64  `json:"uploadExpiresAt"`
}

func (s *Server) getFile(w http.ResponseWriter, r *http.Request) error {
	jobID, fileID := r.PathValue("jobId"), r.PathValue("fileId")
	if !store.ValidID(jobID, store.PrefixJob) || !store.ValidID(fileID, store.PrefixFile) {
		return errNotFound
	}
	f, v, err := s.store.JobFile(principalFrom(r.Context()).partner.ID, jobID, fileID)
	if err != nil {
		return err
	}
	out := fileDetail{fileView: viewFile(f)}
	if v.Open() && (f.Status == store.FilePendingUpload || f.Status == store.FileUploaded) {
		uploadURL, expires := s.uploadURL(f.ID)
		out.UploadURL, out.UploadExpiresAt = &uploadURL, &expires
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// deleteFile removes a file from its job's open version, then its bytes.
// The database decides: bytes left by a crash in between are unreferenced
// and go at the next start-up sweep.
func (s *Server) deleteFile(w http.ResponseWriter, r *http.Request) error {
	jobID, fileID := r.PathValue("jobId"), r.PathValue("fileId")
	if !store.ValidID(jobID, store.PrefixJob) || !store.ValidID(fileID, store.PrefixFile) {
		return errNotFound
	}
	if _, err := s.store.DeleteFile(principalFrom(r.Context()).partner.ID, jobID, fileID); err != nil {
		return err
	}
	if err := s.blobs.Remove(fileID); err != nil {
		s.log.Warn("remove a deleted file's blobs; the start-up sweep retries", "file_id", fileID, "error", err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

type fileList struct {
	Files []fileView `json:"files"`
}

func (s *Server) listFiles(w http.ResponseWriter, r *http.Request) error {
	jobID := r.PathValue("jobId")
	if !store.ValidID(jobID, store.PrefixJob) {
		return errNotFound
	}
	versionID := r.URL.Query().Get("versionId")
	if versionID != "" && !store.ValidID(versionID, store.PrefixVersion) {
		return errNotFound
	}
	files, err := s.store.Files(principalFrom(r.Context()).partner.ID, jobID, versionID)
	if err != nil {
		return err
	}
	out := fileList{Files: make([]fileView, len(files))}
	for i, f := range files {
		out.Files[i] = viewFile(f)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// isPDFContentType accepts application/pdf with any case and parameters.
func isPDFContentType(header string) bool {
	mt, _, err := mime.ParseMediaType(header)
	return err == nil && mt == "application/pdf"
}
