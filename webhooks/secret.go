package webhooks

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"

	"planreview/api/signing"
)

// SecretPrefix starts every endpoint secret.
const SecretPrefix = "whsec_"

// SignatureHeader carries the delivery's signatures.
const SignatureHeader = "Planreview-Signature"

// NewSecret returns a fresh endpoint secret: the prefix and 256 random
// bits. The whole string, prefix included, is the HMAC key.
func NewSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return SecretPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// Sign is the hex HMAC-SHA256 of "<t>.<body>" under secret.
func Sign(secret string, t int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(t, 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// SignatureValue is the Planreview-Signature header of body sent at t:
// "t=<t>,v1=<sig>" with one v1 per secret (two during a rotation's grace
// period, the newest first).
func SignatureValue(secrets []string, t int64, body []byte) string {
	var b strings.Builder
	b.WriteString("t=")
	b.WriteString(strconv.FormatInt(t, 10))
	for _, s := range secrets {
		b.WriteString(",v1=")
		b.WriteString(Sign(s, t, body))
	}
	return b.String()
}

// Verify checks a Planreview-Signature header against body with secret:
// one v1 must match and t must be within tolerance seconds of now. It is
// what a receiver does (docs/webhooks.md), kept here for the tests.
func Verify(header, secret string, body []byte, now, tolerance int64) bool {
	var t int64 = -1
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(part, "=")
		switch {
		case !ok:
			return false
		case k == "t":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return false
			}
			t = n
		case k == "v1":
			sigs = append(sigs, v)
		}
	}
	if t < 0 || now-t > tolerance || t-now > tolerance {
		return false
	}
	want := Sign(secret, t, body)
	for _, s := range sigs {
		if hmac.Equal([]byte(s), []byte(want)) {
			return true
		}
	}
	return false
}

// Sealer encrypts endpoint secrets at rest (AES-256-GCM): the database, or
// a copy of it, does not hold them in clear. Its key derives from the
// appliance's signing key, which backups carry beside the database.
type Sealer struct{ aead cipher.AEAD }

// NewSealer makes a sealer from 32 bytes of key.
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != 32 {
		return nil, errors.New("webhook secret key must be 32 bytes")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal encrypts secret; the nonce leads the result.
func (s *Sealer) Seal(secret string) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return s.aead.Seal(nonce, nonce, []byte(secret), []byte("planreview webhook secret")), nil
}

// Open decrypts what Seal made.
func (s *Sealer) Open(sealed []byte) (string, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return "", errors.New("sealed webhook secret too short")
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], []byte("planreview webhook secret"))
	if err != nil {
		return "", errors.New("webhook secret does not open with this appliance's signing key")
	}
	return string(plain), nil
}

// SealerFromSigner derives the sealer from the appliance's signing key, so
// the key needs no file of its own and a restored backup opens its secrets.
func SealerFromSigner(s *signing.Signer) (*Sealer, error) {
	key, err := hex.DecodeString(s.Sign("planreview webhook secret sealing key"))
	if err != nil {
		return nil, err
	}
	return NewSealer(key)
}
