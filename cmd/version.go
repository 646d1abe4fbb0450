package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"planreview/store"
)

// version is set at release build time: -ldflags "-X planreview/cmd.version=1.2.3".
var version = "dev"

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, API version and database schema version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			revision := ""
			if info, ok := debug.ReadBuildInfo(); ok {
				for _, s := range info.Settings {
					if s.Key == "vcs.revision" {
						revision = " (" + s.Value + ")"
					}
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "planreview %s%s\npartner API v1.0.0\ndatabase schema %d\n%s %s/%s\n",
				version, revision, store.SchemaVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
