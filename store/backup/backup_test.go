package backup_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"planreview/store"
	"planreview/store/backup"
	"planreview/store/blob"
)

// dataDir is a data folder with a database, a signing key, two uploaded
// files (one with a marked-up copy) and one file still pending upload.
type dataDir struct {
	dir   string
	db    *store.DB
	blobs *blob.Store
	files map[string][]byte // entry name -> bytes
}

func newDataDir(t *testing.T) *dataDir {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "planreview.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	blobs, err := blob.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	d := &dataDir{dir: dir, db: db, blobs: blobs, files: map[string][]byte{}}
	key := []byte("0123456789abcdef0123456789abcdef")
	if err := os.WriteFile(filepath.Join(dir, "signing.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	d.files["signing.key"] = key
	p, _, err := db.EnsurePartner("acme")
	if err != nil {
		t.Fatal(err)
	}
	job, _, err := db.CreateJob(store.Job{PartnerID: p.ID, Name: "job"})
	if err != nil {
		t.Fatal(err)
	}
	for i, body := range []string{"%PDF-1.7 first file", "%PDF-1.7 second file, longer", ""} {
		f, err := db.RegisterFile(p.ID, job.ID, store.File{FileName: "f.pdf", FileSize: int64(len(body)), ContentType: "application/pdf"}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if body == "" {
			continue // pending: no bytes, nothing to back up
		}
		st, err := blobs.Put(f.ID, strings.NewReader(body), int64(len(body)))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.CommitUpload(f.ID, st.Size, st.SHA256); err != nil {
			t.Fatal(err)
		}
		d.files["files/"+f.ID+"/"+st.SHA256+".pdf"] = []byte(body)
		if i == 0 {
			marked := []byte("%PDF-1.7 marked up")
			if err := os.WriteFile(blobs.AnnotatedPath(f.ID), marked, 0o600); err != nil {
				t.Fatal(err)
			}
			d.files["files/"+f.ID+"/marked-up.pdf"] = marked
		}
	}
	return d
}

func (d *dataDir) backup(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	m, err := backup.Write(context.Background(), &buf, backup.Source{DB: d.db, Blobs: d.blobs,
		SigningKeyPath: filepath.Join(d.dir, "signing.key"), AppVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries) != len(d.files)+1 || m.Entries[0].Name != backup.DatabaseEntry {
		t.Fatalf("manifest entries %+v, want the database and %d files", m.Entries, len(d.files))
	}
	return buf.Bytes()
}

func TestBackupRestoresEveryFile(t *testing.T) {
	d := newDataDir(t)
	archive := d.backup(t)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(archive)
	zw.Close()
	for name, raw := range map[string][]byte{"tar": archive, "tar.gz": gz.Bytes()} {
		t.Run(name, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "restored") // absent: created
			m, err := backup.Restore(context.Background(), bytes.NewReader(raw), target)
			if err != nil {
				t.Fatal(err)
			}
			if m.AppVersion != "test" || m.SchemaVersion != store.SchemaVersion() {
				t.Errorf("manifest %+v", m)
			}
			for entry, want := range d.files {
				got, err := os.ReadFile(filepath.Join(target, filepath.FromSlash(entry)))
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s restored as %q (%v), want %q", entry, got, err, want)
				}
			}
			leftovers, _ := filepath.Glob(filepath.Join(target, ".restore-*"))
			if len(leftovers) > 0 {
				t.Errorf("staging folder left: %v", leftovers)
			}
			db, err := store.Open(filepath.Join(target, "planreview.db"), store.Options{LockTimeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ps, err := db.Partners()
			if err != nil || len(ps) != 1 || ps[0].Name != "acme" {
				t.Errorf("restored partners %+v, %v", ps, err)
			}
		})
	}
}

func TestRestoreRefusesDamage(t *testing.T) {
	d := newDataDir(t)
	archive := d.backup(t)
	var upload string
	for name := range d.files {
		if strings.HasSuffix(name, ".pdf") && !strings.HasSuffix(name, "marked-up.pdf") {
			upload = name
		}
	}
	flipped := bytes.Clone(archive)
	at := bytes.Index(flipped, d.files[upload])
	flipped[at+len(d.files[upload])-1] ^= 0x01

	cases := []struct {
		name    string
		archive []byte
		entry   string
	}{
		{"flipped byte in an upload", flipped, upload},
		{"truncated", archive[:len(archive)/2], ""},
		{"empty", nil, "manifest.json"},
		{"not an archive", []byte(strings.Repeat("hello ", 200)), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			target := t.TempDir()
			_, err := backup.Restore(context.Background(), bytes.NewReader(c.archive), target)
			var ce *backup.CorruptError
			if !errors.As(err, &ce) {
				t.Fatalf("Restore = %v, want a CorruptError", err)
			}
			if c.entry != "" && ce.Entry != c.entry {
				t.Errorf("error names entry %q, want %q (%v)", ce.Entry, c.entry, err)
			}
			if left, _ := os.ReadDir(target); len(left) != 0 {
				t.Errorf("a refused restore left %v", left)
			}
		})
	}
}

func TestRestoreRefusesAFolderInUse(t *testing.T) {
	d := newDataDir(t)
	archive := d.backup(t)
	_, err := backup.Restore(context.Background(), bytes.NewReader(archive), d.dir)
	if !errors.Is(err, backup.ErrNotEmpty) {
		t.Fatalf("restore over a data folder: %v, want ErrNotEmpty", err)
	}
}

// TestBackupKeepsReplacedUploads: an upload the snapshot references is
// still copied when a newer upload replaces it during the backup.
func TestBackupKeepsReplacedUploads(t *testing.T) {
	d := newDataDir(t)
	release := d.blobs.Hold() // as Write does; the prune below is deferred
	for name := range d.files {
		if strings.HasPrefix(name, "files/") && !strings.HasSuffix(name, "marked-up.pdf") {
			fileID := strings.Split(name, "/")[1]
			if err := d.blobs.Prune(fileID, strings.Repeat("0", 64)); err != nil {
				t.Fatal(err)
			}
		}
	}
	d.backup(t) // fails if an upload vanished
	release()
}
