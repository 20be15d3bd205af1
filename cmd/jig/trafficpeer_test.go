package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// TestTrafficSaysTheServerLacksItsTools: jig traffic against
// server-everything (which has an echo and none of the demo's other
// tools) said "20 calls (seed 1, 0 answered with a JSON-RPC error)" and
// exited 0 while every call was isError "tool not found" (fresh8 F15): it
// names the missing tools, counts isError results, and exits 1 when every
// call failed; a server with none of them (the go-sdk example server) is
// refused before any call. The demo's traffic counts its isError results.
func TestTrafficSaysTheServerLacksItsTools(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	rec := filepath.Join(t.TempDir(), "se.jsonl")
	args := append([]string{"traffic", "--calls", "20", "--record", rec, "--"}, peers.Node(t, peers.Everything, "stdio")...)
	code, _, errOut := jig(t, "", args...)
	if code != exitServerError || !strings.Contains(errOut, "does not list search_orders, search_order, get_report, cancel_order") ||
		!strings.Contains(errOut, "20 with isError") || !strings.Contains(errOut, "every call was answered with an error") {
		t.Errorf("server-everything: exit %d\n%s", code, errOut)
	}
	code, _, errOut = jig(t, "", "traffic", "--calls", "5", "--no-record", "--", peers.Path(t, peers.GoSDKEverything))
	if code != exitUsage || !strings.Contains(errOut, "lists none of the tools jig traffic calls") || !strings.Contains(errOut, "nothing was called") {
		t.Errorf("go-sdk everything: exit %d\n%s", code, errOut)
	}
	code, _, errOut = jig(t, "", "traffic", "--calls", "60", "--no-record")
	if code != 0 || !strings.Contains(errOut, "0 answered with a JSON-RPC error, 2 with isError") {
		t.Errorf("the demo: exit %d\n%s", code, errOut)
	}
}
