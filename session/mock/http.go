package mock

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/mcpjig/jig/frames"
)

const sessionHeader = "Mcp-Session-Id"

// HTTPHandler serves the Streamable HTTP transport at any path: a POST
// carries one message; a request is answered with application/json, or
// with an event stream when the recorded server sent something before its
// answer (progress, logging, a request to the client). initialize starts a
// session (Mcp-Session-Id); the 2026-07-28 era's requests carry none, and
// each client (its host and clientInfo; see stateless) has its own. GET
// opens a session's standalone stream (see listen); DELETE ends a session.
func (s *Server) HTTPHandler() http.Handler {
	h := &httpHandler{srv: s, sessions: map[string]*Conn{}, clients: map[string]*Conn{}}
	return h
}

type httpHandler struct {
	srv      *Server
	mu       sync.Mutex
	sessions map[string]*Conn
	clients  map[string]*Conn // the 2026-07-28 era's, by statelessKey
	runs     int
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodDelete:
		id := r.Header.Get(sessionHeader)
		h.mu.Lock()
		c, ok := h.sessions[id]
		delete(h.sessions, id)
		h.mu.Unlock()
		if !ok {
			http.Error(w, "jig mock: no such session", http.StatusNotFound)
			return
		}
		c.hangUp()
		w.WriteHeader(http.StatusOK)
	case http.MethodGet:
		h.listen(w, r)
	default:
		w.Header().Set("Allow", "POST, GET, DELETE")
		http.Error(w, "jig mock: method not allowed", http.StatusMethodNotAllowed)
	}
}

// listen serves a session's standalone event stream (a GET with its
// Mcp-Session-Id): what the recorded server sent outside any request —
// list_changed, logging, its roots/list — comes there after the handshake,
// with its recorded spacing, until the client hangs up. The 2026-07-28 era
// has no sessions and no such stream (its clients listen with
// subscriptions/listen): a GET without a session is 405, as the spec
// allows.
func (h *httpHandler) listen(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(sessionHeader)
	if id == "" {
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "jig mock: no standalone event stream without a session (initialize first; in the 2026-07-28 era, subscriptions/listen)", http.StatusMethodNotAllowed)
		return
	}
	h.mu.Lock()
	c := h.sessions[id]
	h.mu.Unlock()
	if c == nil {
		http.Error(w, "jig mock: no such session (it ended, or jig mock was restarted): initialize again", http.StatusNotFound)
		return
	}
	if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		http.Error(w, "jig mock: the standalone stream is an event stream: send Accept: text/event-stream", http.StatusNotAcceptable)
		return
	}
	st := &stream{w: w}
	defer st.end()
	if err := st.send(nil); err != nil { // the headers: an event stream, open
		return
	}
	c.SetSessionStream(r.Context(), st.send)
	select {
	case <-r.Context().Done():
	case <-c.gone:
	}
}

func (h *httpHandler) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxLine+1))
	if err != nil {
		http.Error(w, "jig mock: reading the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(body) > maxLine {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorMessage("null", -32600, fmt.Sprintf("jig mock: the message is over %d MiB", maxLine>>20), nil))
		return
	}
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		writeJSON(w, http.StatusBadRequest, errorMessage("null", -32600, "jig mock: JSON-RPC batches are not supported by Streamable HTTP since 2025-06-18; send one message per POST", nil))
		return
	}
	c, id, status := h.conn(r, body)
	if c == nil {
		http.Error(w, "jig mock: no such session (it ended, or jig mock was restarted): initialize again", status)
		return
	}
	if id != "" {
		w.Header().Set(sessionHeader, id)
	}
	_, _, isMethod := frames.MemberSpan(body, "method")
	_, _, hasID := frames.MemberSpan(body, "id")
	if !isMethod || !hasID {
		// A notification, or the client's answer to the mock's request:
		// accepted, unless it is not JSON-RPC.
		answered := false
		_ = c.Handle(r.Context(), body, func(msg []byte) error {
			if msg != nil && !answered {
				answered = true
				writeJSON(w, http.StatusBadRequest, msg)
			}
			return nil
		})
		if !answered {
			w.WriteHeader(http.StatusAccepted)
		}
		return
	}
	st := &stream{w: w}
	defer st.end()
	err = c.Handle(r.Context(), body, st.send)
	if errors.Is(err, errClosed) {
		panic(http.ErrAbortHandler) // a close-after fault: the connection goes
	}
	if !st.started {
		w.WriteHeader(http.StatusAccepted)
	}
}

// conn finds the session a POST belongs to: the one its Mcp-Session-Id
// names, a new one for initialize, or the shared one. It returns the new
// session's id to send back, and on an unknown id nil and 404.
func (h *httpHandler) conn(r *http.Request, body []byte) (*Conn, string, int) {
	id := r.Header.Get(sessionHeader)
	if id != "" {
		h.mu.Lock()
		c := h.sessions[id]
		h.mu.Unlock()
		if c == nil && statelessRequest(body) {
			// The 2026-07-28 era has no sessions: its servers ignore the
			// header (jig's own era probe carries one no server knows).
			return h.stateless(r, body), "", 0
		}
		if c == nil {
			return nil, "", http.StatusNotFound
		}
		return c, "", 0
	}
	if s, e, ok := frames.MemberSpan(body, "method"); ok && string(body[s:e]) == `"initialize"` {
		id := rand.Text()
		c := h.srv.NewConn(id)
		h.mu.Lock()
		h.sessions[id] = c
		h.mu.Unlock()
		return c, id, 0
	}
	return h.stateless(r, body), "", 0
}

// statelessRequest reports whether body is a 2026-07-28 era request: a
// server/discover, or a message whose _meta names its protocol version.
func statelessRequest(body []byte) bool {
	if s, e, ok := frames.MemberSpan(body, "method"); ok && string(body[s:e]) == `"server/discover"` {
		return true
	}
	return bytes.Contains(body, []byte(`"io.modelcontextprotocol/protocolVersion"`))
}

// maxStatelessClients bounds how many 2026-07-28 clients get sequences of
// their own; the requests of any more share one.
const maxStatelessClients = 1024

// stateless finds the client of a 2026-07-28 era request, which carries no
// session: the era has none, so a client is known by its host and the
// clientInfo every request's _meta repeats, and its server/discover (what a
// client sends first) starts it afresh. Two clients that send the same
// clientInfo from one host at the same time cannot be told apart by
// anything they send, and share their sequences.
func (h *httpHandler) stateless(r *http.Request, body []byte) *Conn {
	key := statelessKey(r, body)
	discover := false
	if s, e, ok := frames.MemberSpan(body, "method"); ok {
		discover = string(body[s:e]) == `"server/discover"`
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if c, ok := h.clients[key]; ok && !discover {
		return c
	}
	if _, ok := h.clients[key]; !ok && len(h.clients) >= maxStatelessClients {
		return h.srv.Shared()
	}
	h.runs++
	c := h.srv.NewConn(fmt.Sprintf("stateless-%d", h.runs))
	h.clients[key] = c
	return c
}

// statelessKey names a 2026-07-28 client: its host and its clientInfo as
// sent (compacted).
func statelessKey(r *http.Request, body []byte) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	info := ""
	if s, e, ok := frames.MemberSpan(body, "params", "_meta", "io.modelcontextprotocol/clientInfo"); ok {
		c, _ := frames.Compact(body[s:e])
		info = string(c)
	}
	return host + "\x00" + info
}

func writeJSON(w http.ResponseWriter, status int, msg []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(msg)
}

// A stream is one POST's response: application/json when the first thing
// sent is the answer, else an event stream of everything up to it.
type stream struct {
	mu      sync.Mutex
	w       http.ResponseWriter
	started bool
	sse     bool
	done    bool // the handler returned: its ResponseWriter is gone
}

// end makes every later send fail: the response is over.
func (st *stream) end() {
	st.mu.Lock()
	st.done = true
	st.mu.Unlock()
}

func (st *stream) send(msg []byte) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return errClosed
	}
	if !st.started {
		st.started = true
		_, _, isMethod := frames.MemberSpan(msg, "method")
		if msg != nil && !isMethod {
			writeJSON(st.w, http.StatusOK, msg)
			return nil
		}
		st.sse = true
		h := st.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		st.w.WriteHeader(http.StatusOK)
	}
	if !st.sse {
		return errClosed // one answer per JSON response
	}
	if msg != nil {
		var b strings.Builder
		b.Grow(len(msg) + 24)
		b.WriteString("event: message\n")
		for _, line := range bytes.Split(msg, []byte("\n")) {
			b.WriteString("data: ")
			b.Write(line)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
		if _, err := io.WriteString(st.w, b.String()); err != nil {
			return err
		}
	}
	if f, ok := st.w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}
