package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// titleBlockPage is a page content stream with a bottom-right title block:
// project and drawing numbers under their captions, the title right of its
// caption, a scale, and a note in the drawing.
func titleBlockPage(number, title string) string {
	return strings.Join([]string{
		"BT /F1 8 Tf 72 700 Td (GENERAL NOTES: ALL DIMENSIONS IN MILLIMETRES.) Tj ET",
		"BT /F1 6 Tf 430 140 Td (DRAWING) Tj ET",
		"BT /F1 9 Tf 470 139 Td (" + title + ") Tj ET",
		"BT /F1 6 Tf 430 120 Td (SCALE: 1:50) Tj ET",
		"BT /F1 6 Tf 430 100 Td (PROJECT NO:) Tj ET",
		"BT /F1 6 Tf 510 100 Td (DWG NO:) Tj ET",
		"BT /F1 16 Tf 430 80 Td (1601) Tj ET",
		"BT /F1 16 Tf 510 80 Td (" + number + ") Tj ET",
	}, "\n")
}

func TestInspectSheetsJSON(t *testing.T) {
	file := tinyPDF(t, 0, titleBlockPage("100-00", "SITE PLAN"), titleBlockPage("200-00", "GROUND FLOOR PLAN"), "BT /F1 30 Tf 100 400 Td (COVER) Tj ET")
	out, err := runInspect(t, file, "--sheets", "--json")
	if err != nil {
		t.Fatalf("inspect --sheets --json: %v\n%s", err, out)
	}
	// Exactly the contract's keys.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if got, want := jsonKeys(raw), []string{"codesStated", "docType", "jurisdictionHints", "pages"}; !reflect.DeepEqual(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	var pages []map[string]json.RawMessage
	json.Unmarshal(raw["pages"], &pages)
	if len(pages) != 3 {
		t.Fatalf("%d pages, want 3", len(pages))
	}
	if got, want := jsonKeys(pages[0]), []string{"issueStatus", "page", "scale", "sheetNumber", "sheetTitle", "textLayer"}; !reflect.DeepEqual(got, want) {
		t.Errorf("page keys %v, want %v", got, want)
	}
	var set struct {
		DocType string `json:"docType"`
		Pages   []struct {
			Page        int
			TextLayer   string
			SheetNumber *string
			SheetTitle  *string
			Scale       *string
		} `json:"pages"`
	}
	json.Unmarshal([]byte(out), &set)
	str := func(p *string) string {
		if p == nil {
			return "<null>"
		}
		return *p
	}
	want := [][3]string{{"100-00", "SITE PLAN", "1:50"}, {"200-00", "GROUND FLOOR PLAN", "1:50"}, {"<null>", "<null>", "<null>"}}
	for i, w := range want {
		p := set.Pages[i]
		if got := [3]string{str(p.SheetNumber), str(p.SheetTitle), str(p.Scale)}; got != w {
			t.Errorf("page %d: %v, want %v", i+1, got, w)
		}
	}
	if set.DocType != "permit_set" {
		t.Errorf("docType %q, want permit_set", set.DocType)
	}
}

func TestInspectSheetsText(t *testing.T) {
	file := tinyPDF(t, 0, titleBlockPage("100-00", "SITE PLAN"))
	out, err := runInspect(t, file, "--sheets")
	if err != nil {
		t.Fatalf("inspect --sheets: %v\n%s", err, out)
	}
	for _, s := range []string{"single_sheet", "sheet 100-00", "SITE PLAN", "scale 1:50"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

func TestInspectLayoutSVG(t *testing.T) {
	file := tinyPDF(t, 0, titleBlockPage("100-00", "SITE PLAN"), titleBlockPage("200-00", "ROOF PLAN"))
	svg := filepath.Join(t.TempDir(), "page.svg")
	if out, err := runInspect(t, file, "--layout", "--svg", svg, "--page", "2"); err != nil {
		t.Fatalf("inspect --layout: %v\n%s", err, out)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"<svg", `class="word"`, `class="tb"`, `class="title-block"`, "region: title block", "region: legend / symbol key", "sheetNumber: 200-00", "ROOF PLAN", "</svg>"} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// Usage errors exit 2.
	for _, args := range [][]string{{file, "--layout"}, {file, "--layout", "--svg", filepath.Join(t.TempDir(), "no", "such", "x.svg")}} {
		if _, err := runInspect(t, args...); exitCodeOf(err) != 2 {
			t.Errorf("%v: exit %d, want 2", args[1:], exitCodeOf(err))
		}
	}
}

func jsonKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
