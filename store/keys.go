package store

import (
	"time"

	bolt "go.etcd.io/bbolt"
)

// Key is a partner API key. Only the SHA-256 of the secret is kept; Hint is
// the secret's last four characters so an operator can tell keys apart.
type Key struct {
	ID        string     `json:"id"`
	PartnerID string     `json:"partnerId"`
	Hash      string     `json:"hash"` // lowercase hex SHA-256 of the secret
	Hint      string     `json:"hint"`
	CreatedAt time.Time  `json:"createdAt"`
	RevokedAt *time.Time `json:"revokedAt,omitempty"`
	// ExpiresAt is set on a rotated key: it works until then.
	ExpiresAt  *time.Time `json:"expiresAt,omitempty"`
	ReplacedBy string     `json:"replacedBy,omitempty"`
}

// Active reports whether the key authenticates at time now.
func (k Key) Active(now time.Time) bool {
	if k.RevokedAt != nil && !now.Before(*k.RevokedAt) {
		return false
	}
	return k.ExpiresAt == nil || now.Before(*k.ExpiresAt)
}

// CreateKey stores a new key for a partner, creating the partner if new.
func (db *DB) CreateKey(partnerName, hash, hint string) (Key, Partner, error) {
	var k Key
	var p Partner
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		if p, _, err = ensurePartner(tx, partnerName, db.now()); err != nil {
			return err
		}
		k, err = createKey(tx, p.ID, hash, hint, db.now())
		return err
	})
	return k, p, err
}

func createKey(tx *bolt.Tx, partnerID, hash, hint string, now time.Time) (Key, error) {
	k := Key{ID: NewID(PrefixKey), PartnerID: partnerID, Hash: hash, Hint: hint, CreatedAt: now.UTC()}
	if err := putJSON(tx.Bucket(bucketKeys), k.ID, k); err != nil {
		return k, err
	}
	return k, tx.Bucket(bucketKeyHashes).Put([]byte(hash), []byte(k.ID))
}

// KeyByHash finds the key whose secret hashes to hash.
func (db *DB) KeyByHash(hash string) (Key, error) {
	var k Key
	err := db.bolt.View(func(tx *bolt.Tx) error {
		id := tx.Bucket(bucketKeyHashes).Get([]byte(hash))
		if id == nil {
			return ErrNotFound
		}
		return getJSON(tx.Bucket(bucketKeys), string(id), &k)
	})
	return k, err
}

// Key returns a key by id.
func (db *DB) Key(id string) (Key, error) {
	var k Key
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return getJSON(tx.Bucket(bucketKeys), id, &k)
	})
	return k, err
}

// Keys lists keys, oldest first; partnerID "" lists every partner's.
func (db *DB) Keys(partnerID string) ([]Key, error) {
	var out []Key
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketKeys).ForEach(func(_, v []byte) error {
			var k Key
			if err := unmarshal(v, &k); err != nil {
				return err
			}
			if partnerID == "" || k.PartnerID == partnerID {
				out = append(out, k)
			}
			return nil
		})
	})
	return out, err
}

// RevokeKey revokes a key at once. Revoking a revoked key keeps the first time.
func (db *DB) RevokeKey(id string) (Key, error) {
	var k Key
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if err := getJSON(tx.Bucket(bucketKeys), id, &k); err != nil {
			return err
		}
		now := db.now().UTC()
		if k.RevokedAt == nil || k.RevokedAt.After(now) {
			k.RevokedAt = &now
		}
		return putJSON(tx.Bucket(bucketKeys), k.ID, k)
	})
	return k, err
}

// RotateKey issues a new key for the old key's partner and makes the old one
// stop working after grace (at once when grace is 0), in one transaction.
func (db *DB) RotateKey(oldID, newHash, newHint string, grace time.Duration) (old, replacement Key, err error) {
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		if err := getJSON(tx.Bucket(bucketKeys), oldID, &old); err != nil {
			return err
		}
		now := db.now().UTC()
		if !old.Active(now) {
			return ErrKeyRevoked
		}
		// A second rotation would leave two live replacements; the
		// operator finishes (or revokes) the pending one first.
		if old.ReplacedBy != "" {
			var pending Key
			if err := getJSON(tx.Bucket(bucketKeys), old.ReplacedBy, &pending); err == nil && pending.Active(now) {
				return ErrKeyReplaced
			}
		}
		var err error
		if replacement, err = createKey(tx, old.PartnerID, newHash, newHint, now); err != nil {
			return err
		}
		ends := now.Add(grace)
		if old.ExpiresAt == nil || ends.Before(*old.ExpiresAt) {
			old.ExpiresAt = &ends
		}
		old.ReplacedBy = replacement.ID
		return putJSON(tx.Bucket(bucketKeys), old.ID, old)
	})
	return old, replacement, err
}
