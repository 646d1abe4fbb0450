package cmd

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUsageErrorsExit2: every command exits 2 on a usage error (unknown
// flag or command, missing argument or required flag, bad flag value,
// conflicting flags), with a message and a --help hint, so a script tells
// a typo from review's 1 (findings at or above --fail-on).
func TestUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	pdf := filepath.Join(dir, "f.pdf")
	if err := os.WriteFile(pdf, []byte("%PDF-1.7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"review", pdf, "--bogus"},
		{"review"},
		{"review", pdf, "other.pdf"},
		{"inspect"},
		{"inspect", pdf, "--page", "x"},
		{"inspect", "--bogus", pdf},
		{"bogus"},
		{"--bogus"},
		{"keys", "bogus"},
		{"keys", "issue"},
		{"keys", "rotate"},
		{"keys", "rotate", "key_x", "--grace", "soon"},
		{"keys", "list", "extra"},
		{"partners", "set"},
		{"partners", "show"},
		{"partners", "list", "extra"},
		{"partners", "set", "X", "--clear-frame-origins", "--frame-origin", "https://a.example"},
		{"partners", "set", "X", "--scan-quota", "many"},
		{"backup"},
		{"restore"},
		{"config", "show", "extra"},
		{"config", "bogus"},
		{"serve", "--bogus"},
		{"serve", "extra"},
		{"version", "extra"},
	} {
		res := runCLI(t, dir, args...)
		if res.code != 2 || !strings.HasPrefix(res.stderr, "planreview: ") || !strings.Contains(res.stderr, "--help") {
			t.Errorf("planreview %s: exit %d, stderr %q; want 2, a message and a --help hint", strings.Join(args, " "), res.code, res.stderr)
		}
	}
	// A group without a subcommand prints its help and succeeds.
	if res := runCLI(t, dir, "partners"); res.code != 0 || !strings.Contains(res.stdout, "list") {
		t.Errorf("planreview partners: exit %d, stdout %q; want its help", res.code, res.stdout)
	}
}

// TestKeysRotateTwiceRefuses: rotating a key that already has a live
// replacement is refused naming the replacement, and issues nothing.
func TestKeysRotateTwiceRefuses(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	startServer(t, dir)
	k := issueKey(t, dir, "Rotating")
	first := rotateKey(t, dir, k.KeyID, "1h")
	res := runCLI(t, dir, "keys", "rotate", k.KeyID, "--json")
	if res.code != 1 || !strings.Contains(res.stderr, first.KeyID) || strings.Contains(res.stdout, "prk_live_") {
		t.Errorf("second rotation: exit %d, stdout %q, stderr %q; want 1 naming %s and no key", res.code, res.stdout, res.stderr, first.KeyID)
	}
	if n := len(listKeys(t, dir)); n != 2 {
		t.Errorf("after a refused rotation %d keys exist, want 2", n)
	}
	// Once the replacement is revoked, the old key may be rotated again.
	mustCLI(t, dir, "keys", "revoke", first.KeyID)
	if second := rotateKey(t, dir, k.KeyID, "1h"); second.KeyID == first.KeyID {
		t.Errorf("rotation after revoking the replacement reissued %s", first.KeyID)
	}
}

type partnerJSON struct {
	PartnerID    string   `json:"partnerId"`
	Name         string   `json:"name"`
	ScanQuota    int      `json:"scanQuota"`
	RateLimit    float64  `json:"rateLimit"`
	RateBurst    int      `json:"rateBurst"`
	FrameOrigins []string `json:"frameOrigins"`
	Keys         []struct {
		KeyID  string `json:"keyId"`
		Status string `json:"status"`
	} `json:"keys"`
}

// TestPartnersCommands: `partners set` refuses an unknown name unless
// --create; list and show; origins cleared and limits reset to defaults.
// Run while serving (admin socket) and without a server (database).
func TestPartnersCommands(t *testing.T) {
	t.Parallel()
	for _, serving := range []bool{true, false} {
		dir := newDataDir(t)
		if serving {
			startServer(t, dir)
		}
		res := runCLI(t, dir, "partners", "set", "Springfeild", "--scan-quota", "5")
		if res.code != 1 || !strings.Contains(res.stderr, "Springfeild") || !strings.Contains(res.stderr, "--create") {
			t.Errorf("set of an unknown partner: exit %d, stderr %q; want 1 naming it and --create", res.code, res.stderr)
		}
		if res := mustCLI(t, dir, "partners", "list", "--json"); strings.TrimSpace(res.stdout) != "[]" {
			t.Errorf("a refused set created a partner: %s", res.stdout)
		}
		mustCLI(t, dir, "partners", "set", "Springfield", "--create", "--scan-quota", "5", "--rate-limit", "2",
			"--frame-origin", "https://permits.example.gov", "--frame-origin", "https://b.example.gov")
		key := issueKey(t, dir, "Springfield")
		issueKey(t, dir, "Another")

		var list []partnerJSON
		if err := json.Unmarshal([]byte(mustCLI(t, dir, "partners", "list", "--json").stdout), &list); err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || list[0].Name != "Another" || list[1].Name != "Springfield" || list[1].ScanQuota != 5 || len(list[1].FrameOrigins) != 2 {
			t.Errorf("partners list --json = %+v", list)
		}
		if table := mustCLI(t, dir, "partners", "list").stdout; !strings.Contains(table, "Springfield") || !strings.Contains(table, "default") {
			t.Errorf("partners list table:\n%s", table)
		}
		var show partnerJSON
		if err := json.Unmarshal([]byte(mustCLI(t, dir, "partners", "show", "Springfield", "--json").stdout), &show); err != nil {
			t.Fatal(err)
		}
		if show.PartnerID != key.PartnerID || len(show.Keys) != 1 || show.Keys[0].KeyID != key.KeyID {
			t.Errorf("partners show --json = %+v, want its one key %s", show, key.KeyID)
		}
		if text := mustCLI(t, dir, "partners", "show", "Springfield").stdout; !strings.Contains(text, key.KeyID) || strings.Contains(text, "prk_live_") {
			t.Errorf("partners show:\n%s", text)
		}
		if res := runCLI(t, dir, "partners", "show", "Nobody"); res.code != 1 || !strings.Contains(res.stderr, "Nobody") {
			t.Errorf("show of an unknown partner: exit %d, %q", res.code, res.stderr)
		}

		var after partnerJSON
		res = mustCLI(t, dir, "partners", "set", "Springfield", "--clear-frame-origins", "--reset-limits", "--rate-burst", "7", "--json")
		if err := json.Unmarshal([]byte(res.stdout), &after); err != nil {
			t.Fatal(err)
		}
		if len(after.FrameOrigins) != 0 || after.ScanQuota != 0 || after.RateLimit != 0 || after.RateBurst != 7 {
			t.Errorf("after --clear-frame-origins --reset-limits --rate-burst 7: %+v", after)
		}
	}
}

// TestUnknownEnvWarned: a misspelled PLANREVIEW_* variable is named in a
// warning at start-up, and the server still starts.
func TestUnknownEnvWarned(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	cmd := exec.Command(planreviewBinary(t), "serve", "--data-dir", dir, "--listen", "127.0.0.1:0")
	cmd.Env = childEnv("PLANREVIEW_SERVER_LISTN=0.0.0.0:80", "PLANREVIEW_SCAN_WORKERS=1")
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "planreview serving") {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start:\n%s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var warning string
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.Contains(line, "level=WARN") && strings.Contains(line, "environment variables") {
			warning = line
		}
	}
	if !strings.Contains(warning, "PLANREVIEW_SERVER_LISTN") || strings.Contains(warning, "PLANREVIEW_SCAN_WORKERS") {
		t.Errorf("start-up warning %q; want one naming PLANREVIEW_SERVER_LISTN only\n%s", warning, out)
	}
}

// TestBadDurationNamesKeyAndValue: a duration that does not parse is
// reported with its key and its value, from a file or the environment; a
// bare number (nanoseconds to mapstructure) is refused too.
func TestBadDurationNamesKeyAndValue(t *testing.T) {
	clearEnv(t)
	_, err := configFor(t, "--config", writeConfig(t, "server:\n  shutdown_timeout: soon\nscan:\n  timeout: 30\n"))
	for _, want := range []string{`server.shutdown_timeout: "soon"`, "scan.timeout: 30 "} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	t.Setenv("PLANREVIEW_UPLOADS_URL_TTL", "1 hour")
	if _, err := configFor(t); err == nil || !strings.Contains(err.Error(), `uploads.url_ttl: "1 hour"`) {
		t.Errorf("env duration error %v; want the key and the value", err)
	}
}

// TestConfigShow: every key with its effective value and source.
func TestConfigShow(t *testing.T) {
	t.Parallel()
	file := writeConfig(t, "server:\n  listen: 127.0.0.1:9999\nlog:\n  format: json\n")
	cmd := exec.Command(planreviewBinary(t), "config", "show", "--json", "--config", file, "--data-dir", "/srv/planreview",
		"--public-url", "https://plans.example.gov")
	cmd.Env = childEnv("PLANREVIEW_LOG_FORMAT=text", "PLANREVIEW_SCAN_WORKERS=3", "PLANREVIEW_BOGUS_KEY=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("config show: %v\n%s", err, stderr.String())
	}
	var settings []shownSetting
	if err := json.Unmarshal(out, &settings); err != nil {
		t.Fatal(err)
	}
	got := map[string]shownSetting{}
	for _, s := range settings {
		got[s.Key] = s
	}
	if len(got) != len(defaults) {
		t.Errorf("config show lists %d keys, the config has %d", len(got), len(defaults))
	}
	for key, want := range map[string][2]any{
		"server.listen":     {"127.0.0.1:9999", "file"},
		"log.format":        {"text", "env"},
		"scan.workers":      {float64(3), "env"},
		"data.dir":          {"/srv/planreview", "flag"},
		"server.public_url": {"https://plans.example.gov", "flag"},
		"scan.timeout":      {"30m0s", "default"},
	} {
		if s := got[key]; s.Value != want[0] || s.Source != want[1] {
			t.Errorf("%s = %v from %s, want %v from %s", key, s.Value, s.Source, want[0], want[1])
		}
	}
	if !strings.Contains(stderr.String(), "PLANREVIEW_BOGUS_KEY") {
		t.Errorf("config show did not warn about PLANREVIEW_BOGUS_KEY: %q", stderr.String())
	}
}

func TestSecretKeysRedacted(t *testing.T) {
	for key, secret := range map[string]bool{
		"metrics.token": true, "model.api_key": true, "server.tls_key_file": false,
		"model.api_key_file": false, "server.listen": false, "auth.password": true,
	} {
		if isSecretKey(key) != secret {
			t.Errorf("isSecretKey(%s) = %v, want %v", key, !secret, secret)
		}
	}
}
