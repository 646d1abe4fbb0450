package backup

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"planreview/store"
	"planreview/store/durable"
	"planreview/textmatch"
)

// ErrNotEmpty means the restore target already holds something.
var ErrNotEmpty = errors.New("data folder is not empty")

// CorruptError names the archive entry that failed its check.
type CorruptError struct {
	Entry  string
	Reason string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("archive entry %s: %s; nothing was restored", e.Entry, e.Reason)
}

// maxManifestBytes bounds the manifest read into memory (about 150 bytes
// per entry: millions of entries fit).
const maxManifestBytes = 512 << 20

// validEntry is every name a backup writes. Anything else (absolute paths,
// "..", links, devices) is refused before a byte is written.
var validEntry = textmatch.MustCompile(`^(planreview\.db|signing\.key|manifest\.json|files/[A-Za-z0-9_-]{1,100}/([0-9a-f]{64}\.pdf|marked-up\.pdf))$`)

// Restore unpacks an archive (plain or gzip-compressed tar) into dir, which
// must be empty or absent. Entries land in a hidden staging folder inside
// dir, each fsynced; only when every entry matches the manifest's size and
// SHA-256 are they renamed into place and dir fsynced. Any failure removes
// the staging folder, so dir is left as empty as it was found.
func Restore(ctx context.Context, r io.Reader, dir string) (Manifest, error) {
	if err := checkEmpty(dir); err != nil {
		return Manifest{}, err
	}
	staging, err := os.MkdirTemp(dir, ".restore-")
	if err != nil {
		return Manifest{}, err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(staging)
		}
	}()
	m, err := extract(ctx, r, staging)
	if err != nil {
		return m, err
	}
	top, err := os.ReadDir(staging)
	if err != nil {
		return m, err
	}
	for _, e := range top {
		if err := os.Rename(filepath.Join(staging, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			return m, err
		}
	}
	if err := durable.SyncDir(dir); err != nil {
		return m, err
	}
	done = true
	if err := os.Remove(staging); err != nil {
		return m, err
	}
	return m, durable.SyncDir(dir)
}

func checkEmpty(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s: %w (it holds %s); restore into a new or empty folder", dir, ErrNotEmpty, entries[0].Name())
	}
	return nil
}

type extracted struct {
	size int64
	sum  string
}

// extract writes every entry under staging and checks them all against the
// manifest once the archive ends (the manifest is its last entry).
func extract(ctx context.Context, r io.Reader, staging string) (Manifest, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var src io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return Manifest{}, fmt.Errorf("gzip: %w", err)
		}
		defer gz.Close()
		src = gz
	}
	tr := tar.NewReader(src)
	buf := make([]byte, copyBufferSize)
	h := sha256.New()
	got := map[string]extracted{}
	var written []string
	var manifest []byte
	dirs := map[string]bool{}
	last := "the start of the archive"
	for {
		if err := ctx.Err(); err != nil {
			return Manifest{}, err
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Manifest{}, &CorruptError{Entry: "after " + last, Reason: "unreadable archive: " + err.Error()}
		}
		name := hdr.Name
		if !validEntry.MatchString(name) || hdr.Typeflag != tar.TypeReg {
			return Manifest{}, &CorruptError{Entry: fmt.Sprintf("%q", name), Reason: "not a file a planreview backup holds"}
		}
		if _, dup := got[name]; dup || (name == ManifestEntry && manifest != nil) {
			return Manifest{}, &CorruptError{Entry: name, Reason: "appears twice"}
		}
		last = name
		if name == ManifestEntry {
			manifest, err = io.ReadAll(io.LimitReader(tr, maxManifestBytes+1))
			if err != nil {
				return Manifest{}, &CorruptError{Entry: name, Reason: err.Error()}
			}
			if len(manifest) > maxManifestBytes {
				return Manifest{}, &CorruptError{Entry: name, Reason: "too large"}
			}
			continue
		}
		target := filepath.Join(staging, filepath.FromSlash(name))
		if d := filepath.Dir(target); !dirs[d] {
			if err := os.MkdirAll(d, 0o700); err != nil {
				return Manifest{}, err
			}
			dirs[d] = true
		}
		h.Reset()
		n, err := writeFile(target, io.TeeReader(tr, h), buf)
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return Manifest{}, &CorruptError{Entry: name, Reason: "cut off (the archive is truncated)"}
		}
		if err != nil {
			return Manifest{}, fmt.Errorf("%s: %w", name, err)
		}
		got[name] = extracted{size: n, sum: fmt.Sprintf("%x", h.Sum(nil))}
		written = append(written, target)
	}
	if manifest == nil {
		return Manifest{}, &CorruptError{Entry: ManifestEntry, Reason: "missing (the archive is truncated or not a planreview backup)"}
	}
	var m Manifest
	if err := json.Unmarshal(manifest, &m); err != nil || m.Format != formatName {
		return m, &CorruptError{Entry: ManifestEntry, Reason: "not a planreview backup manifest"}
	}
	if m.FormatVersion > formatVersion {
		return m, fmt.Errorf("backup format %d is newer than this binary reads (%d): restore with a newer planreview", m.FormatVersion, formatVersion)
	}
	if m.SchemaVersion > store.SchemaVersion() {
		return m, fmt.Errorf("the backup's database schema %d is newer than this binary's (%d): restore with planreview %s or newer", m.SchemaVersion, store.SchemaVersion(), m.AppVersion)
	}
	listed := map[string]bool{}
	for _, e := range m.Entries {
		x, ok := got[e.Name]
		switch {
		case !ok:
			return m, &CorruptError{Entry: e.Name, Reason: "listed in the manifest but missing from the archive"}
		case x.size != e.Size:
			return m, &CorruptError{Entry: e.Name, Reason: fmt.Sprintf("size %d, the manifest says %d", x.size, e.Size)}
		case x.sum != e.SHA256:
			return m, &CorruptError{Entry: e.Name, Reason: "SHA-256 does not match the manifest (the archive is damaged)"}
		}
		listed[e.Name] = true
	}
	var extra []string
	for name := range got {
		if !listed[name] {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return m, &CorruptError{Entry: extra[0], Reason: "not listed in the manifest"}
	}
	if !listed[DatabaseEntry] {
		return m, &CorruptError{Entry: DatabaseEntry, Reason: "missing"}
	}
	// Every file, then every folder's entries, durable before the rename.
	if err := syncTree(staging, written); err != nil {
		return m, err
	}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Slice(sorted, func(i, j int) bool { return len(sorted[i]) > len(sorted[j]) })
	for _, d := range sorted {
		if err := durable.SyncDir(d); err != nil {
			return m, err
		}
	}
	if err := durable.SyncDir(path.Dir(filepath.ToSlash(staging))); err != nil {
		return m, err
	}
	return m, nil
}

// writeFile writes r to a new file at target; syncTree makes it durable.
func writeFile(target string, r io.Reader, buf []byte) (int64, error) {
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, err
	}
	n, err := io.CopyBuffer(struct{ io.Writer }{f}, r, buf) // our buffer, not ReadFrom's
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// Describe is one line about what a manifest holds.
func Describe(m Manifest) string {
	files, marked := 0, 0
	for _, e := range m.Entries {
		switch {
		case strings.HasSuffix(e.Name, "/"+markedUpName):
			marked++
		case strings.HasPrefix(e.Name, filesDir+"/"):
			files++
		}
	}
	return fmt.Sprintf("database schema %d, %d uploads, %d marked-up copies, %d bytes, made %s by planreview %s",
		m.SchemaVersion, files, marked, m.Bytes(), m.CreatedAt.Format("2006-01-02 15:04:05Z"), m.AppVersion)
}
