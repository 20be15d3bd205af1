package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/contract"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/ui"
)

// tuiOptions are bare jig's, jig demo's and jig connect's: a target.
type tuiOptions struct {
	target    targetFlags
	command   []string // the server's command after --
	secretEnv []string
	contracts string // --contracts FILE; the tools' own outputSchema when ""
	tool      string // --tool: the call loaded once connected
	args      string // --args: its arguments (JSON, @FILE or -)
}

// startCall checks --tool and --args before the TUI takes the terminal:
// bad JSON is a usage error that shows where it breaks.
func (o *tuiOptions) startCall(st *streams) (tool, args string, err error) {
	if o.args != "" && o.tool == "" {
		return "", "", usageErr("--args needs --tool NAME, the tool whose call it fills in (jig connect --tool search_orders --args '{...}' -- CMD)")
	}
	if o.args == "" {
		return o.tool, "", nil
	}
	if o.args == "-" {
		return "", "", usageErr("--args -: the TUI reads its keys from stdin; give the JSON itself or @FILE")
	}
	raw, err := readArgs(o.args, st.in)
	if err != nil {
		return "", "", err
	}
	return o.tool, string(raw), nil
}

// bindTUIFlags are the flags of the commands that open the TUI on a
// server, beside the target's.
func bindTUIFlags(cmd *cobra.Command, o *tuiOptions) {
	bindSecretEnv(cmd, &o.secretEnv)
	cmd.Flags().StringVar(&o.tool, "tool", "", "once connected, select tool NAME and load a call of it in the editor, ready for ctrl+s")
	cmd.Flags().StringVar(&o.args, "args", "", "the --tool call's arguments: JSON or @FILE, loaded exactly as given (default: its required arguments)")
	cmd.Flags().StringVar(&o.contracts, "contracts", "", "hold each tools/call response to a contracts file (see jig check); violating frames are marked ✗ (default: each tool's own outputSchema)")
}

// bindSecretEnv is --secret-env of the commands that open the TUI: what it
// draws, records and pins is redacted with the variables' values.
func bindSecretEnv(cmd *cobra.Command, names *[]string) {
	cmd.Flags().StringArrayVar(names, "secret-env", nil, "redact the value of environment variable NAME wherever it appears: on screen, in the recording, in what w writes and in fixtures P pins (re-filled from $NAME at replay; repeatable)")
}

// shareRedactor gives the sessions the TUI opens the run's redactor,
// knowing their target's secrets, so that the screen, the recording and the
// pins redact the same values.
func shareRedactor(st *streams, o *session.Options) {
	if o != nil {
		st.knowSecrets(o.Target)
		o.Redact = st.redact
	}
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
	bindTUIFlags(cmd, o)
	return cmd
}

func newConnectCmd(st *streams, runF runFunc[tuiOptions]) *cobra.Command {
	o := &tuiOptions{}
	cmd := &cobra.Command{
		Use:   "connect [flags] [-- command args...]",
		Short: "Open the TUI on any server",
		Example: `  jig connect -- node server.js
  jig connect --url http://127.0.0.1:3001/mcp
  jig connect --tool search_orders --args '{"customer":"Acme Corp","since":"last month"}' -- node server.js`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.command = args
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	bindTUIFlags(cmd, o)
	return cmd
}

// promptInputs asks, on the terminal and before the TUI takes it, for each
// ${input:ID} of a config entry that --input did not give, as VS Code does:
// with the input's description, and without echo for a password. Without a
// terminal it asks nothing; the session then says which input is missing.
func promptInputs(st *streams, t *session.Target) error {
	missing := t.MissingInputs()
	in, ok := st.in.(*os.File)
	if len(missing) == 0 || !ok || !term.IsTerminal(in.Fd()) {
		return nil
	}
	cf, err := session.ReadConfig(t.Config)
	if err != nil {
		return &session.UsageError{Err: err}
	}
	br := bufio.NewReader(in)
	for _, id := range missing {
		spec, _ := cf.Input(id)
		label := spec.Description
		if label == "" {
			label = id
		}
		fmt.Fprintf(st.err, "jig: %s (${input:%s} in %s)", label, id, t.Config)
		if spec.Default != "" && !spec.Password {
			fmt.Fprintf(st.err, " [%s]", spec.Default)
		}
		fmt.Fprint(st.err, ": ")
		var value string
		if spec.Password {
			b, err := term.ReadPassword(in.Fd())
			fmt.Fprintln(st.err)
			if err != nil {
				return usageErr("reading ${input:%s}: %v (give it with --input %s=VALUE)", id, err, id)
			}
			value = string(b)
		} else {
			line, err := br.ReadString('\n')
			if err != nil && line == "" {
				return usageErr("reading ${input:%s}: %v (give it with --input %s=VALUE)", id, err, id)
			}
			value = strings.TrimRight(line, "\r\n")
		}
		if value == "" {
			value = spec.Default
		}
		if t.Inputs == nil {
			t.Inputs = map[string]string{}
		}
		t.Inputs[id] = value
	}
	return nil
}

// runTUI opens the TUI at once; the session is opened inside it, so a server
// that fails to start is shown (with its stderr and a retry key) rather than
// ending the program. The TUI draws on stderr, keeping stdout for machine
// output; the session is closed after the program returns.
func runTUI(ctx context.Context, o *tuiOptions, st *streams) error {
	tool, args, err := o.startCall(st)
	if err != nil {
		return err
	}
	opts, err := o.target.options(o.command)
	if err != nil {
		return err
	}
	if err := promptInputs(st, &opts.Target); err != nil {
		return err
	}
	// One scratch directory for the TUI's run, reconnects included: the
	// server's state survives an R, and is removed when jig quits.
	vars, removeScratch, err := session.Scratch(opts.Target)
	if err != nil {
		return fmt.Errorf("creating the scratch directory for $%s: %w", session.ScratchVar, err)
	}
	defer removeScratch()
	opts.Vars = vars
	red, err := runRedactor(st, o.secretEnv)
	if err != nil {
		return err
	}
	shareRedactor(st, &opts)
	stopRecording, err := o.target.startRecording(st, opts, "tui")
	if err != nil {
		return err
	}
	defer stopRecording()
	marks, stopChecks, err := o.watchContracts(opts.Log)
	if err != nil {
		return err
	}
	defer stopChecks()
	m := ui.New(ui.Config{Options: &opts, Timeout: o.target.timeout, Redact: red, Violations: marks.Of, Tool: tool, Args: args})
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
		return tuiFailed(runErr)
	}
	if closeErr != nil {
		fmt.Fprintf(st.err, "jig: closing the session: %v\n", closeErr)
	}
	return nil
}

// watchContracts holds the session's responses to the contracts (the
// tools' own outputSchema without --contracts) as they are recorded, on a
// goroutine of its own: each violation marks its frame on screen and goes
// into the recording, so jig open marks it too.
func (o *tuiOptions) watchContracts(log *frames.Log) (*contract.Marks, func(), error) {
	c := contract.OutputSchemaOnly()
	if o.contracts != "" {
		var err error
		if c, err = contract.Load(o.contracts); err != nil {
			return nil, nil, usageErr("%v", err)
		}
	}
	marks := &contract.Marks{}
	live := contract.NewLive(c, 0, func(v contract.Violation) {
		marks.Add(v)
		log.Note(contract.MetaKey, v)
	})
	log.AddSink(live)
	return marks, func() { live.Close() }, nil
}

// tuiFailed says the TUI could not run, and what to use instead.
func tuiFailed(err error) error {
	return fmt.Errorf("the TUI could not run: %w (it needs a terminal on stdin and stderr; in a script use jig tools, jig call, or jig open FILE --text)", err)
}
