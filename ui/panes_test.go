package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// Pane tests drive one pane directly at a fixed size and compare the
// screen, ANSI stripped, with testdata/<Test>.golden. Rewrite the goldens
// with `go test ./ui -update` and review the diff.

func screen(s string) string { return ansi.Strip(s) + "\n" }

// namedKeys are the special keys press understands by name.
var namedKeys = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "down": tea.KeyDown, "up": tea.KeyUp,
	"end": tea.KeyEnd, "left": tea.KeyLeft, "backspace": tea.KeyBackspace,
}

// press turns key names ("enter", "ctrl+s") and text ("abc") into key presses.
func press(keys ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys {
		switch code, named := namedKeys[k]; {
		case named:
			out = append(out, tea.KeyPressMsg{Code: code})
		case len(k) == 6 && strings.HasPrefix(k, "ctrl+"):
			out = append(out, tea.KeyPressMsg{Code: rune(k[5]), Mod: tea.ModCtrl})
		case len(k) == 5 && strings.HasPrefix(k, "alt+"):
			out = append(out, tea.KeyPressMsg{Code: rune(k[4]), Mod: tea.ModAlt})
		default:
			for _, r := range k {
				out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
			}
		}
	}
	return out
}

// testEnv is what a pane is built with in a test: the frames of r (an
// empty log when nil), no calls, no session.
func testEnv(r frames.Reader) *paneEnv {
	if r == nil {
		r = frames.NewLog(nil)
	}
	return &paneEnv{st: newStyles(true), out: &outbox{}, reader: r, calls: newCallLog(nil), conn: &connection{}}
}

// A keyed is what keys can be sent to: a pane or an overlay.
type keyed interface {
	actions() []action
	update(tea.Msg) tea.Cmd
	typing() bool
}

// keys sends key presses to p as the root does (pressKey), and returns why
// the last one did nothing, if it did not.
func keys(p keyed, names ...string) (whyNot string) {
	for _, msg := range press(names...) {
		_, whyNot = pressKey(p.actions(), p.typing(), p.update, msg.(tea.KeyPressMsg))
	}
	return whyNot
}

// helpOf is what the help and the footer draw for p's keys now.
func helpOf(p keyed) []key.Binding { return bindings(p.actions()) }

// envWith is testEnv(nil) with these calls made.
func envWith(calls ...*call) *paneEnv {
	env := testEnv(nil)
	env.calls.list = calls
	return env
}

// demoTools lists the demo server's tools, as sent.
func demoTools(t *testing.T) []json.RawMessage {
	raw, _ := demoListing(t)
	return raw
}

func demoListing(t *testing.T) ([]json.RawMessage, []*mcp.Tool) {
	t.Helper()
	ctx := context.Background()
	s, err := session.Open(ctx, session.Options{Target: session.Target{Transport: session.TransportDemo, Release: 1}})
	if err != nil {
		t.Fatalf("open the demo server: %v", err)
	}
	defer s.Close()
	raw, typed, err := s.ListTools(ctx)
	if err != nil {
		t.Fatalf("list the demo server's tools: %v", err)
	}
	return raw, typed
}

func toolNamed(t *testing.T, raw []json.RawMessage, name string) toolInfo {
	t.Helper()
	for _, r := range raw {
		var ti toolInfo
		if json.Unmarshal(r, &ti) == nil && ti.Name == name {
			ti.raw = r
			return ti
		}
	}
	t.Fatalf("the demo server has no tool %q", name)
	return toolInfo{}
}

func TestToolsPane(t *testing.T) {
	p := newToolsPane(testEnv(nil))
	p.setSize(60, 34)
	raw, typed := demoListing(t)
	p.setTools(raw, typed, true, lintTools(raw))
	keys(p, "G")
	golden.RequireEqual(t, screen(p.view()))
	if got := p.selectedName(); got != "search_orders" {
		t.Errorf("after G the selection is %q, want search_orders (the last tool)", got)
	}
	keys(p, "enter")
	if len(p.out.msgs) != 1 || p.out.msgs[0] != (chooseToolMsg{name: "search_orders"}) {
		t.Errorf("enter queued %v, want chooseToolMsg{search_orders}", p.out.msgs)
	}
}

func TestToolsPaneFilterAndRelist(t *testing.T) {
	p := newToolsPane(testEnv(nil))
	p.setSize(50, 20)
	raw, typed := demoListing(t)
	p.setTools(raw, typed, true, lintTools(raw))
	// The server re-lists: echo is gone, search_order changed, a tool appeared.
	var next []json.RawMessage
	for _, r := range raw {
		switch {
		case strings.Contains(string(r), `"name":"echo"`):
		case strings.Contains(string(r), `"name":"search_order"`):
			next = append(next, json.RawMessage(strings.Replace(string(r), `"title":`, `"title":"Changed ",`+`"x":`, 1)))
		default:
			next = append(next, r)
		}
	}
	next = append(next, json.RawMessage(`{"name":"new_tool","inputSchema":{"type":"object"}}`))
	p.setTools(next, typed, false, lintTools(next))
	golden.RequireEqual(t, screen(p.view()))
	keys(p, "/", "order")
	if len(p.shown) != 4 {
		t.Errorf("filter %q shows %d tools, want 4", p.filter.value(), len(p.shown))
	}
}

func newTestEditor(t *testing.T, args string) *editorPane {
	t.Helper()
	calls := []*call{}
	e := newEditorPane(envWith(calls...))
	e.setSize(60, 16)
	tool := toolNamed(t, demoTools(t), "search_orders")
	e.load(tool.Name, tool.Input, args, 0)
	return e
}

func TestEditorPrefill(t *testing.T) {
	e := newTestEditor(t, "")
	tool := toolNamed(t, demoTools(t), "search_orders")
	e.load(tool.Name, tool.Input, callTemplate(tool.Input), 0)
	golden.RequireEqual(t, screen(e.view()))
}

func TestEditorViolationsNeedConfirmation(t *testing.T) {
	args := "{\n  \"customer\": \"Acme Corp\",\n  \"since\": 5,\n  \"limit\": \"500\"\n}"
	e := newTestEditor(t, args)
	golden.RequireEqual(t, screen(e.view()))
	keys(e, "ctrl+s")
	if len(e.out.msgs) != 1 {
		t.Fatalf("the first ctrl+s queued %d messages, want one status line", len(e.out.msgs))
	}
	if _, ok := e.out.msgs[0].(statusMsg); !ok {
		t.Fatalf("the first ctrl+s on violating arguments queued %#v, want a statusMsg asking to confirm", e.out.msgs[0])
	}
	keys(e, "ctrl+s")
	send, ok := e.out.msgs[1].(sendCallMsg)
	if !ok {
		t.Fatalf("the second ctrl+s queued %#v, want sendCallMsg", e.out.msgs[1])
	}
	if send.args != args {
		t.Errorf("sent arguments %q, want exactly what was typed, %q", send.args, args)
	}
	if len(send.violations) != 2 {
		t.Errorf("the call carries %d violations, want 2 (/since and /limit)", len(send.violations))
	}
}

func TestEditorInvalidJSONCannotBeSent(t *testing.T) {
	e := newTestEditor(t, "{\n  \"customer\": \"Acme Corp\",\n  \"since\": last month\n}")
	golden.RequireEqual(t, screen(e.view()))
	keys(e, "ctrl+s")
	keys(e, "ctrl+s")
	for _, m := range e.out.msgs {
		if _, ok := m.(sendCallMsg); ok {
			t.Fatalf("invalid JSON was sent; it must never be")
		}
	}
}

func TestEditorTyping(t *testing.T) {
	e := newTestEditor(t, "{\n  \"customer\": \"\"\n}")
	e.startEditing()
	keys(e, "down", "end", "left", "Acme Corp", "end", ",", "enter", `  "since": "last month"`)
	want := "{\n  \"customer\": \"Acme Corp\",\n  \"since\": \"last month\"\n}"
	if got := e.value(); got != want {
		t.Errorf("after typing, the arguments are\n%s\nwant\n%s", got, want)
	}
	if e.problem != nil || len(e.violations) != 0 {
		t.Errorf("valid arguments report problems: %v %v", e.problem, e.violations)
	}
}

func TestCheckJSON(t *testing.T) {
	tests := []struct {
		in        string
		line, col int
	}{
		{`{"a": 1}`, 0, 0},
		{"{\n  \"a\": x\n}", 2, 8},
		{"{\n  \"a\": 1,\n}", 3, 1},
		{`{"a": 1`, 1, 8},
		{`{"a": 1} {}`, 1, 10},
		{``, 1, 1},
		{"{\"é\": ?}", 1, 7},
	}
	for _, tt := range tests {
		p := checkJSON(tt.in)
		switch {
		case tt.line == 0 && p != nil:
			t.Errorf("checkJSON(%q) = %v, want valid", tt.in, p)
		case tt.line != 0 && p == nil:
			t.Errorf("checkJSON(%q) = valid, want an error at %d:%d", tt.in, tt.line, tt.col)
		case p != nil && (p.line != tt.line || p.col != tt.col):
			t.Errorf("checkJSON(%q) at %d:%d (%s), want %d:%d", tt.in, p.line, p.col, p.msg, tt.line, tt.col)
		}
	}
}

func TestPrefill(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":"object"}`, `{}`},
		{`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer","default":3}},"required":["b"]}`,
			"{\n  \"b\": \"\",\n  \"a\": 3\n}"},
		{`{"type":"object","properties":{"s":{"enum":["x","y"]},"o":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]},"l":{"type":"array"},"f":{"type":"boolean"}},"required":["s","o","l","f"]}`,
			"{\n  \"s\": \"x\",\n  \"o\": {\n    \"n\": 0\n  },\n  \"l\": [],\n  \"f\": false\n}"},
		{`{"type":"object","properties":{"opt":{"type":"string"}}}`, `{}`},
	}
	for _, tt := range tests {
		if got := prefill(json.RawMessage(tt.schema)); got != tt.want {
			t.Errorf("prefill(%s) =\n%s\nwant\n%s", tt.schema, got, tt.want)
		}
		if p := checkJSON(prefill(json.RawMessage(tt.schema))); p != nil {
			t.Errorf("prefill(%s) is not JSON: %v", tt.schema, p)
		}
	}
}

func doneCall(t *testing.T, result string, err error) *call {
	t.Helper()
	log := fixedLog()
	log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_orders","arguments":{"customer":"Acme Corp","limit":500}}}`)})
	var resp string
	if result != "" {
		resp = `{"jsonrpc":"2.0","id":4,"result":` + result + `}`
	} else {
		resp = `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"invalid params: since: not a date"}}`
	}
	log.Append(frames.Frame{Dir: frames.ServerToClient, Raw: []byte(resp)})
	ex := &session.Exchange{Request: log.Frame(0), Response: log.Frame(1), Latency: 1500 * time.Microsecond, Result: json.RawMessage(result)}
	tool := toolNamed(t, demoTools(t), "search_orders")
	c := &call{id: 2, tool: "search_orders", args: `{"customer":"Acme Corp","limit":500}`, output: tool.Output}
	c.finish(ex, err)
	return c
}

func TestResultPartial(t *testing.T) {
	sc := `{"count":1,"orders":[{"customer_name":"Acme Corp","id":"ord-1059","placed_at":"2026-03-12T15:31:00Z","status":"pending","total":2838.42}],"truncated":true}`
	scJSON, _ := json.Marshal(sc)
	c := doneCall(t, `{"content":[{"type":"text","text":`+string(scJSON)+`},{"type":"image","mimeType":"image/png","data":"aGVsbG8gd29ybGQh"},{"type":"resource_link","uri":"orders://acme","name":"acme orders"}],"structuredContent":`+sc+`}`, nil)
	calls := []*call{c}
	p := newResultPane(envWith(calls...))
	p.setSize(70, 60)
	p.show(2)
	golden.RequireEqual(t, screen(p.view()))
}

func TestResultToolErrorAndOutputViolation(t *testing.T) {
	c := doneCall(t, `{"content":[{"type":"text","text":"customer not found"}],"structuredContent":{"orders":"none"},"isError":true}`, nil)
	calls := []*call{c}
	p := newResultPane(envWith(calls...))
	p.setSize(70, 24)
	p.show(2)
	golden.RequireEqual(t, screen(p.view()))
}

func TestResultRPCError(t *testing.T) {
	c := doneCall(t, "", &session.RPCError{Code: -32602, Message: "invalid params: since: not a date", Raw: json.RawMessage(`{"code":-32602,"message":"invalid params: since: not a date"}`)})
	calls := []*call{c}
	p := newResultPane(envWith(calls...))
	p.setSize(70, 16)
	p.show(2)
	golden.RequireEqual(t, screen(p.view()))
}

// fixedLog is a Log whose clock advances 1.5 ms per frame.
func fixedLog() *frames.Log {
	t0 := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	n := 0
	return frames.NewLog(func() time.Time {
		n++
		return t0.Add(time.Duration(n) * 1500 * time.Microsecond)
	})
}

func storyLog() *frames.Log {
	log := fixedLog()
	for _, l := range []struct {
		dir  frames.Direction
		kind frames.Kind
		raw  string
	}{
		{frames.ClientToServer, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"jig","version":"0.1.0"}}}`},
		{frames.ServerToClient, frames.KindStderr, "\x1b[33mwarn\x1b[0m: starting on stdio"},
		{frames.ServerToClient, "", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"orders","version":"2.1.0"}}}`},
		{frames.ClientToServer, "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{frames.ServerToClient, "", `{"jsonrpc":"2.0","id":0,"method":"roots/list"}`},
		{frames.ClientToServer, "", `{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`},
		{frames.ClientToServer, "", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_orders","arguments":{"customer":"Acme Corp","since":"last month"}}}`},
		{frames.ServerToClient, "", `Listening on stdio... (a stray print)`},
		{frames.ServerToClient, "", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"count\":0,\"orders\":[],\"truncated\":false}"}]}}`},
		{frames.ClientToServer, "", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope","arguments":{}}}`},
		{frames.ServerToClient, "", `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"unknown tool nope"}}`},
	} {
		log.Append(frames.Frame{Dir: l.dir, Kind: l.kind, Raw: []byte(l.raw)})
	}
	return log
}

func TestFramesPane(t *testing.T) {
	p := newFramesPane(testEnv(storyLog()))
	p.setSize(90, 30)
	p.setFocus(true)
	keys(p, "g", "down", "down", "down", "down", "down", "down")
	golden.RequireEqual(t, screen(p.view()))
	// p jumps from the request (#7) to its response (#9) and back.
	keys(p, "p")
	if i := p.selectedIndex(); i != 8 {
		t.Errorf("p from #7 selected #%d, want #9 (its response)", i+1)
	}
	keys(p, "p")
	if i := p.selectedIndex(); i != 6 {
		t.Errorf("p from #9 selected #%d, want #7 (its request)", i+1)
	}
}

func TestFramesPaneFilters(t *testing.T) {
	p := newFramesPane(testEnv(storyLog()))
	p.setSize(90, 20)
	keys(p, "d", "d") // ← only
	if got := p.count(); got != 6 {
		t.Errorf("direction ← shows %d frames, want 6", got)
	}
	keys(p, "x", "/", "tools/call", "enter")
	if got := p.count(); got != 4 {
		t.Errorf("filter tools/call shows %d frames, want 4 (two requests, two responses)", got)
	}
	keys(p, "x", "t", "t", "t") // request → result → error
	golden.RequireEqual(t, screen(p.view()))
	if got := p.count(); got != 1 {
		t.Errorf("kind error shows %d frames, want 1", got)
	}
}

func TestFramesPaneRawToggle(t *testing.T) {
	p := newFramesPane(testEnv(storyLog()))
	p.setSize(90, 20)
	p.selectSeq(3)
	pretty := ansi.Strip(p.view())
	keys(p, "v")
	raw := ansi.Strip(p.view())
	if !strings.Contains(pretty, `  "jsonrpc": "2.0",`) {
		t.Errorf("pretty mode does not indent the body:\n%s", pretty)
	}
	if !strings.Contains(raw, `{"jsonrpc":"2.0","id":0,"result":`) {
		t.Errorf("raw mode does not show the exact bytes:\n%s", raw)
	}
}

func TestLayout(t *testing.T) {
	for _, tt := range []struct {
		w, h int
		tabs bool
	}{{80, 24, true}, {119, 40, true}, {120, 35, false}, {200, 60, false}, {150, 27, true}} {
		l := arrange(tt.w, tt.h, 2, 1, 1, false)
		if l.tabs != tt.tabs {
			t.Errorf("arrange(%d, %d): tabs %v, want %v", tt.w, tt.h, l.tabs, tt.tabs)
		}
		if !l.tabs {
			total := l.slots[slotLeft].w + l.slots[slotTop].w + l.slots[slotRight].w
			if total != tt.w {
				t.Errorf("arrange(%d, %d): columns add up to %d", tt.w, tt.h, total)
			}
			if l.slots[slotTop].h+l.slots[slotBottom].h != l.slots[slotLeft].h {
				t.Errorf("arrange(%d, %d): arguments and result do not fill the column", tt.w, tt.h)
			}
		}
	}
}

func TestModelScreens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := New(Config{Reader: storyLog(), Title: "story.jsonl"})
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			out := ansi.Strip(m.View().Content)
			lines := strings.Split(out, "\n")
			if len(lines) != size[1] {
				t.Errorf("the screen has %d lines, want %d", len(lines), size[1])
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, w, size[0], l)
				}
			}
			golden.RequireEqual(t, out+"\n")
		})
	}
}

// jig lint's findings are badges on the tools list and a section of the
// tool's details; the clean tool has neither.
func TestToolsPaneLint(t *testing.T) {
	p := newToolsPane(testEnv(nil))
	p.setSize(100, 80)
	raw, typed := demoListing(t)
	p.setTools(raw, typed, true, lintTools(raw))
	p.selectName("search_orders")
	p.syncDetail(true)
	got := screen(p.view())
	for _, want := range []string{"⚠5 read-only", "Lint (5) — jig lint --list-rules says why each rule matters", "  warning date-bare-string  /inputSchema/properties/since",
		"\"since\" looks like a date but is a bare string", "fix: give \"limit\" a \"maximum\""} {
		if !strings.Contains(got, want) {
			t.Errorf("the tools pane lacks %q:\n%s", want, got)
		}
	}
	p.selectName("revenue_by_day")
	p.syncDetail(true)
	if got := screen(p.view()); strings.Contains(got, "Lint (") || strings.Contains(got, "revenue_by_day  ⚠") {
		t.Errorf("the clean tool shows findings:\n%s", got)
	}
}

// At 120 columns the tools list is 28 cells: a long name left room for
// "ro" on some rows and "read-only" on others, and the re-listing note was
// cut to "re-listed: 0 adde". One list uses one form of its hints, says
// what a short form means under the list, and a note too long for the
// pane is said short.
func TestNarrowToolsListSaysWhatItsShortHintsMean(t *testing.T) {
	tool := func(name, hints string) json.RawMessage {
		return json.RawMessage(`{"name":"` + name + `","inputSchema":{"type":"object"},"annotations":{` + hints + `}}`)
	}
	raw := []json.RawMessage{
		tool("echo", `"readOnlyHint":true`),
		tool("get-annotated-message", `"readOnlyHint":true`),
		tool("gzip-file-as-resource", `"readOnlyHint":false,"idempotentHint":true`),
	}
	p := newToolsPane(testEnv(nil))
	p.setSize(28, 20)
	p.setTools(raw, nil, true, nil)
	p.setTools(raw, nil, false, nil)
	got := screen(p.view())
	if strings.Contains(got, "read-only\n") || strings.Count(got, " ro\n") != 2 {
		t.Errorf("the list mixes the hints' forms (want ro on both read-only rows):\n%s", got)
	}
	if !strings.Contains(got, "ro=read-only idem=idempotent") {
		t.Errorf("the short hints are not explained under the list:\n%s", got)
	}
	if !strings.Contains(got, "3 tools · re-listed: same") {
		t.Errorf("the re-listing note is not said short:\n%s", got)
	}
	if got := relistedShort(1, 0, 2); got != "+1 -2" {
		t.Errorf("relistedShort(1, 0, 2) = %q, want +1 -2", got)
	}
	// The status line says it in words, without the pane's note twice
	// ("16 tools · re-listed: 0 added, 0 changed, 0 rem…" after "tools
	// re-listed" at 80 columns).
	if p.relisted != "the same 3 tools" {
		t.Errorf("the re-listing is said %q, want \"the same 3 tools\"", p.relisted)
	}
	if got := relistedWords(16, 1, 0, 2); got != "16 tools, 1 added, 2 removed" {
		t.Errorf("relistedWords(16, 1, 0, 2) = %q", got)
	}
	p.setSize(60, 20)
	if got := screen(p.view()); strings.Contains(got, "ro=") || !strings.Contains(got, "read-only") || !strings.Contains(got, "re-listed: 0 added, 0 changed, 0 removed") {
		t.Errorf("a list with room abbreviates:\n%s", got)
	}
}

// A tool's name too long beside its badges is cut so that the part the
// other tools do not share stays, and the badges stay with it: "greet
// (content with Resou…" lost both.
func TestLongToolNameKeepsItsBadgeAndWhatTellsItApart(t *testing.T) {
	var raw []json.RawMessage
	for _, n := range []string{"greet", "greet (content with ResourceLinks)", "greet (content with Icons and more)"} {
		raw = append(raw, json.RawMessage(`{"name":"`+n+`","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`))
	}
	p := newToolsPane(testEnv(nil))
	p.setSize(28, 20)
	p.setTools(raw, nil, true, nil)
	rows := strings.Split(screen(p.view()), "\n")[1:4]
	seen := map[string]bool{}
	for _, r := range rows {
		if !strings.HasSuffix(strings.TrimRight(r, " "), "ro") || ansi.StringWidth(r) > 28 || seen[r] {
			t.Errorf("row %q lost its badge, is too wide or repeats another:\n%s", r, strings.Join(rows, "\n"))
		}
		seen[r] = true
	}
	if !strings.Contains(rows[1], "Links)") || !strings.Contains(rows[2], "more)") {
		t.Errorf("the cut names lost what tells them apart:\n%s", strings.Join(rows, "\n"))
	}
}
