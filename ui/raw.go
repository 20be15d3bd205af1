package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// The raw frame composer (X) is what no typed call can say: any JSON-RPC
// message, an unknown method, a notification, params of the wrong shape,
// or bytes that are not JSON at all, written on the live session exactly as
// typed (jig send --raw in the CLI). Its frames and the server's answer, or
// its silence, or its exit, land in the frames pane like any other.

// rawWait is how long jig waits for the server's answer to a raw message.
const rawWait = 10 * time.Second

// rawComposer is the overlay the message is typed in. It keeps its text
// between openings, so a message can be sent again with one change.
type rawComposer struct {
	st       *styles
	out      *outbox
	keys     rawKeys
	edit     *textEdit
	n        int    // raw requests sent: the next suggested id is raw-(n+1)
	template string // what the composer suggested; replaced by the next when sent unchanged
	width    int
	height   int
}

func newRawComposer(st *styles, out *outbox) *rawComposer {
	c := &rawComposer{st: st, out: out, keys: newRawKeys(), edit: newTextEdit(st, false)}
	c.edit.numbers = true
	c.suggest()
	return c
}

// suggest fills in a request with the next string id, which none of jig's
// own requests can have.
func (c *rawComposer) suggest() {
	c.template = fmt.Sprintf(`{"jsonrpc": "2.0", "id": %q, "method": "ping"}`, session.RawID(c.n+1))
	c.edit.setValue(c.template)
	c.edit.cursorEnd()
}

func (c *rawComposer) title() string { return "Raw JSON-RPC message (sent exactly as typed)" }
func (c *rawComposer) typing() bool  { return true }

func (c *rawComposer) about() string {
	return c.st.muted.Render("Any bytes: an unknown method, a notification (no id), malformed params, text that is not JSON.\n" +
		"Over stdio a message is one line: one typed over several is sent compacted. A string id is never one of jig's own.")
}

func (c *rawComposer) setSize(w, h int) {
	c.width, c.height = w, h
	c.edit.setSize(w, max(h-lipgloss.Height(c.about())-1, 1))
}

func (c *rawComposer) update(msg tea.Msg) tea.Cmd {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		c.edit.update(msg)
	}
	return nil
}

func (c *rawComposer) actions() []action {
	k := c.keys
	as := []action{
		on(k.Send, func() tea.Cmd {
			text := c.edit.value()
			return c.out.send(sendRawMsg{text: text, suggested: text == c.template})
		}).only(strings.TrimSpace(c.edit.value()) != "", "the message is empty: type a JSON-RPC message, or any bytes to send"),
		on(k.Suggest, does(c.suggest)),
		on(k.Close, func() tea.Cmd { return c.out.send(closeOverlayMsg{}) }),
	}
	return append(as, fieldActions(c.edit, func(k tea.KeyPressMsg) tea.Cmd { c.edit.update(k); return nil })...)
}

func (c *rawComposer) view() string {
	c.edit.focus()
	return c.about() + "\n\n" + c.edit.view()
}

// sent moves the suggestion on after a suggested request went out.
func (c *rawComposer) sent(suggested bool) {
	c.n++
	if suggested {
		c.suggest()
	}
}

// openRaw opens the composer, with the text it had.
func (m *Model) openRaw() {
	c := m.conn()
	if c.raw == nil {
		c.raw = newRawComposer(m.st(), m.env.out)
	}
	m.openOverlay(c.raw)
}

// sendRaw writes the composer's message on the session.
func (m *Model) sendRaw(msg sendRawMsg) tea.Cmd {
	s := m.session()
	if s == nil {
		m.setStatus("not connected: there is no session to send a raw message on", true)
		return nil
	}
	m.overlay = nil
	m.setStatus(fmt.Sprintf("raw message sent: waiting up to %s for the server (X composes another)", rawWait), false)
	return sendRaw(m.ctx, s, msg)
}

// rawDone says what the server did with the raw message, and shows its
// answer (or the message itself) in the frames pane.
func (m *Model) rawDone(msg rawDoneMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus("raw message not sent: "+msg.err.Error(), true)
		return nil
	}
	res := msg.res
	if msg.suggested || res.Sent != nil && res.Sent.Kind == frames.KindRequest {
		m.conn().raw.sent(msg.suggested)
	}
	switch {
	case res.Answer != nil:
		what := "answered"
		if res.Answer.Kind == frames.KindError {
			what = "answered with an error"
		}
		m.setStatus(fmt.Sprintf("raw #%d %s in #%d (shown in 4 Frames)", res.Sent.Seq, what, res.Answer.Seq), res.Answer.Kind == frames.KindError)
		return m.showFrames(showFramesMsg{seq: res.Answer.Seq})
	case res.Sent == nil:
		m.setStatus("raw message: "+res.Ended, true)
		return nil
	}
	m.setStatus(fmt.Sprintf("raw #%d: %s", res.Sent.Seq, res.Ended), strings.HasPrefix(res.Ended, "the server exited"))
	return m.showFrames(showFramesMsg{seq: res.Sent.Seq})
}
