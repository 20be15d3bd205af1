package session

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/peers"
)

// The notifications/cancelled the SDK writes for a cancelled call says why
// in words, not as Go's context error: "cancelled by the user" when the
// user cancelled it, a timeout said as one, and no reason when jig cannot
// tell (the subscriptions/listen stream cancelled at Close). Over stdio
// (legacy and 2026-07-28 eras) and Streamable HTTP.
func TestCancelReasonIsHuman(t *testing.T) {
	bin := peers.Path(t, peers.MCPGo)
	targets := map[string]struct {
		target  Target
		version string
	}{
		"stdio legacy":    {Target{Transport: TransportStdio, Command: []string{bin, "serve", "stdio"}}, "2025-11-25"},
		"stdio stateless": {Target{Transport: TransportStdio, Command: []string{bin, "serve", "stdio"}}, "2026-07-28"},
		"http stateless":  {Target{Transport: TransportStreamable, URL: statelessGoSDK(t)}, "2026-07-28"},
	}
	for name, tc := range targets {
		t.Run(name, func(t *testing.T) {
			s := open(t, Options{Target: tc.target, ProtocolVersion: tc.version})
			// The user cancels once the request has crossed.
			cctx, cancel := context.WithCancelCause(ctx(t))
			mark := s.Log.Len()
			go func() {
				for i := mark; ; i++ {
					if _, err := s.Log.Wait(cctx, i); err != nil {
						return
					}
					if f := s.Log.Frame(i); f.Method == "tools/call" && f.Kind == frames.KindRequest {
						cancel(ErrCancelled)
						return
					}
				}
			}()
			_, err := s.CallToolWith(cctx, "slow", json.RawMessage(`{}`), CallOptions{})
			var ce *CancelledError
			if !errors.As(err, &ce) {
				t.Fatalf("slow: %v, want a CancelledError", err)
			}
			// jig's timeout ends the next one.
			tctx, stop := WithTimeout(ctx(t), 500*time.Millisecond)
			defer stop()
			if _, err := s.CallToolWith(tctx, "slow", json.RawMessage(`{}`), CallOptions{}); err == nil {
				t.Fatal("slow answered before the timeout")
			}
			s.Close()
			// The first cancellation of each slow call says why (a later
			// repeat of the same request's cancel, seen once in the
			// stateless era under load, says nothing new about it).
			calls := map[string]bool{}
			for _, f := range s.Log.Frames() {
				if f.Dir == frames.ClientToServer && f.Method == "tools/call" && f.Kind == frames.KindRequest {
					calls[f.ID] = true
				}
			}
			var reasons []string
			seen := map[string]bool{}
			for _, f := range s.Log.Frames() {
				if f.Dir != frames.ClientToServer || f.Method != "notifications/cancelled" {
					continue
				}
				var n struct {
					Params struct {
						RequestID json.RawMessage `json:"requestId"`
						Reason    *string         `json:"reason"`
					} `json:"params"`
				}
				if err := json.Unmarshal(f.Raw, &n); err != nil {
					t.Fatalf("#%d: %v", f.Seq, err)
				}
				id := string(n.Params.RequestID)
				if !calls[id] || seen[id] {
					continue
				}
				seen[id] = true
				if n.Params.Reason == nil {
					reasons = append(reasons, "(none)")
				} else {
					reasons = append(reasons, *n.Params.Reason)
				}
			}
			got := strings.Join(reasons, "; ")
			if !strings.HasPrefix(got, "cancelled by the user; timed out: the client stopped waiting") {
				t.Errorf("the cancellations' reasons are %q, want the user's cancel, then the timeout", got)
			}
			if strings.Contains(got, "context ") {
				t.Errorf("a Go context error went on the wire as a reason: %q", got)
			}
		})
	}
}
