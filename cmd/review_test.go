package cmd

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"planreview/scan/hostile"
	"planreview/scan/plangen"
)

// TestReviewCommand runs `planreview review` on a generated plan set with
// known violations and on broken input: formats, exit statuses and the
// marked-up copy.
func TestReviewCommand(t *testing.T) {
	set, err := plangen.Generate(plangen.Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plans := filepath.Join(dir, "plans.pdf")
	if err := os.WriteFile(plans, set.Files[0].PDF, 0o600); err != nil {
		t.Fatal(err)
	}

	table := runCLI(t, "", "review", plans)
	if table.code != 1 || !strings.Contains(table.stdout, "SEVERITY") || !strings.Contains(table.stdout, "Code basis:") {
		t.Fatalf("table: exit %d (want 1: the set has high findings)\n%s%s", table.code, table.stdout, table.stderr)
	}
	// The table names what each finding is about, and its last line
	// explains the exit status.
	lines := strings.Split(strings.TrimSpace(table.stdout), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "Exit status 1: ") || !strings.Contains(last, "at or above --fail-on high") {
		t.Errorf("last line %q: want the exit status explained", last)
	}
	for _, line := range lines {
		if strings.Contains(line, "completeness-reference-to-missing-sheet") && !strings.Contains(line, "A-501") {
			t.Errorf("row %q does not name the missing sheet", line)
		}
	}
	if strings.Contains(table.stdout, "Exit status 0") {
		t.Error("exit 1 said as 0")
	}
	if help := runCLI(t, "", "review", "--help"); !strings.Contains(help.stdout, "1  a finding is at or above --fail-on") {
		t.Errorf("--help does not explain exit 1:\n%s", help.stdout)
	}
	if table.stderr != "planreview: findings at or above high\n" {
		t.Errorf("stderr %q: no progress bar is drawn when stderr is not a terminal", table.stderr)
	}

	var body struct {
		Findings []struct {
			RuleID, Severity string
			EvidenceAnchors  []struct{ Page int }
		}
		CodeBasis struct{ Lines []string }
	}
	js := runCLI(t, "", "review", "--format", "json", "--fail-on", "none", plans)
	if js.code != 0 {
		t.Fatalf("json with --fail-on none: exit %d\n%s", js.code, js.stderr)
	}
	if err := json.Unmarshal([]byte(js.stdout), &body); err != nil || len(body.Findings) == 0 || len(body.CodeBasis.Lines) == 0 {
		t.Fatalf("json body (%v): %.300s", err, js.stdout)
	}
	found := map[string]bool{}
	for _, f := range body.Findings {
		found[f.RuleID] = true
	}
	for _, want := range set.Expected {
		if !found[want.RuleID] {
			t.Errorf("review missed the planted %s", want.RuleID)
		}
	}

	csvOut := runCLI(t, "", "review", "--format", "csv", "--fail-on", "critical", plans)
	rows, err := csv.NewReader(strings.NewReader(csvOut.stdout)).ReadAll()
	if err != nil || len(rows) != len(body.Findings)+1 || rows[0][0] != "findingId" {
		t.Fatalf("csv (%v): %d rows for %d findings", err, len(rows), len(body.Findings))
	}

	marked := filepath.Join(dir, "marked-up.pdf")
	if res := runCLI(t, "", "review", "--fail-on", "none", "--annotated", marked, plans); res.code != 0 {
		t.Fatalf("--annotated: exit %d\n%s", res.code, res.stderr)
	}
	if qpdf, err := exec.LookPath("qpdf"); err == nil {
		if out, err := exec.Command(qpdf, "--check", marked).CombinedOutput(); err != nil {
			t.Errorf("qpdf --check on the marked-up copy: %v\n%s", err, out)
		}
	} else if st, err := os.Stat(marked); err != nil || st.Size() <= int64(len(set.Files[0].PDF)) {
		t.Errorf("marked-up copy missing or not larger than the input: %v", err)
	}

	broken := filepath.Join(dir, "broken.pdf")
	if err := os.WriteFile(broken, []byte("<html>not a pdf</html>"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"review", broken},
		{"review", filepath.Join(dir, "missing.pdf")},
		{"review", "--format", "xml", plans},
		{"review", "--fail-on", "loud", plans},
	} {
		if res := runCLI(t, "", args...); res.code != 2 || !strings.HasPrefix(res.stderr, "planreview: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, res.code, res.stderr)
		}
	}
	// An adopted code with no rule pack is a config error.
	badCodes := filepath.Join(dir, "bad-codes.yaml")
	if err := os.WriteFile(badCodes, []byte("codes:\n  adopted: [ibc-1997]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if res := runCLI(t, "", "review", "--config", badCodes, plans); res.code != 2 || !strings.HasPrefix(res.stderr, "planreview: codes.adopted: ") || !strings.Contains(res.stderr, `"ibc-1997" has no rule pack`) {
		t.Errorf("adopted code with no pack: exit %d, stderr %q", res.code, res.stderr)
	}
}

// TestReviewAnnotatesRepairedFiles: files whose page tree the extractor had
// to rebuild (the root lost, the catalog's /Pages garbled) are reviewed
// with --annotated into a marked-up copy qpdf accepts, never a review whose
// copy fails.
func TestReviewAnnotatesRepairedFiles(t *testing.T) {
	dir := t.TempDir()
	for name, pdf := range map[string][]byte{
		"root-lost.pdf":             hostile.LostRoot(),
		"catalog-without-pages.pdf": hostile.CatalogWithoutPages(),
	} {
		in := filepath.Join(dir, name)
		if err := os.WriteFile(in, pdf, 0o600); err != nil {
			t.Fatal(err)
		}
		marked := filepath.Join(dir, "marked-"+name)
		res := runCLI(t, "", "review", "--fail-on", "none", "--annotated", marked, in)
		if res.code != 0 {
			t.Errorf("%s: exit %d\n%s", name, res.code, res.stderr)
			continue
		}
		if qpdf, err := exec.LookPath("qpdf"); err == nil {
			if out, err := exec.Command(qpdf, "--check", marked).CombinedOutput(); err != nil {
				t.Errorf("%s: qpdf --check on the marked-up copy: %v\n%s", name, err, out)
			}
		}
	}
}
