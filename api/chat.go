package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"planreview/chat"
	"planreview/store"
)

// Chat answers questions about a scanned version from its stored index
// (chat.Responder).
type Chat interface {
	// Cached reports whether the version's index is held decoded, so the
	// stored form need not be read again.
	Cached(versionID string) bool
	Ask(ctx context.Context, versionID string, index []byte, question string, history []chat.Message) (chat.Answer, error)
}

// Chat request limits (contract "Chat").
const (
	maxChatMessage = 4000
	maxChatHistory = 50
	// maxHistoryContent bounds one earlier turn: an assistant answer may be
	// longer than a question, but not unbounded.
	maxHistoryContent = 20000
)

type chatHistoryItem struct {
	Role    *string `json:"role"`
	Content *string `json:"content"`
}

type chatRequest struct {
	Message   *string           `json:"message"`
	History   []chatHistoryItem `json:"history"`
	VersionID *string           `json:"versionId"`
}

func (req chatRequest) validate() error {
	if req.Message == nil || strings.TrimSpace(*req.Message) == "" {
		return &Error{Status: http.StatusBadRequest, Code: "missing_message", Param: "message",
			Message: "message is required and must not be blank."}
	}
	if err := checkText("message", req.Message, true, maxChatMessage); err != nil {
		return err
	}
	if len(req.History) > maxChatHistory {
		return invalidParam("history", "history has %d items; at most %d are allowed.", len(req.History), maxChatHistory)
	}
	for i, h := range req.History {
		at := "history[" + strconv.Itoa(i) + "]"
		if h.Role == nil || (*h.Role != "user" && *h.Role != "assistant") {
			return invalidParam(at+".role", "%s.role must be \"user\" or \"assistant\".", at)
		}
		if h.Content == nil {
			return invalidParam(at+".content", "%s.content is required.", at)
		}
		if err := checkText(at+".content", h.Content, false, maxHistoryContent); err != nil {
			return err
		}
	}
	if req.VersionID != nil && !utf8.ValidString(*req.VersionID) {
		return invalidParam("versionId", "versionId is not valid UTF-8.")
	}
	return nil
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) error {
	jobID := r.PathValue("jobId")
	if !store.ValidID(jobID, store.PrefixJob) {
		return errNotFound
	}
	var req chatRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if err := req.validate(); err != nil {
		return err
	}
	versionID := deref(req.VersionID)
	if versionID != "" && !store.ValidID(versionID, store.PrefixVersion) {
		return errNotFound
	}
	need := func(versionID string) bool { return !s.chatter.Cached(versionID) }
	v, index, found, err := s.store.ChatIndex(principalFrom(r.Context()).partner.ID, jobID, versionID, need)
	if err != nil {
		return err
	}
	switch {
	case v.Status == store.StatusFailed:
		msg := "The scan of this version failed; there is nothing to chat about."
		if e := v.Pipeline.Error; e != nil {
			msg = fmt.Sprintf("The scan of this version failed (%s): %s", e.Code, e.Message)
		}
		return errorf(http.StatusConflict, "scan_not_complete", "%s", msg)
	case v.Status != store.StatusComplete:
		return errorf(http.StatusConflict, "scan_not_complete",
			"The scan of this version is %s; chat is available when it is complete.", v.Status)
	case !found:
		return errorf(http.StatusConflict, "scan_not_complete",
			"This version was scanned before chat was available; upload the set as a new version to chat about it.")
	}
	history := make([]chat.Message, len(req.History))
	for i, h := range req.History {
		history[i] = chat.Message{Role: *h.Role, Content: *h.Content}
	}
	answer, err := s.chatter.Ask(r.Context(), v.ID, index, *req.Message, history)
	if errors.Is(err, chat.ErrNotCached) { // evicted between the two looks: read the stored form
		if _, index, _, err = s.store.ChatIndex(principalFrom(r.Context()).partner.ID, jobID, v.ID, nil); err == nil {
			answer, err = s.chatter.Ask(r.Context(), v.ID, index, *req.Message, history)
		}
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, chatResponse{JobID: jobID, VersionID: v.ID, Answer: answer.Answer,
		Citations: answer.Citations, Source: answer.Source})
	return nil
}

type chatResponse struct {
	JobID     string          `json:"jobId"`
	VersionID string          `json:"versionId"`
	Answer    string          `json:"answer"`
	Citations []chat.Citation `json:"citations"`
	// Source says who wrote the answer: "builtin" (from the plan's own
	// text, no model) or "model".
	Source string `json:"source"`
}
