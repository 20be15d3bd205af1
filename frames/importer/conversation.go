package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames"
)

// The conversation formats: whatever a chat API was sent or answered, or a
// chat application exported. Their tool calls are read by shape, wherever
// they sit in the file.
const (
	// FormatAnthropic is the Anthropic Messages API: requests
	// ({"messages":[...]}), responses ({"type":"message",...}) and arrays of
	// messages, with tool_use / tool_result (and mcp_tool_use /
	// mcp_tool_result) content blocks; JSON or JSONL.
	FormatAnthropic Format = "anthropic-messages"
	// FormatClaudeExport is a claude.ai data export: conversations with
	// chat_messages whose content has tool_use and tool_result blocks.
	FormatClaudeExport Format = "claude-export"
	// FormatOpenAIChat is OpenAI Chat Completions: messages with tool_calls
	// (or the older function_call) answered by role "tool" (or "function")
	// messages, in requests, responses (choices) or batch lines.
	FormatOpenAIChat Format = "openai-chat"
	// FormatOpenAIResponses is the OpenAI Responses API: function_call and
	// function_call_output items (and mcp_call items, which carry their
	// output) in input or output arrays.
	FormatOpenAIResponses Format = "openai-responses"
)

// readConversation reads a conversation transcript: one JSON document, or
// JSONL with one request, response, message or item per line.
func readConversation(r io.Reader, path string) (*File, error) {
	c := newCollector(path)
	br := bufio.NewReaderSize(r, 1<<16)
	b, err := io.ReadAll(br)
	if err != nil {
		return nil, err
	}
	doc := bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\ufeff")))
	switch {
	case json.Valid(doc):
		c.value(doc, "")
	case isJSONL(doc):
		c.lines(doc)
	default:
		cut, at := salvage(doc)
		if cut == nil {
			line, col := lineCol(doc, at)
			return nil, fmt.Errorf("%s: not valid JSON at line %d, column %d (%s), and nothing before it could be read; jig expected one JSON document (a request, a response or an exported conversation) or JSONL",
				path, line, col, jsonProblem(doc))
		}
		line, _ := lineCol(doc, at)
		c.warn("the file is not complete JSON: it breaks at line %d (%s); jig read the messages that were complete before it", line, jsonProblem(doc))
		c.value(cut, "")
	}
	if c.format == "" && c.tentative == "" {
		if size, line, cut := frames.CutShort(b); cut {
			return nil, fmt.Errorf("%s %s", path, frames.CutShortMsg(path, size, line))
		}
		return nil, fmt.Errorf("%s: JSON, but not a transcript jig can import: no messages, tool_use blocks, tool_calls or function_call items (it imports %s)", path, knownFormats)
	}
	return c.finish(fmt.Sprintf("an %s transcript of %s", cmpOr(c.format, c.tentative), frames.Count(c.messages, "message")))
}

// isJSONL reports whether a document that is not one JSON value is lines of
// JSON: its first line is.
func isJSONL(doc []byte) bool {
	first, _, _ := bytes.Cut(doc, []byte("\n"))
	first = bytes.TrimSpace(first)
	return len(first) > 0 && first[0] == '{' && json.Valid(first)
}

// lines reads JSONL: each line is a value; a line that is not (cut off by a
// crash, hand-edited) is named and skipped, and the others are read.
func (c *collector) lines(doc []byte) {
	n := 0
	for len(doc) > 0 {
		n++
		var line []byte
		line, doc, _ = bytes.Cut(doc, []byte("\n"))
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if !json.Valid(line) {
			what := "not valid JSON (" + jsonProblem(line) + ")"
			if len(doc) == 0 {
				what = "cut off (the file ends mid-record: " + jsonProblem(line) + ")"
			}
			c.warn("line %d: %s; skipped, the other lines are read", n, what)
			continue
		}
		c.value(line, fmt.Sprintf("line %d", n))
	}
}

// obj decodes a JSON object into its members, or returns nil.
func obj(raw []byte) map[string]json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(t, &m) != nil {
		return nil
	}
	return m
}

func arr(raw []byte) []json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '[' {
		return nil
	}
	var a []json.RawMessage
	if json.Unmarshal(t, &a) != nil {
		return nil
	}
	return a
}

// str is a JSON string's value, or "" for anything else (looked at before
// it is parsed: a tool result's content may be a megabyte array).
func str(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '"' {
		return ""
	}
	var s string
	json.Unmarshal(t, &s)
	return s
}

func at(where string, key string) string {
	switch {
	case where == "":
		return key
	case strings.HasPrefix(where, "line ") && !strings.Contains(where, ":"):
		return where + ": " + key
	}
	return where + "." + key
}

func idx(where string, i int) string { return fmt.Sprintf("%s[%d]", where, i) }

// value reads whatever transcript shape raw has, wherever it is in the file.
func (c *collector) value(raw []byte, where string) {
	if a := arr(raw); a != nil {
		for i, v := range a {
			c.value(v, idx(where, i))
		}
		return
	}
	m := obj(raw)
	if m == nil {
		return
	}
	if t := parseTime(m["created_at"]); !t.IsZero() {
		c.at(t)
	}
	switch {
	case m["chat_messages"] != nil:
		c.exportConversation(m, where)
	case m["messages"] != nil:
		c.value(m["messages"], at(where, "messages"))
	case m["choices"] != nil:
		c.guess(FormatOpenAIChat)
		for i, ch := range arr(m["choices"]) {
			if cm := obj(ch); cm != nil && cm["message"] != nil {
				c.message(obj(cm["message"]), at(idx(at(where, "choices"), i), "message"))
			}
		}
	case m["object"] != nil && str(m["object"]) == "response" || m["output"] != nil && arr(m["output"]) != nil:
		c.guess(FormatOpenAIResponses)
		c.items(arr(m["output"]), at(where, "output"))
	case m["input"] != nil && arr(m["input"]) != nil:
		c.items(arr(m["input"]), at(where, "input"))
	case m["response"] != nil:
		// An OpenAI batch output line: {"custom_id", "response": {"body": ...}}.
		if rm := obj(m["response"]); rm != nil && rm["body"] != nil {
			c.value(rm["body"], at(at(where, "response"), "body"))
		}
	case m["body"] != nil:
		c.value(m["body"], at(where, "body"))
	case m["role"] != nil:
		c.message(m, where)
	case m["type"] != nil && m["call_id"] != nil || m["type"] != nil && strings.HasPrefix(str(m["type"]), "mcp_"):
		c.item(m, where)
	}
}

// message reads one chat message: Anthropic's content blocks, or OpenAI's
// tool_calls and role "tool" results.
func (c *collector) message(m map[string]json.RawMessage, where string) {
	if m == nil {
		return
	}
	c.messages++
	// Content blocks are Anthropic's; a string is either API's, and only
	// says OpenAI when nothing else does.
	if arr(m["content"]) != nil && (c.tentative == "" || c.tentative == FormatOpenAIChat) {
		c.tentative = FormatAnthropic
	} else {
		c.suggest(FormatOpenAIChat)
	}
	role := str(m["role"])
	if role == "assistant" {
		c.newTurn()
	}
	// Responses API calls that follow an assistant message are its turn.
	c.inTurn = role == "assistant"
	if s := str(m["content"]); s != "" {
		switch role {
		case "assistant":
			c.saw(s)
		case "tool":
			c.guess(FormatOpenAIChat)
			c.result(str(m["tool_call_id"]), "", Rendering{Content: textContent(s)}, where)
		case "function":
			c.guess(FormatOpenAIChat)
			c.result("", str(m["name"]), Rendering{Content: textContent(s)}, where)
		}
	} else if blocks := arr(m["content"]); blocks != nil {
		if role == "tool" {
			c.guess(FormatOpenAIChat)
			c.result(str(m["tool_call_id"]), "", Rendering{Content: mcpContent(blocks)}, where)
		} else {
			for i, b := range blocks {
				c.block(obj(b), idx(at(where, "content"), i), "")
			}
		}
	}
	for i, tc := range arr(m["tool_calls"]) {
		c.guess(FormatOpenAIChat)
		t := obj(tc)
		fn := obj(t["function"])
		w := idx(at(where, "tool_calls"), i)
		if fn == nil {
			c.warn("%s: a tool call of type %q, not a function; skipped", w, str(t["type"]))
			continue
		}
		c.use(str(t["id"]), str(fn["name"]), "", stringText(fn["arguments"]), true, w)
	}
	if fc := obj(m["function_call"]); fc != nil {
		c.guess(FormatOpenAIChat)
		c.use("", str(fc["name"]), "", stringText(fc["arguments"]), true, at(where, "function_call"))
	}
}

// stringText is the text of a JSON string; for arguments given as an object
// rather than a string (some proxies do), the object's bytes.
func stringText(raw json.RawMessage) []byte {
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '"' {
		return []byte(str(t))
	}
	return t
}

// block reads one Anthropic content block. server is the conversation's
// MCP server for blocks that do not name one.
func (c *collector) block(b map[string]json.RawMessage, where, server string) {
	if b == nil {
		return
	}
	switch typ := str(b["type"]); typ {
	case "text", "output_text":
		c.saw(str(b["text"]))
	case "tool_use", "mcp_tool_use":
		c.guess(FormatAnthropic)
		name := str(b["name"])
		if s := str(b["server_name"]); s != "" {
			server = s
		}
		if s, _ := splitMCPName(name); s != "" && server == "" {
			server = s
		}
		c.use(str(b["id"]), name, server, b["input"], false, where)
	case "tool_result", "mcp_tool_result":
		c.guess(FormatAnthropic)
		r := Rendering{IsError: string(bytes.TrimSpace(b["is_error"])) == "true", ErrorKnown: true}
		if s := str(b["content"]); s != "" || string(bytes.TrimSpace(b["content"])) == `""` {
			r.Content = textContent(s)
		} else if blocks := arr(b["content"]); blocks != nil {
			r.Content = mcpContent(blocks)
		} else {
			r.Content = json.RawMessage("[]")
		}
		c.result(str(b["tool_use_id"]), str(b["name"]), r, where)
	}
}

// mcpContent turns content blocks as a chat API carries them into MCP
// content blocks: text stays text, an Anthropic base64 image becomes an MCP
// image, OpenAI's text parts become text; anything else is kept as it is.
func mcpContent(blocks []json.RawMessage) json.RawMessage {
	out := make([]json.RawMessage, 0, len(blocks))
	for _, raw := range blocks {
		b := obj(raw)
		switch typ := str(b["type"]); {
		case typ == "text" || typ == "input_text" || typ == "output_text":
			t, _ := json.Marshal(map[string]string{"type": "text", "text": str(b["text"])})
			out = append(out, t)
		case typ == "image" && b["source"] != nil:
			src := obj(b["source"])
			if str(src["type"]) == "base64" {
				t, _ := json.Marshal(map[string]string{"type": "image", "mimeType": str(src["media_type"]), "data": str(src["data"])})
				out = append(out, t)
				continue
			}
			out = append(out, raw)
		default:
			out = append(out, raw)
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// items reads OpenAI Responses API items.
func (c *collector) items(items []json.RawMessage, where string) {
	for i, raw := range items {
		if m := obj(raw); m != nil {
			c.item(m, idx(where, i))
		}
	}
}

// item reads one Responses API item. The assistant's message and the calls
// right after it are one turn; an output, or another message, ends it.
func (c *collector) item(m map[string]json.RawMessage, where string) {
	switch typ := str(m["type"]); typ {
	case "function_call", "mcp_call":
		c.guess(FormatOpenAIResponses)
		if !c.inTurn {
			c.newTurn()
			c.inTurn = true
		}
		id := str(m["call_id"])
		if id == "" {
			id = str(m["id"])
		}
		c.use(id, str(m["name"]), str(m["server_label"]), stringText(m["arguments"]), true, where)
		if typ == "mcp_call" && (m["output"] != nil || m["error"] != nil) {
			c.responsesOutput(id, m["output"], m["error"], where)
		}
	case "function_call_output":
		c.guess(FormatOpenAIResponses)
		c.inTurn = false
		c.responsesOutput(str(m["call_id"]), m["output"], nil, where)
	case "message", "":
		if m["role"] != nil {
			c.responsesMessage(m)
		}
	default:
		c.inTurn = false
	}
}

func (c *collector) responsesOutput(id string, output, errMsg json.RawMessage, where string) {
	r := Rendering{Content: json.RawMessage("[]")}
	if s := str(output); s != "" {
		r.Content = textContent(s)
	} else if parts := arr(output); parts != nil {
		r.Content = mcpContent(parts)
	}
	if e := bytes.TrimSpace(errMsg); len(e) > 0 && string(e) != "null" {
		r.IsError, r.ErrorKnown = true, true
		text := str(e)
		if text == "" {
			text = string(e)
		}
		r.Content = textContent(text)
	}
	c.result(id, "", r, where)
}

func (c *collector) responsesMessage(m map[string]json.RawMessage) {
	c.messages++
	c.suggest(FormatOpenAIResponses)
	c.inTurn = false
	if str(m["role"]) != "assistant" {
		return
	}
	c.newTurn()
	c.inTurn = true
	if s := str(m["content"]); s != "" {
		c.saw(s)
	}
	for _, p := range arr(m["content"]) {
		if pm := obj(p); pm != nil {
			c.saw(str(pm["text"]))
		}
	}
}

// exportConversation reads one conversation of a claude.ai export.
func (c *collector) exportConversation(m map[string]json.RawMessage, where string) {
	c.guess(FormatClaudeExport)
	c.suggest(FormatClaudeExport)
	c.context = str(m["name"])
	if c.context == "" {
		c.context = str(m["uuid"])
	}
	for i, raw := range arr(m["chat_messages"]) {
		msg := obj(raw)
		if msg == nil {
			continue
		}
		c.messages++
		w := idx(at(where, "chat_messages"), i)
		c.at(parseTime(msg["created_at"]))
		if str(msg["sender"]) == "assistant" {
			c.newTurn()
		}
		blocks := arr(msg["content"])
		if blocks == nil && str(msg["sender"]) == "assistant" {
			c.saw(str(msg["text"]))
		}
		for j, b := range blocks {
			bm := obj(b)
			if t := parseTime(bm["start_timestamp"]); !t.IsZero() {
				c.at(t)
			}
			c.block(bm, idx(at(w, "content"), j), "")
		}
	}
}

// splitMCPName splits Claude Code's mcp__server__tool into its server and
// tool; other names have no server.
func splitMCPName(name string) (server, tool string) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", name
	}
	server, tool, ok = strings.Cut(rest, "__")
	if !ok {
		return "", name
	}
	return server, tool
}

func cmpOr(a, b Format) Format {
	if a != "" {
		return a
	}
	return b
}

// parseTimeString accepts RFC 3339 with or without fractions.
func parseTimeString(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}
