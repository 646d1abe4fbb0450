package pdftext

import (
	"bytes"
	"compress/zlib"
	"encoding/ascii85"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// TestStreamingFilters: the streaming decoders give what the filters
// define, across white space, end markers and odd digits, and stop at the
// limit.
func TestStreamingFilters(t *testing.T) {
	plain := make([]byte, 5000)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range plain {
		plain[i] = byte(r.IntN(256))
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(plain)
	zw.Close()
	a85 := func(b []byte) []byte {
		out := make([]byte, ascii85.MaxEncodedLen(len(b)))
		return append([]byte("<~"), append(out[:ascii85.Encode(out, b)], "~>"...)...)
	}
	spaced := func(b []byte) []byte { // a line break every 64 bytes, as producers write
		var out bytes.Buffer
		for i := 0; i < len(b); i += 64 {
			out.Write(b[i:min(i+64, len(b))])
			out.WriteString("\r\n")
		}
		return out.Bytes()
	}
	pipe := func(names ...string) []types.PDFFilter {
		var p []types.PDFFilter
		for _, n := range names {
			p = append(p, types.PDFFilter{Name: n})
		}
		return p
	}
	cases := []struct {
		name string
		raw  []byte
		pipe []types.PDFFilter
		want []byte
	}{
		{"hex", spaced([]byte(hex.EncodeToString(plain) + ">")), pipe("ASCIIHexDecode"), plain},
		{"hex, odd digit", []byte("41 42 4>"), pipe("ASCIIHexDecode"), []byte("AB@")},
		{"hex without end marker", []byte("414243"), pipe("ASCIIHexDecode"), []byte("ABC")},
		{"ascii85", spaced(a85(plain)), pipe("ASCII85Decode"), plain},
		{"hex over flate", []byte(hex.EncodeToString(z.Bytes()) + ">"), pipe("ASCIIHexDecode", "FlateDecode"), plain},
		{"ascii85 over flate", a85(z.Bytes()), pipe("ASCII85Decode", "FlateDecode"), plain},
	}
	for _, c := range cases {
		got, err := decodeStreaming(nil, c.raw, c.pipe, 1<<20)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s: %d bytes, %v; want %d bytes", c.name, len(got), err, len(c.want))
		}
	}
	if _, err := decodeStreaming(nil, []byte(strings.Repeat("41", 100)), pipe("ASCIIHexDecode"), 10); !errors.Is(err, errDecodedOverLimit) {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := decodeStreaming(nil, []byte("4G"), pipe("ASCIIHexDecode"), 10); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad digit: %v", err)
	}
}
