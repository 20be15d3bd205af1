package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpjig/jig/frames"
)

// TestFlowRawComposer: X composes a raw JSON-RPC message; ctrl+s writes it
// on the live session exactly as typed, and the server's answer is shown
// in the frames pane. The next suggestion has the next string id, an
// unknown method gets the server's error, and the SDK's own calls still
// work after both.
func TestFlowRawComposer(t *testing.T) {
	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("● connected", "search_orders")
	f.keys("X")
	f.waitFor("Raw JSON-RPC message", `"id": "raw-1", "method": "ping"`)
	f.keys("ctrl+s")
	f.waitFor("answered in #", `← result ping id="raw-1"`)
	f.keys("X")
	f.waitFor(`"id": "raw-2", "method": "ping"`)
	f.keys("ctrl+u", `{"jsonrpc":"2.0","id":"raw-2","method":"no/such/method","params":[1,2]}`, "ctrl+s")
	f.waitFor("answered with an error in #", "-32601")
	f.keys("1", "G", "enter")
	f.waitFor("EDITING")
	f.keys("down", "end", "left", "Acme Corp", "ctrl+s")
	f.waitFor("call 1/1", "✓ ok")

	m := f.p.Model
	f.tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(screenWait))
	log := m.cfg.Reader
	var sent []string
	for i := 0; i < log.Len(); i++ {
		if fr := log.Frame(i); fr.Dir == frames.ClientToServer && strings.Contains(string(fr.Raw), "no/such/method") {
			sent = append(sent, string(fr.Raw))
		}
	}
	if len(sent) != 1 || sent[0] != `{"jsonrpc":"2.0","id":"raw-2","method":"no/such/method","params":[1,2]}` {
		t.Errorf("the raw message was not recorded exactly as typed: %q", sent)
	}
}
