package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The OpenAI-compatible chat-completions call, written out: one POST of
// a JSON body, one JSON reply. The servers operators run (Ollama, vLLM,
// llama.cpp, LocalAI) all speak this much of the protocol, and a client
// this small costs the binary nothing at start-up, which a full SDK did
// (a third of the process's initialisation, for every command).

// ModelMessage is one message of a chat-completions request. Content is a
// string, or a list of parts when an image goes with the text.
type ModelMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"` // string or []part
}

// part is one part of a message's content: text, or an image by URL.
type part struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

// SystemMessage, UserMessage and AssistantMessage make text messages.
func SystemMessage(text string) ModelMessage { return ModelMessage{Role: "system", Content: text} }
func UserMessage(text string) ModelMessage   { return ModelMessage{Role: "user", Content: text} }
func AssistantMessage(text string) ModelMessage {
	return ModelMessage{Role: "assistant", Content: text}
}

// UserMessageWithImage is a user message of text and one image, given as
// a URL (a data: URL for a rendered sheet).
func UserMessageWithImage(text, url string) ModelMessage {
	return ModelMessage{Role: "user", Content: []part{{Type: "text", Text: text}, {Type: "image_url", ImageURL: &imageURL{URL: url}}}}
}

type completionRequest struct {
	Model          string         `json:"model"`
	Messages       []ModelMessage `json:"messages"`
	Temperature    float64        `json:"temperature"`
	ResponseFormat responseFormat `json:"response_format"`
}

type responseFormat struct {
	Type string `json:"type"`
}

type completionReply struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
}

// Bounds on what is read back: a reply is a few kilobytes of JSON; a
// server that streams more is not one to wait for.
const (
	maxReplyBytes = 16 << 20
	maxErrorBytes = 4 << 10
)

// completeJSON posts the messages, asking for one JSON object at
// temperature 0, and decodes the reply. The API key, when set, goes only
// in the Authorization header; no error repeats it.
func (m *Model) completeJSON(ctx context.Context, messages []ModelMessage) (completionReply, error) {
	body, err := json.Marshal(completionRequest{Model: m.cfg.Name, Messages: messages, ResponseFormat: responseFormat{Type: "json_object"}})
	if err != nil {
		return completionReply{}, err
	}
	url := strings.TrimRight(m.cfg.BaseURL, "/") + "/chat/completions"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return completionReply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if m.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+m.cfg.APIKey)
	}
	resp, err := m.http.Do(req)
	if err != nil {
		return completionReply{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return completionReply{}, fmt.Errorf("POST %s: %s%s", url, resp.Status, errorDetail(resp.Body))
	}
	var reply completionReply
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxReplyBytes)).Decode(&reply); err != nil {
		return completionReply{}, fmt.Errorf("POST %s: the reply is not chat-completions JSON: %v", url, err)
	}
	return reply, nil
}

// errorDetail is the message of an OpenAI-style error body
// ({"error": {"message": …}}), or the start of a plain-text one.
func errorDetail(body io.Reader) string {
	raw, _ := io.ReadAll(io.LimitReader(body, maxErrorBytes))
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	msg := strings.TrimSpace(string(raw))
	if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
		msg = e.Error.Message
	}
	if msg == "" {
		return ""
	}
	if len(msg) > 300 {
		msg = msg[:300]
	}
	return ": " + msg
}
