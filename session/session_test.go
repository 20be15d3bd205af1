package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/demo"
	"github.com/mcpjig/jig/session/peers"
)

func open(t *testing.T, opts Options) *Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Open(ctx, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", opts.Target, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

// methods lists the methods of the message frames in order, "→m" or "←m".
func methods(log *frames.Log) []string {
	var out []string
	for _, f := range log.Frames() {
		if f.Kind.IsMessage() && f.Method != "" {
			out = append(out, f.Dir.Arrow()+f.Method)
		}
	}
	return out
}

func TestHandshakeFramesInBothEras(t *testing.T) {
	tests := []struct {
		version string
		era     string
		first   []string
	}{
		{"", "stateless", []string{"→server/discover", "←server/discover"}},
		{"2025-11-25", "legacy", []string{"→initialize", "←initialize", "→notifications/initialized"}},
		{"2024-11-05", "legacy", []string{"→initialize", "←initialize", "→notifications/initialized"}},
	}
	for _, tt := range tests {
		t.Run("version="+tt.version, func(t *testing.T) {
			s := open(t, Options{Target: Target{Transport: TransportDemo}, ProtocolVersion: tt.version})
			info := s.Info()
			if info.Era != tt.era || info.ServerName != demo.Name {
				t.Errorf("Info = %+v, want era %s and server %s", info, tt.era, demo.Name)
			}
			got := methods(s.Log)
			if len(got) < len(tt.first) || strings.Join(got[:len(tt.first)], " ") != strings.Join(tt.first, " ") {
				t.Errorf("first frames = %v, want them to start with %v", got, tt.first)
			}
		})
	}
}

func TestSchemaViolatingArgumentsAreSentExactly(t *testing.T) {
	s := open(t, Options{Target: selfTarget(t, "demo"), ProtocolVersion: "2025-11-25"})
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatal(err)
	}
	// customer is a number (the schema says string), 1.0 is not 1, and the
	// keys are out of order: all must reach the server untouched. (The SDK
	// compacts insignificant whitespace; nothing else may change.)
	args := json.RawMessage(`{"since":"last month", "customer": 42,  "limit": 1.0}`)
	ex, err := s.CallTool(ctx(t), "search_orders", args)
	if err != nil {
		var rpc *RPCError
		if !errors.As(err, &rpc) {
			t.Fatalf("CallTool: %v", err)
		}
	}
	if ex == nil || ex.Request == nil {
		t.Fatal("no request frame recorded for the call")
	}
	if !strings.Contains(string(ex.Request.Raw), `"arguments":{"since":"last month","customer":42,"limit":1.0}`) {
		t.Errorf("the request on the wire changed the arguments:\n%s", ex.Request.Raw)
	}
	if ex.Response == nil {
		t.Errorf("the server's answer to a schema-violating call was not paired with its request")
	}
}

func TestGarbageOnStdoutIsEvidenceAndTheSessionGoesOn(t *testing.T) {
	s := open(t, Options{Target: selfTarget(t, "rough"), ProtocolVersion: "2025-11-25"})
	raw, _, err := s.ListTools(ctx(t))
	if err != nil {
		t.Fatalf("ListTools after garbage: %v", err)
	}
	if len(raw) != 2 {
		t.Errorf("listed %d tools, want 2", len(raw))
	}
	kinds := map[string]frames.Kind{}
	for _, f := range s.Log.Frames() {
		if f.Dir == frames.ServerToClient && !f.Kind.IsMessage() && f.Kind != frames.KindTransport {
			kinds[string(f.Raw)] = f.Kind
			if f.Err == "" {
				t.Errorf("frame %q kept no error", f.Raw)
			}
		}
	}
	want := map[string]frames.Kind{
		"hello from print()": frames.KindInvalid,
		`[{"jsonrpc":"2.0","method":"notifications/message","params":{}}]`: frames.KindBatch,
		"bad utf8 \xff\xfe": frames.KindInvalid,
	}
	for raw, kind := range want {
		if kinds[raw] != kind {
			t.Errorf("line %q recorded as %q, want %q", raw, kinds[raw], kind)
		}
	}
}

func TestFourMegabyteFrame(t *testing.T) {
	s := open(t, Options{Target: selfTarget(t, "rough"), ProtocolVersion: "2025-11-25"})
	// 4 MiB through the tap and the SDK's decoder takes well under a second
	// of CPU, but under -race on a loaded 2-core machine it took 17-28 s of
	// wall clock: ctx(t)'s 20 s was a race against the machine.
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ex, err := s.CallTool(c, "big", nil)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Response == nil || ex.Response.Size() < 4<<20 {
		t.Fatalf("response frame of %d bytes, want over 4 MiB", ex.Response.Size())
	}
	if !json.Valid(ex.Response.Raw) {
		t.Errorf("the 4 MB frame was not captured whole")
	}
}

func TestServerCrashMidCall(t *testing.T) {
	s := open(t, Options{Target: selfTarget(t, "rough"), ProtocolVersion: "2025-11-25"})
	_, err := s.CallTool(ctx(t), "crash", nil)
	var ce *ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("CallTool(crash) = %v, want a ConnectError", err)
	}
	if !strings.Contains(ce.Error(), "boom in crash handler") {
		t.Errorf("the error does not carry the server's stderr:\n%v", ce)
	}
	var sawRequest, sawExit bool
	for _, f := range s.Log.Frames() {
		sawRequest = sawRequest || f.Method == "tools/call" && f.Kind == frames.KindRequest
		sawExit = sawExit || f.Kind == frames.KindTransport && strings.Contains(f.Note, "exit status 7")
	}
	if !sawRequest || !sawExit {
		t.Errorf("frames kept: request %v, exit %v; want both", sawRequest, sawExit)
	}
}

func TestServerThatFailsToStart(t *testing.T) {
	_, err := Open(ctx(t), Options{Target: selfTarget(t, "fail-start"), Log: frames.NewLog(nil)})
	var ce *ConnectError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "cannot open database") {
		t.Fatalf("Open = %v, want a ConnectError with the server's stderr", err)
	}
	_, err = Open(ctx(t), Options{Target: Target{Transport: TransportStdio, Command: []string{"no-such-server-xyz"}}})
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "no-such-server-xyz") {
		t.Fatalf("Open(missing command) = %v, want a ConnectError naming it", err)
	}
}

func TestShutdownEscalatesToSIGKILL(t *testing.T) {
	s, err := Open(ctx(t), Options{Target: selfTarget(t, "linger"), Grace: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var note string
	for _, f := range s.Log.Frames() {
		if f.Kind == frames.KindTransport {
			note = f.Note
		}
	}
	if !strings.Contains(note, "killed") {
		t.Errorf("last transport frame = %q, want the server killed after it ignored stdin and SIGTERM", note)
	}
}

// The HTTP tap must deliver the user's headers to the server, record them
// redacted, and keep the Streamable HTTP session working.
func TestHTTPHeadersReachTheServerAndAreRedacted(t *testing.T) {
	srv, err := demo.New(1)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close) // registered first, so it runs after the session closes
	t.Setenv("JIG_TEST_TOKEN", "tok-0123456789-secret")
	log := frames.NewLog(nil)
	s := open(t, Options{Target: Target{Transport: TransportStreamable, URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer $JIG_TEST_TOKEN"}}, Log: log, ProtocolVersion: "2025-11-25"})
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(seen) == 0 || seen[0] != "Bearer tok-0123456789-secret" {
		t.Errorf("the server saw Authorization %q, want the expanded token", seen)
	}
	mu.Unlock()
	for _, f := range log.Frames() {
		b, _ := json.Marshal(f)
		if strings.Contains(string(b)+string(f.Raw), "tok-0123456789-secret") {
			t.Errorf("frame %d holds the token unredacted: %s", f.Seq, b)
		}
	}
}

func TestServerEverythingStdio(t *testing.T) {
	s := open(t, Options{Target: nodeTarget(t, "stdio"), Capabilities: []string{"roots", "sampling", "elicitation"}})
	if s.Info().Era != "legacy" {
		t.Errorf("server-everything era = %s, want legacy (it refuses server/discover)", s.Info().Era)
	}
	raw, _, err := s.ListTools(ctx(t))
	if err != nil || len(raw) < 13 {
		t.Fatalf("ListTools = %d tools, %v; want at least 13", len(raw), err)
	}
	// Layer one: a tool error is a result with isError.
	ex, err := s.CallTool(ctx(t), "get-sum", json.RawMessage(`{"a":"x"}`))
	if err != nil || !strings.Contains(string(ex.Result), `"isError":true`) {
		t.Errorf("get-sum {\"a\":\"x\"} = %s, %v; want a result with isError true", ex.Result, err)
	}
	// Layer two: a protocol error is a JSON-RPC error.
	_, err = s.ReadResource(ctx(t), "demo://no/such/resource")
	var rpc *RPCError
	if !errors.As(err, &rpc) || rpc.Code != -32602 || len(rpc.Raw) == 0 {
		t.Errorf("resources/read of an unknown URI = %v, want JSON-RPC error -32602 with its raw object", err)
	}
	// server-everything asks roots/list (id 0, like our initialize) some
	// time after the handshake; wait for it and its answer to be paired.
	wctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	rootsPaired := func() bool {
		for i := 0; i < s.Log.Len(); i++ {
			f := s.Log.Frame(i)
			if f.Method == "roots/list" && f.Dir == frames.ServerToClient && f.Kind == frames.KindRequest && s.Log.Partner(i) >= 0 {
				return true
			}
		}
		return false
	}
	for !rootsPaired() {
		if _, err := s.Log.Wait(wctx, s.Log.Len()); err != nil {
			t.Fatalf("the server's roots/list request was not answered and paired within 15 s")
		}
	}
}

// startHTTPPeer starts server-everything in an HTTP mode and waits until it listens.
func startHTTPPeer(t *testing.T, mode string) int {
	port, _ := startKillableHTTPPeer(t, mode)
	return port
}

// startKillableHTTPPeer is startHTTPPeer that also returns a function that
// kills the server and waits until it is gone (a server dying mid-session).
func startKillableHTTPPeer(t *testing.T, mode string) (int, func()) {
	port := peers.FreePort(t)
	return port, peers.Serve(t, peers.NodeHTTP(t, peers.Everything, mode), port)
}

func TestServerEverythingStreamableHTTPAndSSE(t *testing.T) {
	for _, tc := range []struct {
		mode, path string
		transport  Transport
	}{{"streamableHttp", "/mcp", TransportStreamable}, {"sse", "/sse", TransportSSE}} {
		t.Run(tc.mode, func(t *testing.T) {
			port := startHTTPPeer(t, tc.mode)
			s := open(t, Options{Target: Target{Transport: tc.transport, URL: fmt.Sprintf("http://127.0.0.1:%d%s", port, tc.path)}})
			raw, _, err := s.ListTools(ctx(t))
			if err != nil || len(raw) < 13 {
				var b strings.Builder
				frames.WriteText(&b, s.Log)
				t.Fatalf("ListTools = %d, %v\nframes:\n%s", len(raw), err, b.String())
			}
			ex, err := s.CallTool(ctx(t), "echo", json.RawMessage(`{"message":"over http"}`))
			if err != nil || !strings.Contains(string(ex.Result), "over http") {
				t.Errorf("echo = %s, %v", ex.Result, err)
			}
			var sse bool
			for _, f := range s.Log.Frames() {
				sse = sse || f.HTTP != nil && f.Kind == frames.KindTransport && strings.Contains(f.Note, "event stream opened")
			}
			if !sse {
				t.Errorf("no event stream recorded")
			}
		})
	}
}

func TestGoSDKEverythingStateless(t *testing.T) {
	bin := peers.Path(t, peers.GoSDKEverything)
	s := open(t, Options{Target: Target{Transport: TransportStdio, Command: []string{bin}}})
	if s.Info().Era != "stateless" || s.Info().ProtocolVersion != "2026-07-28" {
		t.Errorf("Info = %+v, want the 2026-07-28 stateless era", s.Info())
	}
	if got := methods(s.Log); len(got) == 0 || got[0] != "→server/discover" {
		t.Errorf("first frame %v, want server/discover", got)
	}
	raw, _, err := s.ListTools(ctx(t))
	if err != nil || len(raw) == 0 {
		t.Fatalf("ListTools = %d, %v", len(raw), err)
	}
}

// server-everything 2025.11.25 pages resources/list 10 at a time.
func TestListResourcesFollowsEveryPage(t *testing.T) {
	s := open(t, Options{Target: Target{Transport: TransportStdio, Command: peers.Node(t, peers.EverythingOld, "stdio")}})
	raw, err := s.ListResources(ctx(t))
	if err != nil || len(raw) != 100 {
		t.Fatalf("ListResources = %d resources, %v; want all 100 across 10 pages", len(raw), err)
	}
	var pages int
	for _, f := range s.Log.Frames() {
		if f.Method == "resources/list" && f.Kind == frames.KindRequest {
			pages++
		}
	}
	if pages != 10 {
		t.Errorf("%d resources/list requests, want 10 (one per page)", pages)
	}
}

// server-everything registers a resource for the session when its
// gzip-file-as-resource tool runs, and says so with
// notifications/resources/list_changed.
func TestOnResourcesChanged(t *testing.T) {
	changed := make(chan struct{}, 1)
	s := open(t, Options{Target: nodeTarget(t, "stdio"), OnResourcesChanged: func() { changed <- struct{}{} }})
	_, err := s.CallTool(ctx(t), "gzip-file-as-resource", json.RawMessage(`{"name":"hello.gz","data":"data:text/plain,hello"}`))
	if err != nil {
		t.Fatalf("tools/call gzip-file-as-resource: %v", err)
	}
	select {
	case <-changed:
	case <-ctx(t).Done():
		t.Fatalf("OnResourcesChanged was not called; frames: %v", methods(s.Log))
	}
}

// server-everything has two resource templates, dynamic text and blob.
func TestListResourceTemplates(t *testing.T) {
	s := open(t, Options{Target: nodeTarget(t, "stdio")})
	raw, err := s.ListResourceTemplates(ctx(t))
	if err != nil {
		t.Fatalf("ListResourceTemplates: %v", err)
	}
	var got []string
	for _, r := range raw {
		var tmpl struct{ URITemplate string }
		if err := json.Unmarshal(r, &tmpl); err != nil {
			t.Fatalf("template %s: %v", r, err)
		}
		got = append(got, tmpl.URITemplate)
	}
	want := []string{"demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("templates %q, want %q (raw items of resources/templates/list)", got, want)
	}
}

// A one-shot session (jig tools, resources, ping...) asks for no
// list_changed notifications, so a 2026-07-28-era server gets no
// subscriptions/listen stream; any other session (the TUI, jig call) still
// subscribes, as the SDK does when list_changed handlers are registered.
func TestOneShotOpensNoListenStream(t *testing.T) {
	bin := peers.Path(t, peers.GoSDKEverything)
	for _, oneShot := range []bool{true, false} {
		s := open(t, Options{Target: Target{Transport: TransportStdio, Command: []string{bin}}, OneShot: oneShot})
		if raw, _, err := s.ListTools(ctx(t)); err != nil || len(raw) == 0 {
			t.Fatalf("OneShot %v: ListTools = %d, %v", oneShot, len(raw), err)
		}
		s.Close()
		listened := false
		for _, f := range s.Log.Frames() {
			listened = listened || f.Dir == frames.ClientToServer && f.Method == "subscriptions/listen"
		}
		if listened == oneShot {
			t.Errorf("OneShot %v: subscriptions/listen sent = %v; frames: %v", oneShot, listened, methods(s.Log))
		}
	}
}

// TestDeleteAnswerIsTheDeletes closes a session whose server was restarted
// meanwhile: the new server answers the old session's DELETE with a 400 and
// a JSON-RPC error of id null. That answer is the DELETE's, recorded as its
// transport frame; it was classified as a JSON-RPC error "the server could
// not tie to a request", which after a reconnect read as the new
// initialize's failure.
func TestDeleteAnswerIsTheDeletes(t *testing.T) {
	port, kill := startKillableHTTPPeer(t, "streamableHttp")
	log := frames.NewLog(nil)
	s, err := Open(ctx(t), Options{Target: Target{Transport: TransportStreamable, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	kill()
	peers.Serve(t, nodeTarget(t, "streamableHttp").Command, port)
	s.Close()
	del := -1
	for i := range log.Len() {
		f := log.Frame(i)
		if f.HTTP != nil && f.HTTP.Method == http.MethodDelete && f.Dir == frames.ClientToServer {
			del = i
		}
	}
	if del < 0 {
		t.Fatalf("no DELETE recorded:\n%s", frameText(log))
	}
	var answer *frames.Frame
	for i := del + 1; i < log.Len(); i++ {
		if f := log.Frame(i); f.Dir == frames.ServerToClient && f.HTTP != nil && f.HTTP.Method == http.MethodDelete {
			answer = f
			break
		}
	}
	if answer == nil || answer.Kind != frames.KindTransport || answer.HTTP.Status/100 == 2 ||
		!strings.HasPrefix(answer.Note, "answers DELETE: ending the session — ") {
		t.Fatalf("the DELETE's answer: %+v\n%s", answer, frameText(log))
	}
	for i := range log.Len() {
		if f := log.Frame(i); f.Kind == frames.KindError && f.ID == "" && f.Answers == "" {
			t.Errorf("a JSON-RPC error of no request is recorded (#%d %s)", f.Seq, f.Raw)
		}
	}
}
