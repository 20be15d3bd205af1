package main

import (
	"github.com/mcpjig/jig/session/peers"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pinDemo pins three calls against the demo's release 1 into a new directory.
func pinDemo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "fixtures")
	for _, p := range []struct{ file, tool, args, note string }{
		{"search-orders-truncated.json", "search_orders", `{"customer":"Acme Corp","since":"2026-01-01","limit":500}`, "limit is capped at 20 and says so"},
		{"search-order.json", "search_order", `{"order_id":"ord-1044"}`, ""},
		{"report.json", "get_report", `{}`, ""},
	} {
		code, _, stderr := jig(t, "", "call", p.tool, "--args", p.args, "--demo", "--pin", filepath.Join(dir, p.file), "--note", p.note)
		if code != 0 {
			t.Fatalf("jig call %s --pin: exit %d\n%s", p.tool, code, stderr)
		}
		if !strings.Contains(stderr, "normalization rules") || !strings.Contains(stderr, "assertions:") {
			t.Errorf("pinning %s must show its rules and assertions on stderr before saving; got:\n%s", p.tool, stderr)
		}
	}
	return dir
}

func TestPinShowsRulesAndRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "report.json")
	code, _, stderr := jig(t, "", "call", "get_report", "--demo", "--pin", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "/structuredContent/request_id → uuid (differed between 2 identical calls)") {
		t.Errorf("stderr lacks the probed request_id rule:\n%s", stderr)
	}
	code, _, stderr = jig(t, "", "call", "get_report", "--demo", "--pin", file)
	if code != exitUsage || !strings.Contains(stderr, file) || !strings.Contains(stderr, "--force") {
		t.Errorf("pinning over an existing fixture: exit %d, stderr %q; want 2 naming the file and --force", code, stderr)
	}
	if code, _, stderr = jig(t, "", "call", "get_report", "--demo", "--pin", file, "--force"); code != 0 {
		t.Errorf("--force: exit %d: %s", code, stderr)
	}
	if code, _, _ = jig(t, "", "call", "get_report", "--demo", "--note", "x"); code != exitUsage {
		t.Errorf("--note without --pin: exit %d, want 2", code)
	}
}

func TestReplayDemoReleases(t *testing.T) {
	dir := pinDemo(t)
	code, stdout, stderr := jig(t, "", "replay", dir)
	if code != 0 {
		t.Fatalf("replay against release 1: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "3 scenarios: 3 ok") {
		t.Errorf("replay against release 1 must be green:\n%s", stdout)
	}

	junit, js := filepath.Join(t.TempDir(), "drift.xml"), filepath.Join(t.TempDir(), "drift.json")
	code, stdout, stderr = jig(t, "", "replay", dir, "--demo", "--release", "2", "--report", "junit="+junit, "--report", "json="+js)
	if code != exitServerError {
		t.Fatalf("replay against release 2: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"- expected result.structuredContent.orders[0].customer_name = \"Acme Corp\"\n+ actual   result.structuredContent.orders[0].customer_name = (missing)\n",
		"- expected result.structuredContent.orders[11].status = \"shipped\"\n+ actual   result.structuredContent.orders[11].status = \"dispatched\"\n",
		"+ actual   tool.inputSchema.properties.since.format = \"date\"\n",
		"Scenario: search-order\nMethod: tools/call search_order\n  no drift\n",
		"3 scenarios: 1 drifted (breaking), 2 ok\n",
		"If this drift is intended, accept it with:\n  jig replay " + filepath.Join(dir, "search-orders-truncated.json") + " --demo --release 2 --update --reason \"...\" --retarget\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("release 2 report lacks\n%s\n--- stdout:\n%s", want, stdout)
		}
	}
	for _, f := range []string{junit, js} {
		if b, err := os.ReadFile(f); err != nil || !strings.Contains(string(b), "search-orders-truncated") {
			t.Errorf("--report %s: %v, %.200s", f, err, b)
		}
	}
	if code, _, _ = jig(t, "", "replay", dir, "--demo", "--release", "2", "--fail-on", "warn"); code != exitServerError {
		t.Errorf("--fail-on warn: exit %d, want 1", code)
	}

	t.Setenv("CI", "")
	code, _, stderr = jig(t, "", "replay", dir, "--demo", "--release", "2", "--update")
	if code != exitUsage || !strings.Contains(stderr, "--reason") {
		t.Errorf("--update without --reason: exit %d, stderr %q; want 2 asking for --reason", code, stderr)
	}
	t.Setenv("CI", "1")
	code, _, stderr = jig(t, "", "replay", dir, "--demo", "--release", "2", "--update", "--reason", "v2 renames")
	if code != exitUsage || !strings.Contains(stderr, "CI=1") {
		t.Errorf("--update with CI=1: exit %d, stderr %q; want 2 saying CI is set", code, stderr)
	}
	t.Setenv("CI", "")

	file := filepath.Join(dir, "search-orders-truncated.json")
	before, _ := os.ReadFile(filepath.Join(dir, "search-order.json"))
	// Accepting a response of another target without recording that target
	// would leave a fixture that goes red on its own: refused.
	code, _, stderr = jig(t, "", "replay", dir, "--demo", "--release", "2", "--update", "--reason", "v2 renames customer_name on purpose")
	if code != exitUsage || !strings.Contains(stderr, "--retarget") {
		t.Errorf("--update against another target without --retarget: exit %d, stderr %q; want 2 naming --retarget", code, stderr)
	}
	code, stdout, stderr = jig(t, "", "replay", dir, "--demo", "--release", "2", "--update", "--reason", "v2 renames customer_name on purpose", "--retarget")
	if code != 0 || !strings.Contains(stdout, "updated "+file) {
		t.Fatalf("--update --retarget: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), `"release": 2`) || !strings.Contains(string(b), `"retargeted_from": "demo server"`) {
		t.Errorf("the retargeted fixture must record release 2 and say so in its history:\n%s", b)
	}
	// Replayed on its own recorded target, every fixture is green.
	if code, stdout, stderr = jig(t, "", "replay", dir); code != 0 {
		t.Errorf("after --update --retarget, replay against each fixture's own target: exit %d\n%s%s", code, stdout, stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "search-order.json")); string(after) != string(before) {
		t.Errorf("--update rewrote search-order.json, whose drift is only cosmetic")
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), `"reason": "v2 renames customer_name on purpose"`) {
		t.Errorf("the updated fixture's history lacks the reason:\n%s", b)
	}
	if code, stdout, _ = jig(t, "", "replay", dir, "--demo", "--release", "2"); code != 0 {
		t.Errorf("after --update, replay against release 2: exit %d\n%s", code, stdout)
	}
}

func TestReplayExitCodes(t *testing.T) {
	dir := pinDemo(t)
	bad := t.TempDir()
	good, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	os.WriteFile(filepath.Join(bad, "report.json"), good, 0o644)
	os.WriteFile(filepath.Join(bad, "corrupt.json"), []byte("{\"format\": 1,\n  \"scenario\": }"), 0o644)
	code, stdout, stderr := jig(t, "", "replay", bad)
	if code != exitUsage || !strings.Contains(stderr, "corrupt.json") {
		t.Errorf("a corrupt fixture: exit %d, stderr %q; want 2 naming corrupt.json", code, stderr)
	}
	if !strings.Contains(stdout, "Scenario: report") {
		t.Errorf("the good fixture beside a corrupt one must still be replayed:\n%s", stdout)
	}

	leaky := t.TempDir()
	os.WriteFile(filepath.Join(leaky, "report.json"), []byte(strings.Replace(string(good), `"scenario": "report"`,
		`"scenario": "report", "note": "token ghp_0123456789abcdefghijABCDEFGHIJ012345"`, 1)), 0o644)
	code, _, stderr = jig(t, "", "replay", leaky)
	if code != exitUsage || !strings.Contains(stderr, "report.json") || !strings.Contains(stderr, "secret") {
		t.Errorf("a fixture holding a secret: exit %d, stderr %q; want 2 naming the file", code, stderr)
	}

	code, _, stderr = jig(t, "", "replay", dir, "--url", "http://127.0.0.1:1/mcp", "--timeout", "5s")
	if code != exitUnreachable || strings.Count(stderr, "handshake failed") != 1 || !strings.Contains(stderr, "3 fixture(s) not replayed") {
		t.Errorf("unreachable target: exit %d, stderr %q; want 3 and one line for the target", code, stderr)
	}
	if code, _, _ = jig(t, "", "replay", filepath.Join(dir, "missing.json")); code != exitUsage {
		t.Errorf("a missing fixture: exit %d, want 2", code)
	}
	if code, _, _ = jig(t, "", "replay", dir, "--report", "xml=x"); code != exitUsage {
		t.Errorf("--report xml=x: exit %d, want 2", code)
	}
}

func TestPinSecretEnvIsRedacted(t *testing.T) {
	t.Setenv("JIG_TEST_SECRET", "hunter2-from-the-env")
	file := filepath.Join(t.TempDir(), "echo.json")
	code, _, stderr := jig(t, "", "call", "echo", "--args", `{"text":"pw hunter2-from-the-env"}`, "--demo", "--pin", file, "--secret-env", "JIG_TEST_SECRET")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(file)
	if strings.Contains(string(b), "hunter2") {
		t.Errorf("the fixture holds the --secret-env value:\n%s", b)
	}
	if code, _, _ = jig(t, "", "call", "echo", "--demo", "--pin", file+"2", "--secret-env", "JIG_NOT_SET_ANYWHERE"); code != exitUsage {
		t.Errorf("--secret-env of an unset variable: exit %d, want 2", code)
	}
}

// A fixture pinned on a newer release keeps the protocol it was pinned
// with; against an older server that speaks only an older protocol the
// replay cannot run, and says the version came from the fixture.
// --protocol-version auto, which the message suggests, replays it with
// whatever the server speaks (it was taken for "not given").
func TestReplayProtocolVersionAutoOverridesTheFixture(t *testing.T) {
	newer := peers.Node(t, peers.ThinkingNew, "")
	older := peers.Node(t, peers.ThinkingOld, "")
	newer, older = newer[:len(newer)-1], older[:len(older)-1] // no mode argument
	dir := t.TempDir()
	args := `{"thought":"one","nextThoughtNeeded":false,"thoughtNumber":1,"totalThoughts":1}`
	pin := append([]string{"call", "sequentialthinking", "--args", args, "--pin", filepath.Join(dir, "think.json"), "--"}, newer...)
	if code, _, stderr := jig(t, "", pin...); code != exitOK {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	code, _, stderr := jig(t, "", append([]string{"replay", dir, "--"}, older...)...)
	if code != exitUnreachable || !strings.Contains(stderr, "which the fixture") || !strings.Contains(stderr, "--protocol-version auto") {
		t.Errorf("replay against the older release: exit %d, want %d naming the fixture's version\n%s", code, exitUnreachable, stderr)
	}
	code, stdout, stderr := jig(t, "", append([]string{"replay", dir, "--protocol-version", "auto", "--"}, older...)...)
	if code == exitUnreachable || strings.Contains(stderr, "does not speak protocol") {
		t.Errorf("replay --protocol-version auto: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// An argument named like a model's token budget or a page's cursor is no
// secret: sent as the wrong type (maxTokens "ten") it is often the bug the
// fixture pins. It reaches the frames, the fixture and the replay as typed,
// and the fixture replays green; a credential beside it is still redacted.
func TestPinKeepsTokenBudgetsAndCursors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "echo.json")
	args := `{"message":"hi","maxTokens":"ten","page_token":"abcdefgh12","tokenizer":"cl100k_base"}`
	server := peers.Node(t, peers.Everything, "stdio") // its echo ignores what it does not know
	code, _, stderr := jig(t, "", append([]string{"call", "echo", "--args", args, "--frames", "--pin", file, "--"}, server...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(file)
	for _, kept := range []string{`"maxTokens":"ten"`, `"page_token":"abcdefgh12"`, `"tokenizer":"cl100k_base"`} {
		if !strings.Contains(stderr, kept) {
			t.Errorf("the frames on stderr do not show %s:\n%s", kept, stderr)
		}
		if !strings.Contains(strings.ReplaceAll(string(b), `": "`, `":"`), kept) {
			t.Errorf("the fixture does not hold %s:\n%s", kept, b)
		}
	}
	if code, stdout, stderr := jig(t, "", append([]string{"replay", file, "--"}, server...)...); code != exitOK {
		t.Errorf("replay: exit %d\n%s%s", code, stdout, stderr)
	}
}
