package durable

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "signing.key")
	for _, content := range []string{"first", "second"} {
		if err := WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v; want 0600", st.Mode().Perm(), err)
	}
	assertNoTemps(t, dir)
}

// TestFailedWriteKeepsTheOldFile: a fill that fails half-way leaves the
// earlier content and no temp file.
func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "backup.db")
	if err := WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	broken := errors.New("connection cut")
	_, err := WriteFrom(path, 0o600, func(w io.Writer) (int64, error) {
		n, _ := w.Write([]byte("half of the new"))
		return int64(n), broken
	})
	if !errors.Is(err, broken) {
		t.Fatalf("WriteFrom = %v, want the fill's error", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("file now %q, want the old content", got)
	}
	assertNoTemps(t, dir)
}

func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{".x.pdf.tmp-123", "keep.pdf"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := RemoveTemps(dir); err != nil {
		t.Fatal(err)
	}
	assertNoTemps(t, dir)
	if _, err := os.Stat(filepath.Join(dir, "keep.pdf")); err != nil {
		t.Fatal("RemoveTemps removed a real file")
	}
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	if m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(m) > 0 {
		t.Fatalf("temp files left: %v", m)
	}
}
