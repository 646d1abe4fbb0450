package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"planreview/store"
)

// Stamped by a release build (scripts/release.sh):
//
//	-ldflags "-X planreview/cmd.version=1.2.0 -X planreview/cmd.commit=<sha> -X planreview/cmd.buildDate=<RFC 3339>"
//
// A plain `go build` in a git checkout gets commit and date from the
// toolchain's VCS stamp instead (debug.ReadBuildInfo).
var (
	version   = "dev"
	commit    = ""
	buildDate = ""
)

// buildInfo is what `planreview version` reports.
type buildInfo struct {
	Version       string `json:"version"`
	Commit        string `json:"commit"`
	BuildDate     string `json:"buildDate"`
	Modified      bool   `json:"modified"` // built from a tree with uncommitted changes
	APIVersion    string `json:"apiVersion"`
	SchemaVersion int    `json:"schemaVersion"`
	GoVersion     string `json:"goVersion"`
	Platform      string `json:"platform"`
}

func currentBuild() buildInfo {
	b := buildInfo{Version: version, Commit: commit, BuildDate: buildDate, APIVersion: "1.0.0",
		SchemaVersion: store.SchemaVersion(), GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version // go install planreview@vX.Y.Z
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && b.Commit == "":
				b.Commit = s.Value
			case s.Key == "vcs.time" && b.BuildDate == "":
				b.BuildDate = s.Value
			case s.Key == "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	return b
}

func newVersionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print the version, commit, build date, API version and database schema version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b := currentBuild()
			if asJSON {
				return printJSON(cmd.OutOrStdout(), b)
			}
			line := "planreview " + b.Version
			if b.Commit != "" {
				line += " (commit " + b.Commit
				if b.Modified {
					line += ", modified"
				}
				if b.BuildDate != "" {
					line += ", built " + b.BuildDate
				}
				line += ")"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s\npartner API v%s\ndatabase schema %d\n%s %s\n",
				line, b.APIVersion, b.SchemaVersion, b.GoVersion, b.Platform)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}
