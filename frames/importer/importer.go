// Package importer reads transcripts written by other tools so that jig can
// step through them like its own, as far as the mapping is honest: a frame's
// bytes are what the other tool kept, and where it kept less than the wire
// (the MCP Inspector keeps no ids and no envelopes; an agent transcript is
// the client's rendering of a conversation) the frame says so.
//
// Every format is recognized by its content, never by the file's name:
//
//   - jig's own JSONL transcript (first record {"type":"header",...}),
//     opened lazily with frames.OpenIndexed.
//   - JSON-RPC lines with a direction, one message per line, either
//     {"direction":D,"message":{...}} (or "dir" for "direction"; "message"
//     may also be a JSON string; an optional "time" or "timestamp" in
//     RFC 3339), where D is one of send/sent/c2s/client/outgoing (client to
//     server) or receive/received/s2c/server/incoming (server to client); or a
//     message prefixed by "> " or "-> " (client to server) or "< " or "<- "
//     (server to client). Directions are read from the client's side. Lines
//     without a direction are skipped with a warning: guessing it from the
//     message kind would be wrong whenever the server sends requests.
//   - the MCP Inspector's request history: a JSON object with
//     "requestHistory": [{"request": "<JSON text>", "response": "<JSON text>"}]
//     (the shape of the Inspector's useConnection state) and optionally
//     "serverNotifications": [notification, ...] or [{"notification":...,
//     "timestamp":...}], or a bare array of such history entries.
//   - agent transcripts, the bug report as it arrives: Anthropic Messages
//     API requests, responses and message arrays, claude.ai exports, OpenAI
//     Chat Completions and Responses API JSON or JSONL, and Claude Code
//     sessions. Each tool call becomes a tools/call request with the model's
//     arguments exactly as written, and its result, where the transcript has
//     one, a response marked as the client's rendering (see [ToolCall]).
//   - MCP client logs that carry the messages themselves: Claude Desktop's
//     mcp-server-NAME.log and VS Code's MCP output channel.
package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames"
)

// Format names a transcript format.
type Format string

const (
	FormatJig          Format = "jig"
	FormatJSONRPCLines Format = "jsonrpc-lines"
	FormatInspector    Format = "mcp-inspector"
)

// knownFormats lists what jig imports, for error messages.
const knownFormats = "jig transcripts, JSON-RPC lines with a direction, MCP Inspector history, " +
	"Anthropic Messages and claude.ai exports, OpenAI Chat Completions and Responses (JSON or JSONL), " +
	"Claude Code sessions, Claude Desktop mcp-server-*.log and VS Code MCP output logs"

// File is an opened transcript of any accepted format.
type File struct {
	frames.Reader
	Header   frames.Header
	Format   Format
	Warnings []string
	// Cut is where the file ends mid-record, or nil (jig transcripts).
	Cut *frames.Cut
	// Agent says the file is a record of an agent's run (a conversation or
	// a client's log), not a session jig held: Calls lists its tool calls.
	Agent bool
	Calls []ToolCall
	close func() error
}

// Record is the statement an agent transcript's header makes: what it is,
// and how it becomes a reproduction. Empty for jig's own sessions.
func (f *File) Record() string {
	if !f.Agent {
		return ""
	}
	n := fmt.Sprintf("%d tool call", len(f.Calls))
	if len(f.Calls) != 1 {
		n += "s"
	}
	if f.Format == FormatClaudeDesktopLog || f.Format == FormatVSCodeLog {
		return fmt.Sprintf("a record, not a reproduction (r reproduces a call): a client's log of an agent run, %s, %s; the model chose the tools and wrote the arguments",
			f.Format, n)
	}
	return fmt.Sprintf("a record, not a reproduction (r reproduces a call): an agent transcript, %s, %s; the model chose the tools and wrote the arguments, the results are the client's rendering",
		f.Format, n)
}

// Call returns the tool call whose request or response is frame i, or nil.
func (f *File) Call(i int) *ToolCall {
	for k := range f.Calls {
		if f.Calls[k].Request == i || f.Calls[k].Response == i && i >= 0 {
			return &f.Calls[k]
		}
	}
	return nil
}

// Close releases the file (jig transcripts are read lazily).
func (f *File) Close() error {
	if f.close != nil {
		return f.close()
	}
	return nil
}

// Open opens path in whatever accepted format it is in. jig transcripts stay
// on disk and load bodies on demand; other formats are converted in memory.
func Open(path string) (*File, error) {
	if st, err := os.Stat(path); err == nil {
		if st.Mode()&fs.ModeNamedPipe != 0 {
			return openPipe(path)
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %w; jig opens regular files and pipes", path, frames.ErrNotRegular)
		}
	}
	format, err := Sniff(path)
	if err != nil {
		return nil, err
	}
	if format == FormatJig {
		x, err := frames.OpenIndexed(path)
		if err != nil {
			return nil, err
		}
		return &File{Reader: x, Header: x.Header, Format: format, Warnings: x.Warnings, Cut: x.Cut, close: x.Close}, nil
	}
	return read(path, format)
}

// MaxPipe bounds what jig open copies from a pipe (jig open <(cat run.jsonl)).
const MaxPipe = 4 << 30

// openPipe opens a transcript arriving on a pipe: it can be read once, and
// both the sniffing and the lazy reader need to read it again, so it is
// copied to a private temporary file first, removed on Close.
func openPipe(path string) (*File, error) {
	in, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	tmp, err := os.CreateTemp("", "jig-open-*.jsonl")
	if err != nil {
		return nil, err
	}
	name := tmp.Name()
	n, err := io.Copy(tmp, io.LimitReader(in, MaxPipe+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > MaxPipe {
		err = fmt.Errorf("more than %s arrived; save it to a file first", frames.HumanSize(MaxPipe))
	}
	if err != nil {
		os.Remove(name)
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := Open(name)
	if err != nil {
		os.Remove(name)
		return nil, err
	}
	f.Warnings = append([]string{"read from a pipe (a copy was kept while open)"}, f.Warnings...)
	inner := f.close
	f.close = func() error {
		var err error
		if inner != nil {
			err = inner()
		}
		os.Remove(name)
		return err
	}
	return f, nil
}

// Read reads path, in any accepted format, fully into memory.
func Read(path string) (*frames.Transcript, Format, error) {
	format, err := Sniff(path)
	if err != nil {
		return nil, "", err
	}
	if format == FormatJig {
		f, err := os.Open(path)
		if err != nil {
			return nil, "", err
		}
		defer f.Close()
		t, err := frames.ReadTranscript(f)
		return t, format, err
	}
	f, err := read(path, format)
	if err != nil {
		return nil, "", err
	}
	return f.Reader.(*frames.Transcript), f.Format, nil
}

// read reads a file of any format but jig's own into memory.
func read(path string, format Format) (*File, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var t *frames.Transcript
	switch format {
	case FormatJSONRPCLines:
		t, err = readLines(r, path)
	case FormatInspector:
		t, err = readInspector(r, path)
	case FormatClaudeCode:
		return readClaudeCode(r, path)
	case FormatClaudeDesktopLog, FormatVSCodeLog:
		return readClientLog(r, path, format)
	default:
		return readConversation(r, path)
	}
	if err != nil {
		return nil, err
	}
	return &File{Reader: t, Header: t.Header, Format: format, Warnings: t.Warnings, Cut: t.Cut}, nil
}

// Sniff decides a file's format from its first bytes.
func Sniff(path string) (Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", err
	}
	head = bytes.TrimLeft(head[:n], " \t\r\n\ufeff")
	first, _, _ := bytes.Cut(head, []byte("\n"))
	first = bytes.TrimSpace(first)
	switch {
	case len(head) == 0:
		return "", fmt.Errorf("%s: the file is empty", path)
	case bytes.HasPrefix(first, []byte(`{"type":"header"`)), bytes.HasPrefix(first, []byte(`{"type":"frame"`)), bytes.HasPrefix(first, []byte(`{"type":"meta"`)):
		return FormatJig, nil // a headerless one too: the reader says what it assumed
	case prefixed(first) != "":
		return FormatJSONRPCLines, nil
	case head[0] == '[':
		if inspectorArray(head) {
			return FormatInspector, nil
		}
		return FormatAnthropic, nil // a conversation: the reader finds which
	case head[0] == '{':
		var probe map[string]json.RawMessage
		if json.Unmarshal(first, &probe) == nil {
			switch {
			case probe["type"] != nil && (string(probe["type"]) == `"header"` || string(probe["type"]) == `"frame"` && probe["seq"] != nil):
				return FormatJig, nil
			case probe["direction"] != nil || probe["dir"] != nil:
				return FormatJSONRPCLines, nil
			case probe["sessionId"] != nil && probe["type"] != nil || probe["leafUuid"] != nil || probe["parentUuid"] != nil:
				return FormatClaudeCode, nil
			}
		}
		if bytes.Contains(head, []byte(`"requestHistory"`)) {
			return FormatInspector, nil
		}
		return FormatAnthropic, nil // a conversation: the reader finds which
	}
	if f := sniffClientLog(head); f != "" {
		return f, nil
	}
	return "", fmt.Errorf("%s: not a format jig can import: it is neither JSON nor a client log jig knows (it imports %s); see 'jig open --help'", path, knownFormats)
}

// inspectorArray reports whether a JSON array's first element is an
// Inspector history entry ({"request": "<JSON text>", ...}).
func inspectorArray(head []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return false
	}
	var first map[string]json.RawMessage
	if dec.Decode(&first) != nil {
		return bytes.Contains(head, []byte(`"request":"`)) || bytes.Contains(head, []byte(`"request": "`))
	}
	r := bytes.TrimSpace(first["request"])
	return len(r) > 0 && r[0] == '"'
}

func prefixed(line []byte) frames.Direction {
	for _, p := range []struct {
		prefix string
		dir    frames.Direction
	}{{"-> ", frames.ClientToServer}, {"<- ", frames.ServerToClient}, {"->", frames.ClientToServer}, {"<-", frames.ServerToClient},
		{"> ", frames.ClientToServer}, {"< ", frames.ServerToClient}} {
		rest, ok := bytes.CutPrefix(line, []byte(p.prefix))
		rest = bytes.TrimSpace(rest)
		if ok && len(rest) > 0 && (rest[0] == '{' || rest[0] == '[') {
			return p.dir
		}
	}
	return ""
}

var directions = map[string]frames.Direction{
	"send": frames.ClientToServer, "sent": frames.ClientToServer, "c2s": frames.ClientToServer, "client": frames.ClientToServer, "outgoing": frames.ClientToServer,
	"receive": frames.ServerToClient, "received": frames.ServerToClient, "s2c": frames.ServerToClient, "server": frames.ServerToClient, "incoming": frames.ServerToClient,
}

func header(path string, format Format) frames.Header {
	target, _ := json.Marshal(map[string]string{"imported_from": path, "format": string(format)})
	return frames.Header{Jig: "import", Target: target, Mode: "import"}
}

func readLines(r io.Reader, path string) (*frames.Transcript, error) {
	var fs []*frames.Frame
	var warnings []string
	br := bufio.NewReaderSize(r, 1<<16)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		line = bytes.TrimRight(line, "\r\n")
		if len(bytes.TrimSpace(line)) > 0 {
			f, why := lineFrame(line)
			if f != nil {
				fs = append(fs, f)
			} else {
				warnings = append(warnings, fmt.Sprintf("line %d: %s; skipped", n, why))
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	t := frames.NewTranscript(header(path, FormatJSONRPCLines), nil, fs)
	t.Warnings = warnings
	return t, nil
}

func lineFrame(line []byte) (*frames.Frame, string) {
	if dir := prefixed(line); dir != "" {
		rest := line[bytes.IndexAny(line, "[{"):]
		f := &frames.Frame{Dir: dir, Raw: bytes.Clone(rest)}
		f.Classify()
		return f, ""
	}
	var rec struct {
		Direction *string          `json:"direction"`
		Dir       *string          `json:"dir"`
		Message   json.RawMessage  `json:"message"`
		Time      *time.Time       `json:"time"`
		Timestamp *json.RawMessage `json:"timestamp"`
	}
	if err := json.Unmarshal(line, &rec); err != nil {
		return nil, "not JSON and no > or < prefix"
	}
	d := rec.Direction
	if d == nil {
		d = rec.Dir
	}
	if d == nil {
		return nil, `no "direction": jig will not guess which way a message went`
	}
	dir, ok := directions[strings.ToLower(*d)]
	if !ok {
		return nil, fmt.Sprintf("unknown direction %q (use send/receive, c2s/s2c or client/server)", *d)
	}
	if len(rec.Message) == 0 {
		return nil, `no "message"`
	}
	raw := []byte(rec.Message)
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			raw = []byte(s)
		}
	}
	f := &frames.Frame{Dir: dir, Raw: bytes.Clone(raw)}
	if rec.Time != nil {
		f.Time = *rec.Time
	} else if rec.Timestamp != nil {
		f.Time = parseTime(*rec.Timestamp)
	}
	f.Classify()
	return f, ""
}

// parseTime accepts RFC 3339 strings and Unix seconds or milliseconds (a
// number below 1e11 is seconds: as milliseconds it would be 1973).
func parseTime(raw json.RawMessage) time.Time {
	if len(raw) == 0 {
		return time.Time{}
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t, _ := time.Parse(time.RFC3339Nano, s)
		return t
	}
	var n float64
	if json.Unmarshal(raw, &n) == nil && n > 0 {
		if n < 1e11 {
			return time.Unix(int64(n), 0).UTC()
		}
		return time.UnixMilli(int64(n)).UTC()
	}
	return time.Time{}
}

const inspectorNote = "imported from MCP Inspector history: the Inspector keeps method, params and result, not the wire bytes; jig rebuilt the JSON-RPC envelope and the id"

type inspectorEntry struct {
	Request   string          `json:"request"`
	Response  *string         `json:"response"`
	Timestamp json.RawMessage `json:"timestamp"`
}

func readInspector(r io.Reader, path string) (*frames.Transcript, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var doc struct {
		RequestHistory      []inspectorEntry  `json:"requestHistory"`
		ServerNotifications []json.RawMessage `json:"serverNotifications"`
	}
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		err = json.Unmarshal(b, &doc.RequestHistory)
	} else {
		err = json.Unmarshal(b, &doc)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not an MCP Inspector history: %v", path, err)
	}
	var fs []*frames.Frame
	var warnings []string
	timed := true
	for i, e := range doc.RequestHistory {
		at := parseTime(e.Timestamp)
		timed = timed && !at.IsZero()
		req, id, err := rebuildRequest(e.Request, i+1)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("requestHistory[%d]: %v; skipped", i, err))
			continue
		}
		fs = append(fs, inspectorFrame(frames.ClientToServer, req, at))
		if e.Response == nil || id == "" {
			continue
		}
		fs = append(fs, inspectorFrame(frames.ServerToClient, rebuildResponse(*e.Response, id), at))
	}
	for i, n := range doc.ServerNotifications {
		var wrapped struct {
			Notification json.RawMessage `json:"notification"`
			Timestamp    json.RawMessage `json:"timestamp"`
		}
		msg, at := n, time.Time{}
		if json.Unmarshal(n, &wrapped) == nil && len(wrapped.Notification) > 0 {
			msg, at = wrapped.Notification, parseTime(wrapped.Timestamp)
		}
		timed = timed && !at.IsZero()
		var m map[string]json.RawMessage
		if json.Unmarshal(msg, &m) != nil || m["method"] == nil {
			warnings = append(warnings, fmt.Sprintf("serverNotifications[%d]: not a notification; skipped", i))
			continue
		}
		m["jsonrpc"] = json.RawMessage(`"2.0"`)
		raw, _ := json.Marshal(m)
		fs = append(fs, inspectorFrame(frames.ServerToClient, raw, at))
	}
	if timed {
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Time.Before(fs[j].Time) })
	} else if len(doc.ServerNotifications) > 0 {
		warnings = append(warnings, "the history has no timestamps: server notifications are listed after all requests, not where they arrived")
	}
	t := frames.NewTranscript(header(path, FormatInspector), nil, fs)
	t.Warnings = warnings
	return t, nil
}

func inspectorFrame(dir frames.Direction, raw []byte, at time.Time) *frames.Frame {
	f := &frames.Frame{Dir: dir, Raw: raw, Time: at}
	f.Classify()
	f.Note = inspectorNote
	return f
}

// rebuildRequest wraps the Inspector's {method, params} in a JSON-RPC
// request with a synthetic id (or a notification, which has none).
func rebuildRequest(text string, n int) ([]byte, string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &m); err != nil || m["method"] == nil {
		return nil, "", fmt.Errorf("request is not a JSON object with a method")
	}
	if m["jsonrpc"] != nil && m["id"] != nil {
		raw, _ := json.Marshal(m)
		return raw, string(m["id"]), nil
	}
	m["jsonrpc"] = json.RawMessage(`"2.0"`)
	var method string
	json.Unmarshal(m["method"], &method)
	id := ""
	if !strings.HasPrefix(method, "notifications/") {
		id = fmt.Sprintf(`"inspector-%d"`, n)
		m["id"] = json.RawMessage(id)
	}
	raw, _ := json.Marshal(m)
	return raw, id, nil
}

// rebuildResponse wraps a result, or the Inspector's {"error": message},
// whose JSON-RPC code the Inspector did not keep (recorded as 0).
func rebuildResponse(text, id string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) == nil && len(m) == 1 && m["error"] != nil {
		var msg string
		if json.Unmarshal(m["error"], &msg) == nil {
			raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "error": map[string]any{"code": 0, "message": msg}})
			return raw
		}
	}
	result := json.RawMessage(text)
	if !json.Valid(result) {
		result, _ = json.Marshal(text)
	}
	raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "result": result})
	return raw
}
