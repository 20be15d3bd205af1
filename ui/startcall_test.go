package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestFlowStartCallIsReadyToSend: jig connect --tool T --args JSON opens
// with T selected and the arguments in the editor, exactly as given; one
// ctrl+s sends them as they are.
func TestFlowStartCallIsReadyToSend(t *testing.T) {
	const args = `{"customer":"Acme Corp","since":"last month"}`
	cfg := demoConfig(1)
	cfg.Tool, cfg.Args = "search_orders", args
	f := start(t, cfg, 120, 35)
	f.waitFor("● connected", "--tool search_orders loaded with --args: ctrl+s sends it", `{"customer":"Acme Corp","since":"las`, "search_orders — Search")
	f.keys("ctrl+s")
	f.waitFor("call 1/1", "✓ ok")

	m := f.p.Model
	f.tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(screenWait))
	if len(m.calls().list) != 1 || m.calls().list[0].ex == nil || m.calls().list[0].ex.Request == nil {
		t.Fatalf("the session has no sent call: %+v", m.calls().list)
	}
	if req := string(m.calls().list[0].ex.Request.Raw); !strings.Contains(req, `"arguments":`+args) {
		t.Errorf("the call was not sent exactly as given; the request frame is %s", req)
	}
}

// TestFlowStartCallWithoutArgs: --tool alone loads the tool's required
// arguments, as enter on it would.
func TestFlowStartCallWithoutArgs(t *testing.T) {
	cfg := demoConfig(1)
	cfg.Tool = "search_orders"
	f := start(t, cfg, 80, 24)
	f.waitFor("--tool search_orders loaded with its required arguments", `"customer": ""`)
}

// TestFlowStartCallUnknownTool: a --tool the server does not list is
// named, with the nearest tools it does list.
func TestFlowStartCallUnknownTool(t *testing.T) {
	cfg := demoConfig(1)
	cfg.Tool, cfg.Args = "search_ordrs", `{}`
	f := start(t, cfg, 80, 24)
	f.waitFor("--tool search_ordrs: no such tool; did you mean search_orders?", "6 tools")
}

// TestFlowStatusHistory: H shows the status lines said so far, the newest
// first, so a hint gone from the footer can be read again.
func TestFlowStatusHistory(t *testing.T) {
	cfg := demoConfig(1)
	cfg.Tool = "search_ordrs"
	f := start(t, cfg, 120, 35)
	f.waitFor("--tool search_ordrs: no such tool")
	f.keys("ctrl+x")
	f.waitFor("nothing to cancel")
	f.keys("H")
	f.waitFor("Status messages, the newest first")
	s := f.p.screen()
	newer, older := strings.Index(s, "nothing to cancel"), strings.Index(s, "--tool search_ordrs: no such tool")
	if newer < 0 || older < 0 || newer > older {
		t.Errorf("the status history is not newest first:\n%s", s)
	}
}

// TestFlowEditAgainStartsEditing: e on a call in the result pane loads its
// arguments and starts editing them, and the tools pane shows that tool.
func TestFlowEditAgainStartsEditing(t *testing.T) {
	cfg := demoConfig(1)
	cfg.Tool, cfg.Args = "echo", `{"text":"hi"}`
	f := start(t, cfg, 120, 35)
	f.waitFor("--tool echo loaded")
	f.keys("ctrl+s")
	f.waitFor("call 1/1", "✓ ok")
	f.keys("1", "g")
	f.waitFor("cancel_order — Cancel")
	f.keys("3", "e")
	f.waitFor("EDITING", "arguments of call #1 loaded", "echo — ")
}
