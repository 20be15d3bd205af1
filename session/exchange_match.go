package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
)

// A CallGroup makes concurrent calls on one session and gives each call its
// own exchange. Session.CallTool finds its exchange by method and tool name,
// which is ambiguous when two calls of the same tool are in flight; a group
// matches the request's exact parameters (name and compact arguments bytes,
// or the URI) and claims each request frame once, so two identical calls in
// flight each get one complete request/response pair. Identical requests are
// interchangeable: whichever pair a call claims, it is a real exchange.
//
// Use one group per session, and make every concurrent call through it.
type CallGroup struct {
	s       *Session
	mu      sync.Mutex
	claimed map[int]bool
}

// NewCallGroup returns a group for calls on s.
func (s *Session) NewCallGroup() *CallGroup {
	return &CallGroup{s: s, claimed: map[int]bool{}}
}

// CallTool sends tools/call with the arguments exactly as given (compacted by
// the SDK, never re-encoded otherwise) and returns its exchange. A JSON-RPC
// error comes back as *RPCError, with the exchange.
func (g *CallGroup) CallTool(ctx context.Context, name string, args json.RawMessage) (*Exchange, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	want, err := compactJSON(args)
	if err != nil {
		return nil, &UsageError{fmt.Errorf("tools/call %s: arguments are not JSON: %v", name, err)}
	}
	mark := g.s.Log.Len()
	err = g.s.call(ctx, "tools/call "+name, func(ctx context.Context) error {
		_, err := g.s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(want)})
		return rpcError(err)
	})
	return g.claim(mark, "tools/call", err, func(p map[string]json.RawMessage) bool {
		return stringField(p["name"]) == name && sameCompact(p["arguments"], want)
	})
}

// ReadResource sends resources/read for uri and returns its exchange.
func (g *CallGroup) ReadResource(ctx context.Context, uri string) (*Exchange, error) {
	mark := g.s.Log.Len()
	err := g.s.call(ctx, "resources/read "+uri, func(ctx context.Context) error {
		_, err := g.s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		return rpcError(err)
	})
	return g.claim(mark, "resources/read", err, func(p map[string]json.RawMessage) bool {
		return stringField(p["uri"]) == uri
	})
}

// GetPrompt sends prompts/get with the arguments given and returns its exchange.
func (g *CallGroup) GetPrompt(ctx context.Context, name string, args map[string]string) (*Exchange, error) {
	mark := g.s.Log.Len()
	err := g.s.call(ctx, "prompts/get "+name, func(ctx context.Context) error {
		_, err := g.s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
		return rpcError(err)
	})
	return g.claim(mark, "prompts/get", err, func(p map[string]json.RawMessage) bool {
		var got map[string]string
		if raw := p["arguments"]; len(raw) > 0 && string(raw) != "null" {
			if json.Unmarshal(raw, &got) != nil {
				return false
			}
		}
		if stringField(p["name"]) != name || len(got) != len(args) {
			return false
		}
		for k, v := range args {
			if gv, ok := got[k]; !ok || gv != v {
				return false
			}
		}
		return true
	})
}

// claim finds the oldest unclaimed request for method sent after frame mark
// whose parameters match and whose response has arrived, and claims it. When
// the call itself returned, its own response is in the Log (the tap records a
// line before the SDK reads it), so a matching complete pair always exists.
func (g *CallGroup) claim(mark int, method string, callErr error, match func(map[string]json.RawMessage) bool) (*Exchange, error) {
	_, isRPC := callErr.(*RPCError)
	if callErr != nil && !isRPC {
		return nil, callErr
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	log := g.s.Log
	n := log.Len()
	for i := mark; i < n; i++ {
		f := log.Frame(i)
		if g.claimed[i] || f.Dir != frames.ClientToServer || f.Kind != frames.KindRequest || f.Method != method {
			continue
		}
		j := log.Partner(i)
		if j < 0 {
			continue
		}
		var env struct {
			Params map[string]json.RawMessage `json:"params"`
		}
		if json.Unmarshal(f.Raw, &env) != nil || !match(env.Params) {
			continue
		}
		g.claimed[i] = true
		r := log.Frame(j)
		ex := &Exchange{Request: f, Response: r, Latency: r.Time.Sub(f.Time)}
		var body struct {
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		_ = json.Unmarshal(r.Raw, &body)
		ex.Result, ex.Error = body.Result, body.Error
		if isRPC {
			callErr.(*RPCError).Raw = ex.Error
		}
		return ex, callErr
	}
	if callErr != nil {
		return nil, callErr
	}
	return nil, fmt.Errorf("%s: no response frame was recorded", method)
}

func stringField(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// compactJSON is the form the SDK puts arguments on the wire in: compact,
// with <, >, & and U+2028/2029 escaped as encoding/json does.
func compactJSON(raw json.RawMessage) ([]byte, error) {
	var b, e bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	json.HTMLEscape(&e, b.Bytes())
	return e.Bytes(), nil
}

func sameCompact(raw json.RawMessage, want []byte) bool {
	got, err := compactJSON(raw)
	return err == nil && bytes.Equal(got, want)
}
