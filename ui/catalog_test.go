package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/session/peers"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcpjig/jig/session"
)

// demoSession opens the demo server (release 1: resource demo://readme,
// prompt triage_report with the required argument customer).
func demoSession(t *testing.T) *session.Session {
	t.Helper()
	s, err := session.Open(context.Background(), session.Options{Target: session.Target{Transport: session.TransportDemo, Release: 1}})
	if err != nil {
		t.Fatalf("open the demo server: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestResourcesPane(t *testing.T) {
	s := demoSession(t)
	raw, err := s.ListResources(context.Background())
	if err != nil {
		t.Fatalf("resources/list on the demo server: %v", err)
	}
	p := newResourcesPane(testEnv(nil))
	p.setSize(60, 20)
	p.setFocus(true)
	p.listed = true
	p.setResources(raw)
	golden.RequireEqual(t, screen(p.view()))

	keys(p, "enter")
	if len(p.out.msgs) != 1 || p.out.msgs[0] != (readResourceMsg{uri: "demo://readme"}) {
		t.Fatalf("enter queued %v, want readResourceMsg{demo://readme}", p.out.msgs)
	}
	// u opens an empty URI field; what is typed is sent exactly, wrong or not.
	keys(p, "u", "demo://nope ")
	if !p.typing() {
		t.Fatalf("after u the pane does not take text: the URI field is not open")
	}
	keys(p, "enter")
	if len(p.out.msgs) != 2 || p.out.msgs[1] != (readResourceMsg{uri: "demo://nope "}) {
		t.Errorf("u, a typed URI and enter queued %v, want readResourceMsg{%q} (exactly as typed)", p.out.msgs, "demo://nope ")
	}
}

func TestPromptsPane(t *testing.T) {
	s := demoSession(t)
	raw, err := s.ListPrompts(context.Background())
	if err != nil {
		t.Fatalf("prompts/list on the demo server: %v", err)
	}
	p := newPromptsPane(testEnv(nil))
	p.setSize(60, 24)
	p.setFocus(true)
	p.listed = true
	p.setPrompts(raw)
	golden.RequireEqual(t, screen(p.view()))
	keys(p, "enter")
	if len(p.out.msgs) != 1 || p.out.msgs[0] != (choosePromptMsg{name: "triage_report"}) {
		t.Fatalf("enter queued %v, want choosePromptMsg{triage_report}", p.out.msgs)
	}
	tr := p.prompt("triage_report")
	want := "{\n  \"customer\": \"\",\n  \"symptom\": \"\"\n}"
	if got := tr.prefill(); got != want {
		t.Errorf("triage_report prefills\n%s\nwant every argument named, in order:\n%s", got, want)
	}
}

// TestPromptEditor: the editor checks prompt arguments against what the
// prompt declares, and a missing required argument is sent on a second
// ctrl+s, exactly as typed, so the server's refusal can be seen.
func TestPromptEditor(t *testing.T) {
	tr := promptInfo{Name: "triage_report", Arguments: []promptArg{{Name: "customer", Required: true, Description: "the customer"}, {Name: "symptom"}}}
	calls := []*call{}
	e := newEditorPane(envWith(calls...))
	e.setSize(60, 14)
	e.loadPrompt(tr.Name, tr.schema(), "{\n  \"symptom\": \"no orders\"\n}", tr.prefill(), 0)
	golden.RequireEqual(t, screen(e.view()))
	keys(e, "ctrl+s")
	keys(e, "ctrl+s")
	if len(e.out.msgs) != 2 {
		t.Fatalf("two ctrl+s queued %d messages, want a confirmation and a send", len(e.out.msgs))
	}
	got, ok := e.out.msgs[1].(getPromptMsg)
	if !ok || got.name != "triage_report" || got.args != "{\n  \"symptom\": \"no orders\"\n}" || len(got.violations) != 1 {
		t.Errorf("the second ctrl+s queued %#v, want getPromptMsg with the typed arguments and 1 violation", e.out.msgs[1])
	}
	keys(e, "ctrl+r")
	if e.value() != tr.prefill() || !e.prompt {
		t.Errorf("ctrl+r reset the prompt's arguments to %q (prompt mode %v), want %q", e.value(), e.prompt, tr.prefill())
	}
}

func TestPromptArguments(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    map[string]string
		errPart string
	}{
		{`{"customer":"Acme Corp"}`, map[string]string{"customer": "Acme Corp"}, ""},
		{`{}`, map[string]string{}, ""},
		{`{"customer":"Acme","limit":5}`, nil, `argument "limit" is 5, not a string`},
		{`[1]`, nil, "a JSON object of strings"},
	} {
		got, err := promptArguments(tt.in)
		switch {
		case tt.errPart == "" && err != nil:
			t.Errorf("promptArguments(%s): %v", tt.in, err)
		case tt.errPart != "" && (err == nil || !strings.Contains(err.Error(), tt.errPart)):
			t.Errorf("promptArguments(%s) error = %v, want one saying %q", tt.in, err, tt.errPart)
		case tt.errPart == "" && len(got) != len(tt.want):
			t.Errorf("promptArguments(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// catalogResult sends a real request to the demo server and draws its
// call in the result pane; latency is fixed so the screen is stable.
func catalogResult(t *testing.T, c *call, send func(s *session.Session) (*session.Exchange, error)) string {
	t.Helper()
	ex, err := send(demoSession(t))
	var rpc *session.RPCError
	if err != nil && !errors.As(err, &rpc) {
		t.Fatalf("%s on the demo server: %v", c.title(), err)
	}
	if ex == nil {
		t.Fatalf("%s on the demo server: no exchange recorded", c.title())
	}
	// The demo's own traffic (subscriptions/listen) may cross first:
	// number the pair as in a quiet session.
	req, resp := *ex.Request, *ex.Response
	req.Seq, resp.Seq = 5, 6
	ex.Request, ex.Response, ex.Latency = &req, &resp, 1500*time.Microsecond
	c.finish(ex, err)
	calls := []*call{c}
	p := newResultPane(envWith(calls...))
	p.setSize(70, 30)
	p.show(c.id)
	return screen(p.view())
}

func TestResultReadResource(t *testing.T) {
	out := catalogResult(t, &call{id: 1, method: methodReadResource, tool: "demo://readme"}, func(s *session.Session) (*session.Exchange, error) {
		return s.ReadResource(context.Background(), "demo://readme")
	})
	golden.RequireEqual(t, out)
	if !strings.Contains(out, "[0] demo://readme · text/plain · text") {
		t.Errorf("the readme's contents are not shown with their URI and MIME type:\n%s", out)
	}
}

func TestResultReadUnknownResource(t *testing.T) {
	out := catalogResult(t, &call{id: 1, method: methodReadResource, tool: "demo://nope"}, func(s *session.Session) (*session.Exchange, error) {
		return s.ReadResource(context.Background(), "demo://nope")
	})
	golden.RequireEqual(t, out)
	if !strings.Contains(out, "JSON-RPC ERROR -32602") {
		t.Errorf("reading an unknown URI does not show the -32602 error:\n%s", out)
	}
}

func TestResultGetPrompt(t *testing.T) {
	args := `{"customer":"Acme Corp"}`
	out := catalogResult(t, &call{id: 1, method: methodGetPrompt, tool: "triage_report", args: args}, func(s *session.Session) (*session.Exchange, error) {
		return s.GetPrompt(context.Background(), "triage_report", map[string]string{"customer": "Acme Corp"})
	})
	golden.RequireEqual(t, out)
	if !strings.Contains(out, "── 0 · user") || !strings.Contains(out, "Acme Corp") {
		t.Errorf("the prompt's message is not shown with its role:\n%s", out)
	}
}

func TestResultGetPromptMissingArgument(t *testing.T) {
	out := catalogResult(t, &call{id: 1, method: methodGetPrompt, tool: "triage_report", args: `{}`}, func(s *session.Session) (*session.Exchange, error) {
		return s.GetPrompt(context.Background(), "triage_report", map[string]string{})
	})
	golden.RequireEqual(t, out)
	if !strings.Contains(out, "JSON-RPC ERROR -32602") {
		t.Errorf("prompts/get without the required customer does not show the -32602 error:\n%s", out)
	}
}

// TestFlowResourcesAndPrompts drives the whole TUI at 80×24: list and read
// the demo's resource, read a wrong URI, get the prompt without and with
// its required argument. Every request's frames land in the frames pane.
func TestFlowResourcesAndPrompts(t *testing.T) {
	cfg := demoConfig(1)
	f := start(t, cfg, 80, 24)
	f.waitFor("● co", "1 Tools (6)")
	f.keys("5")
	f.waitFor("5 Resources (1)", "demo://readme", "text/plain")
	f.keys("enter")
	f.waitFor("call 1/1 #1 ✓ ok", "resources/read demo://readme", "contents: 1 item", "jig-demo: a fixed book of 86 orders")
	f.keys("5", "u", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "nope", "enter")
	f.waitFor("call 2/2", "JSON-RPC ERROR -32602")

	f.keys("6")
	f.waitFor("6 Prompts (1)", "triage_report", "customer*")
	f.keys("enter")
	f.waitFor("triage_report · prompt arguments", "EDITING")
	f.keys("down", "ctrl+k", "ctrl+s")
	f.waitFor("ctrl+s again")
	f.keys("ctrl+s")
	f.waitFor("call 3/3 #3  JSON-RPC ERROR -32602", "prompts/get triage_report", "JSON-RPC ERROR -32602", "sent despite 1 argument violation")
	f.keys("2", "enter", "ctrl+r", "down", "end", "left", "left", "Acme Corp", "ctrl+s")
	f.waitFor("call 4/4", "messages: 1", "── 0 · user")
	f.keys("4")
	f.waitFor("resources/read", "prompts/get")

	log := f.p.Model.cfg.Reader
	methods := map[string]int{}
	for i := 0; i < log.Len(); i++ {
		methods[log.Frame(i).Method]++
	}
	for _, m := range []string{"resources/list", "resources/read", "prompts/list", "prompts/get"} {
		if methods[m] == 0 {
			t.Errorf("no %s frame in the frames pane's log (methods seen: %v)", m, methods)
		}
	}
	if methods["resources/read"] != 4 || methods["prompts/get"] != 4 {
		t.Errorf("the log has %d resources/read and %d prompts/get frames, want 4 each (two requests, two replies)", methods["resources/read"], methods["prompts/get"])
	}
}

// TestFlowPaginatedResources lists server-everything's 100 resources,
// served 10 to a page, and reads one: every page is listed.
func TestFlowPaginatedResources(t *testing.T) {
	cfg := Config{Options: &session.Options{Target: session.Target{Transport: session.TransportStdio, Command: peers.Node(t, peers.EverythingOld, "stdio")}}}
	f := start(t, cfg, 120, 35)
	f.waitFor("example-servers/everything") // the handshake is done
	f.keys("5")
	f.waitFor("100 resources")
	f.keys("G", "enter")
	f.waitFor("resources/read test://static/resource/100", "✓ result")
}

// TestFlowResourcesListChanged: server-everything's gzip-file-as-resource
// tool adds a resource and sends notifications/resources/list_changed; the
// resources pane, listed already, is listed again and counts it.
func TestFlowResourcesListChanged(t *testing.T) {
	f := start(t, everything(t), 120, 35)
	f.waitFor("mcp-servers/everything")
	f.keys("5")
	f.waitFor("5 Resources (7)") // the pinned peer's static documents
	s := f.p.Model.session()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := s.CallTool(ctx, "gzip-file-as-resource", []byte(`{"name":"hello.gz","data":"data:text/plain,hello"}`)); err != nil {
		t.Fatalf("tools/call gzip-file-as-resource: %v", err)
	}
	f.waitFor("5 Resources (8)", "8 resources")
}

// TestResourceTemplatesPane: t shows server-everything's resource
// templates (asking for them the first time); enter puts the selected
// uriTemplate in the URI field, and only the URI the user filled in is read.
func TestResourceTemplatesPane(t *testing.T) {
	s, err := session.Open(context.Background(), *everything(t).Options)
	if err != nil {
		t.Fatalf("open server-everything: %v", err)
	}
	defer s.Close()
	raw, err := s.ListResourceTemplates(context.Background())
	if err != nil {
		t.Fatalf("resources/templates/list on server-everything: %v", err)
	}
	p := newResourcesPane(testEnv(nil))
	p.setSize(60, 20)
	p.setFocus(true)
	if !hasHelp(helpOf(p), "t", "resource templates") {
		t.Errorf("the resources' help lacks t (resource templates): %v", helpOf(p))
	}
	keys(p, "t")
	if len(p.out.msgs) != 1 || p.out.msgs[0] != (listTemplatesMsg{}) {
		t.Fatalf("t queued %v, want listTemplatesMsg{} (the templates were never listed)", p.out.msgs)
	}
	p.templates.listed = true
	p.setTemplates(raw)
	golden.RequireEqual(t, screen(p.view()))
	if !hasHelp(helpOf(p), "t", "back to the resources") {
		t.Errorf("the templates' help lacks t (back to the resources): %v", helpOf(p))
	}

	keys(p, "down")
	keys(p, "enter")
	if !p.typing() || p.uri.value() != "demo://resource/dynamic/blob/{resourceId}" {
		t.Fatalf("enter on the second template: typing %v, URI field %q; want the field open with its uriTemplate", p.typing(), p.uri.value())
	}
	if len(p.out.msgs) != 1 {
		t.Fatalf("enter on a template queued %v: nothing may be sent before the URI is filled in", p.out.msgs[1:])
	}
	keys(p, append(backspaces(len("{resourceId}")), "7")...)
	keys(p, "enter")
	if len(p.out.msgs) != 2 || p.out.msgs[1] != (readResourceMsg{uri: "demo://resource/dynamic/blob/7"}) {
		t.Errorf("filling in the template and enter queued %v, want readResourceMsg{demo://resource/dynamic/blob/7}", p.out.msgs[1:])
	}
	keys(p, "t")
	if p.showTemplates || len(p.out.msgs) != 2 {
		t.Errorf("t again: showTemplates %v, queued %v; want the resources back and nothing sent", p.showTemplates, p.out.msgs[2:])
	}
}

// TestFlowResourceTemplates: in the whole TUI, t lists the templates,
// enter prefills one, and the filled-in URI is read.
func TestFlowResourceTemplates(t *testing.T) {
	f := start(t, everything(t), 120, 35)
	f.waitFor("mcp-servers/everything")
	f.keys("5", "t")
	f.waitFor("2 resource templates", "Dynamic Text Resource")
	f.keys("enter")
	f.keys(backspaces(len("{resourceId}"))...)
	f.keys("1", "enter")
	f.waitFor("resources/read demo://resource/dynamic/text/1", "✓ result")
}

func backspaces(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "backspace"
	}
	return out
}

func hasHelp(bindings []key.Binding, keys, desc string) bool {
	for _, b := range bindings {
		if h := b.Help(); b.Enabled() && h.Key == keys && h.Desc == desc {
			return true
		}
	}
	return false
}
