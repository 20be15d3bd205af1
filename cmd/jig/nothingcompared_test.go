package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestNothingComparedIsNeverGreen: recordings that are recordings but
// hold no tools/call, a drift in which no group had enough calls on both
// sides, a gate or a --tool naming a tool neither side called, and a
// contract for a tool no recording calls or lists each say so and exit
// non-zero: they exited 0 ("0 groups drifted, 0 did not", "0 gates
// passed, 0 failed", "no violations"), so a CI gate over a capture of the
// wrong thing, or with a typo in a tool's name, went green (fresh8 F5,
// F13).
func TestNothingComparedIsNeverGreen(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	base := recordTraffic(t, 1, 1, 200)
	dir := t.TempDir()
	noCalls := filepath.Join(dir, "tools-only.jsonl")
	if code, _, errOut := jig(t, "", "tools", "--demo", "--record", noCalls); code != 0 {
		t.Fatalf("jig tools --record: exit %d\n%s", code, errOut)
	}
	oneCall := filepath.Join(dir, "one-echo.jsonl")
	if code, _, errOut := jig(t, "", "call", "echo", "--demo", "--args", `{"text":"x"}`, "--record", oneCall); code != 0 {
		t.Fatalf("jig call --record: exit %d\n%s", code, errOut)
	}
	everyTool := tempFile(t, "gate.json", `{"*": {"drift": "none"}}`)
	typo := tempFile(t, "typo.json", `{"search_ordrs": {"error_rate": "<1%"}}`)
	typoContract := tempFile(t, "c.yaml", "tools:\n  search_ordrs:\n    rules:\n      - rule: not-empty\n")
	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"drift, current without calls", []string{"drift", "--baseline", base, "--current", noCalls}, exitUsage, []string{"--current: no tools/call", "tools-only.jsonl", "jig traffic --record"}},
		{"drift, both without calls, * gate", []string{"drift", "--baseline", noCalls, "--current", noCalls, "--gate", everyTool}, exitUsage, []string{"--baseline: no tools/call"}},
		{"stats without calls", []string{"stats", noCalls}, exitUsage, []string{"no tools/call", "tools-only.jsonl"}},
		{"check without calls", []string{"check", typoContract, noCalls}, exitUsage, []string{"no tools/call", "nothing was held to"}},
		{"drift, nothing compared", []string{"drift", "--baseline", base, "--current", oneCall}, exitServerError, []string{"nothing was compared", "30 calls on both sides"}},
		{"gate on a tool neither side called", []string{"drift", "--baseline", base, "--current", base, "--gate", typo}, exitUsage, []string{"NO SUCH TOOL", `did you mean "search_orders"?`, "typo.json: 1 gate(s) named no tool"}},
		{"drift --tool typo", []string{"drift", "--baseline", base, "--current", base, "--tool", "search_ordrs"}, exitUsage, []string{"--tool search_ordrs: no recording called it", `"search_orders"`}},
		{"stats --tool typo", []string{"stats", base, "--tool", "search_ordrs"}, exitUsage, []string{"--tool search_ordrs: no recording called it", `"search_orders"`}},
		{"contract for a tool never called", []string{"check", typoContract, base}, exitUsage, []string{"contract for search_ordrs: no recording calls or lists", `did you mean "search_orders"?`}},
	} {
		code, out, errOut := jig(t, "", c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s\n%s", c.name, code, c.code, out, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(out+errOut, w) {
				t.Errorf("%s: does not say %q:\n%s\n%s", c.name, w, out, errOut)
			}
		}
	}
	// A contract for a tool the server lists but the traffic did not call
	// is said, and is no error: the file is right, the sample is short.
	listed := tempFile(t, "listed.json", `{"tools": {"get_report": {"rules": [{"rule": "not-empty"}]}}}`)
	code, out, errOut := jig(t, "", "check", listed, oneCall, "--json")
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || len(rep.Uncalled) != 1 || !rep.Uncalled[0].Listed {
		t.Errorf("a contract for a listed tool not called: exit %d, %+v (%v)\n%s", code, rep.Uncalled, err, errOut)
	}
}
