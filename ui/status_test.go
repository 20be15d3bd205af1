package ui

import (
	"testing"
	"time"
)

// What the server does on its own (a list_changed re-listing, every few
// seconds on server-everything) does not wipe what the user's own action
// just said (an error in the roots editor, a completion's values): it goes
// to H, and to the status line once the user's line has been there a while,
// or when the line is the server's own notice.
func TestNoticesDoNotWipeWhatTheUserWasJustTold(t *testing.T) {
	m := New(Config{Reader: storyLog(), Title: "story.jsonl"})
	m.setStatus(`roots line 1: "not" is not a URI with a scheme`, true)
	m.setNotice("tools re-listed (list_changed): 16 tools")
	if got := m.status.text; got != `roots line 1: "not" is not a URI with a scheme` {
		t.Errorf("a notice replaced the user's fresh error: the status line is %q", got)
	}
	if n := len(m.status.said); n != 2 || m.status.said[1].text != "tools re-listed (list_changed): 16 tools" {
		t.Errorf("H does not keep the notice after the error: %+v", m.status.said)
	}
	m.setNotice("resources re-listed (list_changed): 7 resources")
	if m.status.isErr != true {
		t.Errorf("a second notice replaced the error: %q", m.status.text)
	}
	m.status.at = time.Now().Add(-noticeHold)
	m.setNotice("prompts re-listed (list_changed): 4 prompts")
	if got := m.status.text; got != "prompts re-listed (list_changed): 4 prompts" {
		t.Errorf("after %s a notice still does not show: %q", noticeHold, got)
	}
	m.setNotice("tools re-listed (list_changed): 16 tools")
	if got := m.status.text; got != "tools re-listed (list_changed): 16 tools" {
		t.Errorf("a notice does not replace the previous notice: %q", got)
	}
	m.setStatus("call #1 echo: ✓ ok", false)
	if got := m.status.text; got != "call #1 echo: ✓ ok" {
		t.Errorf("the user's own action does not replace a notice: %q", got)
	}
}
