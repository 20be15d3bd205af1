package ui

import (
	"testing"

	"github.com/mcpjig/jig/frames/importer"
	"github.com/mcpjig/jig/session"
)

// TestFlowAttributeSeedTranscript is the seed story in the TUI: open the
// transcript of the two calls, mark the first, press a on the second, and
// the attribution runs on the demo server step by step; a step pins in
// one key.
func TestFlowAttributeSeedTranscript(t *testing.T) {
	fl := start(t, seedTranscript(t, &session.Options{Target: session.Target{Transport: session.TransportDemo, Release: 1}}), 120, 35)
	fl.waitFor("a record, not a reproduction", "4 frames")
	fl.keys("g", "m")
	fl.waitFor("marked recorded #1")
	fl.keys("n", "a")
	fl.waitFor("Attribute recorded #1 → recorded #3 · 8/8 steps", "attribution done: 8 steps")
	fl.waitFor("since alone: orders 0 → 10, PARTIAL (truncated: true)",
		"customer alone: no change (orders 0 → 0)",
		"the transcript showed (the client's rendering): orders 0; the live server answers the same")
	// The steps: pick the third (since alone) and pin it.
	fl.keys("down", "down")
	fl.waitFor("▶ 3  since            orders 10 · PARTIAL (truncated: true) · 2.7 KB · call #3")
	fl.keys("P")
	fl.waitFor("Pin call #3 as a golden fixture")
	fl.keys("esc")
	fl.waitFor("pin cancelled")
}

// TestFlowAttributeLiveCalls: in a live session, two calls of the result
// pane are attributed the same way.
func TestFlowAttributeLiveCalls(t *testing.T) {
	fl := start(t, demoConfig(1), 120, 35)
	fl.waitFor("● connected", "search_orders")
	fl.keys("G", "enter", "down", "end", "left", "Acme Corp", "ctrl+s")
	// Wait for the answer, not the sending: an open call cannot be marked.
	fl.waitFor("call 1/1 #1 ✓ ok", "search_orders")
	fl.keys("esc", "3", "m")
	fl.waitFor("marked call #1")
	fl.keys("2", "enter", "ctrl+r", "down", "end", "left", "acme", "ctrl+s")
	fl.waitFor("call 2/2 #2 ✓ ok", "search_orders")
	fl.keys("esc", "3", "a")
	fl.waitFor("Attribute call #1 → call #2 · 2/2 steps", "1 argument differs: customer")
}

// TestFlowAttributeServerDiesMidRun: the steps that came back stay, the
// failed one says so, and nothing after it is sent.
func TestFlowAttributeServerDiesMidRun(t *testing.T) {
	fl := start(t, seedTranscript(t, &session.Options{Target: crashingDemo(t, 3)}), 120, 35)
	fl.waitFor("a record, not a reproduction")
	fl.keys("g", "m", "n", "a")
	fl.waitFor("attribution stopped at step 4: the server did not answer", "FAILED:", "not sent yet",
		"the server stopped answering at step 4 (limit)")
}

// TestFlowTranscriptCallSaysWhatWasNotPinned: an agent transcript's call
// shows, beside its bytes, what the transcript did not hold still.
func TestFlowTranscriptCallSaysWhatWasNotPinned(t *testing.T) {
	f, err := importer.Open("../frames/importer/testdata/anthropic-request.json")
	if err != nil {
		t.Fatal(err)
	}
	notes := func(i int) []string {
		if c := f.Call(i); c != nil {
			return append([]string{"not pinned by the transcript:"}, f.NotPinned(*c)...)
		}
		return nil
	}
	fl := start(t, Config{Reader: f.Reader, Title: "anthropic-request.json", Record: f.Record(), CallNotes: notes}, 120, 35)
	fl.waitFor("a record, not a reproduction")
	fl.keys("g", "n", "n")
	fl.waitFor("agent transcript: call 3 as the model wrote it", "not pinned by the transcript:", "arguments: the model's draw")
}

// seedTranscript is the TUI's Config for the seed agent transcript (two
// search_orders calls), its recorded calls reproduced on reproduce (nil:
// not at all).
func seedTranscript(t *testing.T, reproduce *session.Options) Config {
	t.Helper()
	f, err := importer.Open("../frames/importer/testdata/seed.json")
	if err != nil {
		t.Fatal(err)
	}
	return Config{Reader: f.Reader, Title: "seed.json", Record: f.Record(), Reproduce: reproduce}
}

// A transcript's response, which has no timing, says which request it
// answers; it is not "answered by" its own request.
func TestFlowTranscriptResponseSaysWhatItAnswers(t *testing.T) {
	fl := start(t, seedTranscript(t, nil), 120, 35)
	fl.waitFor("a record, not a reproduction", "4 frames")
	fl.keys("g", "down")
	fl.waitFor("#2 ← result tools/call", "answers #1")
	fl.keys("up")
	fl.waitFor("#1 → request tools/call", "answered by #2")
}
