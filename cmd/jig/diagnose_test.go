package main

import (
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/session/peers"
)

// Every connection error names its likely cause and the next step, read
// from the frames the attempt left, against real servers. Before, each of
// these said only what the SDK said: "Not Found", "timed out", "fork/exec
// /usr/bin/node: no such file or directory", "Unauthorized", a raw -32601.
func TestConnectionErrorsNameTheCauseAndTheNextStep(t *testing.T) {
	se := peers.Node(t, peers.Everything, "stdio")
	ssePort, httpPort := freePort(t), freePort(t)
	sseURL := startNodePeer(t, peers.Everything, "sse", ssePort, "PORT="+ssePort) + "/sse"
	httpBase := startNodePeer(t, peers.Everything, "streamableHttp", httpPort, "PORT="+httpPort)
	mcpPort, authPort := freePort(t), freePort(t)
	oauthBase := startNodePeer(t, peers.TSSDKOAuthServer, "--oauth", mcpPort, "MCP_PORT="+mcpPort, "MCP_AUTH_PORT="+authPort)
	bannerPort := freePort(t)
	httpAsStdio := append([]string{"--env", "PORT=" + bannerPort, "--no-record", "--"}, peers.NodeHTTP(t, peers.Everything, "streamableHttp")...)

	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"an SSE server addressed as Streamable HTTP", []string{"tools", "--url", sseURL},
			[]string{"handshake failed", "likely cause: the path ends in /sse", "HTTP 404 Not Found: Cannot POST /sse", "next: add --transport sse"}},
		{"a path nothing serves", []string{"tools", "--url", httpBase + "/nope"},
			[]string{"likely cause: the server answered a Streamable HTTP POST to /nope with HTTP 404 Not Found", "next: check the endpoint's path (Streamable HTTP servers often serve /mcp)"}},
		{"a Streamable HTTP server addressed as SSE", []string{"tools", "--transport", "sse", "--url", httpBase + "/mcp"},
			[]string{"likely cause: the server answered the SSE transport's GET of /mcp with HTTP 4", "use --transport http"}},
		{"nothing listening", []string{"tools", "--url", "http://127.0.0.1:" + freePort(t) + "/mcp"},
			[]string{"likely cause: nothing accepts connections at 127.0.0.1:", "next: start the server"}},
		{"a missing --cwd", append([]string{"tools", "--cwd", "/nonexistent/dir", "--no-record", "--"}, se...),
			[]string{"the working directory /nonexistent/dir does not exist", "likely cause: --cwd names a directory that does not exist"}},
		{"an HTTP server started as a stdio server", append([]string{"tools", "--timeout", "15s"}, httpAsStdio...),
			[]string{`the server wrote to stdout lines that are not JSON-RPC: "Starting Streamable HTTP server..." (frame #`,
				"it looks like an HTTP server", "next: connect to it over HTTP instead: start it on its own and run jig with --url http"}},
		{"a 401 with WWW-Authenticate, no stored login", []string{"tools", "--auth-stored-only", "--url", oauthBase + "/mcp"},
			[]string{"likely cause: the server answered HTTP 401 Unauthorized: {\"error\":\"invalid_token\"",
				`(WWW-Authenticate: Bearer error="invalid_token"`, "resource_metadata=", "next: log in with jig auth login --url " + oauthBase + "/mcp"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if !strings.Contains(strings.Join(args, " "), "--no-record") {
				args = append(args, "--no-record")
			}
			code, stdout, stderr := jig(t, "", args...)
			if code != exitUnreachable {
				t.Errorf("exit %d, want %d (unreachable)\n%s%s", code, exitUnreachable, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// A stdio server that prints a banner before it speaks JSON-RPC works (the
// line is withheld from the SDK), and the warning quotes the line instead
// of a JSON decoder's complaint.
func TestABannerOnStdoutIsQuoted(t *testing.T) {
	se := peers.Node(t, peers.Everything, "stdio")
	script := `echo "Server listening..."; exec "$@"`
	code, stdout, stderr := jig(t, "", append([]string{"tools", "--no-record", "--", "sh", "-c", script, "sh"}, se...)...)
	if code != exitOK || !strings.Contains(stdout, "echo") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if want := `from the server was withheld from the session (it went on): "Server listening..." is not JSON-RPC`; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
}

// A method of a capability the server never declared is named as such, not
// left as a bare "Method not found".
func TestAnUndeclaredCapabilityIsNamed(t *testing.T) {
	thinking := peers.Node(t, peers.ThinkingNew, "")
	code, _, stderr := jig(t, "", append([]string{"resources", "--no-record", "--"}, thinking[:2]...)...)
	want := "JSON-RPC error -32601: Method not found; the server did not declare the resources capability in its handshake (it declared: tools)"
	if code != exitServerError || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", code, stderr, want)
	}
}

// The era probe's refusal by a legacy HTTP server is expected, not a
// warning: every legacy server printed "the server reported an error tied
// to no request: -32000 Bad Request: No valid session ID provided".
func TestTheEraProbesRefusalIsNoWarning(t *testing.T) {
	port := freePort(t)
	url := startNodePeer(t, peers.Everything, "streamableHttp", port, "PORT="+port) + "/mcp"
	code, _, stderr := jig(t, "", "tools", "--no-record", "--url", url)
	if code != exitOK || strings.Contains(stderr, "warning") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and no warning", code, stderr)
	}
}

// startNodePeer starts a Node peer in mode, bound to 127.0.0.1, with env
// added, and returns its base URL once port accepts connections.
func startNodePeer(t *testing.T, rel, mode, port string, env ...string) string {
	t.Helper()
	node := peers.NodeHTTP(t, rel, mode)
	cmd := exec.Command(node[0], node[1:]...)
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := "127.0.0.1:" + port
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr
		}
		time.Sleep(50 * time.Millisecond) // waiting for a child process to bind, not for jig
	}
	t.Fatalf("%s %s did not listen on %s", rel, mode, addr)
	return ""
}
