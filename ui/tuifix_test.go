package ui

import (
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/importer"
)

// TestFlowUntimedTranscriptShowsNoTimes: a transcript that gave no times
// shows none, neither offsets nor latencies: 0s would read like a measured
// one.
func TestFlowUntimedTranscriptShowsNoTimes(t *testing.T) {
	f, err := importer.Open("../frames/importer/testdata/seed.json")
	if err != nil {
		t.Fatal(err)
	}
	fl := start(t, Config{Reader: f.Reader, Title: "seed.json", Record: f.Record()}, 120, 35)
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
