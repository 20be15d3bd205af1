package replay

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/fixture"
)

// Every proposal pin makes is checked against the pin's second response as
// replay reads it: an assertion on what replay never compares (the
// protocol's _meta) and a rule whose pattern leaves the difference unmasked
// are dropped with a note, and what still differs is said to be red.
func TestHoldProposalsDropsWhatCannotHold(t *testing.T) {
	pinned := `{"content":[{"type":"text","text":"created at 8:25:58 PM"}],"_meta":{"io.modelcontextprotocol/serverInfo":{"icons":[{"src":"x"}]}}}`
	second := `{"content":[{"type":"text","text":"created at 8:26:03 PM"}],"_meta":{"io.modelcontextprotocol/serverInfo":{"icons":[{"src":"x"}]}}}`
	f := &fixture.Fixture{Format: fixture.Format, Scenario: "s", Target: fixture.Target{Transport: "demo"},
		Request:  fixture.Request{Method: "tools/call", Params: json.RawMessage(`{"name":"t","arguments":{}}`)},
		Response: fixture.Response{Result: json.RawMessage(pinned)},
		Rules:    []fixture.Rule{{Path: "/content/0/text", Type: fixture.TypePattern, Pattern: `25:\d+`, Reason: fixture.ReasonDiffered}},
		Assertions: []fixture.Assertion{{Op: fixture.OpIsErrorFalse},
			{Path: "/_meta/io.modelcontextprotocol~1serverInfo/icons", Op: fixture.OpMinLength, Value: json.RawMessage("1")}},
	}
	notes := strings.Join(holdProposals(f, 0, fixture.Actual{Result: json.RawMessage(second)}), "\n")
	for _, want := range []string{
		"dropped the proposed assertion /_meta/io.modelcontextprotocol~1serverInfo/icons min-length 1",
		`dropped the proposed rule /content/0/text → pattern 25:\d+`,
		"WARNING: /result/content/0/text differed between 2 identical calls and no rule holds it",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if len(f.Assertions) != 1 || f.Assertions[0].Op != fixture.OpIsErrorFalse || len(f.Rules) != 0 {
		t.Errorf("kept assertions %+v and rules %+v, want only is-error-false and no rule", f.Assertions, f.Rules)
	}
	// What holds is kept, silently.
	f.Rules = []fixture.Rule{{Path: "/content/0/text", Type: fixture.TypePattern, Pattern: fixture.PatternClockTime}}
	if notes := holdProposals(f, 0, fixture.Actual{Result: json.RawMessage(second)}); len(notes) != 0 || len(f.Rules) != 1 || len(f.Assertions) != 1 {
		t.Errorf("a rule and an assertion that hold: notes %q, rules %+v, assertions %+v", notes, f.Rules, f.Assertions)
	}
}
