// Package mock serves fixtures and recordings as an MCP server (jig mock):
// a client under test — an agent framework's adapter, a host application,
// a gateway, an SDK upgrade — talks to it over stdio or Streamable HTTP and
// gets what the recorded server answered, byte for byte, deterministically
// and offline. A request nothing recorded matches gets a JSON-RPC error
// naming the closest recorded requests and where they differ (WireMock's
// near-miss report); faults can be injected to test the client's error
// handling.
//
// Messages are checked as the official SDK's jsonrpc package checks them
// (TestDecodeAgreesWithTheSDK), reading only the members needed; answers are
// the recorded bytes with the client's id put in, so key order and number
// spelling are as recorded (the SDK's server would re-encode them, and
// could not send a malformed line on purpose).
package mock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpjig/jig/frames"
)

// Match modes: how a request is matched with a recorded one.
const (
	// MatchExact: the same params, but for key order, number spelling and
	// the protocol's own _meta.
	MatchExact = "exact"
	// MatchRules: exact, else per the fixture's normalization rules — a
	// redacted value, a request rule's path or a value a scenario step took
	// from an earlier step's answer matches any value of its type.
	MatchRules = "rules"
	// MatchTool: any request for the same tool, prompt or resource.
	MatchTool = "tool"
)

// Options say how a mock server answers.
type Options struct {
	// Match is the match mode for every request (default MatchRules);
	// MatchFor overrides it per tool, prompt or resource name.
	Match    string
	MatchFor map[string]string
	// Cycle serves a recorded sequence again from its start once it has
	// all been served; by default its last answer repeats.
	Cycle bool
	// Speed divides the recorded spacing of notifications and answers
	// (2 is twice as fast); 0 means 1. NoDelay sends everything at once.
	Speed   float64
	NoDelay bool
	// Faults are injected before matching.
	Faults []Fault
	// Log, when set, gets every message in and out, for recording; LogFor,
	// when set, gives each client session a Log of its own (by its
	// Mcp-Session-Id or SSE session, "" for stdio and for the requests of
	// no session), asked when the session's first message arrives.
	Log    *frames.Log
	LogFor func(session string) *frames.Log
	// Notice, when set, is told what a client cannot see on the wire: a
	// request answered by a recorded call that got no answer (its client
	// cancelled it) is held open, as the recorded one was, and says so.
	Notice func(string)
}

// A Server answers MCP requests from a Book. It is safe for concurrent use
// by any number of client sessions.
type Server struct {
	book *Book
	opts Options

	mu     sync.Mutex
	served []int // times each exchange was served, by index
	// handshakes are the times each handshake method was answered from
	// the recorded server's face.
	handshakes map[string]int
	misses     []*Miss
	faults     []int // times each fault fired
	shared     *Conn // the 2026-07-28 era's requests, which carry no session
}

// New returns a server answering from b.
func New(b *Book, opts Options) (*Server, error) {
	if opts.Match == "" {
		opts.Match = MatchRules
	}
	for name, m := range opts.MatchFor {
		if err := checkMode(m); err != nil {
			return nil, fmt.Errorf("--match %s=%s: %v", name, m, err)
		}
	}
	if err := checkMode(opts.Match); err != nil {
		return nil, fmt.Errorf("--match %s: %v", opts.Match, err)
	}
	if opts.Speed <= 0 {
		opts.Speed = 1
	}
	s := &Server{book: b, opts: opts, served: make([]int, len(b.all)), faults: make([]int, len(opts.Faults)), handshakes: map[string]int{}}
	s.shared = s.NewConn("")
	return s, nil
}

func checkMode(m string) error {
	switch m {
	case MatchExact, MatchRules, MatchTool:
		return nil
	}
	return fmt.Errorf("is not a match mode (exact, rules or tool)")
}

// Book is what the server answers from.
func (s *Server) Book() *Book { return s.book }

// A Sender sends one message to the client, on the stream the request
// that caused it came in on. It returns errClosed once the connection is
// gone (or a fault closed it). A nil message opens the stream without
// sending anything (an HTTP response's headers).
type Sender func(msg []byte) error

var errClosed = errors.New("the connection is closed")

// A Conn is one client session: what it has been served of each recorded
// sequence, its requests in flight, and the server's requests to it that
// await an answer.
type Conn struct {
	srv *Server

	mu       sync.Mutex
	next     map[string]int                // answers served per sequence
	inflight map[string]context.CancelFunc // the client's requests, by id text
	pending  map[string]chan []byte        // the server's requests, by id text
	seq      int                           // ids of the server's requests
	sent     int                           // messages sent, for close-after faults
	legacy   bool                          // initialize was answered
	caps     json.RawMessage               // the capabilities initialize declared
	gone     chan struct{}                 // closed when the client hangs up
	hungUp   sync.Once
	key      string
	logOnce  sync.Once
	log      *frames.Log
	// session is the stream of messages of no request (stdio's, an SSE
	// session's), with how long it lasts; nil for Streamable HTTP.
	sessionCtx  context.Context
	sessionSend Sender
	sessionOnce sync.Once
}

// SetSessionStream gives the session a stream for what the recorded server
// sent outside any request (list_changed, logging, roots/list): it is sent
// there after the handshake, with its recorded spacing, until ctx ends. A
// stream set after the handshake (Streamable HTTP's GET) starts it then; a
// later stream takes over from an earlier one.
func (c *Conn) SetSessionStream(ctx context.Context, send Sender) {
	c.mu.Lock()
	c.sessionCtx, c.sessionSend = ctx, send
	start := c.legacy
	c.mu.Unlock()
	if start {
		c.startSession()
	}
}

// sessionStream is the session's stream now.
func (c *Conn) sessionStream() (context.Context, Sender) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionCtx, c.sessionSend
}

// startSession sends the recorded session's own messages, once, when the
// handshake is done and there is a stream to send them on.
func (c *Conn) startSession() {
	events := c.srv.book.session
	if ctx, send := c.sessionStream(); send == nil || ctx == nil || len(events) == 0 {
		return
	}
	c.sessionOnce.Do(func() {
		go func() {
			start := time.Now()
			for _, ev := range events {
				if !c.waitOnSession(start, ev.At) {
					return
				}
				ctx, send := c.sessionStream()
				var err error
				if ev.Kind == frames.KindRequest {
					if !c.clientCan(nil, ev.Method) {
						continue
					}
					err = c.ask(ctx, ev.Raw, send)
				} else {
					err = c.send(send, ev.Raw)
				}
				if err != nil {
					return
				}
			}
		}()
	})
}

// waitOnSession waits until at after start on the session's stream; when
// that stream ends first and another has taken over (a client that opened
// its GET stream again), it waits on the new one. False when the session
// has no stream left.
func (c *Conn) waitOnSession(start time.Time, at time.Duration) bool {
	for {
		ctx, _ := c.sessionStream()
		if c.wait(ctx, start, at) == nil {
			return true
		}
		if now, _ := c.sessionStream(); now == ctx {
			return false
		}
	}
}

// hangUp ends the requests that wait for the client to cancel them: the
// client is gone.
func (c *Conn) hangUp() { c.hungUp.Do(func() { close(c.gone) }) }

// park keeps a request open, with its stream, until the client cancels it
// or hangs up.
func (c *Conn) park(ctx context.Context, send Sender) {
	_ = send(nil) // open the stream
	select {
	case <-ctx.Done():
	case <-c.gone:
	}
}

// NewConn starts a client session; key names it for LogFor.
func (s *Server) NewConn(key string) *Conn {
	return &Conn{srv: s, key: key, next: map[string]int{}, inflight: map[string]context.CancelFunc{}, pending: map[string]chan []byte{}, gone: make(chan struct{})}
}

// incoming is a message as received, with the id's JSON text kept as
// sent.
type incoming struct {
	raw    []byte
	id     string // "" when absent or null
	method string
	params json.RawMessage
	// request is true of a request or notification (it has a method),
	// call of a request (it has an id too), response of a response.
	request, call, response bool
	// about is what the request is about (nameOf), once read.
	about     string
	aboutRead bool
}

// name is the tool or prompt the request calls, or the resource it reads.
func (in *incoming) name() string {
	if !in.aboutRead {
		in.about, _ = nameOf(in.method, in.params)
		in.aboutRead = true
	}
	return in.about
}

// decode checks a message the way the SDK's jsonrpc.DecodeMessage does (a
// JSON object, "jsonrpc": "2.0", an id that is a number, a string or null,
// a method that is a string, a response with an id), reading only the
// members it needs: DecodeMessage costs two 32 KB decoding buffers a
// message, which was a fifth of the mock's time per call.
func decode(raw []byte) (*incoming, error) {
	// One pass reads the members and checks the whole message is JSON: the
	// go-sdk's requests carry a _meta larger than the rest, which a look-up
	// per member scanned again each time.
	var version, id, method, params, errObj []byte
	var hasID, hasMethod, hasError bool
	if !frames.Fields(raw, func(key string, val []byte) {
		switch key {
		case "jsonrpc":
			version = val
		case "id":
			id, hasID = val, true
		case "method":
			method, hasMethod = val, true
		case "params":
			params = val
		case "error":
			errObj, hasError = val, true
		}
	}) {
		if !json.Valid(raw) {
			return nil, errors.New("not valid JSON")
		}
		return nil, errors.New("not a JSON object")
	}
	in := &incoming{raw: raw}
	if string(version) != `"2.0"` {
		return nil, fmt.Errorf(`invalid message version tag %s; expected "2.0"`, version)
	}
	if hasID {
		switch id[0] {
		case 'n':
		case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			in.id = string(id)
		default:
			return nil, fmt.Errorf("invalid ID %s: an id is a number, a string or null", id)
		}
	}
	if hasMethod {
		if len(method) > 1 && method[0] == '"' && bytes.IndexByte(method, '\\') < 0 {
			in.method = string(method[1 : len(method)-1])
		} else if err := json.Unmarshal(method, &in.method); err != nil {
			return nil, fmt.Errorf("the method %s is not a string", method)
		}
		in.request, in.call = true, in.id != ""
		in.params = params
		return in, nil
	}
	if in.id == "" {
		return nil, errors.New("invalid request: neither a request (no method) nor a response (no id)")
	}
	if hasError && errObj[0] != '{' && errObj[0] != 'n' {
		return nil, fmt.Errorf("the error %s is not an object", errObj)
	}
	in.response = true
	return in, nil
}

// Handle answers one message from the client, sending what it causes with
// send, and returns when the answer is sent (or the request cancelled, or
// ctx done). It may be called concurrently for the messages of one Conn.
func (c *Conn) Handle(ctx context.Context, raw []byte, send Sender) error {
	c.record(frames.ClientToServer, raw)
	in, err := decode(raw)
	if err != nil {
		return c.send(send, errorMessage("null", jsonrpc.CodeParseError, "jig mock: the message is not JSON-RPC: "+err.Error(), nil))
	}
	if in.response {
		c.answered(in.id, raw)
		return nil
	}
	if !in.call {
		c.notified(in)
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.mu.Lock()
	c.inflight[in.id] = cancel
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.inflight, in.id)
		c.mu.Unlock()
	}()
	return c.request(ctx, in, send)
}

// notified handles the client's notifications: a cancellation stops the
// request it names; the rest need no answer.
func (c *Conn) notified(in *incoming) {
	if in.method != "notifications/cancelled" {
		return
	}
	s, e, ok := frames.MemberSpan(in.params, "requestId")
	if !ok {
		return
	}
	c.mu.Lock()
	cancel := c.inflight[string(in.params[s:e])]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// answered hands the client's answer to the server's request that awaits
// it.
func (c *Conn) answered(id string, raw []byte) {
	c.mu.Lock()
	ch := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ch != nil {
		ch <- raw
	}
}

func (c *Conn) request(ctx context.Context, in *incoming, send Sender) error {
	name := in.name()
	if f := c.srv.fault(in.method, name); f != nil {
		if done, err := c.inject(ctx, in, f, send); done {
			return err
		}
	}
	switch in.method {
	case "initialize":
		c.mu.Lock()
		first := !c.legacy
		c.legacy = true
		if st, en, ok := frames.MemberSpan(in.params, "capabilities"); ok {
			c.caps = in.params[st:en]
		}
		c.mu.Unlock()
		err := c.reply(send, in, c.srv.book.initializeResult(in.params))
		c.srv.shookHands(in.method)
		if first && err == nil {
			c.startSession()
		}
		return err
	case "server/discover":
		if exs := answered(c.srv.book.byMethod[in.method]); c.srv.book.face.discover == nil && len(exs) > 0 {
			return c.serve(ctx, in, exs[0], send) // refused as recorded
		}
		res, ok := c.srv.book.discoverResult(in.params)
		if !ok {
			return c.send(send, errorMessage(in.id, jsonrpc.CodeMethodNotFound, "Method not found: the recorded server speaks no 2026-07-28 era (initialize instead)", nil))
		}
		c.srv.shookHands(in.method)
		return c.reply(send, in, res)
	case "ping":
		return c.reply(send, in, c.srv.book.plainResult(in.params, nil))
	}
	ex, miss := c.srv.match(c, in)
	if ex != nil {
		return c.serve(ctx, in, ex, send)
	}
	if res, ok := c.srv.book.synthesized(in.method, in.params); ok {
		return c.reply(send, in, res)
	}
	switch in.method {
	case "subscriptions/listen", "resources/subscribe":
		if len(c.srv.book.byMethod[in.method]) == 0 && in.method == "subscriptions/listen" {
			c.park(ctx, send) // open until the client cancels it
			return nil
		}
	}
	c.srv.missed(miss)
	return c.send(send, miss.message(in.id))
}

// serve sends what the recorded server sent while the request was open,
// with its recorded spacing, then the recorded answer.
func (c *Conn) serve(ctx context.Context, in *incoming, ex *Exchange, send Sender) error {
	start := time.Now()
	token := progressToken(in.params)
	for _, ev := range ex.Flow {
		if err := c.wait(ctx, start, ev.At); err != nil {
			return nil
		}
		msg := ev.Raw
		switch {
		case ev.Method == "notifications/progress":
			if token == "" {
				continue // the client asked for no progress
			}
			msg, _ = frames.SetMember(msg, []byte(token), "params", "progressToken")
		case ev.Kind == frames.KindRequest:
			if !c.clientCan(in.params, ev.Method) {
				continue // the client under test cannot be asked this
			}
			if err := c.ask(ctx, msg, send); err != nil {
				return err
			}
			continue
		}
		if err := c.send(send, msg); err != nil {
			return err
		}
	}
	if ex.Reply == nil {
		if n := c.srv.opts.Notice; n != nil && ex.NoAnswer() {
			what := ex.Method
			if ex.Name != "" {
				what += " " + ex.Name
			}
			n(fmt.Sprintf("jig mock: %s matched %s, a call that got no answer (its client cancelled it): this one stays open until its client cancels it too", what, ex.Source))
		}
		c.park(ctx, send) // the recorded client cancelled it; so must this one
		return nil
	}
	if err := c.wait(ctx, start, ex.Reply.At); err != nil {
		return nil
	}
	return c.send(send, ex.Reply.Message(in.id))
}

// clientCan reports whether the client declared the capability a server's
// request needs (elicitation, sampling, roots): in the request's _meta in
// the 2026-07-28 era, else at initialize. A client that declared nothing
// anywhere is asked, as it was recorded.
func (c *Conn) clientCan(params json.RawMessage, method string) bool {
	need, ok := capabilityFor[method]
	if !ok {
		return true
	}
	caps := json.RawMessage(nil)
	if st, en, ok := frames.MemberSpan(params, "_meta", "io.modelcontextprotocol/clientCapabilities"); ok {
		caps = params[st:en]
	} else {
		c.mu.Lock()
		caps = c.caps
		c.mu.Unlock()
	}
	if caps == nil {
		return true
	}
	st, en, ok := frames.MemberSpan(caps, need)
	return ok && string(caps[st:en]) != "null"
}

// capabilityFor is the client capability each server request needs.
var capabilityFor = map[string]string{"elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots"}

// ask sends the recorded server's request to the client (sampling,
// elicitation, roots/list) under an id of the mock's, and waits for the
// client's answer, which the recording keeps.
func (c *Conn) ask(ctx context.Context, msg []byte, send Sender) error {
	c.mu.Lock()
	c.seq++
	id := fmt.Sprintf(`"jig-mock-%d"`, c.seq)
	ch := make(chan []byte, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	msg, _ = frames.SetMember(msg, []byte(id), "id")
	if err := c.send(send, msg); err != nil {
		return err
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil
	}
}

// wait sleeps until at (scaled by the speed) after start; it fails when
// ctx ends first.
func (c *Conn) wait(ctx context.Context, start time.Time, at time.Duration) error {
	if c.srv.opts.NoDelay || at <= 0 {
		return ctx.Err()
	}
	d := time.Until(start.Add(time.Duration(float64(at) / c.srv.opts.Speed)))
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reply sends a result the mock made itself.
func (c *Conn) reply(send Sender, in *incoming, result []byte) error {
	msg := make([]byte, 0, len(result)+len(in.id)+32)
	msg = append(msg, `{"jsonrpc":"2.0","id":`...)
	msg = append(msg, in.id...)
	msg = append(msg, `,"result":`...)
	msg = append(msg, result...)
	return c.send(send, append(msg, '}'))
}

// send sends msg and records it, unless a close-after fault has closed
// the connection.
func (c *Conn) send(send Sender, msg []byte) error {
	if limit, ok := c.srv.closeAfter(); ok {
		c.mu.Lock()
		c.sent++
		over := c.sent > limit
		c.mu.Unlock()
		if over {
			return errClosed
		}
	}
	c.record(frames.ServerToClient, msg)
	return send(msg)
}

// record appends a message to the session's recording.
func (c *Conn) record(dir frames.Direction, raw []byte) {
	c.logOnce.Do(func() {
		c.log = c.srv.opts.Log
		if c.srv.opts.LogFor != nil {
			c.log = c.srv.opts.LogFor(c.key)
		}
	})
	if c.log != nil && raw != nil {
		c.log.Append(frames.Frame{Dir: dir, Raw: append([]byte(nil), raw...)})
	}
}

// errorMessage is a JSON-RPC error response.
func errorMessage(id string, code int64, message string, data any) []byte {
	e := struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}{code, message, data}
	body, _ := json.Marshal(e)
	return []byte(`{"jsonrpc":"2.0","id":` + id + `,"error":` + string(body) + `}`)
}

// shookHands counts a handshake answered from the recorded server's face.
func (s *Server) shookHands(method string) {
	s.mu.Lock()
	s.handshakes[method]++
	s.mu.Unlock()
}

// Shared is the session of requests that carry none: the 2026-07-28 era's
// over HTTP.
func (s *Server) Shared() *Conn { return s.shared }
