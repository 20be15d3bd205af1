package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	Type        string          `json:"type"`
	Timestamp   string          `json:"timestamp"`
	SessionID   string          `json:"sessionId"`
	IsSidechain bool            `json:"isSidechain"`
	Message     json.RawMessage `json:"message"`
}

type claudeMessage struct {
	ID      string            `json:"id"`
	Role    string            `json:"role"`
	Content json.RawMessage   `json:"content"`
	Blocks  []json.RawMessage `json:"-"`
}

var (
	toolUseMark    = []byte(`"tool_use"`)
	toolResultMark = []byte(`"tool_result"`)
	toolUseIDKey   = []byte(`"tool_use_id":"`)
	assistantMark  = []byte(`"assistant"`)
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
	return c.finish(fmt.Sprintf("a Claude Code session of %s", plural(c.messages, "message")))
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
	var rec claudeRecord
	if err := json.Unmarshal(line, &rec); err != nil {
		what := "not valid JSON (" + jsonProblem(line) + ")"
		if last {
			what = "cut off (the session ended mid-write: " + jsonProblem(line) + ")"
		}
		c.warn("line %d: %s; skipped, the other lines are read", n, what)
		return
	}
	var msg claudeMessage
	if json.Unmarshal(rec.Message, &msg) != nil {
		return
	}
	c.messages++
	c.at(parseTimeString(rec.Timestamp))
	c.context = ""
	if rec.IsSidechain {
		c.context = "a subagent (sidechain) of session " + rec.SessionID
	}
	where := fmt.Sprintf("line %d", n)
	if msg.Role == "assistant" && (msg.ID == "" || msg.ID != *lastMessage) {
		// One API message may be written as several lines, one block each:
		// they are one turn.
		c.newTurn()
	}
	if msg.Role == "assistant" {
		*lastMessage = msg.ID
	}
	if s := str(msg.Content); s != "" && msg.Role == "assistant" {
		c.saw(s)
	}
	for i, raw := range arr(msg.Content) {
		b := obj(raw)
		w := idx(where+": message.content", i)
		switch str(b["type"]) {
		case "tool_use":
			name := str(b["name"])
			server, _ := splitMCPName(name)
			if server == "" {
				c.notMCP[name]++
				continue
			}
			mcpIDs[str(b["id"])] = true
			c.block(b, w, server)
		case "tool_result":
			if mcpIDs[str(b["tool_use_id"])] {
				c.block(b, w, "")
			}
		default:
			if msg.Role == "assistant" {
				c.block(b, w, "")
			}
		}
	}
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
