package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/demo"
)

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func openSession(t testing.TB, target session.Target) *session.Session {
	t.Helper()
	s, err := session.Open(testCtx(t), session.Options{Target: target, Log: frames.NewLog(nil), Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("open %s: %v", target, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// pin calls tool on s and saves the pinned fixture as dir/name.json.
func pin(t testing.TB, s *session.Session, target session.Target, dir, name, tool, args string, secrets ...string) string {
	t.Helper()
	ctx := testCtx(t)
	raw, _, err := s.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := s.CallTool(ctx, tool, json.RawMessage(args))
	if err != nil {
		t.Fatalf("call %s %s: %v", tool, args, err)
	}
	f, err := Pin(ctx, s, ex, PinOptions{Scenario: name, Target: target, Tool: FindTool(raw, tool), Probe: -1, Secrets: secrets})
	if err != nil {
		t.Fatalf("pin %s: %v", name, err)
	}
	path := filepath.Join(dir, name+".json")
	if err := f.Save(path); err != nil {
		t.Fatalf("save %s: %v", path, err)
	}
	return path
}

func load(t testing.TB, path string) []Case {
	t.Helper()
	cases, errs := Load(path)
	if len(errs) > 0 {
		t.Fatalf("load %s: %v", path, errs)
	}
	return cases
}

func text(t testing.TB, outs []Outcome) string {
	t.Helper()
	var reps []fixture.Report
	for _, o := range outs {
		if o.Err != nil {
			t.Fatalf("%s: %v", o.Path, o.Err)
		}
		reps = append(reps, o.Report)
	}
	var b bytes.Buffer
	if err := fixture.WriteText(&b, reps, false); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The scenario: pin against release 1, replay against release 1
// (green, though get_report's request_id and generated_at change on every
// call), then against release 2 (search_orders drifts; search_order's change
// is only how its text is serialized). Both over the in-process demo and a
// real stdio child.
func TestPinThenReplayAgainstBothReleases(t *testing.T) {
	dir := t.TempDir()
	r1 := session.Target{Transport: session.TransportDemo, Release: 1}
	s := openSession(t, r1)
	pin(t, s, r1, dir, "acme", "search_orders", `{"customer":"Acme Corp","since":"2026-01-01","limit":500}`)
	pin(t, s, r1, dir, "one", "search_order", `{"order_id":"ord-1044"}`)
	report := pin(t, s, r1, dir, "report", "get_report", `{}`)

	f, err := fixture.Load(report)
	if err != nil {
		t.Fatal(err)
	}
	if !hasRule(f.Rules, "/structuredContent/request_id", fixture.ReasonDiffered) {
		t.Errorf("get_report is read-only, so pinning must probe it and mark request_id volatile; rules: %+v", f.Rules)
	}

	for _, tc := range []struct {
		name   string
		r1, r2 session.Target
	}{
		{"in-process", r1, session.Target{Transport: session.TransportDemo, Release: 2}},
		{"stdio", stdioDemo(t, 1), stdioDemo(t, 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cases := load(t, dir)
			outs := Run(testCtx(t), cases, Options{Override: &Override{Target: tc.r1}})
			for _, o := range outs {
				if o.Err != nil || o.Drifted() || o.Report.Worst() > fixture.Cosmetic {
					t.Errorf("release 1 against its own fixtures: %s drifted (err %v):\n%s", o.Path, o.Err, text(t, []Outcome{o}))
				}
			}

			outs = Run(testCtx(t), load(t, dir), Options{Override: &Override{Target: tc.r2}})
			got := text(t, outs)
			for _, want := range []string{
				"tool \"search_orders\" changed its definition (breaking) — 1 scenario: acme\n- expected tool.description = \"Find a customer's recent orders. Say which customer, and how far back to look with since.\"",
				"- expected tool.inputSchema.properties.since.format = (missing)\n+ actual   tool.inputSchema.properties.since.format = \"date\"\n",
				"Scenario: acme\nMethod: tools/call search_orders\n! tool \"search_orders\" changed its definition: reported above\n",
				// enum is compared as a set: the whole list, and which values went and came.
				"- expected tool.outputSchema.properties.orders.items.properties.status.enum = [\"pending\",\"shipped\",\"delivered\",\"cancelled\"]\n+ actual   tool.outputSchema.properties.orders.items.properties.status.enum = [\"pending\",\"dispatched\",\"delivered\",\"cancelled\"]\n  (allowed values of \"orders[].status\": \"shipped\" removed; \"dispatched\" added)\n",
				"- expected result.structuredContent.orders[0].customer_name = \"Acme Corp\"\n+ actual   result.structuredContent.orders[0].customer_name = (missing)\n  (renamed to \"customer\"? (same value))\n",
				"~ added result.structuredContent.orders[0].customer = \"Acme Corp\" (warn; renamed from \"customer_name\"?)\n",
				"- expected result.structuredContent.orders[11].status = \"shipped\"\n+ actual   result.structuredContent.orders[11].status = \"dispatched\"\n",
				"- expected result.content[0].text#orders[11].status = \"shipped\"\n+ actual   result.content[0].text#orders[11].status = \"dispatched\"\n",
				"Scenario: one\nMethod: tools/call search_order\n  no drift\n  1 cosmetic difference hidden (whitespace) — --show-cosmetic\n",
				"3 scenarios: 1 drifted (breaking), 2 ok\n",
			} {
				if !strings.Contains(got, want) {
					t.Errorf("release 2 report lacks\n%s\n--- full report:\n%s", want, got)
				}
			}
			if w := outs[1].Report.Worst(); w != fixture.Cosmetic {
				t.Errorf("search_order against release 2: worst = %v, want cosmetic (the server version in result _meta must not count)", w)
			}
		})
	}
}

func hasRule(rules []fixture.Rule, path, reason string) bool {
	for _, r := range rules {
		if r.Path == path && r.Reason == reason {
			return true
		}
	}
	return false
}

// A secret from a header (via an environment reference) and one named by
// --secret-env, both echoed back by the server, must appear in no byte of the
// fixture; the fixture still replays green against its own target.
func TestPinnedFixtureHoldsNoSecret(t *testing.T) {
	srv, err := demo.New(1)
	if err != nil {
		t.Fatal(err)
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var mu sync.Mutex
	var auth []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("X-Api-Key"))
		mu.Unlock()
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	const token, secret = "tok-0123456789-secret", "pw-from-env-4242"
	t.Setenv("JIG_TEST_TOKEN", token)
	t.Setenv("JIG_TEST_SECRET", secret)
	target := session.Target{Transport: session.TransportStreamable, URL: ts.URL, Headers: map[string]string{"X-Api-Key": "$JIG_TEST_TOKEN"}}
	s := openSession(t, target)
	dir := t.TempDir()
	path := pin(t, s, target, dir, "echo", "echo", `{"text":"header `+token+` and env `+secret+`"}`, os.Getenv("JIG_TEST_SECRET"))

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{token, secret, "0123456789", "4242"} {
		if bytes.Contains(data, []byte(v)) {
			t.Errorf("the fixture holds %q:\n%s", v, data)
		}
	}
	if !bytes.Contains(data, []byte(`"X-Api-Key": "$JIG_TEST_TOKEN"`)) {
		t.Errorf("the fixture's target must keep the header as an environment reference:\n%s", data)
	}
	mu.Lock()
	if len(auth) == 0 || auth[0] != token {
		t.Errorf("the server saw X-Api-Key %q, want the expanded token", auth)
	}
	mu.Unlock()

	outs := Run(testCtx(t), load(t, dir), Options{})
	if o := outs[0]; o.Err != nil || o.Drifted() {
		t.Errorf("replaying the redacted fixture against its own target drifted (err %v):\n%s", o.Err, text(t, outs))
	}
}

// Fixtures jig cannot replay are errors that name the file; a target that
// cannot be reached is a ConnectError for every fixture of it.
func TestReplayErrors(t *testing.T) {
	dir := t.TempDir()
	r1 := session.Target{Transport: session.TransportDemo, Release: 1}
	good := pin(t, openSession(t, r1), r1, dir, "echo", "echo", `{"text":"hi"}`)

	t.Run("corrupt file", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "broken.json")
		os.WriteFile(bad, []byte(`{"format": 1, "scenario": `), 0o644)
		_, errs := Load(filepath.Dir(bad))
		var fe *fixture.FileError
		if len(errs) != 1 || !errors.As(errs[0], &fe) || !strings.Contains(errs[0].Error(), "broken.json") {
			t.Errorf("Load of a corrupt fixture: %v, want a FileError naming broken.json", errs)
		}
	})
	t.Run("unsupported method", func(t *testing.T) {
		c := load(t, good)
		c[0].Fixture.Request.Method = "completion/complete" // tools/list replays since its pages can be pinned
		outs := Run(testCtx(t), c, Options{})
		var fe *fixture.FileError
		if !errors.As(outs[0].Err, &fe) || !strings.Contains(fe.Error(), "echo.json: request.method") {
			t.Errorf("err = %v, want a FileError for echo.json's request.method", outs[0].Err)
		}
	})
	t.Run("env in the pinned target", func(t *testing.T) {
		d := t.TempDir()
		target := stdioDemo(t, 1)
		path := pin(t, openSession(t, target), target, d, "stdio", "echo", `{"text":"hi"}`)
		// A plain setting is kept in the fixture, so it replays as pinned.
		outs := Run(testCtx(t), load(t, path), Options{})
		if outs[0].Err != nil || outs[0].Drifted() {
			t.Errorf("plain env: err %v, drifted %v; want a clean replay", outs[0].Err, outs[0].Drifted())
		}
		// A redacted value cannot be replayed: the error says how to supply it.
		c := load(t, path)
		c[0].Fixture.Target.Env["JIG_TEST_RELEASE"] = "[REDACTED:secret-key]"
		outs = Run(testCtx(t), c, Options{})
		if outs[0].Err == nil || !strings.Contains(outs[0].Err.Error(), "target.env.JIG_TEST_RELEASE was redacted when pinned") {
			t.Errorf("err = %v, want it to say the env value was redacted and how to supply it", outs[0].Err)
		}
		// The same fixture replays with the target given explicitly.
		outs = Run(testCtx(t), c, Options{Override: &Override{Target: target}})
		if outs[0].Err != nil || outs[0].Drifted() {
			t.Errorf("with the target given: err %v, drifted %v", outs[0].Err, outs[0].Drifted())
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		target := session.Target{Transport: session.TransportStreamable, URL: "http://127.0.0.1:1/mcp"}
		outs := Run(testCtx(t), load(t, good), Options{Override: &Override{Target: target}, Timeout: 5 * time.Second})
		var ce *session.ConnectError
		if !errors.As(outs[0].Err, &ce) {
			t.Errorf("err = %v, want a *session.ConnectError", outs[0].Err)
		}
	})
}

// Concurrent identical calls on one session (as replay pipelines them) must
// each get a complete exchange of their own: a request and the response
// with the same id.
func TestConcurrentIdenticalCallsArePairedByID(t *testing.T) {
	s := openSession(t, stdioDemo(t, 1))
	const n = 64
	exs := make([]*session.Exchange, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ex, err := s.CallTool(testCtx(t), "get_report", json.RawMessage(`{}`))
			if err != nil {
				t.Error(err)
			}
			exs[i] = ex
		}()
	}
	wg.Wait()
	seen := map[*frames.Frame]bool{}
	for i, ex := range exs {
		if ex == nil || ex.Response == nil {
			t.Fatalf("call %d has no exchange", i)
		}
		if seen[ex.Request] {
			t.Errorf("call %d claimed request #%d, already claimed by another call", i, ex.Request.Seq)
		}
		seen[ex.Request] = true
		if ex.Request.ID != ex.Response.ID {
			t.Errorf("call %d: request id %s paired with response id %s", i, ex.Request.ID, ex.Response.ID)
		}
	}
}

// Against server-everything (TypeScript SDK, legacy era): pinned calls replay
// green, and a tampered copy of a fixture shows exactly the changed values.
func TestServerEverythingPinReplayAndTamper(t *testing.T) {
	target := serverEverything(t)
	s := openSession(t, target)
	dir := t.TempDir()
	weather := pin(t, s, target, dir, "weather", "get-structured-content", `{"location":"Chicago"}`)
	sum := pin(t, s, target, dir, "sum", "get-sum", `{"a":2,"b":3}`)
	s.Close()

	outs := Run(testCtx(t), load(t, dir), Options{})
	for _, o := range outs {
		if o.Err != nil || o.Drifted() {
			t.Errorf("%s replayed against the same server drifted (err %v):\n%s", o.Path, o.Err, text(t, outs))
		}
	}

	tampered := t.TempDir()
	tamper(t, weather, filepath.Join(tampered, "weather.json"), func(r map[string]any) {
		r["structuredContent"].(map[string]any)["conditions"] = "Blizzard"
	})
	tamper(t, sum, filepath.Join(tampered, "sum.json"), func(r map[string]any) {
		r["content"].([]any)[0].(map[string]any)["text"] = "The sum of 2 and 3 is 6."
	})
	outs = Run(testCtx(t), load(t, tampered), Options{})
	got := text(t, outs)
	wf := load(t, weather)[0].Fixture
	var sc struct {
		StructuredContent struct {
			Conditions string `json:"conditions"`
		} `json:"structuredContent"`
	}
	json.Unmarshal(wf.Response.Result, &sc)
	for _, want := range []string{
		"Scenario: sum\nMethod: tools/call get-sum\n- expected result.content[0].text = \"The sum of 2 and 3 is 6.\"\n+ actual   result.content[0].text = \"The sum of 2 and 3 is 5.\"\n",
		"Scenario: weather\nMethod: tools/call get-structured-content\n- expected result.structuredContent.conditions = \"Blizzard\"\n+ actual   result.structuredContent.conditions = \"" + sc.StructuredContent.Conditions + "\"\n",
		"2 scenarios: 2 drifted (breaking)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("tampered replay lacks\n%s\n--- full report:\n%s", want, got)
		}
	}
}

// tamper copies a fixture with its pinned result changed by edit.
func tamper(t *testing.T, from, to string, edit func(map[string]any)) {
	t.Helper()
	f, err := fixture.Load(from)
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(f.Response.Result, &r); err != nil {
		t.Fatal(err)
	}
	edit(r)
	f.Response.Result, _ = json.Marshal(r)
	if err := f.Save(to); err != nil {
		t.Fatal(err)
	}
}
