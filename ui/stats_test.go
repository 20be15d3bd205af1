package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestFlowStatsKey: S shows the per-tool statistics of the session's calls
// (a real session with the demo server), and esc closes them.
func TestFlowStatsKey(t *testing.T) {
	s := demoSession(t)
	ctx := context.Background()
	if _, _, err := s.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"customer":"Acme Corp"}`, `{"customer":"Globex"}`, `{"customer":"Acme Corp","limit":3}`} {
		if _, err := s.CallTool(ctx, "search_orders", json.RawMessage(args)); err != nil {
			t.Fatal(err)
		}
	}
	s.CallTool(ctx, "search_order", json.RawMessage(`{"order_id":"ord-0"}`))
	fl := start(t, Config{Reader: s.Log, Title: "session"}, 120, 35)
	fl.waitFor("14 frames")
	fl.keys("S")
	fl.waitFor("search_orders: 3 calls")
	scr := fl.p.screen()
	for _, want := range []string{"Statistics", "search_order: 1 call, errors 0%, isError 100%", "shape customer:", "/structuredContent/orders", "items median"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the statistics do not show %q:\n%s", want, scr)
		}
	}
	fl.keys("esc")
	fl.waitFor("n next request")
	if strings.Contains(fl.p.screen(), "search_orders: 3 calls") {
		t.Errorf("esc did not close the statistics:\n%s", fl.p.screen())
	}
}
