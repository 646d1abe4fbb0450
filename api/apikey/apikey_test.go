package apikey

import (
	"hash/crc32"
	"strings"
	"testing"
)

func TestGenerateMakesWellFormedDistinctKeys(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		k, err := Generate()
		if err != nil {
			t.Fatal(err)
		}
		if len(k) != len(Prefix)+43+6 || !strings.HasPrefix(k, Prefix) {
			t.Fatalf("key %q: want %s + 43 + 6 characters", k, Prefix)
		}
		if err := Check(k); err != nil {
			t.Fatalf("Check(%q) = %v for a generated key", k, err)
		}
		if seen[k] {
			t.Fatalf("duplicate key %q", k)
		}
		seen[k] = true
	}
}

// TestChecksumIsBase62CRC32OfEverythingBefore recomputes the checksum the
// way the contract states it, independently of the package's helper.
func TestChecksumIsBase62CRC32OfEverythingBefore(t *testing.T) {
	k, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	body, sum := k[:len(k)-6], k[len(k)-6:]
	n := crc32.ChecksumIEEE([]byte(body))
	var want []byte
	for range 6 {
		want = append([]byte{alphabet[n%62]}, want...)
		n /= 62
	}
	if sum != string(want) {
		t.Errorf("checksum %q, want %q", sum, want)
	}
	// Left padding with '0': a body whose CRC is small still has 6 characters.
	if got := checksum(""); len(got) != 6 {
		t.Errorf("checksum of empty body %q is not 6 characters", got)
	}
}

func TestCheckRejectsMalformedKeys(t *testing.T) {
	k, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	swap := func(s string, i int) string {
		c := byte('a')
		if s[i] == 'a' {
			c = 'b'
		}
		return s[:i] + string(c) + s[i+1:]
	}
	tests := []struct{ name, key string }{
		{"empty", ""},
		{"prefix only", Prefix},
		{"checksum tampered", swap(k, len(k)-1)},
		{"random part tampered", swap(k, len(Prefix)+5)},
		{"prefix tampered", "prk_test_" + k[len(Prefix):]},
		{"upper-case prefix", strings.ToUpper(Prefix) + k[len(Prefix):]},
		{"one character short", k[:len(k)-1]},
		{"one character long", k + "0"},
		{"checksum dropped", k[:len(k)-6]},
		{"non-base62 character", k[:len(Prefix)+3] + "_" + k[len(Prefix)+4:]},
		{"non-ASCII character", k[:len(Prefix)+3] + "é" + k[len(Prefix)+5:]},
		{"surrounding space", " " + k[1:]},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := Check(tc.key); err != ErrMalformed {
				t.Errorf("Check(%q) = %v, want ErrMalformed", tc.key, err)
			}
		})
	}
}

func TestHashIsLowercaseHexSHA256(t *testing.T) {
	// SHA-256("abc"), a published test vector.
	if got, want := Hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; got != want {
		t.Errorf("Hash = %s, want %s", got, want)
	}
	k, _ := Generate()
	last := "0"
	if strings.HasSuffix(k, "0") {
		last = "1" // the other key must differ from k
	}
	if Hash(k) == Hash(k[:len(k)-1]+last) {
		t.Errorf("different keys share a hash")
	}
}

func TestHintIsTheLastFourCharacters(t *testing.T) {
	tests := []struct{ in, want string }{
		{"prk_live_abcdef", "cdef"},
		{"abcd", "abcd"},
		{"abc", ""},
		{"", ""},
	}
	for _, tc := range tests {
		if got := Hint(tc.in); got != tc.want {
			t.Errorf("Hint(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
