package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session/peers"
)

// jigCommand is the command that runs this test binary as jig.
func jigCommand(args ...string) []string {
	return append([]string{"env", asJigEnv + "=1", os.Args[0]}, args...)
}

// jig replay against jig mock is green: the mock is faithful to its own
// fixtures (demo fixtures, 2026-07-28 era, over stdio).
func TestMockReplayGreen(t *testing.T) {
	dir := pinDemo(t)
	args := append([]string{"replay", dir, "--"}, jigCommand("mock", "--no-record", dir)...)
	code, stdout, stderr := jig(t, "", args...)
	if code != 0 || !strings.Contains(stdout, "3 scenarios: 3 ok") {
		t.Fatalf("jig replay against jig mock: exit %d\n%s%s", code, stdout, stderr)
	}
}

// The same over Streamable HTTP: jig replay's era probe carries a session id
// no 2026-07-28 server knows (the era has none), and the mock of 2026-07-28
// fixtures refused it with 404, so the replay fell to "not run: the server
// does not speak 2026-07-28".
func TestMockListenReplayGreen(t *testing.T) {
	dir := pinDemo(t)
	m := startMock(t, "mock", dir, "--no-record", "--listen", "127.0.0.1:0")
	code, stdout, stderr := jig(t, "", "replay", dir, "--url", m.url)
	if code != 0 || !strings.Contains(stdout, "3 scenarios: 3 ok") {
		t.Fatalf("jig replay against jig mock --listen: exit %d\n%s%s", code, stdout, stderr)
	}
	m.stop(t)
}

// --strict fails the run when a request matched nothing; the near-miss
// answer names the closest fixture; --report lists the miss and the unused
// fixtures.
func TestMockStrictReport(t *testing.T) {
	dir := pinDemo(t)
	report := filepath.Join(t.TempDir(), "unused.json")
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_order","arguments":{"order_id":"ord-9999"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_report","arguments":{}}}
`
	code, stdout, stderr := jig(t, in, "mock", dir, "--strict", "--no-record", "--report", "json="+report)
	if code != exitServerError {
		t.Fatalf("exit %d, want 1 under --strict with a miss\n%s%s", code, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 3 {
		t.Fatalf("stdout has %d lines, want 3 answers:\n%s", len(lines), stdout)
	}
	for _, want := range []string{`"id":2,"error"`, "search-order.json", `/arguments/order_id: recorded \"ord-1044\", sent \"ord-9999\"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the near-miss answer lacks %s:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "missed: tools/call search_order") || !strings.Contains(stderr, "--strict: 1 request matched nothing") {
		t.Errorf("stderr does not list the miss:\n%s", stderr)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Served int
		Unused []struct{ Source, Name string }
		Misses []struct{ Name string }
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, data)
	}
	if rep.Served != 1 || len(rep.Misses) != 1 || len(rep.Unused) != 2 {
		t.Errorf("report = %+v, want 1 served, 1 miss, 2 unused", rep)
	}
	// Without --strict the same session exits 0.
	if code, _, stderr := jig(t, in, "mock", dir, "--no-record"); code != 0 {
		t.Errorf("without --strict: exit %d\n%s", code, stderr)
	}
}

func TestMockBadFlags(t *testing.T) {
	dir := pinDemo(t)
	os.Unsetenv("JIG_TEST_UNSET")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--speed", "0"}, "--speed 0"},
		{[]string{"--inject", "echo:explode"}, `"explode" is not a fault`},
		{[]string{"--fill", "JIG_TEST_UNSET"}, "$JIG_TEST_UNSET is not set"},
		{[]string{"--report", "junit=x.xml"}, "expected json=FILE"},
		{[]string{"--match", "fuzzy"}, "--match fuzzy"},
		{[]string{"--transport", "sse"}, "--transport needs --listen"},
		{[]string{"--transport", "ws", "--listen", "127.0.0.1:0"}, `--transport "ws"`},
	} {
		code, _, stderr := jig(t, "", append([]string{"mock", dir, "--no-record"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("jig mock %v: exit %d, want 2 and %q:\n%s", c.args, code, c.want, stderr)
		}
	}
	if code, _, stderr := jig(t, "", "mock", filepath.Join(dir, "nope.json")); code != exitUsage || !strings.Contains(stderr, "nope.json") {
		t.Errorf("a missing file: exit %d\n%s", code, stderr)
	}
}

// jig mock --listen, as a process: a go-sdk client over Streamable HTTP and
// over HTTP+SSE gets the pinned answer; ctrl+c ends it with the summary and
// exit 0.
func TestMockListen(t *testing.T) {
	dir := pinDemo(t)
	for _, transport := range []string{"http", "sse"} {
		t.Run(transport, func(t *testing.T) {
			m := startMock(t, "mock", dir, "--no-record", "--listen", "127.0.0.1:0", "--transport", transport)
			var tr mcp.Transport = &mcp.StreamableClientTransport{Endpoint: m.url}
			if transport == "sse" {
				tr = &mcp.SSEClientTransport{Endpoint: m.url}
			}
			callOrder(t, tr, "")
			if rest := m.stop(t); !strings.Contains(rest, "served 1 answer; 3 recorded exchanges: 1 used, 2 unused; 0 requests matched nothing") {
				t.Errorf("the summary at exit:\n%s", rest)
			}
		})
	}
}

// Each client session of an HTTP mock is recorded in a file of its own,
// as jig proxy records them.
func TestMockRecordsEachSession(t *testing.T) {
	dir := pinDemo(t)
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	m := startMock(t, "mock", dir, "--record", rec, "--listen", "127.0.0.1:0")
	callOrder(t, &mcp.StreamableClientTransport{Endpoint: m.url}, "2025-11-25")
	callOrder(t, &mcp.StreamableClientTransport{Endpoint: m.url}, "2025-11-25")
	rest := m.stop(t)
	for _, file := range []string{rec, strings.TrimSuffix(rec, ".jsonl") + "-2.jsonl"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v\n%s", err, rest)
		}
		if n := strings.Count(string(data), `\"method\":\"tools/call\"`); n != 1 || !strings.Contains(string(data), `\"method\":\"initialize\"`) {
			t.Errorf("%s holds %d calls (want its session's one, after its initialize):\n%s", file, n, data)
		}
	}
	// Without --record each session's file is named for jig mock, the
	// second too (it was named "session-2", like no command).
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	m = startMock(t, "mock", dir, "--listen", "127.0.0.1:0")
	callOrder(t, &mcp.StreamableClientTransport{Endpoint: m.url}, "2025-11-25")
	callOrder(t, &mcp.StreamableClientTransport{Endpoint: m.url}, "2025-11-25")
	rest = m.stop(t)
	files, _ := filepath.Glob(filepath.Join(state, "jig", "sessions", "*.jsonl"))
	named := 0
	for _, f := range files {
		if strings.Contains(filepath.Base(f), "_mock") {
			named++
		}
	}
	if len(files) != 2 || named != 2 {
		t.Errorf("the two sessions were recorded as %q, want two files named for jig mock\n%s", files, rest)
	}
}

// callOrder connects a go-sdk client over tr in protocol version v and
// calls the pinned search_order.
func callOrder(t *testing.T, tr mcp.Transport, v string) {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: v})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_order", Arguments: map[string]any{"order_id": "ord-1044"}})
	if err != nil || res.IsError || len(res.Content) == 0 {
		t.Fatalf("search_order: %v %+v", err, res)
	}
}

// A mockProcess is jig mock --listen running as a process.
type mockProcess struct {
	cmd *exec.Cmd
	sc  *bufio.Scanner
	url string
	// start is what it said up to where it listens.
	start string
}

func startMock(t *testing.T, args ...string) *mockProcess {
	t.Helper()
	argv := jigCommand(args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	m := &mockProcess{cmd: cmd, sc: bufio.NewScanner(stderr)}
	var seen []string
	for m.url == "" && m.sc.Scan() {
		seen = append(seen, m.sc.Text())
		if _, u, ok := strings.Cut(m.sc.Text(), "listening on "); ok {
			m.url, _, _ = strings.Cut(u, " ")
		}
	}
	if m.url == "" {
		t.Fatalf("jig mock --listen never said where: %q", seen)
	}
	m.start = strings.Join(seen, "\n")
	return m
}

// stop ends it as ctrl+c would and returns what it said after.
func (m *mockProcess) stop(t *testing.T) string {
	t.Helper()
	m.cmd.Process.Signal(os.Interrupt)
	var rest strings.Builder
	for m.sc.Scan() {
		rest.WriteString(m.sc.Text() + "\n")
	}
	if err := m.cmd.Wait(); err != nil {
		t.Errorf("after ctrl+c: %v\n%s", err, rest.String())
	}
	return rest.String()
}

// Fixtures pinned against server-everything — a progress-emitting tool, an
// elicitation, a JSON-RPC error — replay green against jig mock of them;
// a recording of its paginated resources is served page by page, so jig
// lists the same hundred resources from the mock as from the server.
func TestMockServerEverything(t *testing.T) {
	dir := t.TempDir()
	for _, p := range [][]string{
		{"echo", "--args", `{"message":"hi"}`, "--pin", filepath.Join(dir, "echo.json")},
		{"trigger-long-running-operation", "--args", `{"duration":1,"steps":2}`, "--progress", "--pin", filepath.Join(dir, "long.json")},
		{"trigger-elicitation-request", "--elicit", "decline", "--pin", filepath.Join(dir, "elicit.json")},
		{"get-sum", "--args", `{"a":"x","b":2}`, "--pin", filepath.Join(dir, "sum-error.json")},
	} {
		if code, _, stderr := jig(t, "", append(append([]string{"call"}, p...), serverEverything(t)...)...); code > 1 {
			t.Fatalf("jig call %s --pin: exit %d\n%s", p[0], code, stderr)
		}
	}
	args := append([]string{"replay", dir, "--"}, jigCommand("mock", "--no-record", dir)...)
	if code, stdout, stderr := jig(t, "", args...); code != 0 || !strings.Contains(stdout, "4 scenarios: 4 ok") {
		t.Fatalf("jig replay against jig mock of server-everything's fixtures: exit %d\n%s%s", code, stdout, stderr)
	}
	// Replay holds each call to what it asked of its client (the
	// elicitation, the progress): green against the server itself, and red
	// for a fixture that says the call asked for nothing.
	if code, stdout, stderr := jig(t, "", "replay", dir); code != 0 || !strings.Contains(stdout, "4 scenarios: 4 ok") {
		t.Fatalf("jig replay against server-everything: exit %d\n%s%s", code, stdout, stderr)
	}
	quiet, err := fixture.Load(filepath.Join(dir, "elicit.json"))
	if err != nil {
		t.Fatal(err)
	}
	quiet.Flow = nil
	quietFile := filepath.Join(t.TempDir(), "quiet.json")
	if err := quiet.Save(quietFile); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := jig(t, "", "replay", quietFile); code != 1 || !strings.Contains(stdout, "now asks its client for input it did not ask for when pinned: elicitation/create") {
		t.Errorf("a fixture without the call's elicitation, replayed: exit %d, want the elicitation named as drift\n%s%s", code, stdout, stderr)
	}

	// The pinned calls kept their flow, and the mock sends it again: the
	// progress to a client that asks for it, the elicitation to be answered.
	for file, want := range map[string]string{"long.json": `"notifications/progress"`, "elicit.json": `"elicitation/create"`} {
		f, err := fixture.Load(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if flow, _ := json.Marshal(f.Calls()[0].Flow); !strings.Contains(string(flow), want) {
			t.Errorf("%s was pinned without its %s: flow %s", file, want, flow)
		}
	}
	code, _, progress := jig(t, "", append([]string{"call", "trigger-long-running-operation", "--args", `{"duration":1,"steps":2}`, "--progress", "--"}, jigCommand("mock", "--no-record", dir)...)...)
	if code != 0 || strings.Count(progress, "progress") < 2 {
		t.Errorf("jig call --progress against the mock: exit %d, want two progress lines on stderr:\n%s", code, progress)
	}
	rec := filepath.Join(t.TempDir(), "elicit.jsonl")
	code, _, called := jig(t, "", append([]string{"call", "trigger-elicitation-request", "--elicit", "decline", "--record", rec, "--"}, jigCommand("mock", "--no-record", dir)...)...)
	if data, _ := os.ReadFile(rec); code > 1 || !strings.Contains(string(data), `elicitation/create`) || !strings.Contains(string(data), `decline`) {
		t.Errorf("jig call of the pinned elicitation against the mock: exit %d, not asked and answered:\n%s\n%s", code, data, called)
	}

	rec = filepath.Join(t.TempDir(), "resources.jsonl")
	old := append([]string{"--"}, peers.Node(t, peers.EverythingOld, "stdio")...)
	code, real, stderr := jig(t, "", append([]string{"resources", "--record", rec}, old...)...)
	if code != 0 || !strings.Contains(real, "100 resources") {
		t.Fatalf("jig resources against server-everything: exit %d\n%s%s", code, real, stderr)
	}
	if data, _ := os.ReadFile(rec); strings.Count(string(data), "nextCursor") < 2 {
		t.Fatalf("the recorded resources/list was not paginated; the test proves nothing")
	}
	code, mocked, stderr := jig(t, "", append([]string{"resources", "--"}, jigCommand("mock", "--no-record", rec)...)...)
	if code != 0 || mocked != real {
		t.Errorf("jig resources against jig mock of the recording: exit %d\n--- mock:\n%s\n--- server:\n%s\n%s", code, mocked, real, stderr)
	}
}

// In the 2026-07-28 era a recorded multi-round-trip call (two
// input_required rounds with evolving requestState, against the go-sdk's
// conformance server) is served round by round: jig call against the mock
// of the recording ends as it did against the server.
func TestMockMultiRoundTrip(t *testing.T) {
	server := peers.Path(t, peers.GoSDKConformance)
	answers := filepath.Join(t.TempDir(), "answers.json")
	os.WriteFile(answers, []byte(`[{"action":"accept","content":{"name":"Ada"}},{"action":"accept","content":{"color":"blue"}}]`), 0o644)
	rec := filepath.Join(t.TempDir(), "mrtr.jsonl")
	call := []string{"call", "test_input_required_result_multi_round", "--elicit", "@" + answers, "--json"}
	code, real, stderr := jig(t, "", append(call, "--record", rec, "--", server)...)
	if code != 0 {
		t.Fatalf("against the server: exit %d\n%s%s", code, real, stderr)
	}
	if data, _ := os.ReadFile(rec); strings.Count(string(data), `\"resultType\":\"input_required\"`) < 2 {
		t.Fatalf("the recording holds fewer than two input_required rounds; the test proves nothing")
	}
	code, mocked, stderr := jig(t, "", append(append(call, "--no-record", "--"), jigCommand("mock", "--no-record", rec)...)...)
	if code != 0 || mocked != real {
		t.Errorf("against jig mock of the recording: exit %d\n--- mock:\n%s\n--- server:\n%s\n%s", code, mocked, real, stderr)
	}
}

// A call pinned on a multi-round-trip tool keeps its input_required
// rounds: the mock of the fixture asks the client round by round (it
// answered the first request with the final result, so the client was
// never asked), replay against the mock and the server is green, and a
// fixture that lost a round is drift the replay names.
func TestMockPinnedMultiRoundTrip(t *testing.T) {
	server := peers.Path(t, peers.GoSDKConformance)
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.json")
	os.WriteFile(answers, []byte(`[{"action":"accept","content":{"name":"Ada"}},{"action":"accept","content":{"color":"blue"}}]`), 0o644)
	fx := filepath.Join(dir, "fixtures", "mrtr.json")
	os.Mkdir(filepath.Dir(fx), 0o755)
	call := []string{"call", "test_input_required_result_multi_round", "--elicit", "@" + answers, "--json", "--no-record"}
	code, real, stderr := jig(t, "", append(call, "--pin", fx, "--", server)...)
	if code != 0 || !strings.Contains(stderr, "rounds: 2 input_required round(s)") {
		t.Fatalf("pinning against the server: exit %d, want the two rounds described\n%s%s", code, real, stderr)
	}
	rec := filepath.Join(dir, "mock.jsonl")
	code, mocked, stderr := jig(t, "", append(append(call[:len(call)-1], "--record", rec, "--"), jigCommand("mock", "--no-record", fx)...)...)
	if code != 0 || mocked != real {
		t.Errorf("against jig mock of the fixture: exit %d\n--- mock:\n%s\n--- server:\n%s\n%s", code, mocked, real, stderr)
	}
	if data, _ := os.ReadFile(rec); strings.Count(string(data), `\"resultType\":\"input_required\"`) != 2 {
		t.Errorf("the client was not asked round by round by the mock:\n%s", data)
	}
	for _, args := range [][]string{{"replay", fx}, append([]string{"replay", fx, "--"}, jigCommand("mock", "--no-record", fx)...)} {
		if code, stdout, stderr := jig(t, "", args...); code != 0 || !strings.Contains(stdout, "1 ok") {
			t.Errorf("jig %s: exit %d\n%s%s", strings.Join(args[:2], " "), code, stdout, stderr)
		}
	}
	f, err := fixture.Load(fx)
	if err != nil {
		t.Fatal(err)
	}
	f.Rounds = f.Rounds[:1]
	cut := filepath.Join(dir, "cut.json")
	if err := f.Save(cut); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := jig(t, "", "replay", cut)
	if code != 1 || !strings.Contains(stdout, "round 2 step2: elicitation/create {color*}") {
		t.Errorf("a fixture that lost a round, replayed against the server: exit %d, want drift naming round 2\n%s%s", code, stdout, stderr)
	}
}

// A request answered by a recorded call that got no answer (its client
// cancelled it) is held open, as the recorded one was — and the mock says
// so on its stderr, which a client such as jig shows: it hung with no hint.
func TestMockSaysARecordedCancelledCallHoldsOpen(t *testing.T) {
	server := peers.Node(t, peers.Everything, "stdio")
	rec := filepath.Join(t.TempDir(), "cancelled.jsonl")
	args := `{"duration":10,"steps":2}`
	code, _, stderr := jig(t, "", append([]string{"call", "trigger-long-running-operation", "--args", args, "--cancel-after", "2s", "--record", rec, "--"}, server...)...)
	if code != exitCancelled {
		t.Fatalf("recording the cancelled call: exit %d\n%s", code, stderr)
	}
	code, _, stderr = jig(t, "", append([]string{"call", "trigger-long-running-operation", "--args", args, "--cancel-after", "3s", "--frames", "--"}, jigCommand("mock", "--no-record", rec)...)...)
	if code != exitCancelled || !strings.Contains(stderr, "a call that got no answer (its client cancelled it)") {
		t.Errorf("against the mock: exit %d, want %d with the mock's notice on its stderr\n%s", code, exitCancelled, stderr)
	}
}

// Every recorded exchange is counted once at exit — used, unused, or a
// recorded call with no answer to serve, said as such (a call the recorded
// client cancelled was in the "serving N" count but neither used nor
// unused) — and a missed request's closest says recorded and sent values.
// A real go-sdk client against a recording of server-everything.
func TestMockCountsAddUp(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	server := peers.Node(t, peers.Everything, "stdio")
	dir := t.TempDir()
	rec := filepath.Join(dir, "cancelled.jsonl")
	code, _, stderr := jig(t, "", append([]string{"call", "trigger-long-running-operation", "--args", `{"duration":10,"steps":2}`, "--cancel-after", "1s", "--record", rec, "--"}, server...)...)
	if code != exitCancelled {
		t.Fatalf("recording the cancelled call: exit %d\n%s", code, stderr)
	}
	echo := filepath.Join(dir, "echo.jsonl")
	if code, _, stderr := jig(t, "", append([]string{"call", "echo", "--args", `{"message":"one"}`, "--record", echo, "--"}, server...)...); code != 0 {
		t.Fatalf("recording echo: exit %d\n%s", code, stderr)
	}
	m := startMock(t, "mock", rec, echo, "--no-record", "--listen", "127.0.0.1:0")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: m.url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "one"}}); err != nil {
		t.Fatalf("the recorded echo: %v", err)
	}
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "two"}})
	if err == nil || !strings.Contains(err.Error(), `/arguments/message: recorded "one", sent "two"`) {
		t.Errorf("echo two: %v, want a near miss naming the recorded and the sent message", err)
	}
	cs.Close()
	rest := m.stop(t)
	sum := regexp.MustCompile(`(\d+) recorded exchanges: (\d+) used, (\d+) unused, 1 recorded call was cancelled before its answer: not served`).FindStringSubmatch(rest)
	if sum == nil {
		t.Fatalf("the summary does not account for the cancelled call:\n%s", rest)
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	if n(sum[1]) != n(sum[2])+n(sum[3])+1 {
		t.Errorf("%s exchanges ≠ %s used + %s unused + 1 not served:\n%s", sum[1], sum[2], sum[3], rest)
	}
	for _, want := range []string{
		"not served: " + rec + "#",
		"(tools/call trigger-long-running-operation): its client cancelled it before its answer",
		`missed: tools/call echo {"name":"echo","arguments":{"message":"two"}} (1×); closest ` + echo + `#`,
		`(/arguments/message: recorded "one", sent "two")`,
	} {
		if !strings.Contains(rest, want) {
			t.Errorf("the summary lacks %q:\n%s", want, rest)
		}
	}
}

// Fixtures of one server and a recording of another are refused, naming
// both: served together, the mock said it was jig-demo 1.0.0 and listed
// server-everything's tools, not the demo tools it answered, without a
// word. --mix-servers serves them, saying which handshake and tool list
// are served and every tool answered; a go-sdk client sees just that.
func TestMockRefusesMixedServers(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := pinDemo(t)
	rec := filepath.Join(t.TempDir(), "everything.jsonl")
	if code, _, stderr := jig(t, "", append([]string{"call", "get-sum", "--args", `{"a":2,"b":3}`, "--record", rec, "--"}, peers.Node(t, peers.Everything, "stdio")...)...); code != 0 {
		t.Fatalf("recording get-sum: exit %d\n%s", code, stderr)
	}
	code, _, stderr := jig(t, "", "mock", dir, rec, "--no-record")
	for _, want := range []string{"recorded from different servers: jig-demo 1.0.0 (", "mcp-servers/everything 2.0.0 (" + rec + ")", "--mix-servers"} {
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("fixtures and a recording of two servers: exit %d, want 2 and %q:\n%s", code, want, stderr)
		}
	}
	// Two versions of one server are served together, saying so.
	v2 := filepath.Join(t.TempDir(), "report-v2.json")
	if code, _, stderr := jig(t, "", "call", "get_report", "--args", "{}", "--demo", "--release", "2", "--pin", v2); code != 0 {
		t.Fatalf("pinning against release 2: exit %d\n%s", code, stderr)
	}
	code, _, stderr = jig(t, "", "mock", dir, v2, "--no-record")
	if code != 0 || !strings.Contains(stderr, "warning: the sources were recorded from 2 versions of jig-demo: jig-demo 1.0.0 (") || !strings.Contains(stderr, "jig-demo 2.0.0 ("+v2+"); the handshake says 1.0.0") {
		t.Errorf("two versions of one server: exit %d, want 0 and a warning naming both\n%s", code, stderr)
	}
	m := startMock(t, "mock", dir, rec, "--no-record", "--mix-servers", "--listen", "127.0.0.1:0")
	for _, want := range []string{
		"warning: the handshake (name, version, capabilities) is jig-demo 1.0.0's",
		"tools/list serves the recorded list of " + rec + "#",
		"which does not list get_report, search_order, search_orders: answered all the same",
		"tools answered: get-sum, get_report, search_order, search_orders",
	} {
		if !strings.Contains(m.start, want) {
			t.Errorf("--mix-servers does not say %q:\n%s", want, m.start)
		}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: m.url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "jig-demo" {
		t.Errorf("the handshake says %q, want jig-demo as warned", got)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tl := range tools.Tools {
		listed[tl.Name] = true
	}
	if !listed["get-sum"] || listed["get_report"] {
		t.Errorf("tools/list = %v, want server-everything's list, as warned", listed)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_order", Arguments: map[string]any{"order_id": "ord-1044"}}); err != nil {
		t.Errorf("search_order, warned as answered: %v", err)
	}
	cs.Close()
	m.stop(t)
}

// A call pinned or recorded against server-everything keeps only what the
// server did for the call: its roots/list, asked 350 ms after the handshake
// on its own schedule, lands inside the call's window (with the "Roots
// updated" log it sends on the answer), and was kept in the call's flow, so
// the mock asked it again mid-call — of fixtures that never asked it at all,
// and of a recording at the call's time instead of after the handshake.
func TestMockStrayRootsList(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := t.TempDir()
	pin, rec := filepath.Join(dir, "long.json"), filepath.Join(dir, "long.jsonl")
	args := `{"duration":1,"steps":2}`
	if code, _, stderr := jig(t, "", append([]string{"call", "trigger-long-running-operation", "--args", args, "--progress", "--pin", pin, "--record", rec}, serverEverything(t)...)...); code != 0 {
		t.Fatalf("pinning: exit %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := frames.ReadTranscript(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	open, landed := false, false
	for _, f := range tr.Frames {
		switch {
		case f.Method == "tools/call":
			open = f.Dir == frames.ClientToServer
		case open && f.Method == "roots/list" && f.Kind == frames.KindRequest:
			landed = true
		}
	}
	if !landed {
		t.Fatalf("server-everything's roots/list did not land inside the call; the test proves nothing:\n%s", data)
	}
	f, err := fixture.Load(pin)
	if err != nil {
		t.Fatal(err)
	}
	flow, _ := json.Marshal(f.Calls()[0].Flow)
	if strings.Contains(string(flow), "roots/list") || strings.Contains(string(flow), "Roots updated") || strings.Count(string(flow), "notifications/progress") != 2 {
		t.Errorf("the pinned flow keeps the server's own roots/list, or lost the call's progress: %s", flow)
	}

	// A go-sdk client (it declares roots) counts what each mock asks it.
	connect := func(source string) (*mcp.ClientSession, chan string, *mockProcess) {
		m := startMock(t, "mock", source, "--no-record", "--listen", "127.0.0.1:0")
		asked := make(chan string, 16)
		c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
		c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "roots/list" {
					asked <- method
				}
				return next(ctx, method, req)
			}
		})
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: m.url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		return cs, asked, m
	}
	call := func(cs *mcp.ClientSession) {
		t.Helper()
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: json.RawMessage(args), Meta: mcp.Meta{"progressToken": "p"}}); err != nil {
			t.Fatal(err)
		}
	}

	// The fixture's mock asks nothing.
	cs, asked, m := connect(pin)
	call(cs)
	cs.Close()
	m.stop(t)
	if len(asked) != 0 {
		t.Errorf("the mock of the pinned call asked roots/list %d time(s) in the call; the server asked it on its own", len(asked))
	}

	// The recording's mock asks it once, after the handshake, as the
	// server did, with no call open; the call asks nothing more.
	cs, asked, m = connect(rec)
	select {
	case <-asked:
	case <-time.After(30 * time.Second):
		t.Fatal("the mock of the recording never asked roots/list after the handshake (the server did, 350 ms after)")
	}
	call(cs)
	cs.Close()
	m.stop(t)
	if len(asked) != 0 {
		t.Errorf("the mock of the recording asked roots/list again in the call")
	}
}

// A paginated list pinned with jig resources --pin (server-everything
// 2025.11.25: 100 resources in 10 pages) is a scenario of its pages: it
// replays green against the server and against jig mock of it, and jig
// resources against the mock lists what it listed against the server,
// page by page (before, only a recording could serve pages; a list could
// not be pinned).
func TestMockPinnedPages(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	pin := filepath.Join(t.TempDir(), "resources.json")
	old := append([]string{"--"}, peers.Node(t, peers.EverythingOld, "stdio")...)
	code, real, stderr := jig(t, "", append([]string{"resources", "--pin", pin}, old...)...)
	if code != 0 || !strings.Contains(real, "100 resources") || !strings.Contains(stderr, "pages: 10 pages of resources/list, each a step") {
		t.Fatalf("jig resources --pin against server-everything: exit %d\n%s%s", code, real, stderr)
	}
	f, err := fixture.Load(pin)
	if err != nil {
		t.Fatal(err)
	}
	if calls := f.Calls(); len(calls) != 10 || !strings.Contains(string(calls[1].Request.Params), `"cursor"`) {
		t.Fatalf("the pin holds %d steps, want the 10 pages with their cursors", len(calls))
	}
	if code, stdout, stderr := jig(t, "", "replay", pin); code != 0 || !strings.Contains(stdout, "1 scenario: 1 ok") {
		t.Errorf("jig replay of the pages against the server: exit %d\n%s%s", code, stdout, stderr)
	}
	args := append([]string{"replay", pin, "--"}, jigCommand("mock", "--no-record", pin)...)
	if code, stdout, stderr := jig(t, "", args...); code != 0 || !strings.Contains(stdout, "1 scenario: 1 ok") {
		t.Errorf("jig replay of the pages against jig mock of them: exit %d\n%s%s", code, stdout, stderr)
	}
	code, mocked, stderr := jig(t, "", append([]string{"resources", "--"}, jigCommand("mock", "--no-record", pin)...)...)
	if _, list, _ := strings.Cut(real, "\n"); code != 0 || !strings.HasSuffix(mocked, list) {
		t.Errorf("jig resources against the mock: exit %d\n--- mock:\n%s\n--- server:\n%s\n%s", code, mocked, real, stderr)
	}
	if code, _, stderr := jig(t, "", append([]string{"resources", "--pin", pin}, old...)...); code != exitUsage || !strings.Contains(stderr, "--force") {
		t.Errorf("pinning over the fixture: exit %d, want 2 naming --force\n%s", code, stderr)
	}
}

// The official Inspector's CLI gets a prompt jig recorded without arguments:
// it sends "arguments": {}, which says what their absence says (it was a
// near miss: "/arguments: not recorded, sent {}"), over stdio.
func TestMockInspectorEmptyArguments(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	cli := peers.Path(t, peers.InspectorCLI)
	rec := filepath.Join(t.TempDir(), "prompt.jsonl")
	if code, _, stderr := jig(t, "", append([]string{"prompt", "simple-prompt", "--record", rec}, serverEverything(t)...)...); code != 0 {
		t.Fatalf("recording prompts/get: exit %d\n%s", code, stderr)
	}
	argv := append([]string{cli}, jigCommand("mock", "--no-record", rec)...)
	cmd := exec.Command("node", append(argv, "--method", "prompts/get", "--prompt-name", "simple-prompt")...)
	cmd.Dir = filepath.Dir(cli) // it finds its package.json from the working directory
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "This is a simple prompt without arguments") {
		t.Errorf("the Inspector's prompts/get of the recorded prompt: %v\n%s", err, out)
	}
}

// A 2026-07-28 recording holds jig's subscriptions/listen, a stream its
// client ends by cancelling it: the mock serves it open again, without
// calling it a cancelled call at start, while serving, or at exit (it did
// all three), against the go-sdk's example server (which has no version:
// the mock named it "everything, ").
func TestMockListenIsNoCancelledCall(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	server := peers.Path(t, peers.GoSDKEverything)
	rec := filepath.Join(t.TempDir(), "greet.jsonl")
	if code, _, stderr := jig(t, "", "call", "greet", "--args", `{"name":"x"}`, "--record", rec, "--", server); code != 0 {
		t.Fatalf("recording greet: exit %d\n%s", code, stderr)
	}
	if data, _ := os.ReadFile(rec); !strings.Contains(string(data), "subscriptions/listen") {
		t.Fatalf("the recording holds no subscriptions/listen; the test proves nothing:\n%s", data)
	}
	m := startMock(t, "mock", rec, "--no-record", "--listen", "127.0.0.1:0")
	code, out, stderr := jig(t, "", "call", "greet", "--args", `{"name":"x"}`, "--no-record", "--url", m.url)
	rest := m.stop(t)
	if code != 0 || !strings.Contains(out, "Hi x") {
		t.Errorf("jig call greet against the mock: exit %d\n%s%s", code, out, stderr)
	}
	if !strings.Contains(m.start, "(everything) over") {
		t.Errorf("a server without a version is named (everything, ): %s", m.start)
	}
	if all := m.start + rest; strings.Contains(all, "cancel") || strings.Contains(all, "never answered") {
		t.Errorf("the mock calls the recorded subscriptions/listen a cancelled call:\n%s", all)
	}
}
