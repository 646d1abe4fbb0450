// Package cmd is planreview's command line: one cobra command per
// subcommand, each built by its constructor, sharing one viper instance.
package cmd

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// Execute runs the command line and returns the process exit status.
func Execute() int {
	root := newRootCmd()
	err := root.ExecuteContext(context.Background())
	if err != nil {
		fmt.Fprintln(root.ErrOrStderr(), "planreview:", err)
		if hint, ok := usageHint(err); ok {
			fmt.Fprintln(root.ErrOrStderr(), hint)
		}
	}
	return exitCodeOf(err)
}

// app is what every subcommand shares: the one viper instance and the
// --config flag's value.
type app struct {
	v          *viper.Viper
	configFile string
}

func newRootCmd() *cobra.Command {
	a := &app{v: newViper()}
	root := &cobra.Command{
		Use:           "planreview",
		Short:         "On-prem plan review: checks building plan PDFs against building codes",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&a.configFile, "config", "", "config file (YAML); see config.example.yaml")
	root.PersistentFlags().String("data-dir", "", "data folder (default ./data)")
	root.AddCommand(
		newServeCmd(a),
		newKeysCmd(a),
		newPartnersCmd(a),
		newLawsCmd(a),
		newWebhooksCmd(a),
		newBackupCmd(a),
		newRestoreCmd(a),
		newConfigCmd(a),
		newReviewCmd(a),
		newInspectCmd(),
		newModelCmd(a),
		newVersionCmd(),
		newCompilePDFiumCmd(),
	)
	enforceUsageExit(root)
	return root
}

// config loads and validates the configuration for cmd.
func (a *app) config(cmd *cobra.Command) (Config, error) {
	return loadConfig(a.v, a.configFile, cmd.Flags())
}

// newLogger writes structured logs to w in the configured format.
func newLogger(cfg Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.Log.Level)) // validated already
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
