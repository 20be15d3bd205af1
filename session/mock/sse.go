package mock

import (
	"context"
	"crypto/rand"
	"io"
	"net/http"
	"sync"
)

// SSEHandler serves the legacy HTTP+SSE transport (2024-11-05): a GET
// opens a session's event stream, whose first event names the endpoint to
// POST messages to (/message?sessionId=…); every answer and message of the
// session comes on that stream, and each POST is accepted with 202.
func (s *Server) SSEHandler() http.Handler {
	return &sseHandler{srv: s, sessions: map[string]*sseSession{}}
}

type sseHandler struct {
	srv      *Server
	mu       sync.Mutex
	sessions map[string]*sseSession
}

type sseSession struct {
	conn   *Conn
	stream *stream
	ctx    context.Context
	cancel context.CancelFunc
}

func (h *sseHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet:
		h.open(w, r)
	case r.Method == http.MethodPost:
		h.post(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "jig mock: method not allowed", http.StatusMethodNotAllowed)
	}
}

func (h *sseHandler) open(w http.ResponseWriter, r *http.Request) {
	id := rand.Text()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	sess := &sseSession{conn: h.srv.NewConn(id), stream: &stream{w: w, started: true, sse: true}, ctx: ctx, cancel: cancel}
	sess.conn.SetSessionStream(ctx, sess.stream.send)
	h.mu.Lock()
	h.sessions[id] = sess
	h.mu.Unlock()
	defer func() {
		sess.stream.end()
		h.mu.Lock()
		delete(h.sessions, id)
		h.mu.Unlock()
		sess.conn.hangUp()
	}()
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	sess.stream.mu.Lock()
	_, err := io.WriteString(w, "event: endpoint\ndata: /message?sessionId="+id+"\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	sess.stream.mu.Unlock()
	if err != nil {
		return
	}
	<-ctx.Done()
}

func (h *sseHandler) post(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	sess := h.sessions[r.URL.Query().Get("sessionId")]
	h.mu.Unlock()
	if sess == nil {
		http.Error(w, "jig mock: no such session (open the event stream with GET first)", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxLine+1))
	if err != nil || len(body) > maxLine {
		http.Error(w, "jig mock: the message could not be read whole", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusAccepted)
	go func() {
		if err := sess.conn.Handle(sess.ctx, body, sess.stream.send); err == errClosed {
			sess.cancel() // a close-after fault: the stream ends
		}
	}()
}
