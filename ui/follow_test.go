package ui

import (
	"fmt"
	"testing"
)

// The frames pane follows the call that is open: during a long call its
// progress shows as it arrives, not when the call finishes, even after an
// earlier call's frames were selected (which stopped the following for
// good); after ctrl+x it shows the cancellation and the progress that
// comes after it, not the previous call's response; so does the result
// pane, which says the progress came after the cancel.
func TestFlowFramesFollowTheOpenCall(t *testing.T) {
	cfg := everything(t)
	f := start(t, cfg, 160, 40)
	// A first call: when it comes back, its response is selected.
	f.pick("echo")
	f.keys("down", "end", "left", "hello", "ctrl+s")
	f.waitFor("Echo: hello", "call 1/1")
	for n := 2; n <= 8; n++ { // more calls, so the frames list has to scroll to follow
		f.keys("ctrl+s")
		f.waitFor(fmt.Sprintf("call %d/%d", n, n))
	}
	f.keys("esc", "1", "esc")
	f.pick("trigger-long-running-operation")
	f.keys("alt+o", "backspace", "backspace", "3", "alt+o", "backspace", "6")
	f.keys("ctrl+t", "ctrl+s")
	f.waitFor("progress 3/6 token=", "following")
	f.keys("ctrl+x")
	f.waitFor("⊘ CANCELLED", "cancelled requestId=")
	f.waitFor("progress 5/6 token=")
	// The result pane follows it too: server-everything ignores the
	// cancel and works to the end, and that is evidence worth showing.
	f.waitFor("progress 6/6 [██████████] 100%", "after the cancel: the server kept working")
}

// The last notifications/progress of a call can reach jig after its
// response did (the SDK hands progress over on its own goroutine): the
// result still counts it.
func TestFlowLastProgressOfAFinishedCall(t *testing.T) {
	f := start(t, everything(t), 160, 40)
	f.pick("trigger-long-running-operation")
	f.keys("alt+o", "backspace", "backspace", "1", "alt+o", "backspace", "4")
	f.keys("ctrl+t", "ctrl+s")
	f.waitFor("✓ ok", "progress 4/4 [██████████] 100% · 4 notifications")
}
