package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
)

// An overlay is a box over the panes that has the keyboard while it is
// open: the help, the server's info, and the dialogs (answer the server,
// pin a call, compare two calls, set the log level). The root holds at most
// one; like a pane it offers actions and takes everything else in update.
type overlay interface {
	title() string
	actions() []action
	update(msg tea.Msg) tea.Cmd // typed text, a paste, a wheelMsg, replies
	view() string
	setSize(w, h int)
	typing() bool
}

// closeOverlayMsg asks to close the open overlay.
type closeOverlayMsg struct{}

func (closeOverlayMsg) route(m *Model) tea.Cmd {
	m.overlay = nil
	return nil
}

// A textOverlay is a text to read and scroll: the help (lines bubbles/help
// already styled) or the server's info (a doc, wrapped to the width).
// content builds it for a width, again whenever the size changes.
type textOverlay struct {
	st      *styles
	name    string
	keys    overlayKeys
	out     *outbox
	content func(width int) (d *doc, styled []string)

	body  textView // when the content is a doc
	lines []string // when it is styled lines
	top   int
	w, h  int
}

func newTextOverlay(st *styles, name string, out *outbox, red *frames.Redactor, content func(width int) (*doc, []string)) *textOverlay {
	return &textOverlay{st: st, name: name, keys: newOverlayKeys(), out: out, content: content, body: textView{red: red}}
}

func (o *textOverlay) title() string { return o.name }
func (o *textOverlay) typing() bool  { return false }

func (o *textOverlay) setSize(w, h int) {
	o.w, o.h = w, h
	d, lines := o.content(w)
	o.lines = lines
	o.body.setSize(w, h)
	if d != nil {
		o.body.keepDoc(d)
	}
	o.scroll(0)
}

// scroll moves by n rows, within the text.
func (o *textOverlay) scroll(n int) {
	if o.lines == nil {
		o.body.scroll(n)
		return
	}
	o.top = max(min(o.top+n, len(o.lines)-o.h), 0)
}

func (o *textOverlay) actions() []action {
	k := o.keys
	page := max(o.h-1, 1)
	return []action{
		on(k.Close, func() tea.Cmd { return o.out.send(closeOverlayMsg{}) }),
		on(k.Down, does(func() { o.scroll(1) })),
		on(k.Up, does(func() { o.scroll(-1) })),
		on(k.PageDown, does(func() { o.scroll(page) })),
		on(k.PageUp, does(func() { o.scroll(-page) })),
		on(k.Home, does(func() { o.scroll(-1 << 30) })),
		on(k.End, does(func() { o.scroll(1 << 30) })),
	}
}

func (o *textOverlay) update(msg tea.Msg) tea.Cmd {
	if w, ok := msg.(wheelMsg); ok {
		o.scroll(w.dy)
	}
	return nil
}

func (o *textOverlay) view() string {
	if o.lines == nil {
		return o.body.view(o.st)
	}
	end := min(o.top+o.h, len(o.lines))
	return strings.Join(o.lines[min(o.top, end):end], "\n")
}
