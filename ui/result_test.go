package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// demoCall makes one tools/call on the demo server and draws it in the
// result pane, as the TUI would after the call came back.
func demoCall(t *testing.T, tool, args string) string {
	t.Helper()
	s := demoSession(t)
	ex, err := s.CallTool(context.Background(), tool, json.RawMessage(args))
	c := &call{id: 1, tool: tool, args: args}
	c.finish(ex, err)
	calls := []*call{c}
	p := newResultPane(envWith(calls...))
	p.setSize(80, 30)
	p.show(c.id)
	return screen(p.view())
}

// A text block that only looks like JSON is shown as the text it is:
// "[INFO] server started on port 8080" was labelled "JSON, pretty-printed"
// and drawn as "[ INFO ]serverstartedonport8080".
func TestResultTextThatLooksLikeJSONIsText(t *testing.T) {
	for _, text := range []string{"[INFO] server started on port 8080", "{placeholder} not filled in", "[1/3] done, [2/3] next", "42"} {
		out := demoCall(t, "echo", `{"text":`+quote(text)+`}`)
		if !strings.Contains(out, text) {
			t.Errorf("the text block %q is not shown as sent:\n%s", text, out)
		}
		if strings.Contains(out, "JSON, pretty-printed") {
			t.Errorf("the text block %q is labelled as JSON:\n%s", text, out)
		}
	}
	out := demoCall(t, "echo", `{"text":"{\"orders\":[1,2]}"}`)
	if !strings.Contains(out, "text (JSON, pretty-printed)") || !strings.Contains(out, `  "orders": [`) {
		t.Errorf("a text block holding a JSON object is not pretty-printed:\n%s", out)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
