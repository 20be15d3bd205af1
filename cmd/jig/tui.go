package main

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/ui"
)

// tuiOptions are bare jig's, jig demo's and jig connect's: a target.
type tuiOptions struct {
	target  targetFlags
	command []string // the server's command after --
}

func newDemoCmd(st *streams, runF runFunc[tuiOptions]) *cobra.Command {
	o := &tuiOptions{}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Open the TUI on the embedded demo server",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.target.demo = true
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	return cmd
}

func newConnectCmd(st *streams, runF runFunc[tuiOptions]) *cobra.Command {
	o := &tuiOptions{}
	cmd := &cobra.Command{
		Use:   "connect [flags] [-- command args...]",
		Short: "Open the TUI on any server",
		RunE: func(cmd *cobra.Command, args []string) error {
			o.command = args
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	return cmd
}

// runTUI opens the TUI at once; the session is opened inside it, so a server
// that fails to start is shown (with its stderr and a retry key) rather than
// ending the program. The TUI draws on stderr, keeping stdout for machine
// output; the session is closed after the program returns.
func runTUI(ctx context.Context, o *tuiOptions, st *streams) error {
	opts, err := o.target.options(o.command)
	if err != nil {
		return err
	}
	stopRecording, err := o.target.startRecording(st, opts, "tui")
	if err != nil {
		return err
	}
	defer stopRecording()
	m := ui.New(ui.Config{Options: &opts, Timeout: o.target.timeout})
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithOutput(st.rawErr), tea.WithInput(st.in))
	_, runErr := p.Run()
	closeErr := m.Close()
	if in := interruption(ctx); in != nil {
		return in // the session is closed: the server's group is gone
	}
	switch {
	case runErr == nil:
	case errors.Is(runErr, tea.ErrInterrupted), errors.Is(runErr, context.Canceled), errors.Is(ctx.Err(), context.Canceled):
		return nil
	default:
		return fmt.Errorf("the TUI failed: %w", runErr)
	}
	if closeErr != nil {
		fmt.Fprintf(st.err, "jig: closing the session: %v\n", closeErr)
	}
	return nil
}
