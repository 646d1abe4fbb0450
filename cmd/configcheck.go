package cmd

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
)

var durationType = reflect.TypeOf(time.Duration(0))

// durationHook decodes durations from strings ("30s", "15m", "24h") and
// refuses bare numbers, which mapstructure would take as nanoseconds.
// Its errors carry the value; decodeErrors adds the key.
func durationHook(from, to reflect.Type, data any) (any, error) {
	if to != durationType || from == durationType {
		return data, nil
	}
	switch from.Kind() {
	case reflect.String:
		s := strings.TrimSpace(data.(string))
		d, err := time.ParseDuration(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a duration; write it like 30s, 15m or 24h", data)
		}
		return d, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return nil, fmt.Errorf("%v is not a duration: add a unit, like %vs or %vm", data, data, data)
	}
	return data, nil
}

// decodeErrors rewrites mapstructure's errors as "config: KEY: problem",
// one per line, the form Validate uses.
func decodeErrors(err error) error {
	var found []error
	var walk func(error)
	walk = func(e error) {
		var de *mapstructure.DecodeError
		if errors.As(e, &de) && de == e {
			found = append(found, fmt.Errorf("config: %s: %w", de.Name(), de.Unwrap()))
			return
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				walk(inner)
			}
		case interface{ Unwrap() error }:
			if inner := u.Unwrap(); inner != nil {
				walk(inner)
				return
			}
			found = append(found, fmt.Errorf("config: %w", e))
		default:
			found = append(found, fmt.Errorf("config: %w", e))
		}
	}
	walk(err)
	return errors.Join(found...)
}

// envKey is the PLANREVIEW_* variable of a config key.
func envKey(key string) string {
	return "PLANREVIEW_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// unknownEnv lists PLANREVIEW_* variables in environ that name no setting
// (a misspelled PLANREVIEW_SERVER_LISTN would otherwise do nothing,
// silently).
func unknownEnv(environ []string) []string {
	known := map[string]bool{}
	for key := range defaults {
		known[envKey(key)] = true
	}
	var unknown []string
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "PLANREVIEW_") && !known[name] && value != "" { // empty = unset, as viper reads it
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	return unknown
}

// warnUnknownEnv is the start-up warning for unknownEnv's findings.
func warnUnknownEnv(warn func(msg string, args ...any)) {
	if unknown := unknownEnv(os.Environ()); len(unknown) > 0 {
		warn("ignoring environment variables that name no setting; check their spelling against config.example.yaml",
			"variables", strings.Join(unknown, ","))
	}
}
