package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The app-wide keys, and how a key press finds its action: the open
// overlay's actions, or the app's keys around the focused pane's. While a
// text field has the keyboard, a key that types text goes to it, whatever
// an action would make of it; the other keys (ctrl+…, f1, tab, esc, enter)
// are still actions.

// key handles a key press.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	m.status.statusLine = statusLine{}
	actions, typing, target := m.keyTarget()
	cmd, whyNot := pressKey(actions, typing, target, k)
	if whyNot != "" {
		m.setStatus(whyNot, true)
	}
	return cmd
}

// pressKey is how a key press finds its work, for the root and for tests
// that drive one pane: text to the field while typing, else the action the
// key matches (or why it does nothing now), else update.
func pressKey(actions []action, typing bool, update func(tea.Msg) tea.Cmd, k tea.KeyPressMsg) (cmd tea.Cmd, whyNot string) {
	if typing && k.Text != "" {
		return update(k), ""
	}
	if a, ok := matchAction(actions, k); ok {
		if !a.available() {
			return nil, fmt.Sprintf("%s: %s", a.Help().Key, a.whyNot)
		}
		return a.do(k), ""
	}
	return update(k), ""
}

// keyTarget is where keys go now: the actions to match, whether a text
// field takes typed text, and what takes the keys no action has.
func (m *Model) keyTarget() ([]action, bool, func(tea.Msg) tea.Cmd) {
	if m.overlay != nil {
		o := m.overlay
		return whileTyping(append([]action{on(m.keys.ForceQuit, m.quit)}, o.actions()...), o.typing()), o.typing(), o.update
	}
	p := m.panes[m.focus]
	own := p.actions()
	if m.conn().failed() && m.focus != paneFrames {
		own = m.conn().failureActions()
	}
	as := append(m.firstActions(), own...)
	return whileTyping(append(as, m.lastActions()...), p.typing()), p.typing(), p.update
}

// firstActions come before the pane's: keys no pane may take.
func (m *Model) firstActions() []action {
	k := m.keys
	open := m.calls().openID(m.result().current())
	first := []action{
		on(k.ForceQuit, m.quit),
		on(k.CancelCall, func() tea.Cmd { return m.cancelCall(cancelCallMsg{id: open}) }).
			only(open != 0, "no call is waiting for its response: there is nothing to cancel"),
		on(k.Answer, m.openAsk).only(len(m.asks.queue) > 0, "the server is not waiting for an answer"),
		on(k.Help, does(m.openHelp)),
		on(k.Next, func() tea.Cmd { return m.cycle(+1) }),
		on(k.Prev, func() tea.Cmd { return m.cycle(-1) }),
	}
	if m.down() && !m.conn().readOnly {
		// The header says "r reconnects": so it does, whatever pane has
		// the keys (the frames pane's r, reproduce, needs a live server).
		first = append(first, on(k.Retry, m.retry))
	}
	return first
}

// lastActions come after the pane's: single letters a pane may use for
// itself (r reproduces in the frames pane; retry is r when not connected).
func (m *Model) lastActions() []action {
	k := m.keys
	s := m.session()
	as := []action{on(k.Quit, m.quit)}
	for id := range m.panes {
		as = append(as, m.focusAction(paneID(id)))
	}
	as = append(as,
		on(k.Info, does(m.openInfo)).only(m.infoAvailable(), "not connected yet: there is no server info to show"),
		on(k.Stats, does(m.openStats)),
		on(k.Said, does(m.openSaid)),
		on(k.Auth, does(m.openAuth)).only(m.auth.seen > 0, "the server has not asked for OAuth in this session"),
		on(k.Retry, m.retry).only(m.down(), "the session is not down: there is nothing to retry"),
		on(k.Relist, func() tea.Cmd { return m.relist(paneTools, "refresh") }).only(s != nil, "not connected: nothing can be listed"),
		on(k.Raw, does(m.openRaw)).only(s != nil, "not connected: there is no session to send a raw message on"),
		on(k.Roots, does(m.openRoots)).only(s != nil, "not connected: there is no session to set roots on").
			only(s == nil || slices.Contains(s.Info().ClientCapabilities, "roots"), "jig did not declare roots for this session (--capabilities)"),
		on(k.LogLevel, does(m.openLevel)).only(s != nil, "not connected: there is no server to set the log level of").
			only(s == nil || s.Info().Era != "stateless", m.noSetLevel()),
	)
	return as
}

// focusAction is a pane's number key.
func (m *Model) focusAction(id paneID) action {
	b := bind([]string{fmt.Sprint(id + 1)}, fmt.Sprint(id+1), strings.ToLower(paneTable[id].name))
	a := on(b, func() tea.Cmd { return m.show(id) })
	if id != paneFrames {
		a = a.only(!m.framesOnly(), "the recording is shown as frames only: r on a tools/call reproduces it")
	}
	return a
}

func (m *Model) noSetLevel() string {
	s := m.session()
	if s == nil {
		return ""
	}
	// Said whole in a 120-column status line: its hint was cut
	// ("(connect with --protocol-versio…").
	return fmt.Sprintf("logging/setLevel is not in protocol %s (its era removed it); --protocol-version 2025-11-25 has it", s.Info().ProtocolVersion)
}

// footer is the status line, or the keys that do something now: the
// focused pane's own first (the arrows go without saying), then the few
// app-wide ones worth a reminder.
func (m *Model) footer() string {
	w := m.lay.width
	if m.status.text != "" {
		st := m.st().status
		if m.status.isErr {
			st = m.st().statusError
		}
		return fitTo(st.Render(ansi.Truncate(m.status.text, w, "…")), w)
	}
	var bs []key.Binding
	if m.overlay != nil {
		bs = bindings(whileTyping(m.overlay.actions(), m.overlay.typing()))
	} else {
		bs = m.footerKeys()
	}
	h := m.help
	h.ShowAll = false
	h.SetWidth(w) // help cuts what does not fit, and says so with …
	return fit(h.ShortHelpView(bs), w, 1)[0]
}

// footerKeys are the footer's keys: the ones that apply only now first
// (retry, cancel, answer), then as many of the focused pane's own as fit
// beside the reminders that always end it (tab, ?, q).
func (m *Model) footerKeys() []key.Binding {
	nav := map[string]bool{}
	for _, b := range newScrollKeys().list() {
		nav[b.Help().Key] = true
	}
	typing := m.panes[m.focus].typing()
	var first []key.Binding
	if m.conn().failed() && !typing {
		first = append(first, m.keys.Retry)
	}
	for _, a := range m.firstActions()[1:3] { // cancel, answer: only when they apply
		if a.available() {
			first = append(first, a.Binding)
		}
	}
	var last []key.Binding
	for _, a := range whileTyping([]action{on(m.keys.Next, nil), on(m.keys.Help, nil), on(m.keys.Quit, nil)}, typing) {
		if a.available() {
			last = append(last, a.Binding)
		}
	}
	actions := m.panes[m.focus].actions()
	if m.conn().failed() && m.focus != paneFrames {
		actions = m.conn().failureActions()
	}
	actions = whileTyping(actions, typing)
	// Measured as bubbles/help draws them: "key desc", joined by its separator.
	sepW := ansi.StringWidth(m.help.ShortSeparator)
	itemW := func(b key.Binding) int {
		return ansi.StringWidth(b.Help().Key) + 1 + ansi.StringWidth(b.Help().Desc) + sepW
	}
	room := m.lay.width + sepW
	for _, b := range append(append([]key.Binding{}, first...), last...) {
		room -= itemW(b)
	}
	bs := first
	for _, a := range actions {
		if !a.available() || nav[a.Help().Key] {
			continue
		}
		if room -= itemW(a.Binding); room < 0 {
			break
		}
		bs = append(bs, a.Binding)
	}
	return append(bs, last...)
}

// openHelp shows every key of the focused pane (or the open dialog) and
// the app-wide keys, drawn by bubbles/help from the actions that handle
// them, with the keys that do nothing now and why.
func (m *Model) openHelp() {
	typing := m.panes[m.focus].typing()
	name, own := paneTable[m.focus].name, whileTyping(m.panes[m.focus].actions(), typing)
	m.openOverlay(newTextOverlay(m.st(), "Keys", m.env.out, m.env.redact, func(w int) (*doc, []string) {
		return nil, m.helpLines(name, own, w)
	}))
}

func (m *Model) helpLines(name string, own []action, width int) []string {
	h := m.help
	h.ShowAll = true
	h.SetWidth(width)
	rows := max(m.overlayContent().h-4, 4)
	global := whileTyping(append(m.firstActions(), m.lastActions()...), m.panes[m.focus].typing())
	var b strings.Builder
	section := func(title string, bs []key.Binding) {
		if len(bs) == 0 {
			return
		}
		b.WriteString(m.st().heading.Render(title) + "\n\n")
		b.WriteString(h.FullHelpView(columns(bs, rows)) + "\n\n")
	}
	section(name+" keys", enabledOnly(bindings(own)))
	section("Everywhere", enabledOnly(bindings(global)))
	if not := append(notNow(own), notNow(global)...); len(not) > 0 {
		// One column, each reason wrapped under its key: they are sentences.
		h.SetWidth(0)
		b.WriteString(m.st().heading.Render("Not now, and why") + "\n\n")
		b.WriteString(ansi.Wrap(h.FullHelpView([][]key.Binding{not}), width, " ") + "\n\n")
	}
	b.WriteString(m.st().muted.Render("esc closes this help"))
	return strings.Split(b.String(), "\n")
}

func enabledOnly(bs []key.Binding) []key.Binding {
	var out []key.Binding
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// columns deals bindings into columns of rows each, for the full help.
func columns(bs []key.Binding, rows int) [][]key.Binding {
	var out [][]key.Binding
	for len(bs) > 0 {
		n := min(rows, len(bs))
		out = append(out, bs[:n])
		bs = bs[n:]
	}
	return out
}
