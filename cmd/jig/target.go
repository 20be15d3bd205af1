package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/oauth"
	"github.com/mcpjig/jig/session/record"
)

// targetFlags are the flags every command that connects accepts.
type targetFlags struct {
	demo         bool
	release      int
	url          string
	transport    string
	headers      []string
	env          []string
	cwd          string
	config       string
	server       string
	protocol     string
	timeout      time.Duration
	grace        time.Duration
	capabilities []string
	roots        []string
	record       string
	noRecord     bool
	maxFrame     string
	allowCross   bool
	inputs       []string
	elicit       string
	sample       string
	// recorded is where startRecording is writing the session ("" when not).
	recorded string
	// oneShot is set by the commands that list or ask once and end (not a
	// flag): see session.Options.OneShot.
	oneShot bool
	auth    authFlags
}

func (f *targetFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.demo, "demo", false, "connect to jig's embedded demo server")
	fl.IntVar(&f.release, "release", 1, "demo server release (2 is the drifted \"new release\", 3 goes silently wrong after 30 calls)")
	fl.StringVar(&f.url, "url", "", "HTTP endpoint of the server (Streamable HTTP, or SSE with --transport sse)")
	fl.StringVar(&f.transport, "transport", "", "http or sse for --url or a --config url entry (default: http; a config entry without \"type\" falls back to sse)")
	sliceVar(fl, newStringArray(&f.headers, nil), "header", "HTTP header 'Name: value' (repeatable; $VAR expands from the environment)")
	sliceVar(fl, newStringArray(&f.env, nil), "env", "environment K=V added for a stdio server (repeatable; $VAR expands)")
	fl.StringVar(&f.cwd, "cwd", "", "working directory of a stdio server")
	fl.StringVar(&f.config, "config", "", "an MCP client's config file (Claude Desktop, Claude Code, Cursor, Windsurf, VS Code)")
	fl.StringVar(&f.server, "server", "", "the server's name in --config")
	sliceVar(fl, newStringArray(&f.inputs, nil), "input", "ID=VALUE for a ${input:ID} in --config (VS Code inputs; repeatable)")
	fl.StringVar(&f.protocol, "protocol-version", "auto", "auto|"+strings.Join(session.ProtocolVersions[1:], "|"))
	fl.DurationVar(&f.timeout, "timeout", 30*time.Second, "time allowed to connect, and then for each request on its own (jig call: tools/list, the call)")
	fl.DurationVar(&f.grace, "grace", session.DefaultGrace, "time a stdio server gets to exit after stdin closes, before SIGTERM and then SIGKILL")
	fl.StringVar(&f.record, "record", "", "record the session to FILE (default: a new file in the sessions directory, see jig sessions)")
	fl.BoolVar(&f.noRecord, "no-record", false, "do not record the session")
	fl.BoolVar(&f.allowCross, "allow-cross-origin-endpoint", false, "let a legacy SSE server's endpoint event name another origin (refused by default); your headers are never sent there")
	fl.StringVar(&f.maxFrame, "max-frame", "256MiB", "the frame limit: a server line, HTTP body or event larger than this is recorded truncated and ends the session (exit 3)")
	sliceVar(fl, newStringSlice(&f.capabilities, []string{"roots", "sampling", "elicitation"}), "capabilities", "client capabilities jig declares (roots,sampling,elicitation; empty for none)")
	fl.StringVar(&f.elicit, "elicit", "", "answer the server's elicitations: accept-defaults, decline, cancel, or @answers.json (default: decline)")
	fl.StringVar(&f.sample, "sample", "", "answer the server's sampling requests from @replies.json (default: a labelled canned reply)")
	sliceVar(fl, newStringArray(&f.roots, nil), "root", "a root jig answers roots/list with: a directory or a file:// URI (repeatable; default: no roots)")
	f.auth.bind(fl)
}

// options turns the flags and the command after -- into session options.
func (f *targetFlags) options(command []string) (session.Options, error) {
	t, err := f.chooseTarget(command)
	if err != nil {
		return session.Options{}, err
	}
	if err := f.addHeaders(&t); err != nil {
		return session.Options{}, err
	}
	for _, e := range f.env {
		k, v, ok := strings.Cut(e, "=")
		if !ok || k == "" {
			return session.Options{}, usageErr("--env %q: expected K=V", e)
		}
		if t.Env == nil {
			t.Env = map[string]string{}
		}
		t.Env[k] = v
	}
	if f.cwd != "" {
		t.Dir = f.cwd
	}
	for _, c := range f.capabilities {
		if c != "roots" && c != "sampling" && c != "elicitation" {
			return session.Options{}, usageErr("--capabilities: unknown %q; use roots, sampling, elicitation", c)
		}
	}
	roots, err := f.rootList()
	if err != nil {
		return session.Options{}, err
	}
	auth, err := f.authOptions(t)
	if err != nil {
		return session.Options{}, err
	}
	maxFrame, err := f.frameLimit()
	if err != nil {
		return session.Options{}, err
	}
	opts := session.Options{
		Target:          t,
		ProtocolVersion: f.protocol,
		Grace:           f.grace,
		Capabilities:    f.capabilities,
		Roots:           roots,
		Log:             frames.NewLog(nil),
		Auth:            auth,
		MaxFrame:        maxFrame,
		OneShot:         f.oneShot,

		AllowCrossOriginEndpoint: f.allowCross,
	}
	if err := f.scripts(&opts); err != nil {
		return session.Options{}, err
	}
	return opts, nil
}

// frameLimit is --max-frame in bytes ("256MiB", "64MB", "1048576").
func (f *targetFlags) frameLimit() (int, error) { return parseFrameLimit(f.maxFrame) }

// parseFrameLimit reads a --max-frame value; 0 for "" (the default limit).
func parseFrameLimit(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, ok := parseSize(v)
	if !ok || n < 1024 || n > 1<<40 {
		return 0, usageErr("--max-frame %q: give a size of at least 1KiB, e.g. 256MiB or 64MB", v)
	}
	return int(n), nil
}

// parseSize reads a size as go-humanize's ParseBytes does ("1.5 GiB",
// "64mb", "1,048,576", "4k"): a decimal number (commas ignored), then a unit
// of 1000s or 1024s in any case, "B" optional. Written here because the
// library's unit tables were built at every start of jig for this one flag
// (TestParseSizeIsHumanize holds the two equal).
func parseSize(s string) (uint64, bool) {
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.' || s[end] == ',') {
		end++
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s[:end], ",", ""), 64)
	if err != nil {
		return 0, false
	}
	unit := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s[end:])), "b")
	var base uint64 = 1000
	if len(unit) == 2 && unit[1] == 'i' {
		unit, base = unit[:1], 1024
	}
	power := 0 // of base: none for bytes, 1 for k, ... 6 for e
	if unit != "" {
		if power = strings.Index("kmgtpe", unit) + 1; len(unit) != 1 || power == 0 {
			return 0, false
		}
	}
	m := uint64(1)
	for range power {
		m *= base
	}
	if f *= float64(m); f >= math.MaxUint64 {
		return 0, false
	}
	return uint64(f), true
}

// scripts sets the scripted answers --elicit and --sample give; each needs
// its capability declared, or the server never asks.
func (f *targetFlags) scripts(opts *session.Options) error {
	if f.elicit != "" {
		if !slices.Contains(f.capabilities, "elicitation") {
			return usageErr("--elicit needs the elicitation capability: add elicitation to --capabilities")
		}
		s, err := session.ParseElicitScript(f.elicit)
		if err != nil {
			return err
		}
		opts.Elicit, opts.ElicitScript = s.Elicit, s
	}
	if f.sample != "" {
		if !slices.Contains(f.capabilities, "sampling") {
			return usageErr("--sample needs the sampling capability: add sampling to --capabilities")
		}
		s, err := session.ParseSampleScript(f.sample)
		if err != nil {
			return err
		}
		opts.Sampling, opts.SampleScript = s.Sample, s
	}
	return nil
}

// authOptions turns on OAuth for a Streamable HTTP target: a 401 starts a
// login unless the flags say otherwise. Other targets take no OAuth flags.
func (f *targetFlags) authOptions(t session.Target) (*oauth.Options, error) {
	if t.Transport != session.TransportStreamable {
		if f.auth.given() {
			if t.Transport == session.TransportSSE {
				return nil, usageErr("the OAuth flags need Streamable HTTP (--transport http); over SSE pass --header 'Authorization: Bearer $TOKEN'")
			}
			return nil, usageErr("the OAuth flags (--auth-stored-only, --client-id, --scope, ...) apply to HTTP servers: --url, or a --config entry with a url")
		}
		return nil, nil
	}
	return f.auth.options(os.LookupEnv)
}

// rootList is the roots --root names, which need the roots capability.
func (f *targetFlags) rootList() ([]session.Root, error) {
	var roots []session.Root
	for _, r := range f.roots {
		root, err := session.RootOf(r)
		if err != nil {
			return nil, &session.UsageError{Err: err}
		}
		roots = append(roots, root)
	}
	if len(roots) > 0 && !slices.Contains(f.capabilities, "roots") {
		return nil, usageErr("--root needs the roots capability: add roots to --capabilities")
	}
	return roots, nil
}

// chooseTarget is the one server the flags or the command after -- name.
func (f *targetFlags) chooseTarget(command []string) (session.Target, error) {
	if len(f.inputs) > 0 && f.config == "" {
		return session.Target{}, usageErr("--input only applies to --config files that use ${input:ID}")
	}
	url := f.url
	if len(command) == 1 && url == "" && isURL(command[0]) {
		// No program is named like a URL: the user meant the server at it,
		// as other MCP clients take it.
		url, command = command[0], nil
	}
	n := 0
	for _, given := range []bool{f.demo, url != "", f.config != "", len(command) > 0} {
		if given {
			n++
		}
	}
	switch {
	case n == 0:
		return session.Target{}, usageErr("no server given: use --demo, --url URL, --config FILE --server NAME, or a command after -- (jig tools -- node server.js)")
	case n > 1:
		return session.Target{}, usageErr("give exactly one server: --demo, --url, --config or a command after --")
	case f.demo:
		if f.release < 1 || f.release > 3 {
			return session.Target{}, usageErr("--release %d: the demo server has releases 1, 2 and 3", f.release)
		}
		return session.Target{Transport: session.TransportDemo, Release: f.release}, nil
	case url != "":
		if !isURL(url) {
			return session.Target{}, usageErr("--url %q is not an http:// or https:// URL (try --url http://%s)", url, strings.TrimPrefix(url, "//"))
		}
		t := session.Target{Transport: session.TransportStreamable, URL: url}
		return t, f.httpTransport(&t)
	case f.config != "":
		t, err := session.LoadConfigTarget(f.config, f.server)
		if err != nil {
			return session.Target{}, &session.UsageError{Err: err}
		}
		if f.transport != "" {
			if t.URL == "" {
				return session.Target{}, usageErr("--transport %s: server %q in %s runs a command, not a URL", f.transport, t.Server, f.config)
			}
			if err := f.httpTransport(&t); err != nil {
				return session.Target{}, err
			}
		}
		return t, f.addInputs(&t)
	}

	return session.Target{Transport: session.TransportStdio, Command: command}, nil
}

// urlAfter reports whether args, with no --, are n names and then one URL:
// the server at it (see chooseTarget), as other MCP clients take it.
func urlAfter(cmd *cobra.Command, args []string, n int) bool {
	return cmd.ArgsLenAtDash() < 0 && len(args) == n+1 && isURL(args[n])
}

// isURL reports whether arg is an http(s) URL rather than a command.
func isURL(arg string) bool {
	u, err := url.Parse(arg)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// httpTransport applies --transport to an HTTP target: it names the
// transport, so no fallback is tried.
func (f *targetFlags) httpTransport(t *session.Target) error {
	switch f.transport {
	case "":
		return nil
	case "http", "streamable", "streamable-http":
		t.Transport = session.TransportStreamable
	case "sse":
		t.Transport = session.TransportSSE
	default:
		return usageErr("--transport %q: use http (Streamable HTTP) or sse", f.transport)
	}
	t.DetectSSE = false
	return nil
}

// addInputs gives a config target's ${input:ID} references their values.
func (f *targetFlags) addInputs(t *session.Target) error {
	for _, in := range f.inputs {
		id, v, ok := strings.Cut(in, "=")
		if !ok || id == "" {
			return usageErr("--input %q: expected ID=VALUE", in)
		}
		if t.Inputs == nil {
			t.Inputs = map[string]string{}
		}
		t.Inputs[id] = v
	}
	return nil
}

// addHeaders sets --header values on an HTTP target.
func (f *targetFlags) addHeaders(t *session.Target) error {
	if len(f.headers) > 0 && t.Transport != session.TransportStreamable && t.Transport != session.TransportSSE {
		return usageErr("--header only applies to --url targets")
	}
	for _, h := range f.headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return usageErr("--header %q: expected 'Name: value'", h)
		}
		if t.Headers == nil {
			t.Headers = map[string]string{}
		}
		t.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return nil
}

// startRecording makes every frame of the session reach disk as it crosses
// (redacted), unless --no-record. label names the file (a tool, a command).
// It must run before the session opens so the handshake is recorded too.
func (f *targetFlags) startRecording(st *streams, opts session.Options, label string) (func(), error) {
	if !f.noRecord {
		if err := checkOutput("--record", f.record, spaced("--record"), "session.jsonl", false, false); err != nil {
			return nil, err
		}
	}
	path, closer, err := record.ForLog(opts.Log, record.Options{
		Path: f.record, Disabled: f.noRecord, Target: opts.Target.JSON(), Label: label,
		Mode: "session", Secrets: opts.Target.Secrets(), Redactor: opts.Redact,
	})
	if err != nil {
		return nil, usageErr("recording the session: %v (choose a file with --record FILE, or --no-record)", err)
	}
	f.recorded = path
	return func() {
		if err := closer(); err != nil {
			fmt.Fprintf(st.err, "jig: %s\n", recordingIncomplete(path, err))
		}
	}, nil
}

// recordingIncomplete says that a recording could not be written to the end,
// why (once, without the path again), and what is still there.
func recordingIncomplete(path string, err error) string {
	var pe *fs.PathError
	next := "free space, or record elsewhere with --record FILE"
	if errors.As(err, &pe) {
		err = pe.Err
	} else if !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EDQUOT) && !errors.Is(err, syscall.EIO) {
		// Not the disk: a record jig could not encode. Free space would
		// not help.
		next = "this is jig's failure, not the disk's: please report it with the command that ran"
	}
	return fmt.Sprintf("the recording %s is incomplete: %v; the frames before the failure are intact (jig open %s); %s",
		path, err, shellQuote(path), next)
}
