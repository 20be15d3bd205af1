package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames"
)

// A ToolCall is one tool call an agent transcript records: what the model
// asked for, exactly as it wrote it, and what the client showed the model
// back. Nobody specified it: it is evidence to reproduce, not a reproduction.
type ToolCall struct {
	// N numbers the calls from 1, in the order the transcript has them.
	N int
	// ID is the transcript's id for the call (toolu_…, call_…), or "".
	ID string
	// Name is the tool's name as the model wrote it (mcp__orders__search_orders).
	Name string
	// Server is the MCP server the transcript names for the call (from an
	// mcp__server__tool name, a server_label or server_name), or "".
	Server string
	// Arguments are the model's arguments exactly as written: the bytes of
	// a tool_use input, or the text of an OpenAI arguments string.
	Arguments []byte
	// ArgumentsProblem says why Arguments cannot be sent as they are (not
	// JSON, not an object), or "".
	ArgumentsProblem string
	// Rendering is what the client showed the model back, or nil when the
	// transcript holds no result for the call.
	Rendering *Rendering
	// Turn numbers the model's turns from 1: the calls of one turn were
	// asked for together, and the client may have run them at once.
	Turn int
	// Where locates the call in the file ("messages[3].content[1]", "line 12").
	Where string
	// Time is when the transcript says the call was made, or zero.
	Time time.Time
	// Said is the text the assistant wrote in its turn before the call.
	Said string
	// Context names the conversation or session the call belongs to when
	// the file holds several, or "".
	Context string
	// RetryOf is the N of the last earlier call of the same tool with the
	// same arguments (compared as JSON values), or 0: the model asked
	// again, usually because that call failed.
	RetryOf int
	// Wire says the call was logged as it crossed (a client's MCP log), not
	// rendered into a conversation.
	Wire bool
	// Request and Response index the call's frames in the File; Response is
	// -1 when there is no result.
	Request, Response int
}

// A Rendering is a tool result as the client showed it to the model: the
// client may have flattened, cut or re-serialized what the server sent, so
// it is not the server's response.
type Rendering struct {
	// Content is the result as MCP content blocks (a JSON array).
	Content json.RawMessage
	// IsError is the transcript's error flag; ErrorKnown says whether the
	// transcript has one at all (OpenAI tool messages do not).
	IsError, ErrorKnown bool
	// Where locates the result in the file.
	Where string
	Time  time.Time
}

// Summary says in a few words what the rendering shows: "error", "3 blocks".
func (r *Rendering) Summary() string {
	var blocks []json.RawMessage
	json.Unmarshal(r.Content, &blocks)
	s := fmt.Sprintf("%d content block", len(blocks))
	if len(blocks) != 1 {
		s += "s"
	}
	switch {
	case r.IsError:
		s = "isError: true, " + s
	case !r.ErrorKnown:
		s += " (the transcript does not say whether it failed)"
	}
	return s
}

// NotPinned says plainly what the transcript did not hold still for the
// call, one sentence each: the arguments, the tool, retries, the rendering
// and what else was in flight. These are the variables a direct call sets.
func (f *File) NotPinned(c ToolCall) []string {
	var out []string
	args := "arguments: the model's draw; asking the agent again draws new ones"
	if c.ArgumentsProblem != "" {
		args += " (and these " + c.ArgumentsProblem + ")"
	}
	out = append(out, args)
	tool := fmt.Sprintf("tool: the model's pick (it wrote %q", c.Name)
	if c.Server != "" {
		tool += " on server " + c.Server
	}
	out = append(out, tool+"); a direct call names the tool itself")
	switch {
	case c.Wire:
		out = append(out, "retries: a retry by the client would be in this log; none is marked for this call")
	case c.RetryOf > 0:
		why := "whose outcome the transcript does not flag"
		if p := f.callN(c.RetryOf); p != nil && p.Rendering == nil {
			why = "which got no result"
		} else if p != nil && p.Rendering.IsError {
			why = "which failed"
		} else if p != nil && p.Rendering.ErrorKnown {
			why = "which succeeded"
		}
		out = append(out, fmt.Sprintf("retries: the model repeated call %d (same tool, same arguments), %s; retries the client made on its own are not in the transcript", c.RetryOf, why))
	default:
		out = append(out, "retries: the client may have retried on its own; the transcript shows only what the model was shown")
	}
	switch {
	case c.Wire:
		out = append(out, "rendering: the frames are the client's log of the wire, re-serialized by the client (key order and spacing are the client's)")
	case c.Rendering == nil:
		out = append(out, "rendering: the transcript holds no result for this call")
	default:
		out = append(out, "rendering: the result is the client's rendering, what the model was shown, not the server's response")
	}
	var with []string
	for _, o := range f.Calls {
		if o.N != c.N && o.Turn == c.Turn && o.Context == c.Context {
			with = append(with, fmt.Sprint(o.N))
		}
	}
	switch {
	case c.Wire && len(with) > 0:
		out = append(out, fmt.Sprintf("in flight: together with call %s (sent before the other was answered); other servers' traffic is not in the log", strings.Join(with, ", ")))
	case c.Wire:
		out = append(out, "in flight: alone; everything this client sent this server is in the log, other servers' traffic is not")
	case len(with) > 0:
		out = append(out, fmt.Sprintf("in flight: asked for in one turn with call %s: the client may have run them at once", strings.Join(with, ", ")))
	default:
		out = append(out, "in flight: alone in its turn; what else the client had in flight (other servers, other sessions) is not in the transcript")
	}
	return out
}

// collector gathers the tool calls of an agent transcript as the format
// readers find them, pairs results with calls, and builds the frames.
type collector struct {
	path   string
	format Format
	// tentative is the format messages suggest before any tool call says.
	tentative Format
	calls     []*ToolCall
	byID      map[string]*ToolCall
	warnings  []string
	turn      int
	inTurn    bool // a Responses turn is open: the next call joins it
	said      string
	context   string
	now       time.Time // the last time the transcript gave
	// results in file order, each already paired with its call
	order []event
	// notMCP counts calls of tools that are not MCP tools (Claude Code's
	// built-ins), by name.
	notMCP map[string]int
	// messages counts what the readers looked at, for the "no tool calls"
	// message.
	messages int
}

type event struct {
	call   *ToolCall
	result bool
}

func newCollector(path string) *collector {
	return &collector{path: path, byID: map[string]*ToolCall{}, notMCP: map[string]int{}}
}

func (c *collector) warn(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// guess sets the format the first time a reader recognizes one.
func (c *collector) guess(f Format) {
	if c.format == "" {
		c.format = f
	}
}

// suggest records the format a message's shape suggests; a tool call's
// shape, when there is one, decides.
func (c *collector) suggest(f Format) {
	if c.tentative == "" {
		c.tentative = f
	}
}

// newTurn starts a model turn: calls until the next turn were asked for together.
func (c *collector) newTurn() {
	c.turn++
	c.said = ""
}

// saw records text the assistant wrote, kept as the context of its next call.
func (c *collector) saw(text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	if c.said != "" {
		c.said += " "
	}
	c.said += text
}

// at records a time the transcript gave.
func (c *collector) at(t time.Time) {
	if !t.IsZero() {
		c.now = t
	}
}

// use records a call. args are the model's bytes; text says they are the
// text of a string the model wrote (OpenAI), to be checked as JSON. A call
// whose id was seen before is the same call repeated by a later request of
// the same conversation, and is not recorded twice.
func (c *collector) use(id, name, server string, args []byte, text bool, where string) {
	if id != "" {
		if old, ok := c.byID[id]; ok {
			if old.Name != name || canonical(old.Arguments) != canonical(args) {
				c.warn("%s: tool call id %s appears again with another tool or other arguments than at %s; the first is kept", where, id, old.Where)
			}
			return
		}
	}
	call := &ToolCall{N: len(c.calls) + 1, ID: id, Name: name, Server: server, Turn: c.turn, Where: where,
		Time: c.now, Said: c.said, Context: c.context, Response: -1}
	call.Arguments, call.ArgumentsProblem = checkArguments(args, text)
	if call.ArgumentsProblem != "" {
		c.warn("%s: the arguments of %s %s: kept as written; edit them into an object to reproduce the call", where, name, call.ArgumentsProblem)
	}
	if name == "" {
		c.warn("%s: a tool call with no tool name; kept, named \"\"", where)
	}
	c.calls = append(c.calls, call)
	if id != "" {
		c.byID[id] = call
	}
	c.order = append(c.order, event{call: call})
}

// result records what the client showed the model for the call with the
// given id or, when the transcript has no ids, the oldest unanswered call
// of that tool name.
func (c *collector) result(id, name string, r Rendering, where string) {
	r.Where, r.Time = where, c.now
	call := c.byID[id]
	if id == "" {
		for _, k := range c.calls {
			if k.Rendering == nil && k.Context == c.context && (name == "" || k.Name == name) {
				call = k
				break
			}
		}
	}
	switch {
	case call == nil && id != "":
		c.warn("%s: a tool result for %s, but no tool call has that id; skipped", where, id)
		return
	case call == nil:
		c.warn("%s: a tool result for %q with no unanswered call of that tool before it; skipped", where, name)
		return
	case call.Rendering != nil:
		return // the same result repeated by a later request
	}
	call.Rendering = &r
	c.order = append(c.order, event{call: call, result: true})
}

// checkArguments returns the bytes to put in the request frame and, when
// they cannot be sent as arguments, why.
func checkArguments(args []byte, text bool) ([]byte, string) {
	if text {
		// An OpenAI arguments string: its text is what the model wrote.
		t := bytes.TrimSpace(args)
		if len(t) == 0 {
			return nil, "are an empty string"
		}
		if !json.Valid(t) {
			quoted, _ := json.Marshal(string(args))
			return quoted, "are not valid JSON (" + jsonProblem(t) + ")"
		}
	}
	t := bytes.TrimSpace(args)
	switch {
	case len(t) == 0:
		return nil, ""
	case t[0] == '{':
		return args, ""
	}
	var v any
	json.Unmarshal(t, &v)
	return args, "are a JSON " + jsonKind(v) + ", not an object"
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case nil:
		return "null"
	}
	return "value"
}

// canonical is a JSON value with keys sorted and numbers normalized, so that
// two calls' arguments can be compared for equality.
func canonical(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// markRetries sets RetryOf on each call that repeats an earlier call of the
// same tool with the same arguments.
func markRetries(calls []*ToolCall) {
	type key struct{ name, context, args string }
	last := make(map[key]int, len(calls))
	for _, c := range calls {
		k := key{c.Name, c.Context, canonical(c.Arguments)}
		c.RetryOf = last[k]
		last[k] = c.N
	}
}

// callN is the call numbered n, or nil.
func (f *File) callN(n int) *ToolCall {
	if n < 1 || n > len(f.Calls) {
		return nil
	}
	return &f.Calls[n-1]
}

// build makes the File's frames: each call a tools/call request with the
// model's arguments, each rendering a response, in the order the transcript
// has them. The frames are not wire frames and their notes say so.
func (c *collector) build(header frames.Header) *frames.Transcript {
	markRetries(c.calls)
	var fs []*frames.Frame
	var last time.Time
	for _, e := range c.order {
		k := e.call
		id := k.ID
		if id == "" {
			id = fmt.Sprintf("call-%d", k.N)
		}
		idJSON, _ := json.Marshal(id)
		var f *frames.Frame
		// The call keeps its arguments and rendering as slices of its
		// frames' bytes, so a long session is held once, not twice.
		if !e.result {
			raw, at := requestBytes(idJSON, k.Name, k.Arguments)
			f = &frames.Frame{Dir: frames.ClientToServer, Time: k.Time, Raw: raw,
				Note: fmt.Sprintf("agent transcript: call %d as the model wrote it, not a frame that crossed a wire", k.N)}
			if k.Arguments != nil {
				k.Arguments = raw[at : at+len(k.Arguments) : at+len(k.Arguments)]
			}
			k.Request = len(fs)
		} else {
			raw, at := renderingBytes(idJSON, k.Rendering)
			f = &frames.Frame{Dir: frames.ServerToClient, Time: k.Rendering.Time, Raw: raw,
				Note: fmt.Sprintf("%s of call %d's result (what the model was shown), not the server's response", frames.RenderingNote, k.N)}
			k.Rendering.Content = raw[at : at+len(k.Rendering.Content) : at+len(k.Rendering.Content)]
			k.Response = len(fs)
		}
		// Times only move forward where the transcript gave none.
		if f.Time.IsZero() {
			f.Time = last
		}
		last = f.Time
		// jig wrote these bytes: what they are is known without a parse.
		f.ID, f.Kind = string(idJSON), frames.KindResult
		if !e.result {
			f.Kind, f.Method = frames.KindRequest, "tools/call"
		}
		fs = append(fs, f)
	}
	return frames.NewTranscript(header, nil, fs)
}

// requestBytes is a call's tools/call request, and where its arguments are in it.
func requestBytes(id []byte, name string, args []byte) ([]byte, int) {
	var b bytes.Buffer
	b.Grow(len(args) + len(name) + 80)
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"method":"tools/call","params":{"name":`)
	n, _ := json.Marshal(name)
	b.Write(n)
	at := b.Len()
	if len(bytes.TrimSpace(args)) > 0 {
		b.WriteString(`,"arguments":`)
		at = b.Len()
		b.Write(args)
	}
	b.WriteString(`}}`)
	return b.Bytes(), at
}

// renderingBytes is a rendering as a response, and where its content is in it.
func renderingBytes(id []byte, r *Rendering) ([]byte, int) {
	var b bytes.Buffer
	b.Grow(len(r.Content) + 80)
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"result":{"content":`)
	at := b.Len()
	b.Write(r.Content)
	if r.IsError {
		b.WriteString(`,"isError":true`)
	}
	b.WriteString(`}}`)
	return b.Bytes(), at
}

// finish turns what the collector found into a File, or an error when the
// transcript holds no tool call at all.
func (c *collector) finish(what string) (*File, error) {
	if c.format == "" {
		c.format = c.tentative
	}
	if len(c.calls) == 0 {
		msg := fmt.Sprintf("%s: %s with no tool calls", c.path, what)
		if len(c.notMCP) > 0 {
			msg += fmt.Sprintf(" to MCP servers (%s, which are the client's own tools)", countList(c.notMCP))
		}
		return nil, fmt.Errorf("%s: there is nothing to reproduce (jig expected tool_use blocks, tool_calls or function_call items naming a server's tools)", msg)
	}
	if len(c.notMCP) > 0 {
		c.warn("%s not listed: they are the client's own tools, not MCP tools", countList(c.notMCP))
	}
	header := header(c.path, c.format)
	t := c.build(header)
	t.Warnings = c.warnings
	f := &File{Reader: t, Header: t.Header, Format: c.format, Warnings: c.warnings, Agent: true}
	for _, k := range c.calls {
		f.Calls = append(f.Calls, *k)
	}
	return f, nil
}

// countList is "Bash ×12, Read ×3", most called first.
func countList(m map[string]int) string {
	names := make([]string, 0, len(m))
	total := 0
	for n, k := range m {
		names = append(names, n)
		total += k
	}
	sort.Slice(names, func(i, j int) bool {
		if m[names[i]] != m[names[j]] {
			return m[names[i]] > m[names[j]]
		}
		return names[i] < names[j]
	})
	var parts []string
	for i, n := range names {
		if i == 6 {
			parts = append(parts, fmt.Sprintf("%d more", len(names)-6))
			break
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", n, m[n]))
	}
	word := "calls"
	if total == 1 {
		word = "call"
	}
	return fmt.Sprintf("%d %s of %s", total, word, strings.Join(parts, ", "))
}

// textContent is content blocks for a plain text result.
func textContent(s string) json.RawMessage {
	b, _ := json.Marshal([]map[string]string{{"type": "text", "text": s}})
	return b
}
