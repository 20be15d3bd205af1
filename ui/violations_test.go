package ui

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/contract"
)

// TestFlowContractViolationsMarked: a response that breaks its tool's
// contract (a real demo session, checked by the real checker) is marked ✗
// in the frames list, and its violation's text is on the screen with the
// frame selected; a response that keeps it is not marked.
func TestFlowContractViolationsMarked(t *testing.T) {
	s := demoSession(t)
	ctx := context.Background()
	if _, _, err := s.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"customer":"Acme Corp"}`, `{"customer":"No Such Customer"}`} {
		if _, err := s.CallTool(ctx, "search_orders", json.RawMessage(args)); err != nil {
			t.Fatal(err)
		}
	}
	c, err := contract.Parse("c.json", []byte(`{"tools":{"search_orders":{"rules":[{"rule":"min-items","path":"/structuredContent/orders","value":1}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	k := contract.NewChecker(c)
	marks := map[int64][]string{}
	for i := range s.Log.Len() {
		f := *s.Log.Frame(i)
		if f.Raw, err = s.Log.Body(i); err != nil {
			t.Fatal(err)
		}
		for _, v := range k.Add(&f) {
			marks[v.Response] = append(marks[v.Response], v.String())
		}
	}
	if len(marks) != 1 {
		t.Fatalf("the checker found violations on %d frames, want 1 (the empty answer): %v", len(marks), marks)
	}
	var bad int64
	for seq := range marks {
		bad = seq
	}
	fl := start(t, Config{Reader: s.Log, Title: "session", Violations: func(seq int64) []string { return marks[seq] }}, 120, 35)
	fl.waitFor(" frames")
	var marked []string
	for _, line := range strings.Split(fl.p.screen(), "\n") {
		if strings.Contains(line, "✗ #") || strings.Contains(line, "▶✗#") {
			marked = append(marked, line)
		}
	}
	if len(marked) != 1 || !strings.Contains(marked[0], "#"+strconv.FormatInt(bad, 10)+" ") {
		t.Fatalf("want exactly frame #%d marked ✗, got %q:\n%s", bad, marked, fl.p.screen())
	}
	// Select the marked frame: its violation is shown with it.
	for range 20 {
		if strings.Contains(fl.p.screen(), "▶✗#"+strconv.FormatInt(bad, 10)) {
			break
		}
		fl.keys("up")
	}
	fl.waitFor("▶✗#"+strconv.FormatInt(bad, 10), "✗ contract: search_orders call", "min-items")
}
