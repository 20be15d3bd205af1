package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// F7: --elicit accept-defaults on a schema whose required field has no
// default cannot answer; jig answered server-everything with its own error,
// printed "the server answered isError" and pinned that as the expected
// result. It now says what failed and what to give instead, exits 2 and
// pins nothing; a script that answers is pinned and replays green.
func TestAScriptThatCannotAnswerIsSaidAndNotPinned(t *testing.T) {
	server := peers.Node(t, peers.Everything, "stdio")
	dir := t.TempDir()
	file := filepath.Join(dir, "elicit.json")
	code, stdout, stderr := jig(t, "", append([]string{"call", "trigger-elicitation-request", "--args", "{}", "--elicit", "accept-defaults", "--no-record", "--pin", file, "--"}, server...)...)
	if code != exitUsage {
		t.Errorf("exit %d, want 2 (jig's script failed)", code)
	}
	for _, want := range []string{`required field "name" has no default`, "--elicit @answers.json", "nothing pinned to " + file} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stdout, "the server answered isError") {
		t.Errorf("stdout blames the server for jig's failure:\n%s", stdout)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("a fixture of jig's own failure was written (stat: %v)", err)
	}

	answers := filepath.Join(dir, "answers.json")
	if err := os.WriteFile(answers, []byte(`{"answers":[{"action":"accept","content":{"name":"Ada"}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := jig(t, "", append([]string{"call", "trigger-elicitation-request", "--args", "{}", "--elicit", "@" + answers, "--no-record", "--pin", file, "--"}, server...)...); code != exitOK {
		t.Fatalf("with the answer given: exit %d\n%s", code, stderr)
	}
	if code, out, rerr := jig(t, "", append([]string{"replay", file, "--no-record", "--"}, server...)...); code != exitOK {
		t.Errorf("replay of the answered call: exit %d\n%s%s", code, out, rerr)
	}

	// --append refuses the same way, and the scenario is left as it was.
	scenario := filepath.Join(dir, "scenario.json")
	if code, _, stderr := jig(t, "", append([]string{"call", "echo", "--args", `{"message":"hi"}`, "--no-record", "--pin", scenario, "--"}, server...)...); code != exitOK {
		t.Fatalf("pin of echo: exit %d\n%s", code, stderr)
	}
	before, _ := os.ReadFile(scenario)
	code, _, stderr = jig(t, "", append([]string{"call", "trigger-elicitation-request", "--args", "{}", "--elicit", "accept-defaults", "--no-record", "--pin", scenario, "--append", "--step", "ask", "--"}, server...)...)
	if code != exitUsage || !strings.Contains(stderr, `required field "name" has no default`) {
		t.Errorf("--append with a script that cannot answer: exit %d, want 2\n%s", code, stderr)
	}
	if after, _ := os.ReadFile(scenario); string(after) != string(before) {
		t.Errorf("the scenario changed: jig's failure was appended as a step")
	}
}

// A fixture whose own answers cannot answer the server at replay: jig
// answers with its own error, so the drift is about the fixture's answers.
// Replay says so instead of offering to accept it, --update and review
// refuse to pin jig's failure, and the report carries it.
func TestReplaySaysTheFixturesAnswersFailed(t *testing.T) {
	t.Setenv("CI", "") // review writes nothing under CI
	server := peers.Node(t, peers.Everything, "stdio")
	dir := t.TempDir()
	file, answers, report := filepath.Join(dir, "elicit.json"), filepath.Join(dir, "answers.json"), filepath.Join(dir, "report.json")
	if err := os.WriteFile(answers, []byte(`{"answers":[{"action":"accept","content":{"name":"Ada"}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := jig(t, "", append([]string{"call", "trigger-elicitation-request", "--args", "{}", "--elicit", "@" + answers, "--no-record", "--pin", file, "--"}, server...)...); code != exitOK {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	pinned, _ := os.ReadFile(file)
	// The answer is in the fixture's "answers" and in its pinned input.
	broken := strings.ReplaceAll(string(pinned), `"name": "Ada"`, `"nick": "Ada"`)
	if broken == string(pinned) {
		t.Fatalf("the fixture's answer is not where the test looks:\n%s", pinned)
	}
	if err := os.WriteFile(file, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ := jig(t, "", append([]string{"replay", file, "--no-record", "--report", "json=" + report, "--"}, server...)...)
	if code != exitServerError || !strings.Contains(out, `the fixture's answers could not answer the server`) || !strings.Contains(out, `required field "name"`) {
		t.Errorf("replay: exit %d, want 1 naming the failed answer\n%s", code, out)
	}
	if strings.Contains(out, "accept it with") {
		t.Errorf("replay offers to accept the server's answer to jig's error:\n%s", out)
	}
	if rep, _ := os.ReadFile(report); !strings.Contains(string(rep), `"script_failures"`) {
		t.Errorf("the report does not carry the failure:\n%s", rep)
	}
	code, _, stderr := jig(t, "", append([]string{"replay", file, "--no-record", "--update", "--reason", "r", "--"}, server...)...)
	if after, _ := os.ReadFile(file); code == exitOK || string(after) != broken {
		t.Errorf("--update: exit %d, and the fixture changed = %v: jig's failure was pinned\n%s", code, string(after) != broken, stderr)
	}
	if code, _, stderr := jig(t, "", "review", report, "--accept", "elicit", "--reason", "r"); code != exitUsage || !strings.Contains(stderr, "nothing to accept") {
		t.Errorf("review --accept: exit %d, want 2\n%s", code, stderr)
	}
}

// --append replays the scenario's earlier steps with the scenario's own
// answers and answers the new call with --elicit's; the appended fixture
// keeps both, in order, and replays green. (The earlier steps got no
// answers, or the new call's, and the new call's answers were dropped.)
func TestAppendKeepsEveryStepsAnswers(t *testing.T) {
	server := peers.Node(t, peers.Everything, "stdio")
	dir := t.TempDir()
	file, ada, bob := filepath.Join(dir, "two.json"), filepath.Join(dir, "ada.json"), filepath.Join(dir, "bob.json")
	for path, name := range map[string]string{ada: "Ada", bob: "Bob"} {
		if err := os.WriteFile(path, []byte(`[{"action":"accept","content":{"name":"`+name+`"}}]`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	call := []string{"call", "trigger-elicitation-request", "--args", "{}", "--no-record", "--pin", file}
	if code, _, stderr := jig(t, "", append(append(call, "--elicit", "@"+ada, "--"), server...)...); code != exitOK {
		t.Fatalf("pin: exit %d\n%s", code, stderr)
	}
	// The scenario's own target: no server on the command line.
	if code, _, stderr := jig(t, "", append(call, "--elicit", "@"+bob, "--append", "--step", "bob")...); code != exitOK {
		t.Fatalf("append: exit %d\n%s", code, stderr)
	}
	data, _ := os.ReadFile(file)
	if a, b := strings.Index(string(data), `"answers": [`), strings.LastIndex(string(data), `"name": "Bob"`); a < 0 || b < a || !strings.Contains(string(data[a:]), `"name": "Ada"`) {
		t.Errorf("the fixture does not keep both answers, Ada's then Bob's:\n%s", data)
	}
	if code, out, rerr := jig(t, "", "replay", file, "--no-record"); code != exitOK {
		t.Errorf("replay of the two-step scenario: exit %d\n%s%s", code, out, rerr)
	}
	code, _, stderr := jig(t, "", append(call, "--elicit", "decline", "--append", "--step", "three")...)
	if code != exitUsage || !strings.Contains(stderr, "cannot follow the 2 answers of") {
		t.Errorf("a mode after answers: exit %d, want 2 saying why\n%s", code, stderr)
	}
}

// F23: an answer whose "when" does not match was reported as "no scripted
// answer left", and in the 2026-07-28 era the server's input_required round
// was shown as "what the server answered once jig's script had failed it",
// though jig sent it nothing. Both say what happened now.
func TestAnAnswerThatDoesNotMatchSaysWhy(t *testing.T) {
	answers := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(answers, []byte(`[{"when":{"message":"*reason*"},"action":"accept","content":{"reason":"asked"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ era, stdout, stderr string }{
		{"2026-07-28", "no result: the server asked for input", "could not answer the server's input request (elicitation/create), so it did not send the call again"},
		{"2025-11-25", "JSON-RPC error 0: multi-round-trip", "jig answered the server's elicitation/create with an error"},
	} {
		code, out, errOut := jig(t, "", "call", "cancel_order", "--args", `{"order_id":"ord-1042"}`, "--demo", "--release", "2", "--no-record", "--protocol-version", tc.era, "--elicit", "@"+answers)
		if code != exitUsage || !strings.Contains(out, tc.stdout) || !strings.Contains(errOut, tc.stderr) ||
			!strings.Contains(errOut, `answer 1 wants "message" to be "*reason*", the request has "Why is order ord-1042 being cancelled? (optional)"`) {
			t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", tc.era, code, out, errOut)
		}
	}
}
