package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session/replay"
)

// pinReviewFixtures pins, against the demo server's release 1, two searches
// (the tool whose definition release 2 changes) and get_report with its
// rules removed, as a fixture pinned before jig proposed rules would be:
// its request_id and generated_at are noise to turn into rules.
func pinReviewFixtures(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	pins := []struct{ tool, args, file string }{
		{"search_orders", `{"customer":"Acme Corp","since":"2026-01-01","limit":500}`, "search-acme.json"},
		{"search_orders", `{"customer":"Globex","since":"2026-01-01"}`, "search-globex.json"},
		{"get_report", `{}`, "report.json"},
	}
	for _, p := range pins {
		if code, _, errOut := jig(t, "", "call", p.tool, "--args", p.args, "--demo", "--no-record", "--pin", filepath.Join(dir, p.file)); code != 0 {
			t.Fatalf("pin %s: exit %d\n%s", p.file, code, errOut)
		}
	}
	path := filepath.Join(dir, "report.json")
	f, err := fixture.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Rules = nil
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	return dir
}

// replayReport replays dir against release 2 and returns the JSON report's
// outcome per scenario.
func replayReport(t *testing.T, dir, report string) (int, map[string]string) {
	t.Helper()
	code, out, errOut := jig(t, "", "replay", dir, "--demo", "--release", "2", "--no-record", "--report", "json="+report)
	doc, err := fixture.ReadReport(report)
	if err != nil {
		t.Fatalf("replay: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	outcomes := map[string]string{}
	for _, s := range doc.Scenarios {
		outcomes[s.Scenario] = s.Outcome
	}
	return code, outcomes
}

type reviewJSON struct {
	Items []struct {
		Item, Kind, Status string
		Scenarios          []string
		Hunks              []struct {
			Pointer   string
			Proposals []fixture.Proposal
		}
	}
	Decisions fixture.Decisions
	Written   []string
	Problems  []string
}

func decodeReview(t *testing.T, out string) reviewJSON {
	t.Helper()
	var r reviewJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("review --json: %v\n%s", err, out)
	}
	return r
}

// The flow through the scriptable flags, against the demo server's
// release 2 drift: the tool-definition change is one item for both
// searches; accept it and one search with a reason, reject the other, turn
// the report's noise into rules; then jig replay on the same target is
// green for the accepted and the ruled scenarios and red for the rejected.
func TestReviewFlags(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv("JIG_REVIEWER", "Ana <ana@example.com>")
	dir := pinReviewFixtures(t)
	report := filepath.Join(t.TempDir(), "drift.json")
	code, outcomes := replayReport(t, dir, report)
	if code != exitServerError || outcomes["search-acme"] != "breaking" || outcomes["search-globex"] != "breaking" || outcomes["report"] != "breaking" {
		t.Fatalf("before review: exit %d, %v", code, outcomes)
	}

	code, out, errOut := jig(t, "", "review", report, "--json")
	r := decodeReview(t, out)
	var items []string
	for _, it := range r.Items {
		items = append(items, it.Kind+" "+it.Item+" "+strings.Join(it.Scenarios, ","))
	}
	want := "tool tool:search_orders search-acme,search-globex|response report report|response search-acme search-acme|response search-globex search-globex"
	if got := strings.Join(items, "|"); got != want {
		t.Fatalf("items (exit %d):\n got %s\nwant %s\n%s", code, got, want, errOut)
	}
	// jig proposes the rules the noise needs.
	var rules []string
	for _, it := range r.Items {
		if it.Item != "report" {
			continue
		}
		for _, h := range it.Hunks {
			for _, p := range h.Proposals {
				if p.Rule != nil && p.Rule.Type == fixture.TypeUUID {
					rules = append(rules, "report="+p.Rule.Path+":"+p.Rule.Type)
				}
			}
		}
	}
	if len(rules) != 2 {
		t.Fatalf("want a uuid rule in the text and in structuredContent, got %v", rules)
	}
	// generated_at differs only when the second has turned since the pin:
	// a rule for it whether or not this report shows it.
	rules = append(rules, "report=/structuredContent/generated_at:iso8601", "report=/content/0/text#/generated_at:iso8601")

	before, err := fixture.Load(filepath.Join(dir, "search-globex.json"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"review", report, "--accept", "tool:search_orders", "--accept", "search-acme", "--reason", "v2 renames customer_name to customer",
		"--reject", "search-globex", "--json"}
	for _, rule := range rules {
		args = append(args, "--rule", rule)
	}
	code, out, errOut = jig(t, "", args...)
	r = decodeReview(t, out)
	if !strings.Contains(errOut, "hides a change classified breaking (changed at result.structuredContent.request_id)") {
		t.Errorf("a rule that hides a breaking change is said so:\n%s", errOut)
	}
	if code != exitServerError || len(r.Written) != 3 || strings.Join(r.Decisions.StillRed, ",") != "search-globex" {
		t.Fatalf("review: exit %d (want 1: globex stays red), written %v, still red %v\n%s", code, r.Written, r.Decisions.StillRed, errOut)
	}
	code, outcomes = replayReport(t, dir, filepath.Join(t.TempDir(), "after.json"))
	var acme *fixture.Fixture
	if code != exitServerError || outcomes["search-acme"] != "ok" || outcomes["report"] != "ok" || outcomes["search-globex"] != "breaking" {
		t.Errorf("after review: exit %d, %v (want acme and report ok, globex breaking)", code, outcomes)
	}
	acme, err = fixture.Load(filepath.Join(dir, "search-acme.json"))
	if err != nil {
		t.Fatal(err)
	}
	if h := acme.History[len(acme.History)-1]; h.Reason != "v2 renames customer_name to customer" || !strings.HasPrefix(h.By, "Ana <ana@example.com>") {
		t.Errorf("acme's history: %+v", acme.History)
	}
	globex, err := fixture.Load(filepath.Join(dir, "search-globex.json"))
	if err != nil || string(globex.Response.Result) != string(before.Response.Result) || string(globex.Tool) == string(before.Tool) {
		t.Error("the rejected response must be kept as pinned, beside the accepted tool definition")
	}

	// The report is about the fixtures before the review: refused, file by
	// file, and nothing written.
	snapshot, _ := os.ReadFile(filepath.Join(dir, "search-acme.json"))
	code, _, errOut = jig(t, "", "review", report, "--accept", "search-acme", "--reason", "again")
	if code != exitUsage || !strings.Contains(errOut, "search-acme.json: changed since the report was written") {
		t.Errorf("a stale report: exit %d\n%s", code, errOut)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "search-acme.json")); string(now) != string(snapshot) {
		t.Error("a stale report wrote a fixture")
	}
}

// Bad input: an item the report does not have, --accept without a reason,
// a malformed rule, and any write under CI are refused with a message that
// names the input and what to do, and nothing is written.
func TestReviewBadInput(t *testing.T) {
	t.Setenv("CI", "")
	dir := pinReviewFixtures(t)
	report := filepath.Join(t.TempDir(), "drift.json")
	replayReport(t, dir, report)
	snapshot := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		snapshot[f] = string(b)
	}
	cases := []struct {
		name string
		args []string
		ci   string
		want string
	}{
		{"unknown item", []string{"--reject", "nope"}, "", `"nope" is not an item of the report (items: tool:search_orders, report, search-acme, search-globex)`},
		{"accept without a reason", []string{"--accept", "search-acme"}, "", "--accept needs --reason"},
		{"a rule without a type", []string{"--rule", "report=/structuredContent/request_id"}, "", "expected 'ITEM=/POINTER:TYPE[:PATTERN|KEY]'"},
		{"an unknown rule type", []string{"--rule", "report=/structuredContent/request_id:guid"}, "", `rule type "guid" is unknown`},
		{"a rule on a tool item", []string{"--rule", "tool:search_orders=/x:any"}, "", "rules apply to a response's drift"},
		{"CI", []string{"--reject", "search-globex"}, "true", "jig review writes nothing when CI=true is set"},
		{"a fixture is not a report", []string{}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("CI", c.ci)
			args := append([]string{"review", report}, c.args...)
			if c.name == "a fixture is not a report" {
				// A fixture file is replayed now, not read as a report.
				args = []string{"review", filepath.Join(dir, "report.json"), "--demo", "--release", "2", "--no-record", "--json", "--dry-run"}
				code, out, errOut := jig(t, "", args...)
				r := decodeReview(t, out)
				if code != exitServerError || len(r.Items) != 1 || r.Items[0].Item != "report" || !strings.Contains(errOut, "replayed") {
					t.Errorf("review FIXTURE --demo --release 2: exit %d, %+v\n%s", code, r.Items, errOut)
				}
				return
			}
			code, _, errOut := jig(t, "", args...)
			if code != exitUsage || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, want 2 and %q in:\n%s", code, c.want, errOut)
			}
		})
	}
	for f, want := range snapshot {
		if b, _ := os.ReadFile(f); string(b) != want {
			t.Errorf("%s was written", f)
		}
	}
	if code, _, errOut := jig(t, "", "review", filepath.Join(dir, "nope.json")); code != exitUsage || !strings.Contains(errOut, "no such report or fixtures directory") {
		t.Errorf("a missing file: exit %d\n%s", code, errOut)
	}
}

// --shard I/N splits the fixtures by a hash of their file name: the shards
// cover every fixture once, adding fixtures moves none of the others, and
// jig review reads the shards' reports at once.
func TestReplayShards(t *testing.T) {
	t.Setenv("CI", "")
	dir := pinReviewFixtures(t)
	tmp := t.TempDir()
	seen := map[string]int{}
	var reports []string
	for i := 1; i <= 2; i++ {
		report := filepath.Join(tmp, fmt.Sprintf("shard-%d.json", i))
		jig(t, "", "replay", dir, "--demo", "--release", "2", "--no-record", "--shard", fmt.Sprintf("%d/2", i), "--report", "json="+report)
		doc, err := fixture.ReadReport(report)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range doc.Scenarios {
			seen[s.Scenario]++
		}
		reports = append(reports, report)
	}
	if len(seen) != 3 || seen["report"] != 1 || seen["search-acme"] != 1 || seen["search-globex"] != 1 {
		t.Errorf("the shards must cover every fixture once: %v", seen)
	}
	code, out, errOut := jig(t, "", append([]string{"review"}, append(reports, "--json")...)...)
	r := decodeReview(t, out)
	if len(r.Items) != 4 {
		t.Errorf("review of both shards: exit %d, %d items\n%s", code, len(r.Items), errOut)
	}
	for _, it := range r.Items {
		if it.Item == "tool:search_orders" && len(it.Scenarios) != 2 {
			t.Errorf("the tool-definition change is one item across shards, for both searches: %v", it.Scenarios)
		}
	}

	// Stable under added fixtures: each file stays in its shard.
	var cases []replay.Case
	for i := range 50 {
		cases = append(cases, replay.Case{Path: filepath.Join("fixtures", fmt.Sprintf("scenario-%d.json", i))})
	}
	where := func(cs []replay.Case, n int) map[string]int {
		m := map[string]int{}
		for i := 1; i <= n; i++ {
			got, _ := inShard(cs, nil, i, n)
			for _, c := range got {
				m[c.Path] = i
			}
		}
		return m
	}
	before := where(cases[:30], 4)
	after := where(cases, 4)
	for p, s := range before {
		if after[p] != s {
			t.Errorf("%s moved from shard %d to %d when fixtures were added", p, s, after[p])
		}
	}
	if len(after) != len(cases) {
		t.Errorf("the shards hold %d of %d fixtures", len(after), len(cases))
	}
	for _, bad := range []string{"0/2", "3/2", "1", "a/b", "1/0"} {
		if code, _, errOut := jig(t, "", "replay", dir, "--shard", bad, "--no-record"); code != exitUsage || !strings.Contains(errOut, "--shard") {
			t.Errorf("--shard %s: exit %d\n%s", bad, code, errOut)
		}
	}
}

// A reject is remembered: against the demo server's release 2, the tool
// definition and search-globex's response are rejected with a reason; the
// fixture keeps its pinned response and records the mark, the next jig replay
// still fails but names the known regression (who, when, why), and the next
// review shows both as rejected already, the rest pending.
func TestReviewRejectIsRemembered(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv("JIG_REVIEWER", "Ana <ana@example.com>")
	dir := pinReviewFixtures(t)
	report := filepath.Join(t.TempDir(), "drift.json")
	replayReport(t, dir, report)
	before, _ := fixture.Load(filepath.Join(dir, "search-globex.json"))
	code, out, errOut := jig(t, "", "review", report, "--reject", "tool:search_orders", "--reject", "search-globex", "--reason", "v2 breaks the billing client (#412)", "--json")
	r := decodeReview(t, out)
	if code != exitServerError || len(r.Written) != 2 || len(r.Decisions.Rejected) != 2 {
		t.Fatalf("review: exit %d, written %v, rejected %v\n%s", code, r.Written, r.Decisions.Rejected, errOut)
	}
	globex, err := fixture.Load(filepath.Join(dir, "search-globex.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(globex.Response.Result) != string(before.Response.Result) || string(globex.Tool) != string(before.Tool) || len(globex.KnownRegressions) != 2 {
		t.Fatalf("the rejected fixture keeps what it pinned and gains two marks: %+v", globex.KnownRegressions)
	}

	code, out, errOut = jig(t, "", "replay", dir, "--demo", "--release", "2", "--no-record", "--report", "json="+report)
	if code != exitServerError {
		t.Fatalf("a known regression stays red: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{
		"! known regression (response), rejected on ",
		" by Ana <ana@example.com> (jig review, jig ",
		"): v2 breaks the billing client (#412) — stays red until it is fixed or accepted",
		"of them known regressions (rejected in review): " + filepath.Join(dir, "search-globex.json"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("replay output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = jig(t, "", "review", report, "--json")
	r = decodeReview(t, out)
	status := map[string]string{}
	for _, it := range r.Items {
		status[it.Item] = it.Status
	}
	if status["search-globex"] != "known" || status["tool:search_orders"] != "known" || status["search-acme"] != "pending" || status["report"] != "pending" || len(r.Decisions.Known) != 2 {
		t.Fatalf("the next review: exit %d, %v, known %v\n%s", code, status, r.Decisions.Known, errOut)
	}
	// Without a terminal, the listing's count adds up: the known ones are
	// listed too, and said apart ("2 items to review" listed 4).
	pending := 0
	for _, st := range status {
		if st == "pending" {
			pending++
		}
	}
	code, out, _ = jig(t, "", "review", report)
	if want := fmt.Sprintf("%d items to review, and 2 known regressions rejected in an earlier review", pending); code != exitServerError || !strings.HasPrefix(out, want) {
		t.Errorf("the listing: exit %d, want it to begin %q:\n%s", code, want, out)
	}
}

// Accepting drift replayed against another target than the fixtures' own
// (the report of jig replay --demo --release 2 on fixtures pinned against
// release 1) never silently keeps the old target: without --retarget the
// fixture keeps its own, and stderr, the summary and --json say so; with it,
// the fixture is pointed at release 2 (its history says from where) and
// replays green on its own target.
func TestReviewRetarget(t *testing.T) {
	t.Setenv("CI", "")
	for _, retarget := range []bool{false, true} {
		dir := pinReviewFixtures(t)
		report := filepath.Join(t.TempDir(), "drift.json")
		replayReport(t, dir, report)
		doc, err := fixture.ReadReport(report)
		if err != nil {
			t.Fatal(err)
		}
		if ra := doc.Scenarios[0].ReplayedAgainst; ra == nil || ra.Name != "demo server (release 2)" || ra.Own != "demo server" || ra.Target.Release != 2 {
			t.Fatalf("the report must say the target replayed against: %+v", ra)
		}
		args := []string{"review", report, "--accept", "tool:search_orders", "--accept", "search-acme", "--reason", "v2 renames customer_name", "--json"}
		if retarget {
			args = append(args, "--retarget")
		}
		_, out, errOut := jig(t, "", args...)
		r := decodeReview(t, out)
		if len(r.Decisions.Accepted) != 2 || r.Decisions.Accepted[1].ReplayedAgainst != "demo server (release 2)" || r.Decisions.Accepted[1].Retargeted != retarget {
			t.Fatalf("retarget=%v: decisions %+v\n%s", retarget, r.Decisions.Accepted, errOut)
		}
		acme, err := fixture.Load(filepath.Join(dir, "search-acme.json"))
		if err != nil {
			t.Fatal(err)
		}
		own := filepath.Join(t.TempDir(), "own.json")
		code, _, replayErr := jig(t, "", "replay", filepath.Join(dir, "search-acme.json"), "--no-record", "--report", "json="+own)
		if d, err := fixture.ReadReport(own); err != nil || d.Scenarios[0].ReplayedAgainst != nil {
			t.Errorf("a replay on the fixture's own target names no other target: %v", err)
		}
		if !retarget {
			if !strings.Contains(errOut, "search-acme: the accepted drift was replayed against demo server (release 2), not its fixtures' own target demo server: they keep their own target, where it drifts; pass --retarget") {
				t.Errorf("without --retarget the kept target is said:\n%s", errOut)
			}
			if acme.Target.Release == 2 || code == 0 {
				t.Errorf("without --retarget: target %+v, replay on its own target exit %d (want its own target, red there)", acme.Target, code)
			}
			continue
		}
		if h := acme.History[len(acme.History)-1]; acme.Target.Release != 2 || h.RetargetedFrom != "demo server" || acme.Server.Version == "" {
			t.Errorf("with --retarget: target %+v, server %+v, history %+v", acme.Target, acme.Server, acme.History)
		}
		if code != 0 {
			t.Errorf("a retargeted fixture replays green on its own target: exit %d\n%s", code, replayErr)
		}
	}
}

// A skip is no decision and carries no reason: --reason is the accepts'
// (a skip beside an accept was recorded with the accept's reason).
func TestReviewSkipHasNoReason(t *testing.T) {
	t.Setenv("CI", "")
	dir := pinReviewFixtures(t)
	report := filepath.Join(t.TempDir(), "drift.json")
	replayReport(t, dir, report)
	_, out, errOut := jig(t, "", "review", report, "--accept", "tool:search_orders", "--reason", "v2 renames customer_name", "--skip", "search-globex", "--json", "--dry-run")
	r := decodeReview(t, out)
	if len(r.Decisions.Skipped) != 1 || r.Decisions.Skipped[0].Reason != "" || len(r.Decisions.Accepted) != 1 || r.Decisions.Accepted[0].Reason != "v2 renames customer_name" {
		t.Fatalf("skipped %+v, accepted %+v\n%s", r.Decisions.Skipped, r.Decisions.Accepted, errOut)
	}
}
