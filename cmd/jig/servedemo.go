package main

import (
	"context"
	"errors"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/session/demo"
)

type serveDemoOptions struct {
	release      int
	regressAfter int
}

func newServeDemoCmd(st *streams, runF runFunc[serveDemoOptions]) *cobra.Command {
	o := &serveDemoOptions{}
	cmd := &cobra.Command{
		Use:   "serve-demo",
		Short: "Run the embedded demo server over stdio, for any MCP client",
		Long: `jig serve-demo runs the embedded demo server over stdio, for any MCP client.

Release 1 is the seed story's server, release 2 its drifted "new release",
and release 3 release 1 in production going silently wrong: after
--regress-after tool calls, search_orders truncates its lists (truncated
false), returns placed_at as epoch numbers for some orders, and serves
Globex from a stale cache (the same bytes, generated_at 48h old).`,
		Example: `  jig proxy --contracts contracts.json -- jig serve-demo --release 3`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), o, st)
		},
	}
	cmd.Flags().IntVar(&o.release, "release", 1, "demo server release (2 is the drifted \"new release\", 3 goes silently wrong)")
	cmd.Flags().IntVar(&o.regressAfter, "regress-after", demo.DefaultRegressions.After, "release 3: how many tool calls it answers right before it goes wrong")
	return cmd
}

func runServeDemo(ctx context.Context, o *serveDemoOptions, st *streams) error {
	if o.release < 1 || o.release > 3 {
		return usageErr("--release %d: the demo server has releases 1, 2 and 3", o.release)
	}
	if o.regressAfter < 0 {
		return usageErr("--regress-after %d: give a number of calls, 0 or more", o.regressAfter)
	}
	reg := demo.DefaultRegressions
	reg.After = o.regressAfter
	err := demo.ServeStdioWith(ctx, o.release, reg)
	if errors.Is(err, syscall.EPIPE) {
		return nil // the client went away: the session is over
	}
	return err
}
