package main

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/ui"
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

// runTUI opens the TUI at once; the session is opened inside it, so a server
// that fails to start is shown (with its stderr and a retry key) rather than
// ending the program. The TUI draws on stderr, keeping stdout for machine
// output; the session is closed after the program returns.
func runTUI(ctx context.Context, st *streams, tf *targetFlags, command []string) error {
	opts, err := tf.options(command)
	if err != nil {
		return err
	}
	stopRecording, err := tf.startRecording(st, opts, "tui")
	if err != nil {
		return err
	}
	defer stopRecording()
	m := ui.New(ui.Config{Options: &opts, Timeout: tf.timeout})
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithOutput(st.err), tea.WithInput(st.in))
	_, runErr := p.Run()
	closeErr := m.Close()
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
