package proxy

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/demo"
)

// sessionLogs is a proxy's Sessions that keeps every session's Log.
type sessionLogs struct {
	mu   sync.Mutex
	logs map[string]*frames.Log
}

func (s *sessionLogs) logFor(key string) *frames.Log {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.logs == nil {
		s.logs = map[string]*frames.Log{}
	}
	if s.logs[key] == nil {
		s.logs[key] = frames.NewLog(nil)
	}
	return s.logs[key]
}

func (s *sessionLogs) all() map[string]*frames.Log {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logs
}

// Two clients behind one HTTP proxy are recorded apart, each in its own
// Log: their ids collide (both start at initialize id 1) and their calls
// interleave, so one recording of both pairs answers with the wrong calls.
func TestHTTPProxyRecordsEachClientSessionApart(t *testing.T) {
	srv, err := demo.New(1)
	if err != nil {
		t.Fatal(err)
	}
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL + "/mcp")
	logs := &sessionLogs{}
	p := &HTTP{Target: u, Log: frames.NewLog(nil), Sessions: logs.logFor}
	front := httptest.NewServer(p)

	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil)
			cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: front.URL + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Errorf("client %d: %v", i, err)
				return
			}
			for range 3 {
				if _, err := cs.ListTools(ctx, nil); err != nil {
					t.Errorf("client %d: %v", i, err)
				}
			}
			cs.Close()
		}()
	}
	wg.Wait()
	front.Close()
	p.Close()

	var sessions int
	for key, log := range logs.all() {
		if key == "" {
			if log.Len() > 0 {
				t.Errorf("%d frames recorded without a session: %v", log.Len(), wire(log, frames.ClientToServer))
			}
			continue
		}
		sessions++
		var inits, lists int
		for i := range log.Len() {
			f := log.Frame(i)
			if f.Dir != frames.ClientToServer || f.Kind != frames.KindRequest {
				continue
			}
			switch f.Method {
			case "initialize":
				inits++
			case "tools/list":
				lists++
			}
			if log.Partner(i) < 0 {
				t.Errorf("session %s: %s id %s has no answer in its recording", key, f.Method, f.ID)
			}
		}
		if inits != 1 || lists != 3 {
			t.Errorf("session %s: %d initialize and %d tools/list, want 1 and 3 (one client's session)", key, inits, lists)
		}
	}
	if sessions != 2 {
		t.Errorf("%d client sessions recorded, want 2", sessions)
	}
	if p.Log.Len() != 0 {
		t.Errorf("with Sessions set, %d frames still went to Log", p.Log.Len())
	}
}

// A legacy SSE client's stream and its POSTs are one session, keyed by the
// sessionId of its endpoint.
func TestHTTPProxyRecordsEachSSESessionApart(t *testing.T) {
	target := startMCPGoSSE(t)
	u, _ := url.Parse(target)
	logs := &sessionLogs{}
	p := &HTTP{Target: u, Log: frames.NewLog(nil), Sessions: logs.logFor}
	front := httptest.NewServer(p)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); mcpgoClient(t, front.URL+"/sse") }()
	}
	wg.Wait()
	front.Close()
	p.Close()
	var keys []string
	for key, log := range logs.all() {
		if key == "" && log.Len() == 0 {
			continue
		}
		keys = append(keys, key)
		var endpoint, calls int
		for _, f := range log.Frames() {
			if f.HTTP != nil && f.HTTP.Event == "endpoint" && !strings.HasPrefix(f.Note, "proxy:") {
				endpoint++
			}
			if f.Dir == frames.ClientToServer && f.Method == "tools/call" {
				calls++
			}
		}
		if key == "" || endpoint != 1 || calls != 1 {
			t.Errorf("session %q: %d endpoint events and %d tools/call, want one client's (1 and 1)", key, endpoint, calls)
		}
	}
	if len(keys) != 2 {
		t.Errorf("sessions %q, want two", keys)
	}
}

// A request in a session already recorded is numbered when it crosses, not
// when the server's answer names its session: a tools/list the server is
// slow to answer is not numbered after a ping that crossed later, so the
// session's seq order is its time order.
func TestHTTPProxySeqFollowsTimeWithinASession(t *testing.T) {
	srv, err := demo.New(1)
	if err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	slow, arrived := make(chan struct{}), make(chan struct{})
	var once sync.Once
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"tools/list"`)) {
				once.Do(func() { close(arrived) })
				<-slow // answered once the ping has crossed
			}
		}
		h.ServeHTTP(w, r)
	}))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL + "/mcp")
	logs := &sessionLogs{}
	p := &HTTP{Target: u, Log: frames.NewLog(nil), Sessions: logs.logFor}
	front := httptest.NewServer(p)
	defer front.Close()
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: front.URL + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	listed := make(chan error, 1)
	go func() {
		_, err := cs.ListTools(ctx, nil)
		listed <- err
	}()
	<-arrived // the tools/list crossed the proxy and waits at the server
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	close(slow)
	if err := <-listed; err != nil {
		t.Fatal(err)
	}
	cs.Close()
	front.Close()
	p.Close()
	for key, log := range logs.all() {
		for i := 1; i < log.Len(); i++ {
			if a, b := log.Frame(i-1), log.Frame(i); b.Time.Before(a.Time) {
				t.Errorf("session %q: #%d %s %s at %s comes after #%d %s %s at %s", key, b.Seq, b.Kind, b.Method, b.Time.Format("15:04:05.000000"), a.Seq, a.Kind, a.Method, a.Time.Format("15:04:05.000000"))
			}
		}
	}
}
