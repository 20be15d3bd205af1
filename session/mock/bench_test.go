package mock

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
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
	goClients(b, ts.URL, func(i int, res *mcp.CallToolResult) bool {
		tc, ok := res.Content[0].(*mcp.TextContent)
		return ok && tc.Text == fmt.Sprintf("answer %d", i)
	})
}

// goClients runs b.N tools/call from 8 go-sdk clients at url, each call
// for another of 1,000 argument sets, checked by ok, and reports calls/s
// and the CPU time per call (clients and server together).
func goClients(b *testing.B, url string, ok func(i int, res *mcp.CallToolResult) bool) {
	const clients = 8
	sessions := make([]*mcp.ClientSession, clients)
	// One keep-alive connection per client: the default transport keeps 2
	// idle connections per host, so 8 clients would connect anew for most
	// calls, and the figure would be of TCP set-up.
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	for i := range sessions {
		c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true, HTTPClient: hc}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		sessions[i] = cs
	}
	var next atomic.Int64
	before := cpuTime()
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
				if err != nil || res.IsError || len(res.Content) == 0 || !ok(i, res) {
					failed.Store(fmt.Sprintf("call %d: %v %+v", i, err, res))
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
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(per*clients), "cpu-µs/call")
}

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHTTPToolsCallRaw is the same load from 8 plain HTTP clients
// (keep-alive connections, one POST per call, the answer read whole): what
// the mock serves when the client costs next to nothing.
func BenchmarkHTTPToolsCallRaw(b *testing.B) {
	s, err := New(load(b, manyFixtures(b, 1000)), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(s.HTTPHandler())
	defer ts.Close()
	rawClients(b, ts.URL)
}

// rawClients runs b.N tools/call from 8 plain keep-alive HTTP clients at
// url, each call for another of 1,000 fixtures with its answer checked,
// and reports calls/s and the CPU time per call of this process.
func rawClients(b *testing.B, url string) {
	const clients = 8
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	var next atomic.Int64
	var failed atomic.Value
	per := (b.N + clients - 1) / clients
	before := cpuTime()
	b.ResetTimer()
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range per {
				i := int(next.Add(1)-1) % 1000
				body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"tool_%02d","arguments":{"text":"call %d"}}}`, i, i%50, i)
				req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				resp, err := hc.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				out, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if !bytes.Contains(out, []byte(fmt.Sprintf(`"answer %d"`, i))) {
					failed.Store(fmt.Sprintf("call %d: %s", i, out))
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
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(per*clients), "cpu-µs/call")
}

// BenchmarkHTTPToolsCallGoServer is the load of BenchmarkHTTPToolsCall —
// 8 go-sdk clients, tools/call over Streamable HTTP on loopback — served
// by the go-sdk's own server with one tool that answers at once: what
// these clients reach on this machine when the server is the SDK's, the
// yardstick for the mock's figure.
func BenchmarkHTTPToolsCallGoServer(b *testing.B) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "yardstick", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	for t := range 50 {
		mcp.AddTool(srv, &mcp.Tool{Name: fmt.Sprintf("tool_%02d", t)}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answer to " + a.Text}}}, nil, nil
		})
	}
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	goClients(b, ts.URL, func(i int, res *mcp.CallToolResult) bool {
		tc, ok := res.Content[0].(*mcp.TextContent)
		return ok && tc.Text == fmt.Sprintf("answer to call %d", i)
	})
}

// serveHTTP serves the fixtures in dir over Streamable HTTP on a loopback
// port, prints its URL, and serves its own costs at /cost until killed.
func serveHTTP(dir string) error {
	b, err := Load(dir)
	if err != nil {
		return err
	}
	s, err := New(b, Options{})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	h := s.HTTPHandler()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		h.ServeHTTP(w, r)
	})
	mux.HandleFunc("/cost", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(ownCost())
	})
	fmt.Printf("http://%s\n", ln.Addr())
	return http.Serve(ln, mux)
}

// served counts the HTTP requests the mock process answered.
var served atomic.Int64

// cost is what a process has spent so far.
type cost struct {
	CPU      time.Duration // user + system
	Allocs   uint64        // heap objects allocated
	Bytes    uint64        // heap bytes allocated
	Requests int64         // HTTP requests served
}

func ownCost() cost {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return cost{CPU: cpuTime(), Allocs: ms.Mallocs, Bytes: ms.TotalAlloc, Requests: served.Load()}
}

// mockProcess starts the test binary as a mock server of dir (serveHTTP)
// and returns its URL and a function that reads its costs.
func mockProcess(b *testing.B, dir string) (url string, costNow func() cost) {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveHTTPEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("the mock process printed no URL: %v", err)
	}
	url = strings.TrimSpace(line)
	return url, func() cost {
		resp, err := http.Get(url + "/cost")
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var c cost
		if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
			b.Fatal(err)
		}
		return c
	}
}

// BenchmarkHTTPToolsCallMockCost is BenchmarkHTTPToolsCall's load — 8
// go-sdk clients, 1,000 fixtures, tools/call over Streamable HTTP on
// loopback — with the mock in a process of its own, so one run tells what
// the mock costs per call (CPU, allocations, bytes) from what the clients
// cost (this process's CPU). "raw" is the same with plain keep-alive HTTP
// clients.
func BenchmarkHTTPToolsCallMockCost(b *testing.B) {
	dir := manyFixtures(b, 1000)
	b.Run("gosdk", func(b *testing.B) {
		url, costNow := mockProcess(b, dir)
		measure(b, costNow, func() {
			goClients(b, url+"/mcp", func(i int, res *mcp.CallToolResult) bool {
				tc, ok := res.Content[0].(*mcp.TextContent)
				return ok && tc.Text == fmt.Sprintf("answer %d", i)
			})
		})
	})
	b.Run("raw", func(b *testing.B) {
		url, costNow := mockProcess(b, dir)
		measure(b, costNow, func() { rawClients(b, url+"/mcp") })
	})
}

// measure runs the load and reports the mock process's cost per call and
// this process's (the clients').
func measure(b *testing.B, costNow func() cost, load func()) {
	before, self := costNow(), cpuTime()
	load()
	after, selfAfter := costNow(), cpuTime()
	n := float64(b.N)
	b.ReportMetric(float64((after.CPU-before.CPU).Microseconds())/n, "mock-cpu-µs/call")
	b.ReportMetric(float64(after.Allocs-before.Allocs)/n, "mock-allocs/call")
	b.ReportMetric(float64(after.Bytes-before.Bytes)/n, "mock-B/call")
	b.ReportMetric(float64((selfAfter-self).Microseconds())/n, "client-cpu-µs/call")
	b.ReportMetric(float64(after.Requests-before.Requests)/n, "http-requests/call")
}
