package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"planreview/store/durable"
)

func newBackupCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "backup FILE",
		Short: "Write a consistent copy of the database, also while serve runs",
		Long: "Writes a consistent copy of the database to FILE (\"-\" for stdout). Together with\n" +
			"the files/ folder and signing.key of the data folder it restores the appliance.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				if args[0] == "-" {
					_, err := ops.Backup(cmd.Context(), cmd.OutOrStdout())
					return err
				}
				n, err := durable.WriteFrom(args[0], 0o600, func(w io.Writer) (int64, error) {
					return ops.Backup(cmd.Context(), w)
				})
				if err != nil {
					return fmt.Errorf("backup: %w", err)
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "Wrote %d bytes to %s.\n", n, args[0])
				return nil
			})
		},
	}
}
