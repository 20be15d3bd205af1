package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mcpjig/jig/frames"
)

// Two calls of one tool in flight at once must each come back with their
// own request and response: the slow call started first must not be shown
// with the fast call's frames (it was, when exchanges were found by "the
// newest request of this method").
func TestConcurrentCallsOfOneToolKeepTheirOwnFrames(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(t *testing.T) *Session
	}{
		{"stdio", func(t *testing.T) *Session { return open(t, Options{Target: nodeTarget(t, "stdio")}) }},
		{"streamableHttp", func(t *testing.T) *Session {
			port := startHTTPPeer(t, "streamableHttp")
			return open(t, Options{Target: Target{Transport: TransportStreamable, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}})
		}},
		{"sse", func(t *testing.T) *Session {
			port := startHTTPPeer(t, "sse")
			return open(t, Options{Target: Target{Transport: TransportSSE, URL: fmt.Sprintf("http://127.0.0.1:%d/sse", port)}})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.open(t)
			slow := json.RawMessage(`{"duration":1.5,"steps":1}`)
			fast := json.RawMessage(`{"duration":0.05,"steps":1}`)
			type got struct {
				ex  *Exchange
				err error
			}
			var wg sync.WaitGroup
			var slowGot, fastGot got
			wg.Add(1)
			go func() {
				defer wg.Done()
				slowGot.ex, slowGot.err = s.CallTool(ctx(t), "trigger-long-running-operation", slow)
			}()
			// The fast call goes out once the slow one is on the wire.
			waitFrame(t, s.Log, 0, "the slow call's request", func(f *frames.Frame) bool {
				return f.Kind == frames.KindRequest && f.Method == "tools/call" && strings.Contains(string(f.Raw), `"duration":1.5`)
			})
			fastGot.ex, fastGot.err = s.CallTool(ctx(t), "trigger-long-running-operation", fast)
			wg.Wait()
			for _, c := range []struct {
				name string
				args json.RawMessage
				got  got
			}{{"slow", slow, slowGot}, {"fast", fast, fastGot}} {
				if c.got.err != nil {
					t.Fatalf("the %s call failed: %v", c.name, c.got.err)
				}
				assertOwnExchange(t, s.Log, c.name, c.got.ex, `"arguments":`+string(c.args))
			}
			if slowGot.ex.Request.ID == fastGot.ex.Request.ID {
				t.Errorf("both calls were given request id=%s", slowGot.ex.Request.ID)
			}
		})
	}
}

// assertOwnExchange checks that ex is a request carrying want and the
// response the Log paired with it.
func assertOwnExchange(t *testing.T, log *frames.Log, name string, ex *Exchange, want string) {
	t.Helper()
	if ex == nil || ex.Request == nil || ex.Response == nil {
		t.Fatalf("the %s call has no complete exchange: %+v", name, ex)
	}
	if !strings.Contains(string(ex.Request.Raw), want) {
		t.Errorf("the %s call is shown with request #%d id=%s %s, which is not its own (want %s)", name, ex.Request.Seq, ex.Request.ID, ex.Request.Raw, want)
	}
	if ex.Response.ID != ex.Request.ID || log.Partner(int(ex.Request.Seq-1)) != int(ex.Response.Seq-1) {
		t.Errorf("the %s call's response #%d id=%s does not answer its request #%d id=%s", name, ex.Response.Seq, ex.Response.ID, ex.Request.Seq, ex.Request.ID)
	}
}

// The siblings: resources/read and prompts/get were not narrowed at all
// (any newer read was taken), and a re-listing beside another listing took
// whichever page came last. Many of each in flight at once, on both eras.
func TestConcurrentReadsAndPromptsKeepTheirOwnFrames(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("version="+version, func(t *testing.T) {
			s := open(t, Options{Target: Target{Transport: TransportDemo}, ProtocolVersion: version})
			const n = 16
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(3)
				go func() {
					defer wg.Done()
					uri := fmt.Sprintf("demo://nope-%d", i)
					if i%2 == 0 {
						uri = "demo://readme"
					}
					ex, _ := s.ReadResource(ctx(t), uri)
					assertOwnExchange(t, s.Log, "resources/read "+uri, ex, fmt.Sprintf(`"uri":%q`, uri))
				}()
				go func() {
					defer wg.Done()
					customer := fmt.Sprintf("customer-%d", i)
					ex, err := s.GetPrompt(ctx(t), "triage_report", map[string]string{"customer": customer})
					if err != nil {
						t.Errorf("prompts/get: %v", err)
						return
					}
					assertOwnExchange(t, s.Log, "prompts/get "+customer, ex, fmt.Sprintf(`"customer":%q`, customer))
				}()
				go func() {
					defer wg.Done()
					if raw, _, err := s.ListTools(ctx(t)); err != nil || len(raw) != 6 {
						t.Errorf("ListTools beside other listings = %d tools, %v; want the demo's 6", len(raw), err)
					}
				}()
			}
			wg.Wait()
		})
	}
}
