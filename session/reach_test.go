package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
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
	// The network's reason is a refused connection, or EOF when the call
	// went out on the connection kept alive from the first call and found
	// it closed (which of the two depends on when the kernel tells the
	// client's pool).
	if why := err.Error(); !errors.As(err, &na) || !strings.Contains(why, "not delivered") ||
		!strings.Contains(why, "refused") && !strings.Contains(why, "(EOF)") {
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
	if got := frames.Unanswered(s.Log, req); !strings.HasPrefix(got, "not delivered: #") {
		t.Errorf("Unanswered(the undelivered request) = %q, want \"not delivered: #N\"", got)
	}
	s.Close()
	if _, _, ok := s.NotAnswering(); ok {
		t.Error("NotAnswering still watches a closed session")
	}
}

// An HTTP server killed while a call waits on it: the call ends as soon as
// a reconnect finds nobody listening (the go-sdk went on retrying its event
// streams for about 24 s, then failed the call naming "failed to
// reconnect"), its error names the call and says the server went away, and
// the recording keeps every frame and says why the request got no answer.
// server-everything over Streamable HTTP, killed mid trigger-long-running-operation.
func TestHTTPServerKilledMidCallEndsTheCall(t *testing.T) {
	port, kill := startKillableHTTPPeer(t, "streamableHttp")
	s := open(t, Options{Target: Target{Transport: TransportStreamable, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}})
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
