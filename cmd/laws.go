package cmd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"planreview/api"
	"planreview/scan"
	"planreview/scan/codebasis"
	"planreview/store"
)

// lawsOps are the laws commands; *api.Admin runs them on an open database,
// socketAdmin sends them to a running server.
type lawsOps interface {
	ImportLaw(ctx context.Context, fileName string, data []byte) (api.ImportedLaw, error)
	ListLaws(ctx context.Context) ([]api.LawInfo, error)
	LawSnapshots(ctx context.Context, jurisdictionID string) ([]store.LawSnapshot, error)
	CertifyLaw(ctx context.Context, id, certificateID string, scope []string) (api.LawInfo, error)
	VerifyLaw(ctx context.Context, id string) (api.VerifiedLaw, error)
}

// LawSettings are the scan pipeline's local-law settings.
func (c *Config) LawSettings() codebasis.Settings {
	return codebasis.Settings{MaxStaleness: c.Laws.MaxStaleness}
}

func newLawsCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "laws",
		Short: "Import, list, certify and verify local-law snapshots",
		Long: "A local-law snapshot (local-law-snapshot-v1, YAML or JSON) is the law in force for one\n" +
			"jurisdiction over a date range: model codes, state and local layers with their amendments.\n" +
			"Scans of jobs in that jurisdiction use the newest certified snapshot in force on the job's\n" +
			"application date. See docs/examples/laws/ and the README.",
	}
	cmd.AddCommand(newLawsImportCmd(a), newLawsListCmd(a), newLawsCertifyCmd(a), newLawsVerifyCmd(a))
	return cmd
}

func newLawsImportCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Validate a snapshot file and store it (the same content twice is one snapshot)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			return a.withAdmin(cmd, func(ops adminOps) error {
				res, err := ops.ImportLaw(cmd.Context(), args[0], data)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), res)
				}
				what := "Imported"
				if !res.Created {
					what = "Already imported (same content; nothing changed)"
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %s for %s, in force %s to %s. Certify it with: planreview laws certify %s --certificate ID\n",
					what, res.SnapshotID, res.JurisdictionID, res.EffectiveFrom, derefOr(res.EffectiveUntil, "open-ended"), res.SnapshotID)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func newLawsListCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List stored snapshots with their certification and freshness",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				all, err := ops.ListLaws(cmd.Context())
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), all)
				}
				tw := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "SNAPSHOT\tJURISDICTION\tIN FORCE\tSTATUS\tCERTIFICATE\tFRESHNESS CHECKED\tNAME")
				for _, s := range all {
					checked := "-"
					if s.FreshnessCheckedAt != nil {
						checked = s.FreshnessCheckedAt.UTC().Format(time.RFC3339)
					}
					fmt.Fprintf(tw, "%s\t%s\t%s..%s\t%s\t%s\t%s\t%s\n", s.SnapshotID, s.JurisdictionID, s.EffectiveFrom,
						derefOr(s.EffectiveUntil, ""), s.Status, derefOr(s.CertificateID, "-"), checked, s.Name)
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

func newLawsCertifyCmd(a *app) *cobra.Command {
	var (
		certificate string
		scope       []string
		asJSON      bool
	)
	cmd := &cobra.Command{
		Use:   "certify SNAPSHOT_ID --certificate ID [--scope TOPIC]...",
		Short: "Attest that a snapshot is complete and current for a scope of topics",
		Long: "Certifying is the operator's attestation that the snapshot is complete and current for\n" +
			"the scope (default: the snapshot's topics). It also records the freshness check.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if certificate == "" {
				return fmt.Errorf("--certificate is required")
			}
			return a.withAdmin(cmd, func(ops adminOps) error {
				info, err := ops.CertifyLaw(cmd.Context(), args[0], certificate, scope)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), info)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Certified %s with certificate %s for: %s\n", info.SnapshotID,
					derefOr(info.CertificateID, ""), strings.Join(info.CertifiedScope, ", "))
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&certificate, "certificate", "", "certificate id of the attestation (required)")
	cmd.Flags().StringArrayVar(&scope, "scope", nil, "topic the certification covers (repeat; default: the snapshot's topics)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func newLawsVerifyCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify SNAPSHOT_ID",
		Short: "Re-check a stored snapshot's content hash and record the freshness check",
		Long:  "Exit status 1, and nothing changes, when the stored content no longer matches its hash.",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				res, err := ops.VerifyLaw(cmd.Context(), args[0])
				if errors.Is(err, api.ErrVerifyFailed) && asJSON {
					if perr := printJSON(cmd.OutOrStdout(), res); perr != nil {
						return perr
					}
				}
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), res)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Verified %s (sha256 %s); freshness checked at %s\n", res.SnapshotID, res.SHA256,
					res.FreshnessCheckedAt.UTC().Format(time.RFC3339))
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func derefOr(s *string, or string) string {
	if s == nil {
		return or
	}
	return *s
}

// Socket transport of the laws commands.

func (s *socketAdmin) ImportLaw(ctx context.Context, fileName string, data []byte) (api.ImportedLaw, error) {
	var out struct {
		api.ImportedLaw
		Created bool `json:"created"`
	}
	err := s.call(ctx, http.MethodPost, "/v1/laws", map[string]string{"fileName": fileName, "content": string(data)}, &out)
	out.ImportedLaw.Created = out.Created
	return out.ImportedLaw, err
}

func (s *socketAdmin) ListLaws(ctx context.Context) (out []api.LawInfo, err error) {
	err = s.call(ctx, http.MethodGet, "/v1/laws", nil, &out)
	return out, err
}

func (s *socketAdmin) LawSnapshots(ctx context.Context, jurisdictionID string) (out []store.LawSnapshot, err error) {
	err = s.call(ctx, http.MethodGet, "/v1/laws?jurisdiction="+url.QueryEscape(jurisdictionID), nil, &out)
	return out, err
}

func (s *socketAdmin) CertifyLaw(ctx context.Context, id, certificateID string, scope []string) (out api.LawInfo, err error) {
	body := map[string]any{"certificateId": certificateID, "scope": scope}
	err = s.call(ctx, http.MethodPost, "/v1/laws/"+url.PathEscape(id)+"/certify", body, &out)
	return out, err
}

func (s *socketAdmin) VerifyLaw(ctx context.Context, id string) (out api.VerifiedLaw, err error) {
	err = s.call(ctx, http.MethodPost, "/v1/laws/"+url.PathEscape(id)+"/verify", nil, &out)
	var se *socketStatusError
	if errors.As(err, &se) && se.status == http.StatusConflict {
		return api.VerifiedLaw{SnapshotID: id, Status: "failed", Reason: se.msg}, fmt.Errorf("%w: %s", api.ErrVerifyFailed, se.msg)
	}
	return out, err
}

// socketStatusError is a failure answer of the admin socket other than an
// operator mistake (400).
type socketStatusError struct {
	status int
	msg    string
}

func (e *socketStatusError) Error() string {
	return fmt.Sprintf("server: %s (status %d)", e.msg, e.status)
}

// checkReviewLaw validates review's --jurisdiction and --application-date
// (default: today, as for a job created now).
func checkReviewLaw(law *scan.Law) error {
	if law.JurisdictionID != "" && !codebasis.ValidJurisdictionID(law.JurisdictionID) {
		return fmt.Errorf("--jurisdiction %q is not an Open Civic Data division id such as ocd-division/country:us/state:ca/county:marin", law.JurisdictionID)
	}
	if law.ApplicationDate == "" {
		law.ApplicationDate = time.Now().UTC().Format(time.DateOnly)
	} else if _, err := time.Parse(time.DateOnly, law.ApplicationDate); err != nil {
		return fmt.Errorf("--application-date %q is not a date as YYYY-MM-DD", law.ApplicationDate)
	}
	// Without a jurisdiction the date still selects the codes the plans'
	// state had in force (the code basis presumed from the plans).
	return nil
}

// localSnapshots reads a jurisdiction's snapshots for an offline review:
// from the running server's admin socket, else from the data folder's
// database when there is one (none: no snapshots, coverage HELD).
func localSnapshots(ctx context.Context, cfg Config, jurisdictionID string) (codebasis.Snapshots, error) {
	socket := cfg.AdminSocket()
	if conn, err := net.DialTimeout("unix", socket, time.Second); err == nil {
		conn.Close()
		all, err := newSocketAdmin(socket).LawSnapshots(ctx, jurisdictionID)
		return memorySnapshots(all), err
	}
	if _, err := os.Stat(cfg.DBPath()); errors.Is(err, os.ErrNotExist) {
		return memorySnapshots(nil), nil
	}
	db, err := store.Open(cfg.DBPath(), store.Options{LockTimeout: 3 * time.Second})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	all, err := db.LawSnapshots(jurisdictionID, true)
	return memorySnapshots(all), err
}

// memorySnapshots serves snapshots read beforehand.
type memorySnapshots []store.LawSnapshot

func (m memorySnapshots) LawSnapshots(jurisdictionID string, withContent bool) ([]store.LawSnapshot, error) {
	var out []store.LawSnapshot
	for _, s := range m {
		if jurisdictionID == "" || s.JurisdictionID == jurisdictionID {
			out = append(out, s)
		}
	}
	return out, nil
}

func (m memorySnapshots) LawSnapshot(id string) (store.LawSnapshot, error) {
	for _, s := range m {
		if s.ID == id {
			return s, nil
		}
	}
	return store.LawSnapshot{}, store.ErrNotFound
}
