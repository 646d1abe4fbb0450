package cmd

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"planreview/api"
	"planreview/api/signing"
	"planreview/metrics"
	"planreview/store"
	"planreview/webhooks"
)

// WebhooksConfig are the webhook delivery settings.
type WebhooksConfig struct {
	// AllowedHosts are the host names ("hooks.example.gov",
	// "*.example.gov") and networks ("10.20.0.0/16", "10.20.0.5") webhook
	// deliveries may reach; empty: webhooks cannot be registered.
	AllowedHosts []string `mapstructure:"allowed_hosts"`
	// Workers is how many deliveries are in flight at once.
	Workers int `mapstructure:"workers"`
	// RetryBase is the wait after a first failed attempt; it doubles at
	// each next one (up to 6 h) for the contract's 72 h.
	RetryBase time.Duration `mapstructure:"retry_base"`
}

func init() {
	defaults["webhooks.allowed_hosts"] = []string{}
	defaults["webhooks.workers"] = 8
	defaults["webhooks.retry_base"] = 30 * time.Second
}

func (c *Config) validateWebhooks() []error {
	var errs []error
	if _, err := webhooks.ParsePolicy(c.Webhooks.AllowedHosts); err != nil {
		errs = append(errs, fmt.Errorf("config: webhooks.allowed_hosts: %v", err))
	}
	if c.Webhooks.Workers < 1 || c.Webhooks.Workers > 256 {
		errs = append(errs, fmt.Errorf("config: webhooks.workers: must be from 1 to 256, got %d", c.Webhooks.Workers))
	}
	if c.Webhooks.RetryBase <= 0 || c.Webhooks.RetryBase > time.Hour {
		errs = append(errs, fmt.Errorf("config: webhooks.retry_base: must be a positive duration up to 1h, got %s", c.Webhooks.RetryBase))
	}
	return errs
}

// webhookResolver, when set, replaces DNS for webhook deliveries of
// in-process servers (tests map names to loopback addresses with it).
var webhookResolver webhooks.Resolver

// newDeliverer builds the webhook delivery workers and what the API needs
// to register endpoints, and has the store wake the workers on new events.
func newDeliverer(cfg Config, db *store.DB, signer *signing.Signer, meters *metrics.Metrics, log *slog.Logger) (*webhooks.Deliverer, api.WebhookOptions, error) {
	policy, err := webhooks.ParsePolicy(cfg.Webhooks.AllowedHosts)
	if err != nil {
		return nil, api.WebhookOptions{}, fmt.Errorf("webhooks.allowed_hosts: %w", err)
	}
	if webhookResolver != nil {
		policy = policy.WithResolver(webhookResolver)
	}
	sealer, err := webhooks.SealerFromSigner(signer)
	if err != nil {
		return nil, api.WebhookOptions{}, err
	}
	observer := meters.Webhooks(func() (int64, int64, int64, error) {
		c, err := db.DeliveryCounts()
		return c.Pending, c.Delivered, c.Failed, err
	})
	d := &webhooks.Deliverer{Store: db, Client: policy.Client(), Sealer: sealer, Log: log, Observer: observer,
		Workers: cfg.Webhooks.Workers, RetryBase: cfg.Webhooks.RetryBase, UserAgent: "planreview-webhooks/" + version}
	db.OnEvents(d.Wake)
	return d, api.WebhookOptions{Policy: policy, Sealer: sealer}, nil
}

// webhookOps are the webhooks commands; *api.Admin runs them on an open
// database, socketAdmin sends them to a running server.
type webhookOps interface {
	ListWebhooks(ctx context.Context, partner string) ([]api.WebhookInfo, error)
	ListDeliveries(ctx context.Context, eventID, status string, limit int) ([]api.DeliveryInfo, error)
	RetryEvent(ctx context.Context, eventID string) ([]api.DeliveryInfo, error)
}

func newWebhooksCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "webhooks",
		Short: "List partners' webhook endpoints and deliveries; send an event again",
		Long: "Partners register webhook endpoints through the API (POST /api/v1/webhooks); events are\n" +
			"delivered to them with retries for 72 hours. These commands show the endpoints and the\n" +
			"deliveries, and queue an event again. See docs/webhooks.md.",
	}
	cmd.AddCommand(newWebhooksListCmd(a), newWebhooksDeliveriesCmd(a), newWebhooksRetryCmd(a))
	return cmd
}

func newWebhooksListCmd(a *app) *cobra.Command {
	var partner string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--partner NAME]",
		Short: "List webhook endpoints with their pending and failed deliveries (never their secrets)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				hooks, err := ops.ListWebhooks(cmd.Context(), partner)
				if err != nil {
					return err
				}
				if asJSON {
					if hooks == nil {
						hooks = []api.WebhookInfo{}
					}
					return printJSON(cmd.OutOrStdout(), hooks)
				}
				tw := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "WEBHOOK ID\tPARTNER\tURL\tEVENTS\tPENDING\tFAILED\tCREATED")
				for _, h := range hooks {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\n", h.WebhookID, h.Partner, h.URL,
						strings.Join(h.Events, ","), h.Pending, h.Failed, h.CreatedAt.UTC().Format(time.RFC3339))
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().StringVar(&partner, "partner", "", "only this partner's endpoints")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

func newWebhooksDeliveriesCmd(a *app) *cobra.Command {
	var event, status string
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "deliveries [--event EVENT_ID] [--status pending|delivered|failed|canceled] [--limit N]",
		Short: "List deliveries, newest event first, with their attempts and last answer",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				ds, err := ops.ListDeliveries(cmd.Context(), event, status, limit)
				if err != nil {
					return err
				}
				return printDeliveries(cmd, ds, asJSON)
			})
		},
	}
	cmd.Flags().StringVar(&event, "event", "", "only this event's deliveries")
	cmd.Flags().StringVar(&status, "status", "", "only deliveries in this state")
	cmd.Flags().IntVar(&limit, "limit", 100, "at most this many")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

func newWebhooksRetryCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "retry EVENT_ID",
		Short: "Send an event again now to every endpoint it was for, with a fresh 72 h of retries",
		Long: "Queues the event again for every endpoint subscribed to it when it happened (still\n" +
			"registered), whatever became of the earlier attempts; receivers tell a repeat by its id.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withAdmin(cmd, func(ops adminOps) error {
				ds, err := ops.RetryEvent(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				if !asJSON {
					fmt.Fprintf(cmd.ErrOrStderr(), "Queued %s again for %d endpoint(s).\n", args[0], len(ds))
				}
				return printDeliveries(cmd, ds, asJSON)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

func printDeliveries(cmd *cobra.Command, ds []api.DeliveryInfo, asJSON bool) error {
	if asJSON {
		if ds == nil {
			ds = []api.DeliveryInfo{}
		}
		return printJSON(cmd.OutOrStdout(), ds)
	}
	tw := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EVENT ID\tTYPE\tWEBHOOK ID\tSTATUS\tATTEMPTS\tNEXT ATTEMPT\tLAST ANSWER")
	for _, d := range ds {
		next := "-"
		if d.NextAttemptAt != nil {
			next = d.NextAttemptAt.UTC().Format(time.RFC3339)
		}
		last := d.LastError
		if last == "" && d.LastStatus != 0 {
			last = strconv.Itoa(d.LastStatus)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", d.EventID, d.EventType, d.WebhookID, d.Status, d.Attempts, next, orDash(last))
	}
	return tw.Flush()
}

// Socket transport of the webhooks commands.

func (s *socketAdmin) ListWebhooks(ctx context.Context, partner string) (out []api.WebhookInfo, err error) {
	err = s.call(ctx, http.MethodGet, "/v1/webhooks?partner="+url.QueryEscape(partner), nil, &out)
	return out, err
}

func (s *socketAdmin) ListDeliveries(ctx context.Context, eventID, status string, limit int) (out []api.DeliveryInfo, err error) {
	q := url.Values{"event": {eventID}, "status": {status}, "limit": {strconv.Itoa(limit)}}
	err = s.call(ctx, http.MethodGet, "/v1/webhooks/deliveries?"+q.Encode(), nil, &out)
	return out, err
}

func (s *socketAdmin) RetryEvent(ctx context.Context, eventID string) (out []api.DeliveryInfo, err error) {
	err = s.call(ctx, http.MethodPost, "/v1/webhooks/events/"+url.PathEscape(eventID)+"/retry", nil, &out)
	return out, err
}
