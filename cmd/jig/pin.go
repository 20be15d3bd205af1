package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/replay"
)

// pinFlags are call's flags for pinning the call as a golden fixture.
type pinFlags struct {
	file      string
	note      string
	scenario  string
	probe     int
	force     bool
	secretEnv []string
	// append adds the call as the next step of the scenario in file: its
	// steps are replayed first in the same session.
	append   bool
	step     string   // the step's name
	captures []string // NAME=POINTER into this call's result
}

func (p *pinFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&p.file, "pin", "", "save the call and its response as a golden fixture in FILE (replay it with 'jig replay')")
	fl.StringVar(&p.note, "note", "", "with --pin: what the fixture protects, for reviewers")
	fl.StringVar(&p.scenario, "scenario", "", "with --pin: the scenario name (default: the file name)")
	fl.IntVar(&p.probe, "probe", -1, "with --pin: make the identical call N more times, each in a fresh session, and mark the values that differ as volatile (default: 1 for read-only tools, else 0)")
	fl.BoolVar(&p.force, "force", false, "with --pin: overwrite an existing fixture")
	fl.StringArrayVar(&p.secretEnv, "secret-env", nil, "with --pin: redact the value of environment variable NAME wherever it appears; an argument holding it is re-filled from $NAME at replay (repeatable)")
	fl.BoolVar(&p.append, "append", false, "with --pin FILE: add the call as the next step of that scenario; its steps are replayed first, in the same session, and {{NAME}} in --args is what they captured")
	fl.StringVar(&p.step, "step", "", "with --pin: the name of this step in the scenario")
	fl.StringArrayVar(&p.captures, "capture", nil, "with --pin: NAME=POINTER, a value of this call's result a later step can use as {{NAME}} (e.g. id=/structuredContent/id; repeatable)")
}

// check runs before connecting: a pin that cannot be saved should not cost a call.
func (p *pinFlags) check() error {
	if p.file == "" {
		given := []struct {
			name string
			set  bool
		}{{"note", p.note != ""}, {"scenario", p.scenario != ""}, {"probe", p.probe != -1}, {"force", p.force},
			{"secret-env", len(p.secretEnv) > 0}, {"append", p.append}, {"step", p.step != ""}, {"capture", len(p.captures) > 0}}
		for _, g := range given {
			if g.set {
				return usageErr("--%s only applies with --pin FILE", g.name)
			}
		}
		return nil
	}
	if fi, err := os.Stat(p.file); err == nil && fi.IsDir() {
		return checkOutput("--pin", p.file, spaced("--pin"), "call.json", false, false)
	}
	_, err := os.Stat(p.file)
	switch {
	case p.append && err != nil:
		return usageErr("--pin %s --append: there is no such fixture to append to; pin its first call without --append", p.file)
	case p.append && p.force:
		return usageErr("--append and --force: --append rewrites the scenario with its new step; --force would replace it")
	case !p.append && !p.force && err == nil:
		return usageErr("--pin %s: the fixture exists; pass --append to add this call as its next step, --force to overwrite it, or pick another file", p.file)
	}
	if _, err := p.captureList(); err != nil {
		return err
	}
	_, err = secretEnv(p.secretEnv)
	return err
}

// captureList parses --capture NAME=POINTER.
func (p *pinFlags) captureList() ([]fixture.Capture, error) {
	var out []fixture.Capture
	for _, c := range p.captures {
		name, ptr, ok := strings.Cut(c, "=")
		if !ok || name == "" || !strings.HasPrefix(ptr, "/") {
			return nil, usageErr("--capture %q: expected NAME=POINTER into the result, e.g. id=/structuredContent/id", c)
		}
		out = append(out, fixture.Capture{Name: name, Path: ptr})
	}
	return out, nil
}

// pinOptions are the options every pin of this command shares.
func (p *pinFlags) pinOptions(st *streams, s *session.Session, opts session.Options, tool json.RawMessage, o *callOptions) (replay.PinOptions, error) {
	red, err := runRedactor(st, p.secretEnv)
	if err != nil {
		return replay.PinOptions{}, err
	}
	scenario := p.scenario
	if scenario == "" {
		scenario = strings.TrimSuffix(filepath.Base(p.file), filepath.Ext(p.file))
	}
	info := s.Info()
	// The probe replays the fixture being built, whose target holds a
	// literal secret redacted: it runs against the target as this command
	// line gave it, values and all, as the call itself did.
	ropts := replay.Options{Capabilities: info.ClientCapabilities, Grace: o.target.grace, Timeout: o.target.timeout, Redactor: red,
		Override: &replay.Override{Target: opts.Target, DirSet: true}}
	return replay.PinOptions{
		Scenario: scenario,
		Note:     p.note,
		Target:   opts.Target,
		Tool:     tool,
		Elicit:   opts.ElicitScript,
		Sample:   opts.SampleScript,
		Probe:    p.probe,
		Redactor: red,
		Vars:     s.Vars(),
		Fresh:    replay.FreshProbe(ropts),
	}, nil
}

// pin builds the fixture for the exchange, shows the reviewer its rules and
// assertions, and saves it.
func (p *pinFlags) pin(ctx context.Context, st *streams, s *session.Session, opts session.Options, tool json.RawMessage, ex *session.Exchange, o *callOptions) error {
	popts, err := p.pinOptions(st, s, opts, tool, o)
	if err != nil {
		return err
	}
	caps, err := p.captureList()
	if err != nil {
		return err
	}
	f, err := replay.Pin(ctx, s, ex, popts)
	if err != nil {
		return err
	}
	if len(caps) > 0 || p.step != "" {
		calls := f.Calls()
		calls[0].Captures, calls[0].Name = caps, p.step
		f.SetCalls(calls)
		if _, err := f.PinnedCaptures(); err != nil {
			return usageErr("--capture: %v", err)
		}
	}
	replay.Describe(st.err, f)
	if !p.force {
		if _, err := os.Stat(p.file); err == nil {
			return usageErr("--pin %s: the fixture appeared while calling; pass --force to overwrite it", p.file)
		}
	}
	return p.save(st, f, "pinned")
}

func (p *pinFlags) save(st *streams, f *fixture.Fixture, verb string) error {
	if dir := filepath.Dir(p.file); dir != "." {
		if err := frames.MkdirPrivate(dir); err != nil {
			return usageErr("--pin %s: %v", p.file, err)
		}
	}
	if dir := filepath.Dir(p.file); dir != "." {
		if err := frames.MkdirPrivate(dir); err != nil {
			return usageErr("--pin %s: %v", p.file, err)
		}
	}
	if err := f.Save(p.file); err != nil {
		var fe *fixture.FileError
		if errors.As(err, &fe) {
			return &session.UsageError{Err: err}
		}
		return usageErr("--pin %s: %v", p.file, err)
	}
	fmt.Fprintf(st.err, "%s %s (scenario %q, %d step(s)); %s\n", verb, p.file, f.Scenario, len(f.Calls()), replay.AdviseReplay(p.file, f).Line())
	return nil
}

// captureRef is a captured value in --args when appending: {{NAME}}.
var captureRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}`) })

// runAppend pins a call as the next step of an existing scenario: it opens
// a session the way the scenario was pinned (its own target unless one is
// given), replays its steps, which must not drift, makes the call with
// {{NAME}} replaced by what they captured, and saves the scenario with the
// new step, every step's response from this one session.
func runAppend(ctx context.Context, o *callOptions, st *streams, argv json.RawMessage) error {
	p := &o.pin
	if err := o.frames.check(); err != nil {
		return err
	}
	f, err := fixture.Load(p.file)
	if err != nil {
		return &session.UsageError{Err: err}
	}
	red, err := runRedactor(st, p.secretEnv)
	if err != nil {
		return err
	}
	opts, err := o.appendSession(f)
	if err != nil {
		return err
	}
	if err := o.appendAnswers(&opts, f); err != nil {
		return err
	}
	st.knowSecrets(opts.Target)
	opts.Redact = st.redact
	vars, removeScratch, err := session.Scratch(opts.Target)
	if err != nil {
		return err
	}
	defer removeScratch()
	opts.Vars = vars
	stopRecording, err := o.target.startRecording(st, opts, o.tool)
	if err != nil {
		return err
	}
	defer stopRecording()
	cctx, cancel := session.WithTimeout(ctx, o.target.timeout)
	defer cancel()
	if opts.Auth != nil {
		opts.Auth.OnEvent = printEvents(st.err)
	}
	// --frames shows this session like any call's: the replayed steps, the
	// call, also when it failed (withSession's contract).
	s, err := session.Open(cctx, opts)
	if err != nil {
		if ferr := o.frames.write(st, opts.Log, nil); ferr != nil {
			fmt.Fprintln(st.err, "jig:", ferr)
		}
		return err
	}
	info := s.Info()
	err = o.appendStep(ctx, st, s, f, argv, red, opts)
	s.Close()
	warnWithheld(st.err, opts.Log, err)
	if ferr := o.frames.write(st, opts.Log, &info); ferr != nil && err == nil {
		err = ferr
	}
	return err
}

// appendStep replays the scenario's steps on s, makes the call and saves the
// scenario with it as the next step, each request on its own --timeout
// clock (the connection's is runAppend's).
func (o *callOptions) appendStep(ctx context.Context, st *streams, s *session.Session, f *fixture.Fixture, argv json.RawMessage, red *fixture.Redactor, opts session.Options) error {
	p := &o.pin
	out, captured, err := o.replaySteps(ctx, st, s, f, red, opts)
	if err != nil {
		return err
	}
	args, uses, err := fillCaptures(argv, captured)
	if err != nil {
		return err
	}
	// Listed first, as jig call lists them: the arguments are checked
	// against the schema, and a name the server does not list is named.
	lctx, lcancel := session.WithTimeout(ctx, o.target.timeout)
	defer lcancel()
	rawTools, typed, lerr := s.ListTools(lctx)
	if lerr != nil {
		return lerr
	}
	unlisted := o.checkTool(st, s, typed, args)
	// Like jig call, the call has its own --timeout, not what the
	// connection and the replayed steps left of it.
	cctx, cancel := session.WithTimeout(ctx, o.target.timeout)
	defer cancel()
	ex, callErr := callWith(cctx, st, s, o.tool, args, o.progress, 0)
	if refused := o.appendRefused(st, s, unlisted, ex, callErr); refused != nil {
		return refused
	}
	popts, err := p.pinOptions(st, s, opts, replay.FindTool(rawTools, o.tool), o)
	if err != nil {
		return err
	}
	popts.Scenario = f.Scenario
	caps, _ := p.captureList()
	// The probe must see what a replay will see: a fresh session that
	// replays the scenario's earlier steps (its setup) before this call,
	// not this call alone on an empty server.
	fresh := popts.Fresh
	popts.Fresh = func(ctx context.Context, one *fixture.Fixture) (fixture.Actual, error) {
		step := one.Calls()[0]
		step.Name, step.Captures, step.Uses = p.step, caps, uses
		return fresh(ctx, appended(f, out, step, one))
	}
	next, err := replay.Pin(lctx, s, ex, popts)
	if err != nil {
		return err
	}
	step := next.Calls()[0]
	step.Name, step.Captures, step.Uses = p.step, caps, uses
	nf := appended(f, out, step, next)
	replay.Describe(st.err, nf)
	if err := p.save(st, nf, "appended a step to"); err != nil {
		return err
	}
	return o.report(st, ex, callErr)
}

// replaySteps replays the scenario's steps before a step is appended to
// it: an error, or drift (shown), refuses the append.
func (o *callOptions) replaySteps(ctx context.Context, st *streams, s *session.Session, f *fixture.Fixture, red *fixture.Redactor, opts session.Options) (replay.Outcome, map[string]json.RawMessage, error) {
	c := replay.Case{Path: o.pin.file, Fixture: f}
	out, captured := replay.OnSession(ctx, s, c, replay.Options{Timeout: o.target.timeout, Redactor: red,
		Override: &replay.Override{Target: opts.Target, DirSet: true}})
	if out.Err != nil {
		return out, nil, fmt.Errorf("replaying the steps of %s before appending: %w", o.pin.file, out.Err)
	}
	if out.Drifted() {
		fixture.NewRun([]fixture.Report{out.Report}).WriteText(st.err, false, red)
		return out, nil, usageErr("--append: the steps of %s drift when replayed (above); fix or update the scenario before adding a step to it", o.pin.file)
	}
	return out, captured, nil
}

// appendRefused is why the call just made is not appended, as jig call
// --pin would refuse to pin it: a transport failure, jig's script having
// failed the server's question, or a tool the server does not list. Nil
// when it may be appended.
func (o *callOptions) appendRefused(st *streams, s *session.Session, unlisted string, ex *session.Exchange, callErr error) error {
	var rpc *session.RPCError
	if callErr != nil && !errors.As(callErr, &rpc) {
		return callErr
	}
	if failed := s.ScriptFailures(); len(failed) > 0 {
		return o.scriptFailed(st, failed, ex, callErr)
	}
	if unlisted != "" {
		fmt.Fprintf(st.err, "jig: nothing appended to %s: the server lists no tool named %q%s; check the name with jig tools\n", o.pin.file, o.tool, unlisted)
		_ = o.report(st, ex, callErr)
		return &exitError{code: exitUsage}
	}
	return nil
}

// appendAnswers gives an append's session the scenario's own answers for
// the steps it replays first, then --elicit's and --sample's for the new
// call: the appended fixture keeps them in that order, so a replay answers
// every step as it was answered here.
func (o *callOptions) appendAnswers(opts *session.Options, f *fixture.Fixture) error {
	if opts.ElicitScript == nil && opts.SampleScript == nil {
		// The scenario's own target: the flags were not read with it.
		if err := o.target.scripts(opts); err != nil {
			return err
		}
	}
	var own fixture.Answers
	if f.Answers != nil {
		own = *f.Answers
	}
	elicit, err := session.ScriptFromJSON(own.Elicit, o.pin.file+": answers.elicit")
	if err == nil {
		elicit, err = session.Concat(elicit, opts.ElicitScript)
	}
	if err != nil {
		return usageErr("--append: %v", err)
	}
	sample, err := session.ScriptFromJSON(own.Sample, o.pin.file+": answers.sample")
	if err == nil {
		sample, err = session.Concat(sample, opts.SampleScript)
	}
	if err != nil {
		return usageErr("--append: %v", err)
	}
	if elicit != nil {
		opts.Elicit, opts.ElicitScript = elicit.Elicit, elicit
	}
	if sample != nil {
		opts.Sampling, opts.SampleScript = sample.Sample, sample
	}
	return nil
}

// appendSession opens the session of an append like the scenario's own:
// its target, protocol version, capabilities and roots, unless the command
// line gives them.
func (o *callOptions) appendSession(f *fixture.Fixture) (session.Options, error) {
	p := &o.pin
	if len(o.command) > 0 || o.target.demo || o.target.url != "" || o.target.config != "" {
		return o.target.options(o.command)
	}
	t := session.Target{Transport: session.Transport(f.Target.Transport), Command: f.Target.Command, Dir: f.Target.Dir,
		URL: f.Target.URL, Headers: copyStrings(f.Target.Headers), Env: copyStrings(f.Target.Env), Release: f.Target.Release}
	// --env and --header give what the fixture could not keep (a literal
	// secret it holds redacted); a server is never started with the
	// placeholder in its place.
	if err := o.target.addHeaders(&t); err != nil {
		return session.Options{}, err
	}
	for _, e := range o.target.env {
		k, v, ok := strings.Cut(e, "=")
		if !ok || k == "" {
			return session.Options{}, usageErr("--env %q: expected K=V", e)
		}
		if t.Env == nil {
			t.Env = map[string]string{}
		}
		t.Env[k] = v
	}
	probe := *f
	probe.Target.Env, probe.Target.Headers = t.Env, t.Headers
	for _, g := range probe.Gaps() {
		if g.Flag == "--env" || g.Flag == "--header" {
			give := g.Name + "=…"
			if g.Flag == "--header" {
				give = g.Name + ": …"
			}
			return session.Options{}, usageErr("--append: %s's %s was redacted when pinned: give it with %s '%s', or write a reference like \"$%s\" in its place",
				p.file, g.Field, g.Flag, give, strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(g.Name)))
		}
	}
	if field, msg := replay.UnsentPlaceholder(t); field != "" {
		return session.Options{}, usageErr("--append: %s's %s %s", p.file, field, msg)
	}
	so := session.Options{Target: t, ProtocolVersion: f.ProtocolVersion, Grace: o.target.grace,
		Capabilities: o.target.capabilities, Log: frames.NewLog(nil)}
	if f.Session != nil {
		so.Capabilities = f.Session.Capabilities
		for _, r := range f.Session.Roots {
			so.Roots = append(so.Roots, session.Root{URI: r})
		}
	}
	return so, nil
}

// fillCaptures replaces {{NAME}} in the arguments with the values the
// scenario's steps captured, and returns the uses that re-fill them at
// replay.
func fillCaptures(argv json.RawMessage, captured fixture.Captured) (json.RawMessage, []fixture.Use, error) {
	if !captureRef().Match(argv) {
		return argv, nil, nil
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(argv))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, usageErr("--args: %v", err)
	}
	var uses []fixture.Use
	var missing error
	var fill func(v any, path string) any
	fill = func(v any, path string) any {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				x[k] = fill(c, path+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(k))
			}
		case []any:
			for i, c := range x {
				x[i] = fill(c, fmt.Sprintf("%s/%d", path, i))
			}
		case string:
			m := captureRef().FindStringSubmatch(x)
			if m == nil {
				return x
			}
			val, ok := captured[m[1]]
			if !ok {
				missing = usageErr("--args: {{%s}} is not captured by the scenario's steps (add --capture %s=POINTER when pinning the step that returns it)", m[1], m[1])
				return x
			}
			uses = append(uses, fixture.Use{Path: "/arguments" + path, Capture: m[1]})
			if x == m[0] {
				var whole any
				d := json.NewDecoder(bytes.NewReader(val))
				d.UseNumber()
				_ = d.Decode(&whole)
				return whole
			}
			var s string
			if json.Unmarshal(val, &s) != nil {
				s = string(val)
			}
			return strings.ReplaceAll(x, m[0], s)
		}
		return v
	}
	doc = fill(doc, "")
	if missing != nil {
		return nil, nil, missing
	}
	out, err := json.Marshal(doc)
	return out, uses, err
}

// appended is the scenario f with step added after its steps. Every step's
// response becomes the one this session gave (they did not drift), so the
// scenario's pinned responses and captured values come from one session.
func appended(f *fixture.Fixture, out replay.Outcome, step fixture.Step, next *fixture.Fixture) *fixture.Fixture {
	calls := f.Calls()
	for i := range calls {
		if i < len(out.Steps) {
			calls[i].Response = fixture.Response{Result: out.Steps[i].Result, Error: out.Steps[i].Error}
		}
	}
	calls = append(calls, step)
	nf := *f
	if next.Answers != nil {
		// The session's script: the scenario's answers, then the new call's.
		nf.Answers = next.Answers
	}
	nf.SetCalls(calls)
	if len(nf.Steps) == 0 { // a single call and nothing to link: keep it a step list
		nf.Steps, nf.Tool, nf.Request, nf.Response, nf.Rules, nf.Assertions = calls, nil, fixture.Request{}, fixture.Response{}, nil, nil
	}
	prefix := fmt.Sprintf("/steps/%d", len(calls)-1)
	for _, r := range next.Redactions {
		if strings.HasPrefix(r.Path, "/request") || strings.HasPrefix(r.Path, "/response") || strings.HasPrefix(r.Path, "/tool") {
			r.Path = prefix + r.Path
		}
		nf.Redactions = append(nf.Redactions, r)
	}
	return &nf
}

func copyStrings(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
