package ui_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"planreview/ui"
)

// TestHomeInHeadlessChromium loads the front page in a real browser and
// checks that it renders and fetches its stylesheet from the appliance.
func TestHomeInHeadlessChromium(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (apt-get install chromium)")
	}
	var cssRequests atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		info := ui.HomeInfo{Version: "1.2.3-test", APIVersion: "1.0.0", PublicURL: "http://" + r.Host}
		if err := ui.Home(info).Render(r.Context(), w); err != nil {
			t.Error(err)
		}
	})
	assets := http.StripPrefix("/assets", http.FileServerFS(ui.Assets()))
	mux.HandleFunc("GET /assets/{name}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("name") == "app.css" {
			cssRequests.Add(1)
		}
		assets.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--user-data-dir="+t.TempDir(), "--virtual-time-budget=2000", "--dump-dom", srv.URL+"/").Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	dom := string(out)
	for _, want := range []string{`<dd id="version">1.2.3-test</dd>`, "/api/v1/openapi.json", "planreview keys issue"} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered page lacks %q", want)
		}
	}
	if cssRequests.Load() == 0 {
		t.Error("the browser never fetched /assets/app.css")
	}
}

func TestAssetsEmbedded(t *testing.T) {
	srv := httptest.NewServer(http.StripPrefix("/assets", http.FileServerFS(ui.Assets())))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/assets/app.css")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/css") {
		t.Fatalf("app.css: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// TestHomeAgreesWithTheREADMEOnBackups: the front page says what the README
// says a backup holds (one archive: database, uploads, marked-up copies and
// signing key), not that files must be copied beside it.
func TestHomeAgreesWithTheREADMEOnBackups(t *testing.T) {
	var b strings.Builder
	if err := ui.Home(ui.HomeInfo{Version: "1", APIVersion: "1.0.0", PublicURL: "http://127.0.0.1:8080"}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"database", "uploads", "marked-up copies", "signing key"} {
		if !strings.Contains(b.String(), part) {
			t.Errorf("front page: the backup's %s not named", part)
		}
		if !strings.Contains(string(readme), part) {
			t.Errorf("README: the backup's %s not named", part)
		}
	}
	if strings.Contains(b.String(), "plus its") {
		t.Error("front page still tells operators to copy files beside the backup")
	}
}
