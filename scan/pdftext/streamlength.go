package pdftext

import (
	"bytes"
	"io"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// lengthRecovery reads a stream's data up to its endstream keyword when the
// stream's /Length does not land on it, as poppler and qpdf do: producers
// that patch a file in place often leave the old length behind. A length
// that is too short would cut the content (lost words); one that is too
// long would feed the keyword and the next objects to the decoder.
type lengthRecovery struct {
	r    io.ReaderAt
	size int64
	// fixed caches the recovered data by stream offset: fonts and forms are
	// read again on every page that uses them.
	mu    sync.Mutex
	fixed map[int64][]byte
}

func newLengthRecovery(r io.ReaderAt, size int64) *lengthRecovery {
	return &lengthRecovery{r: r, size: size, fixed: map[int64][]byte{}}
}

var endstream = []byte("endstream")

// recover returns sd with Raw read up to endstream when its declared length
// is off, and sd as it is otherwise. At most limit bytes are searched: a
// stream longer than that could not be decoded within the page budget
// anyway.
func (l *lengthRecovery) recover(sd types.StreamDict, limit int64) types.StreamDict {
	if sd.Content != nil || sd.StreamOffset <= 0 || sd.StreamOffset >= l.size {
		return sd
	}
	if l.landsOnEndstream(sd.StreamOffset + int64(len(sd.Raw))) {
		return sd
	}
	l.mu.Lock()
	raw, ok := l.fixed[sd.StreamOffset]
	l.mu.Unlock()
	if !ok {
		raw, _ = readToEndstream(l.r, l.size, sd.StreamOffset, limit)
		l.mu.Lock()
		l.fixed[sd.StreamOffset] = raw
		l.mu.Unlock()
	}
	if raw == nil {
		return sd
	}
	sd.Raw = raw
	return sd
}

// landsOnEndstream reports whether the keyword follows at off, after the
// end-of-line the format allows before it.
func (l *lengthRecovery) landsOnEndstream(off int64) bool {
	var buf [16]byte
	n, _ := l.r.ReadAt(buf[:], off)
	b := bytes.TrimLeft(buf[:n], "\r\n \t\f\x00")
	return bytes.HasPrefix(b, endstream) || n == 0
}

// readToEndstream returns the bytes of r from off to the first endstream,
// less the end-of-line before it, in a buffer of its own; ok is false when
// there is none within limit bytes.
func readToEndstream(r io.ReaderAt, size, off, limit int64) (data []byte, ok bool) {
	const chunk = 64 << 10
	for int64(len(data)) < limit && off+int64(len(data)) < size {
		from := len(data)
		want := min(int64(chunk), limit-int64(len(data)), size-off-int64(len(data)))
		data = append(data, make([]byte, want)...)
		n, err := r.ReadAt(data[from:], off+int64(from))
		data = data[:from+n]
		// The keyword may straddle two chunks: search from just before this one.
		if i := bytes.Index(data[max(0, from-len(endstream)):], endstream); i >= 0 {
			end := max(0, from-len(endstream)) + i
			return bytes.TrimRight(data[:end], "\r\n"), true
		}
		if err != nil || n == 0 {
			return nil, false
		}
	}
	return nil, false
}
