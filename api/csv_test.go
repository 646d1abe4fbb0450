package api

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"planreview/store"
)

// TestCSVNeutralisesFormulas: a cell a spreadsheet would run as a formula
// gets a leading quote; other cells stay as they are.
func TestCSVNeutralisesFormulas(t *testing.T) {
	cases := map[string]string{
		"=HYPERLINK(\"http://x\")": "'=HYPERLINK(\"http://x\")",
		"+1":                       "'+1",
		"-2":                       "'-2",
		"@SUM(A1)":                 "'@SUM(A1)",
		"\tTAB":                    "'\tTAB",
		"\rCR":                     "'\rCR",
		"GUARD 34\" < 36\" MIN":    "GUARD 34\" < 36\" MIN",
		"":                         "",
	}
	for in, want := range cases {
		var buf bytes.Buffer
		f := store.Finding{ID: "fnd_1", Title: in, Rationale: in, Severity: "high",
			Anchors: []store.Anchor{{Page: 2, BBox: store.BBox{Left: 0.25, Top: 0.5, Width: 0.125, Height: 0.0625}}}}
		if err := WriteFindingsCSV(csv.NewWriter(&buf), "ver_1", []store.Finding{f}); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		row := rows[1]
		if strings.Contains(in, "\r") {
			// In CRLF mode encoding/csv writes no lone CR inside a cell; the
			// guard still marks the cell.
			want = strings.ReplaceAll(want, "\r", "")
		}
		if row[9] != want || row[11] != want {
			t.Errorf("%q: title %q rationale %q, want %q", in, row[9], row[11], want)
		}
		if got := strings.Join(row[12:16], ","); got != "0.25,0.5,0.125,0.0625" || row[3] != "2" {
			t.Errorf("first anchor: page %s box %s", row[3], got)
		}
	}
}

// TestCSVFindingWithoutAnchor leaves page and box empty.
func TestCSVFindingWithoutAnchor(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFindingsCSV(csv.NewWriter(&buf), "ver_1", []store.Finding{{ID: "fnd_1", Severity: "low"}}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(buf.String(), "\r\n"), "\r\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[1], ",,,,,open,,,") {
		t.Fatalf("CSV %q", buf.String())
	}
}

// TestCSVCellsAgreeAcrossReaders: non-ASCII text (en dashes, accented sheet
// titles, symbols), quotes, commas and line breaks in cells come back the
// same from Go's encoding/csv (the partner export, no byte-order mark) and
// from LibreOffice's CSV import (the spreadsheet download, after its UTF-8
// byte-order mark) when LibreOffice is installed; box fractions are
// rounded to six decimals.
func TestCSVCellsAgreeAcrossReaders(t *testing.T) {
	findings := []store.Finding{
		{ID: "fnd_1", Severity: "medium", Title: "Guard height 34\u201336 in \u2013 under 36\u2033",
			Rationale:     "Sheet \u201cSTANOVANJSKA HI\u0160A\u201d, line one,\nline two; area \u2265 4.8 m\u00b2 at 90\u00b0",
			GoverningRefs: "IRC \u00a7R312.1.2", Sheet: store.SheetRef{SheetNumber: "A\u2011101", SheetType: "architectural"},
			Anchors: []store.Anchor{{Page: 3, BBox: store.BBox{Left: 0.035797999999999996, Top: 0.1 + 0.2, Width: 1.0 / 3, Height: 2e-7}}}},
		{ID: "fnd_2", Severity: "low", Title: "=cmd|' /C calc'!A0", Rationale: "\u65e5\u672c\u8a9e \u0417\u0434\u0430\u043d\u0438\u0435"},
	}
	var buf bytes.Buffer
	if err := WriteFindingsCSV(csv.NewWriter(&buf), "ver_1", findings); err != nil {
		t.Fatal(err)
	}
	goRows, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if goRows[0][0] != "findingId" {
		t.Errorf("first header cell %q: the partner export carries no byte-order mark", goRows[0][0])
	}
	if got := strings.Join(goRows[1][12:16], ","); got != "0.035798,0.3,0.333333,0" {
		t.Errorf("box %s, want six decimals", got)
	}
	if goRows[1][9] != findings[0].Title || goRows[1][11] != findings[0].Rationale || goRows[1][4] != "A\u2011101" {
		t.Errorf("row 1 %q", goRows[1])
	}

	office := ""
	for _, name := range []string{"soffice", "libreoffice"} {
		if p, err := exec.LookPath(name); err == nil {
			office = p
			break
		}
	}
	if office == "" {
		t.Skip("LibreOffice not installed: the spreadsheet side is not checked")
	}
	if real, err := filepath.EvalSymlinks(office); err == nil {
		if calc, _ := filepath.Glob(filepath.Join(filepath.Dir(real), "libsclo*")); len(calc) == 0 {
			t.Skip("LibreOffice without Calc (libreoffice-calc-nogui): the spreadsheet side is not checked")
		}
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "download.csv")
	if err := os.WriteFile(in, append([]byte(UTF8BOM), buf.Bytes()...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	// Import as a spreadsheet would (comma, double quote, UTF-8), export
	// as UTF-8 CSV with every text cell quoted.
	cmd := exec.Command(office, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--infilter=CSV:44,34,76,1", "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,true,true",
		"--outdir", out, in)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("LibreOffice: %v\n%s", err, msg)
	}
	converted, err := os.ReadFile(filepath.Join(out, "download.csv"))
	if err != nil {
		t.Fatal(err)
	}
	officeRows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(converted, []byte(UTF8BOM)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(officeRows) != len(goRows) {
		t.Fatalf("LibreOffice reads %d rows, Go %d", len(officeRows), len(goRows))
	}
	for i := range goRows {
		for j := range goRows[i] {
			g, o := goRows[i][j], ""
			if j < len(officeRows[i]) {
				o = officeRows[i][j]
			}
			if g != o {
				t.Errorf("row %d column %s: Go %q, LibreOffice %q", i, goRows[0][j], g, o)
			}
		}
	}
}
