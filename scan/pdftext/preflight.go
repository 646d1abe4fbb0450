package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// preflight reads the file once, in constant memory, before pdfcpu parses
// it, and refuses what would make the parser's repair path expensive:
//
//   - no object header at all ("12 0 obj"): random bytes after %PDF- send
//     pdfcpu into its xref repair, which grows an object buffer to 64 MiB
//     and copies it on every step (13 s and 470 MB for 100 MB of noise);
//   - an object whose dictionary part runs on for more than ObjectSpan
//     bytes before "stream" or "endobj" (the same buffer growth, or
//     millions of inline dictionaries pdfcpu would turn into maps);
//   - more object headers than the Objects budget.
//
// It costs one sequential read (about 40 ms for 100 MB from the page
// cache), small beside parsing.
func preflight(ctx context.Context, r io.ReaderAt, size int64, b Budgets) (Usage, error) {
	const chunk = 1 << 20
	const overlap = 32 // longest pattern looked at across a chunk boundary
	// A file in memory is scanned in place, window by window; others are
	// read into one buffer.
	data, inMemory := r.(memFile)
	var buf []byte
	if !inMemory {
		buf = make([]byte, chunk+overlap)
	}
	var u Usage
	open := int64(-1) // offset of the earliest header not yet closed
	// Classic cross-reference tables: pdfcpu makes an entry of every row
	// (20 bytes each), so a table of millions of rows is a flood of
	// objects however few the file defines.
	xref, xrefEntries := int64(-1), 0
	next := int64(0) // first offset not examined yet
	carry := 0       // bytes of the previous window kept at buf's start
	for base := int64(0); base < size; {
		if err := ctx.Err(); err != nil {
			return u, err
		}
		var window []byte
		n := int(min(chunk, size-base))
		if inMemory {
			n = min(n, len(data)-int(base))
			window = data[base-int64(carry) : base+int64(n)]
		} else {
			var err error
			n, err = r.ReadAt(buf[carry:carry+n], base)
			if err != nil && !errors.Is(err, io.EOF) {
				return u, err
			}
			window = buf[:carry+n]
		}
		if n == 0 {
			break
		}
		winStart := base - int64(carry) // file offset of window[0]
		last := base+int64(n) >= size
		// Candidates before limit are looked at in this window; a keyword
		// starting later might not fit, so the next window (which starts
		// overlap bytes earlier) takes it.
		limit := len(window)
		if !last {
			limit = len(window) - 8
		}
		// Keywords start with 'o' (obj, endobj's tail), 's' (stream), 'x'
		// (xref) or 't' (trailer): jump between them with IndexByte
		// (vectorised) rather than byte by byte, each search kept until
		// passed.
		at := [4]int{-1, -1, -1, -1}
		for i := int(next - winStart); i < limit; i++ {
			for k, c := range [4]byte{'o', 's', 'x', 't'} {
				if at[k] < i {
					at[k] = indexFrom(window[:limit], i, c, limit)
				}
			}
			if i = min(at[0], at[1], at[2], at[3]); i >= limit {
				break
			}
			switch c := window[i]; {
			case c == 'x' && xrefTableAt(window, i):
				if xref < 0 {
					xref = winStart + int64(i)
				}
			case c == 't' && bytes.HasPrefix(window[i:], []byte("trailer")):
				closeXref(&xrefEntries, &xref, winStart+int64(i))
			case c == 'o' && bytes.HasPrefix(window[i:], []byte("obj")):
				if i >= 3 && bytes.Equal(window[i-3:i], []byte("end")) {
					closeObject(&u, &open, winStart+int64(i))
				} else if objectHeaderBefore(window, i) && delimiterAt(window, i+3) {
					u.Objects++
					if open < 0 {
						open = winStart + int64(i)
					}
				}
			case c == 's' && bytes.HasPrefix(window[i:], []byte("stream")):
				closeObject(&u, &open, winStart+int64(i))
			}
			if u.ObjectSpan > b.ObjectSpan {
				return u, fmt.Errorf("%w: an object runs over %d bytes before its stream or end", ErrTooComplex, b.ObjectSpan)
			}
		}
		next = winStart + int64(limit)
		rows := xrefEntries
		if xref >= 0 {
			rows += int((next - xref) / xrefEntryLen)
		}
		if rows > b.Objects {
			return u, fmt.Errorf("%w: cross-reference tables of more than %d entries", ErrTooComplex, b.Objects)
		}
		if open >= 0 && next-open > b.ObjectSpan {
			return u, fmt.Errorf("%w: the object at offset %d runs over %d bytes before its stream or end", ErrTooComplex, open, b.ObjectSpan)
		}
		if u.Objects > b.Objects {
			return u, fmt.Errorf("%w: more than %d objects", ErrTooComplex, b.Objects)
		}
		base += int64(n)
		carry = min(overlap, len(window))
		if !inMemory {
			copy(buf, window[len(window)-carry:])
		}
	}
	if u.Objects == 0 {
		return u, fmt.Errorf("%w: no PDF objects in the file", ErrInvalid)
	}
	return u, nil
}

// indexFrom is the index of c in w at or after from, or none.
func indexFrom(w []byte, from int, c byte, none int) int {
	if j := bytes.IndexByte(w[from:], c); j >= 0 {
		return from + j
	}
	return none
}

// xrefTableAt reports whether a classic cross-reference table starts at i:
// "xref" at the start of a line, then a subsection header's first number.
// (Checked that strictly so four bytes of compressed data never open one.)
func xrefTableAt(w []byte, i int) bool {
	if !bytes.HasPrefix(w[i:], []byte("xref")) || (i > 0 && w[i-1] != '\n' && w[i-1] != '\r') {
		return false
	}
	j := i + 4
	for j < len(w) && isWhite(w[j]) {
		j++
	}
	return j > i+4 && j < len(w) && w[j] >= '0' && w[j] <= '9'
}

// xrefEntryLen is the length of a cross-reference table row.
const xrefEntryLen = 20

func closeXref(entries *int, xref *int64, at int64) {
	if *xref >= 0 {
		*entries += int((at - *xref) / xrefEntryLen)
		*xref = -1
	}
}

func closeObject(u *Usage, open *int64, at int64) {
	if *open >= 0 {
		u.ObjectSpan = max(u.ObjectSpan, at-*open)
		*open = -1
	}
}

// objectHeaderBefore reports whether "N G " (object and generation
// numbers) precedes the obj keyword at i.
func objectHeaderBefore(w []byte, i int) bool {
	j := i - 1
	for j >= 0 && isWhite(w[j]) {
		j--
	}
	digits := 0
	for j >= 0 && w[j] >= '0' && w[j] <= '9' {
		j--
		digits++
	}
	if digits == 0 || j < 0 || !isWhite(w[j]) {
		return false
	}
	for j >= 0 && isWhite(w[j]) {
		j--
	}
	return j >= 0 && w[j] >= '0' && w[j] <= '9'
}

// delimiterAt reports whether the keyword ending before i ends there (end
// of data, white space or a delimiter follows), so "object" is no header.
func delimiterAt(w []byte, i int) bool {
	if i >= len(w) {
		return true
	}
	switch c := w[i]; {
	case isWhite(c):
		return true
	case c == '<', c == '[', c == '/', c == '(', c == '%':
		return true
	}
	return false
}
