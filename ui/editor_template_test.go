package ui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The call template holds the required arguments only: an optional
// "limit": 10 would make the first call differ from a transcript's.
func TestCallTemplateIsRequiredOnly(t *testing.T) {
	tool := toolNamed(t, demoTools(t), "search_orders")
	if got, want := callTemplate(tool.Input), "{\n  \"customer\": \"\"\n}"; got != want {
		t.Errorf("callTemplate(search_orders) =\n%s\nwant\n%s", got, want)
	}
	var names []string
	for _, o := range optionalArgs(tool.Input) {
		names = append(names, o.name+"="+o.value)
	}
	if got := strings.Join(names, " "); got != `since="" limit=10` {
		t.Errorf("optional arguments %s, want since=\"\" limit=10", got)
	}
	if got := callTemplate(json.RawMessage(`{"type":"object","properties":{"d":{"type":"number","default":10}}}`)); got != "{}" {
		t.Errorf("a schema of optional arguments only starts from %q, want {}", got)
	}
}

// A paste over the untouched template replaces it; over edited text it is
// inserted at the cursor; ctrl+l clears; o adds the next optional argument
// after what is typed, byte for byte.
func TestEditorPasteClearAndOptional(t *testing.T) {
	tool := toolNamed(t, demoTools(t), "search_orders")
	e := newTestEditor(t, callTemplate(tool.Input))
	if !strings.Contains(screen(e.view()), "optional: since, limit=10 (o adds)") {
		t.Errorf("the optional arguments are not listed:\n%s", screen(e.view()))
	}
	transcript := `{"customer":"Acme Corp","since":"last month"}`
	keys(e, "enter")
	e.update(tea.PasteMsg{Content: transcript})
	if e.value() != transcript {
		t.Errorf("a paste over the template left %q, want exactly the paste %q", e.value(), transcript)
	}
	e.update(tea.PasteMsg{Content: " "})
	if e.value() != transcript+" " {
		t.Errorf("a paste over edited text gave %q, want it inserted at the cursor", e.value())
	}
	keys(e, "ctrl+l")
	if e.value() != "" || !e.editing {
		t.Errorf("ctrl+l left %q (editing %v), want empty and editing", e.value(), e.editing)
	}
	e.update(tea.PasteMsg{Content: transcript})
	keys(e, "esc", "o")
	want := "{\"customer\":\"Acme Corp\",\"since\":\"last month\",\n  \"limit\": 10\n}"
	if e.value() != want {
		t.Errorf("o added\n%s\nwant\n%s", e.value(), want)
	}
	if p := checkJSON(e.value()); p != nil {
		t.Errorf("after o the arguments are not JSON: %v", p)
	}
	keys(e, "o")
	if e.value() != want {
		t.Errorf("o with nothing left to add changed the text to %q", e.value())
	}
	if text, ok := addMember("{}", "a", "1"); !ok || text != "{\n  \"a\": 1\n}" {
		t.Errorf("addMember({}) = %q, %v", text, ok)
	}
	if _, ok := addMember(`{"a":`, "b", "1"); ok {
		t.Errorf("addMember added to text that is not JSON")
	}
}

// A call sent leaves editing mode, as every other editor's send does: the
// pane keys typed next (3, m, [ c) go to the panes, not into the JSON. A
// new user's "3" after ctrl+s was typed into the arguments. enter edits
// again with the cursor where it was.
func TestFlowSendLeavesEditing(t *testing.T) {
	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("● connected", "search_orders")
	f.keys("G", "enter")
	f.waitFor("EDITING")
	f.keys("down", "end", "left", "Acme Corp", "ctrl+s")
	f.waitFor("call 1/1", "✓ ok", "enter edit · ctrl+s send") // the editor's head, not editing
	f.keys("3")
	f.waitFor("─▸ 3 Result")
	f.keys("2", "enter")
	f.waitFor("EDITING")
	f.keys("!")
	f.waitFor(`"customer": "Acme Corp!"`)
	if s := f.p.screen(); strings.Contains(s, "Acme Corp3") || strings.Contains(s, "invalid JSON") {
		t.Errorf("the keys typed after ctrl+s went into the arguments:\n%s", s)
	}
}

// At 120 columns the editor is 40 cells wide: its head read
// "search_orde… enter to edit · ctrl+s send". The description goes first,
// the tool's name last.
func TestEditorHeadKeepsTheToolName(t *testing.T) {
	e := newTestEditor(t, "{}")
	for _, c := range []struct {
		w    int
		want string
	}{{40, "enter edit · ctrl+s send"}, {30, "ctrl+s send"}, {60, "search_orders · arguments "}, {100, "search_orders · arguments (JSON, sent exactly as typed)"}} {
		e.setSize(c.w, 16)
		if head := screen(e.head()); !strings.Contains(head, c.want) || !strings.HasPrefix(head, "search_orders ") || strings.Contains(head, "…") {
			t.Errorf("at %d cells the head reads %q, want %q in it", c.w, head, c.want)
		}
	}
}
