package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
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
			p := newFramesPane(newStyles(true), x)
			p.setSize(120, 32)
			p.update(press("T")[0])
			_ = p.view()
		}
	})
	b.Run("tool-filter-first", func(b *testing.B) {
		for b.Loop() {
			p := newFramesPane(newStyles(true), x)
			p.setSize(120, 32)
			for _, m := range press("/", "tool=get_report", "enter") {
				p.update(m)
			}
		}
	})
}
