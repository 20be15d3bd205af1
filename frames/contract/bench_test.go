package contract

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
)

// BenchmarkCheckResponse is what a live check costs per response (on the
// Live's own goroutine, never the forwarding one): a search_orders answer
// of ten orders (~2.5 KB) held to its tool's outputSchema and the seed
// contract's rules.
//
//	go test ./frames/contract -run '^$' -bench CheckResponse
func BenchmarkCheckResponse(b *testing.B) {
	c, err := Parse("c.json", []byte(`{"tools":{"search_orders":{"rules":[
		{"rule":"iso8601","path":"/structuredContent/orders/*/placed_at"},
		{"rule":"max-age","path":"/structuredContent/generated_at","value":"1h"},
		{"rule":"range","path":"/structuredContent/orders/*/total","value":{"min":0.01}},
		{"rule":"truncation-mentioned","path":"/structuredContent/truncated"}]},
		"*":{"rules":[{"rule":"not-empty"}]}}}`))
	if err != nil {
		b.Fatal(err)
	}
	var orders []string
	for i := range 10 {
		orders = append(orders, fmt.Sprintf(`{"id":"ord-10%02d","customer_name":"Acme Corp","status":"delivered","total":%d.5,"placed_at":"2026-01-%02dT10:00:00Z"}`, i, 100+i, i+1))
	}
	now := time.Now().UTC()
	sc := `{"orders":[` + strings.Join(orders, ",") + `],"count":10,"truncated":false,"generated_at":"` + now.Format(time.RFC3339) + `"}`
	k := NewChecker(c)
	k.learn([]byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"search_orders","inputSchema":{"type":"object"},"outputSchema":{"type":"object","required":["orders","count","truncated"],"properties":{"orders":{"type":"array","items":{"type":"object","required":["id","customer_name","status","total","placed_at"],"properties":{"id":{"type":"string"},"customer_name":{"type":"string"},"status":{"type":"string","enum":["pending","shipped","delivered","cancelled"]},"total":{"type":"number"},"placed_at":{"type":"string","format":"date-time"}}}},"count":{"type":"integer"},"truncated":{"type":"boolean"},"generated_at":{"type":"string","format":"date-time"}}}}]}}`))
	req := &frames.Frame{Seq: 1, Kind: frames.KindRequest, ID: "2", Method: "tools/call", Raw: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_orders","arguments":{"customer":"Acme Corp"}}}`)}
	text := strings.ReplaceAll(strings.ReplaceAll(sc, `\`, `\\`), `"`, `\"`)
	resp := &frames.Frame{Seq: 2, Time: now, Kind: frames.KindResult, ID: "2", Raw: []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"` + text + `"}],"structuredContent":` + sc + `}}`)}
	if vs := k.Check(req, resp); len(vs) > 0 {
		b.Fatalf("a healthy response violates: %v", vs)
	}
	b.SetBytes(int64(len(resp.Raw)))
	b.ReportAllocs()
	b.Run("every answer new", func(b *testing.B) {
		defer cpuPerOp(b)()
		i := 0
		for b.Loop() {
			// A fresh generated_at on every answer, as a live server gives.
			i++
			r := *resp
			r.Raw = []byte(strings.Replace(string(resp.Raw), `"count":10`, fmt.Sprintf(`"count":%d`, 10+i%1000), 2))
			k.Check(req, &r)
		}
	})
	b.Run("answers repeating", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			k.Check(req, resp)
		}
	})
}

// cpuPerOp reports the processor time per op (user and system) when the
// returned function is called: on a machine shared with others, the wall
// time says more about them.
func cpuPerOp(b *testing.B) func() {
	t0 := cpuTime()
	return func() { b.ReportMetric(float64((cpuTime()-t0).Microseconds())/float64(b.N), "cpu-µs/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
