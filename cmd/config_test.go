package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

// clearEnv hides the developer's PLANREVIEW_* settings from a test (viper
// treats an empty variable as unset).
func clearEnv(t *testing.T) {
	t.Helper()
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "PLANREVIEW_") {
			t.Setenv(name, "")
		}
	}
}

// writeConfig writes a YAML config file and returns its path.
func writeConfig(t *testing.T, yamlText string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "planreview.yaml")
	if err := os.WriteFile(path, []byte(yamlText), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// configFor parses args as `planreview serve ARGS` would (root persistent
// flags included) and loads the config the way the command does.
func configFor(t *testing.T, args ...string) (Config, error) {
	t.Helper()
	root := newRootCmd()
	serve, _, err := root.Find([]string{"serve"})
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.ParseFlags(args); err != nil {
		t.Fatalf("flags %v: %v", args, err)
	}
	configFile, err := serve.Flags().GetString("config")
	if err != nil {
		t.Fatal(err)
	}
	return loadConfig(newViper(), configFile, serve.Flags())
}

func TestConfigDefaultsNeedNoFile(t *testing.T) {
	clearEnv(t)
	cfg, err := configFor(t)
	if err != nil {
		t.Fatalf("no config file, no env, no flags: %v", err)
	}
	if cfg.Server.Listen != "127.0.0.1:8080" || cfg.Data.Dir != "./data" {
		t.Errorf("defaults listen %q, data dir %q; want 127.0.0.1:8080 and ./data", cfg.Server.Listen, cfg.Data.Dir)
	}
	if cfg.PublicBaseURL() != "http://127.0.0.1:8080" {
		t.Errorf("default public URL %q", cfg.PublicBaseURL())
	}
	if cfg.Limits.RateLimit != 20 || cfg.Limits.RateBurst != 100 || cfg.Limits.ScanQuota != 200 {
		t.Errorf("default limits %+v, want the contract's 20/s, burst 100, 200 scans", cfg.Limits)
	}
	if cfg.Log.Level != "info" || cfg.Server.ShutdownTimeout != 30*time.Second || cfg.Uploads.URLTTL != time.Hour {
		t.Errorf("defaults: %+v", cfg)
	}
	if cfg.AdminSocket() != filepath.Join("data", "admin.sock") {
		t.Errorf("admin socket %q", cfg.AdminSocket())
	}
}

// TestConfigPrecedence: defaults < config file < PLANREVIEW_* env < flags,
// key by key.
func TestConfigPrecedence(t *testing.T) {
	clearEnv(t)
	file := writeConfig(t, `
server:
  listen: "127.0.0.1:9001"
  public_url: "https://file.example.gov"
  shutdown_timeout: 5s
data:
  dir: /from/file
log:
  level: warn
limits:
  rate_limit: 7.5
  rate_burst: 9
uploads:
  cors_origins: ["https://file.example.gov"]
`)
	// File over defaults.
	cfg, err := configFor(t, "--config", file)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Server.Listen != "127.0.0.1:9001" || cfg.Data.Dir != "/from/file" || cfg.Log.Level != "warn" ||
		cfg.Limits.RateLimit != 7.5 || cfg.Limits.RateBurst != 9 || cfg.Server.ShutdownTimeout != 5*time.Second ||
		cfg.Server.PublicURL != "https://file.example.gov" || !slices.Equal(cfg.Uploads.CORSOrigins, []string{"https://file.example.gov"}) {
		t.Errorf("file values not applied: %+v", cfg)
	}
	if cfg.Limits.ScanQuota != 200 || cfg.Log.Format != "text" {
		t.Errorf("keys absent from the file lost their defaults: %+v", cfg)
	}

	// Env over file.
	t.Setenv("PLANREVIEW_SERVER_LISTEN", "127.0.0.1:9002")
	t.Setenv("PLANREVIEW_DATA_DIR", "/from/env")
	t.Setenv("PLANREVIEW_LOG_LEVEL", "debug")
	t.Setenv("PLANREVIEW_LIMITS_RATE_LIMIT", "3")
	t.Setenv("PLANREVIEW_SERVER_SHUTDOWN_TIMEOUT", "7s")
	t.Setenv("PLANREVIEW_UPLOADS_CORS_ORIGINS", "https://a.example.gov,https://b.example.gov")
	t.Setenv("PLANREVIEW_SCAN_MAX_PAGES", "50") // env with no file entry
	cfg, err = configFor(t, "--config", file)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Server.Listen != "127.0.0.1:9002" || cfg.Data.Dir != "/from/env" || cfg.Log.Level != "debug" ||
		cfg.Limits.RateLimit != 3 || cfg.Server.ShutdownTimeout != 7*time.Second || cfg.Scan.MaxPages != 50 ||
		!slices.Equal(cfg.Uploads.CORSOrigins, []string{"https://a.example.gov", "https://b.example.gov"}) {
		t.Errorf("env did not win over the file: %+v", cfg)
	}
	if cfg.Limits.RateBurst != 9 || cfg.Server.PublicURL != "https://file.example.gov" {
		t.Errorf("file values without env lost: %+v", cfg)
	}

	// Flags over env.
	cfg, err = configFor(t, "--config", file, "--listen", "127.0.0.1:9003", "--data-dir", "/from/flag",
		"--public-url", "https://flag.example.gov")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Server.Listen != "127.0.0.1:9003" || cfg.Data.Dir != "/from/flag" || cfg.Server.PublicURL != "https://flag.example.gov" {
		t.Errorf("flags did not win over env: %+v", cfg)
	}
	if cfg.Log.Level != "debug" {
		t.Errorf("env without a flag lost: %+v", cfg)
	}

	// Env over defaults without any file; a flag not given does not
	// override env with its empty default.
	cfg, err = configFor(t)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Server.Listen != "127.0.0.1:9002" || cfg.Data.Dir != "/from/env" {
		t.Errorf("env without a file: %+v", cfg)
	}
}

// TestServeUsesConfig runs the real serve command in-process with an
// already-cancelled context: it starts with file, env and flag settings,
// logs where it serves and stops at once.
func TestServeUsesConfig(t *testing.T) {
	clearEnv(t)
	fileDir, envDir, flagDir := newDataDir(t), newDataDir(t), newDataDir(t)
	file := writeConfig(t, "data:\n  dir: "+fileDir+"\nserver:\n  listen: 127.0.0.1:0\n  public_url: https://plans.example.gov\nlog:\n  format: json\n")

	run := func(args ...string) (string, error) {
		root := newRootCmd()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs(args)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := root.ExecuteContext(ctx)
		return out.String(), err
	}
	out, err := run("serve", "--config", file)
	if err != nil {
		t.Fatalf("serve with a config file: %v\n%s", err, out)
	}
	if !strings.Contains(out, `"msg":"planreview serving"`) || !strings.Contains(out, `"data_dir":"`+fileDir+`"`) ||
		!strings.Contains(out, `"public_url":"https://plans.example.gov"`) {
		t.Errorf("serve did not use the file's data dir, public URL and JSON logs:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(fileDir, "planreview.db")); err != nil {
		t.Errorf("no database in the configured data dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(fileDir, "admin.sock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("admin socket left after shutdown: %v", err)
	}

	t.Setenv("PLANREVIEW_DATA_DIR", envDir)
	if out, err = run("serve", "--config", file); err != nil || !strings.Contains(out, `"data_dir":"`+envDir+`"`) {
		t.Errorf("serve with PLANREVIEW_DATA_DIR: %v\n%s", err, out)
	}
	if out, err = run("serve", "--config", file, "--data-dir", flagDir); err != nil || !strings.Contains(out, `"data_dir":"`+flagDir+`"`) {
		t.Errorf("serve with --data-dir: %v\n%s", err, out)
	}
}

// TestConfigBadValues: each bad value stops start-up with a message that
// names the key at fault, before anything is created.
func TestConfigBadValues(t *testing.T) {
	clearEnv(t)
	cases := []struct {
		name, file string
		env        map[string]string
		args       []string
		want       string // in the error
	}{
		{name: "listen not host:port", file: "server:\n  listen: nope\n", want: "server.listen"},
		{name: "negative rate limit", file: "limits:\n  rate_limit: -1\n", want: "limits.rate_limit"},
		{name: "zero burst", file: "limits:\n  rate_burst: 0\n", want: "limits.rate_burst"},
		{name: "unknown log level", file: "log:\n  level: loud\n", want: "log.level"},
		{name: "unknown log format", file: "log:\n  format: xml\n", want: "log.format"},
		{name: "unknown key", file: "server:\n  listen_addr: 127.0.0.1:80\n", want: "listen_addr"},
		{name: "unknown section", file: "bogus:\n  x: 1\n", want: "bogus"},
		{name: "bad duration", file: "server:\n  shutdown_timeout: soon\n", want: "shutdown_timeout"},
		{name: "zero duration", file: "uploads:\n  url_ttl: 0s\n", want: "uploads.url_ttl"},
		{name: "public url with path", file: "server:\n  public_url: https://x.example.gov/app\n", want: "server.public_url"},
		{name: "bad cors origin", file: "uploads:\n  cors_origins: [\"*\"]\n", want: "uploads.cors_origins"},
		{name: "negative workers", file: "scan:\n  workers: -2\n", want: "scan.workers"},
		{name: "embed link under 5m", file: "embed:\n  link_ttl: 4m\n", want: "embed.link_ttl"},
		{name: "embed link over 60m", env: map[string]string{"PLANREVIEW_EMBED_LINK_TTL": "61m"}, want: "embed.link_ttl"},
		{name: "not YAML", file: "server: [\n", want: "config file"},
		{name: "env listen", env: map[string]string{"PLANREVIEW_SERVER_LISTEN": "nope"}, want: "server.listen"},
		{name: "env rate not a number", env: map[string]string{"PLANREVIEW_LIMITS_RATE_LIMIT": "fast"}, want: "rate_limit"},
		{name: "env level", env: map[string]string{"PLANREVIEW_LOG_LEVEL": "loud"}, want: "log.level"},
		{name: "flag listen", args: []string{"--listen", "nope"}, want: "server.listen"},
		{name: "flag public url", args: []string{"--public-url", "ftp://x"}, want: "server.public_url"},
		{name: "missing file", args: []string{"--config", "/nonexistent/planreview.yaml"}, want: "/nonexistent/planreview.yaml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			dataDir := filepath.Join(t.TempDir(), "data")
			args := append([]string{"serve", "--data-dir", dataDir}, tc.args...)
			if tc.file != "" {
				args = append(args, "--config", writeConfig(t, tc.file))
			}
			root := newRootCmd()
			var out bytes.Buffer
			root.SetOut(&out)
			root.SetErr(&out)
			root.SetArgs(args)
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // should it start after all, it stops at once
			err := root.ExecuteContext(ctx)
			if err == nil {
				t.Fatalf("serve started with a bad value; output:\n%s", out.String())
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not name %s", err, tc.want)
			}
			if exitCodeOf(err) == 0 {
				t.Errorf("exit code 0 for %v", err)
			}
			if _, statErr := os.Stat(dataDir); !errors.Is(statErr, os.ErrNotExist) {
				t.Errorf("a bad config still created the data dir")
			}
		})
	}
}

// TestConfigErrorsAreAllReported: several bad values are named at once, so
// an operator fixes them in one round.
func TestConfigErrorsAreAllReported(t *testing.T) {
	clearEnv(t)
	_, err := configFor(t, "--config", writeConfig(t, "server:\n  listen: nope\nlimits:\n  rate_limit: -1\nlog:\n  level: loud\n"))
	for _, key := range []string{"server.listen", "limits.rate_limit", "log.level"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("error %v does not name %s", err, key)
		}
	}
}

// flattenYAML turns nested maps into dotted keys; anything else is a leaf.
func flattenYAML(prefix string, m map[string]any, out map[string]any) {
	for k, v := range m {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			flattenYAML(key, sub, out)
			continue
		}
		out[key] = v
	}
}

// TestConfigExampleMatchesDefaults: config.example.yaml documents exactly
// the keys the binary knows, and is itself a valid config.
func TestConfigExampleMatchesDefaults(t *testing.T) {
	clearEnv(t)
	path := filepath.Join("..", "config.example.yaml")
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("config.example.yaml does not exist yet")
	}
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("config.example.yaml: %v", err)
	}
	example := map[string]any{}
	flattenYAML("", doc, example)
	for _, k := range slices.Sorted(maps.Keys(example)) {
		if _, ok := defaults[k]; !ok {
			t.Errorf("config.example.yaml has %s, which has no default (unknown to the binary?)", k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(defaults)) {
		if _, ok := example[k]; !ok {
			t.Errorf("default %s is not documented in config.example.yaml", k)
		}
	}
	fromExample, err := configFor(t, "--config", path)
	if err != nil {
		t.Fatalf("config.example.yaml does not load: %v", err)
	}
	// The example says it shows every key with its default.
	fromDefaults, err := configFor(t)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromExample, fromDefaults) {
		t.Errorf("config.example.yaml's values differ from the defaults:\nexample:  %+v\ndefaults: %+v", fromExample, fromDefaults)
	}
}

// configKeys lists the dotted mapstructure keys of Config's leaf fields.
func configKeys(prefix string, typ reflect.Type, out *[]string) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		key := f.Tag.Get("mapstructure")
		if prefix != "" {
			key = prefix + "." + key
		}
		if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeFor[time.Time]() {
			configKeys(key, f.Type, out)
			continue
		}
		*out = append(*out, key)
	}
}

// TestDefaultsMatchConfigStruct: every Config field has a default and
// every default is a Config field, so "defaults run with no file" holds.
func TestDefaultsMatchConfigStruct(t *testing.T) {
	clearEnv(t)
	var fields []string
	configKeys("", reflect.TypeFor[Config](), &fields)
	for _, k := range fields {
		if _, ok := defaults[k]; !ok {
			t.Errorf("Config field %s has no default", k)
		}
	}
	for k := range defaults {
		if !slices.Contains(fields, k) {
			t.Errorf("default %s is not a Config field", k)
		}
	}
	if _, err := loadConfig(newViper(), "", pflag.NewFlagSet("none", pflag.ContinueOnError)); err != nil {
		t.Errorf("defaults alone: %v", err)
	}
}

// TestAdminCommandsUseConfig: the admin commands take the data folder from
// --config and from PLANREVIEW_DATA_DIR, like serve (a subprocess each).
func TestAdminCommandsUseConfig(t *testing.T) {
	t.Parallel()
	fileDir, envDir := newDataDir(t), newDataDir(t)
	cfg := filepath.Join(t.TempDir(), "planreview.yaml")
	if err := os.WriteFile(cfg, []byte("data:\n  dir: "+fileDir+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	k := issueKeyArgs(t, nil, "keys", "issue", "--partner", "From File", "--json", "--config", cfg)
	if got := mustCLI(t, fileDir, "keys", "list"); !strings.Contains(got.stdout, k) {
		t.Errorf("keys issue --config did not write to the file's data.dir %s:\n%s", fileDir, got.stdout)
	}
	k = issueKeyArgs(t, []string{"PLANREVIEW_DATA_DIR=" + envDir}, "keys", "issue", "--partner", "From Env", "--json")
	if got := mustCLI(t, envDir, "keys", "list"); !strings.Contains(got.stdout, k) {
		t.Errorf("keys issue with PLANREVIEW_DATA_DIR did not write to %s:\n%s", envDir, got.stdout)
	}
	// The flag beats the environment.
	k = issueKeyArgs(t, []string{"PLANREVIEW_DATA_DIR=" + envDir}, "keys", "issue", "--partner", "From Flag", "--json", "--data-dir", fileDir)
	if got := mustCLI(t, fileDir, "keys", "list"); !strings.Contains(got.stdout, k) {
		t.Errorf("--data-dir did not beat PLANREVIEW_DATA_DIR:\n%s", got.stdout)
	}
}

// issueKeyArgs runs a keys issue command line with extra environment and
// returns the issued key's id.
func issueKeyArgs(t *testing.T, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, planreviewBinary(t), args...)
	cmd.Env = childEnv(env...)
	cmd.Dir = t.TempDir() // a stray ./data would land here, not in the repo
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("planreview %v: %v", args, err)
	}
	var k issuedKey
	if err := json.Unmarshal(out, &k); err != nil || k.KeyID == "" {
		t.Fatalf("planreview %v: %v\n%s", args, err, out)
	}
	return k.KeyID
}
