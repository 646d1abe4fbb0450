package annotate

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/font"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

func TestTextStringsRoundTrip(t *testing.T) {
	cases := []struct {
		name, in string
		hex      bool
	}{
		{"ascii", "Exit width (min. 36 in)", false},
		{"backslash and parens", `a\b (c) ((d`, false},
		{"newlines", "title\nrefs\r\n\trationale", false},
		{"latin accents", "Stopnišče širina", true},
		{"cjk", "避難経路の幅", true},
		{"emoji outside the BMP", "stair 🚶", true},
		{"invalid utf-8", "ok\xffok", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := textString(c.in)
			_, isHex := obj.(types.HexLiteral)
			if isHex != c.hex {
				t.Errorf("hex literal = %v, want %v", isHex, c.hex)
			}
			got, err := types.StringOrHexLiteral(obj)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ToValidUTF8(c.in, "\uFFFD")
			if *got != want {
				t.Errorf("decoded %q, want %q", *got, want)
			}
		})
	}
}

func TestEscapeLiteral(t *testing.T) {
	cases := map[string]string{
		"plain":         "plain",
		"(x)":           `\(x\)`,
		`a\b`:           `a\\b`,
		"\x80\xff\x01":  `\200\377\001`,
		"tab\there\nok": `tab\there\nok`,
	}
	for in, want := range cases {
		if got := escapeLiteral([]byte(in)); got != want {
			t.Errorf("escapeLiteral(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWinAnsi(t *testing.T) {
	cases := map[string]string{
		"Exit":      "Exit",
		"§1011.5":   "\xa71011.5",
		"€ 5":       "\x80 5",
		"Stopnišče": "Stopni\x9ace",
		"≤ 36″":     "<= 36?",
		"避難":        "??",
		"a\tb\nc":   "a b c",
		"ﬁre":       "fire",
	}
	for in, want := range cases {
		if got := string(winAnsi(in)); got != want {
			t.Errorf("winAnsi(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrapKeepsLinesWithinWidth(t *testing.T) {
	long := strings.Repeat("The stair riser height exceeds the maximum permitted. ", 20) +
		"Supercalifragilisticexpialidocious-and-a-very-long-unbreakable-identifier-ABCDEFGHIJKLMNOP"
	for _, width := range []float64{40, 120, 400} {
		lines := wrap(long+"\n\nSecond paragraph.", "Helvetica", 9, width)
		if len(lines) < 2 {
			t.Fatalf("width %v: %d lines", width, len(lines))
		}
		var joined []string
		for _, l := range lines {
			w, _ := font.TextWidthFloat(string(l), "Helvetica", 9)
			if w > width+0.001 {
				t.Errorf("width %v: line %q is %v wide", width, l, w)
			}
			joined = append(joined, string(l))
		}
		all := strings.Join(joined, "")
		for _, word := range []string{"Supercalifragilistic", "Second"} {
			if !strings.Contains(strings.ReplaceAll(all, " ", ""), word) {
				t.Errorf("width %v: lost %q", width, word)
			}
		}
	}
}

func TestSummaryPaginatesLongTables(t *testing.T) {
	var marks []Mark
	for i := 1; i <= 120; i++ {
		marks = append(marks, Mark{
			Page: 0, Number: i, FindingID: fmt.Sprintf("f%d", i), Severity: severityCycle[i%5],
			Title: fmt.Sprintf("Finding %d", i), GoverningRefs: "IRC R311.7.5.1",
			Rationale:   strings.Repeat("A long rationale that wraps across several lines of the table. ", 1+i%7),
			SheetNumber: "A-101",
		})
	}
	// One finding with a rationale longer than a page must split, not vanish.
	marks[5].Rationale = strings.Repeat("Very long rationale. ", 900)
	pages, _ := summaryContents(612, 792, testSummary, summaryRows(marks))
	if len(pages) < 5 {
		t.Fatalf("%d summary pages for 120 long findings", len(pages))
	}
	for i, p := range pages {
		footer := fmt.Sprintf("summary page %d of %d", i+1, len(pages))
		if !bytes.Contains(p, []byte(footer)) {
			t.Errorf("page %d lacks %q", i+1, footer)
		}
	}
	all := bytes.Join(pages, nil)
	for _, want := range []string{"(Finding 1)", "(Finding 120)", "City amendments snapshot", "ver_456", "job_123"} {
		if !bytes.Contains(all, []byte(want)) {
			t.Errorf("summary lacks %q", want)
		}
	}
}

func TestSummaryRowsGroupAnchorsOfOneFinding(t *testing.T) {
	rows := summaryRows([]Mark{
		{Page: 3, Number: 2, FindingID: "b", Severity: "LOW", SheetNumber: "A-2"},
		{Page: 1, Number: 1, FindingID: "a", Severity: "high", SheetNumber: "A-1"},
		{Page: 2, Number: 2, FindingID: "b", Severity: "LOW", SheetNumber: "A-1"},
		{Page: 0, Number: 3, FindingID: "c", Severity: "info"},
	})
	got := fmt.Sprintf("%v %v %v %v %v %v", rows[0].number, rows[1].number, rows[1].pages, rows[1].sheets, rows[1].severity, rows[2].pages)
	if want := "1 2 [2 3] [A-2 A-1] low []"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
}

func TestSummaryPageSize(t *testing.T) {
	cases := []struct {
		name string
		g    pageGeometry
		w, h float64
	}{
		{"landscape A1 shown as is", pageGeometry{crop: box{0, 0, 2384, 1684}}, 2384, 1684},
		{"rotated sheet shown portrait", pageGeometry{crop: box{0, 0, 2384, 1684}, rotate: 90}, 1684, 2384},
		{"tiny first page falls back to Letter", pageGeometry{crop: box{0, 0, 300, 200}}, 612, 792},
	}
	for _, c := range cases {
		if w, h := summaryPageSize(c.g); w != c.w || h != c.h {
			t.Errorf("%s: %vx%v, want %vx%v", c.name, w, h, c.w, c.h)
		}
	}
}
