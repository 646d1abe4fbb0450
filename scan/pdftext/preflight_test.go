package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestPreflightAcrossChunks: object headers and end keywords are found
// wherever they fall against the 1 MiB read windows, once each.
func TestPreflightAcrossChunks(t *testing.T) {
	obj := []byte("12 0 obj\n<< /Type /Page >>\nendobj\n13 0 obj\n<< /Length 3 >>\nstream\nabc\nendstream\nendobj\n")
	for shift := range 48 {
		var b bytes.Buffer
		b.WriteString("%PDF-1.7\n")
		b.Write(bytes.Repeat([]byte{'x'}, 1<<20-9-shift))
		b.Write(obj)
		b.Write(bytes.Repeat([]byte{'y'}, 100))
		u, err := preflight(context.Background(), bytes.NewReader(b.Bytes()), int64(b.Len()), DefaultBudgets())
		if err != nil {
			t.Fatalf("shift %d: %v", shift, err)
		}
		if u.Objects != 2 || u.ObjectSpan < 10 || u.ObjectSpan > 40 {
			t.Errorf("shift %d: %+v, want 2 objects of a short span", shift, u)
		}
		// A file in memory is scanned in place, with the same windows.
		if m, err := preflight(context.Background(), memFile(b.Bytes()), int64(b.Len()), DefaultBudgets()); m != u || err != nil {
			t.Errorf("shift %d: in memory %+v, %v; read %+v", shift, m, err, u)
		}
	}
}

// TestPreflightRefuses: what the pass refuses before pdfcpu parses.
func TestPreflightRefuses(t *testing.T) {
	b := DefaultBudgets()
	b.ObjectSpan, b.Objects = 1000, 50
	cases := []struct {
		name string
		data string
		want error
	}{
		{"no objects", "%PDF-1.7\n" + string(bytes.Repeat([]byte("junk "), 1000)), ErrInvalid},
		{"long object", "%PDF-1.7\n1 0 obj\n<< /Kids [" + string(bytes.Repeat([]byte("<<>> "), 400)) + "] >>\nendobj\n", ErrTooComplex},
		{"object never ends", "%PDF-1.7\n1 0 obj\n<< " + string(bytes.Repeat([]byte("z"), 5000)), ErrTooComplex},
		{"too many objects", "%PDF-1.7\n" + objs(51), ErrTooComplex},
		{"within", "%PDF-1.7\n" + objs(3), nil},
		{"xref table of many rows", "%PDF-1.7\n" + objs(1) + "xref\n0 60\n" + strings.Repeat("0000000000 00000 f \n", 60) + "trailer\n<<>>\nstartxref\n9\n%%EOF\n", ErrTooComplex},
		{"xref table within", "%PDF-1.7\n" + objs(1) + "xref\n0 2\n" + strings.Repeat("0000000000 00000 f \n", 2) + "trailer\n<<>>\nstartxref\n9\n%%EOF\n", nil},
	}
	for _, c := range cases {
		for _, r := range []io.ReaderAt{bytes.NewReader([]byte(c.data)), memFile(c.data)} {
			_, err := preflight(context.Background(), r, int64(len(c.data)), b)
			if (c.want == nil && err != nil) || (c.want != nil && !errors.Is(err, c.want)) {
				t.Errorf("%s (%T): err = %v, want %v", c.name, r, err, c.want)
			}
		}
	}
}

func objs(n int) string {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "%d 0 obj\nnull\nendobj\n", i+1)
	}
	return b.String()
}
