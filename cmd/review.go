package cmd

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"planreview/api"
	"planreview/scan"
	"planreview/scan/annotate"
	"planreview/scan/pdftext"
	"planreview/scan/rules"
	"planreview/store"
)

func newReviewCmd(a *app) *cobra.Command {
	var (
		format    string
		annotated string
		failOn    string
		law       scan.Law
	)
	cmd := &cobra.Command{
		Use:   "review FILE.pdf",
		Short: "Review a plan PDF offline, with no server and no key",
		Long: "Runs the whole scan pipeline on a local PDF and prints the findings.\n\n" +
			"Exit status, for scripts and CI:\n" +
			"  0  no finding is at or above --fail-on (default high)\n" +
			"  1  a finding is at or above --fail-on: the review ran and its findings\n" +
			"     are printed (and --annotated written) as with 0; the table's last\n" +
			"     line says how many findings crossed the threshold\n" +
			"  2  the review could not run (unreadable file, bad flag, config error)\n" +
			"--fail-on none never exits 1.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "table" && format != "json" && format != "csv" {
				return withExitCode(2, fmt.Errorf("--format must be table, json or csv"))
			}
			threshold := rules.SeverityRank(failOn)
			if failOn == "none" {
				threshold = -1
			} else if threshold > rules.SeverityRank(rules.SeverityInfo) {
				return withExitCode(2, fmt.Errorf("--fail-on must be critical, high, medium, low, info or none"))
			}
			cfg, err := a.config(cmd)
			if err != nil {
				return withExitCode(2, err)
			}
			if err := checkReviewLaw(&law); err != nil {
				return withExitCode(2, err)
			}
			oneShotHeap()
			res, err := reviewFile(cmd.Context(), cfg, args[0], annotated, cmd.ErrOrStderr(), law)
			if err != nil {
				return withExitCode(2, err)
			}
			if err := printFindings(cmd.OutOrStdout(), format, res, failOn); err != nil {
				return withExitCode(2, err)
			}
			if atOrAbove(res.Findings, failOn) > 0 {
				return withExitCode(1, fmt.Errorf("findings at or above %s", failOn))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "output: table, json (the findings endpoint's body) or csv (the export's)")
	cmd.Flags().StringVar(&annotated, "annotated", "", "also write the marked-up PDF to this path")
	cmd.Flags().StringVar(&law.JurisdictionID, "jurisdiction", "", "review under this jurisdiction's certified local law (OCD division id; snapshots from the data folder)")
	cmd.Flags().StringVar(&law.ApplicationDate, "application-date", "", "the date the plans were submitted, YYYY-MM-DD (default today): selects the law in force")
	cmd.Flags().StringVar(&failOn, "fail-on", "high", "exit 1 when a finding is at or above this severity (critical, high, medium, low, info, none)")
	return cmd
}

// reviewFile runs the scan pipeline on one local file, as the server would.
func reviewFile(ctx context.Context, cfg Config, path, annotatedOut string, progressOut io.Writer, law scan.Law) (scan.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.Scan.Timeout)
	defer cancel()
	// The file opens while the rule library loads: both are work for one
	// core, and the machine has at least two.
	var opened *openingFile
	if _, err := os.Stat(path); err == nil {
		opened = openInBackground(ctx, path, cfg.Scan.Budgets.PDFBudgets())
		defer opened.closeUntaken()
	}
	pipeline, err := scan.NewPipeline(cfg.Codes.Adopted, cfg.Codes.Jurisdiction, cfg.Scan.MaxPages)
	if err != nil {
		return scan.Result{}, fmt.Errorf("codes.adopted: %w", err)
	}
	pipeline.Budgets = cfg.Scan.Budgets.PDFBudgets()
	pipeline.NoChatIndex = true
	if _, err := os.Stat(path); err != nil {
		return scan.Result{}, err
	}
	if pipeline.Model, err = newModel(cfg, nil); err != nil {
		return scan.Result{}, err
	}
	pipeline.ModelConcurrency = cfg.Model.MaxConcurrency
	if law.JurisdictionID != "" {
		snapshots, err := localSnapshots(ctx, cfg, law.JurisdictionID)
		if err != nil {
			return scan.Result{}, err
		}
		pipeline.Laws, pipeline.Settings = snapshots, cfg.LawSettings()
	}
	progress := newProgressBar(progressOut)
	defer progress.done()
	input := scan.Input{FileID: store.NewID(store.PrefixFile), Name: filepath.Base(path), Path: path}
	if opened != nil {
		input.Opening = opened.take
	}
	res, err := pipeline.ReviewLaw(ctx, law, []scan.Input{input}, progress)
	var se *scan.Error
	if errors.As(err, &se) {
		return res, fmt.Errorf("%s: %s", se.Code, se.Message)
	}
	if err != nil {
		return res, err
	}
	if annotatedOut != "" {
		progress.Stage(store.StageAnnotating)
		if err := pipeline.Annotate(ctx, res, res.Files[0], annotatedOut, annotate.Summary{JobID: "local review"}); err != nil {
			return res, fmt.Errorf("marked-up PDF: %w", err)
		}
	}
	return res, nil
}

// openingFile is a plan PDF being opened on a goroutine of its own.
type openingFile struct {
	done  chan struct{}
	doc   *pdftext.Document
	err   error
	taken atomic.Bool
}

func openInBackground(ctx context.Context, path string, budgets pdftext.Budgets) *openingFile {
	f := &openingFile{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		defer func() {
			if p := recover(); p != nil {
				f.doc, f.err = nil, fmt.Errorf("%w: opening: %v", pdftext.ErrInvalid, p)
			}
		}()
		f.doc, f.err = pdftext.OpenWithBudgets(ctx, path, budgets)
	}()
	return f
}

// take waits for the open and hands the document over: the pipeline
// closes it.
func (f *openingFile) take() (*pdftext.Document, error) {
	<-f.done
	f.taken.Store(true)
	return f.doc, f.err
}

// closeUntaken closes the document when the review ended before the
// pipeline took it.
func (f *openingFile) closeUntaken() {
	<-f.done
	if !f.taken.Load() && f.doc != nil {
		f.doc.Close()
	}
}

// atOrAbove counts the findings at or above the --fail-on severity (none
// for "none").
func atOrAbove(findings []store.Finding, failOn string) int {
	if failOn == "none" {
		return 0
	}
	threshold, n := rules.SeverityRank(failOn), 0
	for _, f := range findings {
		if rules.SeverityRank(f.Severity) <= threshold {
			n++
		}
	}
	return n
}

// maxSubject is how much of a finding's evidence the table shows.
const maxSubject = 40

// findingSubject names what a finding is about in a few words: the text of
// its first evidence anchor (a sheet reference, a stated value), or the
// sheet or set as a whole when no words anchor it.
func findingSubject(f store.Finding) string {
	if len(f.Anchors) == 0 {
		if f.Sheet.Page > 0 {
			return "(whole sheet)"
		}
		return "(whole set)"
	}
	text := strings.Join(strings.Fields(f.Anchors[0].Text), " ")
	if r := []rune(text); len(r) > maxSubject {
		text = string(r[:maxSubject-1]) + "\u2026"
	}
	if text == "" {
		text = "(no text)"
	}
	if more := len(f.Anchors) - 1; more > 0 {
		text += fmt.Sprintf(" (+%d)", more)
	}
	return text
}

func printFindings(w io.Writer, format string, res scan.Result, failOn string) error {
	switch format {
	case "json":
		body := api.NewFindingsBody("", store.Version{}, res.Findings)
		body.CodeBasis = mustJSON(res.CodeBasis)
		body.LocalLawCoverage = mustJSON(res.CodeBasis.LocalLawCoverage)
		return printJSON(w, body)
	case "csv":
		return api.WriteFindingsCSV(csv.NewWriter(w), "", res.Findings)
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tSEVERITY\tSHEET\tPAGE\tFINDING\tABOUT\tRULE")
	for _, f := range res.Findings {
		sheet := f.Sheet.SheetNumber
		if sheet == "" {
			sheet = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\n", f.Number, f.Severity, sheet, f.Sheet.Page, f.Title, findingSubject(f), f.RuleID)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	counts := map[string]int{}
	for _, f := range res.Findings {
		counts[f.Severity]++
	}
	pages := 0
	for _, f := range res.Files {
		pages += len(f.Pages)
	}
	fmt.Fprintf(w, "\n%d findings on %d pages: %d critical, %d high, %d medium, %d low, %d info\n",
		len(res.Findings), pages, counts["critical"], counts["high"], counts["medium"], counts["low"], counts["info"])
	fmt.Fprintf(w, "Code basis: %s\n", strings.Join(res.CodeBasis.Lines, "; "))
	if c := res.CodeBasis.LocalLawCoverage; c != nil {
		fmt.Fprintf(w, "Local law: %s; %d findings held (topics: %s)\n", c.Status, res.Held, strings.Join(c.HeldTopics, ", "))
		for _, l := range c.Limitations {
			fmt.Fprintf(w, "  - %s\n", l)
		}
	}
	switch n := atOrAbove(res.Findings, failOn); {
	case failOn == "none":
		fmt.Fprintln(w, "Exit status 0: --fail-on none.")
	case n > 0:
		fmt.Fprintf(w, "Exit status 1: %d of %d findings at or above --fail-on %s.\n", n, len(res.Findings), failOn)
	default:
		fmt.Fprintf(w, "Exit status 0: no finding at or above --fail-on %s.\n", failOn)
	}
	return nil
}

// mustJSON encodes a value that cannot fail to encode (plain structs).
func mustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return raw
}
