package importer

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames"
)

// The testdata transcripts tell one story in every format: the seed's two
// search_orders calls, then two search_order calls in one turn (the first
// fails: "1042" has no ord- prefix), the failed one retried as it was, and
// then corrected.
var storyCalls = []struct {
	tool string
	args map[string]any
}{
	{"search_orders", map[string]any{"customer": "Acme Corp", "since": "last month"}},
	{"search_orders", map[string]any{"customer": "acme", "since": "2026-01-01", "limit": 500.0}},
	{"search_order", map[string]any{"order_id": "1042"}},
	{"search_order", map[string]any{"order_id": "ord-1044"}},
	{"search_order", map[string]any{"order_id": "1042"}},
	{"search_order", map[string]any{"order_id": "ord-1042"}},
}

func TestAgentTranscripts(t *testing.T) {
	tests := []struct {
		file   string
		format Format
		calls  int
		// errorFlag: the format says which results are errors.
		errorFlag bool
		// prefix: the tool names as the client offered them to the model.
		prefix string
		// argsAreText: the model's arguments are the text of a JSON string.
		argsAreText bool
	}{
		{"anthropic-request.json", FormatAnthropic, 6, true, "", false},
		{"anthropic-requests.jsonl", FormatAnthropic, 4, true, "", false},
		{"anthropic-mcp-connector.json", FormatAnthropic, 2, true, "", false},
		{"claude-export.json", FormatClaudeExport, 6, true, "", false},
		{"claude-code-session.jsonl", FormatClaudeCode, 6, true, "mcp__orders__", false},
		{"openai-chat.json", FormatOpenAIChat, 6, false, "", true},
		{"openai-chat.jsonl", FormatOpenAIChat, 6, false, "", true},
		{"openai-responses.json", FormatOpenAIResponses, 6, false, "", true},
		{"openai-responses.jsonl", FormatOpenAIResponses, 6, false, "", true},
		{"openai-responses-mcp.json", FormatOpenAIResponses, 6, false, "", true},
		{"claude-desktop-mcp-server-orders.log", FormatClaudeDesktopLog, 6, true, "", false},
		{"vscode-mcp-orders.log", FormatVSCodeLog, 6, true, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := "testdata/" + tt.file
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Open(path)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if f.Format != tt.format || !f.Agent || len(f.Calls) != tt.calls {
				t.Fatalf("format %s, agent %v, %d calls; want %s, an agent record, %d calls", f.Format, f.Agent, len(f.Calls), tt.format, tt.calls)
			}
			if !strings.HasPrefix(f.Record(), "a record, not a reproduction") || !strings.Contains(f.Record(), "r reproduces") {
				t.Errorf("Record() = %q: the header must say it is a record, and how it becomes a reproduction", f.Record())
			}
			for i, c := range f.Calls {
				want := storyCalls[i]
				if c.N != i+1 || c.Name != tt.prefix+want.tool {
					t.Errorf("call %d is %d %q, want %q", i+1, c.N, c.Name, tt.prefix+want.tool)
				}
				var got map[string]any
				if err := json.Unmarshal(c.Arguments, &got); err != nil || !jsonEqual(got, want.args) {
					t.Errorf("call %d arguments %s, want %v", c.N, c.Arguments, want.args)
				}
				// Exactly as written: the bytes are in the file, as the
				// model wrote them (inside a JSON string for OpenAI).
				written := c.Arguments
				if tt.argsAreText {
					q, _ := json.Marshal(string(c.Arguments))
					written = q
				}
				if !c.Wire && !bytes.Contains(raw, written) {
					t.Errorf("call %d arguments %s are not in the file byte for byte", c.N, c.Arguments)
				}
				checkFrames(t, f, c)
			}
			if tt.calls < 5 {
				return
			}
			if c3, c4 := f.Calls[2], f.Calls[3]; c3.Turn != c4.Turn || f.Calls[1].Turn == c3.Turn || f.Calls[4].Turn == c3.Turn {
				t.Errorf("turns %d %d %d %d: calls 3 and 4 were asked for together, and alone", f.Calls[1].Turn, c3.Turn, c4.Turn, f.Calls[4].Turn)
			}
			if tt.errorFlag && !f.Calls[0].Wire {
				if r := f.Calls[2].Rendering; r == nil || !r.IsError || f.Calls[3].Rendering.IsError {
					t.Errorf("call 3's result must be flagged as an error, call 4's not: %+v", r)
				}
			}
			if tt.calls == 6 && !f.Calls[0].Wire && f.Calls[4].RetryOf != 3 {
				t.Errorf("call 5 RetryOf = %d, want 3 (the same call again)", f.Calls[4].RetryOf)
			}
		})
	}
}

// checkFrames checks that a call's frames are a tools/call request with the
// call's arguments and, where there is a result, its response, each saying
// what it is.
func checkFrames(t *testing.T, f *File, c ToolCall) {
	t.Helper()
	req := f.Frame(c.Request)
	body, _ := f.Body(c.Request)
	if req.Kind != frames.KindRequest || req.Method != "tools/call" || req.Dir != frames.ClientToServer || req.Err != "" {
		t.Errorf("call %d frame #%d is %s %s (%s), want a tools/call request", c.N, req.Seq, req.Kind, req.Method, req.Err)
	}
	var params struct {
		Params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	json.Unmarshal(body, &params)
	if params.Params.Name != c.Name || !bytes.Equal(params.Params.Arguments, c.Arguments) {
		t.Errorf("call %d frame %s: want name %q and the arguments byte for byte", c.N, body, c.Name)
	}
	if c.Wire {
		if !strings.Contains(req.Note, "logged by") {
			t.Errorf("a logged frame must say who logged it: note %q", req.Note)
		}
		return
	}
	if !strings.Contains(req.Note, "not a frame that crossed a wire") {
		t.Errorf("call %d request note %q: it must say it is not a wire frame", c.N, req.Note)
	}
	if c.Rendering == nil {
		return
	}
	resp := f.Frame(c.Response)
	if f.Partner(c.Request) != c.Response || resp.Kind != frames.KindResult || !strings.Contains(resp.Note, "the client's rendering") {
		t.Errorf("call %d response #%d (%s, note %q): want the paired result, marked as the client's rendering", c.N, resp.Seq, resp.Kind, resp.Note)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestNotPinned(t *testing.T) {
	f, err := Open("testdata/anthropic-request.json")
	if err != nil {
		t.Fatal(err)
	}
	all := func(n int) string { return strings.Join(f.NotPinned(f.Calls[n-1]), "\n") }
	for n, want := range map[int][]string{
		1: {"arguments: the model's draw", `it wrote "search_orders"`, "the client may have retried", "the client's rendering", "alone in its turn"},
		3: {"in flight: asked for in one turn with call 4"},
		5: {"the model repeated call 3 (same tool, same arguments), which failed"},
	} {
		for _, w := range want {
			if !strings.Contains(all(n), w) {
				t.Errorf("call %d: NotPinned does not say %q:\n%s", n, w, all(n))
			}
		}
	}
	if got := len(f.NotPinned(f.Calls[0])); got != 5 {
		t.Errorf("NotPinned has %d statements, want one each for arguments, tool, retries, rendering and in flight", got)
	}
	log, err := Open("testdata/claude-desktop-mcp-server-orders.log")
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(log.NotPinned(log.Calls[0]), "\n"); !strings.Contains(s, "re-serialized by the client") || strings.Contains(s, "rendering, what the model was shown") {
		t.Errorf("a client log's call is not a rendering of a conversation:\n%s", s)
	}
}

func TestClaudeCodeKeepsOnlyMCPCalls(t *testing.T) {
	f, err := Open("testdata/claude-code-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0], "Bash ×1") {
		t.Errorf("warnings = %q, want the Bash call named as the client's own tool", f.Warnings)
	}
	c := f.Calls[0]
	if c.Server != "orders" || c.Said != "I'll look up this customer's recent orders." || c.Time.IsZero() {
		t.Errorf("call 1: server %q, said %q, time %v", c.Server, c.Said, c.Time)
	}
	// One API message written as several lines is one turn.
	if f.Calls[2].Turn != f.Calls[3].Turn {
		t.Errorf("calls 3 and 4 share message msg_01Turn2…: turns %d and %d", f.Calls[2].Turn, f.Calls[3].Turn)
	}
}

func TestClientLogFrames(t *testing.T) {
	for _, tt := range []struct {
		file, note string
		stderr     string
	}{
		{"claude-desktop-mcp-server-orders.log", "logged by Claude Desktop", "2026/03/30 14:02:08 jig-demo: serving release 1 on stdio"},
		{"vscode-mcp-orders.log", "logged by VS Code", "2026/03/30 16:02:08 jig-demo: serving release 1 on stdio"},
	} {
		f, err := Open("testdata/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		stderr := false
		for i := range f.Len() {
			fr := f.Frame(i)
			if fr.Kind.IsMessage() {
				kinds = append(kinds, string(fr.Dir.Arrow())+fr.Method)
				if fr.Err != "" || !strings.Contains(fr.Note, tt.note) {
					t.Errorf("%s frame #%d: err %q note %q", tt.file, fr.Seq, fr.Err, fr.Note)
				}
			}
			if fr.Kind == frames.KindStderr && string(fr.Raw) == tt.stderr {
				stderr = true
			}
			if fr.Kind == frames.KindTransport && strings.HasPrefix(fr.Note, "Claude Desktop [info]: Using MCP server command") && !strings.Contains(fr.Note, "} %o") {
				t.Errorf("a note logged over several lines must be kept whole: %q", fr.Note)
			}
		}
		if got := strings.Join(kinds[:5], " "); got != "→initialize ←initialize →notifications/initialized →tools/list ←tools/list" {
			t.Errorf("%s: the handshake reads %s", tt.file, got)
		}
		if !stderr {
			t.Errorf("%s: the server's stderr line is not a stderr frame", tt.file)
		}
		// The parallel calls 3 and 4: both answered, each by its own id.
		c3, c4 := f.Calls[2], f.Calls[3]
		if c3.Response < 0 || c4.Response < 0 || f.Frame(c3.Response).ID == f.Frame(c4.Response).ID {
			t.Errorf("%s: calls 3 and 4 are not each paired with their response", tt.file)
		}
		body, _ := f.Body(c3.Response)
		if !bytes.Contains(body, []byte(`"isError":true`)) {
			t.Errorf("%s: call 3's response %s is not the error the server sent", tt.file, body)
		}
	}
}

func TestMatchTool(t *testing.T) {
	tools := []string{"search_orders", "search_order", "orders", "cancel_order", "get-sum"}
	tests := []struct{ written, name, how string }{
		{"search_orders", "search_orders", ""},
		{"mcp__orders__search_orders", "search_orders", `prefix "mcp__orders__" stripped`},
		{"mcp__orders__search_order", "search_order", `prefix "mcp__orders__" stripped`},
		{"mcp_orders_cancel_order", "cancel_order", `prefix "mcp_orders_" stripped`},
		{"orders.search_order", "search_order", `prefix "orders." stripped`},
		{"functions.search_orders", "search_orders", `prefix "functions." stripped`},
		{"everything__get-sum", "get-sum", `prefix "everything__" stripped`},
		{"mcp__orders__serch_orders", "", "the server lists no such tool (closest: search_orders)"},
		{"mcp__orders__delete_everything", "", "the server lists no such tool"},
		{"xsearch_orders", "", "the server lists no such tool (closest: search_orders)"},
	}
	for _, tt := range tests {
		m := MatchTool(tt.written, tools)
		if m.Name != tt.name || m.How != tt.how || m.OK() != (tt.name != "") || m.Written != tt.written {
			t.Errorf("MatchTool(%q) = %+v, want %q (%s)", tt.written, m, tt.name, tt.how)
		}
	}
}
