package blob

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const fileID = "file_01ARZ3NDEKTSV4RRFFQ69G5FAV"

func pdf(tag string) []byte {
	return []byte("%PDF-1.4\n% " + tag + "\n" + strings.Repeat("0 0 m\n", 100) + "%%EOF\n")
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func names(t *testing.T, s *Store) []string {
	t.Helper()
	entries, err := os.ReadDir(s.dir(fileID))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func open(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "files"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPutStoresUnderItsHash(t *testing.T) {
	s := open(t)
	body := pdf("a")
	st, err := s.Put(fileID, bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	if st.Size != int64(len(body)) || st.SHA256 != sum(body) {
		t.Errorf("Stored %+v, want %d %s", st, len(body), sum(body))
	}
	f, err := s.Open(fileID, st.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, _ := io.ReadAll(f)
	if !bytes.Equal(got, body) {
		t.Errorf("stored bytes differ")
	}
	if info, _ := os.Stat(s.Path(fileID, st.SHA256)); info.Mode().Perm()&0o077 != 0 {
		t.Errorf("blob mode %v is readable by others", info.Mode().Perm())
	}
	if got := names(t, s); len(got) != 1 {
		t.Errorf("folder holds %v, want one blob", got)
	}
}

// failingReader yields its data, then an error (a connection cut).
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestPutRefusesBadBodiesAndLeavesNothing(t *testing.T) {
	body := pdf("b")
	tests := []struct {
		name string
		r    io.Reader
		size int64
		want error
	}{
		{"short body", bytes.NewReader(body[:len(body)/2]), int64(len(body)), ErrShortBody},
		{"short body cut by unexpected EOF", &failingReader{body[:len(body)/2], io.ErrUnexpectedEOF}, int64(len(body)), ErrShortBody},
		{"body of four bytes", bytes.NewReader([]byte("%PDF")), 10, ErrShortBody},
		{"empty body", bytes.NewReader(nil), 10, ErrShortBody},
		{"not a PDF", bytes.NewReader([]byte("<html>" + string(body))), int64(len(body) + 6), ErrNotPDF},
		{"too short to be a PDF", bytes.NewReader([]byte("%PD")), 3, ErrNotPDF},
		{"zip file", bytes.NewReader([]byte("PK\x03\x04" + string(body))), int64(len(body) + 4), ErrNotPDF},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			if _, err := s.Put(fileID, tc.r, tc.size); !errors.Is(err, tc.want) {
				t.Errorf("Put = %v, want %v", err, tc.want)
			}
			if got := names(t, s); len(got) != 0 {
				t.Errorf("a refused Put left %v", got)
			}
		})
	}
	t.Run("read error mid-body", func(t *testing.T) {
		s := open(t)
		boom := errors.New("connection reset")
		if _, err := s.Put(fileID, &failingReader{body[:20], boom}, int64(len(body))); !errors.Is(err, boom) {
			t.Errorf("Put = %v, want the read error", err)
		}
		if got := names(t, s); len(got) != 0 {
			t.Errorf("a failed Put left %v", got)
		}
	})
	t.Run("longer body is cut at size", func(t *testing.T) {
		s := open(t)
		st, err := s.Put(fileID, bytes.NewReader(append(append([]byte{}, body...), "trailing"...)), int64(len(body)))
		if err != nil || st.Size != int64(len(body)) || st.SHA256 != sum(body) {
			t.Errorf("Put = %+v, %v; want exactly size bytes", st, err)
		}
	})
}

func TestReplaceKeepsTheOldBlobUntilPrune(t *testing.T) {
	s := open(t)
	first, second := pdf("first"), pdf("second")
	a, err := s.Put(fileID, bytes.NewReader(first), int64(len(first)))
	if err != nil {
		t.Fatal(err)
	}
	// A failed replacement leaves the first blob alone.
	if _, err := s.Put(fileID, bytes.NewReader(second[:10]), int64(len(second))); !errors.Is(err, ErrShortBody) {
		t.Fatalf("short replacement: %v", err)
	}
	b, err := s.Put(fileID, bytes.NewReader(second), int64(len(second)))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, s); len(got) != 2 {
		t.Fatalf("before the commit both blobs must exist, folder holds %v", got)
	}
	if got, _ := os.ReadFile(s.Path(fileID, a.SHA256)); !bytes.Equal(got, first) {
		t.Errorf("the first blob changed before the commit")
	}

	// A crash left a temp file behind long ago; Prune clears it with the
	// old blob, and keeps anything that is not an upload as well as the
	// temp file of an upload still streaming.
	stale := filepath.Join(s.dir(fileID), ".upload.tmp-123")
	if err := os.WriteFile(stale, []byte("junk"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.dir(fileID), ".upload.tmp-456"), []byte("%PDF-streaming"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.dir(fileID), "notes.txt"), []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.AnnotatedPath(fileID), []byte("%PDF-marked"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Prune(fileID, b.SHA256); err != nil {
		t.Fatal(err)
	}
	got := names(t, s)
	want := []string{".upload.tmp-456", b.SHA256 + ".pdf", "marked-up.pdf", "notes.txt"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("after Prune the folder holds %v, want %v", got, want)
	}
	if _, err := s.Open(fileID, a.SHA256); !os.IsNotExist(err) {
		t.Errorf("old blob still opens: %v", err)
	}
}

func TestPruneOfAnUnknownFileIsAnError(t *testing.T) {
	s := open(t)
	if err := s.Prune("file_none", "x"); err == nil {
		t.Errorf("Prune of a file without a folder succeeded")
	}
}

func TestFileIDCannotEscapeTheRoot(t *testing.T) {
	s := open(t)
	body := pdf("escape")
	if _, err := s.Put("../../escape", bytes.NewReader(body), int64(len(body))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.root, "escape")); err != nil {
		t.Errorf("a ../ file id was not kept inside the root: %v", err)
	}
}

// TestPutSizesAroundBlockAndChunkEdges: direct I/O writes whole aligned
// blocks and the tail separately; every size around those edges stores the
// exact bytes.
func TestPutSizesAroundBlockAndChunkEdges(t *testing.T) {
	s := open(t)
	for _, size := range []int{5, 4095, 4096, 4097, chunkSize - 1, chunkSize, chunkSize + 1, 3*chunkSize + 123} {
		body := make([]byte, size)
		for i := range body {
			body[i] = byte(i*7 + i/4096)
		}
		copy(body, "%PDF-")
		st, err := s.Put(fileID, bytes.NewReader(body), int64(size))
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		got, err := os.ReadFile(s.Path(fileID, st.SHA256))
		if err != nil || !bytes.Equal(got, body) || st.SHA256 != sum(body) || st.Size != int64(size) {
			t.Fatalf("size %d: stored %d bytes (equal %v), %+v, %v", size, len(got), bytes.Equal(got, body), st, err)
		}
		if err := s.Prune(fileID, st.SHA256); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUploadFileFallsBackFromDirectIO: a write direct I/O refuses (here an
// unaligned buffer) is written the ordinary way, with nothing lost.
func TestUploadFileFallsBackFromDirectIO(t *testing.T) {
	dir := t.TempDir()
	u, err := openUploadTemp(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	t.Logf("direct I/O on %s: %v", dir, u.direct)
	raw := make([]byte, 3*directAlign+1)
	for i := range raw {
		raw[i] = byte(i)
	}
	unaligned := raw[1:] // 3 whole blocks, misaligned in memory
	if err := u.write(unaligned); err != nil {
		t.Fatal(err)
	}
	if err := u.write([]byte("tail")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(u.f.Name())
	if want := append(append([]byte{}, unaligned...), "tail"...); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("file holds %d bytes, want %d (%v)", len(got), len(want), err)
	}
	if u.direct {
		t.Error("still direct after a refused or partial write")
	}
}

// TestHoldDefersPrune: while a backup holds the store, a replaced upload
// stays on disk (the backup's snapshot may reference it); at release the
// prune runs, but spares uploads written during the hold, which may belong
// to a commit still on its way.
func TestHoldDefersPrune(t *testing.T) {
	s := open(t)
	first, second, third := pdf("first"), pdf("second"), pdf("third")
	a, err := s.Put(fileID, bytes.NewReader(first), int64(len(first)))
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(s.Path(fileID, a.SHA256), old, old); err != nil {
		t.Fatal(err)
	}
	release := s.Hold()
	b, err := s.Put(fileID, bytes.NewReader(second), int64(len(second)))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Prune(fileID, b.SHA256); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Path(fileID, a.SHA256)); err != nil {
		t.Fatalf("held store pruned the snapshot's upload: %v", err)
	}
	c, err := s.Put(fileID, bytes.NewReader(third), int64(len(third))) // not committed yet
	if err != nil {
		t.Fatal(err)
	}
	release()
	release() // twice is harmless
	if _, err := os.Stat(s.Path(fileID, a.SHA256)); !os.IsNotExist(err) {
		t.Errorf("upload replaced before the hold survived its release: %v", err)
	}
	for _, sum := range []string{b.SHA256, c.SHA256} {
		if _, err := os.Stat(s.Path(fileID, sum)); err != nil {
			t.Errorf("upload written during the hold was pruned: %v", err)
		}
	}
	// Without a hold, Prune acts at once again.
	if err := s.Prune(fileID, c.SHA256); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Path(fileID, b.SHA256)); !os.IsNotExist(err) {
		t.Errorf("Prune after release left %s", b.SHA256)
	}
}
