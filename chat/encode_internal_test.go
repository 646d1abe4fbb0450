package chat

import (
	"bytes"
	"compress/flate"
	"io"
	"reflect"
	"testing"

	"planreview/store"
)

// TestEncodingStaged: the stored form begun before the findings and facts
// are added (StartEncode or BuildPagesEncoding, then Finish) is the one DEFLATE stream a single
// compression of the whole form gives, also past the compressor's 64 KiB
// blocks and with a reused compressor, and it reads back with what was
// added after it began.
func TestEncodingStaged(t *testing.T) {
	pages := func(n int) []SourcePage {
		var sps []SourcePage
		for i := range n {
			p := captionPage(i+1, 40)
			sps = append(sps, SourcePage{FileID: "file_a", Text: &p, SheetNumber: "A1", SheetTitle: "ROOM SCHEDULE"})
		}
		return sps
	}
	build := func(n int) *Index { return BuildPages(pages(n)) }
	var first []byte
	for round := range 3 {
		// Round 1 as a scan does it: the postings built while the pages
		// are written.
		var ix *Index
		var e *Encoding
		var err error
		if round == 1 {
			ix, e, err = BuildPagesEncoding(pages(60))
		} else {
			ix = build(60)
			e, err = ix.StartEncode()
		}
		if err != nil {
			t.Fatal(err)
		}
		facts := len(ix.Facts)
		ix.AddFindings([]store.Finding{{ID: "fnd_1", Severity: "high", Title: "Office too small", Topic: "rooms",
			FileID: "file_a", Sheet: store.SheetRef{Page: 2}, Anchors: []store.Anchor{{Text: "ROOM203: OFFICE203"}}}}, []string{"zoning"})
		ix.AddFact(Fact{Kind: "area/office", Label: "ROOM203", Value: "OFFICE203"}, "file_a", 2, "ROOM203: OFFICE203")
		if len(ix.Facts) != facts+1 {
			t.Fatalf("the review's fact was not added")
		}
		data, err := e.Finish()
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(data[len(magic)+1:])))
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) < 2<<16 {
			t.Fatalf("stored form of %d bytes: the test needs more than two compressor blocks", len(raw))
		}
		var once bytes.Buffer
		zw, _ := flate.NewWriter(&once, flate.BestSpeed)
		zw.Write(raw)
		zw.Close()
		if !bytes.Equal(once.Bytes(), data[len(magic)+1:]) {
			t.Fatalf("round %d: the stream begun early differs from one compression of the whole", round)
		}
		if round == 0 {
			first = data
		} else if !bytes.Equal(data, first) {
			t.Fatalf("round %d: a reused compressor wrote other bytes", round)
		}
		back, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Findings, ix.Findings) || !reflect.DeepEqual(back.HeldTopics, ix.HeldTopics) || !reflect.DeepEqual(back.Facts, ix.Facts) {
			t.Fatalf("what was added after the encoding began does not read back")
		}
		if _, err := e.Finish(); err == nil {
			t.Fatal("an encoding finished twice")
		}
		// Another index encoded in between, so the pool's compressor is
		// reset from a different stream.
		if _, err := build(2).Encode(); err != nil {
			t.Fatal(err)
		}
	}
	ix := build(1)
	e, err := ix.StartEncode()
	if err != nil {
		t.Fatal(err)
	}
	ix.Units = ix.Units[:len(ix.Units)-1]
	if _, err := e.Finish(); err == nil {
		t.Fatal("units changed after the encoding began, and it finished")
	}
}
