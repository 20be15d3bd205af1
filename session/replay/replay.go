// Package replay runs golden fixtures against live servers: it re-issues each
// pinned request exactly, compares the response with frames/fixture, and can
// accept a reviewed drift. Pin builds a fixture from a live exchange; the CLI
// (jig call --pin) and the TUI share it.
//
// Each fixture replays in a fresh session of its own (its own process, for a
// stdio target), opened the way it was pinned: the capabilities, roots,
// protocol version, environment and working directory it recorded. Fixtures
// run in parallel across sessions, up to a bound. A scenario's steps run in
// order in their one session. Sharing one session per target, with calls
// pipelined, is an opt-in for servers known to be stateless (Options.Reuse).
package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/oauth"
)

// A Case is one fixture and the file it came from.
type Case struct {
	Path    string
	Fixture *fixture.Fixture
}

// Load loads path (a fixture file, or every *.json file directly in a
// directory, sorted by name) and returns the cases that loaded and one error
// per file that did not. Errors name the file. In a directory, reports jig
// wrote are skipped, and so are the files in skip (the reports this run is
// about to write).
func Load(path string, skip ...string) ([]Case, []error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, []error{&fixture.FileError{File: path, Msg: "cannot be read: " + pathErr(err), Kind: fixture.ErrInvalid}}
	}
	files := []string{path}
	if st.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*.json"))
		sort.Strings(files)
		files = without(files, skip)
		if len(files) == 0 {
			return nil, []error{&fixture.FileError{File: path, Msg: "holds no *.json fixtures (pin one with 'jig call TOOL --pin FILE')", Kind: fixture.ErrInvalid}}
		}
	}
	var cases []Case
	var errs []error
	for _, file := range files {
		f, err := fixture.Load(file)
		if errors.Is(err, fixture.ErrReport) && st.IsDir() {
			continue
		}
		if err != nil {
			var fe *fixture.FileError
			if !errors.As(err, &fe) {
				err = &fixture.FileError{File: filepath.Base(file), Msg: pathErr(err), Kind: fixture.ErrInvalid}
			}
			errs = append(errs, err)
			continue
		}
		cases = append(cases, Case{Path: file, Fixture: f})
	}
	return cases, errs
}

// without drops the files that are the same file as one in skip.
func without(files, skip []string) []string {
	if len(skip) == 0 {
		return files
	}
	var skipped []os.FileInfo
	for _, s := range skip {
		if st, err := os.Stat(s); err == nil {
			skipped = append(skipped, st)
		}
	}
	out := files[:0]
	for _, f := range files {
		st, err := os.Stat(f)
		same := false
		for _, s := range skipped {
			same = same || (err == nil && os.SameFile(st, s))
		}
		if !same {
			out = append(out, f)
		}
	}
	return out
}

func pathErr(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Options configure a replay.
type Options struct {
	// Auth is how a fixture's Streamable HTTP server is authorized when it
	// asks: stored credentials only (a replay never starts a login) or
	// client credentials. Nil: a 401 fails the fixture.
	Auth *oauth.Options
	// Override is the target the command line gave, if any: it replaces
	// only what it names of each fixture's target (see Override.Apply).
	Override *Override
	// ProtocolVersion, when set, replaces every fixture's pinned version;
	// "auto" replaces it with what the server speaks.
	ProtocolVersion string
	// Capabilities are declared for fixtures that recorded none (format 1),
	// and for every fixture when CapabilitiesSet (the command line named
	// them). Roots likewise, with RootsSet.
	Capabilities    []string
	CapabilitiesSet bool
	Roots           []session.Root
	RootsSet        bool
	Grace           time.Duration
	Timeout         time.Duration // to connect, and for each call; 30 s when 0
	// Parallel is how many sessions run at once; 4 when 0.
	Parallel int
	// Reuse shares one session per target (and protocol, capabilities and
	// roots) among its fixtures, with InFlight calls pipelined (8 when 0):
	// faster, and right only for servers known to be stateless.
	Reuse    bool
	InFlight int
	// Redactor holds the run's secrets (--secret-env, the environment's
	// secret-looking variables); Run adds each fixture's target secrets and
	// the variables its secret references name. Every response is redacted
	// with it before it is compared, reported or saved.
	Redactor *fixture.Redactor
	// Getenv resolves secret references in requests; os.LookupEnv when nil.
	Getenv func(string) (string, bool)
	// Record, when set, is called before each session opens, with the
	// session's options (its Log), and returns a function that ends the
	// recording. name says which fixture (or target) the session is for.
	Record func(name string, opts session.Options) (stop func(), err error)
}

// An Outcome is what replaying one case gave.
type Outcome struct {
	Case
	// Report is the comparison; valid only when Err is nil.
	Report fixture.Report
	// Steps are the actual responses, step by step, redacted.
	Steps []fixture.Actual
	// ActualTool, Result and Error are the last step's (see Steps).
	ActualTool    json.RawMessage
	Result, Error json.RawMessage
	// Target is what the case was replayed against (references unexpanded);
	// Info is what that session's handshake established.
	Target session.Target
	Info   session.Info
	// Err is why the case could not be compared: a *fixture.FileError for a
	// fixture jig cannot replay, a *session.UsageError, or a
	// *session.ConnectError when the target was unreachable.
	Err error
}

// Drifted reports whether the outcome differs beyond cosmetics.
func (o Outcome) Drifted() bool {
	return o.Err == nil && (o.Report.Worst() >= fixture.Warn || o.Report.AssertionFailures > 0 || o.Report.Obsolete)
}

// Run replays every case and returns one outcome per case, in order.
func Run(ctx context.Context, cases []Case, opts Options) []Outcome {
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.Parallel <= 0 {
		opts.Parallel = 4
	}
	if opts.InFlight <= 0 {
		opts.InFlight = 8
	}
	if opts.Getenv == nil {
		opts.Getenv = os.LookupEnv
	}
	if opts.Redactor == nil {
		opts.Redactor = fixture.NewRedactor()
	}
	out := make([]Outcome, len(cases))
	seen := map[string]bool{} // targets whose secrets the redactor has
	for i, c := range cases {
		out[i].Case = c
		out[i].Target, out[i].Err = caseTarget(c, opts.Override)
		if k := string(out[i].Target.JSON()); !seen[k] {
			seen[k] = true
			opts.Redactor.Add(fixture.Values(out[i].Target.Secrets()...)...)
		}
		for _, name := range c.Fixture.SecretRefs() {
			if v, ok := opts.Getenv(name); ok {
				opts.Redactor.Add(fixture.Secret{Value: v, Env: name})
			}
		}
	}
	if opts.Reuse {
		runShared(ctx, out, opts)
		return out
	}
	sem := make(chan struct{}, opts.Parallel)
	var wg, closing sync.WaitGroup
	for i := range out {
		if out[i].Err != nil {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			o := &out[i]
			s, done, err := openFor(ctx, o.Target, o.Fixture, o.Fixture.Scenario, o.Path, opts)
			if err != nil {
				o.Err = err
				return
			}
			o.Info = s.Info()
			tools, err := toolsFor(ctx, s, []*Outcome{o}, opts.Timeout)
			if err == nil {
				err = runSteps(ctx, s, tools, o, done.vars, opts)
			}
			if err != nil {
				o.Err = err
			}
			// Closing waits for a lingering server; it need not hold a slot.
			closing.Add(1)
			go func() { defer closing.Done(); done.close() }()
		}()
	}
	wg.Wait()
	closing.Wait()
	return out
}

// An opened session's cleanup: close it, end its recording, remove its
// scratch directory — in that order.
type opened struct {
	vars  map[string]string
	close func()
}

// openFor opens a session to target the way fixture f was pinned.
func openFor(ctx context.Context, target session.Target, f *fixture.Fixture, name, path string, opts Options) (*session.Session, opened, error) {
	so := sessionOptions(target, f, opts)
	if err := scriptedAnswers(&so, f, path); err != nil {
		return nil, opened{}, err
	}
	vars, remove, err := session.Scratch(target)
	if err != nil {
		return nil, opened{}, fmt.Errorf("creating the scratch directory: %w", err)
	}
	so.Vars = vars
	stopRecording := func() {}
	if opts.Record != nil {
		stop, err := opts.Record(name, so)
		if err != nil {
			remove()
			return nil, opened{}, err
		}
		stopRecording = stop
	}
	cctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	s, err := session.Open(cctx, so)
	cancel()
	if err != nil {
		stopRecording()
		remove()
		return nil, opened{}, err
	}
	return s, opened{vars: vars, close: func() { s.Close(); stopRecording(); remove() }}, nil
}

// sessionOptions are the options of a session that replays f: what it was
// pinned with, unless the command line says otherwise.
func sessionOptions(target session.Target, f *fixture.Fixture, opts Options) session.Options {
	so := session.Options{Target: target, ProtocolVersion: f.ProtocolVersion, Grace: opts.Grace,
		Capabilities: opts.Capabilities, Roots: opts.Roots, Log: frames.NewLog(nil), Redact: opts.Redactor.Base(),
		VersionFrom: "the fixture (pinned with it; --protocol-version overrides it)"}
	if opts.ProtocolVersion != "" {
		so.ProtocolVersion, so.VersionFrom = opts.ProtocolVersion, ""
	}
	if opts.Auth != nil && target.Transport == session.TransportStreamable {
		a := *opts.Auth
		if a.Mode != oauth.ClientCredentials {
			a.Mode = oauth.StoredOnly
		}
		so.Auth = &a
	}
	if f.Session != nil {
		if !opts.CapabilitiesSet {
			so.Capabilities = f.Session.Capabilities
		}
		if !opts.RootsSet {
			so.Roots = nil
			for _, r := range f.Session.Roots {
				so.Roots = append(so.Roots, session.Root{URI: r, Name: rootName(r)})
			}
		}
	}
	return so
}

// scriptedAnswers gives the session the answers the fixture was pinned
// with, so the server's requests for input are answered as they were.
func scriptedAnswers(o *session.Options, f *fixture.Fixture, name string) error {
	a := f.Answers
	if a == nil {
		return nil
	}
	elicit, err := session.ScriptFromJSON(a.Elicit, name+": answers.elicit")
	if err != nil {
		return &session.UsageError{Err: err}
	}
	sample, err := session.ScriptFromJSON(a.Sample, name+": answers.sample")
	if err != nil {
		return &session.UsageError{Err: err}
	}
	if elicit != nil {
		o.Elicit, o.ElicitScript = elicit.Elicit, elicit
	}
	if sample != nil {
		o.Sampling, o.SampleScript = sample.Sample, sample
	}
	return nil
}

func rootName(uri string) string {
	return filepath.Base(strings.TrimRight(strings.TrimPrefix(uri, "file://"), "/"))
}

// runShared replays the cases with one session per target (Options.Reuse).
func runShared(ctx context.Context, out []Outcome, opts Options) {
	type group struct{ idx []int }
	groups := map[string]*group{}
	var order []string
	for i, o := range out {
		if o.Err != nil {
			continue
		}
		so := sessionOptions(o.Target, o.Fixture, opts)
		// Scripted answers are the session's: fixtures share a session only
		// if they answer the server alike.
		k, _ := json.Marshal([]any{o.Target, so.ProtocolVersion, so.Capabilities, so.Roots, o.Fixture.Answers})
		g, ok := groups[string(k)]
		if !ok {
			g = &group{}
			groups[string(k)] = g
			order = append(order, string(k))
		}
		g.idx = append(g.idx, i)
	}
	sem := make(chan struct{}, opts.Parallel)
	var wg sync.WaitGroup
	for _, key := range order {
		g := groups[key]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			first := &out[g.idx[0]]
			fail := func(err error) {
				for _, i := range g.idx {
					out[i].Err = err
				}
			}
			s, done, err := openFor(ctx, first.Target, first.Fixture, first.Target.String(), first.Path, opts)
			if err != nil {
				fail(err)
				return
			}
			defer done.close()
			var os []*Outcome
			for _, i := range g.idx {
				os = append(os, &out[i])
			}
			tools, err := toolsFor(ctx, s, os, opts.Timeout)
			if err != nil {
				fail(err)
				return
			}
			calls := make(chan struct{}, opts.InFlight)
			var cw sync.WaitGroup
			for _, o := range os {
				o.Info = s.Info()
				cw.Add(1)
				calls <- struct{}{}
				go func() {
					defer func() { <-calls; cw.Done() }()
					if err := runSteps(ctx, s, tools, o, done.vars, opts); err != nil {
						o.Err = err
					}
				}()
			}
			cw.Wait()
		}()
	}
	wg.Wait()
}

// toolsFor lists the tools once per session when any of its cases calls a
// tool, keyed by name. A server that has no tools capability answers with an
// error: definitions are then not compared (nil map), which is not a reason
// to fail the replay.
func toolsFor(ctx context.Context, s *session.Session, cases []*Outcome, timeout time.Duration) (map[string]json.RawMessage, error) {
	need := false
	for _, o := range cases {
		for _, step := range o.Fixture.Calls() {
			need = need || step.Request.Method == "tools/call"
		}
	}
	if !need {
		return nil, nil
	}
	lctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	raw, _, err := s.ListTools(lctx)
	var rpc *session.RPCError
	if errors.As(err, &rpc) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	tools := make(map[string]json.RawMessage, len(raw))
	for _, t := range raw {
		var d struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &d) == nil {
			tools[d.Name] = t
		}
	}
	return tools, nil
}

// runSteps replays a case's steps in order on s and compares each. It
// returns an error when the case cannot be compared at all.
func runSteps(ctx context.Context, s *session.Session, tools map[string]json.RawMessage, o *Outcome, vars map[string]string, opts Options) error {
	_, err := stepsOn(ctx, s, tools, o, vars, opts)
	return err
}

// stepsOn is runSteps, returning the values the steps captured too, as the
// server sent them.
func stepsOn(ctx context.Context, s *session.Session, tools map[string]json.RawMessage, o *Outcome, vars map[string]string, opts Options) (fixture.Captured, error) {
	f := o.Fixture
	red := opts.Redactor
	calls := f.Calls()
	pinned, err := f.PinnedCaptures()
	if err != nil {
		return nil, fileError(o.Case, err)
	}
	nowRaw, nowRed := fixture.Captured{}, fixture.Captured{}
	rep := fixture.Report{Scenario: f.Scenario, File: o.Path, FixtureSHA256: f.SHA256(), Method: f.Method(), Tool: f.ToolName()}
	for i, step := range calls {
		params, err := fixture.ResolveRequest(f, i, pinned, nowRaw, opts.Getenv)
		if err != nil {
			return nil, fileError(o.Case, err)
		}
		cctx, cancel := context.WithTimeout(ctx, opts.Timeout)
		progress := progressToken(step.Request.Params)
		failed := s.ScriptFailures()
		ex, err := send(cctx, s, o.Case, step.Request.Method, params, progress)
		cancel()
		for _, nf := range newFailures(failed, s.ScriptFailures()) {
			if len(calls) > 1 {
				nf = f.Label(i) + ": " + nf
			}
			rep.ScriptFailures = append(rep.ScriptFailures, nf)
		}
		var rpc *session.RPCError
		if err != nil && !errors.As(err, &rpc) {
			if len(calls) > 1 {
				return nil, fmt.Errorf("%s (%s): %w", f.Label(i), step.Request.Method, err)
			}
			return nil, err
		}
		if ex == nil {
			return nil, fmt.Errorf("%s: no response was recorded", step.Request.Method)
		}
		act := fixture.Actual{
			Result: red.JSON(unscratch(ex.Result, vars)),
			Error:  red.JSON(unscratch(ex.Error, vars)),
			Input:  inputOf(s, ex, vars, red, progress, !opts.Reuse),
		}
		if name := step.ToolName(); name != "" && tools != nil {
			act.Tool = json.RawMessage("null")
			if t, ok := tools[name]; ok {
				act.Tool = red.JSON(t)
			}
		}
		capsRaw, capErr := fixture.CaptureValues(step, ex.Result, ex.Error)
		capsRed, _ := fixture.CaptureValues(step, act.Result, act.Error)
		for k, v := range capsRaw {
			nowRaw[k] = v
		}
		for k, v := range capsRed {
			nowRed[k] = v
		}
		act.Substitutions = fixture.Substitutions(pinned, nowRed)
		c := fixture.CompareStep(f, i, act)
		rep.Differences = append(rep.Differences, c.Differences...)
		rep.AssertionFailures += c.AssertionFailures
		if c.Obsolete {
			rep.Obsolete = true
			rep.RenamedTo = renamedTo(step, tools, o)
		}
		sr := fixture.StepResult{Name: step.Name, Method: step.Request.Method, Tool: step.ToolName(),
			Request: red.JSON(params), Pinned: step.Response, Actual: fixture.Response{Result: act.Result, Error: act.Error},
			Check: step.Check, Rules: step.Rules, Assertions: step.Assertions}
		if len(step.Tool) > 0 && len(act.Tool) > 0 && !bytes.Equal(step.Tool, act.Tool) {
			sr.PinnedTool, sr.ActualTool = step.Tool, act.Tool
		}
		if sr.PinnedInput = f.PinnedInput(i); sr.PinnedInput != nil {
			sr.Input = act.Input // what review compares again and accepts
		}
		rep.Steps = append(rep.Steps, sr)
		o.Steps = append(o.Steps, act)
		o.ActualTool, o.Result, o.Error = act.Tool, act.Result, act.Error
		if capErr != nil {
			detail := capErr.Error()
			if i+1 < len(calls) {
				detail += fmt.Sprintf("; the %d later step(s) were not run", len(calls)-i-1)
			}
			rep.Differences = append(rep.Differences, fixture.Difference{Step: i, Path: "", Severity: fixture.Breaking,
				Kind: fixture.KindCapture, Detail: detail})
			break
		}
	}
	rep.MarkKnown(f)
	if own := sessionTarget(f.Target); o.Target.Transport != "" && !sameTarget(own, o.Target) {
		rep.ReplayedAgainst = &fixture.ReplayTarget{Target: fixtureTarget(o.Target.Redacted()), Name: o.Target.Redacted().String(), Own: own.Redacted().String(),
			ServerName: o.Info.ServerName, ServerVersion: o.Info.ServerVersion, ProtocolVersion: o.Info.ProtocolVersion}
	}
	o.Report = rep
	return nowRaw, nil
}

// newFailures are the script failures in after that were not in before
// (a session's failures only grow; counted, as two can read the same).
func newFailures(before, after []string) []string {
	seen := map[string]int{}
	for _, f := range before {
		seen[f]++
	}
	var out []string
	for _, f := range after {
		if seen[f] > 0 {
			seen[f]--
			continue
		}
		out = append(out, f)
	}
	return out
}

// OnSession replays a case's steps on a session that is already open, as
// Run does in a fresh one, and returns the outcome and the values the steps
// captured, as the server sent them (for a step about to be appended).
func OnSession(ctx context.Context, s *session.Session, c Case, opts Options) (Outcome, fixture.Captured) {
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.Getenv == nil {
		opts.Getenv = os.LookupEnv
	}
	if opts.Redactor == nil {
		opts.Redactor = fixture.NewRedactor()
	}
	o := Outcome{Case: c, Info: s.Info()}
	o.Target, o.Err = caseTarget(c, opts.Override)
	if o.Err != nil {
		return o, nil
	}
	tools, err := toolsFor(ctx, s, []*Outcome{&o}, opts.Timeout)
	if err != nil {
		o.Err = err
		return o, nil
	}
	caps, err := stepsOn(ctx, s, tools, &o, s.Vars(), opts)
	o.Err = err
	return o, caps
}

// renamedTo names a newly listed tool that could be the obsolete one renamed.
func renamedTo(step fixture.Step, tools map[string]json.RawMessage, o *Outcome) string {
	listed := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		listed = append(listed, t)
	}
	return fixture.RenameCandidate(step.Tool, listed)
}

// inputOf is what the call of ex was seen to ask of its client: its
// earlier input_required rounds and its flow, redacted like its response.
// own says the session had no other call open meanwhile, so the server's
// requests in between were this call's.
func inputOf(s *session.Session, ex *session.Exchange, vars map[string]string, red *fixture.Redactor, progress, own bool) *fixture.Input {
	in := &fixture.Input{Requests: own, Progress: progress}
	redFlow := func(flow []fixture.FlowMessage) []fixture.FlowMessage {
		for j := range flow {
			flow[j].Message, flow[j].Answer = red.JSON(flow[j].Message), red.JSON(flow[j].Answer)
		}
		return flow
	}
	in.Flow = redFlow(flowOf(s.Log, ex, vars))
	for _, r := range roundsOf(s.Log, ex, vars) {
		r.Request.Params, r.Response.Result, r.Flow = red.JSON(r.Request.Params), red.JSON(r.Response.Result), redFlow(r.Flow)
		in.Rounds = append(in.Rounds, r)
	}
	return in
}

// progressToken reports whether pinned request params asked for progress.
func progressToken(params json.RawMessage) bool {
	_, _, ok := frames.MemberSpan(params, "_meta", "progressToken")
	return ok
}

// send re-issues one request with the given params; progress asks for the
// call's progress, as the pinned request did.
func send(ctx context.Context, s *session.Session, c Case, method string, params json.RawMessage, progress bool) (*session.Exchange, error) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		URI       string          `json:"uri"`
		Cursor    string          `json:"cursor"`
	}
	_ = json.Unmarshal(params, &p)
	switch method {
	case "tools/list", "resources/list", "resources/templates/list", "prompts/list":
		return s.ListPage(ctx, method, p.Cursor) // a pinned page, from its cursor
	case "tools/call":
		if progress {
			return s.CallToolWith(ctx, p.Name, p.Arguments, session.CallOptions{OnProgress: func(session.Progress) {}})
		}
		return s.CallTool(ctx, p.Name, p.Arguments)
	case "resources/read":
		return s.ReadResource(ctx, p.URI)
	case "prompts/get":
		var args map[string]string
		if len(p.Arguments) > 0 && string(p.Arguments) != "null" {
			if json.Unmarshal(p.Arguments, &args) != nil {
				return nil, &fixture.FileError{File: filepath.Base(c.Path), Field: "request.params.arguments",
					Msg: "must be an object of strings for prompts/get", Kind: fixture.ErrInvalid}
			}
		}
		return s.GetPrompt(ctx, p.Name, args)
	}
	return nil, &fixture.FileError{File: filepath.Base(c.Path), Field: "request.method",
		Msg:  fmt.Sprintf("is %q, which jig cannot replay yet (it replays tools/call, resources/read, prompts/get and the pages of tools/list, resources/list, resources/templates/list, prompts/list)", method),
		Kind: fixture.ErrInvalid}
}

// fileError names the fixture file in an error about one of its fields.
func fileError(c Case, err error) error {
	var re *fixture.RequestError
	if errors.As(err, &re) {
		return &fixture.FileError{File: filepath.Base(c.Path), Field: re.Field, Msg: re.Msg, Kind: fixture.ErrInvalid}
	}
	return &fixture.FileError{File: filepath.Base(c.Path), Msg: err.Error(), Kind: fixture.ErrInvalid}
}

// unscratch puts "${JIG_SCRATCH}" where a response names the session's
// scratch directory, which is new in every session.
func unscratch(raw json.RawMessage, vars map[string]string) json.RawMessage {
	dir := vars[session.ScratchVar]
	if dir == "" || len(raw) == 0 || !bytes.Contains(raw, []byte(dir)) {
		return raw
	}
	return bytes.ReplaceAll(raw, []byte(dir), []byte("${"+session.ScratchVar+"}"))
}

// caseTarget is the target a case replays against: its own, with what the
// command line names in its place.
func caseTarget(c Case, ov *Override) (session.Target, error) {
	t, _, _ := ov.Apply(c.Fixture.Target)
	for _, m := range []struct {
		field string
		vals  map[string]string
	}{{"target.headers", t.Headers}, {"target.env", t.Env}} {
		keys := make([]string, 0, len(m.vals))
		for k := range m.vals {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if v := m.vals[k]; strings.Contains(v, "[REDACTED") {
				return session.Target{}, &fixture.FileError{File: filepath.Base(c.Path), Field: m.field + "." + k,
					Msg:  fmt.Sprintf("was redacted when pinned: write a reference like \"$%s\" in its place, or give it on the command line (--env / --header)", envName(k)),
					Kind: fixture.ErrInvalid}
			}
		}
	}
	if field, msg := UnsentPlaceholder(t); field != "" {
		return session.Target{}, &fixture.FileError{File: filepath.Base(c.Path), Field: field, Msg: msg, Kind: fixture.ErrInvalid}
	}
	return t, nil
}

func envName(k string) string {
	return strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(k))
}

// sessionTarget turns a fixture's target back into one jig can connect to.
// Secrets were stored as environment references, which the session expands.
func sessionTarget(ft fixture.Target) session.Target {
	return session.Target{
		Transport: session.Transport(ft.Transport),
		Command:   append([]string(nil), ft.Command...),
		Dir:       ft.Dir,
		URL:       ft.URL,
		Headers:   copyMap(ft.Headers),
		Env:       copyMap(ft.Env),
		Release:   ft.Release,
	}
}

// UpdateOptions say how to accept a drift.
type UpdateOptions struct {
	Reason string
	// Retarget points the fixture at the target it was replayed against
	// (recording it, its server and protocol version, and why in the
	// history); without it, a fixture replayed against another target is
	// not updated.
	Retarget bool
	Redactor *fixture.Redactor
	Now      time.Time
}

// Update accepts a reviewed drift: the outcome's actual responses (and tool
// definitions, where they were compared) become the pinned ones, the reason
// goes into the fixture's history, secrets are redacted again, and the file
// is rewritten. A fixture replayed against a target other than its own is
// retargeted with UpdateOptions.Retarget, and refused without it, so that
// replaying it on its recorded target stays green.
func Update(o Outcome, uo UpdateOptions) error {
	f := o.Fixture
	if len(o.Report.ScriptFailures) > 0 {
		// The actual response answers jig's own error: accepting it would
		// pin jig's failure as the server's expected answer.
		return fmt.Errorf("the fixture's answers could not answer the server (%s): fix its \"answers\" or re-pin it", o.Report.ScriptFailures[0])
	}
	own := sessionTarget(f.Target)
	from := ""
	if !sameTarget(own, o.Target) {
		if !uo.Retarget {
			return fmt.Errorf("it was replayed against %s, not its own target %s: pass --retarget to point it at %s, or replay it against its own target to update it",
				o.Target.Redacted(), own.Redacted(), o.Target.Redacted())
		}
		from = own.Redacted().String()
		f.Target = fixtureTarget(o.Target.Redacted())
		f.Server = fixture.Server{Name: o.Info.ServerName, Version: o.Info.ServerVersion}
		if o.Info.ProtocolVersion != "" {
			f.ProtocolVersion = o.Info.ProtocolVersion
		}
	}
	red := uo.Redactor
	if red == nil {
		red = fixture.NewRedactor()
	}
	red.Add(fixture.Values(o.Target.Secrets()...)...)
	fixture.AcceptSteps(f, o.Steps, uo.Reason, "jig "+session.Version, uo.Now, red)
	f.History[len(f.History)-1].RetargetedFrom = from
	return f.Save(o.Path)
}

// sameTarget compares two targets as a fixture stores them.
func sameTarget(a, b session.Target) bool {
	ja, _ := json.Marshal(fixtureTarget(a.Redacted()))
	jb, _ := json.Marshal(fixtureTarget(b.Redacted()))
	return bytes.Equal(ja, jb)
}
