package cmd

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"planreview/store/backup"
)

func newRestoreCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "restore FILE [--data-dir DIR]",
		Short: "Restore a backup archive into an empty data folder, checking every entry",
		Long: "Unpacks an archive made by `planreview backup` (\"-\" reads stdin) into the data\n" +
			"folder, which must be empty or absent. Every entry's size and SHA-256 are checked\n" +
			"against the archive's manifest before anything is put in place: a damaged archive\n" +
			"is refused, naming the entry, and leaves the folder empty. Run it as the user the\n" +
			"service runs as (e.g. sudo -u planreview), so the files belong to that user.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.config(cmd)
			if err != nil {
				return err
			}
			var in io.Reader = cmd.InOrStdin()
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				in = f
			}
			m, err := backup.Restore(cmd.Context(), in, cfg.Data.Dir)
			if err != nil {
				return fmt.Errorf("restore: %w", err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "Restored %s into %s; every entry matched its SHA-256.\n", backup.Describe(m), cfg.Data.Dir)
			return nil
		},
	}
}
