package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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
	next    http.RoundTripper
	log     *frames.Log
	headers http.Header
	redact  *frames.Redactor
	era     *eraState
	// probe is set while the era is "auto" and the server/discover probe
	// has not been sent: that one POST carries probeSessionID.
	probe atomic.Bool

	mu      sync.Mutex
	busy    int              // round trips in flight and event streams open
	streams map[*sseTap]bool // the open event streams
	idle    chan struct{}    // closed when busy drops to 0 (made by settle)
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
	for k, vs := range t.headers {
		req.Header[k] = vs
	}
	var body []byte
	probing := false
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		var method string
		if t.era != nil {
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
			}
		}
		if method == "server/discover" && req.Header.Get("Mcp-Session-Id") == "" && t.probe.CompareAndSwap(true, false) {
			req.Header.Set("Mcp-Session-Id", probeSessionID)
			probing = true
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
	}
	sent := body
	info := &frames.HTTP{Method: req.Method, URL: t.redact.URL(redactURL(req.URL.String())), Headers: t.redact.Headers(req.Header)}
	if body != nil {
		f := t.log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: bytes.TrimRight(body, "\r\n"), HTTP: info})
		if f.Kind == frames.KindRequest {
			// The SDK wrote this request under its call's context: tell the
			// call which id is its own.
			learnWrite(req.Context(), f.Method, f.ID)
		}
	} else {
		t.log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, HTTP: info,
			Note: frames.RequestNote(req)})
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: &frames.HTTP{Method: req.Method, URL: info.URL},
			Note: t.redact.String("HTTP request failed: " + err.Error())})
		return nil, err
	}
	rinfo := &frames.HTTP{Method: req.Method, URL: info.URL, Status: resp.StatusCode, Headers: t.redact.Headers(resp.Header)}
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: rinfo,
			Note: frames.StatusNote(resp, "event stream opened")})
		resp.Body = t.stream(resp.Body, frames.HTTP{Method: req.Method, URL: info.URL})
		streaming = true
	default:
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if err != nil {
			return resp, nil
		}
		trimmed := bytes.TrimSpace(body)
		if len(trimmed) == 0 || !strings.Contains(ct, "json") {
			note := frames.StatusNote(resp, string(trimmed))
			t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: rinfo, Note: t.redact.String(note)})
		} else {
			t.log.Append(frames.Frame{Dir: frames.ServerToClient, Raw: trimmed, HTTP: rinfo})
			if u := uncachedBody(body); len(u) != len(body) || !bytes.Equal(u, body) {
				// What the SDK reads, not what the frame keeps (see nocache.go).
				resp.Body = io.NopCloser(bytes.NewReader(u))
				resp.ContentLength = int64(len(u))
			}
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
func (t *httpTap) stream(body io.ReadCloser, info frames.HTTP) *sseTap {
	st := &sseTap{body: body, log: t.log, info: info}
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
type sseTap struct {
	body io.ReadCloser
	log  *frames.Log
	info frames.HTTP

	mu      sync.Mutex
	parser  frames.SSEParser
	closed  bool
	onClose func() // called once, after the closing frame is in the Log
}

func (s *sseTap) Read(p []byte) (int, error) {
	n, err := s.body.Read(p)
	s.mu.Lock()
	if n > 0 {
		s.parser.Feed(p[:n], s.emit)
	}
	if err == io.EOF {
		s.parser.End(s.emit) // a final event without its blank line
	}
	s.mu.Unlock()
	zeroTTL(p[:n]) // after the frames took their copy (see nocache.go)
	return n, err
}

func (s *sseTap) emit(e frames.SSEEvent) { s.log.Append(e.Frame(s.info)) }

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
