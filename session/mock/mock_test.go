package mock

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
)

// demoFixtures are fixtures jig pinned against its demo server (2026-07-28
// era): echo, search_orders, get_report and a tool error (search_order of
// an unknown id).
const demoFixtures = "testdata/demo"

func load(t testing.TB, paths ...string) *Book {
	t.Helper()
	b, err := Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newServer(t testing.TB, b *Book, opts Options) *Server {
	t.Helper()
	s, err := New(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// stdioClient connects the go-sdk client to s over a pair of real pipes,
// in protocol version v ("" is the 2026-07-28 era).
func stdioClient(t *testing.T, s *Server, v string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, sr, sw) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, opts)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, &mcp.ClientSessionOptions{ProtocolVersion: v})
	if err != nil {
		cancel()
		t.Fatalf("connect (%q): %v", v, err)
	}
	t.Cleanup(func() {
		cs.Close()
		cw.Close()
		cancel()
		<-done
	})
	return cs
}

// httpClient connects the go-sdk client to s over Streamable HTTP on a
// loopback socket.
func httpClient(t *testing.T, s *Server, v string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ts := httptest.NewServer(s.HTTPHandler())
	t.Cleanup(ts.Close)
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true}, &mcp.ClientSessionOptions{ProtocolVersion: v})
	if err != nil {
		t.Fatalf("connect over HTTP (%q): %v", v, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// sseClient connects the go-sdk client to s over the legacy HTTP+SSE
// transport on a loopback socket.
func sseClient(t *testing.T, s *Server, v string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ts := httptest.NewServer(s.SSEHandler())
	t.Cleanup(ts.Close)
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &mcp.SSEClientTransport{Endpoint: ts.URL + "/sse"}, &mcp.ClientSessionOptions{ProtocolVersion: v})
	if err != nil {
		t.Fatalf("connect over SSE (%q): %v", v, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type connectFunc func(t *testing.T, s *Server, v string, opts *mcp.ClientOptions) *mcp.ClientSession

var transports = []struct {
	name    string
	connect connectFunc
}{{"stdio", stdioClient}, {"http", httpClient}, {"sse", sseClient}}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// The go-sdk client, in both eras and over both transports, sees the demo
// server as it was pinned: its name, its tools, and each pinned answer.
func TestGoClientServedAsPinned(t *testing.T) {
	b := load(t, demoFixtures)
	for _, tr := range transports {
		for _, v := range []string{"", "2025-11-25", "2025-06-18"} {
			t.Run(tr.name+"/"+v, func(t *testing.T) {
				cs := tr.connect(t, newServer(t, b, Options{}), v, nil)
				ctx := context.Background()
				init := cs.InitializeResult()
				if init.ServerInfo.Name != "jig-demo" || init.ServerInfo.Version != "1.0.0" {
					t.Errorf("server info = %+v, want jig-demo 1.0.0", init.ServerInfo)
				}
				if v == "" && init.ProtocolVersion != "2026-07-28" {
					t.Errorf("protocol version = %q, want the pinned 2026-07-28", init.ProtocolVersion)
				}
				if init.Capabilities == nil || init.Capabilities.Tools == nil {
					t.Errorf("capabilities %+v lack tools", init.Capabilities)
				}
				tools, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, tool := range tools.Tools {
					names = append(names, tool.Name)
				}
				if strings.Join(names, ",") != "echo,search_order,get_report,search_orders" {
					t.Errorf("tools = %v, want the four pinned (in file order)", names)
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
				if err != nil || text(t, res) != "hi" {
					t.Fatalf("echo: %v %+v", err, res)
				}
				res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_order", Arguments: map[string]any{"order_id": "nope"}})
				if err != nil || !res.IsError {
					t.Errorf("search_order nope: want the pinned tool error, got %v %+v", err, res)
				}
				res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_orders", Arguments: json.RawMessage(`{"limit":2.0,"customer":"acme"}`)})
				if err != nil || !strings.Contains(text(t, res), `"count":2`) {
					t.Errorf("search_orders (keys reordered, 2.0): %v %+v", err, res)
				}
			})
		}
	}
}

// post sends one raw message to the mock over HTTP and returns the body.
func post(t *testing.T, url, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp, out
}

// The answer's result is the pinned bytes: key order and number spelling as
// pinned, the client's id in place.
func TestAnswerIsThePinnedBytes(t *testing.T) {
	b := load(t, demoFixtures)
	ts := httptest.NewServer(newServer(t, b, Options{}).HTTPHandler())
	defer ts.Close()
	f, err := fixture.Load(filepath.Join(demoFixtures, "search.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := frames.Compact(f.Response.Result)
	_, body := post(t, ts.URL, `{"jsonrpc":"2.0","id":"c-7","method":"tools/call","params":{"name":"search_orders","arguments":{"customer":"acme","limit":2}}}`)
	if !bytes.Equal(body, []byte(`{"jsonrpc":"2.0","id":"c-7","result":`+string(want)+`}`)) {
		t.Errorf("answer is not the pinned bytes:\n got %s\nwant result %s", body, want)
	}
}

// A request that matches nothing gets an error naming the closest recorded
// request and the field that differs, and is listed in the report.
func TestNearMiss(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := newServer(t, load(t, demoFixtures), Options{})
			cs := tr.connect(t, s, "", nil)
			_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_orders", Arguments: map[string]any{"customer": "acme", "limit": 3}})
			if err == nil {
				t.Fatal("a call with another limit was answered")
			}
			for _, want := range []string{"no recorded tools/call search_orders matches", "search.json", "/arguments/limit: recorded 2, sent 3"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the near-miss error lacks %q: %v", want, err)
				}
			}
			rep := s.Report()
			if len(rep.Misses) != 1 || rep.Misses[0].Name != "search_orders" || len(rep.Misses[0].Closest) == 0 || rep.Misses[0].Closest[0].Source != filepath.Join(demoFixtures, "search.json") {
				t.Errorf("report misses = %+v", rep.Misses)
			}
			// A tool nothing recorded is said to be one first, with the
			// tools recorded; a fixture of another tool is no "closest".
			_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "cancel_order", Arguments: map[string]any{"order_id": "ord-1"}})
			if err == nil || !strings.Contains(err.Error(), "jig mock: no recorded call of tool cancel_order; recorded tools: echo, get_report, search_order, search_orders") || strings.Contains(err.Error(), "closest") || strings.Contains(err.Error(), "and 1 more") {
				t.Errorf("an unrecorded tool: %v", err)
			}
			rep = s.Report()
			if len(rep.Misses) != 2 || !rep.Misses[1].Unknown {
				t.Errorf("report misses = %+v, want the unrecorded tool marked unknown", rep.Misses)
			}
			// The other three were never asked for.
			if len(rep.Unused) != 4 {
				t.Errorf("unused = %+v, want all four fixtures", rep.Unused)
			}
		})
	}
}

// A request rule lets a pinned request match another value of its type,
// and --match tool answers any call of the tool; exact refuses both.
func TestMatchModes(t *testing.T) {
	dir := t.TempDir()
	f, err := fixture.Load(filepath.Join(demoFixtures, "search.json"))
	if err != nil {
		t.Fatal(err)
	}
	f.Request.Rules = []fixture.Rule{{Path: "/arguments/customer", Type: fixture.TypeString}}
	data, _ := f.Marshal()
	os.WriteFile(filepath.Join(dir, "search.json"), data, 0o644)
	b := load(t, dir)
	call := func(opts Options, args string) error {
		cs := stdioClient(t, newServer(t, b, opts), "", nil)
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_orders", Arguments: json.RawMessage(args)})
		return err
	}
	if err := call(Options{}, `{"customer":"globex","limit":2}`); err != nil {
		t.Errorf("rules: another customer under a string rule did not match: %v", err)
	}
	if err := call(Options{}, `{"customer":7,"limit":2}`); err == nil {
		t.Errorf("rules: a number where the rule wants a string matched")
	}
	if err := call(Options{Match: MatchExact}, `{"customer":"globex","limit":2}`); err == nil {
		t.Errorf("exact: another customer matched")
	}
	if err := call(Options{Match: MatchTool}, `{"customer":"x","limit":99}`); err != nil {
		t.Errorf("tool: any call of the tool should match: %v", err)
	}
	if err := call(Options{MatchFor: map[string]string{"search_orders": MatchExact}}, `{"customer":"globex","limit":2}`); err == nil {
		t.Errorf("--match search_orders=exact: another customer matched")
	}
}

// recording writes a jig transcript of frames (direction, raw) spaced by
// 10 ms, and returns its path.
func recording(t *testing.T, msgs ...[2]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	tw := frames.NewTranscriptWriter(fh, nil)
	clock := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	tw.WriteHeader(frames.Header{Type: "header", Format: 1, Jig: "test", Started: clock})
	log := frames.NewLog(func() time.Time { clock = clock.Add(10 * time.Millisecond); return clock })
	log.AddSink(tw)
	for _, m := range msgs {
		log.Append(frames.Frame{Dir: frames.Direction(m[0]), Raw: []byte(m[1])})
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

const (
	c2s = string(frames.ClientToServer)
	s2c = string(frames.ServerToClient)
)

func legacyHandshake() [][2]string {
	return [][2]string{
		{c2s, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"x","version":"1"}}}`},
		{s2c, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"recorded-server","version":"9.1"}}}`},
		{c2s, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	}
}

// Several recorded answers to one request are served in recorded order,
// then the last repeats, or with Cycle the first comes again.
func TestSequence(t *testing.T) {
	msgs := append(legacyHandshake(),
		[2]string{c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"next","arguments":{}}}`},
		[2]string{s2c, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"first"}]}}`},
		[2]string{c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"next","arguments":{}}}`},
		[2]string{s2c, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"second"}]}}`},
	)
	b := load(t, recording(t, msgs...))
	for _, c := range []struct {
		cycle bool
		want  string
	}{{false, "first second second"}, {true, "first second first"}} {
		for _, tr := range transports {
			cs := tr.connect(t, newServer(t, b, Options{Cycle: c.cycle, NoDelay: true}), "2025-06-18", nil)
			if got := cs.InitializeResult().ServerInfo.Name; got != "recorded-server" {
				t.Errorf("server name = %q, want the recorded one", got)
			}
			var got []string
			for range 3 {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "next", Arguments: map[string]any{}})
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, text(t, res))
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("%s cycle=%v: served %v, want %s", tr.name, c.cycle, got, c.want)
			}
		}
	}
}

// flowRecording is a legacy session whose one call sent progress and asked
// for an elicitation before its answer.
func flowRecording() [][2]string {
	return append(legacyHandshake(),
		[2]string{c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"rec-tok"},"name":"slow","arguments":{}}}`},
		[2]string{s2c, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"rec-tok","progress":1,"total":2}}`},
		[2]string{s2c, `{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"message":"sure?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}`},
		[2]string{c2s, `{"jsonrpc":"2.0","id":5,"result":{"action":"accept","content":{"ok":true}}}`},
		[2]string{s2c, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"rec-tok","progress":2,"total":2}}`},
		[2]string{s2c, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}`},
	)
}

// Recorded progress is re-sent under the client's own progress token, and
// a recorded elicitation is asked of the client, whose answer is recorded,
// before the recorded answer.
func TestFlowProgressAndElicitation(t *testing.T) {
	b := load(t, recording(t, flowRecording()...))
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			log := frames.NewLog(nil)
			progress := make(chan float64, 4)
			asked := make(chan string, 1)
			opts := &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
					if r.Params.ProgressToken == "mine" {
						progress <- r.Params.Progress
					}
				},
				ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked <- r.Params.Message
					return &mcp.ElicitResult{Action: "decline"}, nil
				},
			}
			cs := tr.connect(t, newServer(t, b, Options{Speed: 10, Log: log}), "2025-06-18", opts)
			params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}}
			params.SetProgressToken("mine")
			res, err := cs.CallTool(context.Background(), params)
			if err != nil || text(t, res) != "done" {
				t.Fatalf("slow: %v %+v", err, res)
			}
			// The client may handle a notification after the answer that
			// followed it: wait for both.
			got, timeout := 0, time.After(time.Minute)
			for got < 2 {
				select {
				case <-progress:
					got++
				case <-timeout:
					t.Fatalf("the client got %d progress notifications under its token, want 2", got)
				}
			}
			select {
			case m := <-asked:
				if m != "sure?" {
					t.Errorf("elicitation message %q", m)
				}
			default:
				t.Errorf("the recorded elicitation was not asked")
			}
			found := false
			for i := range log.Len() {
				f := log.Frame(i)
				found = found || (f.Dir == frames.ClientToServer && strings.Contains(string(f.Raw), `"decline"`))
			}
			if !found {
				t.Errorf("the client's answer to the elicitation was not recorded")
			}
		})
	}
}

// Each injected fault is seen by the client.
func TestInjectedFaults(t *testing.T) {
	b := load(t, demoFixtures)
	echo := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}
	faults := func(specs ...string) Options {
		var o Options
		for _, s := range specs {
			f, err := ParseFault(s)
			if err != nil {
				t.Fatal(err)
			}
			o.Faults = append(o.Faults, f)
		}
		return o
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			ctx := context.Background()
			// A retryable outage: two errors, then the pinned answer.
			cs := tr.connect(t, newServer(t, b, faults("echo:error=-32000,times=2")), "", nil)
			for i := range 2 {
				if _, err := cs.CallTool(ctx, echo); err == nil || !strings.Contains(err.Error(), "injected fault") {
					t.Errorf("call %d: want the injected error, got %v", i+1, err)
				}
			}
			if res, err := cs.CallTool(ctx, echo); err != nil || text(t, res) != "hi" {
				t.Errorf("after the outage: %v %+v", err, res)
			}
			cs = tr.connect(t, newServer(t, b, faults("echo:is-error")), "", nil)
			if res, err := cs.CallTool(ctx, echo); err != nil || !res.IsError {
				t.Errorf("is-error: %v %+v", err, res)
			}
			cs = tr.connect(t, newServer(t, b, faults("echo:delay=1h")), "", nil)
			short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			_, err := cs.CallTool(short, echo)
			cancel()
			if err == nil {
				t.Errorf("delay=1h: the call was answered")
			}
			cs = tr.connect(t, newServer(t, b, faults("echo:malformed")), "", nil)
			short, cancel = context.WithTimeout(ctx, 10*time.Second)
			_, err = cs.CallTool(short, echo)
			cancel()
			if err == nil {
				t.Errorf("malformed: the call succeeded")
			}
		})
	}
	// close-after: the connection goes after the handshake and one answer.
	s := newServer(t, b, faults("close-after=2"))
	cs := stdioClient(t, s, "", nil)
	ctx := context.Background()
	if _, err := cs.CallTool(ctx, echo); err != nil {
		t.Fatalf("the first call, within close-after=2: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := cs.CallTool(short, echo); err == nil {
		t.Errorf("close-after=2: the third message was sent")
	}
}

func TestParseFault(t *testing.T) {
	for _, bad := range []string{"echo", "echo:explode", "echo:delay=soon", "echo:error=x", "close-after=-1", "echo:error,times=0", ":is-error", "echo:malformed=1"} {
		if _, err := ParseFault(bad); err == nil {
			t.Errorf("ParseFault(%q) accepted it", bad)
		}
	}
	f, err := ParseFault("tools/list:error=-32001,times=3")
	if err != nil || f.Target != "tools/list" || f.Code != -32001 || f.Times != 3 {
		t.Errorf("ParseFault = %+v, %v", f, err)
	}
}

// A redacted secret is served as its placeholder, or with Fill as the
// value given; the mock never needs the secret to start.
func TestFill(t *testing.T) {
	msgs := append(legacyHandshake(),
		[2]string{c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{}}}`},
		[2]string{s2c, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"token [REDACTED:$API_TOKEN] ok"}]}}`},
	)
	path := recording(t, msgs...)
	for _, c := range []struct {
		fill map[string]string
		want string
	}{{nil, "token [REDACTED:$API_TOKEN] ok"}, {map[string]string{"API_TOKEN": `s3"cret`}, `token s3"cret ok`}} {
		b := load(t, path)
		b.Fill(c.fill)
		cs := stdioClient(t, newServer(t, b, Options{}), "2025-06-18", nil)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami", Arguments: map[string]any{}})
		if err != nil || text(t, res) != c.want {
			t.Errorf("fill %v: %v %q, want %q", c.fill, err, text(t, res), c.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"format":2,"scenario":"x"`), 0o644)
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "nope"), "nope"},
		{bad, "bad.json"},
		{t.TempDir(), "holds no fixtures"},
	} {
		if _, err := Load(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%s) = %v, want an error naming %q", c.path, err, c.want)
		}
	}
}

// Bad input over stdio gets a JSON-RPC error naming what is wrong, and the
// session goes on: the call after it is answered.
func TestBadInputStdio(t *testing.T) {
	s := newServer(t, load(t, demoFixtures), Options{})
	in := strings.Join([]string{
		`not json at all`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":2,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/whatever"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := s.ServeStdio(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		`"id":null,"error":{"code":-32700,"message":"jig mock: the message is not JSON-RPC`,
		`"id":2,"error":{"code":-32601,"message":"Method not found: jig mock has no recorded no/such/method"`,
		`"id":3,"error":{"code":-32602,"message":"jig mock: no recorded call of tool nope; recorded tools: echo, get_report`,
		`"id":4,"result":{`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("stdout lacks %s:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 5 {
		t.Errorf("%d answers, want 5 (none for the notification):\n%s", n, got)
	}
}

// What the recorded server sent outside any request (a list_changed after
// the handshake) is sent on the session's stream after the handshake.
func TestSessionMessages(t *testing.T) {
	msgs := append(legacyHandshake(),
		[2]string{s2c, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`},
		[2]string{s2c, `{"jsonrpc":"2.0","id":9,"method":"roots/list"}`},
		[2]string{c2s, `{"jsonrpc":"2.0","id":9,"result":{"roots":[]}}`},
	)
	b := load(t, recording(t, msgs...))
	for _, tr := range []struct {
		name    string
		connect connectFunc
	}{{"stdio", stdioClient}, {"sse", sseClient}, {"http", httpListeningClient}} {
		t.Run(tr.name, func(t *testing.T) {
			changed := make(chan struct{}, 1)
			opts := &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }}
			log := frames.NewLog(nil)
			tr.connect(t, newServer(t, b, Options{Log: log}), "2025-06-18", opts)
			select {
			case <-changed:
			case <-time.After(time.Minute):
				t.Fatal("the recorded tools/list_changed never reached the client")
			}
			// The recorded roots/list was asked on the same stream, and
			// the client's answer (a POST, over HTTP) reached the mock.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for !answeredRoots(log) {
				if _, err := log.Wait(ctx, log.Len()); err != nil {
					t.Fatal("the client never answered the recorded roots/list")
				}
			}
		})
	}
}

func answeredRoots(log *frames.Log) bool {
	for i := range log.Len() {
		f := log.Frame(i)
		if f.Dir == frames.ClientToServer && f.IsResponse() && strings.Contains(string(f.Raw), `"roots"`) {
			return true
		}
	}
	return false
}

// httpListeningClient is httpClient with the standalone stream: the go-sdk
// client opens its GET stream after the handshake.
func httpListeningClient(t *testing.T, s *Server, v string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ts := httptest.NewServer(s.HTTPHandler())
	t.Cleanup(ts.Close)
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: v})
	if err != nil {
		t.Fatalf("connect over HTTP (%q): %v", v, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// sequenceFixtures writes two fixtures of one request (echo "again",
// 2026-07-28 era) whose answers are "first" and "second": a sequence.
func sequenceFixtures(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	base, err := fixture.Load(filepath.Join(demoFixtures, "echo.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i, answer := range []string{"first", "second"} {
		f := *base
		f.Scenario = fmt.Sprintf("again-%d", i+1)
		f.Request.Params = json.RawMessage(`{"name":"echo","arguments":{"text":"again"}}`)
		f.Response.Result = json.RawMessage(fmt.Sprintf(`{"content":[{"type":"text","text":%q}],"resultType":"complete"}`, answer))
		data, err := f.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.Scenario+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// In the 2026-07-28 era over HTTP no request carries a session: each
// client (known by its clientInfo) is served the sequence from its start,
// whatever the others were served, and a client that discovers the server
// again starts afresh.
func TestStatelessSequencePerClient(t *testing.T) {
	s := newServer(t, load(t, sequenceFixtures(t)), Options{NoDelay: true})
	ts := httptest.NewServer(s.HTTPHandler())
	t.Cleanup(ts.Close)
	connect := func(name string) *mcp.ClientSession {
		c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil)
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
			t.Fatalf("%s connected in %s, want the stateless era", name, v)
		}
		return cs
	}
	call := func(cs *mcp.ClientSession) string {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "again"}})
		if err != nil {
			t.Fatal(err)
		}
		return text(t, res)
	}
	a, b := connect("client-a"), connect("client-b")
	got := []string{call(a), call(b), call(a), call(b), call(a)}
	if want := "first first second second second"; strings.Join(got, " ") != want {
		t.Errorf("a, b, a, b, a were served %v, want %s", got, want)
	}
	again := connect("client-a") // a new run of client-a: discover first
	if got := call(again); got != "first" {
		t.Errorf("client-a connecting again was served %q, want the sequence from its start", got)
	}
}

// The mock's decode accepts and refuses what the SDK's
// jsonrpc.DecodeMessage does, and sees the same kind of message.
func TestDecodeAgreesWithTheSDK(t *testing.T) {
	for _, raw := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":"a","method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-3,"result":{}}`,
		`{"jsonrpc":"2.0","id":"jig-mock-1","error":{"code":-1,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":2,"result":null}`,
		` {"id":2,"jsonrpc":"2.0","result":{}} `,
		`{"jsonrpc":"2.0","id":2,"method":"a","method":"b"}`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"id":1,"method":"ping"}`,
		`{"JSONRPC":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":3}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","id":null,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":"bad"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`"hello"`,
		`hello`,
	} {
		msg, sdkErr := jsonrpc.DecodeMessage([]byte(raw))
		in, err := decode([]byte(raw))
		if (sdkErr == nil) != (err == nil) {
			t.Errorf("%s: the SDK says %v, the mock %v", raw, sdkErr, err)
			continue
		}
		if err != nil {
			continue
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			if !in.request || in.call != m.IsCall() || in.method != m.Method || string(in.params) != string(m.Params) {
				t.Errorf("%s: the SDK sees a request (call %v, %q), the mock %+v", raw, m.IsCall(), m.Method, in)
			}
		case *jsonrpc.Response:
			if !in.response || in.request {
				t.Errorf("%s: the SDK sees a response, the mock %+v", raw, in)
			}
		}
	}
}

// flowFixture writes a fixture (made from the pinned echo) whose call sent
// progress, asked for an elicitation and sent progress again before its
// answer, as jig call --pin keeps it.
func flowFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	f, err := fixture.Load(filepath.Join(demoFixtures, "echo.json"))
	if err != nil {
		t.Fatal(err)
	}
	f.Scenario = "slow"
	f.Request.Params = json.RawMessage(`{"_meta":{"progressToken":7},"name":"echo","arguments":{"text":"slow"}}`)
	f.Response.Result = json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`)
	f.Flow = []fixture.FlowMessage{
		{AtMS: 1, Message: json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1,"total":2}}`)},
		{AtMS: 2, Message: json.RawMessage(`{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"sure?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}`),
			Answer: json.RawMessage(`{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":{"ok":true}}}`)},
		{AtMS: 3, Message: json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":2,"total":2}}`)},
	}
	data, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "slow.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A fixture's pinned flow is re-sent in order — progress under the
// client's own token, the elicitation asked and its answer awaited — to a
// client that asked for progress and handles elicitation; a client that
// asked for neither gets only the answer.
func TestFixtureFlow(t *testing.T) {
	b := load(t, flowFixture(t))
	sent := func(log *frames.Log) string {
		var got []string
		for i := range log.Len() {
			f := log.Frame(i)
			switch {
			case f.Dir == frames.ServerToClient && f.Method != "" && f.Kind != frames.KindResult:
				got = append(got, f.Method)
			case f.Dir == frames.ClientToServer && f.IsResponse():
				got = append(got, "answer")
			case f.Dir == frames.ServerToClient && strings.Contains(string(f.Raw), `"done"`):
				got = append(got, "result")
			}
		}
		return strings.Join(got, " ")
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			log := frames.NewLog(nil)
			progress := make(chan float64, 4)
			opts := &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
					if r.Params.ProgressToken == "mine" {
						progress <- r.Params.Progress
					}
				},
				ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "decline"}, nil
				},
			}
			cs := tr.connect(t, newServer(t, b, Options{NoDelay: true, Log: log}), "2025-06-18", opts)
			params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "slow"}}
			params.SetProgressToken("mine")
			res, err := cs.CallTool(context.Background(), params)
			if err != nil || text(t, res) != "done" {
				t.Fatalf("slow: %v %+v", err, res)
			}
			if got, want := sent(log), "notifications/progress elicitation/create answer notifications/progress result"; !strings.HasSuffix(got, want) {
				t.Errorf("the mock sent %q, want it to end %q", got, want)
			}
			for want := 1.0; want <= 2; want++ {
				select {
				case p := <-progress:
					if p != want {
						t.Errorf("progress %v, want %v", p, want)
					}
				case <-time.After(time.Minute):
					t.Fatalf("no progress %v under the client's token", want)
				}
			}

			plain := frames.NewLog(nil)
			cs = tr.connect(t, newServer(t, b, Options{NoDelay: true, Log: plain}), "2025-06-18", nil)
			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "slow"}})
			if err != nil || text(t, res) != "done" {
				t.Fatalf("slow, asking for nothing: %v %+v", err, res)
			}
			if got := sent(plain); strings.Contains(got, "progress") || strings.Contains(got, "elicitation") || !strings.HasSuffix(got, "result") {
				t.Errorf("to a client that asked for no progress and handles no elicitation the mock sent %q", got)
			}
		})
	}
}

// A GET without a session is 405 (the 2026-07-28 era has no standalone
// stream), with an unknown session 404, and without accepting an event
// stream 406; each says why.
func TestStandaloneStreamRefusals(t *testing.T) {
	ts := httptest.NewServer(newServer(t, load(t, recording(t, legacyHandshake()...)), Options{}).HTTPHandler())
	t.Cleanup(ts.Close)
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(init))
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	session := resp.Header.Get(sessionHeader)
	if session == "" {
		t.Fatal("initialize started no session")
	}
	for _, c := range []struct {
		session, accept string
		status          int
		says            string
	}{
		{"", "text/event-stream", http.StatusMethodNotAllowed, "without a session"},
		{"no-such-session", "text/event-stream", http.StatusNotFound, "no such session"},
		{session, "application/json", http.StatusNotAcceptable, "Accept: text/event-stream"},
	} {
		req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
		req.Header.Set("Accept", c.accept)
		if c.session != "" {
			req.Header.Set(sessionHeader, c.session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(body), c.says) {
			t.Errorf("GET session %q accept %q: %d %s, want %d saying %q", c.session, c.accept, resp.StatusCode, body, c.status, c.says)
		}
	}
}

// A transcript another tool wrote (here JSON-RPC lines with a direction,
// one of the formats jig open reads) is served like a jig recording, with
// a warning that says what it is.
func TestServesOtherTranscriptFormats(t *testing.T) {
	path := filepath.Join(t.TempDir(), "capture.jsonl")
	lines := []string{
		`{"direction":"send","message":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}}`,
		`{"direction":"receive","message":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"captured-server","version":"2.0"}}}}`,
		`{"direction":"send","message":{"jsonrpc":"2.0","method":"notifications/initialized"}}`,
		`{"direction":"send","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup","arguments":{"q":"a"}}}}`,
		`{"direction":"receive","message":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"found a"}]}}}`,
	}
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	b := load(t, path)
	if !strings.Contains(strings.Join(b.Warnings, "\n"), "not a jig recording") {
		t.Errorf("no warning says what was served: %q", b.Warnings)
	}
	cs := stdioClient(t, newServer(t, b, Options{NoDelay: true}), "2025-06-18", nil)
	if got := cs.InitializeResult().ServerInfo.Name; got != "captured-server" {
		t.Errorf("server name %q, want the captured one", got)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lookup", Arguments: map[string]any{"q": "a"}})
	if err != nil || text(t, res) != "found a" {
		t.Errorf("lookup: %v %+v", err, res)
	}
}

// roundsFixture is a call pinned on a tool that asked for input in one
// input_required round before it answered, and another tool whose round
// hands out the same requestState.
func roundsFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	base, err := fixture.Load(filepath.Join(demoFixtures, "echo.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"greet", "shout"} {
		f := *base
		f.Scenario = tool
		var def map[string]any
		_ = json.Unmarshal(base.Tool, &def)
		def["name"] = tool
		f.Tool, _ = json.Marshal(def)
		f.Rounds = []fixture.Round{{
			Request: fixture.Request{Method: "tools/call", Params: json.RawMessage(`{"name":"` + tool + `","arguments":{}}`)},
			Response: fixture.Response{Result: json.RawMessage(`{"content":[],"resultType":"input_required","requestState":"r1",` +
				`"inputRequests":{"who":{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}}}`)},
		}}
		f.Request.Params = json.RawMessage(`{"name":"` + tool + `","arguments":{},"inputResponses":{"who":{"action":"accept","content":{"name":"Ada"}}},"requestState":"r1"}`)
		f.Response.Result = json.RawMessage(`{"content":[{"type":"text","text":"` + tool + ` Ada"}],"resultType":"complete"}`)
		if err := f.Save(filepath.Join(dir, tool+".json")); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A fixture's input_required rounds are served round by round to the
// go-sdk client in the 2026-07-28 era: it is asked for the input, retries
// with the round's requestState, and gets the pinned answer — each time it
// calls, and for its own tool though another's round had the same state.
func TestFixtureRounds(t *testing.T) {
	b := load(t, roundsFixture(t))
	for _, tr := range transports[:2] {
		t.Run(tr.name, func(t *testing.T) {
			var asked atomic.Int32
			opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked.Add(1)
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
			}}
			cs := tr.connect(t, newServer(t, b, Options{NoDelay: true}), "", opts)
			for i, tool := range []string{"greet", "greet", "shout"} {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
				if err != nil || text(t, res) != tool+" Ada" {
					t.Fatalf("call %d of %s: %v %+v", i+1, tool, err, res)
				}
				if got := asked.Load(); got != int32(i+1) {
					t.Errorf("after call %d the client was asked %d times, want once a call", i+1, got)
				}
			}
		})
	}
}

// pagesFixture is server-everything 2025.11.25's resources/list as jig
// resources --pin pinned it: 10 pages of 10, each step one page.
const pagesFixture = "testdata/pages/resources.json"

type pages struct{ cursors, uris []string }

// pinnedPages are the cursors and URIs the pages fixture holds, in order.
func pinnedPages(t *testing.T) pages {
	t.Helper()
	f, err := fixture.Load(pagesFixture)
	if err != nil {
		t.Fatal(err)
	}
	var p pages
	for _, step := range f.Calls() {
		var page struct {
			Resources []struct {
				URI string `json:"uri"`
			} `json:"resources"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(step.Response.Result, &page); err != nil {
			t.Fatal(err)
		}
		for _, r := range page.Resources {
			p.uris = append(p.uris, r.URI)
		}
		if page.NextCursor != "" {
			p.cursors = append(p.cursors, page.NextCursor)
		}
	}
	if len(p.cursors) < 2 {
		t.Fatalf("%s is not paginated; the test proves nothing", pagesFixture)
	}
	return p
}

// A pinned paginated list is served page by page as the server paginated
// it: the go-sdk client, over every transport, asking in either era (the
// server was legacy: a 2026-07-28 client falls back), follows the pinned
// cursors to the pinned resources, and a cursor the server never handed out
// is a near miss, not another page.
func TestPinnedPages(t *testing.T) {
	want := pinnedPages(t)
	for _, tr := range transports {
		for _, v := range []string{"2025-06-18", ""} {
			t.Run(tr.name+"/"+v, func(t *testing.T) {
				cs := tr.connect(t, newServer(t, load(t, pagesFixture), Options{}), v, nil)
				var got pages
				cursor := ""
				for n := 0; n < 50; n++ {
					res, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
					if err != nil {
						t.Fatalf("page %d (cursor %q): %v", n+1, cursor, err)
					}
					for _, r := range res.Resources {
						got.uris = append(got.uris, r.URI)
					}
					if res.NextCursor == "" {
						break
					}
					got.cursors = append(got.cursors, res.NextCursor)
					cursor = res.NextCursor
				}
				if strings.Join(got.cursors, " ") != strings.Join(want.cursors, " ") || strings.Join(got.uris, " ") != strings.Join(want.uris, " ") {
					t.Errorf("paged through cursors %v and %d resources; pinned: %v and %d", got.cursors, len(got.uris), want.cursors, len(want.uris))
				}
				_, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: "bm8tc3VjaA=="})
				if err == nil || !strings.Contains(err.Error(), `sent "bm8tc3VjaA=="`) {
					t.Errorf("a cursor never handed out: %v, want a near miss naming the cursor", err)
				}
			})
		}
	}
}
