package main

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/peers"
)

// In the 2026-07-28 era every POST mirrors its method into Mcp-Method and a
// tools/call's name, a prompts/get's name or a resources/read's uri into
// Mcp-Name (SEP-2243), whichever HTTP transport carries it: the go-sdk's
// legacy SSE client transport sets neither, and mcp-go v1.2.1's SSE server
// refused every tools/call (-32020, "Mcp-Name: missing required header").
func TestSSECallIn2026CarriesMcpName(t *testing.T) {
	port := peers.FreePort(t)
	peers.Serve(t, []string{peers.Path(t, peers.MCPGo), "serve", "sse", fmt.Sprintf("127.0.0.1:%d", port)}, port)
	url := fmt.Sprintf("http://127.0.0.1:%d/sse", port)
	rec := filepath.Join(t.TempDir(), "sse.jsonl")
	code, out, errOut := jig(t, "", "call", "echo", "--args", `{"message":"hi"}`, "--url", url, "--transport", "sse", "--record", rec)
	if code != exitOK || !strings.Contains(out, "hi") {
		t.Errorf("jig call over SSE to mcp-go v1.2.1: exit %d\n%s%s", code, out, errOut)
	}
	checkMirrored(t, rec, map[string]string{"tools/call": "echo"})
}

// checkMirrored checks that each request of a method in want was posted
// with Mcp-Method and the Mcp-Name want gives.
func checkMirrored(t *testing.T, rec string, want map[string]string) {
	t.Helper()
	x, err := frames.OpenIndexed(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	seen := map[string]bool{}
	for i := range x.Len() {
		f := x.Frame(i)
		name, ok := want[f.Method]
		if f.Kind != frames.KindRequest || !ok || f.HTTP == nil {
			continue
		}
		seen[f.Method] = true
		h := http.Header(f.HTTP.Headers)
		if h.Get("Mcp-Method") != f.Method || h.Get("Mcp-Name") != name {
			t.Errorf("%s #%d posted with Mcp-Method %q, Mcp-Name %q; want %q, %q", f.Method, f.Seq, h.Get("Mcp-Method"), h.Get("Mcp-Name"), f.Method, name)
		}
	}
	for m := range want {
		if !seen[m] {
			t.Errorf("%s holds no %s request", rec, m)
		}
	}
}

// mcp-go v1.2.1's conformance server over Streamable HTTP: each kind of
// request that names something (a tool, a prompt, a resource) carries it in
// Mcp-Name.
func TestStreamableHTTPIn2026NamesEveryKind(t *testing.T) {
	port := peers.FreePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	t.Setenv("CONFORMANCE_ADDR", addr)
	peers.Serve(t, []string{peers.Path(t, peers.MCPGoConformance)}, port)
	url := "http://" + addr + "/mcp"
	dir := t.TempDir()
	for i, c := range []struct {
		args         []string
		method, name string
	}{
		{[]string{"call", "test_simple_text"}, "tools/call", "test_simple_text"},
		{[]string{"prompt", "test_prompt_with_arguments", "--args", `{"arg1":"a","arg2":"b"}`}, "prompts/get", "test_prompt_with_arguments"},
		{[]string{"read", "test://static-text"}, "resources/read", "test://static-text"},
	} {
		rec := filepath.Join(dir, fmt.Sprintf("%d.jsonl", i))
		code, out, errOut := jig(t, "", append(c.args, "--url", url, "--record", rec)...)
		if code != exitOK {
			t.Errorf("jig %s: exit %d\n%s%s", strings.Join(c.args, " "), code, out, errOut)
			continue
		}
		checkMirrored(t, rec, map[string]string{c.method: c.name})
	}
}

// The go-sdk's HTTP handler keeps sessions and answers 404 to the era
// probe's made-up session id, as the spec says: jig asks again without it
// and reports what the server really speaks, not "server/discover got HTTP
// 404".
func TestProbeAnswered404IsAskedAgainWithoutASession(t *testing.T) {
	port := peers.FreePort(t)
	peers.Serve(t, []string{peers.Path(t, peers.GoSDKEverything), "-http", fmt.Sprintf("127.0.0.1:%d", port)}, port)
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	code, _, errOut := jig(t, "", "tools", "--url", url, "--no-record", "--protocol-version", "2026-07-28")
	if code != exitUnreachable || strings.Contains(errOut, "404") || !strings.Contains(errOut, "it supports 2025-11-25") {
		t.Errorf("jig tools --protocol-version 2026-07-28: exit %d\n%s", code, errOut)
	}
	if code, out, errOut := jig(t, "", "tools", "--url", url, "--no-record"); code != exitOK || !strings.Contains(out, "greet") {
		t.Errorf("jig tools (auto): exit %d\n%s%s", code, out, errOut)
	}
}
