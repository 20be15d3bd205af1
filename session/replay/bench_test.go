package replay

import (
	"fmt"
	"testing"

	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/peers"
)

// copies makes n cases out of a few pinned kinds, each its own scenario.
func copies(tb testing.TB, kinds []Case, n int) []Case {
	cases := make([]Case, n)
	for i := range cases {
		c := kinds[i%len(kinds)]
		f := *c.Fixture
		f.Scenario = fmt.Sprintf("%s-%d", f.Scenario, i)
		cases[i] = Case{Path: c.Path, Fixture: &f}
	}
	return cases
}

func replayAll(b *testing.B, cases []Case, opts Options) {
	b.Helper()
	for b.Loop() {
		for _, o := range Run(testCtx(b), cases, opts) {
			if o.Err != nil || o.Drifted() {
				b.Fatalf("%s: err %v, drifted %v", o.Report.Scenario, o.Err, o.Drifted())
			}
		}
	}
}

// BenchmarkReplay1000Demo replays 1,000 fixtures (four kinds of call,
// including get_report with its volatile fields and a 20-order search)
// against the demo server, each in a fresh in-process session of its own:
// handshake, one tools/list, the call, the comparison, close. The target is
// under 3 s per op.
func BenchmarkReplay1000Demo(b *testing.B) {
	dir := b.TempDir()
	r1 := session.Target{Transport: session.TransportDemo, Release: 1}
	s := openSession(b, r1)
	var kinds []Case
	for _, p := range []struct{ name, tool, args string }{
		{"acme", "search_orders", `{"customer":"Acme Corp","since":"2026-01-01","limit":500}`},
		{"one", "search_order", `{"order_id":"ord-1044"}`},
		{"report", "get_report", `{}`},
		{"echo", "echo", `{"text":"hello"}`},
	} {
		kinds = append(kinds, load(b, pin(b, s, r1, dir, p.name, p.tool, p.args))...)
	}
	s.Close()
	replayAll(b, copies(b, kinds, 1000), Options{Parallel: 8})
}

// BenchmarkReplay100ServerEverything replays 100 fixtures against
// server-everything over stdio, each in a fresh session of its own — a node
// process that takes some 0.5 s to answer initialize — with --parallel's
// default of 8 sessions at once. The target is under 20 s per op.
func BenchmarkReplay100ServerEverything(b *testing.B) {
	target := session.Target{Transport: session.TransportStdio, Command: peers.Node(b, peers.Everything, "stdio")}
	s := openSession(b, target)
	dir := b.TempDir()
	var kinds []Case
	for _, p := range []struct{ name, tool, args string }{
		{"echo", "echo", `{"message":"hello"}`},
		{"sum", "get-sum", `{"a":2,"b":3}`},
		{"weather", "get-structured-content", `{"location":"Chicago"}`},
		{"image", "get-tiny-image", `{}`},
	} {
		kinds = append(kinds, load(b, pin(b, s, target, dir, p.name, p.tool, p.args))...)
	}
	s.Close()
	replayAll(b, copies(b, kinds, 100), Options{Parallel: 8})
}
