package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/session"
)

// Exit codes, shared by every command.
const (
	exitOK          = 0
	exitServerError = 1 // a JSON-RPC error, a result with isError, drift
	exitUsage       = 2 // usage or config error
	exitUnreachable = 3 // the server could not be reached, crashed or timed out
)

// exitError carries an exit code with the message already printed or to print.
type exitError struct {
	code int
	err  error // nil when the message was already printed
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

// streams are the command's standard streams, passed explicitly so tests can
// run commands in-process.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

// run is the seam tests call: args in, exit code out.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	st := &streams{in: stdin, out: stdout, err: stderr}
	root := newRoot(st)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	var ee *exitError
	if !errors.As(err, &ee) || ee.err != nil {
		fmt.Fprintf(stderr, "jig: %v\n", err)
	}
	return code
}

func exitCode(err error) int {
	var ee *exitError
	var ue *session.UsageError
	var ce *session.ConnectError
	var re *session.RPCError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		return exitUsage
	case errors.As(err, &ce):
		return exitUnreachable
	case errors.As(err, &re):
		return exitServerError
	case errors.Is(err, context.Canceled):
		return exitUnreachable
	}
	return exitUsage // cobra's own errors: unknown flags, missing args
}

func usageErr(format string, a ...any) error {
	return &session.UsageError{Err: fmt.Errorf(format, a...)}
}

func newRoot(st *streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "jig",
		Short: "A terminal inspector for MCP servers: exact calls, raw frames, golden fixtures",
		Long: `jig connects to an MCP server directly, shows the handshake, every tool and
its schema, sends the exact arguments you type (wrong ones too) and shows the
raw JSON-RPC frames beside the result.

With no command, jig opens the TUI on its embedded demo server.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       session.Version,
		Args:          cobra.NoArgs,
	}
	root.CompletionOptions.HiddenDefaultCmd = true
	// Bare jig is `jig demo`: it takes the same flags, with their defaults
	// (a timeout, the grace, the capabilities), so `go run ./cmd/jig` and
	// `jig --release 2` work; --url or --config connect elsewhere instead.
	tf := &targetFlags{}
	tf.bind(root)
	root.RunE = func(cmd *cobra.Command, args []string) error {
		tf.demo = tf.url == "" && tf.config == ""
		return runTUI(cmd.Context(), st, tf, nil)
	}
	root.AddCommand(
		newToolsCmd(st),
		newCallCmd(st),
		newResourcesCmd(st),
		newReadCmd(st),
		newPromptsCmd(st),
		newPromptCmd(st),
		newReplayCmd(st),
		newProxyCmd(st),
		newOpenCmd(st),
		newCompareCmd(st),
		newSessionsCmd(st),
		newServeDemoCmd(st),
		newDemoCmd(st),
		newConnectCmd(st),
	)
	return root
}
