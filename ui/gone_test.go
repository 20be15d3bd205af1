package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// A server that exits on its own is not "connected": the header says the
// session is gone and how the server exited, the panes keep what it said,
// and r reconnects (it said "the session is not down").
func TestFlowServerThatExitsIsShownGoneAndRReconnects(t *testing.T) {
	stop := filepath.Join(t.TempDir(), "stop")
	node := peers.Node(t, peers.Everything, "stdio")
	// The server runs until the test creates stop; then its wrapper ends
	// it and exits 3, as a crashing server would.
	script := `exec 3<&0; "$@" <&3 3<&- & pid=$!; while [ ! -e "$STOP" ]; do sleep 0.05; done; kill $pid; exit 3`
	cfg := everything(t)
	cfg.Options.Target.Command = append([]string{"sh", "-c", script, "sh"}, node...)
	cfg.Options.Target.Env = map[string]string{"STOP": stop}
	f := start(t, cfg, 120, 35)
	f.waitFor("● connected", "mcp-servers/everything", "Tools (")
	f.pick("echo") // before the server goes: a re-listing it started may fail after
	f.keys("esc")
	if err := os.WriteFile(stop, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f.waitFor("DISCONNECTED", "the server exited (exit status 3)", "r reconnects")
	if s := f.p.screen(); strings.Contains(s, "● connected") || !strings.Contains(s, "Tools (") {
		t.Errorf("a gone server's session still reads connected, or the panes were cleared:\n%s", s)
	}
	// A call on it fails, saying why once.
	f.keys("2", "ctrl+s", "ctrl+s") // the second sends the prefilled empty message
	f.waitFor("CALL FAILED")
	if s := f.p.screen(); strings.Count(s, "last stderr lines") > 1 {
		t.Errorf("the server's stderr is shown twice:\n%s", s)
	}
	f.keys("esc")
	if err := os.Remove(stop); err != nil {
		t.Fatal(err)
	}
	f.keys("r")
	f.waitFor("● connected")
	if s := f.p.screen(); strings.Contains(s, "DISCONNECTED") || strings.Contains(s, "is not down") {
		t.Errorf("after r the session is not back:\n%s", s)
	}
}
