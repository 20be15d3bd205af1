package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/record"
)

// A SessionPicker is jig open without a file: the recorded sessions,
// newest first, with when each started, what it talked to, the server
// its handshake named and its size; enter opens one. Run it as a program
// of its own, then read Chosen.
type SessionPicker struct {
	st     *styles
	red    *frames.Redactor
	dir    string
	list   []record.Session
	win    listWindow
	keys   pickerKeys
	help   help.Model
	width  int
	height int
	chosen string
}

type pickerKeys struct {
	scrollKeys
	Open, Quit key.Binding
}

// NewSessionPicker lists sessions (as record.List returns them, newest
// first) found in dir. Every text it draws passes through red.
func NewSessionPicker(dir string, sessions []record.Session, red *frames.Redactor) *SessionPicker {
	return &SessionPicker{st: newStyles(true), red: red, dir: dir, list: sessions, help: help.New(),
		keys: pickerKeys{scrollKeys: newScrollKeys(),
			Open: bind([]string{"enter"}, "enter", "open it"),
			Quit: bind([]string{"esc", "q", "ctrl+c"}, "esc/q", "open nothing")}}
}

// Chosen is the path of the session picked, "" when none was.
func (p *SessionPicker) Chosen() string { return p.chosen }

func (p *SessionPicker) Init() tea.Cmd { return tea.RequestBackgroundColor }

func (p *SessionPicker) actions() []action {
	as := listActions(p.keys.scrollKeys, &p.win, len(p.list), func() {})
	return append(as,
		on(p.keys.Open, func() tea.Cmd { p.chosen = p.list[p.win.sel].Path; return tea.Quit }).only(len(p.list) > 0, "there is no session to open"),
		on(p.keys.Quit, func() tea.Cmd { return tea.Quit }))
}

func (p *SessionPicker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.width, p.height = msg.Width, msg.Height
		p.win.height = max(p.height-4, 1) // the title, the column heads, the rule and the keys
		p.win.keepVisible(len(p.list))
	case tea.BackgroundColorMsg:
		p.st = newStyles(msg.IsDark())
	case tea.KeyPressMsg:
		if a, ok := matchAction(p.actions(), msg); ok && a.available() {
			return p, a.do(msg)
		}
	case tea.MouseWheelMsg:
		d := 1
		if msg.Button == tea.MouseWheelUp {
			d = -1
		}
		p.win.sel += d
		p.win.keepVisible(len(p.list))
	}
	return p, nil
}

func (p *SessionPicker) View() tea.View {
	v := tea.NewView(p.render())
	v.AltScreen = true
	v.WindowTitle = "jig open"
	return v
}

// pickerColumns are the widths of the columns but the last (the target):
// started, mode, server, frames, size; narrow leaves the mode out and
// says the start without its year, so the target keeps some room at 80.
func (p *SessionPicker) columns() (layout string, widths [5]int) {
	if p.width < 110 {
		return "01-02 15:04", [5]int{11, 0, 20, 6, 8}
	}
	return "2006-01-02 15:04:05", [5]int{19, 7, 28, 7, 9}
}

func (p *SessionPicker) render() string {
	if p.width == 0 {
		return ""
	}
	var b strings.Builder
	title := fmt.Sprintf("jig open · %d recorded sessions, newest first · ", len(p.list))
	title += frames.ShortenMiddle(p.red.String(p.dir), max(p.width-ansi.StringWidth(title), 12))
	b.WriteString(p.st.title.Render(ansi.Truncate(title, p.width, "…")))
	b.WriteByte('\n')
	b.WriteString(p.st.muted.Render(ansi.Truncate(p.row("STARTED", "MODE", "SERVER", "FRAMES", "SIZE", "TARGET"), p.width, "…")))
	for r := 0; r < p.win.height; r++ {
		b.WriteByte('\n')
		i := p.win.top + r
		if i >= len(p.list) {
			continue
		}
		s := p.list[i]
		server := s.Server
		if server == "" {
			server = "-"
		}
		layout, _ := p.columns()
		line := p.row(s.Started.Local().Format(layout), s.Mode, server, thousands(s.Frames), frames.HumanSize(int(s.Size)), s.Target)
		line = ansi.Truncate(p.red.String(line), p.width, "…")
		if i == p.win.sel {
			line = p.st.selected.Render(padRight(line, p.width))
		}
		b.WriteString(line)
	}
	b.WriteByte('\n')
	foot := p.st.muted.Render(strings.Repeat("─", p.width))
	if len(p.list) > 0 {
		sel := p.list[p.win.sel]
		foot = p.st.muted.Render(ansi.Truncate("─ "+p.red.String(sel.Path)+" ", p.width, "…"))
	}
	b.WriteString(foot + "\n")
	p.help.SetWidth(p.width)
	k := p.keys
	b.WriteString(p.help.ShortHelpView([]key.Binding{k.Up, k.Down, k.End, k.Open, k.Quit}))
	return b.String()
}

// row lays out one line of the list: the target gets what is left, its
// middle taken out when it is long (a command's file and a URL's path
// tell sessions apart at their ends).
func (p *SessionPicker) row(started, mode, server, n, size, target string) string {
	_, c := p.columns()
	left := fmt.Sprintf("%-*s  ", c[0], started)
	if c[1] > 0 {
		left += fmt.Sprintf("%-*s  ", c[1], frames.ShortenMiddle(mode, c[1]))
	}
	left += fmt.Sprintf("%-*s  %*s  %*s  ", c[2], frames.ShortenMiddle(server, c[2]), c[3], n, c[4], size)
	return left + frames.ShortenMiddle(target, max(p.width-ansi.StringWidth(left), 12))
}
