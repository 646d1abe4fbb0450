// Package backup writes and restores the whole appliance as one tar
// archive: a consistent database snapshot, every upload and marked-up copy
// that snapshot references, the URL signing key, and last a manifest with
// each entry's size and SHA-256. Entry names are paths inside the data
// folder, so an archive also reads as a data folder with plain tar.
package backup

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"time"

	"planreview/store"
)

// Entry names inside the archive (and inside the data folder).
const (
	DatabaseEntry   = "planreview.db"
	SigningKeyEntry = "signing.key"
	ManifestEntry   = "manifest.json"
	filesDir        = "files"
	markedUpName    = "marked-up.pdf"

	formatName    = "planreview-backup"
	formatVersion = 1
)

// Manifest is the archive's last entry: what it holds and how to check it.
type Manifest struct {
	Format        string    `json:"format"`
	FormatVersion int       `json:"formatVersion"`
	CreatedAt     time.Time `json:"createdAt"`
	AppVersion    string    `json:"appVersion"`
	SchemaVersion int       `json:"schemaVersion"`
	Entries       []Entry   `json:"entries"`
}

// Entry is one file of the archive.
type Entry struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Bytes is the total size of the entries.
func (m Manifest) Bytes() int64 {
	var n int64
	for _, e := range m.Entries {
		n += e.Size
	}
	return n
}

// Snapshotter is the database: a consistent copy and the uploads it names.
type Snapshotter interface {
	Snapshot(write func(size int64, src io.WriterTo) error) ([]store.BlobRef, error)
}

// Blobs is the upload store.
type Blobs interface {
	Hold() (release func())
	Path(fileID, sum string) string
	AnnotatedPath(fileID string) string
}

// Source is what a backup reads.
type Source struct {
	DB             Snapshotter
	Blobs          Blobs
	SigningKeyPath string
	AppVersion     string
}

// copyBufferSize is the one buffer a backup or restore copies through:
// memory stays flat whatever the size of the data.
const copyBufferSize = 1 << 20

// Write streams the archive to w. The database snapshot is taken first, in
// one short read transaction; the blob store is held from before it until
// the end, so uploads the snapshot references cannot be pruned while they
// are copied. Writers keep working throughout.
func Write(ctx context.Context, w io.Writer, src Source) (Manifest, error) {
	release := src.Blobs.Hold()
	defer release()
	aw := &archiveWriter{tw: tar.NewWriter(w), buf: make([]byte, copyBufferSize), h: sha256.New(), now: time.Now().UTC()}
	m := Manifest{Format: formatName, FormatVersion: formatVersion, CreatedAt: aw.now,
		AppVersion: src.AppVersion, SchemaVersion: store.SchemaVersion()}

	refs, err := src.DB.Snapshot(func(size int64, db io.WriterTo) error {
		e, err := aw.add(DatabaseEntry, size, aw.now, func(w io.Writer) (int64, error) { return db.WriteTo(w) })
		m.Entries = append(m.Entries, e)
		return err
	})
	if err != nil {
		return m, fmt.Errorf("database snapshot: %w", err)
	}
	if key, err := os.Open(src.SigningKeyPath); err == nil {
		e, err := aw.addFile(SigningKeyEntry, key)
		key.Close()
		if err != nil {
			return m, err
		}
		m.Entries = append(m.Entries, e)
	} else if !errors.Is(err, os.ErrNotExist) { // never served: no key yet
		return m, fmt.Errorf("signing key: %w", err)
	}
	for _, ref := range refs {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		dir := path.Join(filesDir, ref.FileID)
		upload, err := os.Open(src.Blobs.Path(ref.FileID, ref.SHA256))
		if err != nil {
			return m, fmt.Errorf("upload of file %s, which the database references: %w", ref.FileID, err)
		}
		e, err := aw.addFile(path.Join(dir, ref.SHA256+".pdf"), upload)
		upload.Close()
		if err != nil {
			return m, err
		}
		m.Entries = append(m.Entries, e)
		// The marked-up copy exists once the file's scan completed; it is
		// replaced by rename only, so an open handle reads one whole copy.
		marked, err := os.Open(src.Blobs.AnnotatedPath(ref.FileID))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return m, fmt.Errorf("marked-up copy of file %s: %w", ref.FileID, err)
		}
		e, err = aw.addFile(path.Join(dir, markedUpName), marked)
		marked.Close()
		if err != nil {
			return m, err
		}
		m.Entries = append(m.Entries, e)
	}
	raw, err := marshalManifest(m)
	if err != nil {
		return m, err
	}
	if err := aw.tw.WriteHeader(&tar.Header{Name: ManifestEntry, Mode: 0o600, Size: int64(len(raw)),
		ModTime: aw.now, Typeflag: tar.TypeReg}); err != nil {
		return m, err
	}
	if _, err := aw.tw.Write(raw); err != nil {
		return m, err
	}
	return m, aw.tw.Close()
}

type archiveWriter struct {
	tw  *tar.Writer
	buf []byte
	h   hash.Hash
	now time.Time
}

// addFile copies an open file as one entry, exactly as long as it was when
// opened (files are replaced by rename, never rewritten in place).
func (aw *archiveWriter) addFile(name string, f *os.File) (Entry, error) {
	info, err := f.Stat()
	if err != nil {
		return Entry{}, err
	}
	return aw.add(name, info.Size(), info.ModTime(), func(w io.Writer) (int64, error) {
		return io.CopyBuffer(w, io.LimitReader(f, info.Size()), aw.buf)
	})
}

// add writes one entry of size bytes from fill, hashing them on the way.
func (aw *archiveWriter) add(name string, size int64, mtime time.Time, fill func(io.Writer) (int64, error)) (Entry, error) {
	if err := aw.tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: mtime,
		Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
		return Entry{}, fmt.Errorf("%s: %w", name, err)
	}
	aw.h.Reset()
	n, err := fill(io.MultiWriter(aw.tw, aw.h))
	if err != nil {
		return Entry{}, fmt.Errorf("%s: %w", name, err)
	}
	if n != size {
		return Entry{}, fmt.Errorf("%s: read %d bytes, expected %d", name, n, size)
	}
	return Entry{Name: name, Size: size, SHA256: hex.EncodeToString(aw.h.Sum(nil))}, nil
}
