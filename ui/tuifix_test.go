package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/peers"
)

// TestFlowUntimedTranscriptShowsNoTimes: a transcript that gave no times
// shows none, neither offsets nor latencies: 0s would read like a measured
// one.
func TestFlowUntimedTranscriptShowsNoTimes(t *testing.T) {
	fl := start(t, seedTranscript(t, nil), 120, 35)
	fl.waitFor("a record, not a reproduction", "4 frames")
	fl.keys("G")
	fl.waitFor("─ #4 ← result tools/call")
	s := fl.p.screen()
	for _, bad := range []string{"0s after #3", "+0.000s", " 0s\n"} {
		if strings.Contains(s, bad) {
			t.Errorf("an untimed transcript shows %q:\n%s", bad, s)
		}
	}
	fl.keys("T")
	fl.waitFor("timeline · 2 requests")
	if s := fl.p.screen(); strings.Contains(s, " 0s ✓") {
		t.Errorf("the timeline shows a latency the transcript never had:\n%s", s)
	}
}

// TestFinishedCallWithoutProgressSaysNoneWasSent: after the result, "none
// yet" would promise progress that can no longer come.
func TestFinishedCallWithoutProgressSaysNoneWasSent(t *testing.T) {
	c := doneCall(t, `{"content":[{"type":"text","text":"ok"}]}`, nil)
	c.withProgress = true
	c.rendered = nil
	p := newResultPane(envWith(c))
	p.setSize(100, 30)
	p.show(2)
	s := screen(p.view())
	if strings.Contains(s, "none yet") || !strings.Contains(s, "no progress was sent") {
		t.Errorf("a finished call without progress:\n%s", s)
	}
}

// TestFlowRecordedCancelShowsInTimeline: a recording whose call was
// cancelled (its notifications/cancelled recorded) shows the call cancelled,
// with the cancel's frame, in the timeline, the frames and the rendered
// call, as jig open --text says it.
func TestFlowRecordedCancelShowsInTimeline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cancel.jsonl")
	target := session.Target{Transport: session.TransportStdio, Command: peers.Node(t, peers.Everything, "stdio")}
	tw, err := frames.CreateTranscript(path, frames.Header{Jig: session.Version, Started: time.Now(), Target: target.JSON(), Mode: "session"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	log := frames.NewLog(nil)
	log.AddSink(tw)
	ctx, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	s, err := session.Open(ctx, session.Options{Target: target, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	progressed := make(chan struct{}, 16)
	go func() { <-progressed; cancel(session.ErrCancelled) }()
	_, err = s.CallToolWith(cctx, "trigger-long-running-operation", json.RawMessage(`{"duration":5,"steps":5}`),
		session.CallOptions{OnProgress: func(session.Progress) { progressed <- struct{}{} }})
	var ce *session.CancelledError
	if !errors.As(err, &ce) {
		t.Fatalf("the call was not cancelled: %v", err)
	}
	s.Close()
	tw.Close()
	x, err := frames.OpenIndexed(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	req, note := -1, -1
	for i := 0; i < x.Len(); i++ {
		switch f := x.Frame(i); {
		case f.Method == "tools/call" && f.Kind == frames.KindRequest:
			req = i
		case f.Method == "notifications/cancelled":
			note = i
		}
	}
	if req < 0 || note < 0 {
		t.Fatalf("the recording has no tools/call (%d) or no notifications/cancelled (%d)", req, note)
	}
	want := fmt.Sprintf("cancelled by #%d", x.Frame(note).Seq)
	if got := frames.Summary(x, req, x.Frame(0).Time); !strings.Contains(got, want) {
		t.Errorf("jig open --text's line is %q, want %q", got, want)
	}
	fl := start(t, openConfig(x, 0), 120, 35)
	fl.waitFor("frames")
	fl.keys("T")
	fl.waitFor("timeline ·", "trigger-long-running-operation", "⊘ "+want)
	if strings.Contains(fl.p.screen(), "… no response") {
		t.Errorf("the timeline still says no response:\n%s", fl.p.screen())
	}
	fl.keys("enter")
	fl.waitFor(want+" ", "⊘ "+want+" (notifications/cancelled)")
}

// TestToolDetailShowsTheHintsTheServerSent: server-everything's echo is
// read-only and idempotent; the details say what it sent, and separately
// that the spec gives idempotent no meaning for a read-only tool; the tool
// list says the same in the same words: read-only (or ro), never "ro idem".
func TestToolDetailShowsTheHintsTheServerSent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := session.Open(ctx, session.Options{Target: session.Target{Transport: session.TransportStdio, Command: peers.Node(t, peers.Everything, "stdio")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	raw, _, err := s.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var echo json.RawMessage
	for _, r := range raw {
		if strings.Contains(string(r), `"name":"echo"`) {
			echo = r
		}
	}
	if !strings.Contains(string(echo), `"idempotentHint":true`) || !strings.Contains(string(echo), `"readOnlyHint":true`) {
		t.Fatalf("server-everything's echo is not listed read-only and idempotent: %s", echo)
	}
	ti := toolNamed(t, raw, "echo")
	var b docBuilder
	writeToolDetail(&b, &ti, 200)
	s2 := string(b.doc().data)
	for _, want := range []string{"read-only yes", "idempotent yes", "idempotent meaning only when a tool is not read-only"} {
		if !strings.Contains(s2, want) {
			t.Errorf("echo's details lack %q:\n%s", want, s2)
		}
	}
	if strings.Contains(s2, "n/a") {
		t.Errorf("echo's details hide what the server sent:\n%s", s2)
	}
	if long, short := badges(ti.Annotations, false), badges(ti.Annotations, true); long != "read-only" || short != "ro" {
		t.Errorf("echo's badges are %q and %q, want read-only and ro: idempotent means nothing on a read-only tool", long, short)
	}
}

// TestFlowFooterWhileTypingShowsOnlyKeysThatWork: in the argument editor q
// types a q, so the footer does not offer q quit; the help is f1 there, and
// the help lists q under "Not now".
func TestFlowFooterWhileTypingShowsOnlyKeysThatWork(t *testing.T) {
	// 50 rows: the help's end still shows the keys that work (f1) above
	// the ones that do not.
	f := start(t, demoConfig(1), 120, 50)
	f.waitFor("● connected", "search_orders")
	f.keys("G", "enter")
	f.waitFor(`"customer": ""`, "EDITING")
	footer := func() string {
		lines := strings.Split(strings.TrimRight(f.p.screen(), "\n"), "\n")
		return lines[len(lines)-1]
	}
	if l := footer(); strings.Contains(l, "q quit") || strings.Contains(l, "? all keys") || !strings.Contains(l, "f1 all keys") {
		t.Errorf("while typing, the footer is %q", l)
	}
	f.tm.Send(tea.KeyPressMsg{Code: tea.KeyF1})
	f.waitFor("Arguments keys", "ctrl+l    clear the arguments")
	f.keys("G")
	f.waitFor("Not now, and why", "a text field has the keyboard: q types into it", "f1        all keys")
	f.keys("esc", "esc")
	f.waitFor("q quit", "? all keys")
}

// TestFlowReproducingATranscriptCallIsNotDrift: a transcript's call
// reproduced against the demo server is compared with the client's
// rendering, not a wire answer: the comparison says so, calls nothing
// drift, and does not flag structuredContent, which a rendering never has.
func TestFlowReproducingATranscriptCallIsNotDrift(t *testing.T) {
	fl := start(t, seedTranscript(t, &session.Options{Target: session.Target{Transport: session.TransportDemo, Release: 1}}), 120, 35)
	fl.waitFor("a record, not a reproduction", "4 frames")
	fl.keys("g", "n")
	fl.waitFor("▶ #3")
	fl.keys("r")
	fl.waitFor("EDITING")
	fl.keys("ctrl+s")
	fl.waitFor("Compare recorded #3", "A is a transcript's rendering by a client", "recorded wire answer",
		"only in B, as the client's rendering leaves it out (not compared): result.structuredContent")
	s := fl.p.screen()
	for _, bad := range []string{"so what differs is drift", "drift worth a look", "+ only in B: result.structuredContent"} {
		if strings.Contains(s, bad) {
			t.Errorf("the comparison says %q:\n%s", bad, s)
		}
	}
}

// TestFlowEmptyEditorHintFits: the argument editor's empty-state hint fits
// its pane at 120 columns instead of being cut off.
func TestFlowEmptyEditorHintFits(t *testing.T) {
	f := start(t, demoConfig(1), 120, 35)
	f.waitFor("● connected", "search_orders", "pick a tool: 1, then enter")
}
