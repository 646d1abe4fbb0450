package store_test

import (
	"strings"
	"testing"
	"time"

	"planreview/store"
)

func TestNewIDsAreTimeOrderedAndValid(t *testing.T) {
	prev := ""
	for i := range 5000 { // many share a millisecond: the counter keeps order
		id := store.NewID(store.PrefixJob)
		if !store.ValidID(id, store.PrefixJob) {
			t.Fatalf("NewID made invalid id %q", id)
		}
		if id <= prev {
			t.Fatalf("id %d %q does not sort after %q", i, id, prev)
		}
		prev = id
	}
	before := store.NewID(store.PrefixFile)
	time.Sleep(2 * time.Millisecond)
	if after := store.NewID(store.PrefixFile); after <= before {
		t.Errorf("later id %q sorts before %q", after, before)
	}
}

func TestValidID(t *testing.T) {
	good := store.NewID(store.PrefixJob)
	ulid := good[len(store.PrefixJob):]
	tests := []struct {
		name   string
		id     string
		prefix string
		want   bool
	}{
		{"fresh job id", good, store.PrefixJob, true},
		{"max ULID", "job_7ZZZZZZZZZZZZZZZZZZZZZZZZZ", store.PrefixJob, true},
		{"zero ULID", "job_00000000000000000000000000", store.PrefixJob, true},
		{"wrong prefix", good, store.PrefixFile, false},
		{"no prefix", ulid, store.PrefixJob, false},
		{"one short", good[:len(good)-1], store.PrefixJob, false},
		{"one long", good + "0", store.PrefixJob, false},
		{"lower case", store.PrefixJob + strings.ToLower(ulid), store.PrefixJob, false},
		{"letter I", store.PrefixJob + ulid[:25] + "I", store.PrefixJob, false},
		{"letter L", store.PrefixJob + ulid[:25] + "L", store.PrefixJob, false},
		{"letter O", store.PrefixJob + ulid[:25] + "O", store.PrefixJob, false},
		{"letter U", store.PrefixJob + ulid[:25] + "U", store.PrefixJob, false},
		{"over 128 bits", "job_8ZZZZZZZZZZZZZZZZZZZZZZZZZ", store.PrefixJob, false},
		{"path characters", "job_../../../../../etc/passwd", store.PrefixJob, false},
		{"empty", "", store.PrefixJob, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := store.ValidID(tc.id, tc.prefix); got != tc.want {
				t.Errorf("ValidID(%q, %q) = %v, want %v", tc.id, tc.prefix, got, tc.want)
			}
		})
	}
}
