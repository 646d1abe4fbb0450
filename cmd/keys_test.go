package cmd

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"planreview/api/apikey"
)

// checkIssuedJSON checks `keys issue --json` output: exactly one JSON object
// with exactly keyId, partnerId, partner and key, and a well-formed secret.
func checkIssuedJSON(t *testing.T, stdout, partner string) issuedKey {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	var fields map[string]any
	if err := dec.Decode(&fields); err != nil {
		t.Fatalf("keys issue --json: not a JSON object: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Fatalf("keys issue --json printed more than one JSON value:\n%s", stdout)
	}
	if strings.TrimSpace(stdout) != strings.TrimSpace(stdout[:dec.InputOffset()]) {
		t.Fatalf("keys issue --json printed more than the object:\n%s", stdout)
	}
	want := []string{"keyId", "partnerId", "partner", "key"}
	if len(fields) != len(want) {
		t.Errorf("keys issue --json fields = %v, want exactly %v", keysOf(fields), want)
	}
	for _, f := range want {
		if _, ok := fields[f].(string); !ok {
			t.Errorf("keys issue --json: field %q missing or not a string: %v", f, fields)
		}
	}
	var k issuedKey
	_ = json.Unmarshal([]byte(stdout), &k)
	if !strings.HasPrefix(k.Key, "prk_live_") || apikey.Check(k.Key) != nil {
		t.Errorf("key %q is not a well-formed prk_live_ key", k.Key)
	}
	if !strings.HasPrefix(k.KeyID, "key_") || !strings.HasPrefix(k.PartnerID, "ptr_") || k.Partner != partner {
		t.Errorf("issued key = %+v, want key_… id, ptr_… partner id and partner %q", k, partner)
	}
	return k
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// listedKey is one element of `keys list --json`.
type listedKey struct {
	KeyID     string `json:"keyId"`
	PartnerID string `json:"partnerId"`
	Partner   string `json:"partner"`
	Status    string `json:"status"`
	ExpiresAt *int64 `json:"expiresAt"`
}

// listKeys runs `keys list` and `keys list --json`, checks neither shows a
// secret, and returns the JSON listing by key id.
func listKeys(t *testing.T, dir string, secrets ...string) map[string]listedKey {
	t.Helper()
	text := mustCLI(t, dir, "keys", "list")
	js := mustCLI(t, dir, "keys", "list", "--json")
	for _, out := range []string{text.stdout, text.stderr, js.stdout, js.stderr} {
		if strings.Contains(out, "prk_live_") {
			t.Errorf("keys list printed a secret:\n%s", out)
		}
		for _, s := range secrets {
			// The last four characters are the documented hint; anything
			// longer of the secret must not appear.
			if strings.Contains(out, s[len(s)-12:]) {
				t.Errorf("keys list printed part of secret %s…:\n%s", s[:12], out)
			}
		}
	}
	var keys []listedKey
	if err := json.Unmarshal([]byte(js.stdout), &keys); err != nil {
		t.Fatalf("keys list --json: %v\n%s", err, js.stdout)
	}
	var raw []map[string]any
	_ = json.Unmarshal([]byte(js.stdout), &raw)
	for _, k := range raw {
		if _, ok := k["key"]; ok {
			t.Errorf("keys list --json has a key field: %v", k)
		}
	}
	byID := map[string]listedKey{}
	for _, k := range keys {
		byID[k.KeyID] = k
		if !strings.Contains(text.stdout, k.KeyID) {
			t.Errorf("keys list (table) lacks %s:\n%s", k.KeyID, text.stdout)
		}
	}
	return byID
}

// rotated is the output of `keys rotate --json`.
type rotated struct {
	issuedKey
	OldKeyID        string `json:"oldKeyId"`
	OldKeyExpiresAt int64  `json:"oldKeyExpiresAt"`
}

func rotateKey(t *testing.T, dir, keyID, grace string) rotated {
	t.Helper()
	res := mustCLI(t, dir, "keys", "rotate", keyID, "--grace", grace, "--json")
	var r rotated
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
		t.Fatalf("keys rotate --json: %v\n%s", err, res.stdout)
	}
	if r.OldKeyID != keyID || apikey.Check(r.Key) != nil || r.KeyID == keyID {
		t.Fatalf("keys rotate --json = %+v, want a new well-formed key replacing %s", r, keyID)
	}
	return r
}

// TestKeysWhileServing runs every keys command as a second process while
// serve holds the database: they must go through the admin socket (not
// wait on bbolt's lock) and take effect on the API at once.
func TestKeysWhileServing(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	srv := startServer(t, dir)

	info, err := os.Stat(filepath.Join(dir, "admin.sock"))
	if err != nil {
		t.Fatalf("admin socket: %v", err)
	}
	if info.Mode()&os.ModeSocket == 0 || info.Mode().Perm() != 0o600 {
		t.Errorf("admin socket mode = %v, want a socket with 0600", info.Mode())
	}

	res := mustCLI(t, dir, "keys", "issue", "--partner", "Acme Permits", "--json")
	// The direct path would wait 3 s for bbolt's lock and then fail (which
	// mustCLI catches); the server's log line below proves the socket path.
	// The bound is only a sanity check, loose for a loaded machine.
	if res.took > 10*time.Second {
		t.Errorf("keys issue took %s while serving; want the admin socket's quick answer", res.took)
	}
	k1 := checkIssuedJSON(t, res.stdout, "Acme Permits")
	if !srv.logged("admin: key issued", 5*time.Second) {
		t.Errorf("server log has no admin: key issued line; the command did not go through the socket")
	}
	if got := ping(t, srv.base, k1.Key); got != http.StatusOK {
		t.Fatalf("ping with the key just issued = %d, want 200", got)
	}
	var p struct{ PartnerID, KeyID, Partner string }
	apiClient{t: t, base: srv.base, key: k1.Key}.do(http.MethodGet, "/api/v1/ping", nil, &p)
	if p.PartnerID != k1.PartnerID || p.KeyID != k1.KeyID || p.Partner != "Acme Permits" {
		t.Errorf("ping = %+v, want the issued key's partner and key id", p)
	}
	if strings.Contains(srv.stderr.String(), k1.Key) {
		t.Errorf("the server logged a secret")
	}

	// Text output: the secret alone on stdout, advice on stderr.
	res = mustCLI(t, dir, "keys", "issue", "--partner", "Acme Permits")
	k2 := strings.TrimSpace(res.stdout)
	if apikey.Check(k2) != nil || strings.Count(res.stdout, "\n") != 1 {
		t.Errorf("keys issue stdout = %q, want the secret on one line", res.stdout)
	}
	if got := ping(t, srv.base, k2); got != http.StatusOK {
		t.Errorf("ping with the second key = %d, want 200", got)
	}

	listed := listKeys(t, dir, k1.Key, k2)
	if len(listed) != 2 || listed[k1.KeyID].Status != "active" {
		t.Errorf("keys list = %+v, want two active keys", listed)
	}

	// Revoke: 401 at once, the partner's other key unaffected.
	res = mustCLI(t, dir, "keys", "revoke", k1.KeyID)
	if !strings.Contains(res.stdout, k1.KeyID) {
		t.Errorf("keys revoke output %q does not name the key", res.stdout)
	}
	if got := ping(t, srv.base, k1.Key); got != http.StatusUnauthorized {
		t.Errorf("ping with the revoked key = %d, want 401", got)
	}
	if got := ping(t, srv.base, k2); got != http.StatusOK {
		t.Errorf("ping with the other key after revoking = %d, want 200", got)
	}
	if got := listKeys(t, dir)[k1.KeyID].Status; got != "revoked" {
		t.Errorf("revoked key lists as %q", got)
	}
	if res := runCLI(t, dir, "keys", "rotate", k1.KeyID, "--json"); res.code == 0 {
		t.Errorf("rotating a revoked key succeeded: %s", res.stdout)
	}
	if res := runCLI(t, dir, "keys", "revoke", "key_01ARZ3NDEKTSV4RRFFQ69G5FAV"); res.code == 0 || !strings.Contains(res.stderr, "key_01ARZ3NDEKTSV4RRFFQ69G5FAV") {
		t.Errorf("revoking an unknown key: exit %d, stderr %q; want an error naming it", res.code, res.stderr)
	}

	// Rotate with a short grace: the new key works at once, the old one
	// until the grace ends, then 401.
	var k2ID string
	for id, k := range listKeys(t, dir) {
		if k.Status == "active" {
			k2ID = id
		}
	}
	rot := rotateKey(t, dir, k2ID, "2s")
	if got := ping(t, srv.base, rot.Key); got != http.StatusOK {
		t.Errorf("ping with the rotated-in key = %d, want 200", got)
	}
	checkGrace(t, srv.base, k2, rot.OldKeyExpiresAt)
	if got := ping(t, srv.base, rot.Key); got != http.StatusOK {
		t.Errorf("ping with the new key after the grace = %d, want 200", got)
	}
}

// checkGrace checks that old works before expiresAt (Unix seconds, the
// rotation's own statement) and answers 401 once it has passed.
func checkGrace(t *testing.T, base, old string, expiresAt int64) {
	t.Helper()
	ends := time.Unix(expiresAt, 0)
	if time.Until(ends) > 3*time.Second {
		t.Fatalf("old key expires at %s, over 3s away for a 2s grace", ends)
	}
	if time.Until(ends) > 500*time.Millisecond {
		if got := ping(t, base, old); got != http.StatusOK {
			t.Errorf("ping with the old key inside its grace = %d, want 200", got)
		}
	} else {
		t.Logf("machine too slow to probe the old key inside its 2s grace")
	}
	// expiresAt is truncated to the second: the key ends within 1 s after.
	time.Sleep(time.Until(ends.Add(1100 * time.Millisecond)))
	if got := ping(t, base, old); got != http.StatusUnauthorized {
		t.Errorf("ping with the old key after its grace = %d, want 401", got)
	}
}

// TestKeysWithoutServer runs the same commands with no server: they open
// the database directly, and a server started afterwards honours them.
func TestKeysWithoutServer(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)

	k1 := checkIssuedJSON(t, mustCLI(t, dir, "keys", "issue", "--partner", "Beta County", "--json").stdout, "Beta County")
	k2 := issueKey(t, dir, "Beta County")
	k3 := issueKey(t, dir, "Gamma City")
	if k3.PartnerID == k1.PartnerID || k2.PartnerID != k1.PartnerID {
		t.Errorf("partner ids: %s %s %s; want the same partner for one name", k1.PartnerID, k2.PartnerID, k3.PartnerID)
	}
	listed := listKeys(t, dir, k1.Key, k2.Key, k3.Key)
	if len(listed) != 3 {
		t.Errorf("keys list has %d keys, want 3", len(listed))
	}
	res := mustCLI(t, dir, "keys", "list", "--partner", "Gamma City", "--json")
	var only []listedKey
	if err := json.Unmarshal([]byte(res.stdout), &only); err != nil || len(only) != 1 || only[0].KeyID != k3.KeyID {
		t.Errorf("keys list --partner = %s (%v), want only %s", res.stdout, err, k3.KeyID)
	}

	mustCLI(t, dir, "keys", "revoke", k1.KeyID)
	rot := rotateKey(t, dir, k2.KeyID, "1h")
	if rot.Partner != "Beta County" || rot.PartnerID != k1.PartnerID {
		t.Errorf("rotated key belongs to %q %s, want Beta County", rot.Partner, rot.PartnerID)
	}
	if ends := time.Unix(rot.OldKeyExpiresAt, 0); ends.Before(time.Now().Add(50*time.Minute)) || ends.After(time.Now().Add(61*time.Minute)) {
		t.Errorf("old key expires at %s, want about 1h from now", ends)
	}
	listed = listKeys(t, dir, k1.Key, k2.Key, k3.Key, rot.Key)
	want := map[string]string{k1.KeyID: "revoked", k2.KeyID: "expiring", k3.KeyID: "active", rot.KeyID: "active"}
	for id, status := range want {
		if listed[id].Status != status {
			t.Errorf("key %s status = %q, want %q", id, listed[id].Status, status)
		}
	}

	srv := startServer(t, dir)
	for key, status := range map[string]int{k1.Key: 401, k2.Key: 200, k3.Key: 200, rot.Key: 200} {
		if got := ping(t, srv.base, key); got != status {
			t.Errorf("ping with %s… = %d, want %d", key[:14], got, status)
		}
	}
	// A short grace set directly while no server runs ends on time too.
	srv.signal(syscall.SIGTERM)
	if code := srv.wait(20 * time.Second); code != 0 {
		t.Fatalf("serve exit code %d after SIGTERM", code)
	}
	rot2 := rotateKey(t, dir, k3.KeyID, "2s")
	srv = startServer(t, dir)
	if got := ping(t, srv.base, rot2.Key); got != http.StatusOK {
		t.Errorf("ping with a key rotated in directly = %d, want 200", got)
	}
	checkGrace(t, srv.base, k3.Key, rot2.OldKeyExpiresAt)
}

// TestKeysUsageErrors: operator mistakes exit non-zero with a message.
func TestKeysUsageErrors(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	for _, args := range [][]string{
		{"keys", "issue"},                           // --partner is required
		{"keys", "issue", "--partner", "  "},        // blank name
		{"keys", "revoke"},                          // KEY_ID missing
		{"keys", "rotate", "key_x", "--grace", "x"}, // bad duration
		{"keys", "list", "--partner", "Nobody"},     // unknown partner
	} {
		res := runCLI(t, dir, args...)
		if res.code == 0 || strings.TrimSpace(res.stderr) == "" {
			t.Errorf("planreview %s: exit %d, stderr %q; want an error", strings.Join(args, " "), res.code, res.stderr)
		}
		if strings.Contains(res.stdout, "prk_live_") {
			t.Errorf("planreview %s printed a key", strings.Join(args, " "))
		}
	}
}

// TestPartnersSetWhileServing: `partners set` through the admin socket
// changes a partner's rate limit on the running server at once.
func TestPartnersSetWhileServing(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	srv := startServer(t, dir)
	key := issueKey(t, dir, "Slow Partner")

	res := mustCLI(t, dir, "partners", "set", "Slow Partner", "--rate-limit", "0.5", "--rate-burst", "2", "--json")
	var p struct {
		PartnerID string
		RateLimit float64
		RateBurst int
	}
	if err := json.Unmarshal([]byte(res.stdout), &p); err != nil || p.PartnerID != key.PartnerID || p.RateLimit != 0.5 || p.RateBurst != 2 {
		t.Fatalf("partners set --json = %s (%v)", res.stdout, err)
	}
	var statuses []int
	var limit, retry string
	for range 3 {
		req, _ := http.NewRequest(http.MethodGet, srv.base+"/api/v1/ping", nil)
		req.Header.Set("Authorization", "Bearer "+key.Key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		statuses = append(statuses, resp.StatusCode)
		limit, retry = resp.Header.Get("RateLimit-Limit"), resp.Header.Get("Retry-After")
	}
	if statuses[0] != http.StatusOK || statuses[2] != http.StatusTooManyRequests || limit != "2" || retry == "" {
		t.Errorf("after partners set --rate-burst 2: statuses %v, RateLimit-Limit %q, Retry-After %q; want the third refused with 429", statuses, limit, retry)
	}
	if res := runCLI(t, dir, "partners", "set", "Slow Partner", "--rate-limit", "-1"); res.code == 0 || !strings.Contains(res.stderr, "rate limit") {
		t.Errorf("partners set --rate-limit -1: exit %d, stderr %q", res.code, res.stderr)
	}
}
