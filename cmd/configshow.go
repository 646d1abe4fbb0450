package cmd

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

func newConfigCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the configuration the appliance would run with",
	}
	cmd.AddCommand(newConfigShowCmd(a))
	return cmd
}

// shownSetting is one line of `config show`.
type shownSetting struct {
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Source string `json:"source"` // default, file, env or flag
	Env    string `json:"env"`
}

func newConfigShowCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show [--json] [--listen ADDR] [--public-url URL]",
		Short: "Print every setting's effective value and where it came from (default, file, env, flag); secrets redacted",
		Long: "Loads the configuration exactly as serve does (defaults < --config file <\n" +
			"PLANREVIEW_* environment < flags), validates it, and prints each key with its value\n" +
			"and source. Values of secret settings (tokens, passwords, keys) are shown as\n" +
			"[redacted]. PLANREVIEW_* variables that name no setting are listed as a warning.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.config(cmd)
			if err != nil {
				return err
			}
			settings := effectiveSettings(a.v, cfg, cmd.Flags())
			if unknown := unknownEnv(os.Environ()); len(unknown) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: ignored, they name no setting: %s\n", strings.Join(unknown, ", "))
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), settings)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "KEY\tVALUE\tSOURCE")
			for _, s := range settings {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Key, showValue(s.Value), s.Source)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of {key, value, source, env}")
	// serve's flags, so `config show` with the same flags shows what serve would use.
	cmd.Flags().String("listen", "", "as serve --listen")
	cmd.Flags().String("public-url", "", "as serve --public-url")
	return cmd
}

// effectiveSettings lists every key of the typed config, sorted, with its
// value and the layer that set it.
func effectiveSettings(v *viper.Viper, cfg Config, flags *pflag.FlagSet) []shownSetting {
	values := map[string]any{}
	flattenConfig("", reflect.ValueOf(cfg), values)
	flagOf := map[string]string{}
	for flag, key := range flagKeys {
		flagOf[key] = flag
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]shownSetting, 0, len(keys))
	for _, key := range keys {
		s := shownSetting{Key: key, Value: values[key], Source: "default", Env: envKey(key)}
		switch f := flags.Lookup(flagOf[key]); {
		case flagOf[key] != "" && f != nil && f.Changed:
			s.Source = "flag"
		case os.Getenv(s.Env) != "":
			s.Source = "env"
		case v.InConfig(key):
			s.Source = "file"
		}
		if isSecretKey(key) && !isZero(s.Value) {
			s.Value = "[redacted]"
		}
		out = append(out, s)
	}
	return out
}

// flattenConfig walks the config struct by its mapstructure tags.
func flattenConfig(prefix string, rv reflect.Value, out map[string]any) {
	rt := rv.Type()
	for i := range rt.NumField() {
		tag := strings.Split(rt.Field(i).Tag.Get("mapstructure"), ",")[0]
		if tag == "" || tag == "-" {
			continue
		}
		key := tag
		if prefix != "" {
			key = prefix + "." + tag
		}
		fv := rv.Field(i)
		if fv.Kind() == reflect.Struct && fv.Type() != reflect.TypeOf(time.Time{}) {
			flattenConfig(key, fv, out)
			continue
		}
		val := fv.Interface()
		if d, ok := val.(time.Duration); ok {
			val = d.String()
		}
		out[key] = val
	}
}

// isSecretKey: settings whose value is a secret itself (a path to a
// secret file is not one).
func isSecretKey(key string) bool {
	last := key[strings.LastIndex(key, ".")+1:]
	if strings.HasSuffix(last, "_file") {
		return false
	}
	for _, word := range []string{"token", "secret", "password", "api_key", "apikey"} {
		if strings.Contains(last, word) {
			return true
		}
	}
	return false
}

func isZero(v any) bool {
	return v == nil || reflect.ValueOf(v).IsZero()
}

func showValue(v any) string {
	switch x := v.(type) {
	case []string:
		return "[" + strings.Join(x, ", ") + "]"
	case string:
		if x == "" {
			return `""`
		}
		return x
	}
	return fmt.Sprint(v)
}
