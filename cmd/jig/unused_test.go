package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyFixture copies a fixture under a new scenario name, replacing old
// with repl in its text (to point it at a tool that is gone).
func copyFixture(t *testing.T, from, to, scenario string, old, repl string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["scenario"] = scenario
	out, _ := json.MarshalIndent(m, "", "  ")
	if old != "" {
		out = []byte(strings.ReplaceAll(string(out), old, repl))
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// jig replay --fail-on-unused against the demo server's release 1: a
// fixture whose tool is gone and one in a subdirectory replay does not read
// are named, each with the next step; without them, and for another shard's
// fixtures, the flag passes.
func TestReplayFailOnUnused(t *testing.T) {
	t.Setenv("CI", "")
	dir := pinReviewFixtures(t)
	// report.json is pinned without its rules, to drift: kept outside.
	spare := filepath.Join(t.TempDir(), "report.json")
	if err := os.Rename(filepath.Join(dir, "report.json"), spare); err != nil {
		t.Fatal(err)
	}
	replayArgs := func(extra ...string) []string {
		return append([]string{"replay", dir, "--demo", "--no-record"}, extra...)
	}
	if code, out, errOut := jig(t, "", replayArgs("--fail-on-unused")...); code != 0 || !strings.Contains(out, "Unused: none") {
		t.Fatalf("every fixture exercised: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, shard := range []string{"1/2", "2/2"} {
		if code, out, errOut := jig(t, "", replayArgs("--fail-on-unused", "--shard", shard)...); code != 0 || !strings.Contains(out, "Unused: none") {
			t.Fatalf("shard %s: another shard's fixtures are not unused: exit %d\n%s\n%s", shard, code, out, errOut)
		}
	}
	copyFixture(t, spare, filepath.Join(dir, "archive", "report-old.json"), "report-old", "", "")
	if code, out, _ := jig(t, "", replayArgs()...); code != 0 || strings.Contains(out, "archive") {
		t.Fatalf("without the flag a subdirectory is not looked at: exit %d\n%s", code, out)
	}
	copyFixture(t, filepath.Join(dir, "search-acme.json"), filepath.Join(dir, "retired.json"), "retired", `"search_orders"`, `"retired_search"`)
	code, out, errOut := jig(t, "", replayArgs("--fail-on-unused")...)
	if code != exitServerError {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	want := []string{
		"Unused (2): nothing exercised these in this run",
		filepath.Join(dir, "archive", "report-old.json") + ": in a subdirectory of " + dir + ", which jig replay " + dir + " does not read — replay " + filepath.Join(dir, "archive") + " too",
		filepath.Join(dir, "retired.json") + `: its tool "retired_search" is no longer listed`,
		` — delete it (jig review REPORT.json --delete retired) or pin the tool that replaced it`,
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q in\n%s", w, out)
		}
	}
}

// jig review --fail-on-unused names what the run reviewed did not
// exercise: a fixture added after the report, an obsolete one not deleted
// in this review; deleting it here takes it off the list.
func TestReviewFailOnUnused(t *testing.T) {
	t.Setenv("CI", "")
	dir := pinReviewFixtures(t)
	copyFixture(t, filepath.Join(dir, "search-acme.json"), filepath.Join(dir, "retired.json"), "retired", `"search_orders"`, `"retired_search"`)
	report := filepath.Join(t.TempDir(), "drift.json")
	replayReport(t, dir, report)
	copyFixture(t, filepath.Join(dir, "report.json"), filepath.Join(dir, "added-later.json"), "added-later", "", "")

	type unusedOut struct {
		Unused []struct{ File, Why, Next string }
		Exit   int
	}
	review := func(extra ...string) unusedOut {
		t.Helper()
		_, out, errOut := jig(t, "", append([]string{"review", report, "--json", "--fail-on-unused"}, extra...)...)
		var u unusedOut
		if err := json.Unmarshal([]byte(out), &u); err != nil {
			t.Fatalf("%v\n%s\n%s", err, out, errOut)
		}
		return u
	}
	u := review()
	files := map[string]string{}
	for _, x := range u.Unused {
		files[filepath.Base(x.File)] = x.Why + " — " + x.Next
	}
	if len(files) != 2 || !strings.Contains(files["added-later.json"], "none of the reports reviewed compared it") ||
		!strings.Contains(files["retired.json"], "no longer listed") || !strings.Contains(files["retired.json"], " — delete it (jig review "+report+" --delete retired)") || u.Exit != exitServerError {
		t.Fatalf("unused = %+v", u)
	}
	u = review("--delete", "retired", "--dry-run")
	if len(u.Unused) != 1 || filepath.Base(u.Unused[0].File) != "added-later.json" {
		t.Fatalf("after deleting the obsolete fixture: %+v", u)
	}
	if _, out, _ := jig(t, "", "review", report, "--json"); strings.Contains(out, `"unused"`) {
		t.Errorf("without the flag, no unused list:\n%s", out)
	}
}

// --reason is why the accepted drift is intended: a deletion in the same
// review is listed without it (it was listed as `retired — "v2 …"`).
func TestReviewDeleteDoesNotBorrowTheAcceptsReason(t *testing.T) {
	t.Setenv("CI", "")
	dir := pinReviewFixtures(t)
	copyFixture(t, filepath.Join(dir, "search-acme.json"), filepath.Join(dir, "retired.json"), "retired", `"search_orders"`, `"retired_search"`)
	report := filepath.Join(t.TempDir(), "drift.json")
	replayReport(t, dir, report)
	const why = "v2 renames the field"
	code, out, errOut := jig(t, "", "review", report, "--accept", "tool:search_orders", "--reason", why, "--delete", "retired", "--dry-run")
	if !strings.Contains(out, why) || !strings.Contains(out, "retired") {
		t.Fatalf("exit %d: the accept's reason and the deletion should both be listed (the test proves nothing)\n%s\n%s", code, out, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "retired") && strings.Contains(line, why) {
			t.Errorf("the deletion is listed with the accept's reason: %q\n%s", line, out)
		}
	}
}

// F25: one decision review cannot make stopped the review with nothing
// written for the others, and nothing said so.
func TestReviewSaysNothingWasWritten(t *testing.T) {
	t.Setenv("CI", "")
	dir := pinReviewFixtures(t)
	report := filepath.Join(t.TempDir(), "drift.json")
	replayReport(t, dir, report)
	before, _ := os.ReadFile(filepath.Join(dir, "search-acme.json"))
	code, _, errOut := jig(t, "", "review", report, "--accept", "tool:search_orders", "--accept", "no-such-scenario", "--reason", "v2")
	if code != exitUsage || !strings.Contains(errOut, "no-such-scenario") || !strings.Contains(errOut, "nothing was written, for any item") {
		t.Errorf("exit %d, want 2 naming the decision and saying nothing was written:\n%s", code, errOut)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "search-acme.json")); string(after) != string(before) {
		t.Errorf("a fixture was written after all")
	}
}
