package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/surface"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/ui"
)

// reviewOptions are jig review's: the reports (or a fixtures directory and
// the replay flags to replay it now), and the decisions given as flags.
type reviewOptions struct {
	replay  replayOptions
	paths   []string
	accept  []string
	reject  []string
	skip    []string
	del     []string
	rules   []string
	asserts []string
	reason  string
	// rejectReason is why the rejected drift is a regression (the mark's
	// reason); --reason when nothing is accepted.
	rejectReason string
	// retarget points the fixtures of accepted drift replayed against
	// another target at that target.
	retarget bool
	json     bool
	dryRun   bool
}

const reviewLong = `Review drift like a code review: step through every drifted fixture of one or
more JSON replay reports (jig replay --report json=FILE, from CI, no server
needed), or replay a fixtures directory now and review at once.

A changed tool definition is one item for every scenario it affects; each
scenario's own drift is another. Per item: accept it (with a reason, recorded
in the fixture's history with who and when), reject it (the fixture is kept
and stays red, and records the drift as a known regression — who, when, why —
which later replays name, and later reviews show as decided until the drift
changes), skip it, or turn a hunk into a rule (a typed placeholder, a
pattern, ignore-order by a key) or an assertion. Nothing is written until you
confirm; every write is atomic and leaves valid fixtures.

A report of jig replay --surface FILE carries its surface check: each change
to the server's listing is an item too (surface:tool NAME), accepted into FILE
with a reason in the same write as the fixtures. --fail-on-unused also fails
on every fixture the reviewed run did not exercise, each named with the next
step.

Drift replayed against another target than its fixtures' own (a target on jig
replay's command line) is accepted into fixtures that keep their own target,
and the summary says so; --retarget (ctrl+r in the accept dialog) points them
at the replayed target instead.

In a terminal, with no decision flags, jig review opens the review TUI. The
flags make the same decisions in a script: the item is a scenario, its file,
or tool:NAME for a tool definition. A report about another revision of a
fixture (edited since, deleted, another branch) is refused file by file.

Exit codes: 0 written (or nothing to do); 1 a scenario stays red after the
decisions (rejected or left); 2 a usage error, a report that cannot be
reviewed, or a decision about a refused fixture.`

const reviewExample = `  jig review drift.json
  jig review fixtures/ --demo --release 2
  jig review drift.json --accept tool:search_orders --accept search-acme --reason "v2 renames customer_name"
  jig review drift.json --reject search-globex --rule 'report=/structuredContent/request_id:uuid'
  jig review drift.json --accept 'surface:tool search_orders' --reason "v2 documents since"
  jig review shard-1.json shard-2.json --json --fail-on-unused`

func newReviewCmd(st *streams, runF runFunc[reviewOptions]) *cobra.Command {
	o := &reviewOptions{}
	cmd := &cobra.Command{
		Use:     "review REPORT.json... | FIXTURES [target flags] [-- command args...]",
		Short:   "Review drift item by item: accept, reject, skip, or turn it into a rule",
		Long:    reviewLong,
		Example: reviewExample,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dash := cmd.ArgsLenAtDash()
			if dash >= 0 {
				o.paths, o.replay.command = args[:dash], args[dash:]
			} else {
				o.paths = args
			}
			if len(o.paths) == 0 {
				return usageErr("review needs a report or a fixtures directory before --")
			}
			o.replay.path = o.paths[0]
			o.replay.overridden = overridden(cmd.Flags(), o.replay.command)
			o.replay.protocolChanged = cmd.Flags().Changed("protocol-version")
			o.replay.capsChanged = cmd.Flags().Changed("capabilities")
			o.replay.rootsChanged = cmd.Flags().Changed("root")
			o.replay.cwdChanged = cmd.Flags().Changed("cwd")
			return runF(cmd.Context(), o, st)
		},
	}
	o.replay.target.bind(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&o.accept, "accept", nil, "accept ITEM's drift (a scenario, its file, or tool:NAME); needs --reason (repeatable)")
	fl.StringArrayVar(&o.reject, "reject", nil, "reject ITEM: the fixture keeps its pinned response, stays red, and records the drift as a known regression (who, when, --reject-reason), which later replays and reviews name (repeatable)")
	fl.StringVar(&o.rejectReason, "reject-reason", "", "why the rejected drift is a regression (an issue, who fixes it), recorded in the fixture's known_regressions (default: --reason when nothing is accepted)")
	fl.StringArrayVar(&o.skip, "skip", nil, "skip ITEM: decide later (repeatable)")
	fl.StringArrayVar(&o.del, "delete", nil, "delete the obsolete fixture ITEM (its tool is no longer listed; repeatable)")
	fl.StringArrayVar(&o.rules, "rule", nil, "add a rule to ITEM's fixture: 'ITEM=/POINTER:TYPE' (iso8601, uuid, nonempty-string, number, string, any), 'ITEM=/POINTER:pattern:REGEXP' or 'ITEM=/POINTER:unordered[:KEY]' (repeatable)")
	fl.StringArrayVar(&o.asserts, "assert", nil, "add an assertion to ITEM's fixture: 'ITEM=/POINTER:OP[:JSON]' (exists, type, one-of, equals, matches, min-length, …; repeatable)")
	fl.StringVar(&o.reason, "reason", "", "why the accepted drift is intended, recorded in each fixture's history (and the reason of each --rule)")
	fl.BoolVar(&o.retarget, "retarget", false, "when accepted drift was replayed against another target than its fixtures' own (a target on jig replay's command line): point them at that target, as jig replay --update --retarget does (without it they keep their own, and the summary says so)")
	fl.BoolVar(&o.json, "json", false, "print the items and the decisions as JSON")
	fl.BoolVar(&o.replay.failOnUnused, "fail-on-unused", false, "also fail (exit 1) on every fixture nothing exercised in the run reviewed: its tool no longer listed (and not deleted here), not run, cut short, or on disk but in none of the reports (each named with the next step)")
	fl.BoolVar(&o.dryRun, "dry-run", false, "say what the decisions would write, and write nothing")
	fl.StringArrayVar(&o.replay.secretEnv, "secret-env", nil, "redact the value of environment variable NAME in what review shows and writes (repeatable)")
	fl.IntVar(&o.replay.parallel, "parallel", 4, "when replaying FIXTURES now: sessions replayed at once")
	fl.StringVar(&o.replay.surface, "surface", "", "when replaying FIXTURES now: also list the server's surface and review its changes against this surface file (a report carries its own)")
	o.replay.inFlight = 8
	o.replay.failOn = "breaking"
	return cmd
}

// decided reports whether any decision was given as a flag.
func (o *reviewOptions) decided() bool {
	return len(o.accept)+len(o.reject)+len(o.skip)+len(o.del)+len(o.rules)+len(o.asserts) > 0
}

func runReview(ctx context.Context, o *reviewOptions, st *streams) error {
	if len(o.accept) > 0 && strings.TrimSpace(o.reason) == "" {
		return usageErr(`--accept needs --reason "why this drift is intended"; reviewers read it in the fixture's history`)
	}
	if ci := os.Getenv("CI"); ci != "" && o.decided() && !o.dryRun {
		return usageErr("jig review writes nothing when CI=%s is set: fixtures change only through a person's review; run it locally (or add --dry-run)", ci)
	}
	red, err := runRedactor(st, o.replay.secretEnv)
	if err != nil {
		return err
	}
	var code worstCode
	docs, err := o.reports(ctx, st, &code)
	if err != nil {
		return err
	}
	// The TUI checks the fixture files while its first screen is up.
	tui := !o.decided() && !o.json && isTerminal(st)
	rv := fixture.NewReview(docs, fixture.ReviewOptions{Redactor: red, By: reviewer(), Now: time.Now, Defer: tui})
	attachSurfaces(st, rv, docs, red, &code)
	problems := func() {
		if !rv.Checked() {
			rv.ApplyFiles(rv.ReadFiles())
		}
		for _, p := range rv.Problems {
			fmt.Fprintf(st.err, "jig: %s\n", red.Text(p))
		}
		if len(rv.Problems) > 0 {
			code.add(exitUsage)
		}
	}
	if !tui {
		problems()
	}
	if in := interruption(ctx); in != nil {
		return in
	}
	if tui {
		confirmed, err := runReviewTUI(ctx, rv, red, st, strings.Join(o.paths, " "))
		problems()
		if err != nil {
			return err
		}
		if !confirmed {
			fmt.Fprintln(st.err, "jig: review ended without confirming: nothing written")
			if rv.Pending()+rv.KnownRegressions() > 0 {
				code.add(exitServerError) // nothing written: what drifted stays red
			}
			return code.err()
		}
		return finishReview(st, rv, red, false, o.dryRun, o.unused(rv), &code)
	}
	if err := o.apply(rv, st); err != nil {
		return err
	}
	return finishReview(st, rv, red, o.json, o.dryRun || !o.decided(), o.unused(rv), &code)
}

// unused finds, with --fail-on-unused, the fixtures nothing exercised in the
// run reviewed: the reports' obsolete, not-run and cut-short scenarios, and
// the fixture files beside them that no report compared. nil without the
// flag.
func (o *reviewOptions) unused(rv *fixture.Review) func(deleted map[string]bool) []unusedFixture {
	if !o.replay.failOnUnused {
		return nil
	}
	return func(deleted map[string]bool) []unusedFixture {
		var reports []fixture.Report
		var roots []string
		if len(o.paths) == 1 && !isReportFile(o.paths[0]) {
			roots = append(roots, filepath.Clean(o.paths[0]))
		}
		for _, e := range rv.Entries {
			r := e.Before
			if e.NotRun != "" {
				r = fixture.Report{Scenario: e.Scenario, File: e.File, NotRun: e.NotRun}
			}
			if r.File == "" {
				r.File = e.File
			}
			if deleted[e.File] {
				r = fixture.Report{File: e.File, Scenario: e.Scenario} // decided here: deleted
			}
			reports = append(reports, r)
			if e.File != "" && !slices.Contains(roots, filepath.Dir(e.File)) {
				roots = append(roots, filepath.Dir(e.File))
			}
		}
		return findUnused(reports, unusedOptions{roots: roots, review: strings.Join(o.paths, " ")})
	}
}

// attachSurfaces adds the surface changes the reports carry (jig replay
// --surface) to the review, once per surface file; one changed since the
// report is refused, named.
func attachSurfaces(st *streams, rv *fixture.Review, docs []*fixture.ReportDoc, red *fixture.Redactor, code *worstCode) {
	seen := map[string]bool{}
	for _, doc := range docs {
		rec := doc.Surface
		if rec == nil || seen[rec.File+" "+rec.SHA256] {
			continue
		}
		seen[rec.File+" "+rec.SHA256] = true
		p, err := surface.NewPending(rec)
		if err != nil {
			fmt.Fprintf(st.err, "jig: %s\n", red.Text(err.Error()))
			code.add(exitUsage)
			continue
		}
		rv.Attach(p)
	}
}

// reports reads the reports given, or replays the fixtures given and
// reviews that run's report.
func (o *reviewOptions) reports(ctx context.Context, st *streams, code *worstCode) ([]*fixture.ReportDoc, error) {
	var docs []*fixture.ReportDoc
	for _, p := range o.paths {
		if _, err := os.Stat(p); err != nil {
			return nil, usageErr("%s: no such report or fixtures directory (write a report with jig replay FIXTURES --report json=FILE)", p)
		}
	}
	replayNow := len(o.paths) == 1 && !isReportFile(o.paths[0])
	if !replayNow {
		if len(o.replay.command) > 0 || o.replay.overridden {
			return nil, usageErr("a target on the command line replays fixtures: give a fixtures directory (jig review fixtures/ --demo --release 2), not a report")
		}
		if o.replay.surface != "" {
			return nil, usageErr("--surface replays now: a report carries its own surface check (jig replay FIXTURES --surface FILE --report json=REPORT)")
		}
		dirs := map[string]bool{}
		for _, p := range o.paths {
			doc, err := fixture.ReadReport(p)
			if err != nil {
				return nil, usageErr("%v", err)
			}
			docs = append(docs, doc)
			for _, s := range doc.Scenarios {
				if s.File != "" && !dirs[filepath.Dir(s.File)] {
					dirs[filepath.Dir(s.File)] = true
					finishWrites(st, filepath.Dir(s.File))
				}
			}
		}
		return docs, nil
	}
	t, red, err := o.replay.replayAll(ctx, st, code, nil)
	if err != nil {
		return nil, err
	}
	run := fixture.NewRun(t.reports)
	fmt.Fprintf(st.err, "jig: replayed %s: %s\n", o.paths[0], run.Summary())
	if o.replay.surface != "" {
		quiet := *st
		quiet.out = io.Discard // the review shows the changes
		var sc worstCode       // changes are review items, not a failure yet
		run.Surface = o.replay.checkSurface(ctx, &quiet, t.cases, t.opts, &sc)
		if sc != exitServerError {
			code.add(int(sc))
		}
	}
	var b bytes.Buffer
	if err := run.WriteJSON(&b, red); err != nil {
		return nil, err
	}
	doc, err := fixture.DecodeReport(o.paths[0], b.Bytes())
	if err != nil {
		return nil, err
	}
	return []*fixture.ReportDoc{doc}, nil
}

// finishWrites finishes, in the directory of path, a set of fixture writes
// an interrupted jig review left (fixture.RecoverWrites), and says so. Under
// CI nothing is written, so nothing is finished either.
func finishWrites(st *streams, path string) {
	if os.Getenv("CI") != "" {
		return
	}
	dir := path
	if info, err := os.Stat(path); err == nil && !info.IsDir() {
		dir = filepath.Dir(path)
	}
	done, err := fixture.RecoverWrites(dir)
	text := st.redact.String
	if len(done) > 0 {
		fmt.Fprintf(st.err, "jig: finished an interrupted review's write of %d file(s) in %s: %s\n", len(done), dir, text(strings.Join(done, ", ")))
	}
	if err != nil {
		fmt.Fprintf(st.err, "jig: %s\n", text(err.Error()))
	}
}

// isReportFile reports whether path is a JSON report jig wrote (rather than
// a fixture or a directory of them).
func isReportFile(path string) bool {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := f.Read(head)
	return fixture.IsReport(head[:n])
}

// isTerminal reports whether jig review can open its TUI: a terminal on
// stdin and on stderr, where the TUI draws.
func isTerminal(st *streams) bool {
	type fd interface{ Fd() uintptr }
	in, ok := st.in.(fd)
	if !ok || !term.IsTerminal(in.Fd()) {
		return false
	}
	errf, ok := st.rawErr.(fd)
	return ok && term.IsTerminal(errf.Fd())
}

// runReviewTUI runs the review TUI on stderr and reports whether the user
// confirmed the decisions. ctrl+c, q or a crash confirms nothing.
func runReviewTUI(ctx context.Context, rv *fixture.Review, red *fixture.Redactor, st *streams, source string) (bool, error) {
	m := ui.NewReview(ui.ReviewConfig{Review: rv, Source: source, Redact: red})
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithOutput(st.rawErr), tea.WithInput(st.in))
	_, err := p.Run()
	if in := interruption(ctx); in != nil {
		return false, in
	}
	switch {
	case err == nil:
	case errors.Is(err, tea.ErrInterrupted), errors.Is(err, context.Canceled):
		return false, nil
	default:
		return false, tuiFailed(err)
	}
	return m.Confirmed(), nil
}

// nothingWritten follows a decision review cannot make: the others given
// with it are not applied either, and that must be said.
const nothingWritten = "nothing was written, for any item: drop this decision (or replay again and review the new report), then run the review again"

// apply makes the decisions the flags give, in the order accept, reject,
// skip, delete, rules, assertions.
func (o *reviewOptions) apply(rv *fixture.Review, st *streams) error {
	for _, set := range []struct {
		keys   []string
		action string
	}{{o.accept, fixture.ActionAccept}, {o.reject, fixture.ActionReject}, {o.skip, fixture.ActionSkip}, {o.del, fixture.ActionDelete}} {
		for _, k := range set.keys {
			it, err := rv.Find(k)
			if err != nil {
				return usageErr("--%s %v\n%s", set.action, err, nothingWritten)
			}
			reason := o.reason
			switch set.action {
			case fixture.ActionSkip:
				reason = "" // a skip is no decision: it has no reason of its own
			case fixture.ActionDelete:
				// --reason says why the accepted drift is intended: a
				// deletion has it only when nothing is accepted.
				if len(o.accept) > 0 {
					reason = ""
				}
			case fixture.ActionReject:
				reason = o.rejectReason
				if reason == "" && len(o.accept) == 0 {
					reason = o.reason
				}
			}
			if set.action == fixture.ActionAccept && o.retarget {
				rv.SetRetarget(it, true)
			}
			if err := rv.Decide(it, set.action, reason); err != nil {
				return usageErr("--%s %v\n%s", set.action, err, nothingWritten)
			}
			if t := rv.OtherTarget(it); t != nil && set.action == fixture.ActionAccept && !o.retarget {
				fmt.Fprintf(st.err, "jig: %s: the accepted drift was replayed against %s, not its fixtures' own target %s: they keep their own target, where it drifts; pass --retarget to point them at %s\n",
					it.Key, st.redact.String(t.Name), st.redact.String(t.Own), st.redact.String(t.Name))
			}
		}
	}
	for _, spec := range o.rules {
		if err := addRuleFlag(rv, spec, o.reason, false, st.err); err != nil {
			return err
		}
	}
	for _, spec := range o.asserts {
		if err := addRuleFlag(rv, spec, o.reason, true, st.err); err != nil {
			return err
		}
	}
	return nil
}

// addRuleFlag parses one --rule or --assert and adds it to its item.
func addRuleFlag(rv *fixture.Review, spec, reason string, assertion bool, warn io.Writer) error {
	flag := "--rule"
	form := "'ITEM=/POINTER:TYPE[:PATTERN|KEY]'"
	if assertion {
		flag, form = "--assert", "'ITEM=/POINTER:OP[:JSON]'"
	}
	key, rest, ok := strings.Cut(spec, "=")
	parts := strings.SplitN(rest, ":", 3)
	if !ok || len(parts) < 2 || !strings.HasPrefix(parts[0], "/") {
		return usageErr("%s %q: expected %s", flag, spec, form)
	}
	it, err := rv.Find(key)
	if err != nil {
		return usageErr("%s %v", flag, err)
	}
	arg := ""
	if len(parts) == 3 {
		arg = parts[2]
	}
	p := fixture.Proposal{Step: ruleStep(rv, it, parts[0])}
	if assertion {
		a := &fixture.Assertion{Path: parts[0], Op: parts[1]}
		if arg != "" {
			a.Value = json.RawMessage(arg)
		}
		p.Assertion = a
	} else {
		if reason == "" {
			reason = "added in review"
		}
		r := &fixture.Rule{Path: parts[0], Type: parts[1], Reason: reason}
		switch parts[1] {
		case fixture.TypePattern:
			r.Pattern = arg
		case fixture.TypeUnordered:
			r.Key = arg
		default:
			if arg != "" {
				return usageErr("%s %q: a %s rule takes no argument after the type", flag, spec, parts[1])
			}
		}
		p.Rule = r
	}
	before := rv.Hunks(it)
	if err := rv.AddRule(it, p); err != nil {
		return usageErr("%s %q: %v", flag, spec, err)
	}
	after := map[string]bool{}
	for _, h := range rv.Hunks(it) {
		after[h.Path] = true
	}
	for _, h := range before {
		if !after[h.Path] && h.Severity == fixture.Breaking {
			fmt.Fprintf(warn, "jig: warning: %s %q hides a change classified breaking (%s at %s); be sure it is noise\n", flag, spec, h.Kind, fixture.DisplayPath(h.Path))
		}
	}
	return nil
}

// ruleStep is the step a rule at pointer belongs to: the step of the first
// hunk it addresses, else the scenario's last step.
func ruleStep(rv *fixture.Review, it *fixture.Item, pointer string) int {
	for _, h := range rv.Hunks(it) {
		if strings.HasPrefix(h.Path, "/result"+pointer) || strings.HasPrefix(h.Pointer, "/result"+pointer) {
			return h.Step
		}
	}
	if e := rv.Entry(it); e != nil && len(e.StepResults()) > 0 {
		return len(e.StepResults()) - 1
	}
	return 0
}

// finishReview writes what was decided (unless dryRun) and prints the
// summary, or the items when nothing was decided.
func finishReview(st *streams, rv *fixture.Review, red *fixture.Redactor, asJSON, dryRun bool, findUnused func(map[string]bool) []unusedFixture, code *worstCode) error {
	changes, err := rv.Changes()
	if err != nil {
		return err
	}
	unused := unusedAfter(changes, findUnused, code)
	var written []string
	var errs []error
	if !dryRun {
		written, errs = rv.Write(changes)
	}
	for _, e := range errs {
		fmt.Fprintf(st.err, "jig: %s\n", red.Text(e.Error()))
		code.add(exitUsage)
	}
	d := rv.Decisions()
	if len(d.StillRed) > 0 {
		code.add(exitServerError)
	}
	if asJSON {
		return writeReviewJSON(st, rv, red, changes, written, dryRun, findUnused != nil, unused, *code)
	}
	if findUnused != nil {
		defer func() {
			var b bytes.Buffer
			b.WriteByte('\n')
			writeUnused(&b, unused)
			st.out.Write(red.Bytes(b.Bytes()))
		}()
	}
	var b bytes.Buffer
	decided := len(d.Accepted)+len(d.Rejected)+len(d.Rules)+len(d.Deleted)+len(d.Skipped) > 0
	if !decided {
		n := rv.Pending()
		fmt.Fprintf(&b, "%d item%s to review", n, frames.Plural(n))
		if k := rv.KnownRegressions(); k > 0 {
			// Listed below too: say what they are, so the count adds up.
			fmt.Fprintf(&b, ", and %d known regression%s rejected in an earlier review (its drift unchanged: still red)", k, frames.Plural(k))
		}
		b.WriteString("\n\n")
		rv.WriteItems(&b)
		if n > 0 {
			fmt.Fprintf(&b, "Decide in a terminal with jig review, or with flags: --accept ITEM --reason \"...\", --reject ITEM, --rule 'ITEM=/POINTER:TYPE'\n")
		}
		st.out.Write(red.Bytes(b.Bytes()))
		return code.err()
	}
	rv.WriteSummary(&b)
	writeChanges(&b, changes, written, dryRun)
	st.out.Write(red.Bytes(b.Bytes()))
	return code.err()
}

// unusedAfter finds, with --fail-on-unused, the unused fixtures left once
// the changes are made (an obsolete fixture deleted is not one).
func unusedAfter(changes []fixture.Change, findUnused func(map[string]bool) []unusedFixture, code *worstCode) []unusedFixture {
	if findUnused == nil {
		return nil
	}
	deleted := map[string]bool{}
	for _, c := range changes {
		deleted[c.File] = c.Delete
	}
	unused := findUnused(deleted)
	if len(unused) > 0 {
		code.add(exitServerError)
	}
	return unused
}

// writeChanges says what was (or would be) written or deleted.
func writeChanges(b *bytes.Buffer, changes []fixture.Change, written []string, dryRun bool) {
	for _, c := range changes {
		verb := "wrote"
		switch {
		case dryRun && c.Delete:
			verb = "would delete"
		case dryRun:
			verb = "would write"
		case c.Delete:
			verb = "deleted"
		}
		if dryRun || contains(written, c.File) {
			fmt.Fprintf(b, "%s %s: %s\n", verb, c.File, strings.Join(c.What, "; "))
		}
	}
	if len(changes) == 0 {
		b.WriteString("nothing to write\n")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// reviewItem is one item of jig review --json: what it is, its remaining
// hunks with the rules jig proposes for each, and its decision.
type reviewItem struct {
	Key       string       `json:"item"`
	Kind      string       `json:"kind"`
	Severity  string       `json:"severity"`
	Title     string       `json:"title"`
	Why       string       `json:"why"`
	Status    string       `json:"status"`
	Scenarios []string     `json:"scenarios"`
	Files     []string     `json:"files"`
	Hunks     []reviewHunk `json:"hunks"`
}

type reviewHunk struct {
	fixture.Hunk
	Proposals []fixture.Proposal `json:"proposals"`
}

type reviewChange struct {
	File   string   `json:"file"`
	Delete bool     `json:"delete,omitempty"`
	What   []string `json:"what"`
}

// reviewItems are the review's items as --json prints them.
func reviewItems(rv *fixture.Review) []reviewItem {
	out := []reviewItem{}
	for _, it := range rv.Items {
		ji := reviewItem{Key: it.Key, Kind: it.Kind, Severity: it.Severity.String(), Title: it.Title, Why: it.Why, Status: it.Status(), Hunks: []reviewHunk{}}
		for _, i := range it.Entries {
			ji.Scenarios = append(ji.Scenarios, rv.Entries[i].Scenario)
			ji.Files = append(ji.Files, rv.Entries[i].File)
		}
		for _, h := range rv.Hunks(it) {
			ps := fixture.Propose(h, "")
			if ps == nil {
				ps = []fixture.Proposal{}
			}
			ji.Hunks = append(ji.Hunks, reviewHunk{Hunk: h, Proposals: ps})
		}
		out = append(out, ji)
	}
	return out
}

// writeReviewJSON prints the review for scripts: every item, the
// decisions, and what was (or would be) written.
func writeReviewJSON(st *streams, rv *fixture.Review, red *fixture.Redactor, changes []fixture.Change, written []string, dryRun, withUnused bool, unused []unusedFixture, code worstCode) error {
	type unusedJSON struct {
		File string `json:"file"`
		Why  string `json:"why"`
		Next string `json:"next"`
	}
	out := struct {
		Items     []reviewItem      `json:"items"`
		Decisions fixture.Decisions `json:"decisions"`
		Changes   []reviewChange    `json:"changes"`
		Written   []string          `json:"written"`
		DryRun    bool              `json:"dry_run,omitempty"`
		Problems  []string          `json:"problems"`
		Unused    any               `json:"unused,omitempty"` // with --fail-on-unused
		Exit      int               `json:"exit"`
	}{Items: reviewItems(rv), Decisions: rv.Decisions(), Changes: []reviewChange{}, Written: written, DryRun: dryRun, Problems: rv.Problems, Exit: int(code)}
	if out.Written == nil {
		out.Written = []string{}
	}
	if out.Problems == nil {
		out.Problems = []string{}
	}
	for _, c := range changes {
		out.Changes = append(out.Changes, reviewChange{File: c.File, Delete: c.Delete, What: c.What})
	}
	if withUnused {
		list := []unusedJSON{}
		for _, u := range unused {
			list = append(list, unusedJSON{u.file, u.why, u.next})
		}
		out.Unused = list
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	st.out.Write(red.Bytes(b.Bytes()))
	return code.err()
}

// reviewer names who accepts drift, for the fixtures' history: $JIG_REVIEWER,
// else git's user.name and user.email, else the login name.
func reviewer() string {
	suffix := " (jig review, jig " + session.Version + ")"
	if r := strings.TrimSpace(os.Getenv("JIG_REVIEWER")); r != "" {
		return r + suffix
	}
	git := func(key string) string {
		out, err := exec.Command("git", "config", "--get", key).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	name, email := git("user.name"), git("user.email")
	switch {
	case name != "" && email != "":
		return name + " <" + email + ">" + suffix
	case name != "" || email != "":
		return name + email + suffix
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username + suffix
	}
	return "unknown" + suffix
}
