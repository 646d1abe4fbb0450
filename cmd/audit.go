package cmd

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/spf13/cobra"

	"planreview/api"
)

func newAuditCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Check the examiners' audit trails",
	}
	cmd.AddCommand(newAuditVerifyCmd(a))
	return cmd
}

// errAuditBroken makes verify exit 1 after naming the broken event.
var errAuditBroken = errors.New("the audit trail does not verify")

func newAuditVerifyCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify JOB_ID",
		Short: "Recompute a job's audit hash chain",
		Long: "Recomputes every event's hash (SHA-256 of the previous event's hash and the event's canonical JSON)\n" +
			"and its link to the event before. Exit status 1 names the first broken event.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				res, err := ops.VerifyAudit(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				if asJSON {
					if err := printJSON(cmd.OutOrStdout(), res); err != nil {
						return err
					}
				} else if res.Valid {
					fmt.Fprintf(cmd.OutOrStdout(), "Audit trail of %s verified: %d events, head %s\n", res.JobID, res.Events, res.Head)
				}
				if !res.Valid {
					id := res.BrokenEventID
					if id == "" {
						id = "(unreadable record)"
					}
					return fmt.Errorf("%w: event %d, %s: %s", errAuditBroken, res.BrokenPosition, id, res.Reason)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func (s *socketAdmin) VerifyAudit(ctx context.Context, jobID string) (out api.AuditReport, err error) {
	err = s.call(ctx, http.MethodPost, "/v1/audit/"+url.PathEscape(jobID)+"/verify", nil, &out)
	return out, err
}
