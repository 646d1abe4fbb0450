package scan

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"planreview/chat"
)

// TestModelReviewVision: with PageImage set (model.vision), each sheet's
// request carries its text and its page image as a PNG data URL; a page
// whose image fails is still reviewed from its text.
func TestModelReviewVision(t *testing.T) {
	inputs := generatedSet(t)
	var mu sync.Mutex
	withImage, textOnly := map[string]bool{}, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string
			Messages []struct {
				Role    string
				Content json.RawMessage
			}
		}
		if json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) != 2 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		var parts []struct {
			Type     string
			Text     string
			ImageURL struct{ URL string } `json:"image_url"`
		}
		mu.Lock()
		if json.Unmarshal(req.Messages[1].Content, &parts) == nil {
			var text, img string
			for _, p := range parts {
				if p.Type == "text" {
					text = p.Text
				}
				if p.Type == "image_url" {
					img = p.ImageURL.URL
				}
			}
			raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(img, "data:image/png;base64,"))
			if strings.HasPrefix(img, "data:image/png;base64,") && err == nil && bytes.HasPrefix(raw, []byte("\x89PNG")) && strings.Contains(text, "<sheet_text>") {
				withImage[string(raw)] = true
			}
		} else {
			textOnly++
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "c", "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": `{"findings":[]}`}}}})
	}))
	t.Cleanup(srv.Close)

	p, err := NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	p.Model = chat.NewModel(chat.ModelConfig{BaseURL: srv.URL + "/v1", Name: "vision-7b", Timeout: 10 * time.Second, MaxConcurrency: 2})
	p.ModelConcurrency = 2
	var asked sync.Map
	p.PageImage = func(_ context.Context, path string, page int) ([]byte, error) {
		asked.Store(page, path)
		if page == 2 {
			return nil, errors.New("hostile page")
		}
		var buf bytes.Buffer
		img := image.NewGray(image.Rect(0, 0, 4+page, 4))
		if err := png.Encode(&buf, img); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	res, err := p.Review(context.Background(), inputs, quietProgress{})
	if err != nil {
		t.Fatal(err)
	}
	pages := len(res.Files[0].Pages)
	for n := 1; n <= pages; n++ {
		if path, ok := asked.Load(n); !ok || path != inputs[0].Path {
			t.Errorf("page %d: image not asked for (%v)", n, path)
		}
	}
	if len(withImage) != pages-1 || textOnly != 1 {
		t.Errorf("%d requests with distinct page images, %d text-only; want %d and 1", len(withImage), textOnly, pages-1)
	}
}
