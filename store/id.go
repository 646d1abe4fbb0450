package store

import (
	"crypto/rand"
	"encoding/binary"
	"strings"
	"sync"
	"time"
)

// Id prefixes, one per type, so an id names what it points at.
const (
	PrefixPartner = "ptr_"
	PrefixKey     = "key_"
	PrefixJob     = "job_"
	PrefixVersion = "ver_"
	PrefixFile    = "file_"
	PrefixFinding = "fnd_"
)

// crockford is the ULID alphabet: sortable as bytes, no I, L, O or U.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// idLen is the length of the encoded 128-bit part of an id.
const idLen = 26

var idGen struct {
	sync.Mutex
	lastMS uint64
	last   [10]byte
}

// NewID returns prefix + a ULID: 48 bits of milliseconds then 80 random
// bits. Within one millisecond the random part is incremented instead of
// redrawn, so ids made by this process sort in creation order, which the
// store relies on for newest-first listings and cursors.
func NewID(prefix string) string {
	ms := uint64(time.Now().UnixMilli())
	idGen.Lock()
	var entropy [10]byte
	if ms <= idGen.lastMS {
		ms = idGen.lastMS
		entropy = idGen.last
		for i := len(entropy) - 1; i >= 0; i-- {
			entropy[i]++
			if entropy[i] != 0 {
				break
			}
		}
	} else if _, err := rand.Read(entropy[:]); err != nil {
		panic(err) // crypto/rand never fails on Linux; without it no id is safe
	}
	idGen.lastMS, idGen.last = ms, entropy
	idGen.Unlock()

	var raw [16]byte
	binary.BigEndian.PutUint16(raw[0:2], uint16(ms>>32))
	binary.BigEndian.PutUint32(raw[2:6], uint32(ms))
	copy(raw[6:], entropy[:])
	return prefix + encodeCrockford(raw)
}

// encodeCrockford writes 128 bits as 26 base32 characters, most significant
// first (the first character carries only 3 bits).
func encodeCrockford(raw [16]byte) string {
	hi := binary.BigEndian.Uint64(raw[0:8])
	lo := binary.BigEndian.Uint64(raw[8:16])
	var out [idLen]byte
	for i := idLen - 1; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// ValidID reports whether s is prefix followed by a well-formed ULID. Handlers
// check it before touching the database so junk ids cost nothing.
func ValidID(s, prefix string) bool {
	if !strings.HasPrefix(s, prefix) || len(s) != len(prefix)+idLen {
		return false
	}
	for _, c := range s[len(prefix):] {
		if !strings.ContainsRune(crockford, c) {
			return false
		}
	}
	return s[len(prefix)] <= '7' // 128 bits: the first character holds 3 bits
}
