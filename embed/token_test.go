package embed

import (
	"errors"
	"strings"
	"testing"
	"time"

	"planreview/api/signing"
)

func newTokens(now *time.Time) *Tokens {
	clock := func() time.Time { return *now }
	return &Tokens{Signer: signing.New([]byte("0123456789abcdef0123456789abcdef"), clock), Now: clock}
}

func TestMintVerifyRoundTrip(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	tokens := newTokens(&now)
	tok, minted, err := tokens.Mint("ptr_A", ScreenJob, "job_1", 30*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tokens.Verify(tok)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if got != minted || got.ExpiresAt != now.Add(30*time.Minute).Unix() {
		t.Fatalf("claims = %+v, want %+v", got, minted)
	}
	again, _, _ := tokens.Mint("ptr_A", ScreenJob, "job_1", 30*time.Minute)
	if again == tok {
		t.Fatal("two links for the same screen are equal; the random id is missing")
	}
}

func TestVerifyRejects(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	tokens := newTokens(&now)
	tok, _, _ := tokens.Mint("ptr_A", ScreenChat, "job_1", 30*time.Minute)
	payload, sig, _ := strings.Cut(tok, ".")
	other := &Tokens{Signer: signing.New([]byte("another secret of thirty-two b.."), nil), Now: tokens.Now}
	foreign, _, _ := other.Mint("ptr_A", ScreenChat, "job_1", 30*time.Minute)

	cases := []struct {
		name  string
		token string
		want  error
	}{
		{"empty", "", ErrMalformed},
		{"no signature", payload, ErrMalformed},
		{"tampered payload", "x" + payload + "." + sig, signing.ErrSignature},
		{"tampered signature", payload + "." + strings.Repeat("0", len(sig)), signing.ErrSignature},
		{"other appliance's secret", foreign, signing.ErrSignature},
		{"signed URL value passed off as a token", payload + "." + tokens.Signer.Sign(payload), signing.ErrSignature},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tokens.Verify(tc.token); !errors.Is(err, tc.want) {
				t.Fatalf("Verify = %v, want %v", err, tc.want)
			}
		})
	}

	now = now.Add(30 * time.Minute)
	if _, err := tokens.Verify(tok); !errors.Is(err, signing.ErrExpired) {
		t.Fatalf("after 30 minutes Verify = %v, want ErrExpired", err)
	}
}

func TestGrantsOneScreen(t *testing.T) {
	cases := []struct {
		claims        Claims
		screen, jobID string
		want          bool
	}{
		{Claims{Screen: ScreenJob, JobID: "job_1"}, ScreenJob, "job_1", true},
		{Claims{Screen: ScreenJob, JobID: "job_1"}, ScreenJob, "job_2", false},
		{Claims{Screen: ScreenJob, JobID: "job_1"}, ScreenChat, "job_1", false},
		{Claims{Screen: ScreenJob, JobID: "job_1"}, ScreenLogin, "", false},
		{Claims{Screen: ScreenChat, JobID: "job_1"}, ScreenChat, "job_1", true},
		{Claims{Screen: ScreenChat, JobID: "job_1"}, ScreenJob, "job_1", false},
		{Claims{Screen: ScreenLogin}, ScreenLogin, "", true},
		{Claims{Screen: ScreenLogin}, ScreenJob, "job_9", true},
		{Claims{Screen: ScreenLogin}, ScreenChat, "job_9", false},
	}
	for _, tc := range cases {
		if got := tc.claims.Grants(tc.screen, tc.jobID); got != tc.want {
			t.Errorf("%+v.Grants(%s, %s) = %v, want %v", tc.claims, tc.screen, tc.jobID, got, tc.want)
		}
	}
}
