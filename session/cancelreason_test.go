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
// user cancelled it, a timeout said as one, and "the client closed the
// session" for the subscriptions/listen stream cancelled at Close. Over stdio
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
			// Every cancellation jig sent is checked: one per request, for
			// the two calls in order, each saying why, and, in the
			// 2026-07-28 era, the subscriptions/listen stream's at Close
			// after them. (CI once saw the listen's, then reason-less,
			// between the two: the timed-out call's cancellation was not
			// waited for, and Close overtook it.)
			requests := map[string]string{}
			for _, f := range s.Log.Frames() {
				if f.Dir == frames.ClientToServer && f.Kind == frames.KindRequest {
					requests[f.ID] = f.Method
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
				if seen[id] {
					t.Errorf("#%d cancels request %s a second time", f.Seq, id)
				}
				seen[id] = true
				reason := "(none)"
				if n.Params.Reason != nil {
					reason = *n.Params.Reason
				}
				reasons = append(reasons, requests[id]+": "+reason)
			}
			want := []string{"tools/call: cancelled by the user", "tools/call: timed out: the client stopped waiting"}
			for _, m := range requests {
				if m == "subscriptions/listen" {
					want = append(want, "subscriptions/listen: the client closed the session")
				}
			}
			got := strings.Join(reasons, "; ")
			if got != strings.Join(want, "; ") {
				t.Errorf("the cancellations are %q, want %q", got, strings.Join(want, "; "))
			}
			if strings.Contains(got, "context ") {
				t.Errorf("a Go context error went on the wire as a reason: %q", got)
			}
		})
	}
}
