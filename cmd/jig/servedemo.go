package main

import (
	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/session/demo"
)

func newServeDemoCmd(st *streams) *cobra.Command {
	var release int
	cmd := &cobra.Command{
		Use:   "serve-demo",
		Short: "Run the embedded demo server over stdio, for any MCP client",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if release < 1 || release > 2 {
				return usageErr("--release %d: the demo server has releases 1 and 2", release)
			}
			return demo.ServeStdio(cmd.Context(), release)
		},
	}
	cmd.Flags().IntVar(&release, "release", 1, "demo server release (2 is the drifted \"new release\")")
	return cmd
}
