package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"planreview/store"
	"planreview/store/backup"
)

// backupJobIDs restores a backup archive into a temp folder, opens its
// database and lists the partner's job ids, newest first.
func backupJobIDs(t *testing.T, path, partnerID string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	restored := t.TempDir()
	if _, err := backup.Restore(context.Background(), f, restored); err != nil {
		t.Fatalf("restore %s: %v", path, err)
	}
	db, err := store.Open(filepath.Join(restored, backup.DatabaseEntry), store.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatalf("store.Open(backup): %v", err)
	}
	defer db.Close()
	items, _, err := db.Jobs(partnerID, store.JobQuery{Limit: 1000})
	if err != nil {
		t.Fatalf("jobs in backup: %v", err)
	}
	var ids []string
	for _, it := range items {
		ids = append(ids, it.Job.ID)
	}
	return ids
}

// TestBackupWhileServing: `backup FILE` while serve runs goes through the
// admin socket and writes a database that store.Open opens with the same
// jobs; without a server it reads the database directly.
func TestBackupWhileServing(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	srv := startServer(t, dir)
	key := issueKey(t, dir, "Backup Co")
	c := apiClient{t: t, base: srv.base, key: key.Key}
	for i := range 20 {
		c.createJob(fmt.Sprintf("backup %d", i))
	}
	var want []string
	for _, j := range c.listJobs() {
		want = append(want, j.JobID)
	}

	out := filepath.Join(t.TempDir(), "planreview-backup.tar")
	res := mustCLI(t, dir, "backup", out)
	if res.took > 10*time.Second {
		t.Errorf("backup while serving took %s", res.took)
	}
	if !strings.Contains(res.stderr, "Wrote") || !strings.Contains(res.stderr, out) {
		t.Errorf("backup stderr = %q, want the bytes written and the file", res.stderr)
	}
	if strings.Contains(srv.stderr.String(), "admin: backup failed") {
		t.Errorf("server reported a failed backup")
	}
	info, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("backup file mode %v, want 0600 (it holds key hashes)", info.Mode().Perm())
	}
	if got := backupJobIDs(t, out, key.PartnerID); !slices.Equal(got, want) {
		t.Errorf("backup has jobs %v, want %v", got, want)
	}
	// The server keeps serving and writing after the backup.
	c.createJob("after backup")
	if got := ping(t, srv.base, key.Key); got != http.StatusOK {
		t.Errorf("ping after backup: %d", got)
	}

	// `backup -` writes the database to stdout.
	res = mustCLI(t, dir, "backup", "-")
	stdoutCopy := filepath.Join(t.TempDir(), "stdout.tar")
	if err := os.WriteFile(stdoutCopy, []byte(res.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := backupJobIDs(t, stdoutCopy, key.PartnerID); len(got) != len(want)+1 {
		t.Errorf("backup - has %d jobs, want %d", len(got), len(want)+1)
	}

	// Without a server: the database directly, same content.
	srv.signal(syscall.SIGTERM)
	if code := srv.wait(20 * time.Second); code != 0 {
		t.Fatalf("serve exit %d", code)
	}
	direct := filepath.Join(t.TempDir(), "direct.tar.gz")
	mustCLI(t, dir, "backup", direct)
	if got := backupJobIDs(t, direct, key.PartnerID); len(got) != len(want)+1 || !slices.Equal(got[1:], want) {
		t.Errorf("direct backup has jobs %v, want the %d before plus one", got, len(want))
	}

	// A backup into a folder that does not exist fails and leaves nothing.
	if res := runCLI(t, dir, "backup", filepath.Join(dir, "no", "such", "dir", "b.tar")); res.code == 0 {
		t.Errorf("backup into a missing folder succeeded")
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	res := mustCLI(t, "", "version")
	for _, want := range []string{"planreview ", "partner API v1", "database schema ", "go1."} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("version output lacks %q:\n%s", want, res.stdout)
		}
	}
	if want := fmt.Sprintf("database schema %d", store.SchemaVersion()); !strings.Contains(res.stdout, want) {
		t.Errorf("version output lacks %q:\n%s", want, res.stdout)
	}
}

// TestVersionStamped: a release build's -ldflags stamp version, commit and
// build date, shown by `version` and `version --json`.
func TestVersionStamped(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "planreview")
	build := exec.Command("go", "build", "-o", bin, "-ldflags",
		"-X planreview/cmd.version=9.8.7 -X planreview/cmd.commit=0123abc -X planreview/cmd.buildDate=2026-11-24T00:00:00Z", ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "planreview 9.8.7 (commit 0123abc, built 2026-11-24T00:00:00Z)\n") {
		t.Errorf("version = %q (%v)", out, err)
	}
	out, err = exec.Command(bin, "version", "--json").Output()
	var info buildInfo
	if err != nil || json.Unmarshal(out, &info) != nil || info.Version != "9.8.7" || info.Commit != "0123abc" ||
		info.BuildDate != "2026-11-24T00:00:00Z" || info.SchemaVersion != store.SchemaVersion() || info.APIVersion != "1.0.0" {
		t.Errorf("version --json = %s (%v)", out, err)
	}
}
