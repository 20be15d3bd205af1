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
	"math"
	"strconv"
	"strings"
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
	// Answers is the id (JSON text) of the request an error response with
	// id null answers by where it came: the HTTP response to the POST that
	// carried that one request (see AnswersPost); on a transport frame
	// that says an HTTP request failed, the id of the request it carried,
	// which was never delivered (see Unanswered). Empty otherwise.
	Answers string `json:"answers,omitempty"`
	// Code is the JSON-RPC error code of an error response.
	Code int `json:"code,omitempty"`
	// Err says why the frame is not a usable message (decode failure, unknown id).
	Err string `json:"err,omitempty"`
	Raw []byte `json:"-"`
	// RawLen is the size of Raw when a lazy reader has not loaded it.
	RawLen int `json:"-"`
	// Length is the frame's true size when Raw is not the bytes that
	// crossed: a frame over the frame limit, whose Raw holds only its
	// beginning (see Truncated), or a recorded frame whose Raw was
	// redacted. 0 otherwise.
	Length int64 `json:"length,omitempty"`
	HTTP   *HTTP `json:"http,omitempty"`
	// Note carries transport evidence for KindTransport frames ("exit status 1").
	Note string `json:"note,omitempty"`
}

// Size is the frame's length in bytes as it crossed.
func (f *Frame) Size() int {
	switch {
	case f.Length > 0:
		return int(f.Length)
	case f.Raw == nil:
		return f.RawLen
	}
	return len(f.Raw)
}

// RenderingNote begins the Note of a response that is a client's rendering
// of a result (an agent transcript's), not a frame that crossed a wire.
const RenderingNote = "the client's rendering"

// ProbeRefusal is the Note of the error, with no id, that an older server
// answered jig's server/discover era probe with in the HTTP response to it.
const ProbeRefusal = "the answer to jig's era probe (server/discover): an older server refuses it, and jig goes on with initialize"

// DefaultMaxFrame is the default frame limit: a server line, HTTP body or
// event larger than this is recorded truncated instead of read whole, so an
// endless line cannot exhaust memory. Generous: real frames of 4 MB+ exist.
const DefaultMaxFrame = 256 << 20

// TruncatedKeep is how much of a frame over the limit is kept as evidence.
const TruncatedKeep = 64 << 10

// Truncated returns f as the record of a frame over the frame limit: its
// first TruncatedKeep bytes, Length set to size (its true size, or as much
// of it as crossed before jig stopped reading), an invalid frame saying why
// — with the id its beginning names, so the call it answered can be told.
func Truncated(f Frame, size int64, why string) Frame {
	kept := min(len(f.Raw), TruncatedKeep)
	f.Raw = bytes.Clone(f.Raw[:kept])
	f.Classify()
	f.Kind, f.Length = KindInvalid, size
	f.Err = fmt.Sprintf("%s: %s crossed; the first %s are kept", why, HumanSize(int(min(size, math.MaxInt32))), HumanSize(kept))
	return f
}

// IsResponse reports whether the frame answers a request.
func (f *Frame) IsResponse() bool { return f.Kind == KindResult || f.Kind == KindError }

// MaxDepth is how deeply a message may nest: the MCP Go SDK refuses deeper
// JSON (and drops the connection on it), so jig withholds it from the SDK.
const MaxDepth = 1000

// Classify fills Kind, Method, ID, Code and Err from Raw. It never fails: bytes
// that are not a JSON-RPC message become KindInvalid with a reason, because a
// server's stray output is evidence too.
//
// It is as strict as the SDK's decoder, or stricter: a frame Classify calls
// Dispatchable is one the SDK decodes without error, so a capture can hand
// exactly those to the SDK and withhold the rest (the SDK drops the whole
// connection on a line it cannot decode). A refused frame still gets the id
// and method its envelope names, when it names them plainly, so the call
// it answered can be told what happened.
func (f *Frame) Classify() {
	raw := bytes.TrimSpace(f.Raw)
	switch {
	case len(raw) == 0:
		f.Kind, f.Err = KindInvalid, "empty line"
		return
	case raw[0] == '[':
		f.Kind = KindBatch
		if !utf8.Valid(raw) {
			f.Kind, f.Err = KindInvalid, utf8Error(raw)
			return
		}
		if !validJSON(raw) {
			f.Kind, f.Err = KindInvalid, jsonError(raw)
			return
		}
		f.Err = "JSON-RPC batch: MCP does not use batches; kept, not dispatched"
		return
	}
	env, err := scanEnvelope(raw)
	if err != nil {
		// A cut-off message still names its id when the id came first.
		if id, p := idText(env.ID); p == "" {
			f.ID = id
		}
		if m, ok := jsonString(env.Method); ok {
			f.Method = m
		}
		f.Kind, f.Err = KindInvalid, jsonError(raw)
		if f.Err == "" {
			f.Err = "invalid JSON: " + err.Error()
		}
		if !utf8.Valid(raw) {
			f.Err = utf8Error(raw)
		}
		return
	}
	id, idProblem := idText(env.ID)
	f.ID = id
	if m, ok := jsonString(env.Method); ok {
		f.Method = m
	}
	problem := ""
	switch {
	case !utf8.Valid(raw):
		problem = utf8Error(raw)
	case env.depth > MaxDepth:
		problem = fmt.Sprintf("nested %d levels deep: the MCP SDK refuses JSON deeper than %d levels", env.depth, MaxDepth)
	case !validJSON(raw):
		problem = jsonError(raw)
	default:
		problem = env.problem(idProblem)
	}
	if problem != "" {
		f.Kind, f.Err = KindInvalid, problem
		return
	}
	switch {
	case env.Method != nil:
		if f.ID != "" {
			f.Kind = KindRequest
		} else {
			f.Kind = KindNotification
		}
	case isPresent(env.Error):
		f.Kind = KindError
		var e struct {
			Code int `json:"code"`
		}
		_ = json.Unmarshal(env.Error, &e)
		f.Code = e.Code
		if f.ID == "" {
			f.Err = "an error with id null: the server could not tie it to a request (often: it could not parse one); it answers no call"
		}
	case env.Result != nil && f.ID == "":
		f.Kind, f.Err = KindInvalid, "a result with no id: it answers no request"
	case env.Result != nil:
		f.Kind = KindResult
	default:
		f.Kind, f.Err = KindInvalid, "JSON-RPC message with neither method, result nor error"
	}
}

// AnswersPost marks f, an error response with id null that came as the HTTP
// response to a POST carrying the one request id (JSON text, as ID): over
// HTTP that response is the request's answer, whatever its id says, so f
// pairs with it (Answers) and says how it was tied instead of "it answers
// no call". Any other frame is left as it is.
func (f *Frame) AnswersPost(id string) {
	if f.Kind != KindError || f.ID != "" || id == "" {
		return
	}
	f.Answers, f.Err = id, ""
	if f.Note == "" {
		f.Note = "its id is null: it answers request id=" + id + " as the HTTP response to the POST that carried it"
	}
}

// Dispatchable reports whether a JSON-RPC peer can act on the frame: a
// request, notification or response the SDK's decoder accepts. An error
// response with id null is a message (the server's complaint), but it
// answers no request and the SDK drops the connection on it: it is not.
func (f *Frame) Dispatchable() bool {
	switch f.Kind {
	case KindRequest, KindNotification:
		return true
	case KindResult, KindError:
		return f.ID != ""
	}
	return false
}

// problem says why an envelope whose JSON is valid is still not a message
// the SDK decodes: a wrong jsonrpc tag, an id that is no id, a method that
// is no string, an error that is no error object. "" when it is fine.
func (env envelope) problem(idProblem string) string {
	if v, ok := jsonString(env.JSONRPC); !ok || v != "2.0" {
		return `not JSON-RPC 2.0: "jsonrpc":"2.0" is missing`
	}
	if idProblem != "" {
		return idProblem
	}
	if env.Method != nil {
		if _, ok := jsonString(env.Method); !ok {
			return "method is " + jsonType(env.Method) + ", not a string"
		}
		return ""
	}
	if isPresent(env.Error) {
		if env.Error[0] != '{' {
			return "error is " + jsonType(env.Error) + ": a JSON-RPC error is an object with a code and a message"
		}
		var e struct {
			Code    json.RawMessage `json:"code"`
			Message json.RawMessage `json:"message"`
		}
		_ = json.Unmarshal(env.Error, &e)
		if isPresent(e.Code) {
			if _, err := strconv.ParseInt(string(e.Code), 10, 64); err != nil {
				return "error.code is " + string(e.Code) + ": JSON-RPC error codes are integers"
			}
		}
		if isPresent(e.Message) {
			if _, ok := jsonString(e.Message); !ok {
				return "error.message is " + jsonType(e.Message) + ", not a string"
			}
		}
	}
	return ""
}

// idText is a JSON-RPC id as the text frames keep ("4", "\"jig-1\""), "" for
// null or absent, with the reason when it is no usable id. A number is kept
// as the integer the SDK reads it as (1.0 and 1e0 are both id 1 to it);
// one with a fraction, or an integer past 2^53 that a float64 rounds, would
// be answered as another request, so it is refused.
func idText(raw json.RawMessage) (id, problem string) {
	if !isPresent(raw) {
		return "", ""
	}
	switch c := raw[0]; {
	case c == '"':
		if _, ok := jsonString(raw); !ok {
			return "", "id is not a valid JSON string"
		}
		return string(raw), ""
	case c == '-' || '0' <= c && c <= '9':
		v, err := strconv.ParseFloat(string(raw), 64)
		switch {
		case err != nil || math.Abs(v) >= 1<<63:
			return "", "id " + string(raw) + " is out of range"
		case v != math.Trunc(v):
			return "", "id " + string(raw) + " has a fraction: the SDK would read it as " + strconv.FormatInt(int64(v), 10) + " and answer the wrong request"
		}
		read := strconv.FormatInt(int64(v), 10)
		if isInteger(raw) && read != string(raw) && math.Abs(v) > 1<<53 {
			// Past 2^53 a JSON number is read as the nearest float64.
			return "", "id " + string(raw) + " is past what the SDK reads exactly (2^53): it would read it as " + read + " and answer the wrong request"
		}
		if isInteger(raw) {
			return string(raw), ""
		}
		return read, ""
	}
	return "", "id is " + jsonType(raw) + ": JSON-RPC ids are strings, numbers or null"
}

func isInteger(raw []byte) bool {
	if len(raw) > 0 && raw[0] == '-' {
		raw = raw[1:]
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(raw) > 0
}

// isPresent reports whether a member was given with a value other than null.
func isPresent(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// jsonString decodes raw when it is a JSON string. Method names and the
// version tag are short and plain: those are read without the decoder (this
// runs on every frame), and the names MCP defines share one copy.
func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	if inner, ok := plainString(raw); ok {
		if s := knownName(inner); s != "" {
			return s, true
		}
		return string(inner), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// plainString returns the inside of a JSON string that holds no escape, no
// control character and only valid UTF-8: its bytes are its value.
func plainString(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[len(raw)-1] != '"' {
		return nil, false
	}
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		if c < 0x20 || c == '"' || c == '\\' {
			return nil, false
		}
	}
	return inner, utf8.Valid(inner)
}

// knownName returns the shared copy of a name every session repeats
// thousands of times, or "". A switch, not a map: nothing is built at
// start-up, and string(b) in a switch does not allocate.
func knownName(b []byte) string {
	switch string(b) {
	case "2.0":
		return "2.0"
	case "initialize":
		return "initialize"
	case "ping":
		return "ping"
	case "server/discover":
		return "server/discover"
	case "tools/list":
		return "tools/list"
	case "tools/call":
		return "tools/call"
	case "resources/list":
		return "resources/list"
	case "resources/read":
		return "resources/read"
	case "resources/templates/list":
		return "resources/templates/list"
	case "prompts/list":
		return "prompts/list"
	case "prompts/get":
		return "prompts/get"
	case "completion/complete":
		return "completion/complete"
	case "logging/setLevel":
		return "logging/setLevel"
	case "sampling/createMessage":
		return "sampling/createMessage"
	case "elicitation/create":
		return "elicitation/create"
	case "roots/list":
		return "roots/list"
	case "subscriptions/listen":
		return "subscriptions/listen"
	case "notifications/initialized":
		return "notifications/initialized"
	case "notifications/message":
		return "notifications/message"
	case "notifications/progress":
		return "notifications/progress"
	case "notifications/cancelled":
		return "notifications/cancelled"
	case "notifications/tools/list_changed":
		return "notifications/tools/list_changed"
	case "notifications/resources/list_changed":
		return "notifications/resources/list_changed"
	case "notifications/resources/updated":
		return "notifications/resources/updated"
	case "notifications/prompts/list_changed":
		return "notifications/prompts/list_changed"
	}
	return ""
}

// jsonType names the type of a JSON value for messages: "an object".
func jsonType(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "missing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// utf8Error says where the first byte that is not UTF-8 is.
func utf8Error(raw []byte) string {
	for i := 0; i < len(raw); {
		r, n := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && n == 1 {
			return fmt.Sprintf("invalid UTF-8 at byte %d (0x%02x)", i+1, raw[i])
		}
		i += n
	}
	return "invalid UTF-8"
}

// isText reports whether bytes that failed to parse are no JSON at all
// ("Server listening...", "not json"), not JSON that breaks somewhere.
func isText(t []byte) bool {
	if len(t) == 0 || bytes.ContainsAny(t[:1], "{[\"-0123456789") {
		return false
	}
	for _, lit := range []string{"true", "false", "null"} {
		if n := min(len(t), len(lit)); string(t[:n]) == lit[:n] && (len(t) <= len(lit) || !isLetter(t[len(lit)])) {
			return false
		}
	}
	return true
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// jsonError describes where a JSON text breaks, as "invalid JSON at byte N: ...".
func jsonError(raw []byte) string {
	var v any
	err := json.Unmarshal(raw, &v)
	if err == nil {
		return ""
	}
	if se, ok := err.(*json.SyntaxError); ok {
		if t := bytes.TrimLeft(raw, " \t\r\n"); isText(t) {
			// Not broken JSON but no JSON at all: a line of text.
			return "not JSON: a line of text, not a JSON-RPC message"
		}
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se.Error())
	}
	return "invalid JSON: " + err.Error()
}

// AnswerIDs returns the ids of the responses a frame carries that a peer
// could not act on (Dispatchable is false): the id of response-shaped bytes
// that are not a valid message, and of each response inside a batch. A
// capture uses them to tell the waiting request that its answer arrived.
func AnswerIDs(f *Frame) []string {
	switch {
	case f.Kind == KindInvalid && f.ID != "" && f.Method == "":
		return []string{f.ID}
	case f.Kind != KindBatch:
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(f.Raw, &items) != nil {
		return nil
	}
	var ids []string
	for _, it := range items {
		e := Frame{Raw: it}
		e.Classify()
		if e.ID != "" && e.Method == "" && (e.IsResponse() || e.Kind == KindInvalid) {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// WithheldRequests returns the requests a withheld frame holds whose id can
// be read: a request-shaped line that is not a usable message (invalid
// UTF-8 or JSON, a params that is no object…), or the requests inside a
// batch. Nobody dispatches them, so whoever withheld them owes each an error
// answer, or the peer that sent it waits for ever. A request whose id cannot
// be read (an object, cut off before it) cannot be answered.
func WithheldRequests(f *Frame) []WithheldRequest {
	switch {
	case f.Kind == KindInvalid && f.ID != "" && f.Method != "" && utf8.ValidString(f.ID):
		code := InvalidRequest
		if !utf8.Valid(f.Raw) || !json.Valid(f.Raw) {
			code = ParseError
		}
		return []WithheldRequest{{ID: f.ID, Method: f.Method, Code: code, Why: f.Err}}
	case f.Kind != KindBatch:
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(f.Raw, &items) != nil {
		return nil
	}
	var out []WithheldRequest
	for _, it := range items {
		e := Frame{Raw: it}
		e.Classify()
		if e.ID != "" && e.Method != "" && utf8.ValidString(e.ID) {
			out = append(out, WithheldRequest{ID: e.ID, Method: e.Method, Code: InvalidRequest,
				Why: "it came inside a JSON-RPC batch, which MCP does not use"})
		}
	}
	return out
}

// A WithheldRequest is a request nobody dispatched (see WithheldRequests).
type WithheldRequest struct {
	ID, Method string
	Code       int    // ParseError or InvalidRequest
	Why        string // why it could not be used
}

// JSON-RPC's error codes for a request that could not be read.
const (
	ParseError     = -32700
	InvalidRequest = -32600
)

// Answer is the JSON-RPC error that answers r, as one line: its message says
// what jig could not use, its data the frame that held the request.
func (r WithheldRequest) Answer(seq int64) []byte {
	msg, _ := json.Marshal("jig could not use this " + r.Method + " request: " + r.Why)
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s,"data":{"jigWithheldFrame":%d}}}`+"\n",
		r.ID, r.Code, msg, seq)
}

// Withheld returns the frames from the server that no peer could act on —
// stray output, invalid JSON or JSON-RPC, batches, errors tied to no request
// — which a capture kept as evidence but did not hand to the SDK, from
// index from on.
//
// An era probe's refusal (Note [ProbeRefusal]) is left out: a server of
// an older era answers jig's server/discover with an error that carries no
// id, as it should, and jig goes on with initialize.
func Withheld(r Reader, from int) []*Frame {
	var out []*Frame
	for i := from; i < r.Len(); i++ {
		f := r.Frame(i)
		if f.Dir != ServerToClient || f.Kind == KindStderr || f.Kind == KindTransport || f.Dispatchable() || f.Note == ProbeRefusal {
			continue
		}
		out = append(out, f)
	}
	return out
}

// ErrorMessage is the code and message of an error response's error
// object: "-32700 Parse error".
func (f *Frame) ErrorMessage() string {
	var e struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(f.Raw, &e)
	return strings.TrimSpace(fmt.Sprintf("%d %s", e.Error.Code, e.Error.Message))
}
