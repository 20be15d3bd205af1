package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/fixture"
)

// A call whose flow drifts, end to end through the scriptable flags: the
// demo's release 2 asks cancel_order's client for a reason (an
// input_required round in the 2026-07-28 era, an elicitation/create in
// 2025-11-25). Pinned on release 1 and replayed on 2, the JSON report
// carries both sides of what the call asked; review shows it as an input
// hunk of its own item; a reject marks it a known regression that replay
// recognises; an accept pins the rounds and flow as seen, and the next
// replay is green. Before, an accepted flow drift stayed red: review
// accepted the response alone and its own re-comparison did not see the
// flow.
func TestReviewAcceptsFlowDrift(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv("JIG_REVIEWER", "Ana <ana@example.com>")
	for _, era := range []struct {
		name, path, ask string
		args            []string
	}{
		{"2026-07-28", "/rounds", "round 1 reason: elicitation/create {reason}", nil},
		{"2025-11-25", "/flow", "elicitation/create {reason}", []string{"--protocol-version", "2025-11-25"}},
	} {
		t.Run(era.name, func(t *testing.T) {
			dir, out := t.TempDir(), t.TempDir()
			file, report := filepath.Join(dir, "cancel.json"), filepath.Join(out, "drift.json")
			pin := append([]string{"call", "cancel_order", "--args", `{"order_id":"ord-1054"}`, "--demo", "--no-record", "--pin", file}, era.args...)
			if code, _, errOut := jig(t, "", pin...); code != 0 {
				t.Fatalf("pin: exit %d\n%s", code, errOut)
			}
			replay := func() (int, string) {
				t.Helper()
				args := append([]string{"replay", dir, "--demo", "--release", "2", "--no-record", "--report", "json=" + report}, era.args...)
				code, stdout, _ := jig(t, "", args...)
				return code, stdout
			}
			if code, stdout := replay(); code != exitServerError || !strings.Contains(stdout, era.ask) {
				t.Fatalf("release 2 asks for a reason: exit %d\n%s", code, stdout)
			}
			steps := reportSteps(t, report)
			if len(steps) != 1 || steps[0].PinnedInput == nil || steps[0].Input == nil {
				t.Fatalf("the report's step carries no input: %+v", steps)
			}
			in := steps[0].Input
			seen, _ := json.Marshal(in)
			if !strings.Contains(string(seen), `"elicitation/create"`) || len(steps[0].PinnedInput.Rounds)+len(steps[0].PinnedInput.Flow) != 0 {
				t.Fatalf("actual_input %s, pinned_input %+v: want the elicitation seen and nothing pinned", seen, steps[0].PinnedInput)
			}

			code, stdout, errOut := jig(t, "", "review", report, "--json")
			r := decodeReview(t, stdout)
			if code != exitServerError || len(r.Items) != 1 || r.Items[0].Kind != fixture.ItemResponse || len(r.Items[0].Hunks) != 1 || r.Items[0].Hunks[0].Pointer != era.path {
				t.Fatalf("review: exit %d, %+v\n%s", code, r.Items, errOut)
			}
			if len(r.Items[0].Hunks[0].Proposals) != 0 {
				t.Errorf("a rule was proposed for what the call asks: %+v", r.Items[0].Hunks[0].Proposals)
			}
			if _, listing, _ := jig(t, "", "review", report); !strings.Contains(listing, "cancel: what the call asks of its client changed") || !strings.Contains(listing, "input_required round") {
				t.Errorf("the listing does not say what drifted and why:\n%s", listing)
			}

			// Reject: the mark's digest is the replay's, so it is known.
			if code, _, errOut := jig(t, "", "review", report, "--reject", "cancel", "--reject-reason", "the client cannot answer yet (#7)"); code != exitServerError {
				t.Fatalf("reject: exit %d\n%s", code, errOut)
			}
			if code, stdout := replay(); code != exitServerError || !strings.Contains(stdout, "! known regression (response)") || strings.Contains(stdout, "new drift") {
				t.Fatalf("the rejected flow drift is not known to replay: exit %d\n%s", code, stdout)
			}
			if _, stdout, _ := jig(t, "", "review", report, "--json"); decodeReview(t, stdout).Items[0].Status != "known" {
				t.Fatalf("the next review does not see the reject:\n%s", stdout)
			}

			// Accept: the rounds or flow are pinned as seen; replay is green.
			code, stdout, errOut = jig(t, "", "review", report, "--accept", "cancel", "--reason", "release 2 asks why", "--retarget", "--json")
			r = decodeReview(t, stdout)
			if code != 0 || len(r.Written) != 1 || len(r.Decisions.StillRed) != 0 {
				t.Fatalf("accept: exit %d, written %v, still red %v\n%s", code, r.Written, r.Decisions.StillRed, errOut)
			}
			f, err := fixture.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Rounds)+len(f.Flow) == 0 || len(f.KnownRegressions) != 0 || f.History[len(f.History)-1].Reason != "release 2 asks why" {
				t.Fatalf("the accepted fixture: rounds %d, flow %d, marks %v, history %+v", len(f.Rounds), len(f.Flow), f.KnownRegressions, f.History)
			}
			if code, stdout, errOut := jig(t, "", "replay", dir, "--no-record"); code != 0 || !strings.Contains(stdout, "no drift") {
				t.Fatalf("replay after the accept: exit %d\n%s\n%s", code, stdout, errOut)
			}
		})
	}
}

// reportSteps are a one-scenario JSON report's steps, decoded in full.
func reportSteps(t *testing.T, report string) []fixture.StepResult {
	t.Helper()
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Scenarios []struct {
			Steps []fixture.StepResult `json:"steps"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Scenarios) != 1 {
		t.Fatalf("report: %v, %d scenarios", err, len(doc.Scenarios))
	}
	return slices.Clone(doc.Scenarios[0].Steps)
}
