package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"planreview/api/signing"
	"planreview/store"
)

// Error is an API error in the contract's envelope. Handlers return it (or a
// store error, mapped in statusOf) and writeError renders it.
type Error struct {
	Status  int
	Code    string
	Message string
	Param   string
	// RetryAfter, in seconds, is sent as Retry-After when > 0.
	RetryAfter int
	// Allow lists the methods a 405 answer allows.
	Allow string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errorf(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

func invalidParam(param, format string, args ...any) *Error {
	e := errorf(http.StatusBadRequest, "invalid_request", format, args...)
	e.Param = param
	return e
}

// statusClientClosed marks, in the access log, a request whose client
// closed the connection before its answer (nginx's 499).
const statusClientClosed = 499

var errNotFound = errorf(http.StatusNotFound, "not_found", "No such resource.")

// asAPIError maps any error a handler returns to what the client sees: the
// one place where store and signing errors become contract codes.
func asAPIError(err error) *Error {
	var apiErr *Error
	switch {
	case errors.As(err, &apiErr):
		return apiErr
	case errors.Is(err, store.ErrNotFound):
		return errNotFound
	case errors.Is(err, store.ErrVersionLocked):
		return errorf(http.StatusConflict, "version_locked", "The file's version is locked by a scan; register the file again to open a new version.")
	case errors.Is(err, store.ErrTooManyFiles):
		return errorf(http.StatusBadRequest, "invalid_request", "A version holds at most %d files.", maxFilesPerVersion)
	case errors.Is(err, signing.ErrExpired):
		return errorf(http.StatusForbidden, "url_expired", "This signed URL has expired; request a new one.")
	case errors.Is(err, signing.ErrSignature):
		return errorf(http.StatusForbidden, "signature_invalid", "This signed URL's signature is not valid.")
	case errors.Is(err, store.ErrScanNotComplete):
		return errorf(http.StatusConflict, "scan_not_complete", "The scan of this version is not complete; its findings can be acted on when it is.")
	case errors.Is(err, store.ErrDatabaseLocked):
		return errorf(http.StatusServiceUnavailable, "unavailable", "The service is temporarily unavailable.")
	default:
		return errorf(http.StatusInternalServerError, "internal", "Internal error; quote the request id when reporting it.")
	}
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	Param     string `json:"param,omitempty"`
	RequestID string `json:"requestId"`
}

// writeError renders err and logs it: the one place an error is logged.
// Server faults are logged with their cause; client errors only appear in
// the access log line (as its code).
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	info := requestInfoFrom(r.Context())
	if r.Context().Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		// The client went away (a browser cancels the images it scrolled
		// past): nothing failed and no one reads the answer. 499 is the
		// access log's usual mark for it.
		info.code = "client_closed"
		w.WriteHeader(statusClientClosed)
		return
	}
	apiErr := asAPIError(err)
	info.code = apiErr.Code
	if apiErr.Status >= 500 {
		route, path := loggedPath(r)
		s.log.ErrorContext(r.Context(), "request failed", "request_id", info.id, "method", r.Method,
			"route", route, "path", path, "error", err)
	}
	if apiErr.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(apiErr.RetryAfter))
	}
	if apiErr.Allow != "" {
		w.Header().Set("Allow", apiErr.Allow)
	}
	writeJSON(w, apiErr.Status, errorBody{Error: errorDetail{
		Code: apiErr.Code, Message: apiErr.Message, Param: apiErr.Param, RequestID: info.id,
	}})
}

// writeJSON writes v as the response body. Encoding errors cannot be
// reported to a client that already has a status line, so they are dropped.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
