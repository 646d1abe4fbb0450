package store

import (
	"time"

	bolt "go.etcd.io/bbolt"
)

// Partner is a permitting-software integration: the owner of keys and jobs.
// Zero limits mean "use the appliance's configured default".
type Partner struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	RateLimit    float64   `json:"rateLimit,omitempty"` // requests per second
	RateBurst    int       `json:"rateBurst,omitempty"`
	ScanQuota    int       `json:"scanQuota,omitempty"` // scans per rolling 24 h
	FrameOrigins []string  `json:"frameOrigins,omitempty"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`

	// Jurisdiction is the OCD division id of the partner's jobs that name none.
	Jurisdiction string `json:"jurisdiction,omitempty"`
	// LaterRoundsLifeSafetyOnly leaves out of a later round's correction
	// letter the new findings that are not life safety on sheets that did
	// not change since the previous round (off by default).
	LaterRoundsLifeSafetyOnly bool `json:"laterRoundsLifeSafetyOnly,omitempty"`
}

// EnsurePartner returns the partner with this name, creating it if new.
func (db *DB) EnsurePartner(name string) (Partner, bool, error) {
	var p Partner
	created := false
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		p, created, err = ensurePartner(tx, name, db.now())
		return err
	})
	return p, created, err
}

func ensurePartner(tx *bolt.Tx, name string, now time.Time) (Partner, bool, error) {
	var p Partner
	if id := tx.Bucket(bucketPartnerNames).Get([]byte(name)); id != nil {
		err := getJSON(tx.Bucket(bucketPartners), string(id), &p)
		return p, false, err
	}
	p = Partner{ID: NewID(PrefixPartner), Name: name, CreatedAt: now.UTC(), UpdatedAt: now.UTC()}
	if err := putJSON(tx.Bucket(bucketPartners), p.ID, p); err != nil {
		return p, false, err
	}
	return p, true, tx.Bucket(bucketPartnerNames).Put([]byte(name), []byte(p.ID))
}

// Partner returns a partner by id.
func (db *DB) Partner(id string) (Partner, error) {
	var p Partner
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return getJSON(tx.Bucket(bucketPartners), id, &p)
	})
	return p, err
}

// PartnerByName returns a partner by its unique name.
func (db *DB) PartnerByName(name string) (Partner, error) {
	var p Partner
	err := db.bolt.View(func(tx *bolt.Tx) error {
		id := tx.Bucket(bucketPartnerNames).Get([]byte(name))
		if id == nil {
			return ErrNotFound
		}
		return getJSON(tx.Bucket(bucketPartners), string(id), &p)
	})
	return p, err
}

// UpdatePartner creates the partner if needed and applies change to it.
func (db *DB) UpdatePartner(name string, change func(*Partner)) (Partner, error) {
	var p Partner
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		if p, _, err = ensurePartner(tx, name, db.now()); err != nil {
			return err
		}
		change(&p)
		p.UpdatedAt = db.now().UTC()
		return putJSON(tx.Bucket(bucketPartners), p.ID, p)
	})
	return p, err
}

// Partners lists every partner, ordered by name.
func (db *DB) Partners() ([]Partner, error) {
	var out []Partner
	err := db.bolt.View(func(tx *bolt.Tx) error {
		partners := tx.Bucket(bucketPartners)
		return tx.Bucket(bucketPartnerNames).ForEach(func(_, id []byte) error {
			var p Partner
			if err := getJSON(partners, string(id), &p); err != nil {
				return err
			}
			out = append(out, p)
			return nil
		})
	})
	return out, err
}
