package letter

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"planreview/store"
)

func finding(id string, number int, file string, page int, status, source string) store.Finding {
	f := store.Finding{ID: id, Number: number, FileID: file, Title: "Title " + id, Rationale: "Rationale of " + id + ".",
		GoverningRefs: "IRC 2021 R" + id, Severity: "medium", Source: source, Sheet: store.SheetRef{Page: page}}
	if status != store.DispositionOpen {
		f.Disposition = &store.Disposition{Status: status}
	}
	return f
}

// TestBuildGroupsBySheetInSetOrder: corrections are accepted and examiner
// findings, numbered 1…n across sheets in the order of the set (files as
// registered, pages in order, set-wide findings first), whatever order the
// findings came in; dismissed ones are left out and open ones listed apart.
func TestBuildGroupsBySheetInSetOrder(t *testing.T) {
	pages := []SetPage{
		{FileID: "f1", Page: 1, SheetNumber: "G-001", SheetTitle: "COVER"},
		{FileID: "f1", Page: 2, SheetNumber: "A-101", SheetTitle: "FLOOR PLAN"},
		{FileID: "f2", Page: 1, SheetNumber: "E-101", SheetTitle: "POWER PLAN"},
	}
	l := Build(Input{Pages: pages, Round: 2, Findings: []store.Finding{
		finding("e1", 1, "f2", 1, store.DispositionAccepted, "rules"),
		finding("a1", 2, "f1", 2, store.DispositionAccepted, "rules"),
		finding("set", 3, "f1", 0, store.DispositionAccepted, "rules"),
		finding("a2", 4, "f1", 2, store.DispositionDismissed, "rules"),
		finding("g1", 5, "f1", 1, store.DispositionOpen, "rules"),
		finding("x1", 6, "f1", 1, store.DispositionAccepted, store.SourceExaminer),
		finding("x2", 7, "f2", 1, store.DispositionDismissed, store.SourceExaminer),
	}})
	var got []string
	for _, g := range l.Groups {
		for _, it := range g.Items {
			got = append(got, fmt.Sprintf("%d %s %s", it.Number, g.Heading, it.FindingID))
		}
	}
	want := []string{"1 General (the set as a whole) set", "2 Sheet G-001 COVER x1", "3 Sheet A-101 FLOOR PLAN a1", "4 Sheet E-101 POWER PLAN e1"}
	if strings.Join(got, "|") != strings.Join(want, "|") || l.Items != 4 {
		t.Errorf("corrections\n got %q\nwant %q", got, want)
	}
	if len(l.Pending) != 1 || l.Pending[0].Items[0].FindingID != "g1" || l.Pending[0].Items[0].Number != 0 {
		t.Errorf("pending: %+v", l.Pending)
	}
	var pdf, docx bytes.Buffer
	if err := l.WritePDF(&pdf); err != nil || !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-1.7")) {
		t.Fatalf("PDF: %v", err)
	}
	if err := l.WriteDOCX(&docx); err != nil || !bytes.HasPrefix(docx.Bytes(), []byte("PK")) {
		t.Fatalf("DOCX: %v", err)
	}
	if doc := l.documentXML(); strings.Contains(doc, "Title a2") || strings.Contains(doc, "Title x2") || !strings.Contains(doc, "Title g1") {
		t.Errorf("DOCX body shows a dismissed finding or lacks the open one")
	}
}

// TestDOCXEscapesText: markup and characters XML cannot carry never break
// the document.
func TestDOCXEscapesText(t *testing.T) {
	f := finding("q1", 1, "f1", 1, store.DispositionAccepted, "rules")
	f.Title = `Guard < 36" & rail > 34" <w:p>` + "\x01\x0b"
	l := Build(Input{JobName: "A & B <Annex>", Pages: []SetPage{{FileID: "f1", Page: 1}}, Findings: []store.Finding{f}})
	doc := l.documentXML()
	if strings.Contains(doc, "<w:p>\x01") || strings.Contains(doc, "\x0b") || !strings.Contains(doc, "Guard &lt; 36&#34; &amp; rail") {
		t.Errorf("document.xml not escaped: %s", doc)
	}
}

// letterOf is a 26-sheet set with 100 decided items and 20 open ones.
func letterOf() Input {
	in := Input{JobName: "Bench residence", ExternalID: "BLD-1", Round: 1, Date: time.Now(),
		CodeBasis: []string{"2022 California Residential Code (based on IRC 2021)", "Local law not evaluated"}}
	for p := 1; p <= 26; p++ {
		in.Pages = append(in.Pages, SetPage{FileID: "f1", Page: p, SheetNumber: fmt.Sprintf("A-%03d", p), SheetTitle: "FLOOR PLAN LEVEL " + fmt.Sprint(p)})
	}
	for i := range 120 {
		status := store.DispositionAccepted
		if i >= 100 {
			status = store.DispositionOpen
		}
		f := finding(fmt.Sprintf("n%03d", i), i+1, "f1", 1+i%26, status, "rules")
		f.Rationale = strings.Repeat("The stair riser height measured on the section exceeds the limit. ", 4)
		in.Findings = append(in.Findings, f)
	}
	return in
}

// BenchmarkLetterPDF: the letter of a 26-sheet set with 100 items (target
// well under 1 s); BenchmarkLetterDOCX beside it as the reference.
func BenchmarkLetterPDF(b *testing.B) {
	in := letterOf()
	for b.Loop() {
		var buf bytes.Buffer
		if err := Build(in).WritePDF(&buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLetterDOCX(b *testing.B) {
	in := letterOf()
	for b.Loop() {
		var buf bytes.Buffer
		if err := Build(in).WriteDOCX(&buf); err != nil {
			b.Fatal(err)
		}
	}
}
