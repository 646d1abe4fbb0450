package blob

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"unsafe"
)

// chunkSize is how much of an upload is read, hashed and written at a
// time: large enough that 100 MB costs a hundred write calls, small enough
// that two buffers per upload stay well inside the memory budget.
const chunkSize = 1 << 20

// directAlign is the alignment direct I/O needs for buffer addresses, file
// offsets and lengths: 4096 covers every common logical block size.
const directAlign = 4096

type chunkBuffer struct{ b []byte }

var chunkBuffers = sync.Pool{New: func() any {
	raw := make([]byte, chunkSize+directAlign)
	off := 0
	if rem := int(uintptr(unsafe.Pointer(&raw[0])) % directAlign); rem != 0 {
		off = directAlign - rem
	}
	return &chunkBuffer{b: raw[off : off+chunkSize : off+chunkSize]}
}}

func getChunkBuffer() *chunkBuffer  { return chunkBuffers.Get().(*chunkBuffer) }
func putChunkBuffer(c *chunkBuffer) { chunkBuffers.Put(c) }

// uploadFile is the temp file an upload streams into.
type uploadFile struct {
	f      *os.File
	direct bool // opened with O_DIRECT and still using it
}

// openUploadTemp creates a temp file in dir, with direct I/O when the
// platform and filesystem support it. Direct writes go from the chunk
// buffer to the disk without allocating page cache for the whole upload,
// as object stores such as MinIO write large objects; the fsync at the end
// still makes them durable. Filesystems that refuse O_DIRECT (tmpfs on
// older kernels, some network filesystems) get ordinary writes.
func openUploadTemp(dir string) (*uploadFile, error) {
	var rnd [8]byte
	rand.Read(rnd[:]) // never fails (crypto/rand)
	name := filepath.Join(dir, ".upload.tmp-"+hex.EncodeToString(rnd[:]))
	flags := os.O_RDWR | os.O_CREATE | os.O_EXCL
	if openDirect != 0 {
		f, err := os.OpenFile(name, flags|openDirect, 0o600)
		if err == nil {
			return &uploadFile{f: f, direct: true}, nil
		}
		if !errors.Is(err, syscall.EINVAL) {
			return nil, err
		}
	}
	f, err := os.OpenFile(name, flags, 0o600)
	if err != nil {
		return nil, err
	}
	return &uploadFile{f: f}, nil
}

// write appends b. Direct I/O takes whole aligned blocks only, so the
// upload's last, partial block is written after switching direct I/O off;
// every earlier chunk is a full, aligned chunkSize. A direct write the
// filesystem refuses is retried as an ordinary one.
func (u *uploadFile) write(b []byte) error {
	if u.direct {
		n, err := u.f.Write(b[:len(b)&^(directAlign-1)])
		b = b[n:]
		if err != nil && !errors.Is(err, syscall.EINVAL) {
			return err
		}
		if err != nil || len(b) > 0 {
			if err := u.stopDirect(); err != nil {
				return err
			}
		}
	}
	if len(b) == 0 {
		return nil
	}
	_, err := u.f.Write(b)
	return err
}

func (u *uploadFile) stopDirect() error {
	u.direct = false
	return clearDirect(u.f)
}

func (u *uploadFile) Close() error { return u.f.Close() }
