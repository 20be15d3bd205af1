package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mcpjig/jig/frames"
)

// FormatClaudeCode is a Claude Code session: the JSONL file under
// ~/.claude/projects/<project>/<session>.jsonl, one record per line
// ({"type":"assistant"|"user"|…, "message": {...}, "timestamp", "uuid",
// "sessionId", ...}). An assistant message's content blocks may be spread
// over several lines sharing one message id; tool results come back as user
// records with tool_result blocks. Only calls of MCP tools (named
// mcp__server__tool) are listed: Claude Code's own tools (Bash, Read, …)
// never reach an MCP server.
const FormatClaudeCode Format = "claude-code"

// claudeRecord is the part of a Claude Code line jig reads.
type claudeRecord struct {
	Timestamp   string        `json:"timestamp"`
	SessionID   string        `json:"sessionId"`
	IsSidechain bool          `json:"isSidechain"`
	Message     claudeMessage `json:"message"`
}

// claudeMessage is decoded with its content blocks in one pass; content
// that is a string instead is kept in Text (see decodeMessage).
type claudeMessage struct {
	ID      string        `json:"id"`
	Role    string        `json:"role"`
	Content []claudeBlock `json:"content"`
	Text    string        `json:"-"`
}

// claudeBlock is one content block of a Claude Code message.
type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

var (
	toolUseMark    = []byte(`"tool_use"`)
	toolResultMark = []byte(`"tool_result"`)
	toolUseIDKey   = []byte(`"tool_use_id":"`)
	assistantMark  = []byte(`"assistant"`)
	messageKey     = []byte(`"message":`)
	timestampKey   = []byte(`"timestamp":"`)
	sourceKey      = []byte(`"source"`)
)

// readClaudeCode reads a session line by line. Sessions grow to tens of
// megabytes, mostly of the client's own tools' output, so a line is parsed
// only when it can matter: an assistant line, or a tool result for a call
// of an MCP tool (found by its tool_use_id before any parse).
func readClaudeCode(r io.Reader, path string) (*File, error) {
	c := newCollector(path)
	c.guess(FormatClaudeCode)
	mcpIDs := map[string]bool{}
	lastMessage := ""
	br := bufio.NewReaderSize(r, 1<<20)
	var long []byte
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, line...)
			line, err = br.ReadSlice('\n')
		}
		if long != nil {
			line = append(long, line...)
			long = nil
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		last := err == io.EOF
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			c.claudeLine(line, n, last, mcpIDs, &lastMessage)
		}
		if last {
			break
		}
	}
	return c.finish(fmt.Sprintf("a Claude Code session of %s", frames.Count(c.messages, "message")))
}

func (c *collector) claudeLine(line []byte, n int, last bool, mcpIDs map[string]bool, lastMessage *string) {
	uses := bytes.Contains(line, toolUseMark)
	results := bytes.Contains(line, toolResultMark)
	if results && !uses && !resultFor(line, mcpIDs) {
		c.messages++
		return // a result of one of the client's own tools: never parsed
	}
	if !uses && !results && !bytes.Contains(line, assistantMark) {
		c.messages++
		return
	}
	rec, err := decodeClaudeLine(line, last)
	if err != nil {
		what := "not valid JSON (" + jsonProblem(line) + ")"
		if last {
			what = "cut off (the session ended mid-write: " + jsonProblem(line) + ")"
		}
		c.warn("line %d: %s; skipped, the other lines are read", n, what)
		return
	}
	msg := rec.Message
	c.messages++
	c.at(parseTimeString(rec.Timestamp))
	c.context = ""
	if rec.IsSidechain {
		c.context = "a subagent (sidechain) of session " + rec.SessionID
	}
	if msg.Role == "assistant" && (msg.ID == "" || msg.ID != *lastMessage) {
		// One API message may be written as several lines, one block each:
		// they are one turn.
		c.newTurn()
	}
	if msg.Role == "assistant" {
		*lastMessage = msg.ID
		c.saw(msg.Text)
	}
	where := fmt.Sprintf("line %d", n)
	for i, b := range msg.Content {
		switch b.Type {
		case "text":
			if msg.Role == "assistant" {
				c.saw(b.Text)
			}
		case "tool_use":
			server, _ := splitMCPName(b.Name)
			if server == "" {
				c.notMCP[b.Name]++
				continue
			}
			mcpIDs[b.ID] = true
			c.use(b.ID, b.Name, server, b.Input, false, idx(where+": message.content", i))
		case "tool_result":
			if mcpIDs[b.ToolUseID] {
				c.result(b.ToolUseID, "", Rendering{Content: claudeContent(b.Content), IsError: b.IsError, ErrorKnown: true}, idx(where+": message.content", i))
			}
		}
	}
}

// decodeClaudeLine decodes what jig reads of a line. Claude Code writes the
// record's scalars, then "message", then "uuid" and "timestamp", then
// toolUseResult, which repeats a tool's output: when the line has that
// shape, only the scalars and the message are decoded, and the rest, as
// large as the message, is only checked to end as a record does. last says
// the line is the file's last, the one a crash cuts: it is checked whole.
func decodeClaudeLine(line []byte, last bool) (claudeRecord, error) {
	var rec claudeRecord
	i := bytes.Index(line, messageKey)
	if i < 0 || bytes.IndexByte(line[1:i], '{') >= 0 || bytes.IndexByte(line[:i], '[') >= 0 {
		// Another shape: decode it all.
		var whole struct {
			claudeRecord
			Message json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(line, &whole); err != nil {
			return rec, err
		}
		rec = whole.claudeRecord
		if len(whole.Message) > 0 {
			if _, err := decodeMessage(whole.Message, &rec.Message); err != nil {
				return rec, err
			}
		}
		return rec, nil
	}
	head := append(bytes.Clone(bytes.TrimRight(line[:i], ", ")), '}')
	if err := json.Unmarshal(head, &rec); err != nil {
		return rec, err
	}
	body := line[i+len(messageKey):]
	end, err := decodeMessage(body, &rec.Message)
	if err != nil {
		return rec, err
	}
	rest := body[end:]
	if line[len(line)-1] != '}' || last && !json.Valid(append([]byte("{"), bytes.TrimLeft(rest, ", ")...)) {
		return rec, fmt.Errorf("the line does not end as a record does")
	}
	if t := bytes.Index(rest, timestampKey); t >= 0 && !bytes.ContainsAny(rest[:t], "{[") {
		end := bytes.IndexByte(rest[t+len(timestampKey):], '"')
		if end >= 0 {
			rec.Timestamp = string(rest[t+len(timestampKey) : t+len(timestampKey)+end])
		}
	}
	return rec, nil
}

// decodeMessage decodes the message value at the start of b, blocks and
// all, and returns where it ends. Content that is a string (a prompt) does
// not fit the blocks: it is decoded again, as the text.
func decodeMessage(b []byte, msg *claudeMessage) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	err := dec.Decode(msg)
	if err != nil && !isTypeError(err) {
		return 0, err
	}
	end := int(dec.InputOffset())
	if err != nil {
		var m struct {
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(b[:end], &m)
		msg.Text = str(m.Content)
	}
	return end, nil
}

func isTypeError(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te)
}

// claudeContent is a tool result's content as MCP content blocks: Claude
// Code keeps MCP text blocks as the server sent them, so they are used as
// they are; a string, or an image in Anthropic's shape, is converted.
func claudeContent(raw json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(raw)
	switch {
	case len(t) == 0:
		return json.RawMessage("[]")
	case t[0] == '"':
		return textContent(str(t))
	case t[0] == '[' && !bytes.Contains(t, sourceKey):
		return json.RawMessage(t)
	}
	return mcpContent(arr(t))
}

// resultFor reports whether a line holds a tool_result for one of ids,
// looking only at the tool_use_id values in its bytes.
func resultFor(line []byte, ids map[string]bool) bool {
	for {
		i := bytes.Index(line, toolUseIDKey)
		if i < 0 {
			return false
		}
		line = line[i+len(toolUseIDKey):]
		end := bytes.IndexByte(line, '"')
		if end < 0 {
			return false
		}
		if ids[string(line[:end])] {
			return true
		}
		line = line[end:]
	}
}
