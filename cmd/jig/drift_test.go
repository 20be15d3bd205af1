package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/stats"
	"github.com/mcpjig/jig/session/demo"
	"github.com/mcpjig/jig/session/peers"
)

// release3Env makes the re-executed test binary the demo server's release
// 3 over stdio, going wrong after the given number of calls: a baseline of
// release 3 before its regressions.
const release3Env = "JIG_TEST_RELEASE3_AFTER"

// "AFTER:TRUNCATE" goes wrong only by truncating (that fraction of each
// list dropped): no epoch numbers, no stale cache.
func serveRelease3(after string) {
	reg := demo.DefaultRegressions
	if n, cut, ok := strings.Cut(after, ":"); ok {
		after = n
		reg.Truncate, _ = strconv.ParseFloat(cut, 64)
		reg.EpochEvery, reg.StaleCustomer = 0, ""
	}
	n, _ := strconv.Atoi(after)
	reg.After = n
	if err := demo.ServeStdioWith(context.Background(), 3, reg); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// recordClean3 records seeded traffic against release 3 that never goes
// wrong, over a real stdio pipe.
func recordClean3(t *testing.T, seed, calls int) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "clean3-"+itoaT(seed)+".jsonl")
	code, _, errOut := jig(t, "", "traffic", "--seed", itoaT(seed), "--calls", itoaT(calls), "--record", p,
		"--env", release3Env+"=1000000", "--", exe)
	if code != 0 {
		t.Fatalf("jig traffic against release 3: exit %d\n%s", code, errOut)
	}
	return p
}

func driftJSON(t *testing.T, args ...string) (int, driftOutput, string) {
	t.Helper()
	code, out, errOut := jig(t, "", append([]string{"drift", "--json"}, args...)...)
	var d driftOutput
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("jig drift --json %q: exit %d, %v\n%s\n%s", args, code, err, out, errOut)
	}
	return code, d, errOut
}

// findings lists the drifted findings of a tool as "signal path".
func findings(d driftOutput, tool string) map[string]int {
	out := map[string]int{}
	for _, g := range d.Drift.Groups {
		if g.Tool != tool {
			continue
		}
		for _, f := range g.Findings {
			if f.Verdict == stats.Drift {
				out[strings.TrimSpace(f.Signal+" "+f.Path)]++
			}
		}
	}
	return out
}

// TestDriftTwoSamplesOfRelease1: two independent seeded samples of
// release 1's traffic, recorded through real sessions, show no drift.
func TestDriftTwoSamplesOfRelease1(t *testing.T) {
	a, b := recordTraffic(t, 1, 1, 1200), recordTraffic(t, 1, 2, 1200)
	code, d, errOut := driftJSON(t, "--baseline", a, "--current", b)
	if code != 0 || d.Drift.Drifted != 0 {
		t.Fatalf("release 1 against release 1: exit %d, %d groups drifted: %v\n%s", code, d.Drift.Drifted, findings(d, "search_orders"), errOut)
	}
	if d.Drift.Stable < 5 || d.Drift.NotEnough == 0 {
		t.Errorf("%d groups without drift, %d with not enough data; want several of each (small shapes are below 30 calls)", d.Drift.Stable, d.Drift.NotEnough)
	}
	for _, g := range d.Drift.Groups {
		if g.Verdict == stats.NotEnough && !strings.Contains(g.Note, "30 of each are needed") {
			t.Errorf("%s %s: not enough data without saying the minimum: %q", g.Tool, g.Shape, g.Note)
		}
	}
}

// TestDriftCatchesRelease3: against a release 1 baseline, release 3's
// truncation (fewer orders, truncated false, smaller answers at the same
// latency) and its epoch placed_at are each caught, by the signals named
// for them.
func TestDriftCatchesRelease3(t *testing.T) {
	base, cur := recordTraffic(t, 1, 1, 1200), recordTraffic(t, 3, 2, 1200)
	code, d, _ := driftJSON(t, "--baseline", base, "--current", cur)
	if code != exitServerError {
		t.Errorf("exit %d, want 1 on drift", code)
	}
	got := findings(d, "search_orders")
	for _, want := range []string{
		"cardinality /structuredContent/orders",       // the truncation
		"flag /structuredContent/truncated",           // truncated: false where it was true
		"size",                                        // smaller answers
		"types /structuredContent/orders/*/placed_at", // the epoch numbers
		"presence /structuredContent/generated_at",    // release 3's new field
		"schema", // and its new outputSchema
	} {
		if got[want] == 0 {
			t.Errorf("no drift of %q; drifted: %v", want, got)
		}
	}
	for _, tool := range []string{"search_order", "get_report", "echo"} {
		if f := findings(d, tool); len(f) > 0 {
			t.Errorf("%s did not change in release 3, but drifted: %v", tool, f)
		}
	}
	// The text output says it with the numbers. The two recordings' latencies
	// are this machine's, whatever its load: a latency change under a second
	// is not what this test is about.
	_, out, _ := jig(t, "", "drift", "--baseline", base, "--current", cur, "--tool", "search_orders", "--min-latency-ms", "1000")
	for _, want := range []string{"latency stayed flat", `"number" gained most: 0.0% →`, "cardinality /structuredContent/orders: drift, z -", "median 10 → 5"} {
		if !strings.Contains(out, want) {
			t.Errorf("jig drift does not say %q:\n%.3000s", want, out)
		}
	}
}

// TestDriftCatchesStaleCache: against release 3 before it goes wrong, its
// stale cache — Globex's answers the same bytes whatever the arguments,
// generated_at 48h old — is caught by the repeat and age signals, and two
// samples of the clean release show no drift.
func TestDriftCatchesStaleCache(t *testing.T) {
	clean, clean2, cur := recordClean3(t, 5, 1200), recordClean3(t, 6, 1200), recordTraffic(t, 3, 2, 1200)
	if code, d, _ := driftJSON(t, "--baseline", clean, "--current", clean2); code != 0 || d.Drift.Drifted != 0 {
		t.Fatalf("clean release 3 against itself: exit %d, drifted %v", code, findings(d, "search_orders"))
	}
	_, d, _ := driftJSON(t, "--baseline", clean, "--current", cur)
	got := findings(d, "search_orders")
	if got["identical_bytes"] == 0 || got["age /structuredContent/generated_at"] == 0 {
		t.Errorf("the stale cache was not caught by identical_bytes and the age of generated_at; drifted: %v", got)
	}
}

func TestDriftGates(t *testing.T) {
	base, cur := recordTraffic(t, 1, 1, 1200), recordTraffic(t, 3, 2, 1200)
	gates := tempFile(t, "gates.json", `{
	  "search_orders": {"p95_latency_ms": "<300", "cardinality(/structuredContent/orders)": "drop<40%", "error_rate": "<1%"},
	  "echo": {"calls": {"threshold": ">=1000", "not_enough_data": "pass"}}
	}`)
	dir := t.TempDir()
	jr, xr := filepath.Join(dir, "drift.json"), filepath.Join(dir, "drift.xml")
	code, out, errOut := jig(t, "", "drift", "--baseline", base, "--current", cur, "--gate", gates, "--report", "json="+jr+",junit="+xr)
	if code != exitServerError {
		t.Fatalf("gates: exit %d, want 1 (the cardinality gate fails)\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"gate search_orders cardinality(/structuredContent/orders) drop<40%",
		": FAIL: 10 → 5: a drop of 50.0%",
		"gate search_orders p95_latency_ms <300: PASS",
		"gate search_orders error_rate <1%: PASS",
		"gate echo calls >=1000: FAIL",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("gates output does not say %q:\n%s", want, out)
		}
	}
	// Against itself the baseline passes the cardinality gate; not enough
	// data fails unless the gate allows it.
	code, out, _ = jig(t, "", "drift", "--baseline", base, "--current", base, "--gate", gates, "--min-sample", "5000")
	if code != exitServerError || !strings.Contains(out, "gate echo calls >=1000: NOT ENOUGH DATA (allowed)") ||
		!strings.Contains(out, "NOT ENOUGH DATA: ") || strings.Contains(out, "drop<40% [customer,since]: FAIL") {
		t.Errorf("baseline against itself: exit %d, want 1 for not enough data only\n%s", code, out)
	}
	var rep driftOutput
	b, _ := os.ReadFile(jr)
	if err := json.Unmarshal(b, &rep); err != nil || rep.Gates == nil || rep.Gates.Fail == 0 {
		t.Errorf("JSON report: %v %+v", err, rep.Gates)
	}
	var x junitSuites
	b, _ = os.ReadFile(xr)
	if err := xml.Unmarshal(b, &x); err != nil || len(x.Suites) != 2 || x.Suites[0].Failures == 0 || x.Suites[1].Failures == 0 {
		t.Errorf("JUnit report: %v %+v", err, x)
	}
	// fresh9: a per-field gate on a path no call has passed as "not enough
	// data (allowed)"; it checked nothing.
	g := tempFile(t, "gates.json", `{"search_orders": {"cardinality(/structuredContent/nope)": {"threshold": "drop<40%", "not_enough_data": "pass"}}}`)
	if code, out, errOut := jig(t, "", "drift", "--baseline", base, "--current", cur, "--gate", g); code != exitUsage || !strings.Contains(out, "NO SUCH PATH") || !strings.Contains(errOut, "fix the path") {
		t.Errorf("a gate on a missing path: exit %d, want 2\n%s\n%s", code, out, errOut)
	}
	for _, bad := range []struct{ gates, want string }{
		{`{"t": {"latency": "<3"}}`, `gates.json: t.latency: metric "latency" is unknown`},
		{`{"t": {"p95_latency_ms": "about 3"}}`, `threshold "about 3"`},
		{`{"t": {"cardinality(orders)": "drop<4%"}}`, "PATH a JSON Pointer"},
		{`{"t": {"error_rate": "drop<4"}}`, "in per cent"},
		// fresh9: a tool with no gates checked nothing and passed.
		{`{"search_orders": {}}`, "search_orders: no gates for this tool"},
		{`{"*": {}}`, "*: no gates for this tool"},
	} {
		g := tempFile(t, "gates.json", bad.gates)
		code, _, errOut := jig(t, "", "drift", "--baseline", base, "--current", cur, "--gate", g)
		if code != exitUsage || !strings.Contains(errOut, bad.want) {
			t.Errorf("gates %s: exit %d, %s; want 2 saying %q", bad.gates, code, errOut, bad.want)
		}
	}
}

// TestStatsCommand: per tool and shape, the figures the issue lists.
func TestStatsCommand(t *testing.T) {
	base := recordTraffic(t, 1, 1, 1200)
	code, out, errOut := jig(t, "", "stats", base, "--tool", "search_orders")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"search_orders: ", "latency p50 ", "shape customer,limit:8-15,since: ", "/structuredContent/orders  ", "items median ",
		`"delivered" `, "entropy ", "/structuredContent/truncated", "true ", "repeats: "} {
		if !strings.Contains(out, want) {
			t.Errorf("jig stats does not say %q:\n%.2000s", want, out)
		}
	}
	if strings.Contains(out, "get_report") {
		t.Error("--tool search_orders printed another tool")
	}
	code, js, _ := jig(t, "", "stats", "--json", base)
	var rep struct {
		Read loaded `json:"read"`
		stats.Report
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || code != 0 || len(rep.Tools) != 5 || rep.Read.Files != 1 {
		t.Fatalf("--json: exit %d, %v, %d tools", code, err, len(rep.Tools))
	}
	// A cut-off recording and a file that is none are reported, not mixed in.
	data, _ := os.ReadFile(base)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.jsonl"), data[:len(data)/3], 0o600)
	os.WriteFile(filepath.Join(dir, "README"), []byte("notes"), 0o600)
	code, _, errOut = jig(t, "", "stats", dir)
	if code != 0 || !strings.Contains(errOut, "line could not be read") || !strings.Contains(errOut, "README: skipped") {
		t.Errorf("a cut-off recording beside a README: exit %d\n%s", code, errOut)
	}
}

// TestStatsSameWhateverTheWorkers: the statistics of real traffic read on
// several workers are those read on one, to the byte (each group is read
// on one worker, in order).
func TestStatsSameWhateverTheWorkers(t *testing.T) {
	rec := recordTraffic(t, 1, 3, 600)
	report := func(workers int) string {
		c := stats.New(stats.Options{Workers: workers})
		if _, err := loadStats(context.Background(), "recordings", []string{rec}, c); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(c.Report(""))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	one, three := report(1), report(3)
	if one != three {
		t.Errorf("one worker and three disagree:\n%.3000s\n%.3000s", one, three)
	}
	if !strings.Contains(one, `"tool":"search_orders"`) || !strings.Contains(one, `"/structuredContent/orders/*/total"`) {
		t.Errorf("the report is not of the traffic: %.500s", one)
	}
}

// A call cancelled before its response is accounted for, not silently
// left out: server-everything's long operation, cancelled after a second.
func TestStatsSaysCancelledCalls(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "c.jsonl")
	args := append([]string{"call", "trigger-long-running-operation", "--args", `{"duration":5,"steps":5}`, "--cancel-after", "1s", "--record", rec, "--"},
		peers.Node(t, peers.Everything, "stdio")...)
	if code, _, errOut := jig(t, "", args...); code != exitCancelled {
		t.Fatalf("the cancelled call: exit %d\n%s", code, errOut)
	}
	// Its only call cancelled, the recording has no statistics: exit 2,
	// saying why (it exited 0 with "no tool calls").
	for _, args := range [][]string{{"stats", "--json", rec}, {"stats", rec}} {
		code, _, errOut := jig(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, "1 tool call cancelled (notifications/cancelled) before any response; not counted") ||
			!strings.Contains(errOut, "in 1 recording (") {
			t.Errorf("%v does not account for the cancelled call: exit %d\n%s", args, code, errOut)
		}
	}
	// Beside an answered call, the cancelled one is counted in --json.
	both := filepath.Join(t.TempDir(), "both.jsonl")
	args = append([]string{"call", "echo", "--args", `{"message":"hi"}`, "--record", both, "--"}, peers.Node(t, peers.Everything, "stdio")...)
	if code, _, errOut := jig(t, "", args...); code != 0 {
		t.Fatalf("the echo call: exit %d\n%s", code, errOut)
	}
	code, js, errOut := jig(t, "", "stats", "--json", rec, both)
	var rep struct {
		Read loaded `json:"read"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || code != 0 || rep.Read.Cancelled != 1 || rep.Read.Unanswered != 0 {
		t.Errorf("stats --json: exit %d, %v, read %+v\n%s", code, err, rep.Read, errOut)
	}
}
