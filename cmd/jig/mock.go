package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/mock"
	"github.com/mcpjig/jig/session/record"
)

// mockOptions are jig mock's.
type mockOptions struct {
	paths     []string
	listen    string
	transport string
	match     []string
	strict    bool
	reports   []string
	cycle     bool
	speed     float64
	noDelay   bool
	fill      []string
	inject    []string
	record    string
	noRecord  bool
	mix       bool
}

const mockLong = `jig mock serves fixtures and recordings as an MCP server, so the client side
(an agent framework's adapter, a host application, a gateway, an SDK upgrade)
can be tested against what a real server answered: deterministically, offline.

Each PATH is a fixture, a directory of fixtures, or a recording: jig's own
(jig sessions lists them; jig proxy records a real client's) or any other
transcript jig open reads (JSON-RPC lines, MCP Inspector history, client
logs), served as far as it kept the server's messages. Answers are the
recorded bytes, with the client's id; the handshake is the recorded server's
(name, version, capabilities, protocol version, both eras); tools/list lists
the pinned tool definitions when no recorded tools/list is served.

Matching: the same params (key order, number spelling and _meta aside); then
the fixture's rules (a redacted value or a rule's path matches any value of
its type); --match tool answers any call of the tool. --match TOOL=MODE sets
one tool's. A request nothing matches gets a JSON-RPC error naming the closest
recorded requests and the fields that differ, and is listed at exit. Several
recorded answers to one request are served in order, then the last repeats
(--cycle: from the first again).

What the server sent while a request was open (progress, logging, requests
for sampling, elicitation or roots) is sent again in order with its recorded
spacing (--speed N divides it, --no-delay drops it); the client's answers are
recorded. A request the recorded client cancelled stays open until this one
does.

stdio by default; --listen ADDR serves Streamable HTTP at any path
(http://ADDR/mcp), or with --transport sse the legacy HTTP+SSE transport
(http://ADDR/sse). Sources recorded from different servers (by name) are
refused: the mock would answer with one's handshake and one tool list;
--mix-servers serves them together, saying which. Sessions are recorded like any other jig session unless
--no-record. A summary goes to stderr at exit (stdin closed, or ctrl+c).`

func newMockCmd(st *streams, runF runFunc[mockOptions]) *cobra.Command {
	o := &mockOptions{}
	cmd := &cobra.Command{
		Use:   "mock PATH... [--listen ADDR]",
		Short: "Serve fixtures and recordings as an MCP server, to test a client offline",
		Long:  mockLong,
		Example: `  jig mock fixtures/
  jig mock sessions/run.jsonl --listen 127.0.0.1:3999
  jig mock fixtures/ --strict --report json=unused.json
  jig mock fixtures/ --inject 'search_orders:error=-32603,times=2' --inject 'get_report:delay=2s'
  jig replay fixtures/ -- jig mock fixtures/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			return runF(cmd.Context(), o, st)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.listen, "listen", "", "serve Streamable HTTP on ADDR (127.0.0.1:3999) instead of stdio")
	fl.StringVar(&o.transport, "transport", "", "with --listen: http (Streamable HTTP, the default) or sse (legacy HTTP+SSE: GET /sse, POST /message)")
	fl.StringArrayVar(&o.match, "match", nil, "how requests match recorded ones: exact, rules (default) or tool; TOOL=MODE for one tool (repeatable)")
	fl.BoolVar(&o.strict, "strict", false, "exit 1 when a request matched nothing")
	fl.StringArrayVar(&o.reports, "report", nil, "at exit, write what was served, unused and missed: json=FILE (repeatable)")
	fl.BoolVar(&o.cycle, "cycle", false, "serve a recorded sequence from its start again once it is used up (default: the last answer repeats)")
	fl.Float64Var(&o.speed, "speed", 1, "divide the recorded spacing of notifications and answers by N")
	fl.BoolVar(&o.noDelay, "no-delay", false, "send recorded notifications and answers at once")
	fl.StringArrayVar(&o.fill, "fill", nil, "serve $NAME's value where a recorded answer says [REDACTED:NAME] (repeatable)")
	fl.StringArrayVar(&o.inject, "inject", nil, "inject a fault: TOOL:delay=500ms, TOOL:error[=CODE], TOOL:is-error, TOOL:malformed, close-after=N; ,times=N fires it N times (repeatable)")
	fl.StringVar(&o.record, "record", "", "record to FILE (default: a new file in the sessions directory)")
	fl.BoolVar(&o.noRecord, "no-record", false, "record nothing")
	fl.BoolVar(&o.mix, "mix-servers", false, "serve sources recorded from different servers together (by default refused): the first source's handshake, one tool list")
	return cmd
}

// mockConfig is what jig mock's flags say, checked.
type mockConfig struct {
	opts    mock.Options
	fill    map[string]string
	reports []string // json files
}

func (o *mockOptions) check() (*mockConfig, error) {
	cfg := &mockConfig{fill: map[string]string{}}
	switch {
	case o.transport != "" && o.transport != "http" && o.transport != "sse":
		return nil, usageErr("--transport %q: jig mock serves http (Streamable HTTP) or sse (legacy HTTP+SSE) with --listen, stdio without", o.transport)
	case o.transport != "" && o.listen == "":
		return nil, usageErr("--transport needs --listen ADDR")
	case o.speed <= 0:
		return nil, usageErr("--speed %v: give a number above 0 (2 is twice as fast), or --no-delay", o.speed)
	case o.noRecord && o.record != "":
		return nil, usageErr("--record and --no-record contradict each other")
	}
	cfg.opts = mock.Options{Cycle: o.cycle, Speed: o.speed, NoDelay: o.noDelay, MatchFor: map[string]string{}}
	for _, m := range o.match {
		if name, mode, ok := strings.Cut(m, "="); ok {
			cfg.opts.MatchFor[name] = mode
			continue
		}
		cfg.opts.Match = m
	}
	for _, spec := range o.inject {
		f, err := mock.ParseFault(spec)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		cfg.opts.Faults = append(cfg.opts.Faults, f)
	}
	for _, name := range o.fill {
		name = strings.TrimPrefix(name, "$")
		v, ok := os.LookupEnv(name)
		if !ok || v == "" {
			return nil, usageErr("--fill %s: $%s is not set (export it, or leave the placeholder served as recorded)", name, name)
		}
		cfg.fill[name] = v
	}
	for _, r := range o.reports {
		kind, path, ok := strings.Cut(r, "=")
		if !ok || kind != "json" || path == "" {
			return nil, usageErr("--report %q: expected json=FILE", r)
		}
		if err := checkOutput("--report", path, func(p string) string { return "--report json=" + p }, "mock.json", false, false); err != nil {
			return nil, err
		}
		cfg.reports = append(cfg.reports, path)
	}
	return cfg, nil
}

func runMock(ctx context.Context, o *mockOptions, st *streams) error {
	cfg, err := o.check()
	if err != nil {
		return err
	}
	book, err := mock.Load(o.paths...)
	if err != nil {
		return usageErr("jig mock: %v", err)
	}
	for _, w := range book.Warnings {
		fmt.Fprintf(st.err, "jig mock: %s\n", w)
	}
	if err := checkMix(book, o.mix, st); err != nil {
		return err
	}
	for _, v := range cfg.fill {
		st.redact.Add(v)
	}
	book.Fill(cfg.fill)
	mode := "stdio"
	switch {
	case o.transport == "sse":
		mode = "HTTP+SSE"
	case o.listen != "":
		mode = "Streamable HTTP"
	}
	target, _ := json.Marshal(record.Target{Transport: "mock", Command: append([]string{"jig", "mock"}, o.paths...), Listen: o.listen})
	// Each client session is recorded in a file of its own, as jig proxy's.
	ropts := record.Options{Path: o.record, Disabled: o.noRecord, Target: target, Label: "mock", Mode: "mock", Redactor: st.redact, Inline: true}
	first := ropts
	if first.Path, err = nextRecording(st, "jig mock", o.record, o.noRecord); err != nil {
		return err
	}
	log := frames.NewWriteThroughLog(nil)
	path, closer, err := record.ForLog(log, first)
	if err != nil {
		return usageErr("%v", err)
	}
	files := &sessionFiles{who: "jig mock", opts: ropts, first: recorded{log: log, path: path, closer: closer}}
	cfg.opts.LogFor = files.logFor
	cfg.opts.Notice = func(s string) { fmt.Fprintln(st.err, s) }
	srv, err := mock.New(book, cfg.opts)
	if err != nil {
		files.close(st)
		return usageErr("%v", err)
	}
	fmt.Fprintf(st.err, "jig mock: serving %s (%s) over %s\n", describeBook(book), serverOf(book), mode)
	sayUnanswered(st, book)
	var runErr error
	if o.listen != "" {
		runErr = serveMockHTTP(ctx, srv, o.listen, o.transport == "sse", st)
	} else if runErr = srv.ServeStdio(ctx, st.in, st.rawOut); errors.Is(runErr, syscall.EPIPE) {
		runErr = nil
	}
	files.close(st)
	return finishMock(ctx, o, cfg, srv, runErr, st)
}

// serverOf names the recorded server: its name and, when it has one, its
// version.
func serverOf(book *mock.Book) string {
	if v := book.ServerVersion(); v != "" {
		return book.ServerName() + ", " + v
	}
	return book.ServerName()
}

// checkMix refuses sources recorded from different servers, unless mix:
// then it says which handshake and tool list are served.
func checkMix(book *mock.Book, mix bool, st *streams) error {
	if origins := book.Origins(); !book.Mixed() {
		if len(origins) > 1 {
			var who []string
			for _, o := range origins {
				who = append(who, o.String())
			}
			fmt.Fprintf(st.err, "jig mock: warning: the sources were recorded from %d versions of %s: %s; the handshake says %s, the first source's\n", len(origins), origins[0].Name, strings.Join(who, ", "), book.ServerVersion())
		}
		return nil
	}
	lines := book.ServedSurface()
	if !mix {
		return usageErr("jig mock: %s; one mock answers as one server, and served together %s: mock each server apart, or give --mix-servers to serve them together", lines[0], strings.Join(lines[1:], "; "))
	}
	for _, l := range lines {
		fmt.Fprintf(st.err, "jig mock: warning: %s\n", l)
	}
	return nil
}

// sayUnanswered names the recorded calls that got no answer: counted in
// what is served, they have nothing to serve.
func sayUnanswered(st *streams, book *mock.Book) {
	all, cancelled := book.Unanswered()
	if all == 0 {
		return
	}
	var which []string
	for _, ex := range book.Exchanges() {
		if ex.NoAnswer() && len(which) < 3 {
			which = append(which, ex.Source+" "+reqName(ex.Method, ex.Name))
		}
	}
	if all > len(which) {
		which = append(which, fmt.Sprintf("and %d more", all-len(which)))
	}
	fmt.Fprintf(st.err, "jig mock: of them %s: never answered (%s)\n", unansweredCounts(all, cancelled), strings.Join(which, ", "))
}

// finishMock reports what was served and decides the exit status.
func finishMock(ctx context.Context, o *mockOptions, cfg *mockConfig, srv *mock.Server, runErr error, st *streams) error {
	rep := srv.Report()
	summarizeMock(st, rep)
	for _, file := range cfg.reports {
		if err := writeMockReport(file, rep, st.redact); err != nil {
			return usageErr("--report json=%s: %v", file, err)
		}
	}
	if interruption(ctx) != nil || errors.Is(runErr, context.Canceled) {
		runErr = nil // ctrl+c is how an HTTP mock ends
	}
	if runErr != nil {
		return runErr
	}
	if o.strict && len(rep.Misses) > 0 {
		fmt.Fprintf(st.err, "jig mock: --strict: %s matched nothing\n", frames.Count(len(rep.Misses), "request"))
		return exitWith(exitServerError)
	}
	return nil
}

func describeBook(b *mock.Book) string {
	var parts []string
	if b.Fixtures > 0 {
		parts = append(parts, frames.Count(b.Fixtures, "fixture"))
	}
	if b.Recordings > 0 {
		parts = append(parts, frames.Count(b.Recordings, "recording"))
	}
	return fmt.Sprintf("%s, %s", frames.Count(len(b.Exchanges()), "recorded exchange"), strings.Join(parts, " and "))
}

// serveMockHTTP serves until ctx ends (ctrl+c).
func serveMockHTTP(ctx context.Context, srv *mock.Server, addr string, sse bool, st *streams) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageErr("--listen %s: %v", addr, err)
	}
	h, path := srv.HTTPHandler(), "/mcp"
	if sse {
		h, path = srv.SSEHandler(), "/sse"
	}
	// Shutting down ends the streams that stay open (the standalone GET
	// stream, an SSE session, a request the recorded client cancelled)
	// instead of waiting out the grace for them.
	streams, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return streams }}
	hs.RegisterOnShutdown(endStreams)
	fmt.Fprintf(st.err, "jig mock: listening on http://%s%s (ctrl+c ends it)\n", ln.Addr(), path)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	return nil
}

// summarizeMock tells stderr what was missed and left unused. The counts
// add up: every recorded exchange is used, unused or one that has no
// answer to serve.
func summarizeMock(st *streams, rep mock.Report) {
	parts := []string{fmt.Sprintf("%d used", rep.Used), fmt.Sprintf("%d unused", len(rep.Unused))}
	if n := len(rep.Unanswered); n > 0 {
		parts = append(parts, unansweredPhrase(rep.Unanswered)+": not served")
	}
	fmt.Fprintf(st.err, "jig mock: served %s; %s: %s; %s matched nothing\n", frames.Count(rep.Served, "answer"), frames.Count(rep.Exchanges, "recorded exchange"), strings.Join(parts, ", "), frames.Count(len(rep.Misses), "request"))
	for _, m := range rep.Misses {
		line := fmt.Sprintf("  missed: %s %s (%d×)", reqName(m.Method, m.Name), frames.CompactString(m.Params), m.Count)
		if m.Unknown {
			line += "; " + m.Unrecorded()
		}
		if len(m.Closest) > 0 {
			line += "; closest " + m.Closest[0].Source
			if d := m.Closest[0].Differences; len(d) > 0 {
				line += " (" + mock.Describe(d, 3) + ")"
			}
		}
		fmt.Fprintln(st.err, line)
	}
	for i, u := range rep.Unused {
		if i == 20 {
			fmt.Fprintf(st.err, "  … and %d more unused (--report json=FILE lists them all)\n", len(rep.Unused)-i)
			break
		}
		fmt.Fprintf(st.err, "  unused: %s (%s)\n", u.Source, reqName(u.Method, u.Name))
	}
	for i, u := range rep.Unanswered {
		if i == 20 {
			fmt.Fprintf(st.err, "  … and %d more not served (--report json=FILE lists them all)\n", len(rep.Unanswered)-i)
			break
		}
		fmt.Fprintf(st.err, "  not served: %s (%s): %s\n", u.Source, reqName(u.Method, u.Name), u.Why)
	}
	for _, f := range rep.Faults {
		fmt.Fprintf(st.err, "  injected %s: %d×\n", f.Spec, f.Fired)
	}
}

// reqName is a request's method and, when it has one, its name.
func reqName(method, name string) string {
	if name == "" {
		return method
	}
	return method + " " + name
}

// unansweredPhrase says what the recorded calls with no answer are: "1
// recorded call was cancelled before its answer", "2 recorded calls got no
// answer (1 cancelled, 1 the recording ends first)".
func unansweredPhrase(us []mock.Unused) string {
	cancelled := 0
	for _, u := range us {
		if strings.Contains(u.Why, "cancelled") {
			cancelled++
		}
	}
	return unansweredCounts(len(us), cancelled)
}

func unansweredCounts(all, cancelled int) string {
	switch {
	case cancelled == all && all == 1:
		return "1 recorded call was cancelled before its answer"
	case cancelled == all:
		return fmt.Sprintf("%d recorded calls were cancelled before their answers", all)
	case cancelled == 0 && all == 1:
		return "1 recorded call got no answer before the recording ends"
	case cancelled == 0:
		return fmt.Sprintf("%d recorded calls got no answer before the recording ends", all)
	}
	return fmt.Sprintf("%s got no answer (%d cancelled, %d the recording ends first)", frames.Count(all, "recorded call"), cancelled, all-cancelled)
}

// writeMockReport writes the report redacted, atomically: a file already
// there stays whole until the new one is complete.
func writeMockReport(path string, rep mock.Report, red *frames.Redactor) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	data = append(red.Bytes(data), '\n')
	tmp, err := os.CreateTemp(filepath.Dir(path), ".jig-mock-report-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
