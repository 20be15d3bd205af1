package ui

import (
	"testing"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
)

// jigsArguments is text pasted into the argument editor that JSON allows
// and that must reach the server as typed: a tab between tokens, and inside
// a string DEL, a C1 control (U+0085) and U+FFFD (JSON forbids only
// U+0000–U+001F unescaped). A reproduction of a bad call is often exactly
// such bytes.
const jigsArguments = "{\"text\":\t\"del \u007f, next-line \u0085, replacement \ufffd\"}"

// TestTextEditKeepsWhatTextareaDrops is why the argument editor is jig's own
// textEdit and not bubbles/textarea: textarea runs every insert through a
// sanitizer it does not let a caller turn off (bubbles v2.2.1, internal
// runeutil), which drops DEL, C1 controls and U+FFFD and turns tabs into
// spaces, so arguments would not be sent as typed. If this test's textarea
// half fails, textarea keeps input as it is now: switch to it.
func TestTextEditKeepsWhatTextareaDrops(t *testing.T) {
	ed := newTextEdit(newStyles(true), false)
	ed.focus()
	ed.update(tea.PasteMsg{Content: jigsArguments})
	if got := ed.value(); got != jigsArguments {
		t.Errorf("textEdit keeps %q, want exactly the pasted %q", got, jigsArguments)
	}

	ta := textarea.New()
	ta.CharLimit, ta.MaxHeight = 0, 0
	ta.Focus()
	ta.InsertString(jigsArguments)
	if got := ta.Value(); got == jigsArguments {
		t.Errorf("bubbles/textarea now keeps the pasted text as it is (%q): the reason for textEdit is gone, use textarea", got)
	}
}
