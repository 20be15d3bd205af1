package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/replay"
)

// TestFlowPin pins a call from the result pane: name and note it, review the
// rules jig proposes (get_report is read-only, so it is probed with a second
// identical call), save it, and find that a second save to the same file is
// refused until the user explicitly overwrites it.
func TestFlowPin(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fx", "report.json")
	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("● connected", "get_report")
	f.keys("g", "j", "j", "enter")
	f.waitFor("EDITING")
	f.keys("ctrl+s")
	f.waitFor("call 1/1 #1 ✓ ok", "get_report")
	f.keys("esc", "3")
	f.waitFor("P pin this call as a golden fixture")
	f.keys("?")
	f.waitFor("Result keys", "pin this call as a golden fixture")
	f.keys("esc")

	f.keys("P")
	f.waitFor("Pin call #1 as a golden fixture", "scenario  get-report", "fixtures/get-report.json", "calls it once more")
	f.keys("tab", "the daily report keeps its shape", "tab", "ctrl+u", path, "enter")
	f.waitFor("Review what will be compared on replay", "normalization rules:",
		"/structuredContent/request_id → uuid (differed between 2 identical calls)",
		"/structuredContent/generated_at → iso8601", "assertions:", "is-error-false", "new file: "+path)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the fixture was written before the review was confirmed (stat: %v)", err)
	}
	f.keys("enter")
	f.waitFor("✓ pinned "+path, "jig replay "+path)

	fx, err := fixture.Load(path)
	if err != nil {
		t.Fatalf("the pinned fixture does not load: %v", err)
	}
	if fx.Scenario != "get-report" || fx.Note != "the daily report keeps its shape" || fx.ToolName() != "get_report" {
		t.Errorf("the fixture is scenario %q, note %q, tool %q; want get-report, the typed note, get_report", fx.Scenario, fx.Note, fx.ToolName())
	}
	if len(fx.Rules) == 0 {
		t.Errorf("the fixture has no rules; probing get_report should have found generated_at and request_id")
	}
	first, _ := os.ReadFile(path)

	// Closing keeps the way to replay it on the status line.
	f.keys("esc")
	f.waitFor("pinned " + path)

	// The same file again: the review warns, enter refuses, o overwrites.
	f.keys("P")
	f.waitFor("scenario  get-report")
	f.keys("tab", "tab", "ctrl+u", path, "enter")
	f.waitFor("⚠ this file exists", "o overwrite the file")
	f.keys("enter")
	f.waitFor("already exists, so nothing was written")
	if now, _ := os.ReadFile(path); !bytes.Equal(now, first) {
		t.Fatalf("enter replaced an existing fixture without the overwrite key")
	}
	f.keys("o")
	f.waitFor("✓ pinned " + path)
	if _, err := fixture.Load(path); err != nil {
		t.Fatalf("the overwritten fixture does not load: %v", err)
	}
}

// TestFlowPinCancel cancels the dialog: nothing is written, and the status
// line says so.
func TestFlowPinCancel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.json")
	f := start(t, demoConfig(1), 80, 24)
	f.waitFor("● co", "Tools (6)")
	f.keys("g", "enter")
	f.waitFor("EDITING")
	f.keys("ctrl+s") // order_id is required and left empty: a second ctrl+s sends it so
	f.waitFor("ctrl+s again sends it empty")
	f.keys("ctrl+s")
	// Wait for the answer, not the sending: P on a call still open is refused.
	f.waitFor("call 1/1 #1 ✗ TOOL ERROR (isError)", "cancel_order")
	f.keys("esc", "3", "P")
	f.waitFor("Pin call #1", "scenario  cancel-order")
	f.keys("tab", "tab", "ctrl+u", path, "enter")
	f.waitFor("normalization rules", "probed    no: the tool is not marked read-only")
	f.keys("esc")
	f.waitFor("pin cancelled: nothing was saved")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a cancelled pin wrote %s (stat: %v)", path, err)
	}
}

func TestResultPinKeyOnlyWhenLive(t *testing.T) {
	c := doneCall(t, `{"content":[{"type":"text","text":"ok"}]}`, nil)
	calls := []*call{c}
	p := newResultPane(envWith(calls...))
	p.setSize(70, 20)
	p.show(2)
	enabled := func() bool {
		for _, b := range helpOf(p) {
			if strings.Contains(b.Help().Desc, "pin") {
				return b.Enabled()
			}
		}
		t.Fatal("the result pane's help has no pin key")
		return false
	}
	if enabled() {
		t.Errorf("the pin key is offered without a live session")
	}
	p.env.conn.setSession(demoSession(t)) // a live session: the call can be pinned
	if !enabled() {
		t.Errorf("the pin key is not offered for a finished call in a live session")
	}
}

// TestFlowPinScenario pins the session's last two calls as one scenario:
// the calls field takes them both, the review says so, and the saved
// scenario replays green in a fresh session.
func TestFlowPinScenario(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scenario.json")
	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("● connected", "get_report")
	f.keys("g", "j", "enter") // echo
	f.waitFor("EDITING")
	f.keys("ctrl+s")
	f.waitFor("ctrl+s again sends it empty")
	f.keys("ctrl+s")
	f.waitFor("call 1/1 #1 ✓ ok", "echo")
	f.keys("esc", "1", "g", "j", "j", "enter") // get_report
	f.waitFor("EDITING")
	f.keys("ctrl+s")
	f.waitFor("call 2/2 #2 ✓ ok", "get_report")
	f.keys("esc", "3", "P")
	f.waitFor("Pin call #2", "calls", "the 1 call(s) before this one")
	f.keys("tab", "tab", "ctrl+u", path, "tab", "ctrl+u", "3", "enter")
	f.waitFor("calls 3: the session has 2 call(s) up to this one")
	f.keys("ctrl+u", "2", "enter")
	f.waitFor("2 calls of this session, replayed in order", "step 1: tools/call echo", "step 2: tools/call get_report")
	f.keys("enter")
	f.waitFor("✓ pinned " + path)
	fx, err := fixture.Load(path)
	if err != nil {
		t.Fatalf("the pinned scenario does not load: %v", err)
	}
	if len(fx.Steps) != 2 || fx.Steps[0].ToolName() != "echo" || fx.Steps[1].ToolName() != "get_report" {
		t.Fatalf("the scenario's steps: %+v", fx.Steps)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	outs := replay.Run(ctx, []replay.Case{{Path: path, Fixture: fx}}, replay.Options{})
	if o := outs[0]; o.Err != nil || o.Drifted() {
		t.Errorf("the pinned scenario drifted in a fresh session: err %v, report %+v", o.Err, o.Report)
	}
}

// TestFlowWriteIsRedacted: w writes a frame's body as every other output
// is written, through the session's redactor: an echoed token is not in
// the file.
func TestFlowWriteIsRedacted(t *testing.T) {
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789"
	dir := t.TempDir()
	cfg := demoConfig(1)
	cfg.SaveDir = dir
	f := start(t, cfg, 120, 35)
	f.waitFor("● connected", "get_report")
	f.keys("g", "j", "enter") // echo
	f.waitFor(`"text": ""`, "EDITING")
	f.keys("down", "end", "left", token)
	f.keys("ctrl+s")
	f.waitFor("call 1/1 #1 ✓ ok", "echo")
	f.keys("esc", "4", "G", "w")
	// w asks where first: a path in the save directory no file has.
	f.waitFor("Write to a file", "enter writes it to this path", filepath.Join(dir, "jig-frame-"))
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Fatalf("w wrote %v before it was told where", files)
	}
	f.keys("enter")
	f.waitFor("wrote " + dir)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 {
		t.Fatalf("w wrote %v, want one file", files)
	}
	// Again: the next free name is offered, the first file is left alone;
	// esc writes nothing.
	f.keys("w")
	f.waitFor("Write to a file", "-1.json")
	f.keys("esc")
	f.waitFor("nothing written")
	if again, _ := filepath.Glob(filepath.Join(dir, "*")); len(again) != 1 {
		t.Fatalf("esc wrote %v", again)
	}
	b, _ := os.ReadFile(files[0])
	if strings.Contains(string(b), token) || !strings.Contains(string(b), "[REDACTED:") {
		t.Errorf("the written body holds the echoed token, or no placeholder:\n%s", b)
	}
}

// TestFlowPinSaysWhatAReplayNeeds: on server-everything, a call whose
// request holds a token shape no variable re-fills is reviewed with a
// warning that it cannot be replayed as saved, and saved with what to do
// instead, never "replay it with"; a call on a target given a literal
// secret is saved with the replay command that gives it again.
func TestFlowPinSaysWhatAReplayNeeds(t *testing.T) {
	dir := t.TempDir()
	cfg := everything(t)
	cfg.Options.Target.Env = map[string]string{"FOO_TOKEN": "literal123secretvalue"}
	f := start(t, cfg, 120, 35)
	f.waitFor("● connected", "Tools (")
	f.pick("echo")
	f.waitFor(`"message": ""`)
	f.keys("down", "end", "left", "tok xoxb-123456789012-abcdefghijkl", "ctrl+s")
	f.waitFor("call 1/1 #1 ✓ ok", "echo")
	shape := filepath.Join(dir, "shape.json")
	f.keys("esc", "3", "P")
	f.waitFor("Pin call #1")
	f.keys("tab", "tab", "ctrl+u", shape, "enter")
	f.waitFor("Review what will be compared", "⚠ it cannot be replayed as saved", "[REDACTED:slack-token]", "--secret-env NAME")
	f.keys("enter")
	f.waitFor("⚠ pinned ", "but it cannot be replayed as saved")
	if _, err := os.Stat(shape); err != nil {
		t.Fatalf("the fixture was not saved: %v", err)
	}
	f.keys("esc")
	f.waitFor("pinned " + shape)
	if s := f.p.screen(); strings.Contains(s, "replay it with") || strings.Contains(s, "jig replay "+shape) {
		t.Errorf("the status line promises a replay of a fixture replay refuses:\n%s", s)
	}
	fx, err := fixture.Load(shape)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ov := &replay.Override{Target: cfg.Options.Target}
	if outs := replay.Run(ctx, []replay.Case{{Path: shape, Fixture: fx}}, replay.Options{Override: ov}); outs[0].Err == nil {
		t.Errorf("the shape fixture replayed: the warning would be false")
	}

	// The same target, a call with nothing secret in it: the fixture holds
	// FOO_TOKEN redacted, and the advice gives it again.
	plain := filepath.Join(dir, "plain.json")
	f.keys("esc", "2", "enter")
	f.waitFor("EDITING")
	f.keys("ctrl+l", `{"message":"plain"}`, "ctrl+s")
	f.waitFor("call 2/2 #2 ✓ ok")
	f.keys("esc", "3", "P")
	f.waitFor("Pin call #2")
	f.keys("tab", "tab", "ctrl+u", plain, "enter")
	f.waitFor("Review what will be compared", "⚠ a replay needs what the fixture cannot keep")
	f.keys("enter")
	f.waitFor("✓ pinned "+plain, "jig replay "+plain+" --env 'FOO_TOKEN=…'")
	fx, err = fixture.Load(plain)
	if err != nil {
		t.Fatal(err)
	}
	ov = &replay.Override{Target: session.Target{Env: map[string]string{"FOO_TOKEN": "literal123secretvalue"}}}
	if o := replay.Run(ctx, []replay.Case{{Path: plain, Fixture: fx}}, replay.Options{Override: ov})[0]; o.Err != nil || o.Drifted() {
		t.Errorf("the advised replay (FOO_TOKEN given) did not run green: err %v, report %+v", o.Err, o.Report)
	}
}

// A path that names an existing file is refused and the dialog stays open
// for another: w never replaces a file.
func TestWriteNeverReplacesAFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "body.json")
	if err := os.WriteFile(p, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := freePath(dir, "body"); got != filepath.Join(dir, "body-1.json") {
		t.Errorf("freePath offers %s, want body-1.json", got)
	}
	msg, ok := writeFile(p, []byte(`{"x":1}`))().(savedMsg)
	if !ok || msg.err == nil || !msg.keepOpen || !strings.Contains(msg.err.Error(), "exists") {
		t.Errorf("writing over %s gave %+v, want an error that keeps the dialog open", p, msg)
	}
	if b, _ := os.ReadFile(p); string(b) != "mine" {
		t.Errorf("the file was replaced: %q", b)
	}
	q := filepath.Join(dir, "new.json")
	if msg, _ := writeFile(q, []byte(`{"x":1}`))().(savedMsg); msg.err != nil || msg.path != q {
		t.Errorf("writing a new file gave %+v", msg)
	}
}
