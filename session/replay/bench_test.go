package replay

import (
	"fmt"
	"testing"

	"github.com/mcpjig/jig/session"
)

// BenchmarkReplay1000 replays 1,000 fixtures (four kinds of call, including
// get_report with its volatile fields and a 20-order search) against the demo
// server as a stdio child: spawn, handshake, one tools/list, 1,000 pipelined
// calls, 1,000 comparisons, shutdown. The target is under 3 s per op.
func BenchmarkReplay1000(b *testing.B) {
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
	cases := make([]Case, 1000)
	for i := range cases {
		c := kinds[i%len(kinds)]
		f := *c.Fixture
		f.Scenario = fmt.Sprintf("%s-%d", f.Scenario, i)
		cases[i] = Case{Path: c.Path, Fixture: &f}
	}
	target := stdioDemo(b, 1)
	b.ResetTimer()
	for b.Loop() {
		outs := Run(testCtx(b), cases, Options{Override: &Override{Target: target}})
		for _, o := range outs {
			if o.Err != nil || o.Drifted() {
				b.Fatalf("%s: err %v, drifted %v", o.Report.Scenario, o.Err, o.Drifted())
			}
		}
	}
}
