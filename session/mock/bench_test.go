package mock

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames/fixture"
)

// manyFixtures writes n fixtures, each a call of one of 50 tools with its
// own arguments, made from the pinned echo fixture.
func manyFixtures(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	base, err := fixture.Load(filepath.Join(demoFixtures, "echo.json"))
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		f := *base
		tool := fmt.Sprintf("tool_%02d", i%50)
		f.Scenario = fmt.Sprintf("call-%05d", i)
		f.Request.Params = json.RawMessage(fmt.Sprintf(`{"name":%q,"arguments":{"text":"call %d"}}`, tool, i))
		f.Response.Result = json.RawMessage(fmt.Sprintf(`{"content":[{"type":"text","text":"answer %d"}],"resultType":"complete"}`, i))
		var def map[string]any
		_ = json.Unmarshal(base.Tool, &def)
		def["name"] = tool
		f.Tool, _ = json.Marshal(def)
		data, err := f.Marshal()
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.Scenario+".json"), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// BenchmarkLoad10000 is jig mock's start-up with 10,000 fixtures: reading
// and indexing them.
func BenchmarkLoad10000(b *testing.B) {
	dir := manyFixtures(b, 10000)
	before := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		bk, err := Load(dir)
		if err != nil || len(bk.Exchanges()) != 10000 {
			b.Fatalf("%v, %d exchanges", err, len(bk.Exchanges()))
		}
	}
	// On a machine others load too, wall time says little: the CPU time
	// a load took (both cores' worth) says what it costs.
	b.ReportMetric((cpuTime()-before).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkHTTPToolsCall is tools/call over Streamable HTTP on a loopback
// socket from a 1,000-fixture set, by 8 go-sdk clients at once, each
// calling a different fixture every time.
func BenchmarkHTTPToolsCall(b *testing.B) {
	s, err := New(load(b, manyFixtures(b, 1000)), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(s.HTTPHandler())
	defer ts.Close()
	const clients = 8
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		sessions[i] = cs
	}
	var next atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	var failed atomic.Value
	per := (b.N + clients - 1) / clients
	for _, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range per {
				i := int(next.Add(1)-1) % 1000
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: fmt.Sprintf("tool_%02d", i%50), Arguments: map[string]any{"text": fmt.Sprintf("call %d", i)}})
				if err != nil || res.IsError {
					failed.Store(fmt.Sprintf("call %d: %v", i, err))
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	if f := failed.Load(); f != nil {
		b.Fatal(f)
	}
	b.ReportMetric(float64(per*clients)/b.Elapsed().Seconds(), "calls/s")
}

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
