package layout

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"planreview/scan/pdftext"
)

// TestDumpCorpus writes every field a reader can see of every corpus
// page's layout to the file named by LAYOUT_DUMP: a change meant to leave
// the layout as it is compares the dumps made before and after it.
func TestDumpCorpus(t *testing.T) {
	out := os.Getenv("LAYOUT_DUMP")
	if out == "" {
		t.Skip("LAYOUT_DUMP not set")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	for _, path := range corpusFiles(t) {
		for _, p := range corpusPages(t, path) {
			fmt.Fprintf(w, "== %s page %d\n", filepath.Base(path), p.Number)
			dumpPage(w, p)
		}
	}
}

func dumpPage(w *bufio.Writer, p *pdftext.Page) {
	// The lines alone, as a reader that never completes the page sees them.
	lp := AnalyzeLines(p)
	dumpLayout(w, "lines", lp)
	lp.Complete()
	dumpLayout(w, "complete", lp)
	full := Analyze(p)
	dumpLayout(w, "analyze", full)
	fmt.Fprintf(w, "runs-only %+v\n", Runs(p))
	for _, lp := range []*Page{lp, full} {
		r := FindRoles(lp)
		fmt.Fprintf(w, "regions %+v\n", r.Regions)
		fmt.Fprint(w, "line roles")
		for li := range lp.Lines {
			fmt.Fprintf(w, " %d", r.OfLine(li))
		}
		fmt.Fprintln(w)
		for _, pr := range lp.Pairs {
			fmt.Fprintf(w, "pair-role %d %d\n", r.OfWords(lp, pr.LabelWords), r.OfWords(lp, pr.ValueWords))
		}
	}
}

func dumpLayout(w *bufio.Writer, stage string, lp *Page) {
	fmt.Fprintf(w, "%s number=%d size=%vx%v words=%d\n", stage, lp.Number, lp.Width, lp.Height, len(lp.Words))
	fmt.Fprintf(w, "runs %+v\n", lp.Runs)
	fmt.Fprintf(w, "lines %+v\n", lp.Lines)
	fmt.Fprintf(w, "blocks %+v\n", lp.Blocks)
	fmt.Fprintf(w, "tables %+v\n", lp.Tables)
	fmt.Fprintf(w, "pairs %+v\n", lp.Pairs)
	fmt.Fprintf(w, "segments %+v\n", lp.Segments)
	fmt.Fprintf(w, "across %v\n", lp.ReadAcross)
	fmt.Fprintf(w, "lineof %v\n", lp.LineOf)
	fmt.Fprintf(w, "order %v\n", lp.ReadingOrder())
	for i := range lp.Words {
		fmt.Fprintf(w, "%v ", lp.WordBox(i))
	}
	fmt.Fprintln(w)
}

// TestRetainedCorpus reports the heap the layouts of every corpus page
// hold once made (all kept, as the pipeline keeps a set's): after
// AnalyzeLines alone, and after Analyze. LAYOUT_RETAINED=1 runs it.
func TestRetainedCorpus(t *testing.T) {
	if os.Getenv("LAYOUT_RETAINED") == "" {
		t.Skip("LAYOUT_RETAINED not set")
	}
	var pages []*pdftext.Page
	for _, path := range corpusFiles(t) {
		pages = append(pages, corpusPages(t, path)...)
	}
	for _, stage := range []string{"lines", "analyze"} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		kept := make([]*Page, len(pages))
		for i, p := range pages {
			if stage == "lines" {
				kept[i] = AnalyzeLines(p)
			} else {
				kept[i] = Analyze(p)
			}
		}
		// Twice: the scratch pools' arrays go with the second.
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&after)
		t.Logf("%s: %d pages retain %d bytes; %d bytes allocated", stage, len(kept), int64(after.HeapAlloc)-int64(before.HeapAlloc), after.TotalAlloc-before.TotalAlloc)
		runtime.KeepAlive(kept)
	}
}

// TestConcurrentCorpus lays out the corpus pages on several goroutines at
// once, as the pipeline does, and checks each layout is the one made
// alone (the analyses share pooled scratch arrays). LAYOUT_CONCURRENT=1
// runs it; with -race it checks they never share one at a time.
func TestConcurrentCorpus(t *testing.T) {
	if os.Getenv("LAYOUT_CONCURRENT") == "" {
		t.Skip("LAYOUT_CONCURRENT not set")
	}
	var pages []*pdftext.Page
	for _, path := range corpusFiles(t) {
		pages = append(pages, corpusPages(t, path)...)
	}
	dump := func(p *pdftext.Page) string {
		var b strings.Builder
		w := bufio.NewWriter(&b)
		dumpPage(w, p)
		w.Flush()
		return b.String()
	}
	want := make([]string, len(pages))
	for i, p := range pages {
		want[i] = dump(p)
	}
	var wg sync.WaitGroup
	for k := range 4 {
		wg.Go(func() {
			for i := range pages {
				i := (i + k*len(pages)/4) % len(pages)
				if got := dump(pages[i]); got != want[i] {
					t.Errorf("page %d of the corpus laid out differently on goroutine %d", i, k)
				}
			}
		})
	}
	wg.Wait()
}
