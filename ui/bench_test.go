package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// Targets: a frames pane of 100,000 frames draws in < 5 ms at 120×40; a
// 10 MB result reaches its first screen in < 100 ms; a key press with
// 100,000 frames loaded reaches the next screen in < 16 ms.

func bigLog(n int) *frames.Log {
	log := fixedLog()
	for i := 0; i < n/2; i++ {
		log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_orders","arguments":{"customer":"Acme Corp"}}}`, i))})
		log.Append(frames.Frame{Dir: frames.ServerToClient, Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"{\"count\":0}"}]}}`, i))})
	}
	return log
}

// bigResult is a tools/call result of about size bytes: one text block
// holding a JSON array of orders, as servers that dump tables send.
func bigResult(size int) []byte {
	var orders bytes.Buffer
	orders.WriteByte('[')
	for i := 0; orders.Len() < size-200; i++ {
		if i > 0 {
			orders.WriteByte(',')
		}
		fmt.Fprintf(&orders, `{"id":"ord-%d","customer_name":"Acme Corp","status":"pending","total":%d.42,"placed_at":"2026-03-12T15:31:00Z"}`, i, i)
	}
	orders.WriteByte(']')
	text, _ := json.Marshal(orders.String())
	return []byte(`{"content":[{"type":"text","text":` + string(text) + `}]}`)
}

func BenchmarkFramesPaneView100k(b *testing.B) {
	p := newFramesPane(testEnv(bigLog(100_000)))
	p.setSize(120, 40)
	p.setFocus(true)
	p.list.sel = 50_000
	p.list.keepVisible(p.count())
	p.syncBody()
	defer reportCPU(b)()
	for b.Loop() {
		_ = p.view()
	}
}

// reportCPU reports the process's CPU time per op beside the wall time: on
// a machine shared with other work, wall time measures the neighbours.
// Use it as defer reportCPU(b)() right before the loop.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

func largeCall(result []byte) *call {
	resp := append(append([]byte(`{"jsonrpc":"2.0","id":9,"result":`), result...), '}')
	c := &call{id: 1, tool: "search_orders", args: "{}"}
	c.finish(&session.Exchange{
		Request:  &frames.Frame{Seq: 1, Raw: []byte(`{}`)},
		Response: &frames.Frame{Seq: 2, Raw: resp},
		Result:   result, Latency: time.Millisecond}, nil)
	return c
}

// BenchmarkLargeResultFirstScreen10MB is what the user waits for when a
// 10 MB result arrives: the pane shows the call at once and renders the
// result in a command (BenchmarkLargeResultRender10MB).
func BenchmarkLargeResultFirstScreen10MB(b *testing.B) {
	result := bigResult(10 << 20)
	b.SetBytes(int64(len(result)))
	for b.Loop() {
		c := largeCall(result)
		c.rendering = c.responseSize() > largeResult
		calls := []*call{c}
		p := newResultPane(envWith(calls...))
		p.setSize(60, 30)
		p.show(1)
		_ = p.view()
	}
}

// BenchmarkLargeResultRender10MB is the full rendering of a 10 MB result
// (parse, pretty-print, index), off the UI goroutine, plus its first screen.
func BenchmarkLargeResultRender10MB(b *testing.B) {
	result := bigResult(10 << 20)
	b.SetBytes(int64(len(result)))
	for b.Loop() {
		c := largeCall(result)
		calls := []*call{c}
		p := newResultPane(envWith(calls...))
		p.setSize(60, 30)
		p.show(1)
		_ = p.view()
	}
}

// BenchmarkLargeResultScroll10MB is one page down through a rendered 10 MB result.
func BenchmarkLargeResultScroll10MB(b *testing.B) {
	c := largeCall(bigResult(10 << 20))
	calls := []*call{c}
	p := newResultPane(envWith(calls...))
	p.setSize(60, 30)
	p.show(1)
	k := tea.KeyPressMsg{Code: tea.KeyPgDown}
	for b.Loop() {
		pressKey(p.actions(), p.typing(), p.update, k)
		_ = p.view()
	}
}

func BenchmarkOpenLargeFrame10MB(b *testing.B) {
	log := fixedLog()
	resp := append(append([]byte(`{"jsonrpc":"2.0","id":9,"result":`), bigResult(10<<20)...), '}')
	log.Append(frames.Frame{Dir: frames.ServerToClient, Raw: resp})
	b.SetBytes(int64(len(resp)))
	for b.Loop() {
		p := newFramesPane(testEnv(log))
		p.setSize(120, 40)
		_ = p.view()
	}
}

func BenchmarkKeypressNextScreen100k(b *testing.B) {
	m := New(Config{Reader: bigLog(100_000), Title: "big.jsonl"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	down := tea.KeyPressMsg{Code: tea.KeyDown}
	defer reportCPU(b)()
	for b.Loop() {
		m.Update(down)
		_ = m.View()
	}
}

func BenchmarkFilterChange100k(b *testing.B) {
	p := newFramesPane(testEnv(bigLog(100_000)))
	p.setSize(120, 40)
	k := tea.KeyPressMsg{Code: 'd', Text: "d"}
	defer reportCPU(b)()
	for b.Loop() {
		pressKey(p.actions(), p.typing(), p.update, k)
		_ = p.view()
	}
}

func TestLargeResultScrollsToEnd(t *testing.T) {
	result := bigResult(1 << 20)
	c := &call{id: 1, tool: "t", args: "{}"}
	c.finish(&session.Exchange{Result: result}, nil)
	calls := []*call{c}
	p := newResultPane(envWith(calls...))
	p.setSize(60, 20)
	p.show(1)
	if v := p.view(); hasLine(v, "]") {
		t.Fatalf("the first screen of a 1 MB result already shows its end:\n%s", v)
	}
	keys(p, "end")
	if v := p.view(); !hasLine(v, "]") {
		t.Errorf("the end of a 1 MB result does not show its closing bracket:\n%s", v)
	}
}

// hasLine reports whether a line of s is want, spaces aside.
func hasLine(s, want string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == want {
			return true
		}
	}
	return false
}
