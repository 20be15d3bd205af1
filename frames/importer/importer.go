// Package importer reads transcripts written by other tools so that jig can
// step through them like its own, as far as the mapping is honest: a frame's
// bytes are what the other tool kept, and where it kept less than the wire
// (the MCP Inspector keeps no ids and no envelopes) the frame says so.
//
// Accepted formats, sniffed from the content:
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
package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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

// File is an opened transcript of any accepted format.
type File struct {
	frames.Reader
	Header   frames.Header
	Format   Format
	Warnings []string
	close    func() error
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
	format, err := Sniff(path)
	if err != nil {
		return nil, err
	}
	if format == FormatJig {
		x, err := frames.OpenIndexed(path)
		if err != nil {
			return nil, err
		}
		return &File{Reader: x, Header: x.Header, Format: format, Warnings: x.Warnings, close: x.Close}, nil
	}
	t, err := read(path, format)
	if err != nil {
		return nil, err
	}
	return &File{Reader: t, Header: t.Header, Format: format, Warnings: t.Warnings}, nil
}

// Read reads path, in any accepted format, fully into memory.
func Read(path string) (*frames.Transcript, Format, error) {
	format, err := Sniff(path)
	if err != nil {
		return nil, "", err
	}
	t, err := read(path, format)
	return t, format, err
}

func read(path string, format Format) (*frames.Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	switch format {
	case FormatJig:
		return frames.ReadTranscript(f)
	case FormatJSONRPCLines:
		return readLines(f, path)
	default:
		return readInspector(f, path)
	}
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
	case bytes.HasPrefix(first, []byte(`{"type":"header"`)):
		return FormatJig, nil
	case prefixed(first) != "":
		return FormatJSONRPCLines, nil
	case head[0] == '[':
		return FormatInspector, nil
	case head[0] == '{':
		var probe map[string]json.RawMessage
		if json.Unmarshal(first, &probe) == nil {
			if probe["type"] != nil && string(probe["type"]) == `"header"` {
				return FormatJig, nil
			}
			if probe["direction"] != nil || probe["dir"] != nil {
				return FormatJSONRPCLines, nil
			}
		}
		if bytes.Contains(head, []byte(`"requestHistory"`)) {
			return FormatInspector, nil
		}
	}
	return "", fmt.Errorf("%s: not a format jig can import (a jig transcript, JSON-RPC lines with a direction, or an MCP Inspector history); see 'jig open --help'", path)
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

// parseTime accepts RFC 3339 strings and Unix milliseconds.
func parseTime(raw json.RawMessage) time.Time {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t, _ := time.Parse(time.RFC3339Nano, s)
		return t
	}
	var ms float64
	if json.Unmarshal(raw, &ms) == nil {
		return time.UnixMilli(int64(ms)).UTC()
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
