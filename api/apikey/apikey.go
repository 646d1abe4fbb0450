// Package apikey makes and checks partner API keys: "prk_live_" + 43 base62
// characters (256 bits) + a 6-character base62 CRC32 checksum of everything
// before it. The checksum lets the server reject a mistyped or truncated key
// before any storage lookup, and lets secret scanners recognise real keys.
package apikey

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"math/big"
	"strings"
)

// Prefix starts every live key.
const Prefix = "prk_live_"

const (
	alphabet    = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	randomLen   = 43 // 62^43 > 2^256
	checksumLen = 6  // 62^6 > 2^32
	keyLen      = len(Prefix) + randomLen + checksumLen
)

// ErrMalformed means the string cannot be a key: wrong shape or checksum.
var ErrMalformed = errors.New("malformed API key")

// Generate returns a new random key.
func Generate() (string, error) {
	var b strings.Builder
	b.Grow(keyLen)
	b.WriteString(Prefix)
	max := big.NewInt(int64(len(alphabet)))
	for range randomLen {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", err
		}
		b.WriteByte(alphabet[n.Int64()])
	}
	b.WriteString(checksum(b.String()))
	return b.String(), nil
}

// checksum is CRC32 (IEEE) of body in base62, left-padded with '0'.
func checksum(body string) string {
	n := crc32.ChecksumIEEE([]byte(body))
	var out [checksumLen]byte
	for i := checksumLen - 1; i >= 0; i-- {
		out[i] = alphabet[n%62]
		n /= 62
	}
	return string(out[:])
}

// Check verifies a key's shape and checksum without any lookup.
func Check(key string) error {
	if len(key) != keyLen || !strings.HasPrefix(key, Prefix) {
		return ErrMalformed
	}
	for i := len(Prefix); i < len(key); i++ {
		if strings.IndexByte(alphabet, key[i]) < 0 {
			return ErrMalformed
		}
	}
	body := key[:len(key)-checksumLen]
	if checksum(body) != key[len(key)-checksumLen:] {
		return ErrMalformed
	}
	return nil
}

// Hash is the stored form of a key: lowercase hex SHA-256. A plain hash is
// enough because the key has 256 bits of entropy; no dictionary applies.
func Hash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// Hint is what may be shown of a key: its last four characters.
func Hint(key string) string {
	if len(key) < 4 {
		return ""
	}
	return key[len(key)-4:]
}
