// Package blob keeps uploaded PDFs (and files made from them) on the local
// filesystem under the data folder: files/<fileId>/<sha256>.pdf. The name
// carries the content hash, so replacing an upload writes a new name and the
// database commit decides which one is current; a cut-off upload never
// touches the bytes already committed.
package blob

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
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

// Put streams exactly size bytes of a PDF from r into the file's folder. The
// first bytes must be %PDF-. Nothing is left behind on error.
//
// Reading, hashing and writing run side by side on a ring of chunk buffers
// (see streamChunks), and writes use direct I/O where the filesystem allows
// it (see openUploadTemp): an upload is read once, by its scan, so filling
// the page cache with it would only evict what the appliance reads often.
func (s *Store) Put(fileID string, r io.Reader, size int64) (Stored, error) {
	dir := s.dir(fileID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Stored{}, err
	}
	body := io.LimitReader(r, size)
	first := getChunkBuffer()

	// The magic first, so a body that is not a PDF never reaches the disk.
	head, err := readChunk(body, first.b[:5], size)
	switch {
	case len(head) < 5 && int64(len(head)) == size:
		err = ErrNotPDF // complete, but too short to be a PDF
	case len(head) < 5:
	case string(head) != "%PDF-":
		err = ErrNotPDF
	}
	if err != nil {
		putChunkBuffer(first)
		return Stored{}, err
	}

	tmp, err := openUploadTemp(dir)
	if err != nil {
		putChunkBuffer(first)
		return Stored{}, err
	}
	committed := false
	defer func() {
		if !committed {
			tmp.Close()
			os.Remove(tmp.f.Name())
		}
	}()
	hash := sha256.New()
	if err := streamChunks(body, size, first, tmp, hash); err != nil {
		return Stored{}, err
	}
	if err := tmp.f.Sync(); err != nil {
		return Stored{}, fmt.Errorf("fsync upload: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return Stored{}, err
	}
	sum := hex.EncodeToString(hash.Sum(nil))
	if err := os.Rename(tmp.f.Name(), s.Path(fileID, sum)); err != nil {
		return Stored{}, err
	}
	committed = true
	return Stored{Size: size, SHA256: sum}, durable.SyncDir(dir)
}

// ringDepth is how many chunk buffers one upload cycles through: enough
// that the reader, the hasher and the writer each have a chunk to work on
// while a fourth waits, so none stalls on another's hiccup.
const ringDepth = 4

// piece is one chunk on its way through the hasher and the writer; its
// buffer goes back to the ring when both are done with it.
type piece struct {
	buf  *chunkBuffer
	data []byte
	refs atomic.Int32
}

// streamChunks reads the rest of body (first already holds its first five
// bytes) and feeds every chunk, in order, to the hasher and the writer,
// which run concurrently with each other and with the next reads. SHA-256
// of 100 MB takes about as long as the network read and the disk write, so
// on two cores the upload lasts about one of them instead of their sum.
func streamChunks(body io.Reader, size int64, first *chunkBuffer, out *uploadFile, h hash.Hash) error {
	free := make(chan *chunkBuffer, ringDepth)
	free <- first
	for range ringDepth - 1 {
		free <- getChunkBuffer()
	}
	defer func() {
		for range ringDepth {
			putChunkBuffer(<-free)
		}
	}()
	release := func(p *piece) {
		if p.refs.Add(-1) == 0 {
			free <- p.buf
		}
	}
	toHash, toWrite := make(chan *piece, ringDepth), make(chan *piece, ringDepth)
	var writeErr error
	var writeFailed atomic.Bool
	var stages sync.WaitGroup
	stages.Go(func() {
		for p := range toHash {
			h.Write(p.data) // hash.Hash.Write never fails
			release(p)
		}
	})
	stages.Go(func() {
		for p := range toWrite {
			if writeErr == nil {
				if writeErr = out.write(p.data); writeErr != nil {
					writeFailed.Store(true)
				}
			}
			release(p)
		}
	})

	// The first buffer out of free is first (channels are FIFO), whose
	// five bytes are already read: have counts them once.
	var readErr error
	for n, have := int64(0), 5; n < size && !writeFailed.Load(); have = 0 {
		buf := <-free
		var data []byte
		data, readErr = readChunk(body, buf.b[have:], size-n-int64(have))
		if readErr != nil {
			free <- buf
			break
		}
		p := &piece{buf: buf, data: buf.b[:have+len(data)]}
		p.refs.Store(2)
		toHash <- p
		toWrite <- p
		n += int64(len(p.data))
	}
	close(toHash)
	close(toWrite)
	stages.Wait()
	if readErr != nil {
		return readErr
	}
	return writeErr
}

// readChunk fills buf, or reads the remaining bytes when fewer are left. A
// body that ends early is ErrShortBody; other read errors pass through.
func readChunk(body io.Reader, buf []byte, remaining int64) ([]byte, error) {
	if remaining < int64(len(buf)) {
		buf = buf[:remaining]
	}
	k, err := io.ReadFull(body, buf)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = ErrShortBody
	}
	return buf[:k], err
}

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
	return filepath.Join(s.dir(fileID), annotatedName)
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

// Remove deletes every blob of fileID (uploads, temp files, marked-up copy)
// once the database no longer references the file. An upload still
// streaming into the folder then fails at its rename, and its handler finds
// the file gone.
func (s *Store) Remove(fileID string) error {
	err := os.RemoveAll(s.dir(fileID))
	if err != nil {
		return err
	}
	return durable.SyncDir(s.root)
}
