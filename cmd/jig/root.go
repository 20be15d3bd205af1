package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// streams are the command's standard streams, passed explicitly so tests can
// run commands in-process.
type streams struct {
	in io.Reader
	// out and err redact every line with redact before it reaches the
	// terminal: results, --frames, warnings, errors quoting a server.
	out, err io.Writer
	// rawOut and rawErr are the streams as given, for what must pass byte
	// for byte: the TUI's drawing, and jig proxy's protocol and the
	// server's stderr it passes through.
	rawOut, rawErr io.Writer
	// redact is the one redactor of everything this run prints or writes;
	// each session adds its target's secrets and what it learns.
	redact *frames.Redactor
}

// A runFunc is a command's work: its options in, an error out. Each
// newXxxCmd takes one, so tests can give a runFunc that only keeps the
// options the flags produced (see parseFlags in the tests).
type runFunc[O any] func(ctx context.Context, opts *O, st *streams) error

// run is the seam tests call: args in, exit code out.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if versionOnly(args) {
		// Scripts ask this in loops: answered before the command tree (every
		// command and flag) is built, as cobra would answer it.
		io.WriteString(stdout, versionLine())
		return exitOK
	}
	red := frames.NewRedactor()
	out, errw := frames.NewLineRedactor(stdout, red), frames.NewLineRedactor(stderr, red)
	defer out.Flush()
	defer errw.Flush()
	st := &streams{in: stdin, out: out, err: errw, rawOut: stdout, rawErr: stderr, redact: red}
	root := newRoot(st)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ee *exitError
	var se *signalError
	if in := interruption(ctx); in != nil && !errors.As(err, &ee) {
		// Whatever failed after a signal failed because of it: a cancelled
		// handshake is not a server that could not be reached.
		err = in
	}
	switch {
	case errors.As(err, &ee) && ee.err == nil:
	case errors.As(err, &se) && se.sig == syscall.SIGPIPE:
		// The reader of jig's output went away: its choice, not an error.
	default:
		fmt.Fprintf(errw, "jig: %v\n", err)
	}
	return exitCode(err)
}

// versionLine is what jig --version prints, as cobra's default template
// would (TestVersionFastPath holds them equal).
func versionLine() string { return "jig version " + session.Version + "\n" }

// versionOnly reports whether args ask for jig's version and nothing else.
func versionOnly(args []string) bool {
	return len(args) == 1 && (args[0] == "--version" || args[0] == "-v")
}

const rootLong = `jig connects to an MCP server directly, shows the handshake, every tool and
its schema, sends the exact arguments you type (wrong ones too) and shows the
raw JSON-RPC frames beside the result.

With no command, jig opens the TUI on its embedded demo server; with a
server (jig -- node server.js, jig http://127.0.0.1:3001/mcp), on that one,
as jig connect does.`

func newRoot(st *streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "jig",
		Short:         "A terminal inspector for MCP servers: exact calls, raw frames, golden fixtures",
		Long:          rootLong,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       session.Version,
		Args:          noArgsOrCommand,
	}
	root.SetFlagErrorFunc(flagError)
	root.CompletionOptions.HiddenDefaultCmd = true
	// Bare jig is `jig demo`: it takes the same flags, with their defaults
	// (a timeout, the grace, the capabilities), so `go run ./cmd/jig` and
	// `jig --release 2` work; --url or --config connect elsewhere instead.
	o := &tuiOptions{}
	o.target.bind(root)
	bindTUIFlags(root, o)
	root.RunE = func(cmd *cobra.Command, args []string) error {
		o.command = args // a server after --, or its URL (noArgsOrCommand)
		o.target.demo = o.target.url == "" && o.target.config == "" && len(args) == 0
		return runTUI(cmd.Context(), o, st)
	}
	root.AddCommand(
		newToolsCmd(st, runTools),
		newCallCmd(st, runCall),
		newResourcesCmd(st, runList),
		newReadCmd(st, runRead),
		newPromptsCmd(st, runList),
		newPromptCmd(st, runPrompt),
		newSendCmd(st, runSend),
		newCompleteCmd(st, runComplete),
		newPingCmd(st, runPing),
		newReplayCmd(st, runReplay),
		newReviewCmd(st, runReview),
		newProxyCmd(st, runProxy),
		newOpenCmd(st, runOpen),
		newCompareCmd(st, runCompare),
		newAttributeCmd(st, runAttribute),
		newSessionsCmd(st, runSessions, runPrune),
		newServeDemoCmd(st, runServeDemo),
		newMockCmd(st, runMock),
		newTrafficCmd(st, runTraffic),
		newCheckCmd(st, runCheck),
		newStatsCmd(st, runStats),
		newDriftCmd(st, runDrift),
		newDemoCmd(st, runTUI),
		newConnectCmd(st, runTUI),
		newAuthCmd(st, runAuthLogin, runAuthStatus, runAuthLogout),
		newSurfaceCmd(st, runSurfaceSave, runSurfaceDiff),
		newLintCmd(st, runLint),
	)
	explainArgs(root)
	return root
}
