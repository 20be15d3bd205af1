package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/session/peers"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// everything is server-everything over stdio (PEERS.md), with the
// capabilities that make it ask for sampling and elicitation. A missing
// peer skips locally and fails when JIG_REQUIRE_PEERS=1.
func everything(t *testing.T) Config {
	t.Helper()
	return Config{Options: &session.Options{
		Target:       session.Target{Transport: session.TransportStdio, Command: peers.Node(t, peers.Everything, "stdio")},
		Capabilities: []string{"roots", "sampling", "elicitation"},
		Log:          frames.NewLog(nil),
	}}
}

// pick filters the tools to name and opens it in the editor, prefilled.
func (f *flow) pick(name string) {
	f.t.Helper()
	f.waitFor("mcp-servers/everything") // the server's name: the handshake is done
	f.keys("1", "/", name, "enter")
	f.waitFor(name + " —") // its details: capability-gated tools arrive with a re-listing
	f.keys("enter")
	f.waitFor("EDITING")
}

// waitLog waits until the session's frames satisfy ok.
func (f *flow) waitLog(log *frames.Log, what string, ok func() bool) {
	f.t.Helper()
	teatest.WaitFor(screenOnFailure{f.t, f.p, []string{what}}, f.tm.Output(), func([]byte) bool { return ok() },
		teatest.WithDuration(screenWait), teatest.WithCheckInterval(10*time.Millisecond))
}

func TestFlowSamplingAnsweredInTheDialog(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 160, 40)
	f.pick("trigger-sampling-request")
	f.keys("down", "end", "left", "What is six times seven?", "ctrl+s")
	f.waitFor("The server asks for a model reply (sampling/createMessage)", "system: You are a helpful test server.",
		"while call #1 trigger-sampling-request is open", "jig placeholder reply")
	f.keys("ctrl+k", "Forty-two", "ctrl+s")
	f.waitFor(`"model": "jig-human"`, `"text": "Forty-two"`, "✓ ok")
	// The nested exchange is in the frames, in order.
	var order []string
	for _, fr := range cfg.Options.Log.Frames() {
		if fr.Kind.IsMessage() && (fr.Method == "tools/call" || fr.Method == "sampling/createMessage") {
			order = append(order, fr.Dir.Arrow()+fr.Method+":"+string(fr.Kind))
		}
	}
	want := "→tools/call:request ←sampling/createMessage:request →sampling/createMessage:result ←tools/call:result"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("the frames are %s\nwant %s", got, want)
	}
}

func TestFlowSamplingRejected(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 80, 24)
	f.pick("trigger-sampling-request")
	f.keys("down", "end", "left", "hello", "ctrl+s")
	f.waitFor("sampling/createMessage id=")
	f.keys("ctrl+x")
	f.waitFor("MCP error -1: jig: the user rejected the sampling request")
	f.waitLog(cfg.Options.Log, "the rejection as a JSON-RPC error", func() bool {
		for _, fr := range cfg.Options.Log.Frames() {
			if fr.Dir == frames.ClientToServer && fr.Method == "sampling/createMessage" && fr.Kind == frames.KindError && fr.Code == -1 {
				return true
			}
		}
		return false
	})
}

func TestFlowElicitationAccepted(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 160, 40)
	f.pick("trigger-elicitation-request")
	f.keys("ctrl+s")
	f.waitFor("The server asks you for input (elicitation/create)", "Please provide inputs", "the requested schema as a form")
	// The raw JSON is still there: ctrl+t.
	f.keys("ctrl+t")
	f.waitFor(`"name": ""`, "✓ valid against the requested schema", "ctrl+t back to the form")
	// Hidden, the request keeps waiting; ctrl+o brings it back while typing.
	f.keys("esc")
	f.waitFor("the server waits for your answer (1)")
	f.keys("ctrl+o")
	f.waitFor("Please provide inputs")
	f.keys("down", "end", "left", "left", "Ada Lovelace", "ctrl+s")
	f.waitFor("Name: Ada Lovelace", "✓ ok")
}

// TestFlowElicitationForm: the requested schema is a form — fields by
// type, required ones marked, defaults filled in, a boolean and an enum as
// choices — validated before accept: a value of the wrong type is named,
// and the server gets the content the form says.
func TestFlowElicitationForm(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 160, 40)
	f.pick("trigger-elicitation-request")
	f.keys("ctrl+s")
	f.waitFor("the requested schema as a form", "▶ ● name", "string · required", "It was a dark and stormy night.", `["Monica"]`)
	f.waitFor("missing property 'name'")
	// An unset checkbox reads unticked: space ticks it, then toggles.
	f.keys("Ada Lovelace", "tab", " ")
	f.waitFor("false  [true]", "✓ valid against the requested schema")
	f.keys(" ")
	f.waitFor("[false]  true")
	f.keys(" ")
	f.waitFor("false  [true]")
	f.keys("tab", "tab", "tab", "tab", "tab")
	f.waitFor("▶ ○ integer", "integer · ≥ 1 · ≤ 100")
	f.keys("backspace", "backspace", "seven")
	f.waitFor("/integer: got string, want integer")
	f.keys("ctrl+w", "7", "ctrl+s")
	f.waitFor("Name: Ada Lovelace", "Agreed to terms: true", "Favorite Integer: 7", "✓ ok")
}

func TestFlowProgressAndCancel(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 160, 40)
	f.pick("trigger-long-running-operation")
	// Both arguments are optional: alt+o adds each with its default.
	f.keys("alt+o", "backspace", "backspace", "2", "alt+o", "backspace", "4")
	f.keys("ctrl+t")
	f.waitFor("+ _meta.progressToken")
	f.keys("ctrl+s")
	f.waitFor("progress 1/4 [")
	f.keys("ctrl+x")
	f.waitFor("cancelled by you after", "⊘ CANCELLED")
	log := cfg.Options.Log
	var req *frames.Frame
	for _, fr := range log.Frames() {
		if fr.Method == "tools/call" && fr.Kind == frames.KindRequest {
			req = fr
		}
	}
	if req == nil || !strings.Contains(string(req.Raw), `"progressToken":"jig-progress-`) {
		t.Fatalf("the call was not sent with a progress token: %v", req)
	}
	// jig sent notifications/cancelled for the call; progress goes on, no response comes.
	f.waitLog(log, "notifications/cancelled, then more progress", func() bool {
		cancelled := false
		for _, fr := range log.Frames() {
			if fr.Dir == frames.ClientToServer && fr.Method == "notifications/cancelled" {
				var n struct {
					Params struct {
						RequestID json.RawMessage `json:"requestId"`
					} `json:"params"`
				}
				json.Unmarshal(fr.Raw, &n)
				cancelled = string(n.Params.RequestID) == req.ID
			}
			if cancelled && fr.Method == "notifications/progress" {
				return true
			}
		}
		return false
	})
	if j := log.Partner(int(req.Seq - 1)); j >= 0 {
		t.Errorf("the cancelled call got a response: %s", log.Frame(j).Raw)
	}
}

func TestFlowLogLevel(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 160, 40)
	f.waitFor("mcp-servers/everything")
	f.keys("4", "L")
	f.waitFor("Server log level (logging/setLevel)", "▶ debug")
	f.keys("down", "down", "down", "enter")
	f.waitFor("4 Frames", "· log ≥ warning")
	f.waitLog(cfg.Options.Log, "logging/setLevel warning", func() bool {
		for _, fr := range cfg.Options.Log.Frames() {
			if fr.Method == "logging/setLevel" && fr.Kind == frames.KindRequest && strings.Contains(string(fr.Raw), `"level":"warning"`) {
				return true
			}
		}
		return false
	})
}

func TestFlowLogLevelNotInTheStatelessEra(t *testing.T) {
	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("● connected", "search_orders")
	f.keys("4", "L")
	// Whole, with its next step, in the 120-column status line.
	f.waitFor("logging/setLevel is not in protocol 2026-07-28 (its era removed it); --protocol-version 2025-11-25 has it")
}

// TestAskDialogChecksElicitedContent drives the dialog alone: the content
// is checked against the requested schema as it is typed, a violation needs
// a second ctrl+s, and the answer names the request it answers.
func TestAskDialogChecksElicitedContent(t *testing.T) {
	d := newAskDialog(newStyles(true), &outbox{}, nil)
	d.setSize(80, 20)
	q := &serverAsk{id: 7, from: session.ServerRequest{Method: "elicitation/create", ID: "3"},
		elicit: &mcp.ElicitParams{Message: "Who are you?", RequestedSchema: map[string]any{
			"type": "object", "required": []any{"name"},
			"properties": map[string]any{"name": map[string]any{"type": "string"}, "age": map[string]any{"type": "integer", "minimum": 0, "default": 1}},
		}}}
	d.open(q, "call #1 whoami")
	keys(d, "ctrl+t") // the content as JSON; TestFlowElicitationForm drives the form
	view := screen(d.view())
	for _, want := range []string{"elicitation/create id=3 · while call #1 whoami is open", "Who are you?", `"name": ""`, `"age": 1`, "✓ valid"} {
		if !strings.Contains(view, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, view)
		}
	}
	d.edit.setValue(`{"name": "Ada", "age": -3`)
	d.edit.cursorEnd()
	keys(d, "}")
	if !strings.Contains(screen(d.view()), "/age: minimum: got -3, want 0") {
		t.Errorf("the violation is not listed:\n%s", screen(d.view()))
	}
	keys(d, "ctrl+s")
	if len(d.out.msgs) != 1 {
		t.Fatalf("the first ctrl+s on violating content queued %v, want one status line", d.out.msgs)
	}
	if _, ok := d.out.msgs[0].(statusMsg); !ok {
		t.Fatalf("the first ctrl+s queued %#v, want a statusMsg asking to confirm", d.out.msgs[0])
	}
	keys(d, "ctrl+s")
	ans, ok := d.out.msgs[1].(answerAskMsg)
	if !ok || ans.id != 7 || ans.answer.elicit == nil || ans.answer.elicit.Action != "accept" || ans.answer.elicit.Content["name"] != "Ada" {
		t.Fatalf("the second ctrl+s queued %#v, want an accept for request 7 with the content", d.out.msgs[1])
	}
	keys(d, "ctrl+g")
	if ans := d.out.msgs[2].(answerAskMsg); ans.answer.elicit.Action != "cancel" {
		t.Errorf("ctrl+g answered %q, want cancel", ans.answer.elicit.Action)
	}
}

func TestNotificationGist(t *testing.T) {
	tests := []struct{ method, body, want string }{
		{"notifications/message", `{"method":"notifications/message","params":{"level":"warning","logger":"db","data":"slow query"}}`, "WARNING [db]: slow query"},
		{"notifications/message", `{"method":"notifications/message","params":{"level":"info","data":{"n":1}}}`, `INFO: {"n":1}`},
		{"notifications/progress", `{"method":"notifications/progress","params":{"progress":2,"total":4,"progressToken":"jig-progress-1"}}`, `progress 2/4 token="jig-progress-1"`},
		{"notifications/cancelled", `{"method":"notifications/cancelled","params":{"requestId":9,"reason":"context canceled"}}`, "cancelled requestId=9 (context canceled)"},
	}
	for _, tt := range tests {
		if got := notificationGist(tt.method, []byte(tt.body)); got != tt.want {
			t.Errorf("notificationGist(%s) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestFlowPromptArgumentCompletion: ctrl+space in a prompt's argument asks
// the server (completion/complete) and types in the one value it offers;
// the arguments typed so far go with it as context.
func TestFlowPromptArgumentCompletion(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 120, 35)
	f.waitFor("mcp-servers/everything")
	f.keys("6")
	f.waitFor("completable-prompt")
	f.keys("j", "j", "enter")
	f.waitFor("completable-prompt", `"department": ""`, "EDITING")
	f.keys("down", "end", "left", "left", "E")
	f.tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl})
	f.waitFor(`"department": "Engineering"`, `department="E" → Engineering`)
	f.keys("down", "end", "left")
	f.tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl})
	f.waitFor(`completable-prompt name="" → `)
}

// TestFlowResourceSubscription: s on a resource sends resources/subscribe;
// each notifications/resources/updated the server then sends is said in
// the status line; s again unsubscribes.
func TestFlowResourceSubscription(t *testing.T) {
	cfg := everything(t)
	cfg.Tool = "toggle-subscriber-updates"
	f := start(t, cfg, 120, 35)
	f.waitFor("▸ 2 Arguments", "toggle-subs", "✓ valid against the input schema") // the status line's "loaded" may give way to a re-listing's at once
	f.keys("ctrl+s")
	f.waitFor("call 1/1", "✓ ok")
	f.keys("5")
	f.waitFor("7 resources")
	f.keys("s")
	f.waitFor("subscribed to demo://resource/static/document/architecture.md")
	f.waitFor("7 resources · ◉ 1 subscribed", "◉ demo://")
	f.waitFor("changed (notifications/resources/updated)")
	f.keys("s")
	f.waitFor("unsubscribed from demo://resource/static/document/architecture.md")
	teatest.WaitFor(t, f.tm.Output(), func([]byte) bool {
		s := f.p.screen()
		return strings.Contains(s, "7 resources") && !strings.Contains(s, "◉")
	}, teatest.WithDuration(screenWait), teatest.WithCheckInterval(10*time.Millisecond))
}

// TestFlowRootsEdited: F edits the roots jig declares on the live session;
// the server is told, asks roots/list again and gets the new roots. A line
// that is not a URI is named and nothing is set.
func TestFlowRootsEdited(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 200, 50) // the header's roots fit
	f.waitFor("mcp-servers/everything", "jig: roots (none)")
	f.keys("F")
	f.waitFor("Roots jig declares (roots/list)")
	f.keys("not a uri", "ctrl+s")
	f.waitFor(`roots line 1: "not" is not a URI with a scheme`)
	f.keys("ctrl+u", "file:///tmp/jig-project jig project", "ctrl+s")
	// The header, not the status line ("jig now declares 1 root"), which
	// server-everything's list_changed re-listings overwrite at any moment.
	f.waitFor("jig: roots (jig-project)")
	teatest.WaitFor(t, f.tm.Output(), func([]byte) bool {
		log := cfg.Options.Log
		for i := log.Len() - 1; i >= 0; i-- {
			if fr := log.Frame(i); fr.Dir == frames.ClientToServer && fr.Kind == frames.KindResult && strings.Contains(string(fr.Raw), `"uri":"file:///tmp/jig-project"`) {
				return true
			}
		}
		return false
	}, teatest.WithDuration(screenWait), teatest.WithCheckInterval(10*time.Millisecond))
}

// TestFlowTemplateVariableCompletion: ctrl+space in the URI field filled
// from a resource template asks the server (completion/complete, a
// ref/resource naming the uriTemplate) for the variable at the cursor;
// the {placeholder} left as it was counts as empty.
func TestFlowTemplateVariableCompletion(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 120, 35)
	f.waitFor("mcp-servers/everything")
	f.keys("5", "t")
	f.waitFor("2 resource templates", "Dynamic Text Resource", "▸ 5 Templates (2) ") // the title counts what is shown
	f.keys("enter")
	f.waitFor("uri: ")
	// The status line is not waited for: server-everything's list_changed
	// re-listings overwrite it at any moment. The frames say what was asked.
	asked := func(value string) {
		t.Helper()
		teatest.WaitFor(t, f.tm.Output(), func([]byte) bool {
			log := cfg.Options.Log
			for i := log.Len() - 1; i >= 0; i-- {
				fr := log.Frame(i)
				if fr.Dir == frames.ClientToServer && fr.Method == "completion/complete" &&
					strings.Contains(string(fr.Raw), `"ref":{"type":"ref/resource","uri":"demo://resource/dynamic/text/{resourceId}"}`) &&
					strings.Contains(string(fr.Raw), `"argument":{"name":"resourceId","value":"`+value+`"}`) {
					return log.Partner(i) >= 0
				}
			}
			return false
		}, teatest.WithDuration(screenWait), teatest.WithCheckInterval(10*time.Millisecond))
	}
	f.tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl})
	asked("") // the {resourceId} left as it was is empty
	for range len("{resourceId}") {
		f.keys("backspace")
	}
	f.keys("7")
	f.tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl})
	asked("7")
	f.waitFor("uri: esource/dynamic/text/7")
	f.keys("enter")
	f.waitFor("call #1 resources/read demo://resource/dynamic/text/7: ✓ ok", "Resource 7: This is a plaintext")
}

// templateVarAt finds the variable a URI typed from a template ends in,
// what is typed of it and the variables before it; RFC 6570 operators
// lead their expansion; a URI of another template is not matched.
func TestTemplateVarAt(t *testing.T) {
	for _, c := range []struct {
		tpl, typed, name, partial string
		erase                     int
		given                     map[string]string
	}{
		{"demo://r/{id}", "demo://r/{id}", "id", "", 4, map[string]string{}},
		{"demo://r/{id}", "demo://r/7", "id", "7", 0, map[string]string{}},
		{"demo://r/{id}", "demo://r/", "id", "", 0, map[string]string{}},
		{"file:///{dir}/{name}", "file:///src/ma", "name", "ma", 0, map[string]string{"dir": "src"}},
		{"file:///{dir}/{name}", "file:///sr", "dir", "sr", 0, map[string]string{}},
		{"file:///{dir}/{name}", "file:///{dir}/x", "name", "x", 0, map[string]string{}},
		{"search{?q,lang}", "search?q=go", "q", "go", 0, map[string]string{}},
		{"repo://{owner}/{repo}{/path*}", "repo://me/jig/ui", "path", "ui", 0, map[string]string{"owner": "me", "repo": "jig"}},
		{"users://{id:3}", "users://{id:3}", "id", "", 6, map[string]string{}},
	} {
		name, partial, erase, given, ok := templateVarAt(c.tpl, c.typed)
		if !ok || name != c.name || partial != c.partial || erase != c.erase || fmt.Sprint(given) != fmt.Sprint(c.given) {
			t.Errorf("templateVarAt(%q, %q) = %q %q %d %v %v, want %q %q %d %v", c.tpl, c.typed, name, partial, erase, given, ok, c.name, c.partial, c.erase, c.given)
		}
	}
	for _, typed := range []string{"other://r/7", "demo://x/7", ""} {
		if name, _, _, _, ok := templateVarAt("demo://r/{id}", typed); ok {
			t.Errorf("templateVarAt(demo://r/{id}, %q) matched %q", typed, name)
		}
	}
}

// The server's values are typed into the URI field: in place of a
// variable's {placeholder}, or after what was typed of it; an answer to a
// URI that moved on since is only said.
func TestTemplateCompletionTypesIn(t *testing.T) {
	p := newResourcesPane(testEnv(nil))
	p.setSize(60, 20)
	for _, c := range []struct {
		uri, partial string
		erase        int
		values       []string
		want         string
	}{
		{"demo://r/{id}", "", 4, []string{"ord-1042", "ord-1043"}, "demo://r/ord-104"},
		{"demo://r/or", "or", 0, []string{"ord-1042"}, "demo://r/ord-1042"},
		{"demo://r/x", "x", 0, []string{"ord-1042"}, "demo://r/x"}, // nothing shared with what was typed
	} {
		p.editURI(c.uri)
		msg := completedMsg{completeMsg: completeMsg{template: "demo://r/{id}", arg: "id", partial: c.partial, text: c.uri, col: len([]rune(c.uri)), erase: c.erase}, values: c.values}
		p.completed(msg)
		if got := p.uri.value(); got != c.want {
			t.Errorf("%q with %v: the field reads %q, want %q", c.uri, c.values, got, c.want)
		}
	}
	p.editURI("demo://r/7")
	p.completed(completedMsg{completeMsg: completeMsg{template: "demo://r/{id}", arg: "id", partial: "", text: "demo://r/", col: 9}, values: []string{"ord-1"}})
	if got := p.uri.value(); got != "demo://r/7" {
		t.Errorf("a late answer typed into a URI that moved on: %q", got)
	}
}
