package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// usageError is a command line that does not parse: unknown flag or
// command, wrong number of arguments, bad flag value. It exits 2 from
// every command, so scripts tell a typo from a command's own outcome
// (review's 1 = findings at or above --fail-on).
type usageError struct {
	path string // the command's path, for the --help hint
	err  error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func newUsageError(cmd *cobra.Command, err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: 2, Err: &usageError{path: cmd.CommandPath(), err: err}}
}

// usageHint is the line printed after a usage error.
func usageHint(err error) (string, bool) {
	var ue *usageError
	if !errors.As(err, &ue) {
		return "", false
	}
	return fmt.Sprintf("Run '%s --help' for usage.", ue.path), true
}

// enforceUsageExit makes every usage error of the tree under c exit 2:
// flag errors through the flag error hook (inherited by subcommands),
// argument errors by wrapping each command's Args, and a group command
// (keys, partners, …) given an unknown subcommand by running it: a group
// with no arguments prints its help.
func enforceUsageExit(c *cobra.Command) {
	c.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return newUsageError(cmd, err) })
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.HasSubCommands() && !c.Runnable() {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return newUsageError(cmd, fmt.Errorf("unknown command %q for %q", args[0], cmd.CommandPath()))
				}
				return cmd.Help()
			}
		}
		args := c.Args
		if args == nil {
			args = cobra.ArbitraryArgs
		}
		c.Args = func(cmd *cobra.Command, a []string) error {
			if err := args(cmd, a); err != nil {
				return newUsageError(cmd, err)
			}
			// cobra checks these after Args, as plain errors; checked
			// here first, they are usage errors too.
			if err := cmd.ValidateRequiredFlags(); err != nil {
				return newUsageError(cmd, err)
			}
			return newUsageError(cmd, cmd.ValidateFlagGroups())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(c)
}
