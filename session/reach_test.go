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
