package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpjig/jig/frames"
)

func write(t *testing.T, name, content string) string {
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

type row struct {
	Dir    frames.Direction
	Kind   frames.Kind
	Method string
	Raw    string
}

func rows(t *testing.T, r frames.Reader) []row {
	var out []row
	for i := range r.Len() {
		f := r.Frame(i)
		b, err := r.Body(i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, row{f.Dir, f.Kind, f.Method, string(b)})
	}
	return out
}

func TestJSONRPCLines(t *testing.T) {
	path := write(t, "capture.ndjson", strings.Join([]string{
		`{"direction":"send","message":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}}`,
		`{"direction":"receive","time":"2026-11-30T12:00:00Z","message":{"jsonrpc":"2.0","id":0,"method":"roots/list"}}`,
		`{"dir":"s2c","message":"{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}"}`,
		`-> {"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`,
		`> {"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`< not json at all {`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"direction":"sideways","message":{}}`,
		``,
	}, "\n"))
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatJSONRPCLines {
		t.Fatalf("format = %s", f.Format)
	}
	want := []row{
		{frames.ClientToServer, frames.KindRequest, "initialize", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`},
		{frames.ServerToClient, frames.KindRequest, "roots/list", `{"jsonrpc":"2.0","id":0,"method":"roots/list"}`},
		{frames.ServerToClient, frames.KindResult, "initialize", `{"jsonrpc":"2.0","id":0,"result":{}}`},
		{frames.ClientToServer, frames.KindResult, "roots/list", `{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`},
		{frames.ClientToServer, frames.KindNotification, "notifications/initialized", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	}
	if d := cmp.Diff(want, rows(t, f)); d != "" {
		t.Errorf("frames differ (-want +got):\n%s", d)
	}
	if len(f.Warnings) != 3 || !strings.Contains(f.Warnings[1], "will not guess") {
		t.Errorf("warnings = %q; want the garbage, direction-less and sideways lines named", f.Warnings)
	}
	if f.Partner(2) != 0 || f.Partner(3) != 1 {
		t.Errorf("pairing is per direction: partners %d %d", f.Partner(2), f.Partner(3))
	}
	if !f.Frame(1).Time.Equal(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("time not kept: %v", f.Frame(1).Time)
	}
}

func TestInspectorHistory(t *testing.T) {
	path := write(t, "inspector.json", `{
  "requestHistory": [
    {"request": "{\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\"}}", "response": "{\"protocolVersion\":\"2025-11-25\"}"},
    {"request": "{\"method\":\"tools/call\",\"params\":{\"name\":\"search_orders\",\"arguments\":{\"since\":\"last month\"}}}", "response": "{\"content\":[],\"isError\":false}"},
    {"request": "{\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}", "response": "{\"error\":\"MCP error -32602: Tool nope not found\"}"},
    {"request": "{\"method\":\"notifications/roots/list_changed\"}"}
  ],
  "serverNotifications": [{"method":"notifications/message","params":{"level":"info","data":"hi"}}]
}`)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatInspector {
		t.Fatalf("format = %s", f.Format)
	}
	want := []row{
		{frames.ClientToServer, frames.KindRequest, "initialize", `{"id":"inspector-1","jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"2025-11-25"}}`},
		{frames.ServerToClient, frames.KindResult, "initialize", `{"id":"inspector-1","jsonrpc":"2.0","result":{"protocolVersion":"2025-11-25"}}`},
		{frames.ClientToServer, frames.KindRequest, "tools/call", `{"id":"inspector-2","jsonrpc":"2.0","method":"tools/call","params":{"name":"search_orders","arguments":{"since":"last month"}}}`},
		{frames.ServerToClient, frames.KindResult, "tools/call", `{"id":"inspector-2","jsonrpc":"2.0","result":{"content":[],"isError":false}}`},
		{frames.ClientToServer, frames.KindRequest, "tools/call", `{"id":"inspector-3","jsonrpc":"2.0","method":"tools/call","params":{"name":"nope"}}`},
		{frames.ServerToClient, frames.KindError, "tools/call", `{"error":{"code":0,"message":"MCP error -32602: Tool nope not found"},"id":"inspector-3","jsonrpc":"2.0"}`},
		{frames.ClientToServer, frames.KindNotification, "notifications/roots/list_changed", `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`},
		{frames.ServerToClient, frames.KindNotification, "notifications/message", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`},
	}
	if d := cmp.Diff(want, rows(t, f)); d != "" {
		t.Errorf("frames differ (-want +got):\n%s", d)
	}
	if !strings.Contains(f.Frame(0).Note, "rebuilt") || len(f.Warnings) != 1 {
		t.Errorf("an imported frame must say its envelope was rebuilt (note %q); warnings %q", f.Frame(0).Note, f.Warnings)
	}
}

func TestOpenJigTranscriptIsIndexed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	tw, err := frames.CreateTranscript(path, frames.Header{Jig: "t", Mode: "proxy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tw.WriteFrame(&frames.Frame{Seq: 1, Dir: frames.ClientToServer, Kind: frames.KindNotification, Method: "x", Raw: []byte(`{"jsonrpc":"2.0","method":"x"}`)})
	tw.Close()
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok := f.Reader.(*frames.Indexed); !ok || f.Format != FormatJig || f.Len() != 1 || f.Header.Mode != "proxy" {
		t.Errorf("Open(jig transcript) = %T %s %d frames", f.Reader, f.Format, f.Len())
	}
	if _, err := Open(write(t, "x.txt", "hello\n")); err == nil || !strings.Contains(err.Error(), "not a format jig can import") {
		t.Errorf("Open(text) err = %v", err)
	}
}
