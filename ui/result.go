package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
)

// resultPane shows one call's outcome, and steps through the session's calls.
type resultPane struct {
	env  *paneEnv
	st   *styles
	keys resultKeys
	out  *outbox

	cur     int // index into the calls, -1 before the first call
	showRaw bool
	body    textView
	shownID int
	shownAs string

	focused       bool
	width, height int
}

func newResultPane(env *paneEnv) *resultPane {
	return &resultPane{env: env, st: env.st, keys: newResultKeys(), out: env.out, cur: -1, body: textView{red: env.redact}}
}

func (p *resultPane) calls() []*call { return p.env.calls.list }

func (p *resultPane) title() string {
	if n := len(p.calls()); n > 0 {
		return fmt.Sprintf("Result (%d call%s)", n, frames.Plural(n))
	}
	return "Result"
}

func (p *resultPane) current() *call {
	if p.cur < 0 || p.cur >= len(p.calls()) {
		return nil
	}
	return p.calls()[p.cur]
}

// show selects the call with id and draws it.
func (p *resultPane) show(id int) {
	if i := p.env.calls.index(id); i >= 0 {
		p.cur = i
	}
	p.sync()
}

// redraw draws the shown call again (its rendering changed).
func (p *resultPane) redraw() {
	p.shownAs = ""
	p.sync()
}

// sync rebuilds the body when the shown call, its state or the mode changed.
func (p *resultPane) sync() {
	c := p.current()
	as := fmt.Sprint(p.showRaw)
	id := -1
	if c != nil {
		as += fmt.Sprint(c.done, len(c.progress), c.cancelledAt.IsZero(), c.rendered != nil)
		id = c.id
	}
	if id == p.shownID && as == p.shownAs && p.body.doc != nil {
		return
	}
	p.shownID, p.shownAs = id, as
	switch {
	case c == nil:
		var b docBuilder
		b.line(roleMuted, "No call yet. Pick a tool (1), edit its arguments (2) and send them with ctrl+s; or read a resource (5) or get a prompt (6).")
		p.body.setDoc(b.doc())
	case p.showRaw:
		p.body.setDoc(c.rawDoc())
	default:
		p.body.setDoc(c.doc())
	}
}

func (p *resultPane) setFocus(f bool) { p.focused = f }
func (p *resultPane) typing() bool    { return false }

func (p *resultPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.body.setSize(w, max(h-chromeRows(p.head()), 0))
	p.sync()
}

func (p *resultPane) update(msg tea.Msg) tea.Cmd {
	if w, ok := msg.(wheelMsg); ok {
		p.body.scroll(w.dy)
	}
	return nil
}

// step shows the call d places older (-1) or newer (+1).
func (p *resultPane) step(d int) tea.Cmd {
	p.cur += d
	p.sync()
	return p.out.send(selectCallMsg{id: p.current().id})
}

func (p *resultPane) actions() []action {
	k, c := p.keys, p.current()
	n := len(p.calls())
	none := "no call yet"
	as := append(scrollActions(k.scrollKeys, &p.body),
		on(k.Older, func() tea.Cmd { return p.step(-1) }).only(p.cur > 0, "this is the oldest call"),
		on(k.Newer, func() tea.Cmd { return p.step(+1) }).only(p.cur >= 0 && p.cur < n-1, "this is the newest call"),
		on(k.Raw, does(func() { p.showRaw = !p.showRaw; p.sync() })).only(c != nil, none),
	)
	if c == nil {
		for _, b := range []action{on(k.Pin, nil), on(k.EditAgain, nil), on(k.Mark, nil), on(k.Compare, nil), on(k.Attribute, nil), on(k.ShowFrames, nil), on(k.Write, nil)} {
			as = append(as, b.only(false, none))
		}
		return as
	}
	edit := on(k.EditAgain, func() tea.Cmd { return p.out.send(editCallMsg{id: c.id, edit: true}) })
	if c.method == methodReadResource {
		edit = edit.labelled("edit the URI and read again")
	}
	return append(as, p.pinAction(c), edit, p.markAction(c), p.compareAction(c), p.attributeAction(c),
		on(k.ShowFrames, func() tea.Cmd { return p.out.send(showFramesMsg{seq: c.ex.Request.Seq}) }).
			only(c.ex != nil && c.ex.Request != nil, "this call has no frames yet"),
		on(k.Write, func() tea.Cmd {
			return p.out.send(writeMsg{name: fmt.Sprintf("jig-call-%d-%s-response", c.id, c.tool), data: c.ex.Response.Raw})
		}).only(c.ex != nil && c.ex.Response != nil, "this call has no response to write"),
	)
}

func (p *resultPane) pinAction(c *call) action {
	// A read or a prompt pins like a tool call (the dialog's scenarios
	// take all three): replay sends the same request and compares.
	return on(p.keys.Pin, func() tea.Cmd { return p.out.send(pinCallMsg{id: c.id}) }).
		only(p.env.conn.session() != nil, "not connected: pinning needs the live session (r retries connecting)").
		only(c.done, "this call has no response yet: pin it when it has one").
		only(c.pinnable(), fmt.Sprintf("call #%d failed before a response came back: there is nothing to pin", c.id))
}

func (p *resultPane) markAction(c *call) action {
	return on(p.keys.Mark, func() tea.Cmd { return p.out.send(markMsg{ref: callRef{id: c.id, frame: -1}}) }).
		only(c.isTool(), "marking and comparing work on tools/call; this is "+c.method).
		only(c.done && c.ex != nil, fmt.Sprintf("call #%d has no response yet", c.id))
}

func (p *resultPane) compareAction(c *call) action {
	return on(p.keys.Compare, func() tea.Cmd { return p.out.send(compareMsg{ref: callRef{id: c.id, frame: -1}}) }).
		only(c.isTool(), "marking and comparing work on tools/call; this is "+c.method).
		only(c.done && c.ex != nil, fmt.Sprintf("call #%d has no response yet", c.id)).
		only(p.env.calls.mark != nil, "mark a call first (m), then compare another with it (c)")
}

func (p *resultPane) attributeAction(c *call) action {
	return on(p.keys.Attribute, func() tea.Cmd { return p.out.send(attributeMsg{ref: callRef{id: c.id, frame: -1}}) }).
		only(c.isTool(), "attribution works on tools/call; this is "+c.method).
		only(c.done && c.ex != nil, fmt.Sprintf("call #%d has no response yet", c.id)).
		only(p.env.calls.mark != nil, "mark a call first (m), then press a on another call of the same tool").
		only(p.env.conn.session() != nil, "not connected: attribution needs the live session (r retries connecting)")
}

func (p *resultPane) view() string { return p.head() + "\n" + p.body.view(p.st) }

// head is the line over the result: which call, and how it came out.
func (p *resultPane) head() string {
	c := p.current()
	var head string
	if c == nil {
		head = p.st.muted.Render("no calls yet")
	} else {
		state := p.st.muted.Render("sending…")
		if c.done {
			state = c.badge(p.st)
		}
		if p.showRaw {
			state += p.st.muted.Render(" · raw")
		}
		// The outcome before the title: a long URI or tool name is what
		// gets cut, never whether the call worked.
		num := p.st.label.Render(fmt.Sprintf("call %d/%d #%d", p.cur+1, len(p.calls()), c.id))
		room := max(p.width-ansi.StringWidth(num)-ansi.StringWidth(state)-2, 0)
		head = num + " " + state + " " + p.st.label.Render(ansi.Truncate(p.env.redact.String(c.title()), room, "…"))
	}
	return ansi.Truncate(head, p.width, "…")
}

// scrollActions scroll a text view with the scroll keys.
func scrollActions(k scrollKeys, v *textView) []action {
	return []action{
		on(k.Up, does(func() { v.scroll(-1) })),
		on(k.Down, does(func() { v.scroll(1) })),
		on(k.PageUp, does(func() { v.scroll(-max(v.height-1, 1)) })),
		on(k.PageDown, does(func() { v.scroll(max(v.height-1, 1)) })),
		on(k.Home, does(v.home)),
		on(k.End, does(v.end)),
	}
}
