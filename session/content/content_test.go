package content_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/content"
	"github.com/mcpjig/jig/session/peers"
)

// lines is a Writer that keeps the rendering as text, one line each, bodies
// indented by four spaces (as the CLI prints them).
type lines struct{ b strings.Builder }

func (l *lines) Line(r content.Role, text string) { fmt.Fprintln(&l.b, text) }
func (l *lines) Body(b []byte) {
	for _, s := range strings.Split(string(b), "\n") {
		fmt.Fprintln(&l.b, "    "+s)
	}
}

// Every kind of block server-everything returns is decoded and drawn by
// its type, from the results as they crossed the wire.
func TestServerEverythingContentBlocks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := session.Open(ctx, session.Options{Target: session.Target{Transport: session.TransportStdio,
		Command: peers.Node(t, peers.Everything, "stdio")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	raw, _, err := s.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	output := func(name string) json.RawMessage {
		for _, r := range raw {
			var d struct {
				Name   string          `json:"name"`
				Output json.RawMessage `json:"outputSchema"`
			}
			if json.Unmarshal(r, &d) == nil && d.Name == name {
				return d.Output
			}
		}
		return nil
	}
	for _, tc := range []struct {
		tool, args string
		want       []string
	}{
		{"get-tiny-image", `{}`, []string{"content: 3 blocks", "[1] image · image/png · ", "decoded (", "[0] text · "}},
		{"get-resource-links", `{"count":2}`, []string{"[1] resource link", "    uri  demo://resource/"}},
		{"get-resource-reference", `{"resourceId":1}`, []string{"[1] embedded resource demo://resource/dynamic/text/1 · text/plain · text ", "· text "}},
		{"get-structured-content", `{"location":"Chicago"}`, []string{"structuredContent", `"temperature"`, "✓ structuredContent matches the tool's outputSchema"}},
		{"get-sum", `{"a":"x"}`, []string{"[0] text · "}},
	} {
		ex, err := s.CallTool(ctx, tc.tool, json.RawMessage(tc.args))
		if err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		var out lines
		content.RenderTool(&out, ex.Result, output(tc.tool))
		for _, w := range tc.want {
			if !strings.Contains(out.b.String(), w) {
				t.Errorf("%s %s: the rendering lacks %q:\n%s", tc.tool, tc.args, w, out.b.String())
			}
		}
	}
}

// A result that is not the object its method answers with is said to be
// so, and shown as received.
func TestNotAResult(t *testing.T) {
	var out lines
	content.RenderTool(&out, json.RawMessage(`[1,2]`), nil)
	if got := out.b.String(); !strings.Contains(got, "the result is not a CallToolResult object") || !strings.Contains(got, "    [\n      1,") {
		t.Errorf("a result that is an array:\n%s", got)
	}
}
