package session

//lint:file-ignore SA1019 roots, sampling and logging are deprecated as of 2026-07-28 (SEP-2577) but still spoken in both eras; jig inspects servers that use them.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/demo"
	"github.com/mcpjig/jig/session/oauth"
)

// Version is jig's version, written into transcripts and fixtures.
var Version = "0.1.0"

// Protocol versions jig lets the user choose. "" and "auto" follow the SDK:
// try the stateless server/discover, fall back to initialize.
var ProtocolVersions = []string{"auto", "2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

func (o Options) versionFrom() string {
	if o.VersionFrom == "" {
		return "--protocol-version"
	}
	return o.VersionFrom
}

// Options configure a session.
type Options struct {
	Target          Target
	ProtocolVersion string // "" or "auto", or one of ProtocolVersions
	// VersionFrom names who asked for ProtocolVersion, for the error when
	// the server does not speak it: "--protocol-version" when empty.
	VersionFrom string
	Grace       time.Duration // stdio shutdown grace; DefaultGrace when 0
	// Capabilities jig declares: any of "roots", "sampling", "elicitation".
	Capabilities []string
	// Roots are what jig answers roots/list with when it declares "roots".
	// None by default: a server must not learn jig's working directory (or
	// anything else about the machine) unless the user or a fixture names a
	// root. See RootOf.
	Roots []Root
	// Vars are variables of this session alone, such as a fresh scratch
	// directory per replayed fixture: they expand like environment variables
	// ($NAME, ${NAME}) in env and header values and the working directory,
	// and they are the only variables that expand in a stdio command's
	// arguments. They win over the environment.
	Vars map[string]string
	Log  *frames.Log // where frames go; a new Log when nil
	// Auth turns on OAuth for Streamable HTTP targets: what jig may do when
	// the server answers 401 (log in, use stored credentials only, client
	// credentials). Server, Log and Redact are the session's. Nil: a 401
	// fails the connection. An Authorization --header turns it off: the user
	// is handling authorization.
	Auth *oauth.Options
	// Redact is the one redactor of everything the session writes or
	// prints: the CLI shares it with its recording, --frames and its own
	// output. The session adds the target's secrets (Target.Secrets) and
	// those it learns as they become known: OAuth tokens, codes and client
	// secrets, the values of secret-named arguments jig sends. Nil: the
	// session makes one.
	Redact *frames.Redactor
	// MaxFrame is the frame limit in bytes (frames.DefaultMaxFrame when 0):
	// a stdio line, HTTP body or event larger than it is recorded truncated
	// and the session ends with an error saying so.
	MaxFrame int
	// AllowCrossOriginEndpoint lets a legacy SSE server's endpoint event
	// name another origin than the target's (refused by default). The
	// session's POSTs then go there, never with the configured headers.
	AllowCrossOriginEndpoint bool
	// OneShot is a session for one listing or request that ends after it
	// (jig tools, resources, ping...): jig asks for no list_changed
	// notifications, so in the 2026-07-28 era the SDK opens no
	// subscriptions/listen stream (a round trip and a parked request on the
	// server, cancelled at Close). A legacy server's list_changed still
	// arrive, are recorded and make ListTools list again. The On*Changed
	// hooks are never called.
	OneShot bool
	// OnToolsChanged is called (off the SDK's goroutine) when the server
	// sends notifications/tools/list_changed.
	OnToolsChanged func()
	// OnResourcesChanged and OnPromptsChanged are the same for
	// notifications/resources/list_changed and prompts/list_changed.
	OnResourcesChanged func()
	OnPromptsChanged   func()
	// OnResourceUpdated is called (off the SDK's goroutine) with the URI of
	// each notifications/resources/updated a subscription brings.
	OnResourceUpdated func(uri string)
	// Sampling answers the server's sampling/createMessage requests (when
	// "sampling" is declared). Nil keeps jig non-interactive: a canned,
	// clearly labelled reply (CannedSampling). The TUI sets it to ask a human.
	Sampling SamplingFunc
	// Elicit answers elicitation/create (when "elicitation" is declared).
	// Nil declines every request, as the CLI does.
	Elicit ElicitFunc
	// ElicitScript and SampleScript are the scripted answers behind Elicit
	// and Sampling when they come from --elicit and --sample, so a pinned
	// fixture can keep them and its replay answer the same way.
	ElicitScript, SampleScript *Script

	// legacyOnly skips the era probe (Open's second try at a server the
	// probe ended).
	legacyOnly bool
}

// MetaSession is the transcript meta key under which a session's Info is
// recorded once the handshake is done, so `jig open` can show it.
const MetaSession = "session"

// Info is what the handshake established, shown by every command.
type Info struct {
	Target             string          `json:"target"`
	Transport          Transport       `json:"transport"`
	ProtocolVersion    string          `json:"protocolVersion"`
	Era                string          `json:"era"` // "stateless" (2026-07-28+) or "legacy"
	ServerName         string          `json:"serverName"`
	ServerVersion      string          `json:"serverVersion"`
	ServerCapabilities json.RawMessage `json:"serverCapabilities,omitempty"`
	ClientCapabilities []string        `json:"clientCapabilities"`
	// Roots are the root URIs jig answers roots/list with (when it declares
	// roots): none unless asked.
	Roots        []string `json:"roots,omitempty"`
	Instructions string   `json:"instructions,omitempty"`
}

// Session is a live connection and its frames.
type Session struct {
	Log     *frames.Log
	opts    Options
	client  *mcp.Client
	cs      *mcp.ClientSession
	proc    *process
	line    *lineTap // stdio and the demo server: the line stream
	http    *httpTap // HTTP targets: what is still in flight
	info    Info
	stop    func() // stops an in-process demo server
	tools   []*mcp.Tool
	toolsMu sync.Mutex // a re-listing after list_changed may run beside another

	era         *eraState
	hookMu      sync.Mutex
	hookClaimed map[int]bool // server→client request frames handed to a hook
	progress    progressRoutes
	watchMu     sync.Mutex
	watch       func(uri string) // see WatchResources

	redact *frames.Redactor
	auth   *oauth.Handler // nil unless OAuth is on for this target

	closing atomic.Bool // Close was called: an end that follows is jig's own
}

// EraOf names the protocol era of a version.
func EraOf(version string) string {
	if version >= "2026-07-28" {
		return "stateless"
	}
	return "legacy"
}

// Open connects to the target, performing the handshake. Every frame,
// including a failed handshake's, is in opts.Log whatever the outcome.
//
// A URL whose transport nobody stated (a config entry with only "url")
// falls back to the legacy HTTP+SSE transport when Streamable HTTP is
// refused with 400, 404 or 405, as the specification tells clients to.
func Open(ctx context.Context, opts Options) (*Session, error) {
	if opts.Log == nil {
		opts.Log = frames.NewLog(nil)
	}
	if opts.Redact == nil {
		opts.Redact = frames.NewRedactor()
	}
	opts.Redact.Add(opts.Target.Secrets()...)
	opts.Log.AddSink(learner{opts.Redact})
	mark := opts.Log.Len()
	s, err := openOnce(ctx, opts)
	var ce *ConnectError
	if err == nil || !errors.As(err, &ce) {
		return s, err
	}
	defer func() { explain(opts, mark, err) }()
	switch {
	case opts.Target.DetectSSE && opts.Target.Transport == TransportStreamable && refusedStreamable(opts.Log, mark):
		opts.Log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport,
			Note: "jig: " + opts.Target.URL + " refused Streamable HTTP; trying the legacy HTTP+SSE transport (2024-11-05)"})
		opts.Target.Transport = TransportSSE
		s, err = openOnce(ctx, opts)
		return s, err
	case (opts.ProtocolVersion == "" || opts.ProtocolVersion == "auto") && opts.Target.Transport == TransportStdio && probeEndedServer(opts.Log, mark):
		// Some legacy servers (rmcp's, for one) exit on any first message
		// but initialize, so the probe leaves nothing to fall back on: start
		// the server again and send initialize, as a legacy client would.
		opts.Log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport,
			Note: "jig: the server exited on the server/discover probe (a legacy server that ends on an unknown first message); starting it again with initialize"})
		opts.legacyOnly = true
		s, err = openOnce(ctx, opts)
		return s, err
	}
	return s, err
}

// explain gives a failed connection's error the likely cause and the next
// step its frames show (see diagnose), unless it has them already.
func explain(opts Options, mark int, err error) {
	var ce *ConnectError
	if errors.As(err, &ce) && ce.Hint == nil {
		ce.Hint = diagnose(opts.Target, opts.Log, mark, ce.Err)
	}
}

// probeEndedServer reports whether, after frame mark, jig sent the
// server/discover probe, the server answered nothing, and it exited.
func probeEndedServer(log *frames.Log, mark int) bool {
	probed, exited := false, false
	for i := mark; i < log.Len(); i++ {
		f := log.Frame(i)
		switch {
		case f.Dir == frames.ClientToServer && f.Kind.IsMessage():
			if f.Method != "server/discover" {
				return false
			}
			probed = true
		case f.Dir == frames.ServerToClient && f.Kind.IsMessage():
			return false // it answered: a refusal says what it is
		case f.Dir == frames.ServerToClient && f.Kind == frames.KindTransport && strings.HasPrefix(f.Note, frames.ServerExitedNote):
			exited = true
		}
	}
	return probed && exited
}

// refusedStreamable reports whether the server answered a POST after frame
// mark with 400, 404 or 405 and never with success.
func refusedStreamable(log *frames.Log, mark int) bool {
	refused := false
	for i := mark; i < log.Len(); i++ {
		f := log.Frame(i)
		if f.Dir != frames.ServerToClient || f.HTTP == nil || f.HTTP.Method != http.MethodPost {
			continue
		}
		switch st := f.HTTP.Status; {
		case st >= 200 && st < 300:
			return false
		case st == 400 || st == 404 || st == 405:
			refused = true
		}
	}
	return refused
}

func openOnce(ctx context.Context, opts Options) (*Session, error) {
	if opts.Grace == 0 {
		opts.Grace = DefaultGrace
	}
	if opts.ProtocolVersion == "auto" {
		opts.ProtocolVersion = ""
	}
	if opts.ProtocolVersion != "" && !validVersion(opts.ProtocolVersion) {
		return nil, &UsageError{fmt.Errorf("--protocol-version %q: unknown; use one of %s", opts.ProtocolVersion, strings.Join(ProtocolVersions, ", "))}
	}
	s := &Session{Log: opts.Log, opts: opts, era: &eraState{}}
	s.client = mcp.NewClient(&mcp.Implementation{Name: "jig", Version: Version}, s.clientOptions())
	if opts.ProtocolVersion >= "2026-07-28" {
		// The SDK falls back to initialize when server/discover fails, even
		// when the 2026-07-28 era was asked for by name.
		s.client.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "initialize" {
					return nil, errVersionNotSpoken
				}
				return next(ctx, method, req)
			}
		})
	}
	if has(opts.Capabilities, "roots") && len(opts.Roots) > 0 {
		roots := make([]*mcp.Root, len(opts.Roots))
		for i, r := range opts.Roots {
			roots[i] = &mcp.Root{URI: r.URI, Name: r.Name}
		}
		s.client.AddRoots(roots...)
	}
	transport, err := s.transport()
	if err != nil {
		return nil, s.redacted(err)
	}
	connectCtx, cancel := ctx, func() {}
	if s.proc != nil {
		connectCtx, cancel = s.proc.exitWatch(ctx)
	}
	version := opts.ProtocolVersion
	if opts.legacyOnly {
		version = "2025-11-25" // initialize; the server answers with the version it speaks
	}
	started := time.Now()
	cs, err := s.client.Connect(connectCtx, transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	cancel()
	if err != nil && errors.Is(ctx.Err(), context.Canceled) {
		// The caller gave up (an interrupt): the server did not fail, and
		// the exit Close causes is not its doing.
		s.Close()
		return nil, &CancelledError{Method: "the handshake", After: time.Since(started), Cause: context.Cause(ctx)}
	}
	if errors.Is(err, errVersionNotSpoken) {
		s.Close()
		what, answered := probeAnswer(s.Log)
		if !answered {
			return nil, s.connectError(ctx, connectCtx, errors.New(what), "handshake failed", 0)
		}
		return nil, &ConnectError{Target: opts.Target, Err: fmt.Errorf("the server does not speak protocol %s, which %s named: %s (use --protocol-version auto to accept what it speaks)", opts.ProtocolVersion, opts.versionFrom(), what)}
	}
	if err != nil {
		s.Close()
		return nil, s.redacted(s.connectError(ctx, connectCtx, err, "handshake failed", 0))
	}
	s.cs = cs
	s.fillInfo()
	s.era.settle(s.info.ProtocolVersion)
	if opts.ProtocolVersion != "" && !opts.legacyOnly && s.info.ProtocolVersion != opts.ProtocolVersion {
		// A legacy server answers initialize with the version it prefers.
		s.Close()
		return nil, &ConnectError{Target: opts.Target, Err: fmt.Errorf("the server does not speak protocol %s, which %s named: it answered with protocol %s (use --protocol-version auto, or %s)", opts.ProtocolVersion, opts.versionFrom(), s.info.ProtocolVersion, s.info.ProtocolVersion)}
	}
	s.Log.Note(MetaSession, s.info)
	return s, nil
}

func validVersion(v string) bool {
	for _, p := range ProtocolVersions[1:] {
		if p == v {
			return true
		}
	}
	return false
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Session) clientOptions() *mcp.ClientOptions {
	o := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	if has(s.opts.Capabilities, "roots") {
		o.Capabilities.RootsV2 = &mcp.RootCapabilities{ListChanged: true}
	}
	if has(s.opts.Capabilities, "sampling") {
		o.CreateMessageHandler = s.samplingHandler()
	}
	if has(s.opts.Capabilities, "elicitation") {
		o.ElicitationHandler = s.elicitHandler()
	}
	o.ProgressNotificationHandler = func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
		s.progress.deliver(req.Params)
	}
	if !s.opts.OneShot {
		// A handler is what makes the SDK subscribe in the 2026-07-28 era.
		o.ToolListChangedHandler = func(ctx context.Context, req *mcp.ToolListChangedRequest) {
			goHook(s.opts.OnToolsChanged)
		}
		o.ResourceListChangedHandler = func(ctx context.Context, req *mcp.ResourceListChangedRequest) {
			goHook(s.opts.OnResourcesChanged)
		}
		o.PromptListChangedHandler = func(ctx context.Context, req *mcp.PromptListChangedRequest) {
			goHook(s.opts.OnPromptsChanged)
		}
	}
	o.ResourceUpdatedHandler = func(ctx context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		if req.Params != nil {
			s.resourceUpdated(req.Params.URI)
		}
	}
	return o
}

// goHook calls a list_changed hook off the SDK's goroutine, which must not
// wait on a hook that may re-list (and so wait on the SDK) in turn.
func goHook(hook func()) {
	if hook != nil {
		go hook()
	}
}

func (s *Session) transport() (mcp.Transport, error) {
	redact := s.opts.Redact
	if redact == nil {
		redact = frames.NewRedactor()
		redact.Add(s.opts.Target.Secrets()...)
	} // else Open added the target's secrets (an environment scan) already
	s.redact = redact
	t, err := s.opts.Target.Expanded(s.opts.Vars)
	if err != nil {
		return nil, err
	}
	switch t.Transport {
	case TransportStdio:
		p, err := startProcess(t, s.Log, s.opts.Grace, s.opts.MaxFrame)
		var ce *ConnectError
		if errors.As(err, &ce) {
			ce.Target = s.opts.Target // as given: references, not their values
		}
		if err != nil {
			return nil, err
		}
		s.proc, s.line = p, p.tap
		return idTransport{&mcp.IOTransport{Reader: p.tap, Writer: p.tap, MaxLineLength: -1}, s.era, &s.closing}, nil
	case TransportDemo:
		release := t.Release
		if release == 0 {
			release = 1
		}
		srv, err := demoServer(release)
		if err != nil {
			return nil, &UsageError{err}
		}
		// The demo server runs in-process behind the same line tap a child
		// process would have, so its frames are exact bytes too.
		c2sR, c2sW := io.Pipe()
		s2cR, s2cW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = srv.Run(ctx, &mcp.IOTransport{Reader: c2sR, Writer: s2cW, MaxLineLength: -1})
			s2cW.Close()
		}()
		tap := newLineTap(s.Log, c2sW, s2cR)
		s.line = tap
		// The server's last lines are in the Log once the tap has read them all.
		s.stop = func() { c2sW.Close(); cancel(); <-done; <-tap.done }
		return idTransport{&mcp.IOTransport{Reader: tap, Writer: tap, MaxLineLength: -1}, s.era, &s.closing}, nil
	case TransportStreamable, TransportSSE:
		headers := http.Header{}
		for k, v := range t.Headers {
			headers.Add(k, v)
		}
		s.http = &httpTap{next: http.DefaultTransport, log: s.Log, headers: headers, redact: redact, era: s.era, limit: s.opts.MaxFrame,
			allowCross: s.opts.AllowCrossOriginEndpoint, reach: newReach(), closing: &s.closing}
		if u, err := url.Parse(t.URL); err == nil && u.Host != "" {
			s.http.origin = originOf(u)
		}
		s.http.probe.Store((s.opts.ProtocolVersion == "" || EraOf(s.opts.ProtocolVersion) == "stateless") && t.Transport == TransportStreamable)
		hc := &http.Client{Transport: s.http, CheckRedirect: s.http.redirectPolicy}
		if t.Transport == TransportSSE {
			return detached{&mcp.SSEClientTransport{Endpoint: t.URL, HTTPClient: hc, MaxEventSize: -1}}, nil
		}
		st := &mcp.StreamableClientTransport{Endpoint: t.URL, HTTPClient: hc, MaxEventSize: -1}
		if s.opts.Auth != nil && headers.Get("Authorization") == "" {
			ao := *s.opts.Auth
			ao.Server, ao.Log, ao.Redact = t.URL, s.Log, redact
			onWait := ao.OnWait
			ao.OnWait = func(waiting bool) {
				waitingOnUser(waiting) // the WithTimeout clocks stop meanwhile
				if onWait != nil {
					onWait(waiting)
				}
			}
			h, err := oauth.New(ao)
			if err != nil {
				return nil, &UsageError{err}
			}
			s.auth, st.OAuthHandler = h, h
		}
		return detached{st}, nil
	}
	return nil, &UsageError{fmt.Errorf("no target: give a command after --, --url, --config, or --demo")}
}

func exitOr(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// demoServers hold one demo server per release that keeps no state between
// calls (1 and 2): every in-process session shares it, as clients share a
// real server, because building one resolves its tools' schemas, which costs
// more than a whole session (a replay opens one per fixture). A release whose
// answers depend on the calls before them gets a server of its own.
var (
	demoMu      sync.Mutex
	demoServers = map[int]*mcp.Server{}
)

func demoServer(release int) (*mcp.Server, error) {
	if release > 2 {
		return demo.New(release)
	}
	demoMu.Lock()
	defer demoMu.Unlock()
	if srv, ok := demoServers[release]; ok {
		return srv, nil
	}
	srv, err := demo.New(release)
	if err != nil {
		return nil, err
	}
	demoServers[release] = srv
	return srv, nil
}

// detached connects a transport with a context that outlives the handshake:
// the SSE transport opens its event stream with the Connect context, so a
// handshake timeout context would otherwise end the stream when Open returns.
// It wraps the Transport, never the Connection the SDK type-asserts.
//
// The wait itself is still the caller's: a legacy SSE server that opens the
// stream and never sends its endpoint event would otherwise hold Connect,
// and jig, until SIGKILL. When ctx ends first, the stream is abandoned.
type detached struct{ mcp.Transport }

func (d detached) Connect(ctx context.Context) (mcp.Connection, error) {
	if _, legacy := d.Transport.(*mcp.SSEClientTransport); !legacy {
		return d.Transport.Connect(context.WithoutCancel(ctx))
	}
	streamCtx, abandon := context.WithCancel(context.WithoutCancel(ctx))
	type connected struct {
		c   mcp.Connection
		err error
	}
	done := make(chan connected, 1)
	go func() {
		c, err := d.Transport.Connect(streamCtx)
		done <- connected{c, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			abandon()
			return nil, r.err
		}
		return abandoning{r.c, abandon}, nil
	case <-ctx.Done():
		abandon()
		return nil, fmt.Errorf("%w: %w", errNoEndpoint, context.Cause(ctx))
	}
}

// errNoEndpoint is why a legacy SSE connection did not open in time.
var errNoEndpoint = errors.New("the legacy SSE server opened its event stream but never sent the endpoint event that says where to send requests (is it a Streamable HTTP endpoint? try --transport http)")

// abandoning ends a legacy SSE stream's context when its connection closes.
// (Only the SSE connection is wrapped: the SDK type-asserts nothing on it.)
type abandoning struct {
	mcp.Connection
	abandon context.CancelFunc
}

func (a abandoning) Close() error {
	err := a.Connection.Close()
	a.abandon()
	return err
}

// connectError turns an SDK error into a ConnectError when the server could
// not be reached, exited, or timed out, attaching its last stderr lines.
//
// A timeout names what the server sent meanwhile that jig could not use
// (frames from index mark on): an answer with an object for its id cannot
// be tied to its request, and "timed out" alone would hide that it came.
func (s *Session) connectError(parent, ctx context.Context, err error, what string, mark int) error {
	var ue *UsageError
	if errors.As(err, &ue) {
		return err
	}
	ce := &ConnectError{Target: s.opts.Target, Err: fmt.Errorf("%s: %w", what, err)}
	// An authorization failure says which step failed; the SDK's wrapping
	// of it (the request that was refused) adds nothing.
	var oe *oauth.Error
	var ne *oauth.NeedsLoginError
	switch {
	case errors.As(err, &oe):
		ce.Err = fmt.Errorf("%s: %w", what, oe)
		return ce
	case errors.As(err, &ne):
		ce.Err = fmt.Errorf("%s: %w", what, ne)
		return ce
	}
	if s.proc != nil {
		// A closed connection usually means the process is exiting: give it a
		// moment so the error can say how it exited and show its last words.
		select {
		case <-s.proc.exited:
		case <-time.After(s.opts.Grace + 300*time.Millisecond):
		}
		if exited, exitErr := s.proc.Exited(); exited {
			ce.Err = fmt.Errorf("%s: the server exited (%v)", what, exitOr(exitErr))
		} else if s.proc.outputEnded() {
			ce.Err = fmt.Errorf("%s: the server closed its stdout but is still running, so no answer can arrive; jig stops it (does it close or redirect stdout? its stderr may say)", what)
		} else if cause := context.Cause(ctx); errors.Is(cause, errServerExited) {
			_, exitErr := s.proc.Exited()
			ce.Err = fmt.Errorf("%s: the server exited (%v)", what, exitErr)
		}
		ce.Stderr = s.proc.Stderr()
		if f := s.proc.tap.overflow.Load(); f != nil {
			ce.Err = fmt.Errorf("%s: %w", what, &FrameLimitError{Frame: f, Limit: s.proc.tap.max})
			return ce
		}
	}
	if s.http != nil {
		if bad := s.http.bad.Load(); bad != nil && bad.Seq > int64(mark) {
			ce.Err = fmt.Errorf("%s: %w", what, bad)
			return ce
		}
		if ue, ok := unanswered(err); ok {
			w, _ := ctx.Value(writtenKey{}).(*written)
			ce.Err = &NotAnsweredError{Method: what, Err: ue.Err, Sent: w != nil && w.sentLost.Load()}
			return ce
		}
	}
	if errors.Is(parent.Err(), context.DeadlineExceeded) {
		ce.Err = fmt.Errorf("%s: timed out (raise --timeout if the server is slow)%s", what, s.withheldSince(mark))
		if errors.Is(err, errNoEndpoint) {
			ce.Err = fmt.Errorf("%s: timed out: %w", what, errNoEndpoint)
		}
	}
	return ce
}

// withheldSince describes the server frames from index mark on that jig
// withheld from the SDK, for a timeout's message; "" when there are none.
func (s *Session) withheldSince(mark int) string {
	var parts []string
	for _, f := range frames.Withheld(s.Log, mark) {
		if len(parts) == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("#%d %s", f.Seq, f.Err))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; meanwhile the server sent what jig could not use: " + strings.Join(parts, "; ")
}

func (s *Session) fillInfo() {
	res := s.cs.InitializeResult()
	s.info = Info{Target: s.opts.Target.String(), Transport: s.opts.Target.Transport, ClientCapabilities: s.declared()}
	if has(s.opts.Capabilities, "roots") {
		for _, r := range s.opts.Roots {
			s.info.Roots = append(s.info.Roots, r.URI)
		}
	}
	if res == nil {
		return
	}
	s.info.ProtocolVersion = res.ProtocolVersion
	s.info.Era = EraOf(res.ProtocolVersion)
	if res.ServerInfo != nil {
		s.info.ServerName, s.info.ServerVersion = res.ServerInfo.Name, res.ServerInfo.Version
	}
	s.info.ServerCapabilities, _ = json.Marshal(res.Capabilities)
	s.info.Instructions = res.Instructions
}

func (s *Session) declared() []string {
	var out []string
	for _, c := range []string{"roots", "sampling", "elicitation"} {
		if has(s.opts.Capabilities, c) {
			out = append(out, c)
		}
	}
	return out
}

// Info returns what the handshake established.
func (s *Session) Info() Info { return s.info }

// ScriptFailures are the server's requests for input the session's scripts
// (--elicit, --sample, a fixture's answers) could not answer so far: jig
// answered each with its own error (see Script.Failures).
func (s *Session) ScriptFailures() []string {
	return append(s.opts.ElicitScript.Failures(), s.opts.SampleScript.Failures()...)
}

// Vars returns the session's variables (Options.Vars).
func (s *Session) Vars() map[string]string { return s.opts.Vars }

// Redactor returns the session's redactor (Options.Redact), which knows its
// target's secrets and what it learned since.
func (s *Session) Redactor() *frames.Redactor { return s.opts.Redact }

// Stderr returns the server's last stderr lines (stdio targets only).
func (s *Session) Stderr() []string {
	if s.proc == nil {
		return nil
	}
	return s.proc.Stderr()
}

// Close ends the session: the SDK closes its side, and a stdio server gets
// its short grace before SIGTERM and SIGKILL.
func (s *Session) Close() error {
	s.closing.Store(true)
	var err error
	if s.cs != nil {
		// The SDK's Close may outlast the wait: its error comes through a
		// channel, so a late one is dropped rather than written while
		// Close returns (go test -race saw that).
		errc := make(chan error, 1)
		go func() { errc <- s.cs.Close() }()
		select {
		case err = <-errc:
		case <-time.After(s.opts.Grace + time.Second):
		}
	}
	if s.http != nil {
		s.http.settle(s.opts.Grace + time.Second)
		s.http.reach.end()
	}
	if s.proc != nil {
		s.proc.stop()
	}
	if s.stop != nil {
		s.stop()
	}
	if s.auth != nil {
		s.auth.Close()
	}
	return err
}

// WaitGone blocks until the session ends without Close: a stdio server's
// process exited, or the connection under the SDK ended (an in-process
// server stopped, a transport failed for good). It returns why, as a user
// reads it ("the server exited (exit status 124)"), or "" when the session
// ended because Close was called. A caller that shows the session uses it
// to stop saying "connected" about a server that is gone.
func (s *Session) WaitGone() string {
	if s.cs == nil {
		return ""
	}
	var exited <-chan struct{}
	if s.proc != nil {
		exited = s.proc.exited
	}
	waited := make(chan error, 1)
	go func() { waited <- s.cs.Wait() }()
	why := ""
	select {
	case <-exited:
		_, err := s.proc.Exited()
		why = "the server exited (" + exitOr(err) + ")"
	case err := <-waited:
		if s.proc != nil {
			// The connection ends as the process does: say how it exited.
			select {
			case <-s.proc.exited:
				_, perr := s.proc.Exited()
				why = "the server exited (" + exitOr(perr) + ")"
			case <-time.After(200 * time.Millisecond):
			}
		}
		if why == "" {
			why = "the connection to the server ended"
			if err != nil {
				why += " (" + s.redact.String(err.Error()) + ")"
			}
		}
	}
	if s.closing.Load() {
		return ""
	}
	return why
}

// Auth returns the OAuth grant the session uses, or nil when it uses none.
func (s *Session) Auth() *oauth.Grant {
	if s.auth == nil {
		return nil
	}
	return s.auth.Grant()
}

// call runs fn with the session's failure handling: a server that exits mid
// call (or, over HTTP, goes away) fails fast with its stderr, a timeout says so.
func (s *Session) call(ctx context.Context, what string, fn func(ctx context.Context) error) error {
	var cctx context.Context
	var cancel context.CancelFunc
	if s.proc != nil {
		cctx, cancel = s.proc.exitWatch(ctx)
	} else {
		cctx, cancel = s.goneWatch(ctx, what)
	}
	defer cancel()
	start := time.Now()
	mark := s.Log.Len()
	err := fn(cctx)
	if err == nil {
		return nil
	}
	var rpcErr *RPCError
	if errors.As(err, &rpcErr) {
		return err
	}
	if g := goneError(cctx); g != nil {
		return s.redacted(&ConnectError{Target: s.opts.Target, Err: g})
	}
	if g := s.lostAnswer(cctx, what, err); g != nil {
		return s.redacted(&ConnectError{Target: s.opts.Target, Err: g})
	}
	if errors.Is(err, ErrScriptExhausted) {
		// --elicit or --sample ran out of answers: the user's script, not
		// the server, needs another answer.
		return &UsageError{Err: fmt.Errorf("%s: %w", what, err)}
	}
	var wa *withheldAnswer
	if errors.As(err, &wa) {
		// A server could send this code itself; only a frame jig really
		// withheld makes it an unusable answer.
		if wa.seq > int64(s.Log.Len()) || s.Log.Frame(int(wa.seq)-1).Dispatchable() {
			return &RPCError{Code: withheldCode, Message: "jig withheld the server's answer"}
		}
		return s.redacted(&ConnectError{Target: s.opts.Target, Stderr: s.Stderr(),
			Err: &UnusableAnswerError{Method: what, Frame: s.Log.Frame(int(wa.seq) - 1)}})
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		// Cancelled by the caller (the user's cancel, an interrupt), not a
		// broken connection: no waiting for the process to exit.
		return &CancelledError{Method: what, After: time.Since(start), Cause: context.Cause(ctx)}
	}
	return s.redacted(s.connectError(ctx, cctx, err, what, mark))
}

// redacted makes a ConnectError's message (the target, the cause, the
// server's last stderr lines) go through the session's redactor.
func (s *Session) redacted(err error) error {
	var ce *ConnectError
	if errors.As(err, &ce) {
		ce.redact = s.opts.Redact
	}
	return err
}

// A learner teaches the redactor the secret-named values jig sends (a
// "password" argument), so the server's echo of one is redacted wherever it
// lands: escaped, inside a text block, on stderr.
type learner struct{ r *frames.Redactor }

func (l learner) WriteFrame(f *frames.Frame) error {
	if f.Dir == frames.ClientToServer && f.Kind.IsMessage() {
		l.r.Learn(f.Raw)
	}
	return nil
}
