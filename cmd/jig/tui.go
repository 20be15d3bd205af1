package main

import (
	"context"

	"github.com/spf13/cobra"
)

func newDemoCmd(st *streams) *cobra.Command {
	tf := &targetFlags{}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Open the TUI on the embedded demo server",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			tf.demo = true
			return runTUI(cmd.Context(), st, tf, nil)
		},
	}
	tf.bind(cmd)
	return cmd
}

func newConnectCmd(st *streams) *cobra.Command {
	tf := &targetFlags{}
	cmd := &cobra.Command{
		Use:   "connect [flags] [-- command args...]",
		Short: "Open the TUI on any server",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTUI(cmd.Context(), st, tf, args)
		},
	}
	tf.bind(cmd)
	return cmd
}

func runTUI(ctx context.Context, st *streams, tf *targetFlags, command []string) error {
	return usageErr("the TUI is not built yet; use jig tools / jig call")
}
