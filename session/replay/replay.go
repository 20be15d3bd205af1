// Package replay runs golden fixtures against live servers: it re-issues each
// pinned request exactly, compares the response with frames/fixture, and can
// accept a reviewed drift. Pin builds a fixture from a live exchange; the CLI
// (jig call --pin) and the TUI share it.
//
// Fixtures are grouped by target (or by the one override target) and each
// target gets one session; targets run in parallel up to a bound, and the
// calls within a session are pipelined up to another bound, each paired with
// its own exchange by the JSON-RPC id the SDK wrote for it.
package replay

import (
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
)

// A Case is one fixture and the file it came from.
type Case struct {
	Path    string
	Fixture *fixture.Fixture
}

// Load loads path (a fixture file, or every *.json file directly in a
// directory, sorted by name) and returns the cases that loaded and one error
// per file that did not. Errors name the file.
func Load(path string) ([]Case, []error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, []error{&fixture.FileError{File: path, Msg: "cannot be read: " + pathErr(err), Kind: fixture.ErrInvalid}}
	}
	files := []string{path}
	if st.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*.json"))
		sort.Strings(files)
		if len(files) == 0 {
			return nil, []error{&fixture.FileError{File: path, Msg: "holds no *.json fixtures (pin one with 'jig call TOOL --pin FILE')", Kind: fixture.ErrInvalid}}
		}
	}
	var cases []Case
	var errs []error
	for _, file := range files {
		f, err := fixture.Load(file)
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

func pathErr(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Options configure a replay.
type Options struct {
	// Target, when set, replaces every fixture's own target.
	Target *session.Target
	// ProtocolVersion, when set, replaces every fixture's pinned version.
	ProtocolVersion string
	Capabilities    []string
	Grace           time.Duration
	Timeout         time.Duration // to connect, and for each call; 30 s when 0
	Parallel        int           // sessions at once; 4 when 0
	InFlight        int           // calls in flight per session; 8 when 0
	// Redactor, when set, is shared by every session (each adds its
	// target's secrets), so whoever prints the reports knows them all.
	Redactor *frames.Redactor
}

// An Outcome is what replaying one case gave.
type Outcome struct {
	Case
	// Report is the comparison; valid only when Err is nil.
	Report fixture.Report
	// ActualTool is the tool as listed now: nil when not compared, the JSON
	// literal null when the tool is gone. Result or Error is the response.
	ActualTool    json.RawMessage
	Result, Error json.RawMessage
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
	out := make([]Outcome, len(cases))
	for i, c := range cases {
		out[i].Case = c
	}
	groups, order := group(cases, opts)
	sem := make(chan struct{}, opts.Parallel)
	var wg sync.WaitGroup
	for _, key := range order {
		g := groups[key]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			runGroup(ctx, g, out, opts)
		}()
	}
	wg.Wait()
	return out
}

// A targetGroup is the cases that share one session.
type targetGroup struct {
	target   fixture.Target // the first case's, when not overridden
	protocol string
	idx      []int
}

func group(cases []Case, opts Options) (map[string]*targetGroup, []string) {
	groups := map[string]*targetGroup{}
	var order []string
	for i, c := range cases {
		pv := opts.ProtocolVersion
		if pv == "" {
			pv = c.Fixture.ProtocolVersion
		}
		key := pv
		if opts.Target == nil {
			t, _ := json.Marshal(c.Fixture.Target)
			key = string(t) + "|" + pv
		}
		if a := c.Fixture.Answers; a != nil {
			// Scripted answers are the session's: a fixture with its own
			// gets a session of its own.
			key += "|" + string(a.Elicit) + "|" + string(a.Sample)
		}
		g, ok := groups[key]
		if !ok {
			g = &targetGroup{target: c.Fixture.Target, protocol: pv}
			groups[key] = g
			order = append(order, key)
		}
		g.idx = append(g.idx, i)
	}
	return groups, order
}

func runGroup(ctx context.Context, g *targetGroup, out []Outcome, opts Options) {
	fail := func(err error) {
		for _, i := range g.idx {
			out[i].Err = err
		}
	}
	first := out[g.idx[0]].Case
	var target session.Target
	if opts.Target != nil {
		target = *opts.Target
	} else {
		t, err := sessionTarget(first)
		if err != nil {
			fail(err)
			return
		}
		target = t
	}
	sopts := session.Options{
		Target:          target,
		ProtocolVersion: g.protocol,
		Grace:           opts.Grace,
		Capabilities:    opts.Capabilities,
		Log:             frames.NewLog(nil),
		Redact:          opts.Redactor,
	}
	if err := scriptedAnswers(&sopts, first); err != nil {
		fail(err)
		return
	}
	cctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	s, err := session.Open(cctx, sopts)
	cancel()
	if err != nil {
		fail(err)
		return
	}
	defer s.Close()

	var tools map[string]json.RawMessage
	for _, i := range g.idx {
		if out[i].Fixture.Request.Method == "tools/call" {
			tools, err = listTools(ctx, s, opts.Timeout)
			if err != nil {
				fail(err)
				return
			}
			break
		}
	}

	sem := make(chan struct{}, opts.InFlight)
	var wg sync.WaitGroup
	for _, i := range g.idx {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			o := &out[i]
			callCtx, cancel := context.WithTimeout(ctx, opts.Timeout)
			defer cancel()
			replayOne(callCtx, s, tools, o)
		}()
	}
	wg.Wait()
}

// scriptedAnswers gives the session the answers the fixture was pinned
// with, so the server's requests for input are answered as they were.
func scriptedAnswers(o *session.Options, c Case) error {
	a := c.Fixture.Answers
	if a == nil {
		return nil
	}
	elicit, err := session.ScriptFromJSON(a.Elicit, c.Path+": answers.elicit")
	if err != nil {
		return &session.UsageError{Err: err}
	}
	sample, err := session.ScriptFromJSON(a.Sample, c.Path+": answers.sample")
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

// listTools lists the tools once per session, keyed by name. A server that
// has no tools capability answers with an error: definitions are then not
// compared (nil map), which is not a reason to fail the replay.
func listTools(ctx context.Context, s *session.Session, timeout time.Duration) (map[string]json.RawMessage, error) {
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

func replayOne(ctx context.Context, calls *session.Session, tools map[string]json.RawMessage, o *Outcome) {
	f := o.Fixture
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		URI       string          `json:"uri"`
	}
	_ = json.Unmarshal(f.Request.Params, &p)
	var ex *session.Exchange
	var err error
	switch f.Request.Method {
	case "tools/call":
		if tools != nil {
			if t, ok := tools[p.Name]; ok {
				o.ActualTool = t
			} else {
				o.ActualTool = json.RawMessage("null")
			}
		}
		ex, err = calls.CallTool(ctx, p.Name, p.Arguments)
	case "resources/read":
		ex, err = calls.ReadResource(ctx, p.URI)
	case "prompts/get":
		var args map[string]string
		if len(p.Arguments) > 0 && string(p.Arguments) != "null" {
			if json.Unmarshal(p.Arguments, &args) != nil {
				o.Err = &fixture.FileError{File: filepath.Base(o.Path), Field: "request.params.arguments",
					Msg: "must be an object of strings for prompts/get", Kind: fixture.ErrInvalid}
				return
			}
		}
		ex, err = calls.GetPrompt(ctx, p.Name, args)
	default:
		o.Err = &fixture.FileError{File: filepath.Base(o.Path), Field: "request.method",
			Msg:  fmt.Sprintf("is %q, which jig cannot replay yet (it replays tools/call, resources/read and prompts/get)", f.Request.Method),
			Kind: fixture.ErrInvalid}
		return
	}
	var rpc *session.RPCError
	if err != nil && !errors.As(err, &rpc) {
		o.Err = err
		return
	}
	if ex == nil {
		o.Err = fmt.Errorf("%s: no response was recorded", f.Request.Method)
		return
	}
	o.Result, o.Error = ex.Result, ex.Error
	o.Report = fixture.Compare(f, o.ActualTool, o.Result, o.Error)
}

// sessionTarget turns a fixture's target back into one jig can connect to.
// Secrets were stored as environment references, which the session expands;
// a value that was redacted cannot be recovered and must be supplied.
func sessionTarget(c Case) (session.Target, error) {
	ft := c.Fixture.Target
	for _, m := range []struct {
		field string
		vals  map[string]string
	}{{"target.headers", ft.Headers}, {"target.env", ft.Env}} {
		keys := make([]string, 0, len(m.vals))
		for k := range m.vals {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if v := m.vals[k]; strings.HasPrefix(v, "[REDACTED") {
				return session.Target{}, &fixture.FileError{File: filepath.Base(c.Path), Field: m.field + "." + k,
					Msg:  fmt.Sprintf("was redacted when pinned: write a reference like \"$%s\" in its place, or give the target on the command line", envName(k)),
					Kind: fixture.ErrInvalid}
			}
		}
	}
	return session.Target{
		Transport: session.Transport(ft.Transport),
		Command:   append([]string(nil), ft.Command...),
		URL:       ft.URL,
		Headers:   copyMap(ft.Headers),
		Env:       copyMap(ft.Env),
		Release:   ft.Release,
	}, nil
}

func envName(k string) string {
	return strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(k))
}

// Update accepts a reviewed drift: the outcome's actual response (and tool
// definition, when it was compared) becomes the pinned one, the reason goes
// into the fixture's history, secrets are redacted again, and the file is
// rewritten.
func Update(o Outcome, reason string, secrets []string, now time.Time) error {
	f := o.Fixture
	tool := o.ActualTool
	if tool == nil {
		tool = f.Tool
	}
	if t, err := sessionTarget(o.Case); err == nil {
		secrets = append(secrets, t.Secrets()...)
	}
	fixture.Accept(f, tool, o.Result, o.Error, reason, "jig "+session.Version, now)
	fixture.Redact(f, secrets)
	return f.Save(o.Path)
}
