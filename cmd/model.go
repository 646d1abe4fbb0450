package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/spf13/cobra"

	"planreview/chat"
)

// newModel is the configured model endpoint, nil when model.base_url is
// empty (no model: chat answers from the plan's text, the review runs its
// rules only).
func newModel(cfg Config, log *slog.Logger) (*chat.Model, error) {
	if cfg.Model.BaseURL == "" {
		return nil, nil
	}
	key, err := cfg.ModelKey()
	if err != nil {
		return nil, err
	}
	return chat.NewModel(chat.ModelConfig{BaseURL: cfg.Model.BaseURL, Name: cfg.Model.Name, APIKey: key,
		Timeout: cfg.Model.Timeout, MaxConcurrency: cfg.Model.MaxConcurrency}), nil
}

func newModelCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "model",
		Short: "The optional on-prem model (model.base_url)",
		Args:  cobra.NoArgs,
	}
	var asJSON bool
	check := &cobra.Command{
		Use:   "check",
		Short: "Call the configured model once: its name, the latency and whether it returned valid JSON",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.config(cmd)
			if err != nil {
				return withExitCode(2, err)
			}
			m, err := newModel(cfg, nil)
			if err != nil {
				return err
			}
			if m == nil {
				return withExitCode(2, errors.New("no model configured: set model.base_url and model.name (or PLANREVIEW_MODEL_BASE_URL, PLANREVIEW_MODEL_NAME)"))
			}
			res := m.Check(cmd.Context())
			out := cmd.OutOrStdout()
			if asJSON {
				if err := json.NewEncoder(out).Encode(res); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(out, "endpoint:   %s\nmodel:      %s (requested %s)\nlatency:    %d ms\nvalid JSON: %t\n",
					res.Endpoint, orDash(res.Model), res.Requested, res.LatencyMS, res.ValidJSON)
				if res.Error != "" {
					fmt.Fprintf(out, "error:      %s\n", res.Error)
				}
			}
			if res.Error != "" || !res.ValidJSON {
				return withExitCode(1, errors.New("the model check failed"))
			}
			return nil
		},
	}
	check.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.AddCommand(check)
	return cmd
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
