package main

import (
	"context"
	"errors"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/session/demo"
)

type serveDemoOptions struct {
	release int
}

func newServeDemoCmd(st *streams, runF runFunc[serveDemoOptions]) *cobra.Command {
	o := &serveDemoOptions{}
	cmd := &cobra.Command{
		Use:   "serve-demo",
		Short: "Run the embedded demo server over stdio, for any MCP client",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), o, st)
		},
	}
	cmd.Flags().IntVar(&o.release, "release", 1, "demo server release (2 is the drifted \"new release\")")
	return cmd
}

func runServeDemo(ctx context.Context, o *serveDemoOptions, st *streams) error {
	if o.release < 1 || o.release > 2 {
		return usageErr("--release %d: the demo server has releases 1 and 2", o.release)
	}
	err := demo.ServeStdio(ctx, o.release)
	if errors.Is(err, syscall.EPIPE) {
		return nil // the client went away: the session is over
	}
	return err
}
