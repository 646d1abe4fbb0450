package signing

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func TestSignExpiringVerifiesUntilExpiry(t *testing.T) {
	c := &clock{now: time.Unix(1_700_000_000, 0)}
	s := New([]byte("0123456789abcdef0123456789abcdef"), c.Now)
	sig, exp := s.SignExpiring(time.Hour, "PUT", "file_1", "application/pdf")
	if exp != c.now.Add(time.Hour).Unix() {
		t.Fatalf("expires %d, want now+1h", exp)
	}
	expires := strconv.FormatInt(exp, 10)

	steps := []struct {
		at   time.Duration
		want error
	}{
		{0, nil},
		{time.Hour - time.Second, nil},
		{time.Hour, ErrExpired}, // expired at the expiry second itself
		{2 * time.Hour, ErrExpired},
	}
	for _, st := range steps {
		c.now = time.Unix(1_700_000_000, 0).Add(st.at)
		if err := s.Verify(sig, expires, "PUT", "file_1", "application/pdf"); !errors.Is(err, st.want) {
			t.Errorf("at +%v: Verify = %v, want %v", st.at, err, st.want)
		}
	}
}

func TestVerifyRejectsTampering(t *testing.T) {
	c := &clock{now: time.Unix(1_700_000_000, 0)}
	s := New([]byte("0123456789abcdef0123456789abcdef"), c.Now)
	sig, exp := s.SignExpiring(time.Hour, "PUT", "file_1", "application/pdf")
	expires := strconv.FormatInt(exp, 10)
	flip := func(h string) string {
		b := []byte(h)
		if b[0] == '0' {
			b[0] = '1'
		} else {
			b[0] = '0'
		}
		return string(b)
	}
	tests := []struct {
		name    string
		sig     string
		expires string
		parts   []string
	}{
		{"signature flipped", flip(sig), expires, []string{"PUT", "file_1", "application/pdf"}},
		{"signature upper-case", strings.ToUpper(sig), expires, []string{"PUT", "file_1", "application/pdf"}},
		{"signature empty", "", expires, []string{"PUT", "file_1", "application/pdf"}},
		{"expiry extended", sig, strconv.FormatInt(exp+3600, 10), []string{"PUT", "file_1", "application/pdf"}},
		{"expiry in the past (tampered, not expired)", sig, "1", []string{"PUT", "file_1", "application/pdf"}},
		{"expiry not a number", sig, "x", []string{"PUT", "file_1", "application/pdf"}},
		{"another file", sig, expires, []string{"PUT", "file_2", "application/pdf"}},
		{"another method", sig, expires, []string{"GET", "file_1", "application/pdf"}},
		{"another content type", sig, expires, []string{"PUT", "file_1", "text/html"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.Verify(tc.sig, tc.expires, tc.parts...); !errors.Is(err, ErrSignature) {
				t.Errorf("Verify = %v, want ErrSignature", err)
			}
		})
	}
	other := New([]byte("another secret, another appliance"), c.Now)
	if err := other.Verify(sig, expires, "PUT", "file_1", "application/pdf"); !errors.Is(err, ErrSignature) {
		t.Errorf("another secret verified the signature: %v", err)
	}
}

func TestNegativeTTLIsExpiredAtOnce(t *testing.T) {
	s := New([]byte("0123456789abcdef0123456789abcdef"), nil)
	sig, exp := s.SignExpiring(-time.Minute, "PUT", "f")
	if err := s.Verify(sig, strconv.FormatInt(exp, 10), "PUT", "f"); !errors.Is(err, ErrExpired) {
		t.Errorf("Verify = %v, want ErrExpired", err)
	}
}

func TestLoadOrCreateWritesA0600SecretAndReusesIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signing.key")
	first, err := LoadOrCreate(path)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := info.Mode().Perm(); mode != 0o600 {
		t.Errorf("secret file mode %o, want 600", mode)
	}
	raw, _ := os.ReadFile(path)
	if secret, err := hex.DecodeString(strings.TrimSpace(string(raw))); err != nil || len(secret) < 32 {
		t.Errorf("secret file holds %q, want 32+ bytes of hex", raw)
	}

	sig, exp := first.SignExpiring(time.Hour, "PUT", "file_1")
	second, err := LoadOrCreate(path) // a restart
	if err != nil {
		t.Fatal(err)
	}
	if err := second.Verify(sig, strconv.FormatInt(exp, 10), "PUT", "file_1"); err != nil {
		t.Errorf("a URL signed before the restart does not verify after it: %v", err)
	}
	after, _ := os.ReadFile(path)
	if string(after) != string(raw) {
		t.Errorf("LoadOrCreate rewrote an existing secret")
	}

	// Two fresh data folders get different secrets.
	third, err := LoadOrCreate(filepath.Join(t.TempDir(), "signing.key"))
	if err != nil {
		t.Fatal(err)
	}
	if err := third.Verify(sig, strconv.FormatInt(exp, 10), "PUT", "file_1"); !errors.Is(err, ErrSignature) {
		t.Errorf("another appliance's secret verified the URL: %v", err)
	}
}

func TestLoadOrCreateRefusesABadSecretFile(t *testing.T) {
	dir := t.TempDir()
	tests := map[string]string{
		"short":   hex.EncodeToString(make([]byte, 16)),
		"not hex": strings.Repeat("zz", 32),
		"empty":   "",
	}
	for name, content := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadOrCreate(path); err == nil {
				t.Errorf("LoadOrCreate accepted a %s secret", name)
			}
			if got, _ := os.ReadFile(path); string(got) != content {
				t.Errorf("LoadOrCreate overwrote a bad secret file instead of refusing it")
			}
		})
	}
	// A folder that cannot hold the file is an error, not a panic.
	if _, err := LoadOrCreate(filepath.Join(dir, "missing", "dir", "signing.key")); err == nil {
		t.Errorf("LoadOrCreate in a missing folder succeeded")
	}
}
