// Package frames is jig's evidence: every message that crossed a connection,
// byte for byte, with the order and time it crossed, how requests and
// responses pair up, and the JSONL transcript that keeps them on disk.
//
// frames imports neither Bubble Tea nor the MCP client: it is the part of jig
// that fixtures, the TUI and the proxy all read, so it must stay plain data.
package frames

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"
)

// Direction says which way a frame crossed. Client-to-server is the way jig's
// own requests go; in proxy mode it is the way the real client's requests go.
type Direction string

const (
	ClientToServer Direction = "c2s"
	ServerToClient Direction = "s2c"
)

// Arrow is the direction as drawn in listings.
func (d Direction) Arrow() string {
	if d == ClientToServer {
		return "→"
	}
	return "←"
}

// Opposite is the direction a reply to a frame travels.
func (d Direction) Opposite() Direction {
	if d == ClientToServer {
		return ServerToClient
	}
	return ClientToServer
}

// Kind classifies a frame by what it is on the wire.
type Kind string

const (
	KindRequest      Kind = "request"
	KindNotification Kind = "notification"
	KindResult       Kind = "result"
	KindError        Kind = "error"     // a JSON-RPC error response
	KindBatch        Kind = "batch"     // a JSON array: kept, never dispatched
	KindInvalid      Kind = "invalid"   // bytes that are not a JSON-RPC message
	KindStderr       Kind = "stderr"    // a line the server wrote to stderr
	KindTransport    Kind = "transport" // transport evidence: an HTTP status, a stream opening, a process exit
)

// IsMessage reports whether frames of this kind carry a JSON-RPC message.
func (k Kind) IsMessage() bool {
	switch k {
	case KindRequest, KindNotification, KindResult, KindError:
		return true
	}
	return false
}

// HTTP is the transport detail of a frame that crossed an HTTP connection.
// Headers are stored already redacted.
type HTTP struct {
	Method  string              `json:"method,omitempty"`
	URL     string              `json:"url,omitempty"`
	Status  int                 `json:"status,omitempty"`
	Headers map[string][]string `json:"headers,omitempty"`
	EventID string              `json:"event_id,omitempty"` // the SSE id: of the event that carried the frame
	Event   string              `json:"event,omitempty"`    // the SSE event: name, when not "message"
}

// Frame is one unit of evidence. Raw holds the exact bytes (without the
// trailing newline for line-delimited transports); everything else is derived
// from Raw or supplied by the capture that saw it.
type Frame struct {
	Seq  int64     `json:"seq"`
	Time time.Time `json:"time"`
	Dir  Direction `json:"dir"`
	Kind Kind      `json:"kind"`
	// Method is the request's method; for responses it is filled by pairing.
	Method string `json:"method,omitempty"`
	// ID is the JSON text of the id ("0", "\"jig-1\""), empty when absent.
	ID string `json:"id,omitempty"`
	// Code is the JSON-RPC error code of an error response.
	Code int `json:"code,omitempty"`
	// Err says why the frame is not a usable message (decode failure, unknown id).
	Err string `json:"err,omitempty"`
	Raw []byte `json:"-"`
	// RawLen is the size of Raw when a lazy reader has not loaded it.
	RawLen int   `json:"-"`
	HTTP   *HTTP `json:"http,omitempty"`
	// Note carries transport evidence for KindTransport frames ("exit status 1").
	Note string `json:"note,omitempty"`
}

// Size is the frame's length in bytes as it crossed.
func (f *Frame) Size() int {
	if f.Raw == nil {
		return f.RawLen
	}
	return len(f.Raw)
}

// IsResponse reports whether the frame answers a request.
func (f *Frame) IsResponse() bool { return f.Kind == KindResult || f.Kind == KindError }

type envelope struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code json.Number `json:"code"`
	} `json:"error"`
}

// Classify fills Kind, Method, ID, Code and Err from Raw. It never fails: bytes
// that are not a JSON-RPC message become KindInvalid with a reason, because a
// server's stray output is evidence too.
func (f *Frame) Classify() {
	raw := bytes.TrimSpace(f.Raw)
	switch {
	case len(raw) == 0:
		f.Kind, f.Err = KindInvalid, "empty line"
		return
	case !utf8.Valid(raw):
		f.Kind, f.Err = KindInvalid, "invalid UTF-8"
		return
	case raw[0] == '[':
		f.Kind = KindBatch
		if !json.Valid(raw) {
			f.Kind, f.Err = KindInvalid, jsonError(raw)
			return
		}
		f.Err = "JSON-RPC batch: MCP does not use batches; kept, not dispatched"
		return
	}
	env, err := scanEnvelope(raw)
	if err != nil {
		f.Kind, f.Err = KindInvalid, jsonError(raw)
		if f.Err == "" {
			f.Err = "invalid JSON: " + err.Error()
		}
		return
	}
	if env.JSONRPC == nil || *env.JSONRPC != "2.0" {
		f.Kind, f.Err = KindInvalid, `not JSON-RPC 2.0: "jsonrpc":"2.0" is missing`
		return
	}
	if len(env.ID) > 0 && string(env.ID) != "null" {
		f.ID = string(env.ID)
	}
	switch {
	case env.Method != nil:
		f.Method = *env.Method
		if f.ID != "" {
			f.Kind = KindRequest
		} else {
			f.Kind = KindNotification
		}
	case env.Error != nil:
		f.Kind = KindError
		if c, err := env.Error.Code.Int64(); err == nil {
			f.Code = int(c)
		}
	case env.Result != nil:
		f.Kind = KindResult
	default:
		f.Kind, f.Err = KindInvalid, "JSON-RPC message with neither method, result nor error"
	}
}

// jsonError describes where a JSON text breaks, as "invalid JSON at byte N: ...".
func jsonError(raw []byte) string {
	var v any
	err := json.Unmarshal(raw, &v)
	if err == nil {
		return ""
	}
	if se, ok := err.(*json.SyntaxError); ok {
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se.Error())
	}
	return "invalid JSON: " + err.Error()
}

// Pretty returns the frame's JSON indented for reading, or the raw bytes when
// they are not JSON.
func (f *Frame) Pretty() []byte {
	if !json.Valid(f.Raw) {
		return f.Raw
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, f.Raw, "", "  "); err != nil {
		return f.Raw
	}
	return buf.Bytes()
}
