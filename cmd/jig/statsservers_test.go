package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// TestStatsSaysToolsOfSeveralServers: a directory of sessions with the
// demo server and server-everything, each with a tool named echo: jig
// stats said "its schema changed within the recordings: 2 definitions"
// (a Go map of digests once), as if one tool had changed; it names the
// servers whose calls are mixed and says what to do (fresh8 F21).
func TestStatsSaysToolsOfSeveralServers(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := t.TempDir()
	if code, _, errOut := jig(t, "", "call", "echo", "--demo", "--args", `{"text":"x"}`, "--record", filepath.Join(dir, "demo.jsonl")); code != 0 {
		t.Fatalf("demo echo: exit %d\n%s", code, errOut)
	}
	args := append([]string{"call", "echo", "--args", `{"message":"x"}`, "--record", filepath.Join(dir, "everything.jsonl"), "--"}, peers.Node(t, peers.Everything, "stdio")...)
	if code, _, errOut := jig(t, "", args...); code != 0 {
		t.Fatalf("server-everything echo: exit %d\n%s", code, errOut)
	}
	code, out, errOut := jig(t, "", "stats", dir, "--tool", "echo")
	if code != 0 || !strings.Contains(out, "2 servers answered calls of a tool named echo (") ||
		!strings.Contains(out, "jig-demo 1 call") || !strings.Contains(out, "mcp-servers/everything 1 call") ||
		strings.Contains(out, "its schema changed") || strings.Contains(out, "map[") {
		t.Errorf("exit %d:\n%s\n%s", code, out, errOut)
	}
	code, out, _ = jig(t, "", "stats", filepath.Join(dir, "demo.jsonl"), "--json")
	if code != 0 || strings.Contains(out, `"servers"`) {
		t.Errorf("one server's recording lists servers: exit %d\n%s", code, out)
	}
}
