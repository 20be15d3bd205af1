package session

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/peers"
)

// What the typed calls cannot say goes on the live session as typed, on
// every transport, and what the server does about it is recorded: an
// unknown method answered with -32601, params of the wrong type, a
// notification, bytes that are not JSON.
func TestSendRawOnEveryTransport(t *testing.T) {
	targets := map[string]func(t *testing.T) Target{
		"demo":  func(t *testing.T) Target { return Target{Transport: TransportDemo} },
		"stdio": func(t *testing.T) Target { return nodeTarget(t, "stdio") },
		"streamable": func(t *testing.T) Target {
			return Target{Transport: TransportStreamable, URL: "http://" + startPeer(t, func(string) []string { return peers.NodeHTTP(t, peers.Everything, "streamableHttp") }) + "/mcp"}
		},
		"sse": func(t *testing.T) Target {
			return Target{Transport: TransportSSE, URL: "http://" + startPeer(t, func(string) []string { return peers.NodeHTTP(t, peers.Everything, "sse") }) + "/sse"}
		},
	}
	for name, target := range targets {
		t.Run(name, func(t *testing.T) {
			s := open(t, Options{Target: target(t)})
			unknown := `{"jsonrpc":"2.0","id":"raw-1","method":"tools/frobnicate","params":{}}`
			res, err := s.SendRaw(ctx(t), []byte(unknown), RawOptions{Wait: 10 * time.Second})
			if err != nil || res.Answer == nil || res.Answer.Kind != frames.KindError || res.Answer.Code != -32601 {
				t.Fatalf("unknown method: %+v, %v; want a -32601 answer", res, err)
			}
			if string(res.Sent.Raw) != unknown || res.Sent.Method != "tools/frobnicate" || s.Log.Partner(int(res.Sent.Seq)-1) != int(res.Answer.Seq)-1 {
				t.Errorf("the sent frame %q is not the message as typed, paired with its answer", res.Sent.Raw)
			}
			if name != "demo" {
				bad := `{"jsonrpc":"2.0","id":7001,"method":"tools/call","params":{"name":7}}`
				res, err = s.SendRaw(ctx(t), []byte(bad), RawOptions{Wait: 10 * time.Second})
				if err != nil || res.Answer == nil || res.Answer.ID != "7001" || res.Answer.Kind != frames.KindError {
					t.Errorf("malformed params: %+v, %v; want an error answering id 7001", res, err)
				}
			}
			res, err = s.SendRaw(ctx(t), []byte(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`), RawOptions{Wait: 300 * time.Millisecond})
			if err != nil || res.Sent == nil || res.Sent.Kind != frames.KindNotification || !strings.Contains(res.Ended, "without an id") {
				t.Errorf("notification: %+v, %v", res, err)
			}
			// The session goes on after all of it.
			if _, _, err := s.ListTools(ctx(t)); err != nil {
				t.Errorf("tools/list after the raw messages: %v", err)
			}
		})
	}
}

// Bytes that are not JSON go as typed and are kept as an invalid frame; a
// JSON text typed over several lines goes as one stdio line.
func TestSendRawBytesAndLines(t *testing.T) {
	s := open(t, Options{Target: nodeTarget(t, "stdio")})
	res, err := s.SendRaw(ctx(t), []byte("not json at all"), RawOptions{Wait: 200 * time.Millisecond})
	if err != nil || res.Sent == nil || res.Sent.Kind != frames.KindInvalid || string(res.Sent.Raw) != "not json at all" {
		t.Fatalf("not JSON: %+v, %v", res, err)
	}
	res, err = s.SendRaw(ctx(t), []byte("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": \"raw-2\",\n  \"method\": \"ping\"\n}"), RawOptions{Wait: 10 * time.Second})
	if err != nil || res.Answer == nil || res.Answer.Kind != frames.KindResult || string(res.Sent.Raw) != `{"jsonrpc":"2.0","id":"raw-2","method":"ping"}` {
		t.Errorf("a multi-line ping: %+v, %v; want it sent as one line and answered", res, err)
	}
}

// An id jig's own request is waiting on is refused (the answers could not
// be told apart); a string id never collides.
func TestSendRawRefusesAnIDInFlight(t *testing.T) {
	s := open(t, Options{Target: nodeTarget(t, "stdio")})
	c, cancel := context.WithCancelCause(ctx(t))
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Long enough to outlast a loaded machine's waits; the test cancels it.
		s.CallTool(c, "trigger-long-running-operation", []byte(`{"duration":60,"steps":60}`))
	}()
	var id string
	for deadline := time.Now().Add(10 * time.Second); id == "" && time.Now().Before(deadline); {
		for _, f := range s.Log.Frames() {
			if f.Method == "tools/call" && f.Dir == frames.ClientToServer {
				id = f.ID
			}
		}
		s.Log.Wait(ctx(t), s.Log.Len())
	}
	_, err := s.SendRaw(ctx(t), []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`), RawOptions{})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "id "+id+" is waiting for the answer to a request already sent (tools/call)") {
		t.Errorf("an id in flight: %v; want a usage error naming it", err)
	}
	res, err := s.SendRaw(ctx(t), []byte(`{"jsonrpc":"2.0","id":"`+RawID(1)+`","method":"ping"}`), RawOptions{Wait: 10 * time.Second})
	if err != nil || res.Answer == nil {
		t.Errorf("a string id while the call runs: %+v, %v", res, err)
	}
	cancel(ErrCancelled)
	<-done
}
