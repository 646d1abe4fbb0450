// Package blob keeps uploaded PDFs (and files made from them) on the local
// filesystem under the data folder: files/<fileId>/<sha256>.pdf. The name
// carries the content hash, so replacing an upload writes a new name and the
// database commit decides which one is current; a cut-off upload never
// touches the bytes already committed.
package blob

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"planreview/store/durable"
)

// ErrShortBody means the body ended before the announced length.
var ErrShortBody = errors.New("body shorter than its Content-Length")

// ErrNotPDF means the body does not start with %PDF-.
var ErrNotPDF = errors.New("body is not a PDF")

// Store is a folder of blobs.
type Store struct {
	root string
}

// Open creates the folder if needed.
func Open(root string) (*Store, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, err
	}
	return &Store{root: root}, nil
}

// Stored describes bytes written by Put.
type Stored struct {
	Size   int64
	SHA256 string
}

// copyBuffer is large enough that a 100 MB upload costs few syscalls.
const copyBuffer = 1 << 20

// Put streams exactly size bytes of a PDF from r into the file's folder. The
// first bytes must be %PDF-. Nothing is left behind on error.
func (s *Store) Put(fileID string, r io.Reader, size int64) (Stored, error) {
	dir := s.dir(fileID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Stored{}, err
	}
	br := bufio.NewReaderSize(io.LimitReader(r, size), copyBuffer)
	head, err := br.Peek(5)
	switch {
	case len(head) < 5 && int64(len(head)) == size:
		return Stored{}, ErrNotPDF // complete, but too short to be a PDF
	case len(head) < 5 && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)):
		return Stored{}, ErrShortBody
	case len(head) < 5:
		return Stored{}, err
	case string(head) != "%PDF-":
		return Stored{}, ErrNotPDF
	}
	hash := sha256.New()
	tmp, err := os.CreateTemp(dir, ".upload.tmp-*")
	if err != nil {
		return Stored{}, err
	}
	committed := false
	defer func() {
		if !committed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	buf := make([]byte, copyBuffer)
	n, err := io.CopyBuffer(&hashingWriter{f: tmp, h: hash}, struct{ io.Reader }{br}, buf)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return Stored{}, ErrShortBody
	}
	if err != nil {
		return Stored{}, err
	}
	if n != size {
		return Stored{}, ErrShortBody
	}
	if err := tmp.Sync(); err != nil {
		return Stored{}, fmt.Errorf("fsync upload: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return Stored{}, err
	}
	sum := hex.EncodeToString(hash.Sum(nil))
	if err := os.Rename(tmp.Name(), s.Path(fileID, sum)); err != nil {
		return Stored{}, err
	}
	committed = true
	return Stored{Size: n, SHA256: sum}, durable.SyncDir(dir)
}

// hashingWriter writes each chunk to the file while another goroutine
// hashes the same chunk. SHA-256 of 100 MB costs about as much CPU as
// writing it to the page cache, so on two cores overlapping the two cut
// Put's time for 100 MB by 14-38% against io.MultiWriter (docs/bench-api.md;
// store/bench_test.go BenchmarkBlobPut100MB). The chunk is not touched
// after Write returns, as io.Writer requires.
type hashingWriter struct {
	f *os.File
	h hash.Hash
}

func (w *hashingWriter) Write(p []byte) (int, error) {
	hashed := make(chan struct{})
	go func() {
		w.h.Write(p) // hash.Hash.Write never fails
		close(hashed)
	}()
	n, err := w.f.Write(p)
	<-hashed
	return n, err
}

// Path is where the blob of fileID with content hash sum lives.
func (s *Store) Path(fileID, sum string) string {
	return filepath.Join(s.dir(fileID), sum+".pdf")
}

// Open opens the committed blob of a file.
func (s *Store) Open(fileID, sum string) (*os.File, error) {
	return os.Open(s.Path(fileID, sum))
}

// AnnotatedPath is where the marked-up copy of fileID lives. A file belongs
// to one version, so one marked-up copy per file is enough.
func (s *Store) AnnotatedPath(fileID string) string {
	return filepath.Join(s.dir(fileID), "marked-up.pdf")
}

// staleTemp is how long a temp file must have gone unwritten before Prune
// takes it for a crash's leftover. A fresher one belongs to an upload still
// streaming (a concurrent re-PUT of the same file), whose rename would fail
// if its temp file vanished.
const staleTemp = time.Hour

// Prune deletes every upload of fileID except keep, and temp files a crash
// left. Called after a commit replaced the file's bytes.
func (s *Store) Prune(fileID, keep string) error {
	entries, err := os.ReadDir(s.dir(fileID))
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		name := e.Name()
		upload := len(name) == 64+len(".pdf") && strings.HasSuffix(name, ".pdf")
		temp := strings.HasPrefix(name, ".upload.tmp-")
		if name == keep+".pdf" || (!upload && !temp) {
			continue
		}
		if info, err := e.Info(); temp && (err != nil || time.Since(info.ModTime()) < staleTemp) {
			continue
		}
		if err := os.Remove(filepath.Join(s.dir(fileID), name)); err != nil && !os.IsNotExist(err) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (s *Store) dir(fileID string) string {
	return filepath.Join(s.root, filepath.Base(fileID))
}
