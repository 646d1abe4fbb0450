package store_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"planreview/store"
)

func TestRegisterFileOpensNextVersionWhenLocked(t *testing.T) {
	db, _ := openDB(t)
	acme := mustPartner(t, db, "acme")
	j, v1 := mustJob(t, db, store.Job{PartnerID: acme.ID})
	f1 := mustFile(t, db, acme.ID, j.ID, "1.pdf")
	if f1.VersionID != v1.ID || f1.Status != store.FilePendingUpload || f1.PartnerID != acme.ID || f1.JobID != j.ID {
		t.Fatalf("first file %+v", f1)
	}
	if err := db.LockVersion(v1.ID); err != nil {
		t.Fatal(err)
	}

	f2 := mustFile(t, db, acme.ID, j.ID, "2.pdf")
	if f2.VersionID == v1.ID {
		t.Fatalf("file registered into the locked version")
	}
	f3 := mustFile(t, db, acme.ID, j.ID, "3.pdf")
	if f3.VersionID != f2.VersionID {
		t.Errorf("third file in %s, want the open version %s", f3.VersionID, f2.VersionID)
	}
	job, versions, err := db.Job(acme.ID, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if job.CurrentVersionID != f2.VersionID || len(versions) != 2 || versions[1].Number != 2 ||
		versions[1].Status != store.StatusCreated || versions[0].Status != store.StatusQueued {
		t.Errorf("job %+v versions %+v", job, versions)
	}
	v2files, err := db.Files(acme.ID, j.ID, f2.VersionID)
	if err != nil || len(v2files) != 2 {
		t.Errorf("version 2 holds %d files (%v), want 2", len(v2files), err)
	}
}

func TestAtMostMaxFilesPerVersion(t *testing.T) {
	db, _ := openDB(t)
	acme := mustPartner(t, db, "acme")
	j, v := mustJob(t, db, store.Job{PartnerID: acme.ID})
	for i := range 3 {
		if _, err := db.RegisterFile(acme.ID, j.ID, store.File{FileName: fmt.Sprint(i)}, 3); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.RegisterFile(acme.ID, j.ID, store.File{FileName: "4"}, 3); !errors.Is(err, store.ErrTooManyFiles) {
		t.Errorf("fourth file: %v, want ErrTooManyFiles", err)
	}
	if err := db.LockVersion(v.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RegisterFile(acme.ID, j.ID, store.File{FileName: "4"}, 3); err != nil {
		t.Errorf("a new version refused a file: %v", err)
	}
}

func TestUploadsCommitUntilTheVersionLocks(t *testing.T) {
	db, c := openDB(t)
	acme := mustPartner(t, db, "acme")
	j, v := mustJob(t, db, store.Job{PartnerID: acme.ID})
	f := mustFile(t, db, acme.ID, j.ID, "a.pdf")

	if got, err := db.UploadTarget(f.ID); err != nil || got.ID != f.ID {
		t.Fatalf("UploadTarget = %+v, %v", got, err)
	}
	c.Advance(time.Minute)
	up, prev, err := db.CommitUpload(f.ID, 10, "aaaa")
	if err != nil || prev != "" || up.Status != store.FileUploaded || up.SHA256 != "aaaa" || up.UploadedAt == nil || !up.UploadedAt.Equal(c.Now()) {
		t.Fatalf("first commit = %+v prev %q err %v", up, prev, err)
	}
	if _, prev, err = db.CommitUpload(f.ID, 10, "bbbb"); err != nil || prev != "aaaa" {
		t.Fatalf("replacing commit: prev %q err %v, want aaaa", prev, err)
	}
	if err := db.LockVersion(v.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UploadTarget(f.ID); !errors.Is(err, store.ErrVersionLocked) {
		t.Errorf("UploadTarget on a locked version: %v", err)
	}
	if _, _, err := db.CommitUpload(f.ID, 10, "cccc"); !errors.Is(err, store.ErrVersionLocked) {
		t.Errorf("CommitUpload on a locked version: %v", err)
	}
	if got, _ := db.File(f.ID); got.SHA256 != "bbbb" {
		t.Errorf("locked file's sha %q, want bbbb", got.SHA256)
	}
	for _, call := range []func() error{
		func() error { _, err := db.UploadTarget("file_missing"); return err },
		func() error { _, _, err := db.CommitUpload("file_missing", 1, "x"); return err },
		func() error { _, err := db.File("file_missing"); return err },
	} {
		if err := call(); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown file: %v, want ErrNotFound", err)
		}
	}
}

func TestFilesListsOldestFirstAndFiltersByVersion(t *testing.T) {
	db, _ := openDB(t)
	acme := mustPartner(t, db, "acme")
	j, v1 := mustJob(t, db, store.Job{PartnerID: acme.ID})
	other, otherV := mustJob(t, db, store.Job{PartnerID: acme.ID})
	a := mustFile(t, db, acme.ID, j.ID, "a")
	mustFile(t, db, acme.ID, other.ID, "elsewhere")
	b := mustFile(t, db, acme.ID, j.ID, "b")
	if err := db.LockVersion(v1.ID); err != nil {
		t.Fatal(err)
	}
	c := mustFile(t, db, acme.ID, j.ID, "c")

	names := func(files []store.File) string {
		s := ""
		for _, f := range files {
			s += f.FileName
		}
		return s
	}
	tests := []struct {
		version string
		want    string
	}{
		{"", "abc"},
		{v1.ID, "ab"},
		{c.VersionID, "c"},
	}
	for _, tc := range tests {
		files, err := db.Files(acme.ID, j.ID, tc.version)
		if err != nil || names(files) != tc.want {
			t.Errorf("Files(%q) = %q (%v), want %q", tc.version, names(files), err, tc.want)
		}
	}
	for _, bad := range []string{otherV.ID, store.NewID(store.PrefixVersion)} {
		if _, err := db.Files(acme.ID, j.ID, bad); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Files of version %s not of the job: %v, want ErrNotFound", bad, err)
		}
	}
	_, _ = a, b
}
