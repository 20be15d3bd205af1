package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpjig/jig/frames"
)

// metaProtocolVersion is the _meta key that carries a 2026-07-28 era
// message's protocol version.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// probeSessionID is the Mcp-Session-Id jig's server/discover probe carries
// over Streamable HTTP when the era is "auto". A 2026-07-28 server ignores
// the header (the era has no sessions); a legacy server looks the session
// up, finds none and refuses the request without creating anything. Sent
// without it, the probe makes some legacy servers (server-everything
// 2025.5.12, which connects its one shared server object to a new transport
// for every sessionless POST) unusable until they restart: the go-sdk's own
// probe is sessionless, so jig adds this header to it.
const probeSessionID = "jig-era-probe"

// eraState is what the taps know of the session's era, so that a message the
// SDK writes on its own without the era's envelope (notifications/cancelled
// goes straight to the JSON-RPC connection and carries no _meta) can be made
// valid in the negotiated era before it is written and recorded.
type eraState struct {
	mu      sync.Mutex
	version string          // the negotiated version, once Open has settled it
	meta    json.RawMessage // the _meta of the last 2026-07-28 request the SDK wrote
}

func (e *eraState) settle(version string) {
	e.mu.Lock()
	e.version = version
	e.mu.Unlock()
}

// stateless returns the negotiated version when it is of the 2026-07-28 era.
func (e *eraState) stateless() (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.version, EraOf(e.version) == "stateless"
}

// complete returns the message with the era's _meta added when the session
// is in the 2026-07-28 era and the message has none, and the message's
// method. Other messages are returned as they are.
func (e *eraState) complete(body []byte) ([]byte, string) {
	var msg map[string]json.RawMessage
	if json.Unmarshal(body, &msg) != nil {
		return body, ""
	}
	var method string
	_ = json.Unmarshal(msg["method"], &method)
	if method == "" {
		return body, ""
	}
	var params map[string]json.RawMessage
	_ = json.Unmarshal(msg["params"], &params)
	var meta map[string]json.RawMessage
	_ = json.Unmarshal(params["_meta"], &meta)
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := meta[metaProtocolVersion]; ok {
		if _, isRequest := msg["id"]; isRequest {
			e.meta = params["_meta"]
		}
		return body, method
	}
	if EraOf(e.version) != "stateless" || e.meta == nil {
		return body, method
	}
	var era map[string]json.RawMessage
	if json.Unmarshal(e.meta, &era) != nil {
		return body, method
	}
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	for k, v := range era {
		if _, ok := meta[k]; !ok && strings.HasPrefix(k, "io.modelcontextprotocol/") {
			meta[k] = v
		}
	}
	if params == nil {
		params = map[string]json.RawMessage{}
	}
	params["_meta"], _ = json.Marshal(meta)
	msg["params"], _ = json.Marshal(params)
	out, err := json.Marshal(msg)
	if err != nil {
		return body, method
	}
	return out, method
}

// observe remembers the era's _meta from a request's params, once.
func (e *eraState) observe(params json.RawMessage) {
	e.mu.Lock()
	have := e.meta != nil
	e.mu.Unlock()
	if have || !bytes.Contains(params, []byte(metaProtocolVersion)) {
		return
	}
	var p struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) == nil && bytes.Contains(p.Meta, []byte(metaProtocolVersion)) {
		e.mu.Lock()
		e.meta = p.Meta
		e.mu.Unlock()
	}
}

// completeMessage is complete for a notification the SDK writes on a
// connection jig decorates (stdio, the demo server): requests carry the era's
// _meta already, and complete remembers it from the tap's view of them.
func (e *eraState) completeMessage(msg jsonrpc.Message) jsonrpc.Message {
	if _, ok := e.stateless(); !ok {
		return msg
	}
	return rewriteMessage(msg, func(body []byte) []byte { out, _ := e.complete(body); return out })
}

// errVersionNotSpoken stops the SDK from falling back to initialize when the
// user named 2026-07-28: a named version is a requirement, not a preference.
var errVersionNotSpoken = errors.New("jig: the named protocol version is not spoken by the server")

// probeAnswer describes what the server answered the era probe with, for
// the error that says it does not speak the version the user named (the
// supported versions of an UnsupportedProtocolVersionError, the JSON-RPC
// error, or the HTTP status of a transport-level refusal), and whether the
// server answered the probe at all: a probe that never reached the server
// says nothing about the versions it speaks.
func probeAnswer(log *frames.Log) (string, bool) {
	for i := log.Len() - 1; i >= 0; i-- {
		f := log.Frame(i)
		if f.Dir != frames.ClientToServer || f.Method != "server/discover" || f.Kind != frames.KindRequest {
			continue
		}
		j := log.Partner(i)
		if j < 0 {
			// No JSON-RPC answer: a transport frame after the request may
			// carry the HTTP status.
			for k := i + 1; k < log.Len(); k++ {
				if r := log.Frame(k); r.Dir == frames.ServerToClient && r.HTTP != nil && r.HTTP.Status != 0 {
					what := r.Note
					if what == "" {
						what = string(r.Raw)
					}
					if len(what) > 200 {
						what = what[:200] + "…"
					}
					return fmt.Sprintf("server/discover got HTTP %d (%s)", r.HTTP.Status, what), true
				}
			}
			for k := i + 1; k < log.Len(); k++ {
				if r := log.Frame(k); r.Dir == frames.ServerToClient && r.Kind == frames.KindTransport && r.Note != "" {
					return "server/discover: " + r.Note, false
				}
			}
			return "server/discover got no answer", false
		}
		var resp struct {
			Error *struct {
				Code    int64  `json:"code"`
				Message string `json:"message"`
				Data    struct {
					Supported []string `json:"supported"`
				} `json:"data"`
			} `json:"error"`
			Result struct {
				SupportedVersions []string `json:"supportedVersions"`
			} `json:"result"`
		}
		a := log.Frame(j)
		_ = json.Unmarshal(a.Raw, &resp)
		if resp.Error != nil && len(resp.Error.Data.Supported) == 0 && a.HTTP != nil && a.HTTP.Status != 0 && a.HTTP.Status != http.StatusOK {
			return fmt.Sprintf("server/discover got HTTP %d with JSON-RPC error %d %q (a legacy server)", a.HTTP.Status, resp.Error.Code, resp.Error.Message), true
		}
		switch {
		case resp.Error != nil && len(resp.Error.Data.Supported) > 0:
			return "it supports " + strings.Join(resp.Error.Data.Supported, ", "), true
		case resp.Error != nil:
			return fmt.Sprintf("server/discover answered JSON-RPC error %d %q (a legacy server)", resp.Error.Code, resp.Error.Message), true
		case len(resp.Result.SupportedVersions) > 0:
			return "it supports " + strings.Join(resp.Result.SupportedVersions, ", "), true
		}
		return "server/discover answered without supportedVersions", true
	}
	return "it was not asked (no server/discover crossed)", false
}
