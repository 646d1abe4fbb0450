package pdftext

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestDumpWords prints the words of one page for debugging against
// pdftotext: PDFTEXT_DUMP=file.pdf[:page[:text]] go test -run DumpWords -v.
func TestDumpWords(t *testing.T) {
	spec := os.Getenv("PDFTEXT_DUMP")
	if spec == "" {
		t.Skip("set PDFTEXT_DUMP=file.pdf[:page[:text]]")
	}
	parts := strings.SplitN(spec, ":", 3)
	page := 1
	if len(parts) > 1 {
		page, _ = strconv.Atoi(parts[1])
	}
	doc, err := Open(context.Background(), parts[0])
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	p, err := doc.Page(context.Background(), page)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("page %d %gx%g rotate %d readable %v reason %q err %v", p.Number, p.Width, p.Height, p.Rotate, p.Readable, p.Reason, p.Err)
	for _, w := range p.Words {
		if len(parts) > 2 && !strings.Contains(w.Text, parts[2]) {
			continue
		}
		b := w.BBox
		t.Logf("%q [%.1f %.1f %.1f %.1f] fs=%.2f line=%d block=%d", w.Text, b.Left*p.Width, b.Top*p.Height, (b.Left+b.Width)*p.Width, (b.Top+b.Height)*p.Height, w.FontSize, w.Line, w.Block)
	}
}
