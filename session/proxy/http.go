package proxy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"

	"github.com/mcpjig/jig/frames"
)

// HTTP is a reverse proxy for Streamable HTTP and legacy SSE servers. It
// passes requests and responses through unchanged — status codes, headers,
// Mcp-Session-Id, GET streams, DELETE, Last-Event-ID — flushing each chunk of
// an event stream the moment it arrives, and records every request body,
// JSON response and server-sent event as a frame, headers redacted.
//
// Paths are kept: a client pointed at the proxy's /mcp reaches the target's
// /mcp; a client pointed at the proxy's root reaches the target URL's path.
// A legacy SSE server's endpoint event that names the target by an absolute
// URL (mcp-go sends one) is rewritten to the proxy's own address, so the
// client's POSTs come back through jig; both are recorded.
type HTTP struct {
	Target *url.URL
	Log    *frames.Log
	// Secrets are header or body values to redact besides the known shapes.
	Secrets []string
	// Redact, when set, is the run's redactor (the recordings' and the
	// terminal's): the values of the client's secret headers it learns
	// reach them too. A new one when nil.
	Redact *frames.Redactor
	// Transport reaches the target; http.DefaultTransport when nil.
	Transport http.RoundTripper
	// Sessions, when set, is the Log of one client session's frames, so
	// that clients sharing the proxy are recorded apart (their ids collide
	// and their calls interleave). A legacy session is keyed by its
	// Mcp-Session-Id, a legacy SSE one by its endpoint's sessionId; traffic
	// with no session (the 2026-07-28 era has none) has the key "". It is
	// called on the recorder's goroutine. When nil, everything goes to Log.
	Sessions func(key string) *frames.Log
	// QueueBytes bounds the frames waiting to be recorded (DefaultQueueBytes
	// when 0): past it, responses wait for the disk.
	QueueBytes int
	// MaxFrame is the frame limit (frames.DefaultMaxFrame when 0): a
	// request or JSON response body, or an event, larger than this is
	// passed on whole but recorded truncated, and held in memory no further.
	MaxFrame int

	once   sync.Once
	rec    *recorder
	redact *frames.Redactor
	rp     *httputil.ReverseProxy
}

func (p *HTTP) init() {
	if p.MaxFrame <= 0 {
		p.MaxFrame = frames.DefaultMaxFrame
	}
	p.rec = newRecorder(p.Log, p.QueueBytes)
	p.rec.logFor = p.Sessions
	p.redact = p.Redact
	if p.redact == nil {
		p.redact = frames.NewRedactor()
	}
	p.redact.Add(p.Secrets...)
	transport := p.Transport
	if transport == nil {
		// Go's transport asks for gzip on a request that did not, and
		// unzips the answer: the server would see a request the client
		// never sent.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DisableCompression = true
		transport = t
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite:        p.rewrite,
		Transport:      transport,
		FlushInterval:  -1, // every write reaches the client at once
		ModifyResponse: p.response,
		ErrorHandler:   p.failed,
	}
}

// Close records what is still queued. Call it after the server has stopped.
func (p *HTTP) Close() {
	p.once.Do(p.init)
	p.rec.close()
}

func (p *HTTP) rewrite(r *httputil.ProxyRequest) {
	u := *r.In.URL
	u.Scheme, u.Host, u.User = p.Target.Scheme, p.Target.Host, nil
	if u.Path == "" || u.Path == "/" {
		u.Path, u.RawPath = p.Target.Path, p.Target.RawPath
		if u.RawQuery == "" {
			u.RawQuery = p.Target.RawQuery
		}
	}
	r.Out.URL = &u
	r.Out.Host = ""
	// Rewrite drops the X-Forwarded-* headers; the client sent them, and the
	// proxy passes requests as the client sent them.
	if r.In.Header != nil && r.Out.Header != nil {
		for _, h := range []string{"X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto"} {
			if v, ok := r.In.Header[h]; ok {
				r.Out.Header[h] = v
			}
		}
	}
}

type ctxKey struct{}

func (p *HTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.once.Do(p.init)
	out := *r.URL
	p.rewrite(&httputil.ProxyRequest{In: r, Out: &http.Request{URL: &out}})
	info := &frames.HTTP{Method: r.Method, URL: out.String(), Headers: p.redact.Headers(r.Header)}
	// The session the request claims is its session once the server has
	// accepted it: jig's own era probe claims one no server has.
	cs := &clientSession{rec: p.rec, claimed: sessionOf(r)}
	if cs.claimed != "" && p.rec.isKnown(cs.claimed) {
		// A session already recorded: its frames go to it as they are
		// captured, so the file's order is the order they crossed in.
		cs.settled, cs.key = true, cs.claimed
	}
	if r.Body != nil && r.Body != http.NoBody {
		// MCP request bodies are single messages: read one whole, record it,
		// then send it on, so it is recorded before any answer to it. One
		// over the frame limit is recorded truncated and sent on intact,
		// its rest streamed, not held.
		body, err := io.ReadAll(io.LimitReader(r.Body, int64(p.MaxFrame)+1))
		if err != nil {
			r.Body.Close()
			cs.add(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, HTTP: info, Note: "proxy: reading the request body failed: " + err.Error()})
			cs.settle("")
			http.Error(w, "jig proxy: reading the request body failed: "+err.Error(), http.StatusBadRequest)
			return
		}
		if len(body) > p.MaxFrame {
			size, why := r.ContentLength, fmt.Sprintf("a request body larger than the frame limit (%s; --max-frame); passed on whole", frames.HumanSize(p.MaxFrame))
			if size < int64(len(body)) {
				size, why = int64(len(body)), why+" (no Content-Length: its size was not counted)"
			}
			cs.add(frames.Truncated(frames.Frame{Dir: frames.ClientToServer, Raw: body, HTTP: info}, size, why))
			r.Body = readCloser{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		} else {
			r.Body.Close()
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			f := frames.Frame{Dir: frames.ClientToServer, Raw: bytes.TrimRight(body, "\r\n"), HTTP: info}
			if f.Classify(); f.Kind == frames.KindRequest {
				cs.posted = f.ID
			}
			cs.add(f)
		}
	} else {
		cs.add(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, HTTP: info, Note: frames.RequestNote(r)})
	}
	// The proxy's own address, as the client reached it, for rewriting an
	// absolute endpoint event; and the request's client session.
	ctx := context.WithValue(r.Context(), ctxKey{}, r.Host)
	ctx = context.WithValue(ctx, sessionKey{}, cs)
	p.rp.ServeHTTP(w, r.WithContext(ctx))
}

type sessionKey struct{}

// sessionOf is the client session a request names: its Mcp-Session-Id, or
// the sessionId of a legacy SSE message endpoint.
func sessionOf(r *http.Request) string {
	if id := r.Header.Get("Mcp-Session-Id"); id != "" {
		return id
	}
	return r.URL.Query().Get("sessionId")
}

// A clientSession holds one HTTP exchange's frames until it is known which
// client session they belong to: an initialize learns its session from the
// response's Mcp-Session-Id, a legacy SSE stream from its endpoint event.
// Frames keep their order and their times; they reach the Log once settled.
type clientSession struct {
	rec     *recorder
	claimed string // the session the request names
	mu      sync.Mutex
	settled bool
	key     string
	held    []frames.Frame
	// posted is the id of the one request the exchange's POST carried: an
	// error with id null in its response answers it (frames.AnswersPost).
	posted string
}

func (c *clientSession) add(f frames.Frame) {
	if f.Time.IsZero() {
		f.Time = c.rec.now()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.settled {
		c.held = append(c.held, f)
		return
	}
	c.rec.addTo(c.key, f)
}

// settle names the session (once; later calls change nothing) and records
// what was held.
func (c *clientSession) settle(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.settled {
		return
	}
	c.settled, c.key = true, key
	for _, f := range c.held {
		c.rec.addTo(key, f)
	}
	c.held = nil
}

func sessionFrom(req *http.Request) *clientSession {
	if cs, ok := req.Context().Value(sessionKey{}).(*clientSession); ok {
		return cs
	}
	return nil
}

func (p *HTTP) response(resp *http.Response) error {
	req := resp.Request
	base := frames.HTTP{Method: req.Method, URL: req.URL.String()}
	info := base
	info.Status, info.Headers = resp.StatusCode, p.redact.Headers(resp.Header)
	cs := sessionFrom(req)
	if cs == nil {
		cs = &clientSession{rec: p.rec}
	}
	ct := resp.Header.Get("Content-Type")
	endpoint := req.Method == http.MethodGet && strings.HasPrefix(ct, "text/event-stream")
	if !endpoint {
		// An initialize is told its session by the response; a request
		// that names one the server issued is in it unless the server
		// refused it. One the server never issued names no session: a
		// 2026-07-28 server ignores the header (jig's era probe sends one),
		// and the era has no sessions.
		key := resp.Header.Get("Mcp-Session-Id")
		p.rec.issue(key)
		if key == "" && resp.StatusCode < 400 && p.rec.wasIssued(cs.claimed) {
			key = cs.claimed
		}
		cs.settle(key)
	}
	if strings.HasPrefix(ct, "text/event-stream") {
		cs.add(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: &info,
			Note: frames.StatusNote(resp, "event stream opened")})
		sr := &sseRecorder{body: resp.Body, rec: cs, info: base, issued: p.rec}
		if p.rec.wasIssued(cs.claimed) {
			sr.session = cs.claimed
		}
		sr.parser.Max = p.MaxFrame
		if host, _ := req.Context().Value(ctxKey{}).(string); req.Method == http.MethodGet && host != "" {
			sr.endpoint = &endpointRewrite{target: p.Target, proxyHost: host}
		}
		resp.Body = sr
		return nil
	}
	// A JSON response is one message: record it whole before it goes on.
	// One over the frame limit goes on whole, its rest streamed, and is
	// recorded truncated, with its true size, once it has passed.
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(p.MaxFrame)+1))
	if err == nil && len(body) > p.MaxFrame {
		resp.Body = &truncatedBody{rest: resp.Body, head: bytes.NewReader(body), n: 0, done: func(n int64, rerr error) {
			why := fmt.Sprintf("a response body larger than the frame limit (%s; --max-frame); passed on whole", frames.HumanSize(p.MaxFrame))
			if rerr != nil {
				why += "; it ended early: " + rerr.Error()
			}
			cs.add(frames.Truncated(frames.Frame{Dir: frames.ServerToClient, Raw: body, HTTP: &info}, n, why))
		}}
		return nil
	}
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		cs.add(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: &info, Note: "proxy: reading the response failed: " + err.Error()})
		return err
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || !strings.Contains(ct, "json") || req.Method != http.MethodPost {
		// No JSON-RPC message, or the answer to a request that carried
		// none (the DELETE that ends a session): transport evidence.
		note := frames.ResponseNote(req, resp, string(p.redact.Bytes(trimmed)))
		cs.add(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: &info, Note: note})
		return nil
	}
	f := frames.Frame{Dir: frames.ServerToClient, Raw: trimmed, HTTP: &info}
	f.Classify()
	f.AnswersPost(cs.posted)
	cs.add(f)
	return nil
}

func (p *HTTP) failed(w http.ResponseWriter, r *http.Request, err error) {
	cs := sessionFrom(r)
	if cs == nil {
		cs = &clientSession{rec: p.rec}
	}
	cs.settle(cs.claimed)
	cs.add(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
		HTTP: &frames.HTTP{Method: r.Method, URL: r.URL.String(), Status: http.StatusBadGateway}, Note: "proxy: the target failed: " + err.Error()})
	if r.Context().Err() != nil {
		return // the client went away; nobody to answer
	}
	http.Error(w, fmt.Sprintf("jig proxy: %s unreachable: %v", p.Target.Redacted(), err), http.StatusBadGateway)
}

// An sseRecorder cuts an event stream into frames as the reverse proxy
// reads it. Read queues each completed event before returning the bytes
// that complete it, and the proxy writes and flushes them right after.
type sseRecorder struct {
	body   io.ReadCloser
	rec    *clientSession
	info   frames.HTTP
	parser frames.SSEParser
	once   sync.Once
	// endpoint is set on a GET stream until its first event has passed:
	// the legacy SSE transport's endpoint event comes first.
	endpoint *endpointRewrite
	session  string // the stream's session when no endpoint event names one
	issued   *recorder
	out      []byte // held (and maybe rewritten) bytes not yet returned
	err      error  // the body's error, returned after out
}

func (s *sseRecorder) Read(b []byte) (int, error) {
	for {
		if len(s.out) > 0 {
			n := copy(b, s.out)
			s.out = s.out[n:]
			if len(s.out) == 0 {
				return n, s.err
			}
			return n, nil
		}
		if s.err != nil {
			return 0, s.err
		}
		n, err := s.body.Read(b)
		if n > 0 {
			s.parser.Feed(b[:n], s.emit)
		}
		if err == io.EOF {
			s.parser.End(s.emit)
		}
		if s.endpoint == nil {
			return n, err
		}
		held, done := s.endpoint.feed(b[:n])
		if done || err != nil {
			s.endpoint.record(s)
			if s.endpoint.session != "" {
				s.session = s.endpoint.session
				s.issued.issue(s.session)
			}
			s.rec.settle(s.session)
			s.endpoint = nil
			s.out, s.err = held, err
		}
	}
}

// An endpointRewrite holds the first event of a GET event stream until it is
// complete. When it is a legacy SSE endpoint event whose data is an absolute
// URL on the target, the event goes on naming the same path on the proxy.
type endpointRewrite struct {
	target    *url.URL
	proxyHost string
	hold      []byte
	from, to  string // the endpoint as sent, and as rewritten
	session   string // the endpoint's sessionId: the stream's client session
}

// maxHeldEvent bounds what is held waiting for the first event's end.
const maxHeldEvent = 64 << 10

// feed adds bytes of the stream and reports whether the first event is
// complete (or will not be rewritten); held is then what goes on.
func (e *endpointRewrite) feed(b []byte) (held []byte, done bool) {
	e.hold = append(e.hold, b...)
	end, sep := -1, 0
	for _, s := range []string{"\r\n\r\n", "\n\n", "\r\r"} {
		if i := bytes.Index(e.hold, []byte(s)); i >= 0 && (end < 0 || i < end) {
			end, sep = i, len(s)
		}
	}
	if end < 0 {
		if len(e.hold) > maxHeldEvent {
			return e.hold, true
		}
		return e.hold, false
	}
	event, rest := e.hold[:end+sep], e.hold[end+sep:]
	return append(e.rewrite(event), rest...), true
}

func (e *endpointRewrite) rewrite(event []byte) []byte {
	lines := bytes.Split(event, []byte("\n"))
	isEndpoint, dataLine := false, -1
	for i, l := range lines {
		l = bytes.TrimSuffix(l, []byte("\r"))
		switch {
		case bytes.Equal(bytes.TrimSpace(bytes.TrimPrefix(l, []byte("event:"))), []byte("endpoint")) && bytes.HasPrefix(l, []byte("event:")):
			isEndpoint = true
		case bytes.HasPrefix(l, []byte("data:")):
			dataLine = i
		}
	}
	if !isEndpoint || dataLine < 0 {
		return event
	}
	l := lines[dataLine]
	cr := bytes.HasSuffix(l, []byte("\r"))
	value := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSuffix(string(l), "\r"), "data:"), " ")
	u, err := url.Parse(value)
	if err == nil {
		e.session = u.Query().Get("sessionId")
	}
	if err != nil || !u.IsAbs() || u.Host != e.target.Host || u.Scheme != e.target.Scheme {
		return event // relative (it comes back through jig anyway), or not the target's
	}
	e.from = value
	e.to = "http://" + e.proxyHost + u.RequestURI()
	nl := "data: " + e.to
	if cr {
		nl += "\r"
	}
	lines[dataLine] = []byte(nl)
	return bytes.Join(lines, []byte("\n"))
}

// record notes the rewrite beside the endpoint event as the server sent it.
func (e *endpointRewrite) record(s *sseRecorder) {
	if e.to == "" {
		return
	}
	info := s.info
	info.Event = "endpoint"
	s.rec.add(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: &info,
		Note: "proxy: endpoint " + e.from + " rewritten to " + e.to + " so the client's POSTs come back through jig"})
}

func (s *sseRecorder) emit(e frames.SSEEvent) {
	f := e.Frame(s.info)
	if e.Size > 0 {
		f = frames.Truncated(f, e.Size, fmt.Sprintf("an event larger than the frame limit (%s; --max-frame); passed on whole", frames.HumanSize(s.parser.Max)))
	}
	s.rec.add(f)
}

type readCloser struct {
	io.Reader
	io.Closer
}

// A truncatedBody passes on a response body over the frame limit: the head
// jig read, then the rest as it arrives, counted, not kept. done is called
// once, with the body's true size, at its end or when it is closed.
type truncatedBody struct {
	head *bytes.Reader
	rest io.ReadCloser
	n    int64
	once sync.Once
	done func(n int64, err error)
}

func (b *truncatedBody) Read(p []byte) (int, error) {
	var n int
	var err error
	if b.head.Len() > 0 {
		n, err = b.head.Read(p)
	} else {
		n, err = b.rest.Read(p)
	}
	b.n += int64(n)
	if err != nil {
		rerr := err
		if err == io.EOF {
			rerr = nil
		}
		b.once.Do(func() { b.done(b.n, rerr) })
	}
	return n, err
}

func (b *truncatedBody) Close() error {
	b.once.Do(func() { b.done(b.n, nil) })
	return b.rest.Close()
}

func (s *sseRecorder) Close() error {
	s.once.Do(func() {
		s.rec.settle(s.session) // a stream that ended before its first event
		info := s.info
		s.rec.add(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: &info, Note: "event stream closed"})
	})
	return s.body.Close()
}
