package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/record"
	"github.com/mcpjig/jig/session/replay"
)

// replayOptions are jig replay's. The target flags are shared; overridden,
// protocolChanged and targetArgs say which of them the user typed.
type replayOptions struct {
	target       targetFlags
	path         string
	command      []string // the server's command after --
	reports      []string
	failOn       string
	showCosmetic bool
	update       bool
	reason       string
	secretEnv    []string
	parallel     int
	inFlight     int
	reuse        bool
	retarget     bool
	surface      string
	shard        string
	failOnUnused bool

	overridden      bool     // a target was given on the command line
	protocolChanged bool     // --protocol-version was given
	capsChanged     bool     // --capabilities was given
	rootsChanged    bool     // --root was given
	cwdChanged      bool     // --cwd was given
	targetArgs      []string // the target flags as typed, for the accept command
}

const replayLong = `Replay golden fixtures (a file, or every *.json file in a directory): each
pinned request is re-issued exactly against its target (or against the target
given on the command line), and the response is compared with the pinned one.

Each fixture replays in a fresh session of its own (its own process, for a
stdio server), opened the way it was pinned: the capabilities, roots,
protocol version, environment and working directory the fixture recorded.
--parallel sessions run at once. A scenario's steps run in order in its one
session. --reuse-session shares one session per target instead (faster; right
only for servers known to be stateless). A target on the command line
replaces only what it names, and jig says on stderr what it replaced.

Differences are cosmetic (key order, 1 vs 1.0, re-serialized JSON text: never
a failure), warnings (a field was added: worth a look) or breaking (a value,
type, error or tool definition changed, a field is gone, an assertion fails).

--surface FILE also lists the server's whole surface (tools, resources,
templates, prompts, capabilities, instructions) and fails the run on any change
FILE has not accepted, whatever --fail-on says: a pin against silent changes.
It lists the target given on the command line, or the one target the fixtures
share, declaring the client capabilities FILE recorded.

Exit codes: 0 no drift at or above --fail-on; 1 drift; 2 a fixture or usage
error (invalid file, unknown rule, a secret in a fixture); 3 a target could
not be reached, crashed or timed out.`

const replayExample = `  jig replay fixtures/
  jig replay fixtures/ --demo --release 2
  jig replay fixtures/ -- node new-server.js
  jig replay fixtures/ --report junit=drift.xml --report json=drift.json
  jig replay fixtures/search-orders-truncated.json --update --reason "v3 renames customer_name on purpose"`

func newReplayCmd(st *streams, runF runFunc[replayOptions]) *cobra.Command {
	o := &replayOptions{}
	cmd := &cobra.Command{
		Use:     "replay FIXTURES [flags] [-- command args...]",
		Short:   "Re-issue pinned calls, compare the responses, report drift",
		Long:    replayLong,
		Example: replayExample,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dash := cmd.ArgsLenAtDash()
			if dash > 1 || (dash < 0 && len(args) > 1 && !urlAfter(cmd, args, 1)) {
				return usageErr("replay takes one fixture file or directory; put a server command after -- (jig replay fixtures/ -- node server.js)")
			}
			o.path, o.command = args[0], args[1:]
			o.overridden = overridden(cmd.Flags(), o.command)
			o.protocolChanged = cmd.Flags().Changed("protocol-version")
			o.capsChanged = cmd.Flags().Changed("capabilities")
			o.rootsChanged = cmd.Flags().Changed("root")
			o.cwdChanged = cmd.Flags().Changed("cwd")
			o.targetArgs = targetArgs(cmd.Flags())
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&o.reports, "report", nil, "also write a report: junit=FILE or json=FILE (repeatable)")
	fl.StringVar(&o.failOn, "fail-on", "breaking", "the drift that fails the run: breaking or warn")
	fl.BoolVar(&o.showCosmetic, "show-cosmetic", false, "list cosmetic differences instead of counting them")
	fl.BoolVar(&o.update, "update", false, "accept the drift: rewrite each drifted fixture with the actual response (needs --reason; refused when CI is set)")
	fl.StringVar(&o.reason, "reason", "", "with --update: why the drift is intended, recorded in each fixture's history")
	fl.BoolVar(&o.retarget, "retarget", false, "with --update against another target: point each updated fixture at that target")
	fl.StringArrayVar(&o.secretEnv, "secret-env", nil, "redact the value of environment variable NAME in every report and updated fixture (repeatable)")
	fl.IntVar(&o.parallel, "parallel", 4, "sessions replayed at once (each fixture gets its own)")
	fl.BoolVar(&o.reuse, "reuse-session", false, "share one session per target among its fixtures, calls pipelined (only for stateless servers)")
	fl.IntVar(&o.inFlight, "in-flight", 8, "with --reuse-session: calls in flight per session")
	fl.StringVar(&o.shard, "shard", "", "replay only shard I of N (I/N, from 1): fixtures are split by a hash of their file name, so adding one moves no other")
	fl.BoolVar(&o.failOnUnused, "fail-on-unused", false, "also fail on every fixture nothing exercised: its tool no longer listed, not run, cut short by a failed capture, or in a subdirectory replay does not read (each named with the next step)")
	fl.StringVar(&o.surface, "surface", "", "also list the server's surface and fail on any change this surface file has not accepted (see jig surface)")
	return cmd
}

// reportFile is one --report KIND=FILE.
type reportFile struct{ kind, path string }

// check validates replay's own flags and returns the reports to write and
// the severity that fails the run.
func (o *replayOptions) check() ([]reportFile, fixture.Severity, error) {
	var out []reportFile
	for _, r := range o.reports {
		kind, path, ok := strings.Cut(r, "=")
		if !ok || path == "" || (kind != "junit" && kind != "json") {
			return nil, 0, usageErr("--report %q: expected junit=FILE or json=FILE", r)
		}
		if err := checkOutput("--report", path, func(p string) string { return "--report " + kind + "=" + p }, "drift."+strings.Replace(kind, "junit", "xml", 1), false, false); err != nil {
			return nil, 0, err
		}
		out = append(out, reportFile{kind, path})
	}
	var threshold fixture.Severity
	switch o.failOn {
	case "breaking":
		threshold = fixture.Breaking
	case "warn":
		threshold = fixture.Warn
	default:
		return nil, 0, usageErr("--fail-on %q: use breaking or warn", o.failOn)
	}
	if o.update {
		if o.reason == "" {
			return nil, 0, usageErr(`--update needs --reason "why this drift is intended"; reviewers read it in the fixture's history`)
		}
		if ci := os.Getenv("CI"); ci != "" {
			return nil, 0, usageErr("--update is refused because CI=%s is set: fixtures are accepted by a person reviewing the drift, not by a pipeline; run it locally and commit the result", ci)
		}
	} else if o.reason != "" {
		return nil, 0, usageErr("--reason only applies with --update")
	}
	if o.retarget && !o.update {
		return nil, 0, usageErr("--retarget only applies with --update")
	}
	if o.update && o.overridden && !o.retarget {
		return nil, 0, usageErr("--update against a target given on the command line needs --retarget: the updated fixtures would record a response of that target but keep their own, and go red on it; pass --retarget to point them at this target, or drop the target to update them against their own")
	}
	if o.parallel < 1 || o.inFlight < 1 {
		return nil, 0, usageErr("--parallel and --in-flight must be at least 1")
	}
	return out, threshold, nil
}

// runnerOptions are the replay runner's options: the target given on the
// command line, if any, how to reach it, and the run's secrets.
func (o *replayOptions) runnerOptions(red *fixture.Redactor) (replay.Options, error) {
	opts := replay.Options{
		Capabilities:    o.target.capabilities,
		CapabilitiesSet: o.capsChanged,
		RootsSet:        o.rootsChanged,
		Grace:           o.target.grace,
		Timeout:         o.target.timeout,
		Parallel:        o.parallel,
		InFlight:        o.inFlight,
		Reuse:           o.reuse,
		Redactor:        red,
	}
	roots, err := o.target.rootList()
	if err != nil {
		return opts, err
	}
	opts.Roots = roots
	// A replay never starts a login: stored credentials, or a service
	// account's with --client-credentials.
	if o.target.auth.noBrowser || o.target.auth.redirectURL != "" {
		return opts, usageErr("jig replay never starts an OAuth login (log in first with jig auth login); --no-browser and --redirect-url do not apply")
	}
	if opts.Auth, err = o.target.auth.options(os.LookupEnv); err != nil {
		return opts, err
	}
	ov, err := o.override()
	if err != nil {
		return opts, err
	}
	opts.Override = ov
	if ov != nil {
		red.Add(fixture.Values(ov.Target.Secrets()...)...)
	}
	if o.protocolChanged {
		// auto too: the user asked for whatever the server speaks, not
		// for the version each fixture was pinned with.
		opts.ProtocolVersion = o.target.protocol
	}
	if o.target.record != "" && !o.target.noRecord {
		opts.Record = recordInto(o.target.record, red)
	}
	return opts, nil
}

// override is what the command line says about the fixtures' target: a
// whole server (a command after --, --url, --demo, --config), or only --env,
// --header or --cwd entries, merged into each fixture's own.
func (o *replayOptions) override() (*replay.Override, error) {
	if o.overridden {
		so, err := o.target.options(o.command)
		if err != nil {
			return nil, err
		}
		return &replay.Override{Target: so.Target, DirSet: o.cwdChanged}, nil
	}
	if len(o.target.inputs) > 0 {
		// It would change nothing: a fixture keeps its target's URL and
		// headers, not the config file its ${input:ID} came from.
		return nil, usageErr("--input only applies with --config FILE --server NAME: a fixture keeps the URL and headers it was pinned with, not the config file; replay it with --config FILE --server NAME --input ID=VALUE, or give the value with --header / --env")
	}
	if len(o.target.env) == 0 && len(o.target.headers) == 0 && !o.cwdChanged {
		return nil, nil
	}
	var t session.Target
	for _, e := range o.target.env {
		k, v, ok := strings.Cut(e, "=")
		if !ok || k == "" {
			return nil, usageErr("--env %q: expected K=V", e)
		}
		if t.Env == nil {
			t.Env = map[string]string{}
		}
		t.Env[k] = v
	}
	for _, h := range o.target.headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usageErr("--header %q: expected 'Name: value'", h)
		}
		if t.Headers == nil {
			t.Headers = map[string]string{}
		}
		t.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	t.Dir = o.target.cwd
	return &replay.Override{Target: t, DirSet: o.cwdChanged}, nil
}

// runRedactor is the redactor every fixture and report writer of the run
// shares, over the run's own (st.redact, which the sessions and the
// terminal use): the values of --secret-env variables and of every
// environment variable whose name looks secret (a server that echoes its
// environment echoes them), each with its name for reversible references.
func runRedactor(st *streams, names []string) (*fixture.Redactor, error) {
	named, err := secretEnv(names)
	if err != nil {
		return nil, err
	}
	st.noteWeakEnv()
	return fixture.Over(st.redact, append(fixture.EnvSecrets(os.Environ()), named...)...), nil
}

// secretEnv returns the --secret-env variables' values with their names.
func secretEnv(names []string) ([]fixture.Secret, error) {
	var out []fixture.Secret
	for _, n := range names {
		v, ok := os.LookupEnv(n)
		if !ok {
			return nil, usageErr("--secret-env %s: the environment variable is not set", n)
		}
		if len(v) < 4 {
			return nil, usageErr("--secret-env %s: the value is shorter than 4 bytes, too short to redact safely", n)
		}
		out = append(out, fixture.Secret{Value: v, Env: n})
	}
	return out, nil
}

func runReplay(ctx context.Context, o *replayOptions, st *streams) error {
	reports, threshold, err := o.check()
	if err != nil {
		return err
	}
	var skip []string
	for _, r := range reports {
		skip = append(skip, r.path)
	}
	var code worstCode
	t, red, err := o.replayAll(ctx, st, &code, skip)
	if err != nil {
		return err
	}
	run := fixture.NewRun(t.reports)
	if len(t.reports) > 0 {
		if err := run.WriteText(st.out, o.showCosmetic, red); err != nil {
			return err
		}
	}
	if o.surface != "" {
		run.Surface = o.checkSurface(ctx, st, t.cases, t.opts, &code)
	}
	if o.failOnUnused {
		uo := unusedOptions{roots: []string{o.path}}
		for _, r := range reports {
			if r.kind == "json" {
				uo.report = shellQuote(r.path)
			}
		}
		if o.shard != "" {
			i, n, _ := parseShard(o.shard)
			uo.otherShard = func(path string) bool { return !inShardName(path, i, n) }
		}
		unused := findUnused(t.reports, uo)
		var b bytes.Buffer
		b.WriteByte('\n')
		writeUnused(&b, unused)
		st.out.Write(red.Bytes(b.Bytes()))
		if len(unused) > 0 {
			code.add(exitServerError)
		}
	}
	for _, r := range reports {
		if err := writeReport(r, run, red); err != nil {
			fmt.Fprintf(st.err, "jig: %v\n", err)
			code.add(exitUsage)
		}
	}
	if o.update {
		o.accept(st, t.drifted, red, &code)
	} else {
		o.suggestAccept(st, t.drifted, threshold, &code)
	}
	if in := interruption(ctx); in != nil {
		return &exitError{code: exitCode(in)} // said above, with the fixtures not replayed
	}
	return code.err()
}

// replayAll loads the fixtures (but the files in skip) and replays them,
// saying on stderr what did not load and what the command line replaced. It
// returns what the run found and the run's redactor.
func (o *replayOptions) replayAll(ctx context.Context, st *streams, code *worstCode, skip []string) (tally, *fixture.Redactor, error) {
	red, err := runRedactor(st, o.secretEnv)
	if err != nil {
		return tally{}, nil, err
	}
	opts, err := o.runnerOptions(red)
	if err != nil {
		return tally{}, nil, err
	}
	finishWrites(st, o.path)
	cases, loadErrs := replay.Load(o.path, skip...)
	if o.shard != "" {
		i, n, err := parseShard(o.shard)
		if err != nil {
			return tally{}, nil, err
		}
		cases, loadErrs = inShard(cases, loadErrs, i, n)
	}
	for _, e := range loadErrs {
		fmt.Fprintf(st.err, "jig: %s\n", red.Text(e.Error()))
	}
	for _, note := range replay.OverrideNotes(cases, opts.Override) {
		fmt.Fprintf(st.err, "jig: %s\n", red.Text(note))
	}
	if len(loadErrs) > 0 {
		code.add(exitUsage)
	}
	t := tallyOutcomes(st, replay.Run(ctx, cases, opts), code, red)
	t.reports = append(t.reports, notLoaded(o.path, loadErrs)...)
	t.cases, t.opts = cases, opts
	return t, red, nil
}

// A tally is what a replay run found: a report for every fixture (those not
// run say why), and the fixtures that drifted.
type tally struct {
	reports []fixture.Report
	drifted []replay.Outcome
	// cases and opts are what was replayed, and how.
	cases []replay.Case
	opts  replay.Options
}

// tallyOutcomes prints each fixture that could not be replayed (one line per
// unreachable target, not per fixture) and collects the others.
func tallyOutcomes(st *streams, outcomes []replay.Outcome, code *worstCode, red *fixture.Redactor) tally {
	var t tally
	unreachable := map[string]int{}
	var order []string
	for _, o := range outcomes {
		if o.Err == nil {
			t.reports = append(t.reports, o.Report)
			if o.Drifted() {
				t.drifted = append(t.drifted, o)
			}
			continue
		}
		msg := red.Text(o.Err.Error())
		t.reports = append(t.reports, fixture.Report{Scenario: o.Fixture.Scenario, File: o.Path, FixtureSHA256: o.Fixture.SHA256(), Method: o.Fixture.Method(),
			Tool: o.Fixture.ToolName(), NotRun: msg})
		// One line per unreachable target, and one for an interrupt, not
		// one per fixture.
		var ce *session.ConnectError
		var se *signalError
		if errors.As(o.Err, &se) || errors.As(o.Err, &ce) {
			if se != nil {
				msg = se.Error()
			} else {
				code.add(exitUnreachable)
			}
			if unreachable[msg] == 0 {
				order = append(order, msg)
			}
			unreachable[msg]++
			continue
		}
		code.add(exitCode(o.Err))
		if !strings.Contains(msg, filepath.Base(o.Path)) {
			msg = o.Path + ": " + msg
		}
		fmt.Fprintf(st.err, "jig: %s\n", msg)
	}
	for _, msg := range order {
		fmt.Fprintf(st.err, "jig: %s\n  (%d fixture(s) not replayed)\n", msg, unreachable[msg])
	}
	return t
}

// notLoaded are the reports of the fixtures that did not load: they are in
// every report too, as not run.
func notLoaded(path string, loadErrs []error) []fixture.Report {
	var reps []fixture.Report
	for _, e := range loadErrs {
		name := path
		var fe *fixture.FileError
		if errors.As(e, &fe) {
			name = strings.TrimSuffix(fe.File, ".json")
		}
		reps = append(reps, fixture.Report{Scenario: name, NotRun: e.Error()})
	}
	return reps
}

// accept rewrites each drifted fixture with the actual response (--update).
func (o *replayOptions) accept(st *streams, drifted []replay.Outcome, red *fixture.Redactor, code *worstCode) {
	updated := 0
	for _, d := range drifted {
		if d.Report.Obsolete {
			fmt.Fprintf(st.err, "jig: %s: not updated: tool %q is no longer listed (obsolete); re-pin it or delete it\n", d.Path, d.Report.Tool)
			code.add(exitServerError) // drift nobody accepted
			continue
		}
		if err := replay.Update(d, replay.UpdateOptions{Reason: o.reason, Retarget: o.retarget, Redactor: red, Now: time.Now()}); err != nil {
			fmt.Fprintf(st.err, "jig: %s: not updated: %s\n", d.Path, red.Text(err.Error()))
			code.add(exitUsage)
			continue
		}
		updated++
		fmt.Fprintf(st.out, "updated %s (%s)\n", d.Path, d.Report.Worst())
	}
	fmt.Fprintf(st.out, "%d fixture(s) updated\n", updated)
}

// suggestAccept fails the run on drift at or above the threshold and prints
// the command that accepts each drifted fixture.
func (o *replayOptions) suggestAccept(st *streams, drifted []replay.Outcome, threshold fixture.Severity, code *worstCode) {
	var accept []string
	for _, d := range drifted {
		if d.Report.Worst() >= threshold || d.Report.AssertionFailures > 0 || d.Report.Obsolete {
			code.add(exitServerError)
		}
		if d.Report.Obsolete {
			hint := ""
			if d.Report.RenamedTo != "" {
				hint = fmt.Sprintf(" (renamed to %q?)", d.Report.RenamedTo)
			}
			fmt.Fprintf(st.out, "%s is obsolete: tool %q is no longer listed%s; re-pin it or delete it\n", d.Path, d.Report.Tool, hint)
			continue
		}
		if len(d.Report.ScriptFailures) > 0 {
			fmt.Fprintf(st.out, "%s: its answers could not answer the server (above): fix the fixture's \"answers\" or re-pin it\n", d.Path)
			continue
		}
		accept = append(accept, d.Path)
	}
	if len(accept) > 0 {
		fmt.Fprintln(st.out, "\nIf this drift is intended, accept it with:")
		for _, p := range accept {
			fmt.Fprintf(st.out, "  %s\n", acceptCommand(o.targetArgs, p, o.command, o.overridden))
		}
	}
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
	"env": true, "cwd": true, "config": true, "server": true, "protocol-version": true, "capabilities": true, "secret-env": true,
	"root": true, "input": true}

// targetArgs are the target flags as the user typed them: those that
// choose the target or how to reach it, repeated in the accept command.
func targetArgs(fl *pflag.FlagSet) []string {
	var parts []string
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
	return parts
}

// acceptCommand is the exact command that accepts one fixture's drift
// against the same target.
func acceptCommand(targetArgs []string, path string, command []string, retarget bool) string {
	parts := append([]string{"jig", "replay", shellQuote(path)}, targetArgs...)
	parts = append(parts, "--update", "--reason", `"..."`)
	if retarget {
		parts = append(parts, "--retarget")
	}
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

// writeReport writes one --report file of the run, through the run's
// redactor.
func writeReport(r reportFile, run *fixture.Run, red *fixture.Redactor) error {
	var b bytes.Buffer
	var err error
	switch r.kind {
	case "junit":
		err = run.WriteJUnit(&b, red)
	case "json":
		err = run.WriteJSON(&b, red)
	}
	if err == nil {
		var f *os.File
		if f, err = frames.CreatePrivate(r.path); err == nil {
			_, err = f.Write(b.Bytes())
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err != nil {
		return fmt.Errorf("--report %s=%s: %v", r.kind, r.path, err)
	}
	return nil
}

// recordInto records every session of a replay into dir, one file per
// fixture (or, with --reuse-session, per target), named after it.
func recordInto(dir string, red *fixture.Redactor) func(name string, opts session.Options) (func(), error) {
	return func(name string, opts session.Options) (func(), error) {
		if err := frames.MkdirPrivate(dir); err != nil {
			return nil, usageErr("--record %s: %v (replay records each session into this directory)", dir, err)
		}
		_, closer, err := record.ForLog(opts.Log, record.Options{
			Dir: dir, Target: opts.Target.JSON(), Label: name, Mode: "session",
			Secrets: opts.Target.Secrets(), Redactor: red.Base(),
		})
		if err != nil {
			return nil, usageErr("--record %s: %v", dir, err)
		}
		return func() { _ = closer() }, nil
	}
}

// parseShard reads --shard I/N.
func parseShard(s string) (i, n int, err error) {
	if _, err := fmt.Sscanf(s, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n || fmt.Sprintf("%d/%d", i, n) != s {
		return 0, 0, usageErr("--shard %q: expected I/N with 1 <= I <= N, e.g. --shard 2/4", s)
	}
	return i, n, nil
}

// inShard keeps the fixtures (and the files that did not load) of shard i of
// n: a file belongs to the shard its base name hashes to, so a fixture added
// or removed moves no other between shards.
// inShardName reports whether the file name belongs to shard i of n.
func inShardName(name string, i, n int) bool {
	h := fnv.New32a()
	h.Write([]byte(filepath.Base(name)))
	return int(h.Sum32()%uint32(n)) == i-1
}

func inShard(cases []replay.Case, loadErrs []error, i, n int) ([]replay.Case, []error) {
	mine := func(name string) bool { return inShardName(name, i, n) }
	var cs []replay.Case
	for _, c := range cases {
		if mine(c.Path) {
			cs = append(cs, c)
		}
	}
	var errs []error
	for _, e := range loadErrs {
		var fe *fixture.FileError
		if !errors.As(e, &fe) || mine(fe.File) {
			errs = append(errs, e)
		}
	}
	return cs, errs
}
