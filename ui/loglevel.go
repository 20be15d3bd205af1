package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
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

func newLevelPicker(st *styles) *levelPicker {
	return &levelPicker{st: st, keys: newLevelKeys(), out: &outbox{}}
}

func (l *levelPicker) open() {
	l.sel = 0
	for i, v := range session.LogLevels {
		if v == l.current {
			l.sel = i
		}
	}
}

func (l *levelPicker) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(k, l.keys.Up):
		l.sel = max(l.sel-1, 0)
	case key.Matches(k, l.keys.Down):
		l.sel = min(l.sel+1, len(session.LogLevels)-1)
	case key.Matches(k, l.keys.Set):
		return l.out.send(setLogLevelMsg{level: session.LogLevels[l.sel]})
	case key.Matches(k, l.keys.Close):
		return l.out.send(closeLevelMsg{})
	}
	return nil
}

func (l *levelPicker) help() []key.Binding {
	return []key.Binding{l.keys.Set, l.keys.Up, l.keys.Down, l.keys.Close}
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

// levels handles the log level picker's requests and their replies.
func (m *Model) levels(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case setLogLevelMsg:
		s := m.session()
		if s == nil {
			m.setStatus("not connected: there is no server to set the log level of", true)
			return nil
		}
		m.overlay = overlayNone
		m.setStatus("logging/setLevel "+msg.level+" sent…", false)
		return setLogLevel(m.ctx, s, m.cfg.Timeout, msg.level)
	case logLevelSetMsg:
		if msg.err != nil {
			m.setStatus("logging/setLevel "+msg.level+": "+msg.err.Error(), true)
			return nil
		}
		m.level.current = msg.level
		m.setStatus("the server now logs at "+msg.level+" and above (notifications/message rows in the frames pane)", false)
	case closeLevelMsg:
		m.overlay = overlayNone
	}
	return nil
}
