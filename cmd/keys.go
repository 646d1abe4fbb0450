package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"planreview/api"
)

func newKeysCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Issue, list, revoke and rotate partner API keys",
	}
	cmd.AddCommand(newKeysIssueCmd(a), newKeysListCmd(a), newKeysRevokeCmd(a), newKeysRotateCmd(a))
	return cmd
}

func newKeysIssueCmd(a *app) *cobra.Command {
	var partner string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "issue --partner NAME",
		Short: "Issue a key for a partner (created if new); the secret is shown once",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				k, err := ops.IssueKey(cmd.Context(), partner)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), k)
				}
				printIssued(cmd, k)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&partner, "partner", "", "partner name (required)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	_ = cmd.MarkFlagRequired("partner")
	return cmd
}

// printIssued shows a new secret on stdout (so it can be piped) and the
// advice around it on stderr.
func printIssued(cmd *cobra.Command, k api.IssuedKey) {
	fmt.Fprintf(cmd.ErrOrStderr(), "Issued key %s for partner %q (%s).\n", k.KeyID, k.Partner, k.PartnerID)
	fmt.Fprintln(cmd.OutOrStdout(), k.Key)
	fmt.Fprintln(cmd.ErrOrStderr(), "This secret is shown once and stored only as a hash: give it to the partner now.")
}

func newKeysListCmd(a *app) *cobra.Command {
	var partner string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--partner NAME]",
		Short: "List keys (never their secrets)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				keys, err := ops.ListKeys(cmd.Context(), partner)
				if err != nil {
					return err
				}
				if asJSON {
					if keys == nil {
						keys = []api.KeyInfo{}
					}
					return printJSON(cmd.OutOrStdout(), keys)
				}
				tw := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "KEY ID\tPARTNER\tENDS\tSTATUS\tCREATED\tEXPIRES")
				for _, k := range keys {
					expires := "-"
					if k.ExpiresAt != nil {
						expires = time.Unix(*k.ExpiresAt, 0).UTC().Format(time.RFC3339)
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.KeyID, k.Partner, k.Hint, k.Status,
						k.CreatedAt.UTC().Format(time.RFC3339), expires)
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().StringVar(&partner, "partner", "", "only this partner's keys")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

func newKeysRevokeCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke KEY_ID",
		Short: "Revoke a key at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				k, err := ops.RevokeKey(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Revoked %s (partner %q). It stops working now.\n", k.KeyID, k.Partner)
				return nil
			})
		},
	}
}

func newKeysRotateCmd(a *app) *cobra.Command {
	var grace time.Duration
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rotate KEY_ID [--grace DURATION]",
		Short: "Issue a replacement key; the old one works until the grace period ends",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				k, err := ops.RotateKey(cmd.Context(), args[0], grace)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), k)
				}
				printIssued(cmd, k.IssuedKey)
				fmt.Fprintf(cmd.ErrOrStderr(), "The old key %s works until %s.\n", k.OldKeyID,
					time.Unix(k.OldKeyExpiresAt, 0).UTC().Format(time.RFC3339))
				return nil
			})
		},
	}
	cmd.Flags().DurationVar(&grace, "grace", 24*time.Hour, "how long the old key keeps working")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
