package ui

import (
	"context"
	"fmt"
	"os"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
)

// Config is what a Model shows.
type Config struct {
	// Options, when set, are used to open a live session (in a command, so
	// the UI is up at once in a "connecting" state). Their OnToolsChanged is
	// wrapped, not replaced. Nil means read-only: Reader is shown, nothing
	// is sent.
	Options *session.Options
	// Reader is the frames to show. For a live session it defaults to
	// Options.Log (created when nil). A Reader that also has
	// Wait(ctx, n) (int, error), like *frames.Log, is followed as it grows.
	Reader frames.Reader
	// Title names what a read-only Model shows, e.g. a transcript's path.
	Title string
	// Cut, when a recording is read, is what of it could not be read (a
	// file cut mid-record): the header shows it, never shortened away.
	Cut string
	// Record, for an agent transcript, says what it is: a record of one
	// run, not a reproduction (importer.File.Record).
	Record string
	// CallNotes, for an agent transcript, are the lines shown with the
	// call whose request or response is frame i: where it is in the
	// transcript, what the assistant said, what the transcript did not pin.
	CallNotes func(i int) []string
	// Violations are the contract violations of the response frame with
	// sequence number seq, one line each (none: nil). The frames pane marks
	// the frame ✗ and shows them with it. It is called as frames are drawn,
	// while a live check may still be adding to them: it must be safe for
	// that.
	Violations func(seq int64) []string
	// Info is the recorded handshake to show in read-only mode, if known.
	Info *session.Info
	// Tool, when set, is selected once the server has listed its tools,
	// and a call of it is loaded in the editor, ready to send (jig connect
	// --tool). A tool the server does not list is named in the status line
	// with the nearest names it does.
	Tool string
	// Args are that call's arguments, exactly as given (--args); empty:
	// the tool's template.
	Args string
	// Timeout bounds connecting and each call; 30s when zero.
	Timeout time.Duration
	// SaveDir is where bodies are written with w; the working directory
	// when empty, as curl -O and a browser's download do: a shared /tmp
	// is not where a user looks for evidence they asked to keep.
	SaveDir string
	// Reproduce, in read-only mode, is the server a recorded tools/call is
	// reproduced against (r): the recording's own target, or one the user
	// named. Nil means recorded calls cannot be reproduced.
	Reproduce *session.Options
	// ReproduceRefused, with Reproduce nil, says why recorded calls cannot
	// be reproduced on the recording's own server (its target holds a
	// redacted secret) and what to give instead.
	ReproduceRefused string
	// RecordReproduction, when set, begins recording Reproduce's Log; it is
	// called once, as the first reproduction connects (a recording opened
	// only to be read writes nothing), and returns the file it records to.
	RecordReproduction func() (string, error)
	// Redact is the run's one redactor: every text the TUI draws (frames,
	// results, the header, dialogs, status lines) and every body w writes
	// passes through its Base, so a secret the server echoes never reaches
	// the terminal, and the fixtures P pins are redacted with it (the
	// secrets it knows by their variable, --secret-env, are re-filled from
	// the variable at replay). Nil: one over Options' (or Reproduce's)
	// Redact, else over a new one. The sessions the TUI opens share its
	// Base, so what they learn (an OAuth token, a secret-named argument) is
	// redacted on screen too.
	Redact *fixture.Redactor
}

// Model is the root Bubble Tea model: the panes of the pane table, the open
// overlay, and a few state structs (the connection in env, the server's
// requests, the pin dialog, the reproduction). Its Update only routes. Use
// New; call Close after the program returns, to end the session and stop
// its server.
type Model struct {
	cfg    Config
	ctx    context.Context // the Model's life: cancelled on quit
	cancel context.CancelFunc
	env    paneEnv // what every pane is built with (styles, outbox, frames, calls, connection)
	keys   globalKeys
	help   help.Model

	panes   []pane // by paneID
	focus   paneID
	shown   [slotCount]paneID // the pane each slot shows when side by side
	overlay overlay           // nil when none is open

	asks  *asks
	auth  *authFlow
	pins  *pinning
	repro *reproduction
	attr  *attribution

	hdr    header
	status statusBar
	lay    layout
}

// New builds the Model. It does no I/O: the session opens in Init's command.
func New(cfg Config) *Model {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.SaveDir == "" {
		cfg.SaveDir = "."
	}
	m := &Model{keys: newGlobalKeys(), help: help.New(), repro: &reproduction{}, attr: &attribution{}}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	st, out, red := newStyles(true), &outbox{}, runRedactor(&cfg)
	m.asks = newAsks(m.ctx, st, out, red)
	conn := newConnection(&cfg, m.asks.asker)
	m.auth = newAuthFlow()
	var browser []string
	if conn.opts.Auth != nil {
		// The OAuth flow's steps come to the panel (auth.go).
		a := *conn.opts.Auth
		a.OnEvent, browser = m.auth.hook(a.OnEvent), a.Browser
		conn.opts.Auth = &a
	}
	m.auth.panel = newAuthPanel(st, out, red, m.auth, func() frames.Reader { return m.env.reader }, browser)
	m.cfg = cfg
	m.env = paneEnv{ctx: m.ctx, st: st, out: out, redact: red, reader: cfg.Reader, calls: newCallLog(red), conn: conn, callNotes: cfg.CallNotes, violations: cfg.Violations}
	m.pins = newPinning(st, out, red)
	m.hdr = header{st: st, red: red, state: stateConnecting, target: conn.opts.Target.String(), title: cfg.Title, cut: cfg.Cut, record: cfg.Record}
	for s := range m.shown {
		m.shown[s] = -1
	}
	for i, spec := range paneTable {
		env := m.env
		env.id = paneID(i)
		m.panes = append(m.panes, spec.build(&env))
		if m.shown[spec.slot] < 0 {
			m.shown[spec.slot] = paneID(i) // a slot first shows its first pane
		}
	}
	m.hdr.frames = m.frames().n
	if conn.readOnly {
		m.hdr.state = stateReadOnly
		m.hdr.readHandshake(cfg.Reader)
		m.focus = paneFrames
	}
	m.setFocus(m.focus)
	return m
}

// runRedactor settles cfg.Redact (see Config) and returns its Base, which
// every session the TUI opens is given.
func runRedactor(cfg *Config) *frames.Redactor {
	if cfg.Redact == nil {
		var base *frames.Redactor
		for _, o := range []*session.Options{cfg.Options, cfg.Reproduce} {
			if base == nil && o != nil {
				base = o.Redact
			}
		}
		// As jig call --pin's: the secret-looking variables of jig's own
		// environment are known by name (a server that echoes its
		// environment echoes them).
		cfg.Redact = fixture.Over(base, fixture.EnvSecrets(os.Environ())...)
	}
	red := cfg.Redact.Base()
	for _, o := range []*session.Options{cfg.Options, cfg.Reproduce} {
		if o != nil && o.Redact == nil {
			o.Redact = red
		}
	}
	return red
}

// Typed access to the panes the root coordinates.
func (m *Model) tools() *toolsPane         { return m.panes[paneTools].(*toolsPane) }
func (m *Model) editor() *editorPane       { return m.panes[paneEditor].(*editorPane) }
func (m *Model) result() *resultPane       { return m.panes[paneResult].(*resultPane) }
func (m *Model) frames() *framesPane       { return m.panes[paneFrames].(*framesPane) }
func (m *Model) resources() *resourcesPane { return m.panes[paneResources].(*resourcesPane) }
func (m *Model) prompts() *promptsPane     { return m.panes[panePrompts].(*promptsPane) }

func (m *Model) st() *styles               { return m.env.st }
func (m *Model) conn() *connection         { return m.env.conn }
func (m *Model) calls() *callLog           { return m.env.calls }
func (m *Model) session() *session.Session { return m.env.conn.session() }

// Init starts connecting and following the frames.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, waitAsk(m.ctx, m.asks.asker), waitProgress(m.ctx, m.calls().progress), waitAuth(m.ctx, m.auth.events)}
	if w, ok := m.cfg.Reader.(waiter); ok {
		cmds = append(cmds, waitFrames(m.ctx, w, m.frames().n))
	}
	if m.conn().readOnly {
		return tea.Batch(append(cmds, m.frames().indexTools())...)
	}
	return tea.Batch(append(cmds, m.connect(), m.conn().waitChanges(m.ctx))...)
}

// Close ends the session, stopping a stdio server. It is safe to call more
// than once and from any goroutine, after the program has returned.
func (m *Model) Close() error {
	m.cancel()
	return m.conn().close()
}

// Update routes a message: window and colour changes and the mouse here,
// keys to the actions of the open overlay or the focused pane and the
// app-wide ones, and every other message to the handler it names.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
	case tea.BackgroundColorMsg:
		*m.st() = *newStyles(msg.IsDark())
		m.help.Styles = help.DefaultStyles(msg.IsDark())
	case tea.KeyPressMsg:
		return m, m.drain(m.key(msg))
	case tea.MouseWheelMsg:
		return m, m.drain(m.wheel(msg.Mouse()))
	case tea.PasteMsg:
		return m, m.drain(m.paste(msg))
	case routed:
		return m, m.drain(msg.route(m))
	}
	return m, nil
}

// drain handles the requests the panes and overlays queued while handling
// a message, right away, so keys typed ahead land where the user expects.
func (m *Model) drain(cmd tea.Cmd) tea.Cmd {
	cmds := []tea.Cmd{cmd}
	for len(m.env.out.msgs) > 0 {
		for _, msg := range m.env.out.take() {
			cmds = append(cmds, msg.route(m))
		}
	}
	return tea.Batch(cmds...)
}

// A statusLine is the footer's message, when there is one.
type statusLine struct {
	text  string
	isErr bool
}

// statusBar is the footer's status line and the lines it showed before,
// oldest first (at most saidMax), which H shows.
type statusBar struct {
	statusLine
	said []statusLine
	// at is when the line was set; notice says the server's doing set it
	// (setNotice), not the user's.
	at     time.Time
	notice bool
}

// noticeHold is how long what the user's own action said stays on the
// status line before a notice of the server's may replace it.
const noticeHold = 5 * time.Second

// setStatus shows text in the footer, redacted: errors quote servers.
func (m *Model) setStatus(text string, isErr bool) {
	m.status.at, m.status.notice = time.Now(), false
	m.say(statusLine{m.env.redact.String(text), isErr})
}

// setNotice says what the server did on its own (a list_changed
// re-listing, a resource it says changed). It goes to H at once, and to
// the status line unless what the user's last action said is still fresh
// there: server-everything re-lists every few seconds, and each re-listing
// wiped an error or a completion before it could be read.
func (m *Model) setNotice(text string) {
	line := statusLine{m.env.redact.String(text), false}
	if m.status.text != "" && !m.status.notice && time.Since(m.status.at) < noticeHold {
		m.remember(line)
		return
	}
	m.status.at, m.status.notice = time.Now(), true
	m.say(line)
}

func (m *Model) say(line statusLine) {
	m.status.statusLine = line
	m.remember(line)
}

// remember keeps line for H, once in a row.
func (m *Model) remember(line statusLine) {
	if last := len(m.status.said) - 1; line.text != "" && (last < 0 || m.status.said[last] != line) {
		// A hint gone from the footer is still there with H.
		m.status.said = append(m.status.said, line)
		if len(m.status.said) > saidMax {
			m.status.said = m.status.said[len(m.status.said)-saidMax:]
		}
	}
}

// saidMax is how many status lines H keeps.
const saidMax = 100

// openSaid shows the status lines so far, the newest first.
func (m *Model) openSaid() {
	m.openOverlay(newTextOverlay(m.st(), "Status messages, the newest first", m.env.out, m.env.redact, func(w int) (*doc, []string) {
		var b docBuilder
		said := m.status.said
		if len(said) == 0 {
			b.line(roleMuted, "nothing said yet")
		}
		for i := len(said) - 1; i >= 0; i-- {
			r := rolePlain
			if said[i].isErr {
				r = roleError
			}
			b.line(r, said[i].text)
		}
		return b.doc(), nil
	}))
}

// framesOnly reports whether only the frames pane is shown: a recording
// opened read-only, before anything is reproduced from it.
func (m *Model) framesOnly() bool { return m.conn().readOnly && !m.repro.started }

func (m *Model) quit() tea.Cmd {
	m.cancel()
	return tea.Quit
}

// setFocus gives pane id the focus; it becomes what its slot shows.
func (m *Model) setFocus(id paneID) {
	m.focus = id
	for i, p := range m.panes {
		p.setFocus(paneID(i) == id)
	}
	m.shown[paneTable[id].slot] = id
}

// show gives pane id the focus because the user asked for it (its number
// key, tab): a list pane is listed the first time it is shown.
func (m *Model) show(id paneID) tea.Cmd {
	m.setFocus(id)
	return m.listOnOpen()
}

// onScreen is the panes in the order tab visits them: side by side, what
// each slot shows; in tabs, every pane.
func (m *Model) onScreen() []paneID {
	if m.lay.tabs {
		ids := make([]paneID, len(m.panes))
		for i := range ids {
			ids[i] = paneID(i)
		}
		return ids
	}
	var ids []paneID
	for _, id := range m.shown {
		if id >= 0 {
			ids = append(ids, id)
		}
	}
	return ids
}

// cycle moves the focus to the next pane on screen (d = +1) or the previous.
func (m *Model) cycle(d int) tea.Cmd {
	if m.framesOnly() {
		return nil
	}
	order := m.onScreen()
	i := 0
	for j, id := range order {
		if id == m.focus {
			i = j
		}
	}
	return m.show(order[(i+d+len(order))%len(order)])
}

func (m *Model) paste(msg tea.PasteMsg) tea.Cmd {
	switch {
	case m.overlay != nil && m.overlay.typing():
		return m.overlay.update(msg)
	case m.overlay == nil && m.panes[m.focus].typing():
		return m.panes[m.focus].update(msg)
	}
	return nil
}

func (m *Model) wheel(ms tea.Mouse) tea.Cmd {
	dy := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		dy = -3
	case tea.MouseWheelDown:
		dy = 3
	default:
		return nil
	}
	if m.overlay != nil {
		return m.overlay.update(wheelMsg{dy: dy})
	}
	for _, id := range m.onScreen() {
		if m.lay.tabs && id != m.focus {
			continue
		}
		r := m.contentRect(id)
		if !r.contains(ms.X, ms.Y) {
			continue
		}
		if m.conn().failed() && id != paneFrames {
			m.conn().failure.scroll(dy)
			return nil
		}
		return m.panes[id].update(wheelMsg{dy: dy, y: ms.Y - r.y})
	}
	return nil
}

func (m *Model) saved(msg savedMsg) tea.Cmd {
	if _, ok := m.overlay.(*writeDialog); ok && !msg.keepOpen {
		m.overlay = nil
	}
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
	} else {
		m.setStatus("wrote "+msg.path, false)
	}
	return nil
}

// openOverlay shows o over the panes, sized to the overlay's box.
func (m *Model) openOverlay(o overlay) {
	m.overlay = o
	r := m.overlayContent()
	o.setSize(r.w, r.h)
}

// openInfo shows the server's info and instructions.
func (m *Model) openInfo() {
	m.openOverlay(newTextOverlay(m.st(), "Server info", m.env.out, m.env.redact, func(w int) (*doc, []string) {
		return infoDoc(m.info(), w), nil
	}))
}

func (m *Model) info() session.Info {
	if s := m.session(); s != nil {
		return s.Info()
	}
	if m.cfg.Info != nil {
		return *m.cfg.Info
	}
	return session.Info{}
}

func (m *Model) infoAvailable() bool { return m.session() != nil || m.cfg.Info != nil }

// paneTitle is a pane's number key and title: "1 Tools (5)".
func (m *Model) paneTitle(id paneID) string {
	return fmt.Sprintf("%d %s", id+1, m.panes[id].title())
}
