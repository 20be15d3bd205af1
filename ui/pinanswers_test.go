package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session/replay"
)

// pinAndReplay pins the session's last call from the result pane to file,
// checks the review says what answers the fixture keeps, and replays it
// against the unchanged server: it must be green.
func pinAndReplay(t *testing.T, f *flow, cfg Config, file, review string) *fixture.Fixture {
	t.Helper()
	f.keys("esc", "3", "P")
	f.waitFor("Pin call #1")
	f.keys("tab", "tab", "ctrl+u", file, "enter")
	f.waitFor("Review what will be compared", review)
	f.keys("enter")
	f.waitFor("pinned " + file)
	fx, err := fixture.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o := replay.Run(ctx, []replay.Case{{Path: file, Fixture: fx}}, replay.Options{Override: &replay.Override{Target: cfg.Options.Target}})[0]
	if o.Err != nil || o.Drifted() {
		var diffs []string
		for _, d := range o.Report.Differences {
			diffs = append(diffs, fmt.Sprintf("%s %s: %s → %s", d.Severity, d.Path, d.Expected, d.Actual))
		}
		t.Errorf("the just-pinned fixture is not green on the unchanged server: err %v\n%s", o.Err, strings.Join(diffs, "\n"))
	}
	return fx
}

// F11: a call pinned after its server's request for input was answered by
// hand in the dialog keeps that answer in the fixture's "answers", so that
// replay answers the same way (it answered with the canned sampling reply,
// and the first replay was red).
func TestFlowPinKeepsTheAnswersGivenByHand(t *testing.T) {
	dir := t.TempDir()
	t.Run("sampling", func(t *testing.T) {
		cfg := everything(t)
		f := start(t, cfg, 160, 40)
		f.pick("trigger-sampling-request")
		f.keys("down", "end", "left", "capital?", "ctrl+s")
		f.waitFor("The server asks for a model reply")
		f.keys("ctrl+k", "Paris", "ctrl+s")
		f.waitFor("✓ ok")
		fx := pinAndReplay(t, f, cfg, filepath.Join(dir, "sampling.json"), "answers: 1 sampling answer")
		if fx.Answers == nil || !strings.Contains(string(fx.Answers.Sample), "Paris") {
			t.Errorf("the fixture's answers are %+v, want the reply Paris", fx.Answers)
		}
	})
	t.Run("elicitation", func(t *testing.T) {
		cfg := everything(t)
		f := start(t, cfg, 160, 40)
		f.pick("trigger-elicitation-request")
		f.keys("ctrl+s")
		f.waitFor("the requested schema as a form")
		f.keys("Ada Lovelace", "ctrl+s")
		f.waitFor("Name: Ada Lovelace", "✓ ok")
		fx := pinAndReplay(t, f, cfg, filepath.Join(dir, "elicit.json"), "answers: 1 elicitation answer")
		if fx.Answers == nil || !strings.Contains(string(fx.Answers.Elicit), "Ada Lovelace") {
			t.Errorf("the fixture's answers are %+v, want the content typed", fx.Answers)
		}
	})
}

// L5: P on a resources/read result pins it (it said "pinning works on
// tools/call", while the README's P pins "this call" and the dialog's
// scenarios take reads and prompts); the fixture replays green.
func TestFlowPinAResourceRead(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 120, 35)
	f.waitFor("mcp-servers/everything")
	f.keys("5")
	f.waitFor("5 Resources (7)", "architecture.md")
	f.keys("enter")
	f.waitFor("✓ ok", "resources/read demo://")
	fx := pinAndReplay(t, f, cfg, filepath.Join(t.TempDir(), "read.json"), "normalization rules")
	if fx.Method() != "resources/read" {
		t.Errorf("the fixture pins %s, want resources/read", fx.Method())
	}
}
