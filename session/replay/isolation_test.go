package replay

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/peers"
)

// server-sequential-thinking keeps a thought history per process: eight
// fixtures, each pinned in a fresh session, replay green only if each gets a
// fresh session too (one shared session drifted in 5 of 8, every run).
func TestStatefulServerReplaysGreenInFreshSessions(t *testing.T) {
	target := session.Target{Transport: session.TransportStdio, Command: []string{"node", peers.Path(t, peers.ThinkingOld)}}
	dir := t.TempDir()
	for i := 1; i <= 8; i++ {
		s := openSession(t, target)
		args := fmt.Sprintf(`{"thought":"step %d","thoughtNumber":%d,"totalThoughts":8,"nextThoughtNeeded":%v}`, i, i, i < 8)
		pin(t, s, target, dir, fmt.Sprintf("think-%d", i), "sequentialthinking", args)
		s.Close()
	}
	for run := 0; run < 2; run++ {
		outs := Run(testCtx(t), load(t, dir), Options{Parallel: 3})
		for _, o := range outs {
			if o.Err != nil || o.Drifted() {
				t.Errorf("run %d: %s drifted in a fresh session (err %v):\n%s", run, o.Path, o.Err, text(t, []Outcome{o}))
			}
		}
	}
	// Sharing one session is the opt-in, and on this server it is wrong:
	// the negative test that the isolation is what makes it green.
	outs := Run(testCtx(t), load(t, dir), Options{Reuse: true, InFlight: 1})
	drifted := 0
	for _, o := range outs {
		if o.Err == nil && o.Drifted() {
			drifted++
		}
	}
	if drifted == 0 {
		t.Errorf("with one shared session no fixture drifted: the test no longer shows that isolation matters")
	}
}

// The fixture records how the session was opened — capabilities, roots —
// and replay opens it the same way, wherever it runs from.
func TestSessionIsOpenedAsPinned(t *testing.T) {
	root := t.TempDir()
	r, err := session.RootOf(root)
	if err != nil {
		t.Fatal(err)
	}
	target := serverEverything(t)
	s, err := session.Open(testCtx(t), session.Options{Target: target, Capabilities: []string{"roots"}, Roots: []session.Root{r}, Grace: 200 * time.Millisecond, Log: frames.NewLog(nil)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	dir := t.TempDir()
	path := pin(t, s, target, dir, "roots", "get-roots-list", `{}`)
	f := load(t, path)[0].Fixture
	if f.Session == nil || strings.Join(f.Session.Capabilities, ",") != "roots" || len(f.Session.Roots) != 1 || f.Session.Roots[0] != r.URI {
		t.Fatalf("the fixture's session = %+v, want capabilities [roots] and root %s", f.Session, r.URI)
	}
	if !strings.Contains(string(f.Response.Result), r.URI) {
		t.Fatalf("get-roots-list did not list the root: %s", f.Response.Result)
	}
	// From another working directory, with the command line's default
	// capabilities: still the pinned ones.
	wd, _ := os.Getwd()
	os.Chdir(t.TempDir())
	defer os.Chdir(wd)
	outs := Run(testCtx(t), load(t, path), Options{Capabilities: []string{"roots", "sampling", "elicitation"}})
	if o := outs[0]; o.Err != nil || o.Drifted() {
		t.Errorf("replayed from another directory: err %v\n%s", o.Err, text(t, outs))
	}
	if got := outs[0].Info.Roots; len(got) != 1 || got[0] != r.URI {
		t.Errorf("replay declared roots %v, want the pinned %s", got, r.URI)
	}
}

// A target on the command line replaces only what it names: a new command
// keeps each fixture's environment, and the notes say so.
func TestOverrideKeepsWhatItDoesNotName(t *testing.T) {
	pinned := stdioDemo(t, 1) // the test binary, told by its env to be the demo server
	dir := t.TempDir()
	pin(t, openSession(t, pinned), pinned, dir, "echo", "echo", `{"text":"hi"}`)
	exe, _ := os.Executable()
	ov := &Override{Target: session.Target{Transport: session.TransportStdio, Command: []string{exe, "-test.run=^$"}}}
	cases := load(t, dir)
	notes := OverrideNotes(cases, ov)
	if len(notes) != 1 || !strings.Contains(notes[0], "command `"+exe+"` → `"+exe+" -test.run=^$`") ||
		!strings.Contains(notes[0], "kept from the fixture: env JIG_TEST_RELEASE, JIG_TEST_SERVER") {
		t.Errorf("override notes = %q", notes)
	}
	outs := Run(testCtx(t), cases, Options{Override: ov})
	if o := outs[0]; o.Err != nil || o.Drifted() {
		t.Errorf("a new command with the fixture's env: err %v\n%s", o.Err, text(t, outs))
	}
	// Without the env (the old behaviour) the binary would run its tests,
	// not serve: the env is what made it work.
	ov.Target.Env = map[string]string{"JIG_TEST_SERVER": ""}
	if notes := OverrideNotes(cases, ov); !strings.Contains(notes[0], "env JIG_TEST_SERVER replaced") {
		t.Errorf("an --env that replaces a fixture's value must say so: %q", notes)
	}
}

// A scenario: a step's volatile value (get_report's request_id) is
// captured and sent by a later step; replay re-fills it with the new one
// and expects it in the later response.
func TestScenarioCapturesReplayGreen(t *testing.T) {
	target := session.Target{Transport: session.TransportDemo, Release: 1}
	s := openSession(t, target)
	ctx := testCtx(t)
	first, err := s.CallTool(ctx, "get_report", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		StructuredContent struct {
			RequestID string `json:"request_id"`
		} `json:"structuredContent"`
	}
	json.Unmarshal(first.Result, &rep)
	second, err := s.CallTool(ctx, "echo", json.RawMessage(`{"text":"report `+rep.StructuredContent.RequestID+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	f, err := PinScenario(ctx, s, []*session.Exchange{first, second}, PinOptions{Scenario: "report-then-echo", Target: target, Probe: 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Steps) != 2 || len(f.Steps[0].Captures) == 0 || len(f.Steps[1].Uses) != 1 {
		t.Fatalf("the scenario does not carry request_id from step 1 to step 2: %+v", f.Steps)
	}
	path := filepath.Join(t.TempDir(), "scenario.json")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	for run := 0; run < 3; run++ {
		outs := Run(testCtx(t), load(t, path), Options{})
		if o := outs[0]; o.Err != nil || o.Drifted() || len(o.Report.Steps) != 2 {
			t.Fatalf("run %d of the scenario: err %v, %d steps\n%s", run, o.Err, len(o.Report.Steps), text(t, outs))
		}
		if strings.Contains(string(outs[0].Report.Steps[1].Request), rep.StructuredContent.RequestID) {
			t.Errorf("step 2 re-sent the pinned request_id instead of the new one: %s", outs[0].Report.Steps[1].Request)
		}
	}
	// Without its UUID rule, step 2 is green through the capture alone:
	// the new id is expected where the pinned one was...
	c := load(t, path)
	c[0].Fixture.Steps[1].Rules = nil
	if o := Run(testCtx(t), c, Options{})[0]; o.Err != nil || o.Drifted() {
		t.Errorf("the capture alone must make the echo of the new id green (err %v)\n%s", o.Err, text(t, []Outcome{o}))
	}
	// ...and with the use gone too, the old id is sent, echoed, and drifts.
	c[0].Fixture.Steps[1].Uses = nil
	if o := Run(testCtx(t), c, Options{})[0]; o.Err != nil || !o.Drifted() {
		t.Errorf("without the use the echo of the old id must drift (err %v)", o.Err)
	}
}

// A redacted argument with no variable behind it is never sent.
func TestRedactedArgumentIsNeverSent(t *testing.T) {
	target := session.Target{Transport: session.TransportDemo, Release: 1}
	dir := t.TempDir()
	path := pin(t, openSession(t, target), target, dir, "echo", "echo", `{"text":"hi"}`)
	c := load(t, path)
	c[0].Fixture.Request.Params = json.RawMessage(`{"name":"echo","arguments":{"text":"Bearer [REDACTED:bearer]"}}`)
	outs := Run(testCtx(t), c, Options{})
	var fe *fixture.FileError
	if !errors.As(outs[0].Err, &fe) || !strings.Contains(fe.Error(), "echo.json: request.params.arguments.text holds [REDACTED:bearer]") {
		t.Errorf("err = %v, want a FileError naming the file, the field and the fix", outs[0].Err)
	}
	c[0].Fixture.Request.Params = json.RawMessage(`{"name":"echo","arguments":{"text":"[REDACTED:$JIG_TEST_ECHO]"}}`)
	t.Setenv("JIG_TEST_ECHO", "hi")
	if o := Run(testCtx(t), c, Options{})[0]; o.Err != nil || o.Drifted() {
		t.Errorf("a reference to a set variable must be re-filled and replay green: err %v\n%s", o.Err, text(t, []Outcome{o}))
	}
}

// replay --record records every session it opens.
func TestRecordEverySession(t *testing.T) {
	target := session.Target{Transport: session.TransportDemo, Release: 1}
	dir := t.TempDir()
	s := openSession(t, target)
	pin(t, s, target, dir, "a", "echo", `{"text":"a"}`)
	pin(t, s, target, dir, "b", "echo", `{"text":"b"}`)
	var names []string
	outs := Run(testCtx(t), load(t, dir), Options{Record: func(name string, so session.Options) (func(), error) {
		names = append(names, name)
		n := 0
		return func() {
			n = so.Log.Len()
			if n == 0 {
				t.Errorf("the session for %s recorded no frames", name)
			}
		}, nil
	}, Parallel: 1})
	if len(outs) != 2 || strings.Join(names, ",") != "a,b" {
		t.Errorf("recorded sessions %v, want one per fixture (a, b)", names)
	}
}
