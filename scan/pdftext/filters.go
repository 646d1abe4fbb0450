package pdftext

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/ascii85"
	"fmt"
	"io"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Streaming decoders for the filters content streams use, chained reader
// into reader so that a pipeline holds only its last stage's output, and
// that bounded by the page's budget. pdfcpu's own filters buffer each
// stage whole (and grow by doubling): a 250 MiB bomb under
// /ASCIIHexDecode took 3x the budget there. Other filters (LZW, RunLength,
// predictors) still go through pdfcpu.

// streamingPipeline reports whether every stage has a streaming decoder.
func streamingPipeline(pipeline []types.PDFFilter) bool {
	for _, f := range pipeline {
		switch f.Name {
		case "FlateDecode":
			if !plainFlate(f.DecodeParms) {
				return false
			}
		case "ASCIIHexDecode", "ASCII85Decode":
		default:
			return false
		}
	}
	return len(pipeline) > 0
}

// decodeStreaming appends the decoded stream to dst, within limit bytes.
func decodeStreaming(dst, raw []byte, pipeline []types.PDFFilter, limit int64) ([]byte, error) {
	var r io.Reader = bytes.NewReader(raw)
	for _, f := range pipeline {
		switch f.Name {
		case "FlateDecode":
			zr, err := zlib.NewReader(r)
			if err != nil {
				return dst, fmt.Errorf("%w: flate: %v", ErrInvalid, err)
			}
			defer zr.Close()
			r = zr
		case "ASCIIHexDecode":
			r = &hexReader{r: bufio.NewReader(r)}
		case "ASCII85Decode":
			r = ascii85.NewDecoder(&untilEOD{r: bufio.NewReader(r)})
		}
	}
	return readAllBounded(dst, r, limit, len(raw))
}

// hexReader decodes ASCIIHexDecode data: white space is ignored, '>' ends
// the data, and an odd last digit is followed by an implied 0.
type hexReader struct {
	r    *bufio.Reader
	done bool
}

func (h *hexReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && !h.done {
		hi, ok, err := h.digit()
		if !ok {
			h.done = true
			if err != io.EOF {
				return n, err
			}
			break
		}
		lo, ok, err := h.digit()
		if !ok {
			h.done = true
			p[n] = hi << 4
			if err != io.EOF {
				return n + 1, err
			}
			return n + 1, nil
		}
		p[n] = hi<<4 | lo
		n++
	}
	if n == 0 && h.done {
		return 0, io.EOF
	}
	return n, nil
}

// digit reads the next hex digit; ok is false at '>' or the end.
func (h *hexReader) digit() (byte, bool, error) {
	for {
		c, err := h.r.ReadByte()
		if err == io.EOF {
			return 0, false, io.EOF
		}
		if err != nil {
			return 0, false, err
		}
		switch {
		case c >= '0' && c <= '9':
			return c - '0', true, nil
		case c >= 'a' && c <= 'f':
			return c - 'a' + 10, true, nil
		case c >= 'A' && c <= 'F':
			return c - 'A' + 10, true, nil
		case c == '>':
			return 0, false, io.EOF
		case isWhite(c):
		default:
			return 0, false, fmt.Errorf("%w: ASCIIHexDecode: byte %q", ErrInvalid, c)
		}
	}
}

// untilEOD passes ASCII85 data up to its "~>" end marker (Go's decoder
// does not know it); a leading "<~" is dropped.
type untilEOD struct {
	r       *bufio.Reader
	started bool
	done    bool
}

func (u *untilEOD) Read(p []byte) (int, error) {
	if !u.started {
		u.started = true
		if b, err := u.r.Peek(2); err == nil && string(b) == "<~" {
			u.r.Discard(2)
		}
	}
	n := 0
	for n < len(p) && !u.done {
		c, err := u.r.ReadByte()
		if err != nil {
			u.done = true
			break
		}
		if c == '~' {
			u.done = true
			break
		}
		p[n] = c
		n++
	}
	if n == 0 && u.done {
		return 0, io.EOF
	}
	return n, nil
}
