package cmd

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"planreview/api"
	"planreview/scan/pdftext"
)

// Config is every setting of the appliance. Each key is documented with its
// default in config.example.yaml; config_test.go keeps the two in step.
type Config struct {
	Server    ServerConfig    `mapstructure:"server"`
	Data      DataConfig      `mapstructure:"data"`
	Log       LogConfig       `mapstructure:"log"`
	Limits    LimitsConfig    `mapstructure:"limits"`
	Uploads   UploadsConfig   `mapstructure:"uploads"`
	Downloads DownloadsConfig `mapstructure:"downloads"`
	Scan      ScanConfig      `mapstructure:"scan"`
	Codes     CodesConfig     `mapstructure:"codes"`
	Laws      LawsConfig      `mapstructure:"laws"`
	Metrics   MetricsConfig   `mapstructure:"metrics"`
	Embed     EmbedConfig     `mapstructure:"embed"`
	Model     ModelConfig     `mapstructure:"model"`
	Webhooks  WebhooksConfig  `mapstructure:"webhooks"`
}

type ServerConfig struct {
	Listen            string        `mapstructure:"listen"`
	PublicURL         string        `mapstructure:"public_url"`
	ReadHeaderTimeout time.Duration `mapstructure:"read_header_timeout"`
	ReadTimeout       time.Duration `mapstructure:"read_timeout"`
	WriteTimeout      time.Duration `mapstructure:"write_timeout"`
	IdleTimeout       time.Duration `mapstructure:"idle_timeout"`
	ShutdownTimeout   time.Duration `mapstructure:"shutdown_timeout"`
	TLSCertFile       string        `mapstructure:"tls_cert_file"`
	TLSKeyFile        string        `mapstructure:"tls_key_file"`
	TrustedProxies    []string      `mapstructure:"trusted_proxies"`
}

type DataConfig struct {
	Dir         string        `mapstructure:"dir"`
	OrphanGrace time.Duration `mapstructure:"orphan_grace"`
}

type LogConfig struct {
	Level  string `mapstructure:"level"`
	Format string `mapstructure:"format"`
}

type LimitsConfig struct {
	RateLimit float64 `mapstructure:"rate_limit"`
	RateBurst int     `mapstructure:"rate_burst"`
	ScanQuota int     `mapstructure:"scan_quota"`
}

type UploadsConfig struct {
	URLTTL      time.Duration `mapstructure:"url_ttl"`
	CORSOrigins []string      `mapstructure:"cors_origins"`
}

type DownloadsConfig struct {
	URLTTL time.Duration `mapstructure:"url_ttl"`
}

type ScanConfig struct {
	Workers       int               `mapstructure:"workers"`
	Timeout       time.Duration     `mapstructure:"timeout"`
	MaxPages      int               `mapstructure:"max_pages"`
	MaxAttempts   int               `mapstructure:"max_attempts"`
	MemoryLimitMB int               `mapstructure:"memory_limit_mb"`
	Budgets       ScanBudgetsConfig `mapstructure:"budgets"`
}

// ScanBudgetsConfig bounds the extractor's work per page and per file
// (pdftext.Budgets; docs/budgets.md has the corpus figures behind them).
type ScanBudgetsConfig struct {
	ContentMBPerPage       int `mapstructure:"content_mb_per_page"`
	OperatorsPerPage       int `mapstructure:"operators_per_page"`
	FormDepth              int `mapstructure:"form_depth"`
	FormsPerPage           int `mapstructure:"forms_per_page"`
	InlineImagesPerPage    int `mapstructure:"inline_images_per_page"`
	ObjectsResolvedPerPage int `mapstructure:"objects_resolved_per_page"`
	PageTreeNodes          int `mapstructure:"page_tree_nodes"`
	Objects                int `mapstructure:"objects"`
	ObjectSpanMB           int `mapstructure:"object_span_mb"`
}

// PDFBudgets is the extractor's form of the budgets.
func (b ScanBudgetsConfig) PDFBudgets() pdftext.Budgets {
	return pdftext.Budgets{
		ContentBytesPerPage: int64(b.ContentMBPerPage) << 20,
		OpsPerPage:          b.OperatorsPerPage,
		FormDepth:           b.FormDepth,
		FormsPerPage:        b.FormsPerPage,
		InlineImagesPerPage: b.InlineImagesPerPage,
		ResolvesPerPage:     b.ObjectsResolvedPerPage,
		PageTreeNodes:       b.PageTreeNodes,
		Objects:             b.Objects,
		ObjectSpan:          int64(b.ObjectSpanMB) << 20,
	}
}

type MetricsConfig struct {
	Listen    string `mapstructure:"listen"`
	TokenFile string `mapstructure:"token_file"`
}

type CodesConfig struct {
	Adopted      []string `mapstructure:"adopted"`
	Jurisdiction string   `mapstructure:"jurisdiction"`
}

// EmbedConfig are the hosted-screen settings (endpoint 12).
type EmbedConfig struct {
	LinkTTL time.Duration `mapstructure:"link_ttl"`
	// PDFiumCacheDir keeps the compiled sheet-image renderer; "" means
	// data.dir/sheet-images/wasm.
	PDFiumCacheDir string `mapstructure:"pdfium_cache_dir"`
}

// LawsConfig are the local-law snapshot settings (laws.go).
type LawsConfig struct {
	MaxStaleness time.Duration `mapstructure:"max_staleness"`
}

// ModelConfig points at an optional OpenAI-compatible chat-completions
// server (contract "On-prem model"); an empty base_url means no model.
type ModelConfig struct {
	BaseURL        string        `mapstructure:"base_url"`
	Name           string        `mapstructure:"name"`
	APIKeyFile     string        `mapstructure:"api_key_file"`
	Timeout        time.Duration `mapstructure:"timeout"`
	MaxConcurrency int           `mapstructure:"max_concurrency"`
	Vision         bool          `mapstructure:"vision"`
}

// defaults are the settings with no config file, env or flag: enough to run.
var defaults = map[string]any{
	"server.listen":              "127.0.0.1:8080",
	"server.public_url":          "",
	"server.read_header_timeout": 10 * time.Second,
	"server.read_timeout":        15 * time.Minute,
	"server.write_timeout":       15 * time.Minute,
	"server.idle_timeout":        2 * time.Minute,
	"server.shutdown_timeout":    30 * time.Second,
	"server.tls_cert_file":       "",
	"server.tls_key_file":        "",
	"server.trusted_proxies":     []string{},
	"data.dir":                   "./data",
	"log.level":                  "info",
	"log.format":                 "text",
	"limits.rate_limit":          20.0,
	"limits.rate_burst":          100,
	"limits.scan_quota":          200,
	"uploads.url_ttl":            time.Hour,
	"data.orphan_grace":          24 * time.Hour,
	"uploads.cors_origins":       []string{},
	"downloads.url_ttl":          15 * time.Minute,
	"scan.workers":               0,
	"scan.timeout":               30 * time.Minute,
	"scan.max_pages":             2000,
	"scan.max_attempts":          3,
	"scan.memory_limit_mb":       384,
	"codes.adopted":              []string{"ibc-2021", "irc-2021"},
	"codes.jurisdiction":         "",
	"laws.max_staleness":         90 * 24 * time.Hour,
	"metrics.listen":             "",
	"metrics.token_file":         "",

	// The extractor's defaults (pdftext.DefaultBudgets), spelled out.
	"scan.budgets.content_mb_per_page":       64,
	"scan.budgets.operators_per_page":        20_000_000,
	"scan.budgets.form_depth":                16,
	"scan.budgets.forms_per_page":            100_000,
	"scan.budgets.inline_images_per_page":    200_000,
	"scan.budgets.objects_resolved_per_page": 5_000_000,
	"scan.budgets.page_tree_nodes":           100_000,
	"scan.budgets.objects":                   200_000,
	"scan.budgets.object_span_mb":            8,
	"embed.link_ttl":                         30 * time.Minute,
	"embed.pdfium_cache_dir":                 "",
	"model.base_url":                         "",
	"model.name":                             "",
	"model.api_key_file":                     "",
	"model.timeout":                          120 * time.Second,
	"model.max_concurrency":                  2,
	"model.vision":                           false,
}

// flagKeys maps the persistent and per-command flags onto config keys.
var flagKeys = map[string]string{
	"listen":     "server.listen",
	"data-dir":   "data.dir",
	"public-url": "server.public_url",
}

// newViper makes the one viper instance of a process: defaults, then the
// config file (if given), then PLANREVIEW_<SECTION>_<KEY> env, then flags.
func newViper() *viper.Viper {
	v := viper.New()
	for k, val := range defaults {
		v.SetDefault(k, val)
	}
	v.SetEnvPrefix("PLANREVIEW")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	return v
}

// loadConfig reads the config file (if any), binds the flags the command
// has, and returns the validated config.
func loadConfig(v *viper.Viper, configFile string, flags *pflag.FlagSet) (Config, error) {
	if configFile != "" {
		v.SetConfigFile(configFile)
		if err := v.ReadInConfig(); err != nil {
			return Config{}, fmt.Errorf("config file %s: %w", configFile, err)
		}
	}
	for flag, key := range flagKeys {
		if f := flags.Lookup(flag); f != nil {
			if err := v.BindPFlag(key, f); err != nil {
				return Config{}, err
			}
		}
	}
	var cfg Config
	err := v.UnmarshalExact(&cfg, func(dc *mapstructure.DecoderConfig) {
		dc.DecodeHook = mapstructure.ComposeDecodeHookFunc(
			durationHook,
			stringToSliceHook,
		)
	})
	if err != nil {
		return Config{}, decodeErrors(err)
	}
	return cfg, cfg.Validate()
}

// stringToSliceHook lets env vars carry lists: "a,b" or "a b".
func stringToSliceHook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String || to.Kind() != reflect.Slice {
		return data, nil
	}
	s := strings.TrimSpace(data.(string))
	if s == "" {
		return []string{}, nil
	}
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }), nil
}

// Validate checks every value and names the key at fault.
func (c *Config) Validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", key, fmt.Sprintf(format, args...)))
	}
	if _, _, err := net.SplitHostPort(c.Server.Listen); err != nil {
		bad("server.listen", "%q is not host:port", c.Server.Listen)
	}
	if c.Server.PublicURL != "" {
		u, err := url.Parse(c.Server.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			bad("server.public_url", "%q is not an http(s) URL without a path", c.Server.PublicURL)
		}
	}
	for key, d := range map[string]time.Duration{
		"server.read_header_timeout": c.Server.ReadHeaderTimeout,
		"server.read_timeout":        c.Server.ReadTimeout,
		"server.write_timeout":       c.Server.WriteTimeout,
		"server.idle_timeout":        c.Server.IdleTimeout,
		"server.shutdown_timeout":    c.Server.ShutdownTimeout,
		"uploads.url_ttl":            c.Uploads.URLTTL,
		"downloads.url_ttl":          c.Downloads.URLTTL,
		"scan.timeout":               c.Scan.Timeout,
		"data.orphan_grace":          c.Data.OrphanGrace,
		"laws.max_staleness":         c.Laws.MaxStaleness,
		"model.timeout":              c.Model.Timeout,
	} {
		if d <= 0 {
			bad(key, "must be a positive duration, got %s", d)
		}
	}
	if c.Embed.LinkTTL < 5*time.Minute || c.Embed.LinkTTL > time.Hour {
		bad("embed.link_ttl", "must be from 5m to 60m (the contract's link lifetime), got %s", c.Embed.LinkTTL)
	}
	if c.Data.Dir == "" {
		bad("data.dir", "must not be empty")
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(c.Log.Level)); err != nil {
		bad("log.level", "%q is not debug, info, warn or error", c.Log.Level)
	}
	if c.Log.Format != "text" && c.Log.Format != "json" {
		bad("log.format", "%q is not text or json", c.Log.Format)
	}
	if c.Limits.RateLimit <= 0 {
		bad("limits.rate_limit", "must be > 0 requests per second")
	}
	if c.Limits.RateBurst < 1 {
		bad("limits.rate_burst", "must be >= 1")
	}
	if c.Limits.ScanQuota < 1 {
		bad("limits.scan_quota", "must be >= 1")
	}
	for _, o := range c.Uploads.CORSOrigins {
		if !api.ValidOrigin(o) {
			bad("uploads.cors_origins", "%q is not an origin like https://permits.example.gov", o)
		}
	}
	if c.Scan.Workers < 0 {
		bad("scan.workers", "must be >= 0 (0 = one per CPU)")
	}
	if c.Scan.MaxPages < 1 {
		bad("scan.max_pages", "must be >= 1")
	}
	errs = append(errs, c.validateNetwork()...)
	errs = append(errs, c.validateWebhooks()...)
	if c.Scan.MaxAttempts < 1 {
		bad("scan.max_attempts", "must be >= 1")
	}
	if c.Scan.MemoryLimitMB < 64 {
		bad("scan.memory_limit_mb", "must be >= 64 (MiB)")
	}
	b := c.Scan.Budgets
	for key, v := range map[string]int{
		"scan.budgets.content_mb_per_page":       b.ContentMBPerPage,
		"scan.budgets.operators_per_page":        b.OperatorsPerPage,
		"scan.budgets.form_depth":                b.FormDepth,
		"scan.budgets.forms_per_page":            b.FormsPerPage,
		"scan.budgets.inline_images_per_page":    b.InlineImagesPerPage,
		"scan.budgets.objects_resolved_per_page": b.ObjectsResolvedPerPage,
		"scan.budgets.page_tree_nodes":           b.PageTreeNodes,
		"scan.budgets.objects":                   b.Objects,
		"scan.budgets.object_span_mb":            b.ObjectSpanMB,
	} {
		if v < 1 {
			bad(key, "must be >= 1")
		}
	}
	if c.Model.BaseURL != "" {
		u, err := url.Parse(c.Model.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("model.base_url", "%q is not an http(s) URL such as http://127.0.0.1:11434/v1", c.Model.BaseURL)
		}
		if strings.TrimSpace(c.Model.Name) == "" {
			bad("model.name", "must name the model when model.base_url is set")
		}
	}
	if c.Model.MaxConcurrency < 1 {
		bad("model.max_concurrency", "must be >= 1")
	}
	return errors.Join(errs...)
}

// PublicBaseURL is where partners and browsers reach the appliance: the
// configured public URL, or http://listen-address.
func (c *Config) PublicBaseURL() string {
	if c.Server.PublicURL != "" {
		return strings.TrimSuffix(c.Server.PublicURL, "/")
	}
	return c.ListenScheme() + "://" + c.Server.Listen
}

// ScanWorkers resolves 0 to one worker per CPU.
func (c *Config) ScanWorkers() int {
	if c.Scan.Workers > 0 {
		return c.Scan.Workers
	}
	return runtime.NumCPU()
}

// DBPath, AdminSocket and the other paths live under the data folder.
func (c *Config) DBPath() string      { return filepath.Join(c.Data.Dir, "planreview.db") }
func (c *Config) AdminSocket() string { return filepath.Join(c.Data.Dir, "admin.sock") }
func (c *Config) SecretPath() string  { return filepath.Join(c.Data.Dir, "signing.key") }
func (c *Config) FilesDir() string    { return filepath.Join(c.Data.Dir, "files") }

// ModelKey reads model.api_key_file ("" when none is configured). The
// key is sent only to model.base_url, never logged.
func (c *Config) ModelKey() (string, error) {
	if c.Model.APIKeyFile == "" {
		return "", nil
	}
	raw, err := os.ReadFile(c.Model.APIKeyFile)
	if err != nil {
		return "", fmt.Errorf("model.api_key_file: %w", err)
	}
	return strings.TrimSpace(string(raw)), nil
}

// ensureDataDir creates the data folder, private to the service user.
func (c *Config) ensureDataDir() error {
	if err := os.MkdirAll(c.Data.Dir, 0o700); err != nil {
		return fmt.Errorf("data.dir: %w", err)
	}
	return nil
}
