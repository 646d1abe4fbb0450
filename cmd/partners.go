package cmd

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"planreview/api"
)

func newPartnersCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "partners",
		Short: "List partners, show one, set their limits and allowed frame origins",
	}
	cmd.AddCommand(newPartnersSetCmd(a), newPartnersListCmd(a), newPartnersShowCmd(a))
	return cmd
}

// limitText shows a partner's own limit, or that the appliance default applies.
func limitText(v any, isDefault bool) string {
	if isDefault {
		return "default"
	}
	return fmt.Sprint(v)
}

func newPartnersListCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List partners with their limits (\"default\" = the appliance's limits.* setting)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				ps, err := ops.ListPartners(cmd.Context())
				if err != nil {
					return err
				}
				if asJSON {
					if ps == nil {
						ps = []api.PartnerInfo{}
					}
					return printJSON(cmd.OutOrStdout(), ps)
				}
				tw := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "NAME\tPARTNER ID\tSCAN QUOTA/24H\tRATE/S\tBURST\tFRAME ORIGINS")
				for _, p := range ps {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Name, p.PartnerID, limitText(p.ScanQuota, p.ScanQuota == 0),
						limitText(p.RateLimit, p.RateLimit == 0), limitText(p.RateBurst, p.RateBurst == 0), strings.Join(p.FrameOrigins, " "))
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

func newPartnersShowCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME [--json]",
		Short: "Show one partner's limits, frame origins and keys (never their secrets)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				p, err := ops.ShowPartner(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				if asJSON {
					if p.Keys == nil {
						p.Keys = []api.KeyInfo{}
					}
					return printJSON(cmd.OutOrStdout(), p)
				}
				out := cmd.OutOrStdout()
				fmt.Fprintf(out, "Partner:       %s\nPartner ID:    %s\nCreated:       %s\n", p.Name, p.PartnerID, p.CreatedAt.UTC().Format(time.RFC3339))
				fmt.Fprintf(out, "Scan quota:    %s per 24 h\nRate limit:    %s per second\nRate burst:    %s\n",
					limitText(p.ScanQuota, p.ScanQuota == 0), limitText(p.RateLimit, p.RateLimit == 0), limitText(p.RateBurst, p.RateBurst == 0))
				origins := strings.Join(p.FrameOrigins, ", ")
				if origins == "" {
					origins = "(none)"
				}
				fmt.Fprintf(out, "Frame origins: %s\nKeys:\n", origins)
				for _, k := range p.Keys {
					fmt.Fprintf(out, "  %s  %s  %s\n", k.KeyID, k.Hint, k.Status)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func newPartnersSetCmd(a *app) *cobra.Command {
	var (
		quota   int
		rate    float64
		burst   int
		origins []string
		asJSON  bool
		juris   string
		lsOnly  bool
		set     api.PartnerSettings
	)
	cmd := &cobra.Command{
		Use:   "set NAME [--create] [--scan-quota N] [--rate-limit R] [--rate-burst N] [--reset-limits] [--frame-origin URL]... [--clear-frame-origins] [--jurisdiction ID] [--later-rounds-life-safety-only=true|false]",
		Short: "Change a partner (or create one with --create); flags not given keep their values",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			flags := cmd.Flags()
			if flags.Changed("scan-quota") {
				set.ScanQuota = &quota
			}
			if flags.Changed("rate-limit") {
				set.RateLimit = &rate
			}
			if flags.Changed("rate-burst") {
				set.RateBurst = &burst
			}
			if flags.Changed("frame-origin") {
				set.FrameOrigins = origins
			}
			if flags.Changed("jurisdiction") {
				set.Jurisdiction = &juris
			}
			if flags.Changed("later-rounds-life-safety-only") {
				set.LaterRoundsLifeSafetyOnly = &lsOnly
			}
			return a.withAdmin(cmd, func(ops adminOps) error {
				p, err := ops.SetPartner(cmd.Context(), args[0], set)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), p)
				}
				orDefault := limitText
				fmt.Fprintf(cmd.OutOrStdout(), "Partner %q (%s): scan quota %s/24h, rate limit %s/s, burst %s, frame origins [%s]\n",
					p.Name, p.PartnerID, orDefault(p.ScanQuota, p.ScanQuota == 0), orDefault(p.RateLimit, p.RateLimit == 0),
					orDefault(p.RateBurst, p.RateBurst == 0), strings.Join(p.FrameOrigins, ", "))
				if p.Jurisdiction != nil {
					fmt.Fprintf(cmd.OutOrStdout(), "Default jurisdiction of its jobs: %s\n", *p.Jurisdiction)
				}
				if p.LaterRoundsLifeSafetyOnly {
					fmt.Fprintln(cmd.OutOrStdout(), "Later rounds' letters: new findings on unchanged sheets only for life safety")
				}
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&quota, "scan-quota", 0, "scans per rolling 24 hours")
	cmd.Flags().Float64Var(&rate, "rate-limit", 0, "API requests per second per key")
	cmd.Flags().IntVar(&burst, "rate-burst", 0, "requests a key may make at once before the rate applies")
	cmd.Flags().StringArrayVar(&origins, "frame-origin", nil, "origin allowed to frame hosted screens and upload from a browser (repeat; replaces the list)")
	cmd.Flags().StringVar(&juris, "jurisdiction", "", "default jurisdiction (OCD division id) of the partner's jobs that name none; \"\" clears it")
	cmd.Flags().BoolVar(&lsOnly, "later-rounds-life-safety-only", false, "a later round's correction letter leaves out new findings that are not life safety on sheets that did not change since the previous round")
	cmd.Flags().BoolVar(&set.Create, "create", false, "create the partner if no partner has this name (otherwise an unknown name is an error)")
	cmd.Flags().BoolVar(&set.ResetLimits, "reset-limits", false, "put scan quota, rate limit and burst back to the appliance defaults (limits.*) before other flags apply")
	cmd.Flags().BoolVar(&set.ClearFrameOrigins, "clear-frame-origins", false, "remove every frame origin")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.MarkFlagsMutuallyExclusive("frame-origin", "clear-frame-origins")
	return cmd
}
