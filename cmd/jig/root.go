package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
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
	// for byte: the TUI's drawing and jig proxy's protocol. (The server's
	// stderr that jig proxy passes on is a log: it goes through err.)
	rawOut, rawErr io.Writer
	// redact is the one redactor of everything this run prints or writes;
	// each session adds its target's secrets and what it learns.
	redact *frames.Redactor
	// weakEnv says once which secret-named variables are too weak to
	// redact everywhere (nil: never said, as in tests' own streams).
	weakEnv *sync.Once
}

// knowSecrets gives the run's redactor every secret jig knows for a target
// (session.Target.Secrets: for a server jig starts, the secret-named
// variables it inherits too): the one place the sessions, the proxy, the
// TUI and the recorders learn them from.
func (st *streams) knowSecrets(t session.Target) {
	st.redact.Add(t.Secrets()...)
	if t.Transport == session.TransportStdio || t.Transport == session.TransportDemo {
		st.noteWeakEnv()
	}
}

// noteWeakEnv says, once a run, which secret-named variables hold values
// too weak to redact everywhere (frames.WeakEnvNote), by name only.
func (st *streams) noteWeakEnv() {
	if st.weakEnv == nil {
		return
	}
	st.weakEnv.Do(func() {
		if n := frames.WeakEnvNote(os.Environ()); n != "" {
			fmt.Fprintln(st.err, n)
		}
	})
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
	st := &streams{in: stdin, out: out, err: errw, rawOut: stdout, rawErr: stderr, redact: red, weakEnv: &sync.Once{}}
	root := newRootFor(st, args)
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

// newRoot is jig's whole command tree.
func newRoot(st *streams) *cobra.Command { return newRootFor(st, nil) }

// newRootFor is the tree args run: when they start with a command's name,
// the root holds that command alone and none of its own flags, so a run
// builds the flags of one command instead of every command's (~2,000
// allocations); anything else (bare jig, help, a typo to suggest for) gets
// the whole tree. TestLazyTreeIsTheTree holds the two to the same help and
// errors.
func newRootFor(st *streams, args []string) *cobra.Command {
	root := newRootCmd()
	if len(args) > 0 {
		if cmd := newCommand(st, args[0]); cmd != nil {
			root.AddCommand(cmd)
			explainArgs(root)
			return root
		}
	}
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
	for _, name := range commandNames {
		root.AddCommand(newCommand(st, name))
	}
	explainArgs(root)
	return root
}

func newRootCmd() *cobra.Command {
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
	return root
}

// commandNames are jig's commands in the order help lists them.
var commandNames = []string{"tools", "call", "resources", "read", "prompts", "prompt", "send", "complete", "ping",
	"replay", "review", "proxy", "open", "compare", "attribute", "sessions", "serve-demo", "mock", "traffic",
	"check", "stats", "drift", "demo", "connect", "auth", "surface", "lint"}

// newCommand builds the command of that name, or nil.
func newCommand(st *streams, name string) *cobra.Command {
	switch name {
	case "tools":
		return newToolsCmd(st, runTools)
	case "call":
		return newCallCmd(st, runCall)
	case "resources":
		return newResourcesCmd(st, runList)
	case "read":
		return newReadCmd(st, runRead)
	case "prompts":
		return newPromptsCmd(st, runList)
	case "prompt":
		return newPromptCmd(st, runPrompt)
	case "send":
		return newSendCmd(st, runSend)
	case "complete":
		return newCompleteCmd(st, runComplete)
	case "ping":
		return newPingCmd(st, runPing)
	case "replay":
		return newReplayCmd(st, runReplay)
	case "review":
		return newReviewCmd(st, runReview)
	case "proxy":
		return newProxyCmd(st, runProxy)
	case "open":
		return newOpenCmd(st, runOpen)
	case "compare":
		return newCompareCmd(st, runCompare)
	case "attribute":
		return newAttributeCmd(st, runAttribute)
	case "sessions":
		return newSessionsCmd(st, runSessions, runPrune)
	case "serve-demo":
		return newServeDemoCmd(st, runServeDemo)
	case "mock":
		return newMockCmd(st, runMock)
	case "traffic":
		return newTrafficCmd(st, runTraffic)
	case "check":
		return newCheckCmd(st, runCheck)
	case "stats":
		return newStatsCmd(st, runStats)
	case "drift":
		return newDriftCmd(st, runDrift)
	case "demo":
		return newDemoCmd(st, runTUI)
	case "connect":
		return newConnectCmd(st, runTUI)
	case "auth":
		return newAuthCmd(st, runAuthLogin, runAuthStatus, runAuthLogout)
	case "surface":
		return newSurfaceCmd(st, runSurfaceSave, runSurfaceDiff)
	case "lint":
		return newLintCmd(st, runLint)
	}
	return nil
}
