package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The seed story end to end through the CLI: the transcript's two calls,
// attributed on the demo server, one argument at a time.
func TestAttributeSeedStory(t *testing.T) {
	seed := transcripts + "seed.json"
	code, out, errOut := jig(t, "", "attribute", seed+"#2", seed+"#4", "--demo", "--no-record")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"search_orders: from " + seed + "#2 to " + seed + "#4, on jig-demo 1.0.0",
		`3 arguments differ: customer ("Acme Corp" → "acme"), since ("last month" → "2026-01-01"), limit (absent → 500)`,
		"the transcript showed (the client's rendering): orders 20 · PARTIAL (truncated: true); the live server answers the same",
		"  since alone: orders 0 → 10, PARTIAL (truncated: true)",
		"  customer alone: no change (orders 0 → 0)",
		`  customer after since: orders 10 → 10, other rows: customer_name "Acme Corp" → "acme"`,
		"  limit after since: orders 10 → 20, truncated: true stays, 20 of the 500 asked for: a cap of 20",
		"so: the 3 changes were made at once; alone, only since moves the result; customer and limit act only after another change",
		"  8  B ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "jig: step 8/8 B: orders 20 · PARTIAL (truncated: true)") {
		t.Errorf("stderr does not follow the steps:\n%s", errOut)
	}
}

// Every step pins as a fixture, and the fixtures replay green against the
// server they were pinned on.
func TestAttributePinsEveryStep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fx")
	seed := transcripts + "seed.json"
	code, _, errOut := jig(t, "", "attribute", seed+"#2", seed+"#4", "--demo", "--no-record", "--pin-dir", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 8 || !strings.Contains(errOut, "pinned step 3 as "+filepath.Join(dir, "search_orders-3-since.json")) {
		t.Fatalf("%d fixtures %v:\n%s", len(files), files, errOut)
	}
	if code, out, errOut := jig(t, "", "replay", dir, "--demo", "--no-record"); code != exitOK {
		t.Errorf("the pinned steps do not replay green: exit %d\n%s\n%s", code, out, errOut)
	}
	// The whole attribution as one scenario: green on release 1, and on
	// release 2 it fails on the renamed customer_name.
	scenario := filepath.Join(t.TempDir(), "seed-attribution.json")
	if code, _, errOut := jig(t, "", "attribute", seed+"#2", seed+"#4", "--demo", "--no-record", "--pin", scenario); code != exitOK || !strings.Contains(errOut, "pinned the 8 steps as one scenario") {
		t.Fatalf("--pin: exit %d: %s", code, errOut)
	}
	if code, out, errOut := jig(t, "", "replay", scenario, "--demo", "--no-record"); code != exitOK {
		t.Errorf("the scenario does not replay green: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, _ := jig(t, "", "replay", scenario, "--demo", "--release", "2", "--no-record"); code != exitServerError || !strings.Contains(out, "customer_name") {
		t.Errorf("the scenario must fail on release 2's rename: exit %d\n%s", code, out)
	}
}

func TestAttributeBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	typo := write("typo.json", `{"messages":[{"role":"assistant","content":[
{"type":"tool_use","id":"t1","name":"mcp__orders__serch_orders","input":{"customer":"Acme Corp"}},
{"type":"tool_use","id":"t2","name":"mcp__orders__serch_orders","input":{"customer":"acme"}}]}]}`)
	str := write("string.json", `{"messages":[{"role":"assistant","content":[
{"type":"tool_use","id":"t1","name":"search_orders","input":"Acme Corp"},
{"type":"tool_use","id":"t2","name":"search_orders","input":{"customer":"acme"}}]}]}`)
	req := transcripts + "anthropic-request.json"
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"two tools", []string{req + "#2", req + "#6", "--demo"}, "calls search_orders and " + req + "#6 calls search_order: attribution changes the arguments of one tool"},
		{"a tool the server does not list", []string{typo + "#1", typo + "#2", "--demo"}, "calls mcp__orders__serch_orders: the server lists no such tool (closest: search_orders)"},
		{"arguments that are a string", []string{str + "#1", str + "#2", "--demo"}, "the first call's arguments are a JSON string, not an object"},
		{"no server", []string{req + "#2", req + "#4"}, "name the server to run the steps against: --demo"},
		{"no such frame", []string{req + "#99", req + "#4", "--demo"}, "there is no frame #99 (the frames are #1–12"},
		{"--tool unknown", []string{req + "#2", req + "#4", "--demo", "--tool", "nope"}, "--tool nope: the server lists no such tool"},
	} {
		code, _, errOut := jig(t, "", append([]string{"attribute", "--no-record"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, stderr %q\nwant exit %d and %q", tt.name, code, errOut, exitUsage, tt.want)
		}
	}
}

// A server that crashes mid-run: the finished steps are reported, the
// failed one is named, and jig exits 3.
func TestAttributeServerFailsMidRun(t *testing.T) {
	seed := transcripts + "seed.json"
	args := append([]string{"attribute", seed + "#2", seed + "#4", "--no-record"}, hostile(t, "crash-after:3")...)
	code, out, errOut := jig(t, "", args...)
	if code != exitUnreachable {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitUnreachable, out, errOut)
	}
	for _, want := range []string{"the server stopped answering at step 4 (limit)", "the 3 steps before it are kept below; 4 were not run", "  3  since ", "FAILED:", "  8  B ", "not run"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "step 4 (limit)") {
		t.Errorf("stderr does not name the failed step:\n%s", errOut)
	}
}

// jig compare on two calls that moved several arguments points at attribute.
func TestCompareSuggestsAttribute(t *testing.T) {
	seed := transcripts + "seed.json"
	_, _, errOut := jig(t, "", "compare", seed+"#2", seed+"#4")
	if !strings.Contains(errOut, "3 arguments moved at once; to change them one at a time against a live server: jig attribute") {
		t.Errorf("stderr = %q", errOut)
	}
}
