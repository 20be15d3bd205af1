package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/demo"
	"github.com/mcpjig/jig/session/peers"
)

// startHTTPProxy puts an HTTP proxy in front of target and returns its URL
// and its log, complete once the returned stop has run.
func startHTTPProxy(t *testing.T, target string) (string, *frames.Log, func()) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	log := frames.NewLog(nil)
	p := &HTTP{Target: u, Log: log}
	srv := httptest.NewServer(p)
	var once sync.Once
	stop := func() { once.Do(func() { srv.Close(); p.Close() }) }
	t.Cleanup(stop)
	return srv.URL, log, stop
}

func TestHTTPProxyStreamableDemo(t *testing.T) {
	var mu sync.Mutex
	var sawAuth []string
	srv, err := demo.New(1)
	if err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		mu.Lock()
		sawAuth = append(sawAuth, r.Header.Get("Authorization"))
		mu.Unlock()
		return srv
	}, nil)
	upstream := httptest.NewServer(h)
	defer upstream.Close()

	proxyURL, log, stop := startHTTPProxy(t, upstream.URL+"/mcp")
	for _, protocol := range []string{"2025-11-25", ""} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			client := exercise(t, session.Target{Transport: session.TransportStreamable, URL: proxyURL + "/mcp",
				Headers: map[string]string{"Authorization": "Bearer sk-test-0123456789abcdefghijklmnop"}}, protocol, func(s *session.Session) {
				if _, _, err := s.ListTools(context.Background()); err != nil {
					t.Fatal(err)
				}
				if _, err := s.CallTool(context.Background(), "search_orders", json.RawMessage(`{"customer":"acme"}`)); err != nil {
					t.Fatal(err)
				}
			})
			// What the proxy recorded must be what the client's tap saw, both ways.
			waitFor(t, "the proxy to record the client's last frame", func() bool {
				return len(wire(log, frames.ClientToServer)) >= len(wire(client, frames.ClientToServer))
			})
			for _, dir := range []frames.Direction{frames.ClientToServer, frames.ServerToClient} {
				got := tail(wire(log, dir), len(wire(client, dir)))
				if d := cmp.Diff(wire(client, dir), got); d != "" {
					t.Errorf("%s: the proxy recorded different messages than the client saw (-client +proxy):\n%s", dir, d)
				}
			}
		})
	}
	stop()
	mu.Lock()
	for _, a := range sawAuth {
		if a != "Bearer sk-test-0123456789abcdefghijklmnop" {
			t.Errorf("the server saw Authorization %q: the proxy must pass headers unchanged", a)
		}
	}
	mu.Unlock()
	var sessionIDs, deletes, streams int
	for _, f := range log.Frames() {
		if f.HTTP == nil {
			continue
		}
		for k, vs := range f.HTTP.Headers {
			if strings.EqualFold(k, "Authorization") && vs[0] != frames.Placeholder("header") {
				t.Errorf("recorded Authorization header %q, want it redacted", vs[0])
			}
			if strings.EqualFold(k, "Mcp-Session-Id") {
				sessionIDs++
			}
		}
		if strings.HasPrefix(f.Note, "DELETE") {
			deletes++
		}
		if strings.Contains(f.Note, "event stream opened") {
			streams++
		}
	}
	if sessionIDs == 0 || deletes == 0 || streams == 0 {
		t.Errorf("legacy session evidence: %d frames with Mcp-Session-Id, %d DELETEs, %d event streams; want some of each", sessionIDs, deletes, streams)
	}
}

func tail(s []string, n int) []string {
	if n > len(s) {
		return s
	}
	return s[len(s)-n:]
}

// TestHTTPProxyFlushesEachEvent checks that an SSE event reaches the client
// while the stream is still open: the proxy must not buffer.
func TestHTTPProxyFlushesEachEvent(t *testing.T) {
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Last-Event-ID") != "e1" {
			http.Error(w, "want Last-Event-ID e1, got "+r.Header.Get("Last-Event-ID"), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Mcp-Session-Id", "abc")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n")
		w.(http.Flusher).Flush()
		<-release
		fmt.Fprint(w, "id: e3\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/done\"}\n\n")
	}))
	defer upstream.Close()
	defer close(release)
	proxyURL, log, _ := startHTTPProxy(t, upstream.URL+"/mcp")
	req, _ := http.NewRequest("GET", proxyURL+"/mcp", nil)
	req.Header.Set("Last-Event-ID", "e1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") != "abc" {
		t.Fatalf("status %d session %q", resp.StatusCode, resp.Header.Get("Mcp-Session-Id"))
	}
	buf := make([]byte, 4096)
	var got string
	for !strings.Contains(got, "\n\n") {
		n, err := resp.Body.Read(buf)
		if err != nil {
			t.Fatalf("reading the first event before the server finished: %v (got %q)", err, got)
		}
		got += string(buf[:n])
	}
	if want := "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"; got != want {
		t.Errorf("first event = %q, want %q byte for byte", got, want)
	}
	waitFor(t, "the event to be recorded", func() bool { return log.Len() >= 3 })
	f := log.Frame(2)
	if f.Method != "notifications/progress" || f.HTTP.EventID != "e2" {
		t.Errorf("recorded frame = %s %s event %q", f.Kind, f.Method, f.HTTP.EventID)
	}
	if !strings.Contains(log.Frame(0).Note, "after event e1") {
		t.Errorf("the GET's note %q does not mention the reconnection", log.Frame(0).Note)
	}
}

func TestHTTPProxyServerEverything(t *testing.T) {
	se := peer(t)
	port := freePort(t)
	cmd := exec.Command("node", se, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitFor(t, "server-everything to listen", func() bool {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	proxyURL, log, _ := startHTTPProxy(t, fmt.Sprintf("http://127.0.0.1:%d/mcp", port))
	client := exercise(t, session.Target{Transport: session.TransportStreamable, URL: proxyURL + "/mcp"}, "2025-11-25", func(s *session.Session) {
		if _, _, err := s.ListTools(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CallTool(context.Background(), "echo", json.RawMessage(`{"message":"through jig"}`)); err != nil {
			t.Fatal(err)
		}
	})
	waitFor(t, "the proxy to catch up", func() bool {
		return len(wire(log, frames.ClientToServer)) >= len(wire(client, frames.ClientToServer))
	})
	if d := cmp.Diff(wire(client, frames.ClientToServer), wire(log, frames.ClientToServer)); d != "" {
		t.Errorf("c2s: recorded differs from what the client sent (-client +proxy):\n%s", d)
	}
	if d := cmp.Diff(results(client), results(log)); d != "" {
		t.Errorf("responses: recorded differ from what the client received (-client +proxy):\n%s", d)
	}
	// The era probe: server-everything answers it with HTTP 400 and an
	// error whose id is null. That error is the probe's answer (the HTTP
	// response to its POST), on both sides; it was recorded as pending.
	auto := exercise(t, session.Target{Transport: session.TransportStreamable, URL: proxyURL + "/mcp"}, "", func(*session.Session) {})
	waitFor(t, "the proxy to record the probe", func() bool { return probe(log) >= 0 })
	for side, l := range map[string]*frames.Log{"client": auto, "proxy": log} {
		i := probe(l)
		if i < 0 {
			t.Errorf("%s: no server/discover recorded", side)
			continue
		}
		j := l.Partner(i)
		if j < 0 {
			t.Errorf("%s: the server/discover probe #%d has no answer recorded", side, l.Frame(i).Seq)
			continue
		}
		if a := l.Frame(j); a.Kind != frames.KindError || a.Answers != l.Frame(i).ID || a.Err != "" {
			t.Errorf("%s: the probe's answer is %+v", side, a)
		}
	}
}

// probe is the index of the last server/discover request in l, or -1.
func probe(l *frames.Log) int {
	for i := l.Len() - 1; i >= 0; i-- {
		if f := l.Frame(i); f.Kind == frames.KindRequest && f.Method == "server/discover" {
			return i
		}
	}
	return -1
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// The HTTP proxy passes a request as the client sent it: it adds no
// Accept-Encoding the client did not send, and keeps the client's
// X-Forwarded-For.
func TestHTTPProxyPassesHeadersAsSent(t *testing.T) {
	var mu sync.Mutex
	var got http.Header
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.Header.Clone()
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	}))
	defer ts.Close()
	addr, _, stop := startHTTPProxy(t, ts.URL+"/mcp")
	defer stop()
	req, _ := http.NewRequest(http.MethodPost, addr+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", "203.0.113.7")
	// A raw transport: the test client itself must not add gzip either.
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	if v := got.Get("Accept-Encoding"); v != "" {
		t.Errorf("the server saw Accept-Encoding %q the client never sent", v)
	}
	if v := got.Values("X-Forwarded-For"); len(v) != 1 || v[0] != "203.0.113.7" {
		t.Errorf("the server saw X-Forwarded-For %q, want the client's 203.0.113.7", v)
	}
}

// TestHTTPProxyRecordsTheDeletesAnswerAsItsOwn: the answer to a DELETE
// (server-everything's 400 with a JSON-RPC error of id null, for a session
// it does not know, as a restarted server answers) is the DELETE's
// transport frame in the proxy's recording too, not a JSON-RPC error "of
// no request".
func TestHTTPProxyRecordsTheDeletesAnswerAsItsOwn(t *testing.T) {
	port := peers.FreePort(t)
	peers.Serve(t, peers.NodeHTTP(t, peers.Everything, "streamableHttp"), port)
	proxyURL, log, stop := startHTTPProxy(t, fmt.Sprintf("http://127.0.0.1:%d/mcp", port))
	req, _ := http.NewRequest(http.MethodDelete, proxyURL+"/mcp", nil)
	req.Header.Set("Mcp-Session-Id", "a-session-of-a-server-since-restarted")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 == 2 || !strings.Contains(string(body), `"error"`) {
		t.Fatalf("server-everything answered the DELETE %d %s: the test needs a JSON error", resp.StatusCode, body)
	}
	stop()
	found := false
	for i := range log.Len() {
		f := log.Frame(i)
		if f.Dir != frames.ServerToClient || f.HTTP == nil || f.HTTP.Method != http.MethodDelete {
			continue
		}
		found = true
		if f.Kind != frames.KindTransport || !strings.HasPrefix(f.Note, "answers DELETE: ending the session — ") {
			t.Errorf("the DELETE's answer is recorded as %s %q %s", f.Kind, f.Note, f.Raw)
		}
	}
	if !found {
		t.Fatal("no answer to the DELETE recorded")
	}
}
