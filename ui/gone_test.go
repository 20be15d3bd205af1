package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session"
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

// An HTTP server that dies is "not answering" from the first request that
// finds nobody (the SDK gives the connection up only after its retries):
// the header stops saying connected, a call says it was not delivered, not
// that the server answered with a JSON-RPC error, and r reconnects.
func TestFlowHTTPServerThatDiesIsNotAnsweringAndRReconnects(t *testing.T) {
	port, kill := startNodeHTTP(t)
	cfg := everything(t)
	cfg.Options.Target = session.Target{Transport: session.TransportStreamable, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}
	f := start(t, cfg, 120, 35)
	f.waitFor("● connected", "mcp-servers/everything", "Tools (")
	f.pick("echo")
	f.keys("esc")
	kill()
	f.keys("2", "ctrl+s", "ctrl+s") // the second sends the prefilled empty message
	f.waitFor("CALL FAILED", "not delivered", "r reconnects")
	// NOT ANSWERING from the first refused request; DISCONNECTED once the
	// SDK has given its retries up, which a loaded machine can reach first.
	if s := f.p.screen(); strings.Contains(s, "● connected") || !strings.Contains(s, "NOT ANSWERING") && !strings.Contains(s, "DISCONNECTED") ||
		strings.Contains(s, "JSON-RPC ERROR") || strings.Contains(s, "refused the request") {
		t.Errorf("a dead HTTP server still reads connected, or its failure as the server's answer:\n%s", s)
	}
	f.keys("esc")
	startNodeHTTPOn(t, port)
	// From the frames pane, on the undelivered tools/call, where r is its
	// own key (reproduce): the header says r reconnects, so it must.
	f.keys("4", "up")
	f.waitFor("▶ #", "→ request echo") // at 120 columns a call's row names its tool
	f.keys("r")
	f.waitFor("● connected")
	if s := f.p.screen(); strings.Contains(s, "NOT ANSWERING") || strings.Contains(s, "DISCONNECTED") {
		t.Errorf("after r the session is not back:\n%s", s)
	}
	// The one Log says where the new session begins: its ids start again.
	begins := false
	for i := 0; i < cfg.Options.Log.Len(); i++ {
		begins = begins || strings.Contains(cfg.Options.Log.Frame(i).Note, "a new session begins here")
	}
	if !begins {
		t.Error("no frame says where the reconnected session begins")
	}
}

// startNodeHTTP runs server-everything over Streamable HTTP on a free port
// and returns the port and a function that kills it.
func startNodeHTTP(t *testing.T) (int, func()) {
	port := peers.FreePort(t)
	return port, startNodeHTTPOn(t, port)
}

func startNodeHTTPOn(t *testing.T, port int) func() {
	return peers.Serve(t, peers.NodeHTTP(t, peers.Everything, "streamableHttp"), port)
}
