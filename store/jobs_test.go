package store_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"planreview/store"
)

func ids(items []store.JobWithVersion) string {
	var out []string
	for _, it := range items {
		out = append(out, it.Job.Name)
	}
	return strings.Join(out, ",")
}

func TestJobsPagesNewestFirstWithFilters(t *testing.T) {
	db, _ := openDB(t)
	acme, other := mustPartner(t, db, "acme"), mustPartner(t, db, "other")
	byName := map[string]store.Job{}
	for i := range 6 {
		ext := ""
		if i%2 == 0 {
			ext = "EVEN"
		}
		j, _ := mustJob(t, db, store.Job{PartnerID: acme.ID, Name: fmt.Sprint(i), ExternalID: ext})
		byName[j.Name] = j
		mustJob(t, db, store.Job{PartnerID: other.ID, Name: "other"})
	}
	if err := db.LockVersion(byName["4"].CurrentVersionID); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		q        store.JobQuery
		want     string
		wantNext string // job name whose id is the cursor, "" for none
	}{
		{"all", store.JobQuery{Limit: 50}, "5,4,3,2,1,0", ""},
		{"first page", store.JobQuery{Limit: 2}, "5,4", "4"},
		{"middle page", store.JobQuery{Limit: 2, After: byName["4"].ID}, "3,2", "2"},
		{"last page exactly full", store.JobQuery{Limit: 2, After: byName["2"].ID}, "1,0", ""},
		{"after the oldest", store.JobQuery{Limit: 2, After: byName["0"].ID}, "", ""},
		{"externalId", store.JobQuery{Limit: 50, ExternalID: "EVEN"}, "4,2,0", ""},
		{"externalId paged", store.JobQuery{Limit: 1, ExternalID: "EVEN", After: byName["4"].ID}, "2", "2"},
		{"status created", store.JobQuery{Limit: 50, Status: store.StatusCreated}, "5,3,2,1,0", ""},
		{"status queued", store.JobQuery{Limit: 50, Status: store.StatusQueued}, "4", ""},
		{"status and externalId", store.JobQuery{Limit: 50, Status: store.StatusCreated, ExternalID: "EVEN"}, "2,0", ""},
		{"cursor of an unknown but later id", store.JobQuery{Limit: 50, After: store.NewID(store.PrefixJob)}, "5,4,3,2,1,0", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			items, next, err := db.Jobs(acme.ID, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(items); got != tc.want {
				t.Errorf("jobs %q, want %q", got, tc.want)
			}
			wantNext := ""
			if tc.wantNext != "" {
				wantNext = byName[tc.wantNext].ID
			}
			if next != wantNext {
				t.Errorf("next %q, want %q", next, wantNext)
			}
			for _, it := range items {
				if it.Current.ID != it.Job.CurrentVersionID {
					t.Errorf("item %s carries version %s, want its current %s", it.Job.Name, it.Current.ID, it.Job.CurrentVersionID)
				}
			}
		})
	}
	// A partner with no jobs, whose id sorts before or after acme's.
	for _, name := range []string{"zzz", "aaa"} {
		p := mustPartner(t, db, name)
		if items, next, err := db.Jobs(p.ID, store.JobQuery{Limit: 50}); err != nil || len(items) != 0 || next != "" {
			t.Errorf("partner %s without jobs lists %d (next %q, err %v)", name, len(items), next, err)
		}
	}
}

func TestPagingVisitsEveryJobOnce(t *testing.T) {
	db, _ := openDB(t)
	acme := mustPartner(t, db, "acme")
	const n = 23
	for i := range n {
		mustJob(t, db, store.Job{PartnerID: acme.ID, Name: fmt.Sprint(i)})
	}
	for _, limit := range []int{1, 4, 5, 22, 23, 24} {
		seen := map[string]bool{}
		prev := "~"
		q := store.JobQuery{Limit: limit}
		for {
			items, next, err := db.Jobs(acme.ID, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				if seen[it.Job.ID] || it.Job.ID >= prev {
					t.Fatalf("limit %d: %s repeated or out of order", limit, it.Job.ID)
				}
				seen[it.Job.ID], prev = true, it.Job.ID
			}
			if next == "" {
				break
			}
			q.After = next
		}
		if len(seen) != n {
			t.Errorf("limit %d: saw %d jobs, want %d", limit, len(seen), n)
		}
	}
}

func TestOtherPartnersJobIsNotFound(t *testing.T) {
	db, _ := openDB(t)
	acme, other := mustPartner(t, db, "acme"), mustPartner(t, db, "other")
	j, v := mustJob(t, db, store.Job{PartnerID: acme.ID})
	mustFile(t, db, acme.ID, j.ID, "a.pdf")

	calls := map[string]func() error{
		"Job":              func() error { _, _, err := db.Job(other.ID, j.ID); return err },
		"Files":            func() error { _, err := db.Files(other.ID, j.ID, ""); return err },
		"Files of version": func() error { _, err := db.Files(other.ID, j.ID, v.ID); return err },
		"Version":          func() error { _, err := db.Version(other.ID, j.ID, v.ID); return err },
		"RegisterFile": func() error {
			_, err := db.RegisterFile(other.ID, j.ID, store.File{FileName: "x.pdf", FileSize: 1}, 100)
			return err
		},
		"missing job": func() error { _, _, err := db.Job(acme.ID, store.NewID(store.PrefixJob)); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			if err := call(); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("err = %v, want ErrNotFound", err)
			}
		})
	}
	if files, _ := db.Files(acme.ID, j.ID, ""); len(files) != 1 {
		t.Errorf("the owner's job has %d files, want 1", len(files))
	}
}

func TestConcurrentCreateJobsAllLand(t *testing.T) {
	db, _ := openDB(t)
	acme := mustPartner(t, db, "acme")
	const n = 40
	var wg sync.WaitGroup
	got := make([]store.Job, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			got[i], _, errs[i] = db.CreateJob(store.Job{PartnerID: acme.ID, Name: fmt.Sprint(i)})
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("CreateJob %d: %v", i, errs[i])
		}
		if seen[got[i].ID] {
			t.Fatalf("duplicate job id %s", got[i].ID)
		}
		seen[got[i].ID] = true
		j, versions, err := db.Job(acme.ID, got[i].ID)
		if err != nil || j.Name != fmt.Sprint(i) || len(versions) != 1 || versions[0].Number != 1 {
			t.Errorf("job %d read back as %+v %v (%v)", i, j, versions, err)
		}
	}
	items, _, err := db.Jobs(acme.ID, store.JobQuery{Limit: 200})
	if err != nil || len(items) != n {
		t.Errorf("listing has %d jobs (%v), want %d", len(items), err, n)
	}
}

func TestCreateJobStartsVersionOne(t *testing.T) {
	db, c := openDB(t)
	acme := mustPartner(t, db, "acme")
	j, v := mustJob(t, db, store.Job{PartnerID: acme.ID, Name: "x"})
	if j.CurrentVersionID != v.ID || v.JobID != j.ID || v.Number != 1 || v.Status != store.StatusCreated || !v.Open() {
		t.Errorf("job %+v version %+v", j, v)
	}
	if !j.CreatedAt.Equal(c.Now()) || j.CreatedAt.Location().String() != "UTC" {
		t.Errorf("createdAt %v, want the clock's %v in UTC", j.CreatedAt, c.Now())
	}
	if v.Pipeline.CurrentStage != store.StageNotStarted || len(v.Pipeline.Stages) != len(store.WorkStages) {
		t.Errorf("pipeline %+v", v.Pipeline)
	}
}

func TestJobsWithoutALimitDoesNotPanic(t *testing.T) {
	db, _ := openDB(t)
	acme := mustPartner(t, db, "acme")
	for i := range 3 {
		mustJob(t, db, store.Job{PartnerID: acme.ID, Name: fmt.Sprint(i)})
	}
	items, next, err := db.Jobs(acme.ID, store.JobQuery{})
	if err != nil || len(items) != 3 || next != "" {
		t.Errorf("zero query listed %d jobs (next %q, err %v), want all 3", len(items), next, err)
	}
}
