package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/mcpjig/jig/frames"
)

// The MCP client logs that carry the messages a client exchanged with one
// server. They are closer to the wire than a conversation: every message
// the client sent and received, handshake included, but as the client
// logged it (parsed and re-serialized: key order and spacing are the
// client's), so each frame says so.
const (
	// FormatClaudeDesktopLog is Claude Desktop's mcp-server-NAME.log (and
	// mcp.log): "2025-04-11T23:03:05.759Z [name] [info] Message from client: {...}".
	FormatClaudeDesktopLog Format = "claude-desktop-log"
	// FormatVSCodeLog is VS Code's MCP output channel ("MCP: NAME"), with
	// trace or debug logging: "2025-06-10 10:11:12.345 [trace] [editor -> server] {...}".
	FormatVSCodeLog Format = "vscode-mcp-log"
)

var (
	claudeDesktopLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) \[([^\]]*)\] \[(\w+)\] (.*)$`)
	})
	vscodeLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?) \[(\w+)\] (.*)$`)
	})
)

// sniffClientLog recognizes a client log from its first lines.
func sniffClientLog(head []byte) Format {
	vscode := 0
	for i, line := range bytes.SplitN(head, []byte("\n"), 200) {
		line = bytes.TrimSpace(line)
		if claudeDesktopLine().Match(line) {
			return FormatClaudeDesktopLog
		}
		if vscodeLine().Match(line) {
			vscode++
			if bytes.Contains(line, []byte("] [editor -> server] ")) || bytes.Contains(line, []byte("] [server -> editor] ")) ||
				bytes.Contains(line, []byte("] Connection state: ")) || bytes.Contains(line, []byte("] [server stderr] ")) ||
				bytes.Contains(line, []byte("] Starting server ")) {
				return FormatVSCodeLog
			}
		}
		if i > 100 && vscode == 0 {
			break
		}
	}
	return ""
}

const (
	claudeDesktopNote = "logged by Claude Desktop: the message as the client parsed and re-serialized it, not the wire bytes"
	vscodeNote        = "logged by VS Code: the message as the client parsed and re-serialized it, not the wire bytes"
)

// readClientLog reads a client log into frames. Lines that are not messages
// become transport frames (the client's own notes: starting, connection
// state, errors) or stderr frames (the server's stderr, as the client
// relayed it), so nothing the log says is lost.
func readClientLog(r io.Reader, path string, format Format) (*File, error) {
	var fs []*frames.Frame
	var warnings []string
	var firstServer string
	otherServers := map[string]int{}
	br := bufio.NewReaderSize(r, 1<<16)
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 1<<16), 256<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if prev := len(fs) - 1; prev >= 0 && fs[prev].Kind == frames.KindTransport && continuation(line) {
			// The client's note went on over several lines (Claude Desktop
			// logs objects with util.inspect).
			fs[prev].Note += "\n" + line
			continue
		}
		var f *frames.Frame
		var server string
		if format == FormatClaudeDesktopLog {
			f, server = claudeDesktopFrame(line)
		} else {
			f = vscodeFrame(line)
		}
		if server != "" {
			if firstServer == "" {
				firstServer = server
			}
			if server != firstServer {
				otherServers[server]++
				continue
			}
		}
		fs = append(fs, f)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(otherServers) > 0 {
		warnings = append(warnings, fmt.Sprintf("the log holds the messages of other servers too (%s): jig read %s's, the first; their ids would collide",
			countList(otherServers), firstServer))
	}
	t := frames.NewTranscript(header(path, format), nil, fs)
	t.Warnings = warnings
	f := &File{Reader: t, Header: t.Header, Format: format, Warnings: warnings, Agent: true}
	turn, openUntil := 0, -1 // calls sent before the one before was answered were in flight together
	for i, fr := range t.Frames {
		if fr.Kind != frames.KindRequest || fr.Method != "tools/call" {
			continue
		}
		var req struct {
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		json.Unmarshal(fr.Raw, &req)
		if i > openUntil {
			turn++
		}
		resp := t.Partner(i)
		if resp < 0 {
			openUntil = t.Len()
		} else {
			openUntil = max(openUntil, resp)
		}
		call := ToolCall{N: len(f.Calls) + 1, Name: req.Params.Name, Server: firstServer, Arguments: req.Params.Arguments,
			Where: fmt.Sprintf("frame #%d", fr.Seq), Time: fr.Time, Wire: true, Request: i, Response: resp, Turn: turn}
		call.Arguments, call.ArgumentsProblem = checkArguments(call.Arguments, false)
		f.Calls = append(f.Calls, call)
	}
	if len(f.Calls) == 0 {
		return nil, fmt.Errorf("%s: a %s of %s with no tools/call: there is nothing to reproduce (jig expected \"tools/call\" requests the client sent)", path, format, frames.Count(t.Len(), "message"))
	}
	return f, nil
}

// continuation reports whether a line that does not start a log entry
// carries on the entry before it: it is indented, or closes a bracket.
func continuation(line string) bool {
	return line[0] == ' ' || line[0] == '\t' || line[0] == '}' || line[0] == ']'
}

// claudeDesktopFrame reads one line of a Claude Desktop MCP log.
func claudeDesktopFrame(line string) (*frames.Frame, string) {
	m := claudeDesktopLine().FindStringSubmatch(line)
	if m == nil {
		// The server's stderr, written as it came.
		return &frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindStderr, Raw: []byte(line)}, ""
	}
	at, _ := time.Parse(time.RFC3339Nano, m[1])
	server, level, text := m[2], m[3], m[4]
	for _, p := range []struct {
		prefix string
		dir    frames.Direction
	}{{"Message from client: ", frames.ClientToServer}, {"Message from server: ", frames.ServerToClient}} {
		if rest, ok := strings.CutPrefix(text, p.prefix); ok {
			return messageFrame(p.dir, rest, at, claudeDesktopNote), server
		}
	}
	return &frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, Time: at,
		Note: fmt.Sprintf("Claude Desktop [%s]: %s", level, text)}, server
}

// vscodeFrame reads one line of VS Code's MCP output channel.
func vscodeFrame(line string) *frames.Frame {
	m := vscodeLine().FindStringSubmatch(line)
	if m == nil {
		// A continuation of the line before (a multi-line stderr message).
		return &frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindStderr, Raw: []byte(line)}
	}
	at, _ := time.Parse("2006-01-02 15:04:05.999999999", m[1])
	level, text := m[2], m[3]
	for _, p := range []struct {
		prefix string
		dir    frames.Direction
	}{{"[editor -> server] ", frames.ClientToServer}, {"[client -> server] ", frames.ClientToServer},
		{"[server -> editor] ", frames.ServerToClient}, {"[server -> client] ", frames.ServerToClient}} {
		if rest, ok := strings.CutPrefix(text, p.prefix); ok {
			return messageFrame(p.dir, rest, at, vscodeNote)
		}
	}
	if rest, ok := strings.CutPrefix(text, "[server stderr] "); ok {
		return &frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindStderr, Time: at, Raw: []byte(rest)}
	}
	return &frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, Time: at,
		Note: fmt.Sprintf("VS Code [%s]: %s", level, text)}
}

// messageFrame makes a frame of the JSON message at the start of text,
// exactly as logged; Claude Desktop may append " { metadata: undefined }".
func messageFrame(dir frames.Direction, text string, at time.Time, note string) *frames.Frame {
	dec := json.NewDecoder(strings.NewReader(text))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		f := &frames.Frame{Dir: dir, Time: at, Raw: []byte(text), Note: note}
		f.Classify()
		return f
	}
	f := &frames.Frame{Dir: dir, Time: at, Raw: bytes.Clone(raw), Note: note}
	f.Classify()
	return f
}
