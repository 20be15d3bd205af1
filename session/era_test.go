package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/demo"
	"github.com/mcpjig/jig/session/peers"
)

// startPeer runs an HTTP peer on a free loopback port and waits until it
// listens. port is given to the command through PORT and by fill, which
// builds the command from the address.
func startPeer(t *testing.T, fill func(addr string) []string) string {
	t.Helper()
	port := peers.FreePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	peers.Serve(t, fill(addr), port)
	return addr
}

func frameText(log *frames.Log) string {
	var b strings.Builder
	frames.WriteText(&b, log)
	return b.String()
}

// server-everything 2025.5.12 connects its one shared server object to a new
// transport for every POST without a session: a sessionless server/discover
// leaves it unusable, and the initialize after it gets HTTP 500 "Already
// connected to a transport". The Inspector and the TS SDK client, which send
// initialize first, connect; so must auto — and leave the server usable.
func TestAutoReachesServerEverything2025OverHTTP(t *testing.T) {
	addr := startPeer(t, func(string) []string { return peers.NodeHTTP(t, peers.Everything2025, "streamableHttp") })
	url := "http://" + addr + "/mcp"
	for round := 1; round <= 2; round++ {
		s := open(t, Options{Target: Target{Transport: TransportStreamable, URL: url}})
		if s.Info().Era != "legacy" {
			t.Errorf("round %d: era %q, want legacy", round, s.Info().Era)
		}
		raw, _, err := s.ListTools(ctx(t))
		if err != nil || len(raw) == 0 {
			t.Fatalf("round %d: ListTools = %d, %v\n%s", round, len(raw), err, frameText(s.Log))
		}
		s.Close()
	}
}

// server-everything 2026.8.31 (TS SDK 1.32) over Streamable HTTP in auto.
func TestAutoReachesServerEverythingOverHTTP(t *testing.T) {
	addr := startPeer(t, func(string) []string { return peers.NodeHTTP(t, peers.Everything, "streamableHttp") })
	s := open(t, Options{Target: Target{Transport: TransportStreamable, URL: "http://" + addr + "/mcp"}})
	if s.Info().Era != "legacy" {
		t.Errorf("era %q, want legacy", s.Info().Era)
	}
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatalf("ListTools: %v\n%s", err, frameText(s.Log))
	}
}

// A version named by the user is a requirement: a server that does not
// speak it is a connection failure that says what the server offered, and
// jig sends no initialize to fall back with.
func TestNamedStatelessVersionIsARequirement(t *testing.T) {
	addr := startPeer(t, func(string) []string { return peers.NodeHTTP(t, peers.Everything2025, "streamableHttp") })
	url := "http://" + addr + "/mcp"
	log := frames.NewLog(nil)
	s, err := Open(ctx(t), Options{Target: Target{Transport: TransportStreamable, URL: url}, ProtocolVersion: "2026-07-28", Log: log})
	if err == nil {
		s.Close()
		t.Fatalf("Open with 2026-07-28 against a legacy server succeeded in protocol %s", s.Info().ProtocolVersion)
	}
	var ce *ConnectError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "does not speak protocol 2026-07-28") || !strings.Contains(err.Error(), "HTTP 400") {
		t.Errorf("error %v (%T), want a ConnectError saying the server does not speak 2026-07-28 and what it answered", err, err)
	}
	for _, m := range methods(log) {
		if m == "→initialize" {
			t.Errorf("jig fell back to initialize: %v", methods(log))
		}
	}
	// The refused probe left the server usable.
	s = open(t, Options{Target: Target{Transport: TransportStreamable, URL: url}})
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatalf("after the refused probe: ListTools: %v", err)
	}
}

// A legacy server answers initialize with the version it prefers; a named
// legacy version it does not speak fails the same way.
func TestNamedLegacyVersionIsARequirement(t *testing.T) {
	bin := peers.Path(t, peers.MCPGoOld) // mcp-go v0.43.2: 2025-06-18 at most
	_, err := Open(ctx(t), Options{Target: Target{Transport: TransportStdio, Command: []string{bin, "serve", "stdio"}}, ProtocolVersion: "2025-11-25"})
	var ce *ConnectError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "does not speak protocol 2025-11-25") || !strings.Contains(err.Error(), "2025-06-18") {
		t.Errorf("error %v, want a ConnectError naming 2025-11-25 and the server's 2025-06-18", err)
	}
	s := open(t, Options{Target: Target{Transport: TransportStdio, Command: []string{bin, "serve", "stdio"}}, ProtocolVersion: "2025-06-18"})
	if s.Info().ProtocolVersion != "2025-06-18" {
		t.Errorf("protocol %s, want 2025-06-18", s.Info().ProtocolVersion)
	}
}

// statelessGoSDK serves the demo server (the go-sdk's server, v1.8.0) with a
// slow tool over stateless Streamable HTTP: the 2026-07-28 era.
func statelessGoSDK(t *testing.T) string {
	srv, err := demo.New(1)
	if err != nil {
		t.Fatal(err)
	}
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(20 * time.Second):
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
			}
		})
	return serveLoopback(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true}))
}

// Every message jig writes in the 2026-07-28 era must be valid in it,
// including the notifications/cancelled the SDK writes by itself for a
// cancelled call and, at Close, for the subscriptions/listen stream: mcp-go
// refuses one without _meta (400, -32602).
func TestCancelledIsValidInStatelessEraOverHTTP(t *testing.T) {
	mcpgo := peers.Path(t, peers.MCPGo)
	tmcp := peers.Path(t, peers.TMCP)
	node := peers.Path(t, peers.Node22)
	cases := map[string]string{
		"go-sdk": statelessGoSDK(t),
		"mcp-go": "http://" + startPeer(t, func(addr string) []string { return []string{mcpgo, "serve", "http", addr} }) + "/mcp",
		// tmcp refused the bare notification with 400 -32020 Header mismatch.
		"tmcp": "http://" + startPeer(t, func(string) []string { return []string{node, tmcp} }) + "/mcp",
	}
	for name, url := range cases {
		t.Run(name, func(t *testing.T) {
			s := open(t, Options{Target: Target{Transport: TransportStreamable, URL: url}, ProtocolVersion: "2026-07-28"})
			cctx, cancel := context.WithCancelCause(ctx(t))
			time.AfterFunc(300*time.Millisecond, func() { cancel(ErrCancelled) })
			_, err := s.CallToolWith(cctx, "slow", json.RawMessage(`{}`), CallOptions{})
			var ce *CancelledError
			if !errors.As(err, &ce) {
				t.Fatalf("slow: %v, want a CancelledError", err)
			}
			s.Close()
			var cancels int
			for i, f := range s.Log.Frames() {
				if f.Dir != frames.ClientToServer || f.Method != "notifications/cancelled" {
					continue
				}
				cancels++
				if !strings.Contains(string(f.Raw), `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`) {
					t.Errorf("frame #%d lacks the era's _meta: %s", f.Seq, f.Raw)
				}
				if f.HTTP == nil || http.Header(f.HTTP.Headers).Get("Mcp-Method") != "notifications/cancelled" {
					t.Errorf("frame #%d lacks the Mcp-Method header: %+v", f.Seq, f.HTTP)
				}
				for _, r := range s.Log.Frames()[i+1:] {
					if r.Dir == frames.ServerToClient && r.HTTP != nil && r.HTTP.Status >= 400 {
						t.Errorf("the server refused a message after notifications/cancelled #%d: HTTP %d %s %s", f.Seq, r.HTTP.Status, r.Note, r.Raw)
					}
				}
			}
			if cancels == 0 {
				t.Errorf("no notifications/cancelled crossed:\n%s", frameText(s.Log))
			}
		})
	}
}

// Over stdio too the era's notifications/cancelled carries its _meta (the
// legacy era's does not: it has none).
func TestCancelledCarriesEraMetaOverStdio(t *testing.T) {
	bin := peers.Path(t, peers.MCPGo)
	for version, want := range map[string]bool{"2026-07-28": true, "2025-11-25": false} {
		s := open(t, Options{Target: Target{Transport: TransportStdio, Command: []string{bin, "serve", "stdio"}}, ProtocolVersion: version})
		cctx, cancel := context.WithCancelCause(ctx(t))
		time.AfterFunc(300*time.Millisecond, func() { cancel(ErrCancelled) })
		if _, err := s.CallToolWith(cctx, "slow", json.RawMessage(`{}`), CallOptions{}); err == nil {
			t.Fatalf("%s: slow was not cancelled", version)
		}
		s.Close()
		var seen bool
		for _, f := range s.Log.Frames() {
			if f.Dir == frames.ClientToServer && f.Method == "notifications/cancelled" {
				seen = true
				if got := strings.Contains(string(f.Raw), `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`); got != want {
					t.Errorf("%s: frame #%d %s: era _meta present = %v, want %v", version, f.Seq, f.Raw, got, want)
				}
			}
		}
		if !seen {
			t.Errorf("%s: no notifications/cancelled crossed", version)
		}
	}
}

// mcp-go's own example server (examples/conformance, from the module proxy):
// a session that opened subscriptions/listen cancels it at Close, and that
// notifications/cancelled must be valid in the era (it was 400 -32602).
func TestCancelledAtCloseIsValidMCPGoExample(t *testing.T) {
	bin := peers.Path(t, peers.MCPGoConformance)
	addr := startPeer(t, func(addr string) []string {
		return []string{"env", "CONFORMANCE_ADDR=" + addr, bin}
	})
	s := open(t, Options{Target: Target{Transport: TransportStreamable, URL: "http://" + addr + "/mcp"}})
	if s.Info().Era != "stateless" {
		t.Fatalf("era %s, want stateless", s.Info().Era)
	}
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var cancels int
	for i, f := range s.Log.Frames() {
		if f.Dir != frames.ClientToServer || f.Method != "notifications/cancelled" {
			continue
		}
		cancels++
		for _, r := range s.Log.Frames()[i+1:] {
			if r.Dir == frames.ServerToClient && r.HTTP != nil && r.HTTP.Status >= 400 {
				t.Errorf("refused after notifications/cancelled #%d: HTTP %d %s %s", f.Seq, r.HTTP.Status, r.Note, r.Raw)
			}
		}
	}
	if cancels == 0 {
		t.Errorf("no notifications/cancelled for the subscriptions/listen stream:\n%s", frameText(s.Log))
	}
}

// A legacy server that exits on any first message but initialize (rmcp's
// servers do, go-sdk#1177) is reached in auto: jig starts it again and sends
// initialize, and the frames say why.
func TestAutoReachesServerThatExitsOnTheProbe(t *testing.T) {
	s := open(t, Options{Target: selfTarget(t, "exit-on-probe")})
	if s.Info().Era != "legacy" {
		t.Errorf("era %s, want legacy", s.Info().Era)
	}
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatalf("ListTools: %v\n%s", err, frameText(s.Log))
	}
	var noted bool
	for _, f := range s.Log.Frames() {
		noted = noted || f.Kind == frames.KindTransport && strings.Contains(f.Note, "exited on the server/discover probe")
	}
	if !noted {
		t.Errorf("the restart is not in the frames:\n%s", frameText(s.Log))
	}
	// A named 2026-07-28 is still a requirement: no restart, exit 3.
	if _, err := Open(ctx(t), Options{Target: selfTarget(t, "exit-on-probe"), ProtocolVersion: "2026-07-28"}); err == nil {
		t.Errorf("a named 2026-07-28 connected to a server that only speaks initialize")
	}
}
