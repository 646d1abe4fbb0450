package embed

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

// FuzzVerify: whatever a browser puts in a link's t, Verify answers an
// error or the claims of a token this appliance minted, and never panics;
// changing any byte of a real token is refused.
func FuzzVerify(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	tokens := newTokens(&now)
	// A fixed token (Mint's random id would differ in each fuzz worker).
	payload := base64.RawURLEncoding.EncodeToString([]byte(`{"p":"ptr_A","s":"job","j":"job_1","e":1800001800,"n":"00"}`))
	good := payload + "." + tokens.Signer.Sign(purpose, payload)
	if _, err := tokens.Verify(good); err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add("")
	f.Add(".")
	f.Add("e30.00")
	f.Add(strings.Repeat("a", 5000) + "." + strings.Repeat("b", 64))
	f.Fuzz(func(t *testing.T, s string) {
		c, err := tokens.Verify(s)
		if err == nil && s != good {
			t.Fatalf("a token this appliance did not mint was accepted: %q → %+v", s, c)
		}
	})
}
