package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/session"
)

// levelPicker chooses the level logging/setLevel sends. Only the legacy
// era has the method; the root does not open the picker in the other.
type levelPicker struct {
	st      *styles
	keys    levelKeys
	out     *outbox
	sel     int
	current string // the level last set, "" when never set
}

func newLevelPicker(st *styles, out *outbox, current string) *levelPicker {
	l := &levelPicker{st: st, keys: newLevelKeys(), out: out, current: current}
	l.open()
	return l
}

func (l *levelPicker) open() {
	l.sel = 0
	for i, v := range session.LogLevels {
		if v == l.current {
			l.sel = i
		}
	}
}

func (l *levelPicker) title() string    { return "Server log level (logging/setLevel)" }
func (l *levelPicker) typing() bool     { return false }
func (l *levelPicker) setSize(w, h int) {}

func (l *levelPicker) update(msg tea.Msg) tea.Cmd { return nil }

func (l *levelPicker) actions() []action {
	k := l.keys
	return []action{
		on(k.Set, func() tea.Cmd { return l.out.send(setLogLevelMsg{level: session.LogLevels[l.sel]}) }),
		on(k.Up, does(func() { l.sel = max(l.sel-1, 0) })),
		on(k.Down, does(func() { l.sel = min(l.sel+1, len(session.LogLevels)-1) })),
		on(k.Close, func() tea.Cmd { return l.out.send(closeOverlayMsg{}) }),
	}
}

func (l *levelPicker) view() string {
	lines := []string{
		"The server sends notifications/message at this level and above;",
		"they show in the frames pane as \"log\" rows.",
		"",
	}
	for i, v := range session.LogLevels {
		row := "  " + v
		if v == l.current {
			row += l.st.muted.Render("  (set)")
		}
		if i == l.sel {
			row = l.st.selected.Render(fmt.Sprintf("▶ %-10s", v))
		}
		lines = append(lines, row)
	}
	return strings.Join(lines, "\n")
}

// openLevel opens the log level picker.
func (m *Model) openLevel() {
	m.openOverlay(newLevelPicker(m.st(), m.env.out, m.conn().logLevel))
}

func (m *Model) setLogLevel(msg setLogLevelMsg) tea.Cmd {
	s := m.session()
	if s == nil {
		m.setStatus("not connected: there is no server to set the log level of", true)
		return nil
	}
	m.overlay = nil
	m.setStatus("logging/setLevel "+msg.level+" sent…", false)
	return setLogLevel(m.ctx, s, m.conn().timeout, msg.level)
}

func (m *Model) logLevelSet(msg logLevelSetMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus("logging/setLevel "+msg.level+": "+msg.err.Error(), true)
		return nil
	}
	m.conn().logLevel = msg.level
	m.setStatus("the server now logs at "+msg.level+" and above (notifications/message rows in the frames pane)", false)
	return nil
}
