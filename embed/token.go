// Package embed mints and checks the signed tokens of hosted-screen links
// (R5.6): each grants one screen of one partner (and one job, for the job
// and chat screens) until it expires, and nothing more.
package embed

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"planreview/api/signing"
)

// Screens a link may grant.
const (
	ScreenLogin = "login"
	ScreenJob   = "job"
	ScreenChat  = "chat"
)

// Roles a link may carry: a viewer reads, an examiner also acts on
// findings (dispositions, edits, comments) in the job screen.
const (
	RoleViewer   = "viewer"
	RoleExaminer = "examiner"
)

// Claims is what a token grants.
type Claims struct {
	PartnerID string `json:"p"`
	Screen    string `json:"s"`
	JobID     string `json:"j,omitempty"`
	ExpiresAt int64  `json:"e"` // Unix seconds
	ID        string `json:"n"` // random, so two links are never equal
	// Role is RoleExaminer for a link that may act; "" reads as viewer,
	// so links minted before roles existed stay read-only.
	Role string `json:"r,omitempty"`
	// Actor is the person an examiner link acts as (nil for viewers).
	Actor *Actor `json:"a,omitempty"`
}

// Actor is the partner's user behind an examiner link.
type Actor struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Examiner reports whether the link may act on findings.
func (c Claims) Examiner() bool { return c.Role == RoleExaminer && c.Actor != nil }

// ErrMalformed means the string is not a token of this appliance.
var ErrMalformed = errors.New("malformed embed token")

// Tokens mints and verifies embed tokens with the appliance's signing
// secret, under a purpose label so no other signed value can pass as one.
type Tokens struct {
	Signer *signing.Signer
	Now    func() time.Time
}

const purpose = "embed-token-v1"

func (t *Tokens) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// Mint returns a viewer token for the screen, valid for ttl.
func (t *Tokens) Mint(partnerID, screen, jobID string, ttl time.Duration) (token string, c Claims, err error) {
	return t.MintClaims(Claims{PartnerID: partnerID, Screen: screen, JobID: jobID}, ttl)
}

// MintClaims returns a token for c (role and actor included), valid for
// ttl; expiry and random id are set here.
func (t *Tokens) MintClaims(c Claims, ttl time.Duration) (token string, _ Claims, err error) {
	var nonce [12]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return "", Claims{}, err
	}
	c.ExpiresAt, c.ID = t.now().Add(ttl).Unix(), hex.EncodeToString(nonce[:])
	raw, err := json.Marshal(c)
	if err != nil {
		return "", Claims{}, err
	}
	payload := base64.RawURLEncoding.EncodeToString(raw)
	return payload + "." + t.Signer.Sign(purpose, payload), c, nil
}

// Verify checks a token's signature, then its expiry, and returns what it
// grants: signing.ErrSignature for a tampered token, signing.ErrExpired for
// an old one.
func (t *Tokens) Verify(token string) (Claims, error) {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok || payload == "" || sig == "" {
		return Claims{}, ErrMalformed
	}
	if !signing.Equal(t.Signer.Sign(purpose, payload), sig) {
		return Claims{}, signing.ErrSignature
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return Claims{}, ErrMalformed
	}
	var c Claims
	if err := json.Unmarshal(raw, &c); err != nil {
		return Claims{}, ErrMalformed
	}
	if t.now().Unix() >= c.ExpiresAt {
		return c, signing.ErrExpired
	}
	return c, nil
}

// Grants reports whether the claims allow a screen for a job. A login
// token also opens the job screens of its own partner's jobs (the contract:
// "the partner's job list and the job screens reached from it"); the
// caller checks that the job is the partner's.
func (c Claims) Grants(screen, jobID string) bool {
	switch {
	case c.Screen == screen && screen == ScreenLogin:
		return true
	case c.Screen == screen:
		return c.JobID == jobID
	case c.Screen == ScreenLogin && screen == ScreenJob:
		return jobID != ""
	}
	return false
}
