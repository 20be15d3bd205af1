package demo

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func sc3(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
	return m
}

// TestRelease3GoesWrongAfterN: release 3 answers as release 1 does (plus
// generated_at) for its first DefaultRegressions.After calls, then
// truncates with truncated false, turns some placed_at into epoch numbers
// and serves Globex from a stale cache.
func TestRelease3GoesWrongAfterN(t *testing.T) {
	r1, r3 := connect(t, 1, ""), connect(t, 3, "")
	args := map[string]any{"customer": "Acme Corp", "since": "2026-01-01", "limit": 20}
	for i := 0; i < DefaultRegressions.After; i++ {
		want, got := sc3(t, call(t, r1, "search_orders", args)), sc3(t, call(t, r3, "search_orders", args))
		at, err := time.Parse(time.RFC3339, got["generated_at"].(string))
		if err != nil || time.Since(at) > time.Minute {
			t.Fatalf("call %d: generated_at %v, want a fresh RFC 3339 time", i+1, got["generated_at"])
		}
		delete(got, "generated_at")
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		if string(w) != string(g) {
			t.Fatalf("call %d (before the regressions): release 3 answered\n%s\nrelease 1\n%s", i+1, g, w)
		}
	}
	got := sc3(t, call(t, r3, "search_orders", args))
	orders := got["orders"].([]any)
	if len(orders) != 10 || got["count"].(float64) != 10 || got["truncated"] != false {
		t.Errorf("after the regressions: %d orders, count %v, truncated %v; want 10 of 20, count 10, truncated false", len(orders), got["count"], got["truncated"])
	}
	epochs := 0
	for _, o := range orders {
		o := o.(map[string]any)
		if _, isNum := o["placed_at"].(float64); isNum {
			epochs++
			if idNumber(o["id"].(string))%3 != 0 {
				t.Errorf("order %v has an epoch placed_at, want only multiples of 3", o["id"])
			}
		}
	}
	if epochs == 0 {
		t.Errorf("no placed_at became an epoch number: %v", orders)
	}
	first := call(t, r3, "search_orders", map[string]any{"customer": "Globex"})
	again := call(t, r3, "search_orders", map[string]any{"customer": "Globex", "since": "2026-03-01", "limit": 5})
	a, _ := json.Marshal(first.StructuredContent)
	b, _ := json.Marshal(again.StructuredContent)
	if string(a) != string(b) {
		t.Errorf("Globex after the regressions: different answers to different arguments, want the stale cache's:\n%s\n%s", a, b)
	}
	stamp, _ := time.Parse(time.RFC3339, sc3(t, again)["generated_at"].(string))
	if age := time.Since(stamp); age < 47*time.Hour {
		t.Errorf("the stale answer's generated_at is %v old, want 48h", age)
	}
}

// TestTrafficIsSeeded: the same seed gives the same calls, another seed
// others, with search_orders most of them.
func TestTrafficIsSeeded(t *testing.T) {
	gen := func(seed uint64) string {
		tr := NewTraffic(seed)
		var calls []TrafficCall
		for range 200 {
			calls = append(calls, tr.Next())
		}
		b, _ := json.Marshal(calls)
		return string(b)
	}
	if a, b := gen(1), gen(1); a != b {
		t.Fatal("seed 1 gave two different sequences")
	}
	if gen(1) == gen(2) {
		t.Fatal("seeds 1 and 2 gave the same sequence")
	}
	tr, n := NewTraffic(3), 0
	for range 1000 {
		if tr.Next().Tool == "search_orders" {
			n++
		}
	}
	if n < 600 || n > 800 {
		t.Errorf("%d of 1000 calls are search_orders, want about 700", n)
	}
}
