package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpjig/jig/frames"
)

// An httpTap is the http.RoundTripper jig gives the SDK's HTTP transports. It
// sets the user's headers and records every request body, response status,
// and each server-sent event as it arrives. It does not touch the
// mcp.Connection: the Streamable client type-asserts its own connection, and
// wrapping it loses the standalone stream and the protocol-version header.
//
// It also knows what is still in flight (round trips, open event streams),
// so that closing the session waits for their last frames: the SDK closes its
// standalone stream in the background after Close returns, and a recording
// closed before that lost the stream's last frame.
type httpTap struct {
	// origin is the target's ("http://127.0.0.1:3901"): the only one the
	// user's headers go to, and the only one a legacy SSE endpoint may name.
	origin string
	limit  int // the frame limit, bytes; DefaultMaxFrame when 0
	// allowCross lets a legacy SSE endpoint name another origin.
	allowCross bool
	next       http.RoundTripper
	log        *frames.Log
	headers    http.Header
	redact     *frames.Redactor
	era        *eraState
	// probe is set while the era is "auto" and the server/discover probe
	// has not been sent: that one POST carries probeSessionID.
	probe atomic.Bool
	// bareProbe is set while the probe is sent again without
	// probeSessionID (probeAgain).
	bareProbe atomic.Bool
	// bad is the last answer to a request that was no MCP answer at all
	// (an HTML page, a 5xx, an empty 200): what a failure then says.
	bad atomic.Pointer[BadAnswerError]
	// reach is whether the server answered the last round trip.
	reach *reach
	// closing is the session's: Close was called.
	closing *atomic.Bool
	// answers holds, by request id, the error jig sends in place of the
	// SDK's answer to a server request jig withheld (see sseTap.emit).
	answers  sync.Map
	nAnswers atomic.Int32

	mu      sync.Mutex
	last    lastRequest      // the SDK's last POST of a message, for SendRaw
	busy    int              // round trips in flight and event streams open
	streams map[*sseTap]bool // the open event streams
	idle    chan struct{}    // closed when busy drops to 0 (made by settle)
}

// lastRequest is where the SDK last posted a message, with its headers.
type lastRequest struct {
	url    string
	header http.Header
}

func (t *httpTap) remember(req *http.Request) {
	t.mu.Lock()
	t.last = lastRequest{req.URL.String(), req.Header.Clone()}
	t.mu.Unlock()
}

// lastPost is the URL and a copy of the headers of the SDK's last POST of
// a message: the session's endpoint, session id, protocol version and
// authorization.
func (t *httpTap) lastPost() (string, http.Header) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last.url, t.last.header.Clone()
}

func (t *httpTap) begin() {
	t.mu.Lock()
	t.busy++
	t.mu.Unlock()
}

func (t *httpTap) end() {
	t.mu.Lock()
	t.busy--
	if t.busy == 0 && t.idle != nil {
		close(t.idle)
		t.idle = nil
	}
	t.mu.Unlock()
}

// wait reports whether nothing is in flight, waiting at most limit.
func (t *httpTap) wait(limit time.Duration) bool {
	t.mu.Lock()
	if t.busy == 0 {
		t.mu.Unlock()
		return true
	}
	if t.idle == nil {
		t.idle = make(chan struct{})
	}
	idle := t.idle
	t.mu.Unlock()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case <-idle:
		return true
	case <-timer.C:
		return false
	}
}

// settle waits (at most limit) for every round trip to end and every event
// stream to be closed by the SDK, then closes the streams still open itself,
// so each one's last frame is in the Log before the session says it closed.
func (t *httpTap) settle(limit time.Duration) {
	if t.wait(limit) {
		return
	}
	t.mu.Lock()
	open := make([]*sseTap, 0, len(t.streams))
	for st := range t.streams {
		open = append(open, st)
	}
	t.mu.Unlock()
	for _, st := range open {
		st.closeWith("event stream closed by jig: the session ended and the SDK had not closed it")
	}
	if !t.wait(limit) {
		t.log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport,
			Note: "the session ended with an HTTP request still in flight; frames it brings later are not recorded"})
	}
}

func (t *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	t.begin()
	streaming := false
	defer func() {
		if !streaming {
			t.end()
		}
	}()
	req = req.Clone(req.Context())
	// The user's headers (credentials, usually) go to the target's origin
	// only: never to where a redirect leads, as Go's client and curl -L
	// also refuse.
	elsewhere := t.origin != "" && originOf(req.URL) != t.origin
	if !elsewhere {
		for k, vs := range t.headers {
			req.Header[k] = vs
		}
	}
	var body []byte
	probing := false
	raw, _ := req.Context().Value(rawKey{}).(bool)
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		var method string
		if !raw {
			body = humanCancel(req.Context(), body, t.closing.Load())
			body = withEmptyContent(body)
		}
		if t.era != nil && !raw {
			body, method = t.era.complete(body)
			// The 2026-07-28 era mirrors the method into a header on every
			// POST; the SDK leaves it off the messages it writes on its own.
			if v, ok := t.era.stateless(); ok && method != "" {
				if req.Header.Get("Mcp-Protocol-Version") == "" {
					req.Header.Set("Mcp-Protocol-Version", v)
				}
				if req.Header.Get("Mcp-Method") == "" {
					req.Header.Set("Mcp-Method", method)
				}
				// And the name a request is about into Mcp-Name (SEP-2243):
				// the SDK's legacy SSE transport sets neither, and servers
				// that check them refuse every call without it.
				if name, ok := mcpName(method, body); ok && req.Header.Get("Mcp-Name") == "" {
					req.Header.Set("Mcp-Name", name)
				}
			}
		}
		if method == "server/discover" && req.Header.Get("Mcp-Session-Id") == "" && t.probe.CompareAndSwap(true, false) {
			req.Header.Set("Mcp-Session-Id", probeSessionID)
			probing = true
		} else if method == "server/discover" && req.Header.Get("Mcp-Session-Id") == "" && t.bareProbe.CompareAndSwap(true, false) {
			probing = true
		}
		if req.Method == http.MethodPost && !raw && !probing {
			t.remember(req)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
	}
	if body != nil && t.nAnswers.Load() > 0 {
		// The SDK's "method not found" for a server request jig withheld
		// and stood in for: the server is told what was wrong instead.
		f := frames.Frame{Raw: body}
		if f.Classify(); f.IsResponse() && f.ID != "" {
			if a, ok := t.answers.LoadAndDelete(f.ID); ok {
				t.nAnswers.Add(-1)
				body = a.([]byte)
				req.Body = io.NopCloser(bytes.NewReader(body))
				req.ContentLength = int64(len(body))
			}
		}
	}
	sent := body
	posted, postedMethod := "", "" // the id and method of the one request the body carries
	info := &frames.HTTP{Method: req.Method, URL: t.redact.URL(redactURL(req.URL.String())), Headers: t.redact.Headers(req.Header)}
	if elsewhere && len(t.headers) > 0 {
		t.log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, HTTP: info,
			Note: fmt.Sprintf("%s is on another origin than the target (%s): jig did not send your headers (%s) there", info.URL, t.origin, headerNames(t.headers))})
	}
	if body != nil {
		f := t.log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: bytes.TrimRight(body, "\r\n"), HTTP: info})
		if f.Kind == frames.KindRequest {
			posted, postedMethod = f.ID, f.Method
			// The SDK wrote this request under its call's context: tell the
			// call which id is its own.
			learnWrite(req.Context(), f.Method, f.ID)
		}
	} else {
		t.log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, HTTP: info,
			Note: frames.RequestNote(req)})
	}
	var wrote atomic.Bool
	if posted != "" {
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			WroteRequest: func(i httptrace.WroteRequestInfo) { wrote.Store(i.Err == nil) }}))
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		if strings.Contains(err.Error(), "response headers exceeded") {
			err = fmt.Errorf("%w (the server's response headers are larger than any real server sends; jig refused them, and nothing of the answer was read)", err)
		}
		// Answers names the request the failed POST carried: it will
		// never be answered (frames.Unanswered). Written whole before the
		// connection failed (not a dial's error), it may have reached the
		// server; otherwise it was never delivered.
		note := "HTTP request failed: " + err.Error()
		var oe *net.OpError
		if wrote.Load() && req.Context().Err() == nil && !(errors.As(err, &oe) && oe.Op == "dial") {
			note = frames.SentNote + ", before any answer: " + err.Error() + " (the server may have received it)"
			learnSentLost(req.Context())
		}
		t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: &frames.HTTP{Method: req.Method, URL: info.URL},
			Answers: posted, Note: t.redact.String(note)})
		if req.Context().Err() == nil {
			t.reach.set(t.redact.String(reachWhy(err)))
		}
		return nil, err
	}
	if probing && resp.StatusCode == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") == probeSessionID {
		return t.probeAgain(req, resp, sent, info)
	}
	if posted != "" {
		learnDelivered(req.Context(), postedMethod)
	}
	if resp.StatusCode/100 == 2 {
		// An answer, not "no such session" (a restarted server's 404 or
		// 400 to the old session's requests): it answers this session.
		t.reach.set("")
	}
	rinfo := &frames.HTTP{Method: req.Method, URL: info.URL, Status: resp.StatusCode, Headers: t.redact.Headers(resp.Header)}
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: rinfo,
			Note: frames.StatusNote(resp, "event stream opened")})
		resp.Body = t.stream(resp.Body, req, frames.HTTP{Method: req.Method, URL: info.URL})
		streaming = true
	default:
		body, short := t.readBody(resp)
		resp.Body = io.NopCloser(bytes.NewReader(body))
		trimmed := bytes.TrimSpace(body)
		switch {
		case short != nil:
			got := t.log.Append(*short)
			t.withhold(resp, got)
		case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
			// An authorization challenge: its body (often an OAuth error
			// object) is transport evidence, not a JSON-RPC message the
			// session withheld.
			note := frames.StatusNote(resp, string(trimmed))
			if c := resp.Header.Get("WWW-Authenticate"); c != "" {
				note += " (WWW-Authenticate: " + c + ")"
			}
			t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: rinfo, Note: t.redact.String(note)})
		case len(trimmed) == 0 || !strings.Contains(ct, "json") || sent == nil:
			// No JSON-RPC message, or the answer to a request that carried
			// none (the DELETE that ends a session): transport evidence.
			note := frames.ResponseNote(req, resp, string(trimmed))
			got := t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: rinfo, Note: t.redact.String(note)})
			if method := requestMethod(sent); method != "" && resp.StatusCode != http.StatusAccepted && resp.StatusCode/100 != 3 &&
				!(probing && (resp.StatusCode < 200 || resp.StatusCode > 299)) {
				t.bad.Store(&BadAnswerError{Method: method, URL: info.URL, Status: resp.Status, ContentType: ct,
					Begins: t.redact.String(snippet(trimmed)), Seq: got.Seq})
			}
		default:
			f := frames.Frame{Dir: frames.ServerToClient, Raw: trimmed, HTTP: rinfo}
			f.Classify()
			if probing && f.Kind == frames.KindError && f.ID == "" {
				f.Note = frames.ProbeRefusal
			}
			// The HTTP response answers the request it was posted with,
			// whatever its id says.
			f.AnswersPost(posted)
			got := t.log.Append(f)
			if u := uncachedBody(body); len(u) != len(body) || !bytes.Equal(u, body) {
				// What the SDK reads, not what the frame keeps (see nocache.go).
				resp.Body = io.NopCloser(bytes.NewReader(u))
				resp.ContentLength = int64(len(u))
			}
			t.withhold(resp, got)
		}
		if probing && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
			// Not an answer about the era: the server wants authorization.
			// The SDK retries this very probe once it has a token, and the
			// retry must be the probe too.
			t.probe.Store(true)
		} else if probing && (resp.StatusCode < 200 || resp.StatusCode > 299) && !isJSONRPCError(trimmed) {
			// The go-sdk breaks the connection on a refusal without a
			// JSON-RPC body, so it never reaches its own fallback to
			// initialize. The spec says such an answer means a legacy
			// server: hand the SDK a JSON-RPC error that says so. The frame
			// above keeps what the server really sent.
			resp.Body = io.NopCloser(bytes.NewReader(legacyRefusal(sent, resp)))
			resp.Header = resp.Header.Clone()
			resp.Header.Set("Content-Type", "application/json")
			resp.ContentLength = -1
		}
	}
	return resp, nil
}

// probeAgain sends the era probe again without probeSessionID when the
// server answered 404 to it: "no such session", as the spec says a server
// that keeps sessions answers (the go-sdk's HTTP handler does, and it speaks
// 2026-07-28). The older servers a sessionless probe wedges answer 400.
func (t *httpTap) probeAgain(req *http.Request, resp *http.Response, sent []byte, info *frames.HTTP) (*http.Response, error) {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
	t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
		HTTP: &frames.HTTP{Method: req.Method, URL: info.URL, Status: resp.StatusCode, Headers: t.redact.Headers(resp.Header)},
		Note: t.redact.String(frames.StatusNote(resp, string(bytes.TrimSpace(body))) +
			" — the server keeps sessions and knows none named " + probeSessionID + ": jig sends its era probe again without one")})
	again := req.Clone(req.Context())
	again.Header.Del("Mcp-Session-Id")
	again.Body = io.NopCloser(bytes.NewReader(sent))
	again.ContentLength = int64(len(sent))
	t.bareProbe.Store(true)
	return t.RoundTrip(again)
}

// readBody reads a response body whole, at most the frame limit of it. When
// the body was cut off (the connection dropped before Content-Length) or is
// over the limit, it also returns the frame that records what arrived, so
// no response is ever left without a frame.
func (t *httpTap) readBody(resp *http.Response) ([]byte, *frames.Frame) {
	defer resp.Body.Close()
	limit := t.maxFrame()
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	rinfo := &frames.HTTP{Method: resp.Request.Method, URL: t.redact.URL(redactURL(resp.Request.URL.String())), Status: resp.StatusCode, Headers: t.redact.Headers(resp.Header)}
	switch {
	case len(body) > limit:
		// Count the rest without keeping it, within reason: a body that
		// never ends is cut off after another limit's worth.
		rest, _ := io.Copy(io.Discard, io.LimitReader(resp.Body, int64(limit)))
		f := frames.Truncated(frames.Frame{Dir: frames.ServerToClient, Raw: body, HTTP: rinfo}, int64(len(body))+rest,
			fmt.Sprintf("a body larger than the frame limit (%s; --max-frame)", frames.HumanSize(limit)))
		return nil, &f
	case err != nil:
		f := frames.Frame{Dir: frames.ServerToClient, Raw: bytes.TrimSpace(body), HTTP: rinfo}
		f.Classify()
		f.Kind = frames.KindInvalid
		f.Err = fmt.Sprintf("the body was cut off after %s: %v", frames.HumanSize(len(body)), err)
		return body, &f
	}
	return body, nil
}

// withhold hands the SDK, in place of a JSON body it cannot use (it would
// drop the connection on it), a withheldError for the request the body
// answered, when that request is still waiting.
func (t *httpTap) withhold(resp *http.Response, got *frames.Frame) {
	if got.Dispatchable() {
		return
	}
	for _, id := range frames.AnswerIDs(got) {
		if t.log.Pending(frames.ClientToServer, id) {
			resp.Body = io.NopCloser(bytes.NewReader(withheldError(id, got.Seq)))
			resp.Header = resp.Header.Clone()
			resp.Header.Set("Content-Type", "application/json")
			resp.ContentLength = -1
			return
		}
	}
}

// maxFrame is the frame limit in bytes.
func (t *httpTap) maxFrame() int {
	if t.limit > 0 {
		return t.limit
	}
	return frames.DefaultMaxFrame
}

func headerNames(h http.Header) string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func isJSONRPCError(body []byte) bool {
	var m struct {
		Error *struct {
			Code *int64 `json:"code"`
		} `json:"error"`
	}
	return json.Unmarshal(body, &m) == nil && m.Error != nil && m.Error.Code != nil
}

// legacyRefusal is the JSON-RPC error the SDK is given in place of a legacy
// server's plain refusal of the era probe.
func legacyRefusal(probe []byte, resp *http.Response) []byte {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(probe, &req)
	if req.ID == nil {
		req.ID = json.RawMessage("null")
	}
	msg := fmt.Sprintf("jig: the server refused server/discover with HTTP %s and no JSON-RPC error: a legacy server", resp.Status)
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": msg}})
	return b
}

// stream wraps an event stream's body; the tap stays busy until it closes.
func (t *httpTap) stream(body io.ReadCloser, req *http.Request, info frames.HTTP) *sseTap {
	st := &sseTap{body: body, log: t.log, info: info, base: req.URL, origin: t.origin, allowCross: t.allowCross, tap: t, buf: make([]byte, 32<<10)}
	st.parser.Max = t.maxFrame()
	st.onClose = func() {
		t.mu.Lock()
		delete(t.streams, st)
		t.mu.Unlock()
		t.end()
	}
	t.mu.Lock()
	if t.streams == nil {
		t.streams = map[*sseTap]bool{}
	}
	t.streams[st] = true
	t.mu.Unlock()
	return st
}

// An sseTap records each server-sent event as the SDK reads its bytes, so
// events are recorded in the order they arrive and before they are handled.
// The stream is cut into events by frames.SSEParser, the parser the HTTP
// proxy uses too.
//
// The SDK reads the events back re-encoded, and only those it can use: one
// event it cannot decode (a stray "data: ping", NaN, a batch) would end the
// whole connection. Such an event is withheld (recorded as evidence); when it
// was the answer to a waiting request, the SDK reads a withheldError for that
// request instead, so the call says what arrived. A legacy SSE endpoint event
// naming another origin ends the stream with errCrossOrigin: requests sent
// there would carry the session, and jig's headers, to another host.
type sseTap struct {
	body io.ReadCloser
	log  *frames.Log
	info frames.HTTP
	// base is the stream's URL, against which an endpoint event resolves;
	// origin is the target's, which the endpoint must not leave.
	base       *url.URL
	origin     string
	allowCross bool // --allow-cross-origin-endpoint: another origin is noted, not refused
	tap        *httpTap

	mu       sync.Mutex
	parser   frames.SSEParser
	out      bytes.Buffer // the re-encoded events the SDK has not read yet
	err      error        // the body's error, once out is drained
	endpoint bool         // an endpoint event was passed on
	closed   bool
	onClose  func() // called once, after the closing frame is in the Log
	buf      []byte
}

func (s *sseTap) Read(p []byte) (int, error) {
	for {
		s.mu.Lock()
		if s.out.Len() > 0 || s.err != nil {
			n, _ := s.out.Read(p)
			err := s.err
			if s.out.Len() > 0 || n > 0 {
				err = nil
			}
			s.mu.Unlock()
			return n, err
		}
		s.mu.Unlock()
		n, err := s.body.Read(s.buf) // only the SDK's reader calls Read
		s.mu.Lock()
		if n > 0 {
			s.parser.Feed(s.buf[:n], s.emit)
		}
		if err == io.EOF {
			s.parser.End(s.emit) // a final event without its blank line
		}
		if err != nil && s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
}

// emit records an event and decides what the SDK reads of it.
func (s *sseTap) emit(e frames.SSEEvent) {
	f := e.Frame(s.info)
	if e.Size > 0 {
		f = frames.Truncated(f, e.Size, fmt.Sprintf("an event larger than the frame limit (%s; --max-frame)", frames.HumanSize(s.parser.Max)))
	}
	stored := s.log.Append(f)
	switch {
	case stored.Kind == frames.KindTransport && e.Event == "endpoint":
		if s.endpoint {
			return // the SDK reads the first one as the endpoint, and would choke on another
		}
		if err := s.checkEndpoint(e.Data); err != nil {
			s.err = err
			return
		}
		s.endpoint = true
		writeEvent(&s.out, e, e.Data)
	case stored.Kind == frames.KindTransport:
		if len(bytes.TrimSpace(e.Data)) == 0 {
			writeEvent(&s.out, e, nil) // a priming event: its id is where to resume
		}
		// Other named events are not messages; the SDK ignores or chokes on them.
	case stored.Dispatchable():
		// What the SDK reads, not what the frame keeps (see nocache.go).
		data := bytes.Clone(e.Data)
		zeroTTL(data)
		writeEvent(&s.out, e, data)
	default:
		for _, id := range frames.AnswerIDs(stored) {
			if s.log.Pending(frames.ClientToServer, id) {
				writeEvent(&s.out, frames.SSEEvent{ID: e.ID}, bytes.TrimSpace(withheldError(id, stored.Seq)))
			}
		}
		// A server request nobody will dispatch must still be answered, or
		// the server waits for ever. Only the SDK can POST in the session
		// (its session id, its headers): it is handed a request of a method
		// it does not know under the same id, and the tap sends jig's error
		// in place of the SDK's "method not found".
		if s.tap != nil {
			for _, r := range frames.WithheldRequests(stored) {
				s.tap.answers.Store(r.ID, bytes.TrimSpace(r.Answer(stored.Seq)))
				s.tap.nAnswers.Add(1)
				writeEvent(&s.out, frames.SSEEvent{ID: e.ID}, []byte(`{"jsonrpc":"2.0","id":`+r.ID+`,"method":"jig/withheld-request","params":{}}`))
			}
		}
	}
}

// checkEndpoint refuses an endpoint event that names another origin.
func (s *sseTap) checkEndpoint(data []byte) error {
	if s.origin == "" || s.base == nil {
		return nil
	}
	u, err := s.base.Parse(strings.TrimSpace(string(data)))
	if err != nil || originOf(u) == s.origin {
		return nil // an unparsable endpoint fails in the SDK with its own error
	}
	if s.allowCross {
		s.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
			HTTP: &frames.HTTP{Method: s.info.Method, URL: s.info.URL},
			Note: fmt.Sprintf("jig: the legacy SSE server's endpoint event names %s, on another origin than the target's (%s); allowed by --allow-cross-origin-endpoint: the session's requests go there, without your headers", u.Redacted(), s.origin)})
		return nil
	}
	err = &CrossOriginError{Endpoint: u.Redacted(), Origin: s.origin}
	s.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
		HTTP: &frames.HTTP{Method: s.info.Method, URL: s.info.URL}, Note: "jig: " + err.Error()})
	return err
}

// writeEvent encodes one event for the SDK's reader.
func writeEvent(w *bytes.Buffer, e frames.SSEEvent, data []byte) {
	if e.ID != "" {
		w.WriteString("id: " + e.ID + "\n")
	}
	if e.Event != "" {
		w.WriteString("event: " + e.Event + "\n")
	}
	if e.Retry != "" {
		w.WriteString("retry: " + e.Retry + "\n")
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if data == nil {
			break
		}
		w.WriteString("data: ")
		w.Write(line)
		w.WriteByte('\n')
	}
	w.WriteByte('\n')
}

func (s *sseTap) Close() error { return s.closeWith("event stream closed") }

// closeWith closes the stream once, recording note as its last frame.
func (s *sseTap) closeWith(note string) error {
	s.mu.Lock()
	closed := s.closed
	s.closed = true
	s.mu.Unlock()
	if closed {
		return nil
	}
	s.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
		HTTP: &frames.HTTP{Method: s.info.Method, URL: s.info.URL}, Note: note})
	err := s.body.Close()
	if s.onClose != nil {
		s.onClose()
	}
	return err
}

// CrossOriginError is why jig refused a legacy SSE server's endpoint: it
// named another origin than the target's, and requests sent there would
// carry the session and jig's headers to another host (the TypeScript SDK
// refuses this too).
type CrossOriginError struct {
	Endpoint string // the endpoint the server named, without credentials
	Origin   string // the target's origin
}

func (e *CrossOriginError) Error() string {
	return fmt.Sprintf("the legacy SSE server's endpoint event names %s, on another origin than the target's (%s); jig refuses to send the session there (--allow-cross-origin-endpoint sends it there, without your headers)", e.Endpoint, e.Origin)
}

// originOf is a URL's origin, "scheme://host:port", with the default port
// made explicit so http://h and http://h:80 are one origin.
func originOf(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(host, port)
}

// A BadAnswerError is a request answered with something that is no MCP
// answer: an HTML page, a 5xx, a 200 with an empty body. The frame keeps
// it all; the error says what it was and what to check.
type BadAnswerError struct {
	Method, URL, Status, ContentType, Begins string
	Seq                                      int64
}

func (e *BadAnswerError) Error() string {
	ct := "no Content-Type"
	if e.ContentType != "" {
		ct = e.ContentType
	}
	body := "an empty body"
	if e.Begins != "" {
		body = fmt.Sprintf("a body that begins %q", e.Begins)
	}
	next := "is " + e.URL + " the server's MCP endpoint (often /mcp), and is it an MCP server?"
	if code, _, _ := strings.Cut(e.Status, " "); strings.HasPrefix(code, "5") {
		next = "the server (or a proxy in front of it) failed: check it is up and healthy, then try again"
	}
	return fmt.Sprintf("the server answered %s with HTTP %s, %s and %s (frame #%d), not a JSON-RPC answer: %s",
		e.Method, e.Status, ct, body, e.Seq, next)
}

// requestMethod is the method of the JSON-RPC request body b, "" when b is
// no request (a notification or response, which are answered 202).
func requestMethod(b []byte) string {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(b, &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return ""
	}
	return m.Method
}

// snippet is the start of a body, on one line, for an error message.
func snippet(b []byte) string {
	const most = 80
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > most {
		s = s[:most] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// redirectPolicy follows at most 10 redirects, as Go's client does, and
// says what a loop looked like.
func (t *httpTap) redirectPolicy(req *http.Request, via []*http.Request) error {
	if len(via) < 10 {
		return nil
	}
	chain := make([]string, 0, 4)
	for _, r := range via[len(via)-3:] {
		chain = append(chain, t.redact.URL(redactURL(r.URL.String())))
	}
	chain = append(chain, t.redact.URL(redactURL(req.URL.String())))
	return fmt.Errorf("the server redirected 10 times (… %s): a redirect loop or a very long chain; give --url the address the redirects should end at", strings.Join(chain, " → "))
}
