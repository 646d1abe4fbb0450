package cmd

import (
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"planreview/store/durable"
)

func newBackupCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "backup FILE",
		Short: "Write the whole appliance to one archive, also while serve runs",
		Long: "Writes one tar archive to FILE (\"-\" for stdout; gzip-compressed when FILE ends in\n" +
			".gz or .tgz): a consistent snapshot of the database, every uploaded and marked-up\n" +
			"file it references, the URL signing key, and a manifest with each entry's size and\n" +
			"SHA-256. While serve runs it goes through the admin socket and the server keeps\n" +
			"taking writes. `planreview restore FILE --data-dir DIR` brings it back.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			compress := strings.HasSuffix(args[0], ".gz") || strings.HasSuffix(args[0], ".tgz")
			return a.withAdmin(cmd, func(ops adminOps) error {
				write := func(w io.Writer) (int64, error) {
					if !compress {
						return ops.Backup(cmd.Context(), w)
					}
					cw := &countWriter{w: w}
					// Uploads are compressed PDFs already: the fastest level
					// still shrinks the database, and costs little time.
					zw, _ := gzip.NewWriterLevel(cw, gzip.BestSpeed)
					if _, err := ops.Backup(cmd.Context(), zw); err != nil {
						return cw.n, err
					}
					err := zw.Close()
					return cw.n, err
				}
				if args[0] == "-" {
					_, err := write(cmd.OutOrStdout())
					return err
				}
				n, err := durable.WriteFrom(args[0], 0o600, write)
				if err != nil {
					return fmt.Errorf("backup: %w", err)
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "Wrote %d bytes to %s.\n", n, args[0])
				return nil
			})
		},
	}
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
