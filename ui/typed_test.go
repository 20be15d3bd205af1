package ui

import (
	"context"
	"strings"
	"testing"
)

// Inputs are sent as typed. In the resources pane, u opened the URI field
// with the selected URI in it and the cursor after it, so typing a URI
// appended to it: "demo://readmedemo://nope" was sent.
func TestResourcesUReadsTheTypedURI(t *testing.T) {
	s := demoSession(t)
	raw, err := s.ListResources(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := newResourcesPane(testEnv(nil))
	p.setSize(60, 20)
	p.setFocus(true)
	p.listed = true
	p.setResources(raw)
	keys(p, "u", "demo://nope", "enter")
	if len(p.out.msgs) != 1 || p.out.msgs[0] != (readResourceMsg{uri: "demo://nope"}) {
		t.Errorf("u, demo://nope, enter queued %v, want readResourceMsg{demo://nope}, exactly as typed", p.out.msgs)
	}
}

// A prompt's required argument prefilled as "" is jig's placeholder, not
// the user's value: it showed "✓ every required argument is there" and went
// out on the first ctrl+s. It takes a second ctrl+s, like any problem.
func TestRequiredArgumentLeftAtThePrefill(t *testing.T) {
	s := demoSession(t)
	raw, err := s.ListPrompts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pp := newPromptsPane(testEnv(nil))
	pp.listed = true
	pp.setPrompts(raw)
	tr := pp.prompt("triage_report")
	tools := demoTools(t)
	search := toolNamed(t, tools, "search_orders")
	for _, tc := range []struct {
		name string
		load func(e *editorPane)
		want string
	}{
		{"prompt", func(e *editorPane) { e.loadPrompt(tr.Name, tr.schema(), tr.prefill(), tr.prefill(), 0) }, "customer"},
		{"tool", func(e *editorPane) { e.load(search.Name, search.Input, prefill(search.Input), 0) }, "customer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := []*call{}
			e := newEditorPane(envWith(calls...))
			e.setSize(70, 16)
			tc.load(e)
			if v := screen(e.view()); strings.Contains(v, "✓") || !strings.Contains(v, tc.want+" is required and still empty") {
				t.Errorf("the prefilled arguments are shown as\n%s\nwant them flagged: %s is required and still empty", v, tc.want)
			}
			keys(e, "ctrl+s")
			for _, m := range e.out.msgs {
				switch m.(type) {
				case getPromptMsg, sendCallMsg:
					t.Fatalf("the first ctrl+s sent jig's placeholder as the user's argument: %#v", m)
				}
			}
			keys(e, "ctrl+s")
			if n := len(e.out.msgs); n != 2 {
				t.Fatalf("the second ctrl+s queued %d messages in all, want the confirmation and the call", n)
			}
		})
	}
}
