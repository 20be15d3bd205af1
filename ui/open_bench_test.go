package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/importer"
)

// Target: jig open on a 100,000-frame, ~100 MB transcript reaches its first
// screen in < 1 s, without reading any body but the selected frame's.

// bigTranscript writes a transcript of n frames of about 1 KB each: a
// handshake, then tools/call exchanges of two tools, every tenth one
// partial, as a long proxy capture would hold.
func bigTranscript(b *testing.B, n int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "big.jsonl")
	tw, err := frames.CreateTranscript(path, frames.Header{Jig: "bench", Started: time.Unix(0, 0), Target: []byte(`{"transport":"demo","release":1}`), Mode: "proxy"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tw.Close()
	pad := strings.Repeat("x", 820)
	t0 := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	l := frames.NewLog(func() time.Time { t0 = t0.Add(700 * time.Microsecond); return t0 })
	l.AddSink(tw)
	l.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)})
	l.Append(frames.Frame{Dir: frames.ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1"}}}`)})
	for i := 1; l.Len() < n; i++ {
		tool := "search_orders"
		if i%3 == 0 {
			tool = "get_report"
		}
		l.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"customer":"Acme Corp","since":"2026-01-01","note":%q}}}`, i, tool, pad))})
		l.Append(frames.Frame{Dir: frames.ServerToClient, Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"{\"count\":1,\"pad\":\"%s\"}"}],"structuredContent":{"count":1,"truncated":%v}}}`, i, pad, i%10 == 0))})
	}
	if err := l.SinkErr(); err != nil {
		b.Fatal(err)
	}
	return path
}

func BenchmarkOpenFirstScreen100k(b *testing.B) {
	path := bigTranscript(b, 100_000)
	st, _ := os.Stat(path)
	var heap uint64
	for b.Loop() {
		x, err := frames.OpenIndexed(path)
		if err != nil {
			b.Fatal(err)
		}
		m := New(Config{Reader: x, Title: "big.jsonl"})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 35})
		if !strings.Contains(m.View().Content, "100,000 frames") {
			b.Fatal("the first screen does not show the frames")
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = ms.HeapAlloc
		runtime.KeepAlive(m)
		x.Close()
	}
	b.ReportMetric(float64(heap)/1e6, "heap-MB")
	b.ReportMetric(float64(st.Size())/1e6, "file-MB")
}

// BenchmarkTimelineAndToolFilter100k: T on a 100,000-frame transcript
// (metadata only, plus the rows on screen), and tool= (every tools/call
// request body, once; later filters reuse the names).
func BenchmarkTimelineAndToolFilter100k(b *testing.B) {
	path := bigTranscript(b, 100_000)
	x, err := frames.OpenIndexed(path)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	b.Run("timeline", func(b *testing.B) {
		for b.Loop() {
			p := newFramesPane(testEnv(x))
			p.setSize(120, 32)
			keys(p, "T")
			_ = p.view()
		}
	})
	b.Run("tool-filter-first", func(b *testing.B) {
		for b.Loop() {
			p := newFramesPane(testEnv(x))
			p.setSize(120, 32)
			keys(p, "/", "tool=get_report", "enter")
		}
	})
}

// claudeCodeSession writes a Claude Code session JSONL of about size bytes,
// shaped like a long real one: prompts, assistant text, the client's own
// tools (Bash, Read) with outputs of several KB, and MCP calls
// (mcp__orders__*) with results of a few KB, one API message split over
// several lines.
func claudeCodeSession(b *testing.B, size int, mcpOnly bool) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	base := `"parentUuid":"p","isSidechain":false,"userType":"external","cwd":"/home/dev/shop","sessionId":"3b9f0a6e-51c4-4e8f-9d27-8c1f2e4a7b30","version":"2.0.14","gitBranch":"main"`
	out := strings.Repeat("src/orders/search.go:42: func searchOrders(ctx context.Context, in Input) ([]Order, error) {\\n", 60)
	orders := strings.Repeat(`{\"customer_name\":\"acme\",\"id\":\"ord-1086\",\"placed_at\":\"2026-02-17T15:14:00Z\",\"status\":\"delivered\",\"total\":113.79},`, 20)
	written := 0
	w := func(s string) {
		n, _ := fmt.Fprintln(f, s)
		written += n
	}
	w(`{"type":"summary","summary":"Acme Corp orders missing from search","leafUuid":"e0a1"}`)
	for i := 0; written < size; i++ {
		ts := time.Date(2026, 3, 30, 14, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano)
		msg := fmt.Sprintf("msg_%08d", i)
		w(fmt.Sprintf(`{%s,"type":"user","message":{"role":"user","content":"step %d: look at the search again"},"uuid":"u%d","timestamp":%q}`, base, i, i, ts))
		w(fmt.Sprintf(`{%s,"type":"assistant","message":{"id":%q,"type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Let me read the handler and search again."}],"stop_reason":null},"uuid":"a%d","timestamp":%q}`, base, msg, i, ts))
		if !mcpOnly {
			w(fmt.Sprintf(`{%s,"type":"assistant","message":{"id":%q,"type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_r%d","name":"Read","input":{"file_path":"/home/dev/shop/src/orders/search.go"}}],"stop_reason":null},"uuid":"b%d","timestamp":%q}`, base, msg, i, i, ts))
			w(fmt.Sprintf(`{%s,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_r%d","type":"tool_result","content":"%s"}]},"toolUseResult":{"type":"text","file":{"filePath":"/home/dev/shop/src/orders/search.go","content":"%s"}},"uuid":"c%d","timestamp":%q}`, base, i, out, out, i, ts))
		}
		if mcpOnly || i%2 == 0 {
			w(fmt.Sprintf(`{%s,"type":"assistant","message":{"id":%q,"type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_m%d","name":"mcp__orders__search_orders","input":{"customer":"acme","since":"2026-01-01","limit":%d}}],"stop_reason":null},"uuid":"d%d","timestamp":%q}`, base, msg, i, i%500, i, ts))
			w(fmt.Sprintf(`{%s,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_m%d","type":"tool_result","content":[{"type":"text","text":"{\"count\":20,\"orders\":[%s],\"truncated\":true}"}]}]},"toolUseResult":[{"type":"text","text":"{\"count\":20,\"orders\":[%s],\"truncated\":true}"}],"uuid":"e%d","timestamp":%q}`, base, i, orders[:len(orders)-1], orders[:len(orders)-1], i, ts))
		}
	}
	return path
}

// BenchmarkOpenClaudeCodeSession50MB: jig open on a 50 MB Claude Code
// session reaches its first screen in < 1 s with a peak heap under twice the
// file (issue 19). peak-heap-MB is sampled while the import runs. "mixed" is
// a session mostly of the client's own tools, "mcp" one of MCP calls only,
// the worst case: every result is kept.
func BenchmarkOpenClaudeCodeSession50MB(b *testing.B) {
	for _, tt := range []struct {
		name    string
		mcpOnly bool
	}{{"mixed", false}, {"mcp", true}} {
		b.Run(tt.name, func(b *testing.B) {
			path := claudeCodeSession(b, 50<<20, tt.mcpOnly)
			st, _ := os.Stat(path)
			var peak, retained uint64
			cpu0 := cpuTime()
			for b.Loop() {
				runtime.GC()
				stop := samplePeakHeap(&peak)
				f, err := importer.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				m := New(Config{Reader: f.Reader, Title: "session.jsonl", Record: f.Record()})
				m.Update(tea.WindowSizeMsg{Width: 120, Height: 35})
				if !strings.Contains(m.View().Content, "a record, not a reproduction") {
					b.Fatal("the first screen does not say what the file is")
				}
				stop()
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				retained = ms.HeapAlloc
				runtime.KeepAlive(m)
				runtime.KeepAlive(f)
			}
			// CPU time per open, all threads (the GC's too): what the wall
			// clock would be on an idle machine with one core, whatever
			// else the machine is doing.
			b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(st.Size())/1e6, "file-MB")
			b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
			b.ReportMetric(float64(retained)/1e6, "heap-MB")
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// samplePeakHeap records the largest live heap seen until stop is called.
func samplePeakHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			*peak = max(*peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
