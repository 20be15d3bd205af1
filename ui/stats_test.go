package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
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

// TestWrapStatsIndents: in a narrow terminal a statistics line continues
// under its own indentation — a field's under its value column — never at
// the left edge, and no row is wider than the terminal.
func TestWrapStatsIndents(t *testing.T) {
	text := "cancel_order: 4 calls, errors 0%, isError 25%, latency p50 0.226 p95 0.34 p99 0.354 ms, size p50 588 B\n" +
		"  shape order_id,reason: 4 calls, errors 0%, isError 25%, latency p50 0.226 p95 0.34 p99 0.354 ms, size p50 588 B\n" +
		"    /structuredContent/note             \"demo server: nothing wa…\" 100% (entropy 0.00 bits); 3 texts\n" +
		"    /structuredContent/previous_status  \"pending\" 100% (entropy 0.00 bits)"
	rows := wrapStats(text, 80)
	indentOf := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
	want := []int{0, 4, 2, 6, 4, 40, 4}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), strings.Join(rows, "\n"))
	}
	for i, r := range rows {
		if ansi.StringWidth(r) > 80 || indentOf(r) != want[i] {
			t.Errorf("row %d indented %d (want %d), %d wide: %q", i, indentOf(r), want[i], ansi.StringWidth(r), r)
		}
	}
	if !strings.HasPrefix(rows[4], "    /structuredContent/note             \"demo") {
		t.Errorf("the field's row lost its column: %q", rows[4])
	}
}
