package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/demo"
)

// An HTTP server that dies mid-session: the next request finds nobody. That
// is no answer from the server, so it must not read as one (the go-sdk's
// "JSON-RPC error -32005: rejected by transport" looked like the server
// refusing the call), the session says at once that the server does not
// answer (the SDK gives the connection up only after its retries), and the
// request is "not delivered", never "pending".
func TestHTTPServerThatDiesIsNotAnsweringAndItsRequestNotDelivered(t *testing.T) {
	port, kill := startKillableHTTPPeer(t, "streamableHttp")
	s, err := Open(ctx(t), Options{Target: Target{Transport: TransportStreamable, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if why, _, ok := s.NotAnswering(); !ok || why != "" {
		t.Fatalf("NotAnswering() on a live server = %q, %v; want \"\", true", why, ok)
	}
	if _, err := s.CallTool(ctx(t), "echo", json.RawMessage(`{"message":"before"}`)); err != nil {
		t.Fatalf("echo before the server died: %v", err)
	}
	kill()

	_, err = s.CallTool(ctx(t), "echo", json.RawMessage(`{"message":"after"}`))
	var rpc *RPCError
	if errors.As(err, &rpc) {
		t.Fatalf("a call to a dead server reads as the server's JSON-RPC error: %v", err)
	}
	var na *NotAnsweredError
	// The network's reason is a refused connection (not delivered), or EOF
	// when the call went out on the connection kept alive from the first
	// call and found it closed (which of the two depends on when the
	// kernel tells the client's pool). jig cannot tell that EOF from a
	// server that took the request and died, so it says the server may
	// have received it.
	why := err.Error()
	refused := strings.Contains(why, "refused") && strings.Contains(why, "not delivered") && !sentErr(err)
	closed := strings.Contains(why, "(EOF)") && (strings.Contains(why, "may have received it") || strings.Contains(why, "not delivered"))
	if !errors.As(err, &na) || !refused && !closed {
		t.Fatalf("call error = %v (%T); want a NotAnsweredError naming the refused connection or the closed one", err, err)
	}
	deadline := time.After(time.Minute)
	for {
		why, changed, ok := s.NotAnswering()
		if !ok {
			t.Fatal("NotAnswering says the session ended; it was not closed")
		}
		if strings.Contains(why, "refused") {
			break
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("NotAnswering() = %q a minute after the server died; want the refused connection", why)
		}
	}
	req := -1
	for i := 0; i < s.Log.Len(); i++ {
		if f := s.Log.Frame(i); f.Method == "tools/call" && f.Dir == frames.ClientToServer && strings.Contains(string(f.Raw), "after") {
			req = i
		}
	}
	if req < 0 {
		t.Fatal("the undelivered tools/call is not in the frames")
	}
	if got := frames.Unanswered(s.Log, req); !strings.HasPrefix(got, "not delivered: #") && !(closed && strings.HasPrefix(got, "no answer: the connection closed after it was sent (#")) {
		t.Errorf("Unanswered(the undelivered request) = %q, want \"not delivered: #N\" (or, for EOF, that it was sent)", got)
	}
	s.Close()
	if _, _, ok := s.NotAnswering(); ok {
		t.Error("NotAnswering still watches a closed session")
	}
}

// An HTTP server killed while a call waits on it: the call ends as soon as
// a reconnect finds nobody listening (the go-sdk went on retrying its event
// streams for about 24 s, then failed the call naming "failed to
// reconnect") or, for a legacy SSE server, as its event stream ends (the
// go-sdk said only "EOF"); its error names the call and says the server
// went away, and the recording keeps every frame and says why the request
// got no answer. server-everything over Streamable HTTP and over SSE,
// killed mid trigger-long-running-operation.
func TestHTTPServerKilledMidCallEndsTheCall(t *testing.T) {
	for _, tc := range []struct {
		mode, path string
		transport  Transport
	}{{"streamableHttp", "/mcp", TransportStreamable}, {"sse", "/sse", TransportSSE}} {
		t.Run(tc.mode, func(t *testing.T) {
			port, kill := startKillableHTTPPeer(t, tc.mode)
			s := open(t, Options{Target: Target{Transport: tc.transport, URL: fmt.Sprintf("http://127.0.0.1:%d%s", port, tc.path)}})
			killedMidCall(t, s, kill)
		})
	}
}

func killedMidCall(t *testing.T, s *Session, kill func()) {
	t.Helper()
	mark := s.Log.Len()
	// Kill the server once the call's progress shows it is being worked on.
	go func() {
		for i := mark; ; i++ {
			if _, err := s.Log.Wait(ctx(t), i); err != nil {
				return
			}
			if f := s.Log.Frame(i); f.Method == "notifications/progress" {
				kill()
				return
			}
		}
	}()
	_, err := s.CallToolWith(ctx(t), "trigger-long-running-operation", json.RawMessage(`{"duration":60,"steps":60}`),
		CallOptions{OnProgress: func(Progress) {}})
	var gone *ServerGoneError
	if !errors.As(err, &gone) {
		t.Fatalf("call to a server killed mid-call: %v (%T); want a ServerGoneError", err, err)
	}
	msg := err.Error()
	for _, want := range []string{"tools/call trigger-long-running-operation", "the server went away", "is it still running"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "failed to reconnect") || strings.Contains(msg, "standalone") {
		t.Errorf("the error %q names the SDK's event stream, not the call", msg)
	}
	req := -1
	progressed := false
	for i := mark; i < s.Log.Len(); i++ {
		f := s.Log.Frame(i)
		if f.Method == "tools/call" && f.Dir == frames.ClientToServer && f.Kind == frames.KindRequest {
			req = i
		}
		progressed = progressed || f.Method == "notifications/progress"
	}
	if req < 0 || !progressed {
		t.Fatalf("the frames before the kill are not all kept: request at %d, progress %v", req, progressed)
	}
	if got := frames.Unanswered(s.Log, req); !strings.HasPrefix(got, "no answer: the server went away (#") {
		t.Errorf("Unanswered(the call) = %q, want \"no answer: the server went away (#N)\"", got)
	}
}

// A go-sdk server that dies mid-call after it answered the call's POST
// with an event stream (a progress notification) ends that stream, which
// carries no event ids: the go-sdk failed the call at once with its own
// "request terminated without response" and the request stayed pending in
// the recording. The error names the call and says no answer can come;
// the recording says why.
func TestHTTPServerThatEndsTheCallsStreamSaysSo(t *testing.T) {
	diesMidCall(t, true)
}

// A go-sdk server that dies before it answered the call's POST at all
// (it sends the headers with the first event): the request was written
// and the server's tool ran, so it is not "not delivered", which jig said.
func TestHTTPServerThatDiesBeforeItsHeadersMayHaveTheRequest(t *testing.T) {
	diesMidCall(t, false)
}

func diesMidCall(t *testing.T, progress bool) {
	srv, err := demo.New(1)
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{}, 1)
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1}); err != nil {
					return nil, err
				}
			}
			started <- struct{}{}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(20 * time.Second):
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
			}
		})
	hs := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	s := open(t, Options{Target: Target{Transport: TransportStreamable, URL: "http://" + l.Addr().String()}, ProtocolVersion: "2025-11-25"})
	go func() {
		<-started
		hs.Close() // the server dies: every connection closes
	}()
	mark := s.Log.Len()
	opts := CallOptions{}
	if progress {
		opts.OnProgress = func(Progress) {}
	}
	_, err = s.CallToolWith(ctx(t), "slow", json.RawMessage(`{}`), opts)
	var gone *ServerGoneError
	if progress && !errors.As(err, &gone) || !progress && !sentErr(err) {
		t.Fatalf("call whose server died: %v (%T); want a ServerGoneError (progress %v) or a NotAnsweredError that was sent", err, err, progress)
	}
	if msg := err.Error(); !strings.Contains(msg, "tools/call slow: no answer") || strings.Contains(msg, "request terminated") || strings.Contains(msg, "not delivered") {
		t.Fatalf("call whose server died: %v; want it to name the call and say no answer came", err)
	}
	req := -1
	for i := mark; i < s.Log.Len(); i++ {
		if f := s.Log.Frame(i); f.Method == "tools/call" && f.Dir == frames.ClientToServer && f.Kind == frames.KindRequest {
			req = i
		}
	}
	if req < 0 {
		t.Fatal("the call's request is not in the frames")
	}
	if got := frames.Unanswered(s.Log, req); !strings.HasPrefix(got, "no answer: ") {
		t.Errorf("Unanswered(the call) = %q, want \"no answer: …\"", got)
	}
}

// sentErr reports whether err is a NotAnsweredError for a request that was
// written before its connection failed.
func sentErr(err error) bool {
	var na *NotAnsweredError
	return errors.As(err, &na) && na.Sent
}
