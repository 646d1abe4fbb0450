package pdftext

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"fmt"
	"testing"
)

// zlibInflate is inflate as compress/zlib reads it (checksum and all), the
// reference inflate must agree with on data and error.
func zlibInflate(dst, src []byte, limit int64) ([]byte, error) {
	r, err := zlib.NewReader(bytes.NewReader(src))
	if err != nil {
		return readAllBounded(dst, flate.NewReader(bytes.NewReader(src)), limit, len(src))
	}
	return readAllBounded(dst, r, limit, len(src))
}

// TestInflateAgreesWithZlib: skipping the checksum changes nothing that
// is read: not the data, not the error of a stream that gives none.
func TestInflateAgreesWithZlib(t *testing.T) {
	compress := func(data []byte) []byte {
		var b bytes.Buffer
		w := zlib.NewWriter(&b)
		w.Write(data)
		w.Close()
		return b.Bytes()
	}
	raw := func(data []byte) []byte {
		var b bytes.Buffer
		w, _ := flate.NewWriter(&b, flate.BestSpeed)
		w.Write(data)
		w.Close()
		return b.Bytes()
	}
	text := bytes.Repeat([]byte("BT /F1 12 Tf 72 712 Td (Hello) Tj ET\n"), 500)
	full, empty := compress(text), compress(nil)
	badSum := bytes.Clone(full)
	badSum[len(badSum)-1] ^= 1
	badEmpty := bytes.Clone(empty)
	badEmpty[len(badEmpty)-1] ^= 1
	dict := []byte{0x78, 0xbb, 0, 0, 0, 1} // preset dictionary flag, id of none
	dict = append(dict, empty[2:]...)
	cases := map[string][]byte{
		"full": full, "empty": empty, "bad checksum": badSum, "empty, bad checksum": badEmpty,
		"no trailer": full[:len(full)-4], "half trailer": full[:len(full)-2],
		"empty, no trailer": empty[:len(empty)-4], "empty, half trailer": empty[:len(empty)-1],
		"truncated": full[:len(full)/2], "raw deflate": raw(text), "raw empty": raw(nil),
		"garbage": []byte("not compressed at all"), "one byte": {0x78}, "nothing": nil,
		"header only": full[:2], "dictionary of none": dict, "dictionary": {0x78, 0xbb, 1, 2, 3, 4, 5, 6},
	}
	for name, src := range cases {
		for _, limit := range []int64{1 << 20, 100} {
			want, wantErr := zlibInflate([]byte("x"), src, limit)
			got, gotErr := inflate([]byte("x"), src, limit)
			if !bytes.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s, limit %d: got %d bytes, %v; zlib gives %d bytes, %v", name, limit, len(got), gotErr, len(want), wantErr)
			}
		}
	}
}
