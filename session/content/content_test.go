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

// TestToolErrorWhat: a tool error says what the result shows — the server
// answered isError: true — and an SDK's argument-validation refusal is
// named as one; nothing claims the tool ran.
func TestToolErrorWhat(t *testing.T) {
	for _, c := range []struct{ result, want, not string }{
		{`{"content":[{"type":"text","text":"validating \"arguments\": validating root: required: missing properties: [\"a\"]"}],"isError":true}`, "argument-validation refusal", "ran"},
		{`{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool get-sum"}],"isError":true}`, "argument-validation refusal", "ran"},
		{`{"content":[{"type":"text","text":"customer not found"}],"isError":true}`, "the server answered isError: true", "refusal"},
	} {
		got := content.ToolErrorWhat(json.RawMessage(c.result))
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("ToolErrorWhat(%s) = %q, want %q and not %q", c.result, got, c.want, c.not)
		}
	}
}

// TestToolErrorWhatOnRealRefusals: the demo server (the Go SDK) and
// server-everything (the TypeScript SDK) refuse wrong arguments with an
// isError result; both are named argument-validation refusals.
func TestToolErrorWhatOnRealRefusals(t *testing.T) {
	for _, tc := range []struct {
		target     session.Target
		tool, args string
	}{
		{session.Target{Transport: session.TransportDemo, Release: 1}, "search_orders", `{"customer":"Acme Corp","since":5}`},
		{session.Target{Transport: session.TransportStdio, Command: peers.Node(t, peers.Everything, "stdio")}, "get-sum", `{"a":"x","b":1}`},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		s, err := session.Open(ctx, session.Options{Target: tc.target})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		ex, err := s.CallTool(ctx, tc.tool, json.RawMessage(tc.args))
		s.Close()
		cancel()
		if err != nil || !content.IsError(ex.Result) {
			t.Fatalf("%s %s: %v, %s; want an isError result", tc.tool, tc.args, err, ex.Result)
		}
		if got := content.ToolErrorWhat(ex.Result); !strings.Contains(got, "argument-validation refusal") {
			t.Errorf("%s %s answered %s: said %q", tc.tool, tc.args, ex.Result, got)
		}
	}
}

// The go-sdk everything server's results carry its serverInfo in _meta (the
// 2026-07-28 era), with a 3 KB base64 icon: the rendering keeps the data
// URI's head and says its size instead of burying the result under it.
func TestLongDataURIsInMetaAreShortened(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := session.Open(ctx, session.Options{Target: session.Target{Transport: session.TransportStdio, Command: []string{peers.Path(t, peers.GoSDKEverything)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ex, err := s.CallTool(ctx, "greet", json.RawMessage(`{"name":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ex.Result), `"src":"data:image/png;base64,`) {
		t.Fatalf("the go-sdk everything server sent no data URI in its result: %s", ex.Result)
	}
	var out lines
	content.RenderTool(&out, ex.Result, nil)
	got := out.b.String()
	if !strings.Contains(got, `"src": "data:image/png;base64,`) || !strings.Contains(got, "data URI; the raw frame has it whole)") {
		t.Errorf("the data URI is not shown shortened:\n%s", got)
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 200 {
			t.Errorf("a rendered line is %d bytes long: %.120s…", len(l), l)
		}
	}
}
