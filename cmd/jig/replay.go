package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/replay"
)

// replayFlags are replay's own flags; the target flags are shared.
type replayFlags struct {
	reports      []string
	failOn       string
	showCosmetic bool
	update       bool
	reason       string
	secretEnv    []string
	parallel     int
	inFlight     int
}

func newReplayCmd(st *streams) *cobra.Command {
	tf := &targetFlags{}
	rf := &replayFlags{}
	cmd := &cobra.Command{
		Use:   "replay FIXTURES [flags] [-- command args...]",
		Short: "Re-issue pinned calls, compare the responses, report drift",
		Long: `Replay golden fixtures (a file, or every *.json file in a directory): each
pinned request is re-issued exactly against its target (or against the target
given on the command line), and the response is compared with the pinned one.

Differences are cosmetic (key order, 1 vs 1.0, re-serialized JSON text: never
a failure), warnings (a field was added: worth a look) or breaking (a value,
type, error or tool definition changed, a field is gone, an assertion fails).

Exit codes: 0 no drift at or above --fail-on; 1 drift; 2 a fixture or usage
error (invalid file, unknown rule, a secret in a fixture); 3 a target could
not be reached, crashed or timed out.`,
		Example: `  jig replay fixtures/
  jig replay fixtures/ --demo --release 2
  jig replay fixtures/ -- node new-server.js
  jig replay fixtures/ --report junit=drift.xml --report json=drift.json
  jig replay fixtures/search-orders-truncated.json --update --reason "v3 renames customer_name on purpose"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dash := cmd.ArgsLenAtDash()
			if dash > 1 || (dash < 0 && len(args) > 1) {
				return usageErr("replay takes one fixture file or directory; put a server command after -- (jig replay fixtures/ -- node server.js)")
			}
			return runReplay(cmd, st, tf, rf, args[0], args[1:])
		},
	}
	tf.bind(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&rf.reports, "report", nil, "also write a report: junit=FILE or json=FILE (repeatable)")
	fl.StringVar(&rf.failOn, "fail-on", "breaking", "the drift that fails the run: breaking or warn")
	fl.BoolVar(&rf.showCosmetic, "show-cosmetic", false, "list cosmetic differences instead of counting them")
	fl.BoolVar(&rf.update, "update", false, "accept the drift: rewrite each drifted fixture with the actual response (needs --reason; refused when CI is set)")
	fl.StringVar(&rf.reason, "reason", "", "with --update: why the drift is intended, recorded in each fixture's history")
	fl.StringArrayVar(&rf.secretEnv, "secret-env", nil, "with --update: redact the value of environment variable NAME (repeatable)")
	fl.IntVar(&rf.parallel, "parallel", 4, "targets replayed at once")
	fl.IntVar(&rf.inFlight, "in-flight", 8, "calls in flight per target")
	return cmd
}

// reportFile is one --report KIND=FILE.
type reportFile struct{ kind, path string }

func (rf *replayFlags) check() ([]reportFile, fixture.Severity, error) {
	var out []reportFile
	for _, r := range rf.reports {
		kind, path, ok := strings.Cut(r, "=")
		if !ok || path == "" || (kind != "junit" && kind != "json") {
			return nil, 0, usageErr("--report %q: expected junit=FILE or json=FILE", r)
		}
		out = append(out, reportFile{kind, path})
	}
	var threshold fixture.Severity
	switch rf.failOn {
	case "breaking":
		threshold = fixture.Breaking
	case "warn":
		threshold = fixture.Warn
	default:
		return nil, 0, usageErr("--fail-on %q: use breaking or warn", rf.failOn)
	}
	if rf.update {
		if rf.reason == "" {
			return nil, 0, usageErr(`--update needs --reason "why this drift is intended"; reviewers read it in the fixture's history`)
		}
		if ci := os.Getenv("CI"); ci != "" {
			return nil, 0, usageErr("--update is refused because CI=%s is set: fixtures are accepted by a person reviewing the drift, not by a pipeline; run it locally and commit the result", ci)
		}
	} else if rf.reason != "" {
		return nil, 0, usageErr("--reason only applies with --update")
	}
	if rf.parallel < 1 || rf.inFlight < 1 {
		return nil, 0, usageErr("--parallel and --in-flight must be at least 1")
	}
	return out, threshold, nil
}

func runReplay(cmd *cobra.Command, st *streams, tf *targetFlags, rf *replayFlags, path string, command []string) error {
	reports, threshold, err := rf.check()
	if err != nil {
		return err
	}
	secrets, err := secretEnvValues(rf.secretEnv)
	if err != nil {
		return err
	}
	opts := replay.Options{
		Capabilities: tf.capabilities,
		Grace:        tf.grace,
		Timeout:      tf.timeout,
		Parallel:     rf.parallel,
		InFlight:     rf.inFlight,
	}
	if overridden(cmd.Flags(), command) {
		so, err := tf.options(command)
		if err != nil {
			return err
		}
		opts.Target = &so.Target
	}
	if cmd.Flags().Changed("protocol-version") && tf.protocol != "auto" {
		opts.ProtocolVersion = tf.protocol
	}

	cases, loadErrs := replay.Load(path)
	for _, e := range loadErrs {
		fmt.Fprintf(st.err, "jig: %v\n", e)
	}
	outcomes := replay.Run(cmd.Context(), cases, opts)

	var reps []fixture.Report
	var drifted []replay.Outcome
	code := exitOK
	worse := func(c int) {
		// 2 (fix the fixture or the command) outranks 3 (the server), which
		// outranks 1 (drift): the most actionable reason wins.
		rank := map[int]int{exitOK: 0, exitServerError: 1, exitUnreachable: 2, exitUsage: 3}
		if rank[c] > rank[code] {
			code = c
		}
	}
	if len(loadErrs) > 0 {
		worse(exitUsage)
	}
	unreachable := map[string]int{}
	var order []string
	for _, o := range outcomes {
		if o.Err != nil {
			msg := o.Err.Error()
			reps = append(reps, fixture.Report{Scenario: o.Fixture.Scenario, Method: o.Fixture.Request.Method,
				Tool: o.Fixture.ToolName(), NotRun: msg})
			var ce *session.ConnectError
			if errors.As(o.Err, &ce) {
				worse(exitUnreachable)
				if unreachable[msg] == 0 {
					order = append(order, msg)
				}
				unreachable[msg]++ // one line per unreachable target, not per fixture
				continue
			}
			worse(exitCodeOf(o.Err))
			if !strings.Contains(msg, filepath.Base(o.Path)) {
				msg = o.Path + ": " + msg
			}
			fmt.Fprintf(st.err, "jig: %s\n", msg)
			continue
		}
		reps = append(reps, o.Report)
		if o.Drifted() {
			drifted = append(drifted, o)
		}
	}
	// A fixture that did not load is in every report too, as not run.
	for _, e := range loadErrs {
		name := path
		var fe *fixture.FileError
		if errors.As(e, &fe) {
			name = strings.TrimSuffix(fe.File, ".json")
		}
		reps = append(reps, fixture.Report{Scenario: name, NotRun: e.Error()})
	}
	fails := func(o replay.Outcome) bool {
		return o.Report.Worst() >= threshold || o.Report.AssertionFailures > 0 || o.Report.Obsolete
	}

	for _, msg := range order {
		fmt.Fprintf(st.err, "jig: %s\n  (%d fixture(s) not replayed)\n", msg, unreachable[msg])
	}
	if len(reps) > 0 {
		if err := fixture.WriteText(st.out, reps, rf.showCosmetic); err != nil {
			return err
		}
	}
	for _, r := range reports {
		if err := writeReport(r, reps); err != nil {
			fmt.Fprintf(st.err, "jig: %v\n", err)
			worse(exitUsage)
		}
	}

	if rf.update {
		updated := 0
		for _, o := range drifted {
			if o.Report.Obsolete {
				fmt.Fprintf(st.err, "jig: %s: not updated: tool %q is no longer listed (obsolete); re-pin it or delete it\n", o.Path, o.Report.Tool)
				continue
			}
			if err := replay.Update(o, rf.reason, secrets, time.Now()); err != nil {
				fmt.Fprintf(st.err, "jig: %s: not updated: %v\n", o.Path, err)
				worse(exitUsage)
				continue
			}
			updated++
			fmt.Fprintf(st.out, "updated %s (%s)\n", o.Path, o.Report.Worst())
			continue
		}
		for _, o := range drifted {
			if o.Report.Obsolete {
				worse(exitServerError) // drift nobody accepted
			}
		}
		fmt.Fprintf(st.out, "%d fixture(s) updated\n", updated)
		return exitWith(code)
	}

	var accept []string
	for _, o := range drifted {
		if fails(o) {
			worse(exitServerError)
		}
		if o.Report.Obsolete {
			fmt.Fprintf(st.out, "%s is obsolete: tool %q is no longer listed; re-pin it or delete it\n", o.Path, o.Report.Tool)
			continue
		}
		accept = append(accept, o.Path)
	}
	if len(accept) > 0 {
		fmt.Fprintln(st.out, "\nIf this drift is intended, accept it with:")
		for _, p := range accept {
			fmt.Fprintf(st.out, "  %s\n", acceptCommand(cmd.Flags(), p, command))
		}
	}
	return exitWith(code)
}

func exitWith(code int) error {
	if code == exitOK {
		return nil
	}
	return &exitError{code: code}
}

func exitCodeOf(err error) int {
	var fe *fixture.FileError
	if errors.As(err, &fe) {
		return exitUsage
	}
	return exitCode(err)
}

// overridden reports whether the user gave a target on the command line.
func overridden(fl *pflag.FlagSet, command []string) bool {
	if len(command) > 0 {
		return true
	}
	for _, name := range []string{"demo", "release", "url", "config", "server"} {
		if fl.Changed(name) {
			return true
		}
	}
	return false
}

// targetFlagNames are the flags repeated in the accept command: those that
// choose the target or how to reach it.
var targetFlagNames = map[string]bool{"demo": true, "release": true, "url": true, "transport": true, "header": true,
	"env": true, "cwd": true, "config": true, "server": true, "protocol-version": true, "capabilities": true, "secret-env": true}

// acceptCommand is the exact command that accepts one fixture's drift
// against the same target.
func acceptCommand(fl *pflag.FlagSet, path string, command []string) string {
	parts := []string{"jig", "replay", shellQuote(path)}
	fl.Visit(func(f *pflag.Flag) {
		if !targetFlagNames[f.Name] {
			return
		}
		if f.Value.Type() == "bool" {
			parts = append(parts, "--"+f.Name)
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				parts = append(parts, "--"+f.Name, shellQuote(v))
			}
			return
		}
		parts = append(parts, "--"+f.Name, shellQuote(f.Value.String()))
	})
	parts = append(parts, "--update", "--reason", `"..."`)
	if len(command) > 0 {
		parts = append(parts, "--")
		for _, c := range command {
			parts = append(parts, shellQuote(c))
		}
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@,+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func writeReport(r reportFile, reps []fixture.Report) error {
	f, err := os.Create(r.path)
	if err != nil {
		return fmt.Errorf("--report %s=%s: %v", r.kind, r.path, err)
	}
	var w io.Writer = f
	switch r.kind {
	case "junit":
		err = fixture.WriteJUnit(w, reps)
	case "json":
		err = fixture.WriteJSON(w, reps)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--report %s=%s: %v", r.kind, r.path, err)
	}
	return nil
}
