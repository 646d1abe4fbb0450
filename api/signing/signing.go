// Package signing makes and checks the appliance's signed URLs and tokens
// with HMAC-SHA256 under a secret kept in the data folder.
package signing

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"planreview/store/durable"
)

// Errors of Verify, mapped to 403 url_expired and 403 signature_invalid.
var (
	ErrExpired   = errors.New("signed URL expired")
	ErrSignature = errors.New("signature invalid")
)

// Signer signs with one secret.
type Signer struct {
	secret []byte
	now    func() time.Time
}

// New makes a signer from a secret (tests, or a secret loaded elsewhere).
func New(secret []byte, now func() time.Time) *Signer {
	if now == nil {
		now = time.Now
	}
	return &Signer{secret: secret, now: now}
}

// LoadOrCreate reads the secret at path, or makes one (32 random bytes, hex,
// mode 0600) on first start. Reusing it keeps URLs issued before a restart
// valid.
func LoadOrCreate(path string) (*Signer, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		secret := make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
		if err := durable.WriteFile(path, []byte(hex.EncodeToString(secret)+"\n"), 0o600); err != nil {
			return nil, fmt.Errorf("write signing secret: %w", err)
		}
		return New(secret, nil), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read signing secret: %w", err)
	}
	secret, err := hex.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil || len(secret) < 32 {
		return nil, fmt.Errorf("signing secret %s is not 32+ bytes of hex", path)
	}
	return New(secret, nil), nil
}

// Sign returns the hex HMAC of the parts, joined by newlines (no part may
// contain one, so distinct part lists never collide).
func (s *Signer) Sign(parts ...string) string {
	mac := hmac.New(sha256.New, s.secret)
	for i, p := range parts {
		if i > 0 {
			mac.Write([]byte{'\n'})
		}
		mac.Write([]byte(p))
	}
	return hex.EncodeToString(mac.Sum(nil))
}

// SignExpiring signs parts plus an expiry ttl from now and returns the
// expiry as Unix seconds.
func (s *Signer) SignExpiring(ttl time.Duration, parts ...string) (signature string, expires int64) {
	expires = s.now().Add(ttl).Unix()
	return s.Sign(append(parts, strconv.FormatInt(expires, 10))...), expires
}

// Verify checks a signature made by SignExpiring. The signature is checked
// first, so a tampered expiry is a bad signature, not an expired URL.
func (s *Signer) Verify(signature, expires string, parts ...string) error {
	want := s.Sign(append(parts, expires)...)
	if !hmac.Equal([]byte(want), []byte(signature)) {
		return ErrSignature
	}
	exp, err := strconv.ParseInt(expires, 10, 64)
	if err != nil {
		return ErrSignature
	}
	if s.now().Unix() >= exp {
		return ErrExpired
	}
	return nil
}

// Equal compares two signatures in constant time.
func Equal(a, b string) bool { return hmac.Equal([]byte(a), []byte(b)) }
