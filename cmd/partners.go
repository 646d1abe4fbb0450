package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"planreview/api"
)

func newPartnersCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "partners",
		Short: "Manage partners' limits and allowed frame origins",
	}
	cmd.AddCommand(newPartnersSetCmd(a))
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
	)
	cmd := &cobra.Command{
		Use:   "set NAME [--scan-quota N] [--rate-limit R] [--rate-burst N] [--frame-origin URL]... [--jurisdiction ID]",
		Short: "Create or change a partner; flags not given keep their values",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var set api.PartnerSettings
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
			return a.withAdmin(cmd, func(ops adminOps) error {
				p, err := ops.SetPartner(cmd.Context(), args[0], set)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), p)
				}
				orDefault := func(v any, zero bool) string {
					if zero {
						return "default"
					}
					return fmt.Sprint(v)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Partner %q (%s): scan quota %s/24h, rate limit %s/s, burst %s, frame origins [%s]\n",
					p.Name, p.PartnerID, orDefault(p.ScanQuota, p.ScanQuota == 0), orDefault(p.RateLimit, p.RateLimit == 0),
					orDefault(p.RateBurst, p.RateBurst == 0), strings.Join(p.FrameOrigins, ", "))
				if p.Jurisdiction != nil {
					fmt.Fprintf(cmd.OutOrStdout(), "Default jurisdiction of its jobs: %s\n", *p.Jurisdiction)
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
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}
