package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/contract"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/otlp"
	"github.com/mcpjig/jig/session/proxy"
	"github.com/mcpjig/jig/session/record"
)

// proxyOptions are jig proxy's.
type proxyOptions struct {
	command   []string
	listen    string
	target    string
	record    string
	noRecord  bool
	secrets   []string
	contracts string
	otlp      string
	otlpArgs  bool
	maxFrame  string
}

const proxyLong = `jig proxy sits between a real MCP client (Claude Desktop, Cursor, an agent)
and its server and records every frame that crosses, byte for byte, without
changing or delaying it.

stdio: put "jig proxy --" in front of the server's command in the client's
config. jig runs the server, passes stdin, stdout and stderr through, passes
SIGINT/SIGTERM on, and exits with the server's exit status. It never writes
to stdout itself.

HTTP: jig proxy --listen 127.0.0.1:7000 --target http://127.0.0.1:3901/mcp,
then point the client at http://127.0.0.1:7000/mcp.

Sessions are recorded in $XDG_STATE_HOME/jig/sessions (see jig sessions)
unless --record FILE or --no-record is given. Secrets are redacted.

--contracts FILE holds each tools/call response to the contracts (see jig
check --help) as it passes, off the path that forwards it: a violation is
printed on stderr and kept in the recording, where jig open marks its frame.

--otlp URL exports each tools/call as a span (tool, arguments size,
latency, isError, JSON-RPC error code, result size, jig's session id; no
argument values unless --otlp-args, and those redacted) and the per-tool
statistics as metrics (calls, duration, result size, array cardinalities,
flags set) to an OpenTelemetry collector over OTLP/HTTP, e.g.
http://127.0.0.1:4318. Export is asynchronous and bounded: a collector that
is down never slows the traffic; what was not exported is counted at exit.`

func newProxyCmd(st *streams, runF runFunc[proxyOptions]) *cobra.Command {
	o := &proxyOptions{}
	cmd := &cobra.Command{
		Use:   "proxy [--record FILE] -- COMMAND [ARGS...] | proxy --listen ADDR --target URL",
		Short: "Record a real client's session: a transparent stdio shim or HTTP reverse proxy",
		Long:  proxyLong,
		Example: `  jig proxy -- node server.js
  jig proxy --record run.jsonl -- npx -y @modelcontextprotocol/server-everything stdio
  jig proxy --listen 127.0.0.1:7000 --target http://127.0.0.1:3901/mcp --record run.jsonl
  jig proxy --contracts contracts.json -- jig serve-demo --release 3
  jig proxy --otlp http://127.0.0.1:4318 -- node server.js`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.command = args
			return runF(cmd.Context(), o, st)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.record, "record", "", "record to FILE (default: a new file in the sessions directory)")
	fl.BoolVar(&o.noRecord, "no-record", false, "record nothing, only pass the bytes through")
	fl.StringVar(&o.listen, "listen", "", "HTTP mode: the address to listen on (127.0.0.1:7000)")
	fl.StringVar(&o.target, "target", "", "HTTP mode: the server's URL (http://127.0.0.1:3901/mcp)")
	fl.StringArrayVar(&o.secrets, "secret", nil, "a value to redact from the recording (repeatable; $VAR expands)")
	fl.StringVar(&o.contracts, "contracts", "", "check each tools/call response against a contracts file as it passes (see jig check)")
	fl.StringVar(&o.maxFrame, "max-frame", "256MiB", "the frame limit: a line, body or event larger than this is passed on whole but recorded truncated, with its size")
	fl.StringVar(&o.otlp, "otlp", "", "export each tools/call as a span and per-tool metrics to an OpenTelemetry collector (OTLP/HTTP base URL, e.g. http://127.0.0.1:4318)")
	fl.BoolVar(&o.otlpArgs, "otlp-args", false, "with --otlp: put each call's arguments, redacted, on its span")
	return cmd
}

// checkProxy refuses what jig proxy cannot run: both modes or neither, and
// a command that cannot run (told before a recording is begun: an empty
// recording of nothing is not evidence).
func checkProxy(o *proxyOptions, httpMode bool) error {
	switch {
	case httpMode && len(o.command) > 0:
		return usageErr("give either a command after -- (stdio) or --listen and --target (HTTP), not both")
	case httpMode && (o.listen == "" || o.target == ""):
		return usageErr("HTTP mode needs both --listen ADDR and --target URL")
	case !httpMode && len(o.command) == 0:
		return usageErr("no server: give its command after -- (jig proxy -- node server.js), or --listen and --target")
	case o.noRecord && o.record != "":
		return usageErr("--record and --no-record contradict each other")
	}
	if !httpMode {
		if _, err := session.LookCommand(o.command[0]); err != nil {
			return &exitError{code: exitUnreachable, err: err}
		}
	}
	return nil
}

func runProxy(ctx context.Context, o *proxyOptions, st *streams) error {
	httpMode := o.listen != "" || o.target != ""
	maxFrame, err := parseFrameLimit(o.maxFrame)
	if err != nil {
		return err
	}
	if err := checkProxy(o, httpMode); err != nil {
		return err
	}
	secrets := make([]string, 0, len(o.secrets))
	for _, s := range o.secrets {
		secrets = append(secrets, os.ExpandEnv(s))
	}
	// One redactor for the recordings, the export and the terminal, knowing
	// what jig call's would: the secrets of the target (for a server jig
	// starts, the secret-named variables it inherits) and, as they cross,
	// the values of the client's secret headers.
	var target []byte
	if httpMode {
		target, _ = json.Marshal(record.Target{Transport: "http", URL: o.target, Listen: o.listen})
		st.knowSecrets(session.Target{Transport: session.TransportStreamable, URL: o.target})
	} else {
		target, _ = json.Marshal(record.Target{Transport: "stdio", Command: o.command})
		st.knowSecrets(session.Target{Transport: session.TransportStdio, Command: o.command})
	}
	st.redact.Add(secrets...)
	checks, export, err := proxyWatchers(ctx, o, secrets, st)
	if err != nil {
		return err
	}
	asked := o.record // the HTTP proxy's later client sessions go beside it
	first, err := nextRecording(st, "jig proxy", o.record, o.noRecord)
	if err != nil {
		return err
	}
	// The recording holds the frames; memory holds none of them.
	log := frames.NewWriteThroughLog(nil)
	path, closer, err := record.ForLog(log, record.Options{Path: first, Disabled: o.noRecord, Target: target, Mode: "proxy", Redactor: st.redact, Inline: true})
	if err != nil {
		return usageErr("%v", err)
	}
	checks.watch(log)
	export.watch(log)
	var runErr error
	files := &sessionFiles{first: recorded{log: log, path: path, closer: closer}, checks: checks, export: export,
		opts: record.Options{Path: asked, Disabled: o.noRecord, Target: target, Mode: "proxy", Redactor: st.redact, Inline: true}}
	if httpMode {
		runErr = runHTTPProxy(ctx, o, files, secrets, maxFrame, st)
	} else {
		runErr = runStdioProxy(o, log, maxFrame, st)
	}
	checks.close() // before the recordings close: violations go into them
	export.close()
	files.close(st)
	return runErr
}

// proxyWatchers are what watches the traffic besides the recording: the
// contract checks (--contracts) and the OTLP export (--otlp), nil when not
// asked for.
func proxyWatchers(ctx context.Context, o *proxyOptions, secrets []string, st *streams) (*liveChecks, *otlpExport, error) {
	var checks *liveChecks
	if o.contracts != "" {
		c, err := contract.Load(o.contracts)
		if err != nil {
			return nil, nil, usageErr("%v", err)
		}
		checks = &liveChecks{c: c, st: st}
	}
	var export *otlpExport
	switch {
	case o.otlp != "":
		var err error
		if export, err = newOTLPExport(ctx, o, secrets, st); err != nil {
			return nil, nil, err
		}
	case o.otlpArgs:
		return nil, nil, usageErr("--otlp-args needs --otlp URL")
	}
	return checks, export, nil
}

// nextRecording is the file a command a client starts once per session
// (jig proxy or jig mock in an MCP config, with the same --record FILE)
// records to: an earlier session's file is kept and this one goes beside
// it, and stderr says so. Refusing, as a command typed by hand does, would
// take the client's server away on its second start.
func nextRecording(st *streams, who, path string, off bool) (string, error) {
	if path == "" || off {
		return path, nil
	}
	next, err := record.NextFree(path)
	if err != nil {
		return "", usageErr("%v", err)
	}
	if next != path {
		fmt.Fprintf(st.err, "%s: %s holds an earlier session (kept); recording this one to %s\n", who, path, next)
	}
	return next, nil
}

// sessionFiles records each client session behind the HTTP proxy in a file
// of its own: clients share the proxy, but their ids collide and their
// calls interleave. The first session takes the file --record names (or
// the first new one); the next ones take FILE-2.jsonl, FILE-3.jsonl, ….
type sessionFiles struct {
	// who names the command in its messages ("jig proxy" when "").
	who    string
	opts   record.Options
	first  recorded
	checks *liveChecks
	export *otlpExport
	mu     sync.Mutex
	keys   map[string]*recorded
	order  []*recorded
}

type recorded struct {
	key    string
	log    *frames.Log
	path   string
	closer func() error
}

// logFor is the Log of the client session key (proxy.HTTP.Sessions).
func (s *sessionFiles) logFor(key string) *frames.Log {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.keys[key]; ok {
		return r.log
	}
	if s.keys == nil {
		s.keys = map[string]*recorded{}
		s.first.key = key
		s.keys[key] = &s.first
		s.order = append(s.order, &s.first)
		return s.first.log
	}
	r := &recorded{key: key, log: frames.NewLog(nil)}
	opts := s.opts
	var err error
	if opts.Path != "" {
		// Beside the file asked for, as PATH-N.EXT: the first free N.
		opts.Path, err = record.NextNumbered(opts.Path)
	}
	// Named like the first, for its command (jig mock, jig proxy), numbered.
	opts.Label = fmt.Sprintf("%s-%d", cmp.Or(s.opts.Label, "session"), len(s.order)+1)
	path, closer := "", func() error { return nil }
	if err == nil {
		path, closer, err = record.ForLog(r.log, opts)
	}
	if err != nil {
		// Never lose the frames: they go with the first session's.
		r.log, r.path = s.first.log, s.first.path
		closer = func() error {
			return fmt.Errorf("client session %s: %v (its frames are in %s)", key, err, s.first.path)
		}
	}
	r.path, r.closer = path, closer
	if err == nil {
		s.checks.watch(r.log)
		s.export.watch(r.log)
	}
	s.keys[key] = r
	s.order = append(s.order, r)
	return r.log
}

func (s *sessionFiles) name() string {
	if s.who == "" {
		return "jig proxy"
	}
	return s.who
}

func (s *sessionFiles) close(st *streams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all := s.order
	if len(all) == 0 {
		all = []*recorded{&s.first}
	}
	failed := map[*recorded]bool{}
	for _, r := range all {
		if cerr := r.closer(); cerr != nil {
			fmt.Fprintf(st.err, "%s: %d frames crossed; %s\n", s.name(), r.log.Len(), recordingIncomplete(r.path, cerr))
			failed[r] = true
		}
	}
	s.firstSessionTakesTheFile(all, failed)
	for _, r := range all {
		if failed[r] || r.path == "" {
			continue
		}
		who := ""
		switch {
		case len(all) == 1:
		case r.key == "":
			who = " (traffic of no client session: requests answered without one, e.g. a probe before initialize)"
		default:
			who = " (client session " + r.key + ")"
		}
		// stderr only: in stdio mode stdout is the client's protocol stream.
		fmt.Fprintf(st.err, "%s: recorded %d frames to %s%s\n", s.name(), r.log.Len(), r.path, who)
	}
}

// firstSessionTakesTheFile gives the file --record named to the first
// client session when traffic of no session (a client's server/discover
// probe, answered with an error before its initialize) came first and took
// it: that traffic moves to FILE-no-session.jsonl. The files are closed.
func (s *sessionFiles) firstSessionTakesTheFile(all []*recorded, failed map[*recorded]bool) {
	if s.opts.Path == "" || s.first.key != "" || failed[&s.first] || s.first.path == "" {
		return
	}
	var next *recorded
	for _, r := range all[1:] {
		if r.key != "" && r.log != s.first.log && r.path != "" && !failed[r] {
			next = r
			break
		}
	}
	if next == nil {
		return // no client session: the traffic is the file's
	}
	ext := filepath.Ext(s.first.path)
	side := strings.TrimSuffix(s.first.path, ext) + "-no-session" + ext
	if _, err := os.Lstat(side); err == nil {
		return // never overwrite a file
	}
	named, moved := s.first.path, next.path
	if os.Rename(named, side) != nil {
		return
	}
	if os.Rename(next.path, named) != nil {
		os.Rename(side, named)
		return
	}
	s.first.path, next.path = side, named
	s.closeTheGap(all, next, moved)
	// Listed in file order: the named file first.
	for i, r := range all {
		if r == next {
			copy(all[1:i+1], all[:i])
			all[0] = next
			break
		}
	}
}

// closeTheGap renumbers the client sessions after next, whose numbered file
// (gap) it left for the named one: FILE-3 becomes FILE-2 and so on, so the
// second client session is in FILE-2 as the README says. A file in the way
// stops it.
func (s *sessionFiles) closeTheGap(all []*recorded, next *recorded, gap string) {
	for _, r := range all {
		if r == next || r == &s.first || r.key == "" || r.path == "" || r.log == s.first.log {
			continue
		}
		if !numberedAfter(r.path, gap, s.opts.Path) {
			continue
		}
		if _, err := os.Lstat(gap); err == nil || os.Rename(r.path, gap) != nil {
			return
		}
		r.path, gap = gap, r.path
	}
}

// numberedAfter says whether path is FILE-N and gap FILE-M with M < N, FILE
// being named.
func numberedAfter(path, gap, named string) bool {
	ext := filepath.Ext(named)
	base := strings.TrimSuffix(named, ext) + "-"
	n := func(p string) int {
		v, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(p, base), ext))
		if err != nil || !strings.HasPrefix(p, base) || !strings.HasSuffix(p, ext) {
			return -1
		}
		return v
	}
	m, k := n(gap), n(path)
	return m > 0 && k > m
}

func runStdioProxy(o *proxyOptions, log *frames.Log, maxFrame int, st *streams) error {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	// A client that goes away must not kill jig with SIGPIPE before the
	// server's exit is recorded. Caught, not ignored: an ignored signal is
	// inherited, and the server must run as it would without jig.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)
	// The protocol passes byte for byte; the server's stderr is a log the
	// client keeps, so it passes line by line through the run's redactor.
	p := &proxy.Stdio{Command: o.command, Stdin: st.in, Stdout: st.rawOut, Stderr: st.err, Log: log, Signals: sigs, MaxFrame: maxFrame}
	// Signals are passed on, not acted upon: the server decides when to go,
	// and its exit status becomes ours.
	code, err := p.Run(context.Background())
	if err != nil {
		return &exitError{code: exitUnreachable, err: err}
	}
	if code != 0 {
		return &exitError{code: code}
	}
	return nil
}

func runHTTPProxy(ctx context.Context, o *proxyOptions, files *sessionFiles, secrets []string, maxFrame int, st *streams) error {
	u, err := url.Parse(o.target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageErr("--target %q: expected an http:// or https:// URL", o.target)
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return usageErr("--listen %s: %v", o.listen, err)
	}
	p := &proxy.HTTP{Target: u, Log: files.first.log, Redact: st.redact, Sessions: files.logFor, MaxFrame: maxFrame}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(st.err, "jig proxy: http://%s → %s (Ctrl-C to stop)\n", ln.Addr(), u.Redacted())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err = <-errc:
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		// Event streams never end by themselves: close what is still open.
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
		cancel()
		err = nil
	}
	p.Close()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// liveChecks hold each client session's responses to the contracts as the
// proxy records them: one contract.Live per Log, fed by the Log on the
// recorder's goroutine, checking on its own, never on the forwarding path.
type liveChecks struct {
	c     *contract.Contracts
	st    *streams
	mu    sync.Mutex
	lives []*contract.Live
}

// watch checks log's frames from now on. A nil liveChecks checks nothing.
func (l *liveChecks) watch(log *frames.Log) {
	if l == nil {
		return
	}
	live := contract.NewLive(l.c, 0, func(v contract.Violation) {
		// stderr only: in stdio mode stdout is the client's protocol stream.
		fmt.Fprintf(l.st.err, "jig proxy: contract: %s\n", v)
		log.Note(contract.MetaKey, v)
	})
	log.AddSink(live)
	l.mu.Lock()
	l.lives = append(l.lives, live)
	l.mu.Unlock()
}

// close finishes the checks and says what they found.
func (l *liveChecks) close() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var total contract.Counts
	var dropped int64
	for _, live := range l.lives {
		c, d := live.Close()
		addCounts(&total, c)
		dropped += d
	}
	fmt.Fprintf(l.st.err, "jig proxy: contracts %s: %d tool calls, %d held to a contract, %d violations in %d calls",
		l.c.File, total.Calls, total.Checked, total.Violations, total.Violating)
	if dropped > 0 {
		fmt.Fprintf(l.st.err, "; %d frames went unchecked (the checks fell behind the traffic; the recording has them all: jig check %s RECORDING)", dropped, l.c.File)
	}
	fmt.Fprintln(l.st.err)
}

// otlpExport sends each client session's calls to a collector (--otlp).
type otlpExport struct {
	e  *otlp.Exporter
	st *streams
}

func newOTLPExport(ctx context.Context, o *proxyOptions, secrets []string, st *streams) (*otlpExport, error) {
	if _, err := otlp.ParseEndpoint(o.otlp); err != nil {
		return nil, usageErr("%v", err)
	}
	red := st.redact
	server := o.target
	if server == "" {
		server = strings.Join(o.command, " ")
	}
	e, err := otlp.New(ctx, otlp.Options{Endpoint: o.otlp, Server: red.String(server), Args: o.otlpArgs, Redact: red})
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return &otlpExport{e: e, st: st}, nil
}

// watch exports log's calls from now on. A nil otlpExport exports nothing.
func (x *otlpExport) watch(log *frames.Log) {
	if x != nil {
		log.AddSink(x.e.Session(""))
	}
}

// otlpWait is how long jig proxy waits at exit for the last exports.
const otlpWait = 3 * time.Second

// close sends what is left (waiting otlpWait at most) and says what was not
// exported.
func (x *otlpExport) close() {
	if x == nil {
		return
	}
	c := x.e.Close(otlpWait)
	fmt.Fprintf(x.st.err, "jig proxy: otlp %s: %s, %d exported as spans", x.e.Endpoint(), frames.Count(int(c.Calls), "call"), c.Exported)
	if c.Dropped > 0 || c.FramesDropped > 0 || c.MetricFailures > 0 {
		fmt.Fprintf(x.st.err, ", %d not exported", c.Dropped)
		if c.FramesDropped > 0 {
			fmt.Fprintf(x.st.err, " (%d frames did not fit the queue)", c.FramesDropped)
		}
		if c.MetricFailures > 0 {
			fmt.Fprintf(x.st.err, ", %d of %d metric exports failed", c.MetricFailures, c.MetricExports)
		}
		if c.Err != nil {
			fmt.Fprintf(x.st.err, ": %v", c.Err)
		}
		fmt.Fprintf(x.st.err, " (the recording has every call: jig stats RECORDING)")
	}
	fmt.Fprintln(x.st.err)
}
