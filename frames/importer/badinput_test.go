package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Bad input names the file, the line or path, and what jig expected; the
// calls it could read stay usable.

func TestNoToolCalls(t *testing.T) {
	for name, tt := range map[string]struct{ content, want string }{
		"anthropic.json": {`{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"Hello!"}]}]}`,
			"an anthropic-messages transcript of 2 messages with no tool calls: there is nothing to reproduce (jig expected tool_use blocks"},
		"openai.jsonl": {"{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"Hello!\"}\n",
			"with no tool calls: there is nothing to reproduce"},
		"session.jsonl": {`{"type":"assistant","sessionId":"s","uuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}` + "\n" +
			`{"type":"user","sessionId":"s","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a b"}]}}` + "\n",
			"a Claude Code session of 2 messages with no tool calls to MCP servers (1 call of Bash ×1, which are the client's own tools)"},
		"mcp-server-x.log": {"2026-03-30T14:02:08.100Z [x] [info] Initializing server...\n2026-03-30T14:02:08.200Z [x] [info] Message from client: {\"method\":\"initialize\",\"params\":{},\"jsonrpc\":\"2.0\",\"id\":0}\n",
			`a claude-desktop-log of 2 messages with no tools/call: there is nothing to reproduce (jig expected "tools/call" requests the client sent)`},
	} {
		path := write(t, name, tt.content)
		_, err := Open(path)
		if err == nil || !strings.Contains(err.Error(), path+": ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v\nwant it to name the file and say %q", name, err, tt.want)
		}
	}
}

func TestArgumentsThatAreNotAnObject(t *testing.T) {
	path := write(t, "c.json", `{"messages":[
 {"role":"assistant","content":[
  {"type":"tool_use","id":"toolu_1","name":"search_orders","input":"Acme Corp"},
  {"type":"tool_use","id":"toolu_2","name":"search_orders","input":{"customer":"Acme Corp"}}]},
 {"role":"assistant","tool_calls":[
  {"id":"call_1","type":"function","function":{"name":"search_orders","arguments":"{\"customer\": \"Acme"}},
  {"id":"call_2","type":"function","function":{"name":"search_orders","arguments":"[\"Acme Corp\"]"}},
  {"id":"call_3","type":"function","function":{"name":"search_orders","arguments":""}}]}]}`)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Calls) != 5 {
		t.Fatalf("%d calls, want all 5 kept", len(f.Calls))
	}
	wants := []struct{ problem, where, args string }{
		{"are a JSON string, not an object", "messages[0].content[0]", `"Acme Corp"`},
		{"", "messages[0].content[1]", `{"customer":"Acme Corp"}`},
		{"are not valid JSON (it ends after 18 bytes, before the JSON is complete)", "messages[1].tool_calls[0]", `"{\"customer\": \"Acme"`},
		{"are a JSON array, not an object", "messages[1].tool_calls[1]", `["Acme Corp"]`},
		{"are an empty string", "messages[1].tool_calls[2]", ``},
	}
	for i, w := range wants {
		c := f.Calls[i]
		if c.ArgumentsProblem != w.problem || c.Where != w.where || string(c.Arguments) != w.args {
			t.Errorf("call %d: problem %q at %s, args %s; want %q at %s, args %s", c.N, c.ArgumentsProblem, c.Where, c.Arguments, w.problem, w.where, w.args)
		}
		body, _ := f.Body(c.Request)
		if !json.Valid(body) || f.Frame(c.Request).Method != "tools/call" {
			t.Errorf("call %d: the request frame must stay valid JSON-RPC: %s", c.N, body)
		}
	}
	if len(f.Warnings) != 4 || !strings.Contains(f.Warnings[0], "messages[0].content[0]: the arguments of search_orders are a JSON string, not an object: kept as written; edit them into an object to reproduce the call") {
		t.Errorf("warnings = %q", f.Warnings)
	}
}

func TestTruncatedJSONLLine(t *testing.T) {
	good, err := os.ReadFile("testdata/claude-code-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(good), "\n"), "\n")
	// A line cut in the middle of the file (a bad copy) and a last line cut
	// mid-write (the session was still running).
	lines[10] = lines[10][:len(lines[10])/2]
	cut := strings.Join(lines, "\n")
	cut = cut[:len(cut)-40]
	path := write(t, "session.jsonl", cut)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var gotCut, gotMid bool
	for _, w := range f.Warnings {
		gotMid = gotMid || strings.HasPrefix(w, "line 11: not valid JSON (it ends after") && strings.HasSuffix(w, "skipped, the other lines are read")
		gotCut = gotCut || strings.HasPrefix(w, fmt.Sprintf("line %d: cut off (the session ended mid-write", len(lines)))
	}
	if !gotMid || !gotCut {
		t.Errorf("warnings = %q\nwant line 11 (broken) and line %d (cut off) named", f.Warnings, len(lines))
	}
	// Line 11 held call 2's tool_use: the other five remain.
	if len(f.Calls) != 5 || f.Calls[1].Name != "mcp__orders__search_order" {
		t.Errorf("%d calls, want the 5 whose lines were whole", len(f.Calls))
	}

	openai, _ := os.ReadFile("testdata/openai-chat.jsonl")
	path = write(t, "chat.jsonl", string(openai[:len(openai)-30]))
	if f, err = Open(path); err != nil || len(f.Calls) != 6 || !strings.Contains(strings.Join(f.Warnings, "\n"), "line 14: cut off (the file ends mid-record") {
		t.Errorf("a cut last line of chat JSONL: err %v, warnings %q", err, f.Warnings)
	}
}

func TestCutOffJSONDocument(t *testing.T) {
	full, err := os.ReadFile("testdata/anthropic-request.json")
	if err != nil {
		t.Fatal(err)
	}
	// Cut inside the retried call's input: the four calls before it are whole.
	i := strings.Index(string(full), `"toolu_01Fx7Gm2Qf8Ea9Lk3Zt"`)
	path := write(t, "cut.json", string(full[:i+40]))
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Calls) != 4 || f.Calls[3].Rendering == nil {
		t.Errorf("%d calls read from the cut file, want the 4 complete ones with their results", len(f.Calls))
	}
	if len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0], "the file is not complete JSON: it breaks at line") || !strings.Contains(f.Warnings[0], "jig read the messages that were complete before it") {
		t.Errorf("warnings = %q", f.Warnings)
	}
	path = write(t, "broken.json", `{"messages": [ {"role": "assistant", "content": [}`)
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), path+": not valid JSON at line 1, column 50 (invalid character") {
		t.Errorf("a document broken before anything complete: %v", err)
	}
}

func TestResultWithoutCall(t *testing.T) {
	path := write(t, "r.json", `[{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"echo","input":{"text":"x"}}]},
{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_9","content":"?"}]}]`)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Warnings) != 1 || f.Warnings[0] != "[1].content[0]: a tool result for toolu_9, but no tool call has that id; skipped" {
		t.Errorf("warnings = %q", f.Warnings)
	}
}

func TestUnknownFormats(t *testing.T) {
	for name, content := range map[string]string{
		"notes.txt":   "Customer says search is broken.\nSee screenshot.\n",
		"config.json": `{"mcpServers":{"orders":{"command":"jig","args":["serve-demo"]}}}`,
		"list.json":   `[1, 2, 3]`,
	} {
		path := write(t, name, content)
		_, err := Open(path)
		if err == nil || !strings.Contains(err.Error(), path+": ") || !strings.Contains(err.Error(), "Claude Code sessions") {
			t.Errorf("%s: err = %v; want the file named and the formats jig imports listed", name, err)
		}
	}
}

func TestSalvage(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`[{"a":1},{"b":2}`, `[{"a":1},{"b":2}]`},
		{`[{"a":1},{"b":`, `[{"a":1}]`},
		{`{"messages":[{"role":"user","content":"x, y"},{"role":"assi`, `{"messages":[{"role":"user","content":"x, y"}]}`},
		{`{"a":"\"],{","b":[1,2`, `{"a":"\"],{","b":[1]}`},
		{`{"a`, ``},
		{`[1 2]`, ``},
	} {
		got, _ := salvage([]byte(tt.in))
		if string(got) != tt.want {
			t.Errorf("salvage(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
