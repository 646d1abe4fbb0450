// Command pdftextbench generates the extractor's benchmark plan sets and
// extracts a PDF the way `planreview inspect --json` does, so
// bench/pdftext.sh can time it side by side with `pdftotext -bbox`.
//
//	pdftextbench gen archd|textheavy FILE
//	pdftextbench extract FILE   (JSON words of every page to stdout)
//	pdftextbench layout FILE    (the same, plus layout.Analyze of every page)
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"planreview/internal/pdfgen"
	"planreview/scan/layout"
	"planreview/scan/pdftext"
)

// The two benchmark sets of the extraction issue: a 100-sheet ARCH D set
// with ~300 labels a sheet, and a text-heavy set with ~3,000 labels a sheet
// and a font switch per label.
var sets = map[string]pdfgen.PlanSetOptions{
	"archd":     {Pages: 100, LabelsPerPage: 300, Seed: 11},
	"textheavy": {Pages: 20, LabelsPerPage: 3000, FontSize: 5, SwitchFonts: true, Seed: 12},
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "pdftextbench:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 3 && args[0] == "gen":
		o, ok := sets[args[1]]
		if !ok {
			return fmt.Errorf("unknown set %q (archd, textheavy)", args[1])
		}
		return os.WriteFile(args[2], pdfgen.PlanSet(o), 0o644)
	case len(args) == 2 && args[0] == "extract":
		return extract(args[1], false)
	case len(args) == 2 && args[0] == "layout":
		return extract(args[1], true)
	}
	return fmt.Errorf("usage: pdftextbench gen archd|textheavy FILE | extract FILE | layout FILE")
}

// extract writes every page's words as JSON; withLayout also runs the
// layout on each page (its result is counted, not written, so the two
// modes differ by the layout's work only).
func extract(path string, withLayout bool) error {
	ctx := context.Background()
	doc, err := pdftext.Open(ctx, path)
	if err != nil {
		return err
	}
	defer doc.Close()
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	enc := json.NewEncoder(w)
	lines := 0
	for p := range doc.Pages(ctx) {
		if p.Err != nil {
			return p.Err
		}
		if err := enc.Encode(p); err != nil {
			return err
		}
		if withLayout {
			l := layout.Analyze(p)
			lines += len(l.Lines)
		}
	}
	if withLayout {
		fmt.Fprintf(os.Stderr, "layout lines: %d\n", lines)
	}
	return nil
}
