package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if !strings.Contains(stderr, "missed: tools/call search_order") || !strings.Contains(stderr, "--strict: 1 requests matched nothing") {
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
		{[]string{"--transport", "sse"}, "--transport"},
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
