// Package ui is jig's terminal interface: a header with the handshake, the
// tools and their schemas, an editor for exact arguments, the result of each
// call, and every frame side by side. It talks to a server only through
// package session and reads frames only through frames.Reader, so the same
// Model shows a live session or a recorded transcript (read-only).
package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

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
	// Record, for an agent transcript, says what it is: a record of one
	// run, not a reproduction (importer.File.Record).
	Record string
	// Info is the recorded handshake to show in read-only mode, if known.
	Info *session.Info
	// Timeout bounds connecting and each call; 30s when zero.
	Timeout time.Duration
	// SaveDir is where bodies are written with w; the system temp directory
	// when empty.
	SaveDir string
	// Reproduce, in read-only mode, is the server a recorded tools/call is
	// reproduced against (r): the recording's own target, or one the user
	// named. Nil means recorded calls cannot be reproduced.
	Reproduce *session.Options
}

// Model is the root Bubble Tea model. Use New; call Close after the program
// returns, to end the session and stop its server.
type Model struct {
	cfg      Config
	opts     session.Options
	readOnly bool
	ctx      context.Context
	cancel   context.CancelFunc

	st    *styles
	keys  globalKeys
	okeys overlayKeys
	help  help.Model

	hdr     header
	tools   *toolsPane
	editor  *editorPane
	result  *resultPane
	frames  *framesPane
	res     *resourcesPane
	prompts *promptsPane
	focus   paneID
	left    paneID // which of tools, resources and prompts the left column shows

	sessMu       sync.Mutex // Close may run on another goroutine than Update
	sess         *session.Session
	attempt      int
	connErr      error
	failure      textView
	toolsChanged chan struct{}
	// resourcesChanged and promptsChanged hold the session's notices of
	// resources/list_changed and prompts/list_changed.
	resourcesChanged, promptsChanged chan struct{}

	calls    []*call
	nextID   int
	out      outbox           // requests from the panes
	progress chan progressMsg // notifications/progress of open calls, from the SDK

	asker *asker       // the session's Sampling and Elicit hooks hand requests here
	asks  []*serverAsk // server requests waiting for the user's answer, oldest first
	ask   *askDialog   // shows asks[0]
	level *levelPicker // logging/setLevel

	overlay     overlayKind
	overlayView textView // the info overlay
	pin         *pinDialog
	pinOpened   int                // how many times the pin dialog was opened: its token
	pinCancel   context.CancelFunc // stops building the dialog's fixture
	helpLines   []string           // the help overlay, already styled by bubbles/help
	helpTop     int

	status    string
	statusErr bool

	repro        *fixture.Call // the recorded call being reproduced
	reproStarted bool          // a read-only Model began connecting to reproduce
	mark         *fixture.Call // the call others are compared with
	cmp          *compareView

	width, height int
	lay           layout
}

type overlayKind uint8

const (
	overlayNone overlayKind = iota
	overlayHelp
	overlayInfo
	overlayPin
	overlayCompare
	overlayAsk
	overlayLevel
)

// New builds the Model. It does no I/O: the session opens in Init's command.
func New(cfg Config) *Model {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.SaveDir == "" {
		cfg.SaveDir = os.TempDir()
	}
	m := &Model{cfg: cfg, st: newStyles(true), keys: newGlobalKeys(), okeys: newOverlayKeys(), help: help.New()}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	m.readOnly = cfg.Options == nil
	m.asker = newAsker(m.ctx)
	m.progress = make(chan progressMsg, 256)
	if !m.readOnly {
		m.opts = *cfg.Options
		m.interactive(&m.opts)
		if m.opts.Log == nil {
			m.opts.Log = frames.NewLog(nil)
		}
		if cfg.Reader == nil {
			m.cfg.Reader = m.opts.Log
		}
		m.toolsChanged = make(chan struct{}, 1)
		m.resourcesChanged = make(chan struct{}, 1)
		m.promptsChanged = make(chan struct{}, 1)
		m.opts.OnToolsChanged = notice(m.opts.OnToolsChanged, m.toolsChanged)
		m.opts.OnResourcesChanged = notice(m.opts.OnResourcesChanged, m.resourcesChanged)
		m.opts.OnPromptsChanged = notice(m.opts.OnPromptsChanged, m.promptsChanged)
	}
	if m.cfg.Reader == nil {
		m.cfg.Reader = frames.NewLog(nil)
	}
	m.hdr = header{st: m.st, state: stateConnecting, target: m.opts.Target.String(), title: cfg.Title, record: cfg.Record}
	if m.readOnly {
		m.hdr.state = stateReadOnly
		m.focus = paneFrames
	}
	m.tools = newToolsPane(m.st)
	m.editor = newEditorPane(m.st, &m.calls)
	m.editor.readOnly = m.readOnly
	m.result = newResultPane(m.st, &m.calls)
	m.frames = newFramesPane(m.st, m.cfg.Reader)
	m.frames.reproducible = !m.readOnly || cfg.Reproduce != nil
	m.res = newResourcesPane(m.st)
	m.prompts = newPromptsPane(m.st)
	m.res.out, m.prompts.out = &m.out, &m.out
	m.pin = newPinDialog(m.st)
	m.ask = newAskDialog(m.st)
	m.level = newLevelPicker(m.st)
	m.tools.out, m.editor.out, m.result.out, m.frames.out, m.pin.out = &m.out, &m.out, &m.out, &m.out, &m.out
	m.ask.out, m.level.out = &m.out, &m.out
	m.hdr.frames = m.frames.n
	m.setFocus(m.focus)
	return m
}

// notice wraps a session's list_changed hook so that it also leaves a
// notice in ch for a waiting command to deliver to Update.
func notice(prev func(), ch chan struct{}) func() {
	return func() {
		if prev != nil {
			prev()
		}
		select {
		case ch <- struct{}{}:
		default: // one pending notice is enough: the re-list sees all changes
		}
	}
}

// interactive makes the server's requests for a human (sampling,
// elicitation) come to the TUI's dialog instead of the CLI's canned answers.
func (m *Model) interactive(opts *session.Options) {
	opts.Sampling = m.asker.sampling
	opts.Elicit = m.asker.elicit
}

// Init starts connecting and following the frames.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, waitAsk(m.ctx, m.asker), waitProgress(m.ctx, m.progress)}
	if w, ok := m.cfg.Reader.(waiter); ok {
		cmds = append(cmds, waitFrames(m.ctx, w, m.frames.n))
	}
	if m.readOnly {
		cmds = append(cmds, indexTools(m.ctx, m.cfg.Reader, 0, m.frames.n))
	}
	if !m.readOnly {
		m.attempt++
		cmds = append(cmds, connect(m.ctx, m.opts, m.cfg.Timeout, m.attempt), waitToolsChanged(m.ctx, m.toolsChanged),
			waitListChanged(m.ctx, m.resourcesChanged, paneResources), waitListChanged(m.ctx, m.promptsChanged, panePrompts))
	}
	return tea.Batch(cmds...)
}

// Close ends the session, stopping a stdio server. It is safe to call more
// than once and from any goroutine, after the program has returned.
func (m *Model) Close() error {
	m.cancel()
	m.sessMu.Lock()
	s := m.sess
	m.sess = nil
	m.sessMu.Unlock()
	if s == nil {
		return nil
	}
	return s.Close()
}

func (m *Model) session() *session.Session {
	m.sessMu.Lock()
	defer m.sessMu.Unlock()
	return m.sess
}

// Update routes a message: window and colour changes here, keys to the
// app-wide bindings or the focused pane, replies to whoever asked.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
	case tea.BackgroundColorMsg:
		*m.st = *newStyles(msg.IsDark())
		m.help.Styles = help.DefaultStyles(msg.IsDark())
	case tea.KeyPressMsg:
		return m, m.drain(m.key(msg))
	case tea.MouseWheelMsg:
		m.wheel(msg.Mouse())
	case tea.PasteMsg:
		if m.overlay == overlayPin {
			return m, m.drain(m.pin.update(msg))
		}
		if m.overlay == overlayAsk {
			return m, m.drain(m.ask.update(msg))
		}
		if p := m.pane(m.focus); p.typing() {
			return m, m.drain(p.update(msg))
		}
	case framesMsg:
		m.frames.grow(msg.n)
		m.hdr.frames = msg.n
		return m, waitFrames(m.ctx, m.cfg.Reader.(waiter), msg.n)
	case connectedMsg, connectFailedMsg, toolsListedMsg, toolsChangedMsg, closedMsg:
		return m, m.connection(msg)
	case resourcesListedMsg, templatesListedMsg, promptsListedMsg:
		return m, m.listed(msg)
	case listTemplatesMsg:
		return m, m.listOnOpen()
	case listChangedMsg:
		return m, m.listChanged(msg)
	case readResourceMsg, choosePromptMsg, getPromptMsg:
		return m, m.catalogCall(msg)
	case chooseToolMsg, sendCallMsg, callDoneMsg, renderedMsg, editCallMsg, selectCallMsg, showFramesMsg, cancelCallMsg:
		return m, m.calling(msg)
	case progressMsg:
		// Progress that crossed before the response can be handed over
		// after the call came back: it is the call's all the same.
		if c := m.call(msg.id); c != nil {
			c.progress = append(c.progress, msg.p)
			if c.done && c.responseSize() <= largeResult {
				c.rendered = nil // drawn again, with this progress
			}
			m.result.sync()
		}
		return m, waitProgress(m.ctx, m.progress)
	case serverAskMsg, answerAskMsg, askDoneMsg, hideAskMsg, openAskMsg:
		return m, m.asking(msg)
	case setLogLevelMsg, logLevelSetMsg, closeLevelMsg:
		return m, m.levels(msg)
	case pinCallMsg, buildPinMsg, savePinMsg, pinBuiltMsg, pinSavedMsg, closePinMsg:
		return m, m.pinning(msg)
	case reproduceMsg, markMsg, compareMsg, closeCompareMsg:
		return m, m.reproducing(msg)
	case toolsIndexedMsg:
		for i, t := range msg.names {
			m.frames.toolOf[i] = t
		}
	case writeMsg:
		return m, write(m.cfg.SaveDir, msg.name, msg.data)
	case savedMsg:
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
		} else {
			m.setStatus("wrote "+msg.path, false)
		}
	case statusMsg:
		m.setStatus(msg.text, msg.isErr)
	}
	return m, nil
}

// drain handles the requests the panes queued while handling a message.
func (m *Model) drain(cmd tea.Cmd) tea.Cmd {
	cmds := []tea.Cmd{cmd}
	for len(m.out.msgs) > 0 {
		for _, msg := range m.out.take() {
			_, c := m.Update(msg)
			cmds = append(cmds, c)
		}
	}
	return tea.Batch(cmds...)
}

func (m *Model) setStatus(text string, isErr bool) { m.status, m.statusErr = text, isErr }

// framesOnly reports whether only the frames pane is shown: a recording
// opened read-only, before anything is reproduced from it.
func (m *Model) framesOnly() bool { return m.readOnly && !m.reproStarted }

func (m *Model) pane(id paneID) interface {
	update(tea.Msg) tea.Cmd
	help() []key.Binding
	typing() bool
	wheel(dy, y int)
} {
	switch id {
	case paneTools:
		return m.tools
	case paneEditor:
		return m.editor
	case paneResult:
		return m.result
	case paneResources:
		return m.res
	case panePrompts:
		return m.prompts
	}
	return m.frames
}

func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	m.status = ""
	if key.Matches(k, m.keys.ForceQuit) {
		return m.quit()
	}
	if m.overlay != overlayNone {
		return m.overlayKey(k)
	}
	if key.Matches(k, m.keys.CancelCall) {
		return m.drain(m.out.send(cancelCallMsg{id: m.result.openID()}))
	}
	p := m.pane(m.focus)
	if key.Matches(k, m.keys.Answer) && (!p.typing() || k.String() == "ctrl+o") {
		return m.drain(m.out.send(openAskMsg{}))
	}
	if p.typing() {
		switch {
		case key.Matches(k, m.keys.Next):
			m.cycle(+1)
		case key.Matches(k, m.keys.Prev):
			m.cycle(-1)
		case k.String() == "f1":
			m.openHelp()
		default:
			return p.update(k)
		}
		return nil
	}
	switch {
	case key.Matches(k, m.keys.Quit):
		return m.quit()
	case key.Matches(k, m.keys.Help):
		m.helpTop = 0
		m.openHelp()
	case key.Matches(k, m.keys.Next):
		m.cycle(+1)
		return m.listOnOpen()
	case key.Matches(k, m.keys.Prev):
		m.cycle(-1)
		return m.listOnOpen()
	case key.Matches(k, m.keys.Resources) && !m.framesOnly():
		m.setFocus(paneResources)
		return m.listOnOpen()
	case key.Matches(k, m.keys.Prompts) && !m.framesOnly():
		m.setFocus(panePrompts)
		return m.listOnOpen()
	case key.Matches(k, m.keys.Tools) && !m.framesOnly():
		m.setFocus(paneTools)
	case key.Matches(k, m.keys.Editor) && !m.framesOnly():
		m.setFocus(paneEditor)
	case key.Matches(k, m.keys.Result) && !m.framesOnly():
		m.setFocus(paneResult)
	case key.Matches(k, m.keys.Frames):
		m.setFocus(paneFrames)
	case key.Matches(k, m.keys.Info) && m.infoAvailable():
		m.overlay = overlayInfo
		m.overlayView.setDoc(infoDoc(m.info(), m.overlayView.width))
	case key.Matches(k, m.keys.Retry) && m.hdr.state == stateFailed:
		return m.retry()
	case key.Matches(k, m.keys.LogLevel) && m.session() != nil:
		if i := m.session().Info(); i.Era == "stateless" {
			m.setStatus(fmt.Sprintf("logging/setLevel is not available in protocol %s: the 2026-07-28 era removed it (connect with --protocol-version 2025-11-25 to use it)", i.ProtocolVersion), true)
			return nil
		}
		m.level.open()
		m.overlay = overlayLevel
	case key.Matches(k, m.keys.Relist) && m.session() != nil && (m.focus == paneResources || m.focus == panePrompts):
		return m.relist(m.focus, "refresh")
	case key.Matches(k, m.keys.Relist) && m.session() != nil:
		m.tools.loading = true
		m.setStatus("re-listing tools (tools/list on the wire)…", false)
		return listTools(m.ctx, m.session(), m.cfg.Timeout, "refresh")
	case m.hdr.state == stateFailed && m.focus != paneFrames:
		m.scrollFailure(k)
	default:
		return p.update(k)
	}
	return nil
}

func (m *Model) quit() tea.Cmd {
	m.cancel()
	return tea.Quit
}

func (m *Model) retry() tea.Cmd {
	m.attempt++
	m.hdr.state = stateConnecting
	m.connErr = nil
	m.setStatus(fmt.Sprintf("connecting (attempt %d)…", m.attempt), false)
	return connect(m.ctx, m.opts, m.cfg.Timeout, m.attempt)
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

func (m *Model) scrollFailure(k tea.KeyPressMsg) {
	sk := m.okeys.scrollKeys
	switch {
	case key.Matches(k, sk.Up):
		m.failure.scroll(-1)
	case key.Matches(k, sk.Down):
		m.failure.scroll(1)
	case key.Matches(k, sk.PageUp):
		m.failure.scroll(-m.failure.height)
	case key.Matches(k, sk.PageDown):
		m.failure.scroll(m.failure.height)
	}
}

func (m *Model) overlayKey(k tea.KeyPressMsg) tea.Cmd {
	switch m.overlay {
	case overlayPin:
		return m.pin.update(k)
	case overlayCompare:
		return m.cmp.update(k)
	case overlayAsk:
		return m.ask.update(k)
	case overlayLevel:
		return m.level.update(k)
	}
	v := &m.overlayView
	if key.Matches(k, m.okeys.Close) {
		m.overlay = overlayNone
		return nil
	}
	if m.overlay == overlayHelp {
		// The help is a few dozen lines: scroll it as lines.
		h := textView{height: v.height, rows: make([]int, len(m.helpLines)), top: m.helpTop}
		v = &h
		defer func() { m.helpTop = h.top }()
	}
	switch {
	case key.Matches(k, m.okeys.Up):
		v.scroll(-1)
	case key.Matches(k, m.okeys.Down):
		v.scroll(1)
	case key.Matches(k, m.okeys.PageUp):
		v.scroll(-max(v.height-1, 1))
	case key.Matches(k, m.okeys.PageDown):
		v.scroll(max(v.height-1, 1))
	case key.Matches(k, m.okeys.Home):
		v.home()
	case key.Matches(k, m.okeys.End):
		v.end()
	}
	return nil
}

// openHelp shows every key of the focused pane and the app-wide keys, drawn
// from the bindings that handle them.
func (m *Model) openHelp() {
	m.overlay = overlayHelp
	m.help.ShowAll = true
	m.help.SetWidth(m.overlayView.width)
	rows := max(m.overlayView.height-4, 4)
	paneKeys := m.pane(m.focus).help()
	var enabled []key.Binding
	for _, b := range paneKeys {
		if b.Enabled() {
			enabled = append(enabled, b)
		}
	}
	var b strings.Builder
	b.WriteString(m.st.heading.Render(paneNames[m.focus]+" keys") + "\n\n")
	b.WriteString(m.help.FullHelpView(columns(enabled, rows)) + "\n\n")
	b.WriteString(m.st.heading.Render("Everywhere") + "\n\n")
	b.WriteString(m.help.FullHelpView(columns(m.globalHelp(), rows)) + "\n\n")
	b.WriteString(m.st.muted.Render("esc closes this help"))
	m.helpLines = strings.Split(b.String(), "\n")
	m.helpTop = min(m.helpTop, max(len(m.helpLines)-m.overlayView.height, 0))
}

// overlayContent is what the open overlay shows.
func (m *Model) overlayContent() string {
	switch m.overlay {
	case overlayInfo:
		return m.overlayView.view(m.st)
	case overlayPin:
		return m.pin.view()
	case overlayCompare:
		return m.cmp.view()
	case overlayAsk:
		return m.ask.view()
	case overlayLevel:
		return m.level.view()
	}
	end := min(m.helpTop+m.overlayView.height, len(m.helpLines))
	return strings.Join(m.helpLines[min(m.helpTop, end):end], "\n")
}

func (m *Model) globalHelp() []key.Binding {
	k := m.keys
	k.Retry.SetEnabled(m.hdr.state == stateFailed)
	k.Relist.SetEnabled(m.session() != nil)
	k.Info.SetEnabled(m.infoAvailable())
	k.CancelCall.SetEnabled(m.result.openID() != 0)
	k.Answer.SetEnabled(len(m.asks) > 0)
	k.LogLevel.SetEnabled(m.session() != nil)
	switch m.focus {
	case paneResources:
		k.Relist.SetHelp("R", "re-list resources")
		if m.res.showTemplates {
			k.Relist.SetHelp("R", "re-list resource templates")
		}
	case panePrompts:
		k.Relist.SetHelp("R", "re-list prompts")
	}
	tools, editor, result, res, prompts := k.Tools, k.Editor, k.Result, k.Resources, k.Prompts
	for _, b := range []*key.Binding{&tools, &editor, &result, &res, &prompts} {
		b.SetEnabled(!m.framesOnly())
	}
	return []key.Binding{k.Next, k.Prev, tools, editor, result, k.Frames, res, prompts, k.Info, k.Retry, k.Relist, k.CancelCall, k.Answer, k.LogLevel, k.Help, k.Quit, k.ForceQuit}
}

func columns(bs []key.Binding, rows int) [][]key.Binding {
	var out [][]key.Binding
	for len(bs) > 0 {
		n := min(rows, len(bs))
		out = append(out, bs[:n])
		bs = bs[n:]
	}
	return out
}

// connection handles the session's life: opened, failed, tools listed.
func (m *Model) connection(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case connectedMsg:
		if msg.attempt != m.attempt || m.ctx.Err() != nil {
			return closeSession(msg.s)
		}
		m.sessMu.Lock()
		m.sess = msg.s
		m.sessMu.Unlock()
		m.hdr.info = msg.s.Info()
		if m.readOnly {
			// The header keeps naming the recording; the live server is what
			// recorded calls are reproduced against.
			i := msg.s.Info()
			m.hdr.repro = fmt.Sprintf("reproducing on %s %s (%s) ● connected", i.ServerName, i.ServerVersion, m.opts.Target.String())
			m.editor.readOnly = false
		} else {
			m.hdr.state = stateConnected
		}
		m.result.live = true
		m.status = ""
		m.tools.loading = true
		caps := map[string]json.RawMessage{}
		_ = json.Unmarshal(msg.s.Info().ServerCapabilities, &caps)
		_, hasRes := caps["resources"]
		_, hasPrompts := caps["prompts"]
		m.res.undeclared, m.res.templates.undeclared, m.prompts.undeclared = !hasRes, !hasRes, !hasPrompts
		m.res.listed, m.res.templates.listed, m.prompts.listed = false, false, false
		return tea.Batch(listTools(m.ctx, msg.s, m.cfg.Timeout, "connected"), m.listOnOpen())
	case connectFailedMsg:
		if msg.attempt != m.attempt || m.ctx.Err() != nil {
			return nil
		}
		if m.readOnly {
			// The recording stays on screen; r tries again.
			m.reproStarted, m.repro = false, nil
			m.hdr.repro = ""
			m.resize(m.width, m.height)
			m.setStatus(fmt.Sprintf("cannot reproduce: %s did not connect: %v (r tries again)", m.opts.Target.String(), msg.err), true)
			return nil
		}
		m.hdr.state, m.connErr = stateFailed, msg.err
		m.status = ""
		m.failure.setDoc(failureDoc(m.opts.Target, msg.err, m.failure.width))
	case toolsListedMsg:
		if msg.err != nil {
			m.tools.setError(msg.err)
			return nil
		}
		m.tools.setTools(msg.raw, msg.typed, msg.reason == "connected")
		if msg.reason != "connected" {
			m.setStatus("tools re-listed ("+msg.reason+"): "+m.tools.note, false)
		}
		if m.editor.tool != "" {
			if t := m.tools.tool(m.editor.tool); t != nil {
				m.editor.setSchema(t.Input)
			}
		}
		m.resize(m.width, m.height)
		if msg.reason == "connected" && m.repro != nil {
			m.startReproduce()
		}
	case toolsChangedMsg:
		cmds := []tea.Cmd{waitToolsChanged(m.ctx, m.toolsChanged)}
		if s := m.session(); s != nil {
			m.setStatus("the server sent notifications/tools/list_changed: re-listing", false)
			cmds = append(cmds, listTools(m.ctx, s, m.cfg.Timeout, "list_changed"))
		}
		return tea.Batch(cmds...)
	case closedMsg:
		m.hdr.state = stateClosed
		m.result.live = false
	}
	return nil
}

// calling handles tools chosen, calls sent and answered, and calls looked at.
func (m *Model) calling(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case chooseToolMsg:
		t := m.tools.tool(msg.name)
		if t == nil {
			return nil
		}
		m.editor.load(t.Name, t.Input, prefill(t.Input), len(m.calls))
		m.setFocus(paneEditor)
		return m.editor.startEditing()
	case sendCallMsg:
		s := m.session()
		if s == nil {
			m.setStatus("not connected: nothing can be sent (r retries)", true)
			return nil
		}
		m.nextID++
		c := &call{id: m.nextID, tool: msg.tool, args: msg.args, violations: msg.violations, withProgress: msg.progress, sent: time.Now()}
		if t := m.tools.tool(msg.tool); t != nil {
			c.output, c.def = t.Output, t.raw
		}
		if m.repro != nil && m.repro.Name == c.tool && m.repro.Answered() {
			c.baseline = m.repro
		}
		m.noteArguments(c)
		m.calls = append(m.calls, c)
		m.editor.histPos = len(m.calls)
		m.result.show(c.id)
		m.followCall()
		var progress chan<- progressMsg
		how := ""
		if c.withProgress {
			progress, how = m.progress, " with a progress token"
		}
		ctx, cancel := context.WithCancelCause(m.ctx)
		c.cancel = cancel
		if m.lay.tabs && m.focus == paneEditor {
			// One pane at a time: show the call, its progress and ctrl+x.
			m.setFocus(paneResult)
		}
		m.setStatus(fmt.Sprintf("call #%d: tools/call %s sent%s (ctrl+x cancels it)", c.id, c.tool, how), false)
		return callTool(ctx, s, m.cfg.Timeout, c.id, c.tool, c.args, progress)
	case cancelCallMsg:
		c := m.call(msg.id)
		if c == nil || c.done || c.cancel == nil {
			m.setStatus("no call is waiting for its response: there is nothing to cancel", true)
			return nil
		}
		if c.cancelledAt.IsZero() {
			c.cancelledAt = time.Now()
			c.cancel(session.ErrCancelled)
			m.result.sync()
			m.followCall() // the cancellation, and the progress that may still come
			m.setStatus(fmt.Sprintf("call #%d %s: cancelling (the SDK sends notifications/cancelled)…", c.id, c.tool), false)
		}
	case callDoneMsg:
		c := m.call(msg.id)
		if c == nil {
			return nil
		}
		c.finish(msg.ex, msg.err)
		var cmd tea.Cmd
		if c.responseSize() > largeResult {
			c.rendering = true
			cmd = renderCall(c)
		}
		if cur := m.result.current(); cur != nil && cur.id == c.id {
			m.result.sync()
			if c.outcome() != outcomeCancelled {
				// A cancelled call has no response to show; the frames
				// pane keeps following, so late progress stays in view.
				m.selectCallFrames(c, false)
			}
		}
		if m.lay.tabs && m.focus == paneEditor {
			m.setFocus(paneResult)
		}
		m.setStatus(fmt.Sprintf("call #%d %s: %s", c.id, c.title(), ansi.Strip(c.badge(m.st))), c.outcome() != outcomeOK)
		if c.baseline != nil && c.pinnable() && m.overlay == overlayNone {
			m.setFocus(paneResult)
			m.openCompare(*c.baseline, liveCall(c), c.id)
		}
		return cmd
	case renderedMsg:
		if c := m.call(msg.id); c != nil {
			c.rendering, c.rendered, c.partial = false, msg.doc, msg.partial
			m.result.shownAs = "" // redraw
			m.result.sync()
		}
	case editCallMsg:
		c := m.call(msg.id)
		if c == nil {
			return nil
		}
		if !c.isTool() {
			return m.editCatalogCall(c, msg.edit)
		}
		var input []byte
		if t := m.tools.tool(c.tool); t != nil {
			input = t.Input
		}
		pos := 0
		for i, x := range m.calls {
			if x.id == c.id {
				pos = i
			}
		}
		m.editor.load(c.tool, input, c.args, pos)
		m.setFocus(paneEditor)
		if msg.edit {
			m.editor.startEditing()
		}
		m.setStatus(fmt.Sprintf("arguments of call #%d loaded: edit, then ctrl+s sends a new call", c.id), false)
	case selectCallMsg:
		if c := m.call(msg.id); c != nil {
			m.selectCallFrames(c, false)
		}
	case showFramesMsg:
		if m.readOnly {
			m.setStatus("the frames pane shows the recording; a reproduced call's own frames are not in it (v shows its raw response)", true)
			return nil
		}
		if m.frames.selectSeq(msg.seq) {
			m.setFocus(paneFrames)
		}
	}
	return nil
}

func (m *Model) call(id int) *call {
	for _, c := range m.calls {
		if c.id == id {
			return c
		}
	}
	return nil
}

// selectCallFrames selects a call's response frame (its request is marked
// as the partner), or its request while it is unanswered.
func (m *Model) selectCallFrames(c *call, focus bool) {
	if c.ex == nil || m.readOnly {
		return // a reproduction's frames are not the recording's
	}
	f := c.ex.Response
	if f == nil {
		f = c.ex.Request
	}
	if f == nil {
		return
	}
	m.frames.grow(m.cfg.Reader.Len())
	if m.frames.selectSeq(f.Seq) && focus {
		m.setFocus(paneFrames)
	}
}

// followCall makes the frames pane follow the newest frames: a call was
// sent or cancelled, and what crosses now is its request, its progress, its
// cancellation. (A live session only: a recording's frames are not the
// reproduction's.)
func (m *Model) followCall() {
	if m.readOnly {
		return
	}
	m.frames.grow(m.cfg.Reader.Len())
	m.frames.followNewest()
}

func (m *Model) setFocus(id paneID) {
	m.focus = id
	m.tools.setFocus(id == paneTools)
	m.editor.setFocus(id == paneEditor)
	m.result.setFocus(id == paneResult)
	m.frames.setFocus(id == paneFrames)
	m.res.setFocus(id == paneResources)
	m.prompts.setFocus(id == panePrompts)
	if inLeftColumn(id) {
		m.left = id
	}
}

// cycle moves the focus to the next pane on screen: in tabs mode every
// pane in key order, side by side the four columns' panes.
func (m *Model) cycle(d int) {
	if m.framesOnly() {
		return
	}
	order := []paneID{m.left, paneEditor, paneResult, paneFrames}
	if m.lay.tabs {
		order = []paneID{paneTools, paneEditor, paneResult, paneFrames, paneResources, panePrompts}
	}
	i := 0
	for j, id := range order {
		if id == m.focus {
			i = j
		}
	}
	m.setFocus(order[(i+d+len(order))%len(order)])
}

func (m *Model) wheel(ms tea.Mouse) {
	dy := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		dy = -1
	case tea.MouseWheelDown:
		dy = 1
	default:
		return
	}
	if m.overlay == overlayInfo {
		m.overlayView.scroll(dy * 3)
		return
	}
	if m.overlay == overlayHelp {
		m.helpTop = max(min(m.helpTop+dy*3, len(m.helpLines)-m.overlayView.height), 0)
		return
	}
	if m.overlay == overlayPin {
		m.pin.wheel(dy)
		return
	}
	if m.overlay == overlayCompare {
		m.cmp.wheel(dy)
		return
	}
	if m.overlay == overlayAsk {
		m.ask.wheel(dy)
		return
	}
	for id := paneTools; id < paneCount; id++ {
		if !m.lay.visible[id] || (m.lay.tabs && id != m.focus) || (inLeftColumn(id) && id != m.left) {
			continue
		}
		r := m.lay.content(id)
		if r.contains(ms.X, ms.Y) {
			if m.hdr.state == stateFailed && id != paneFrames {
				m.failure.scroll(dy * 3)
				return
			}
			m.pane(id).wheel(dy, ms.Y-r.y-1)
			return
		}
	}
}

const footerH = 1

func (m *Model) resize(w, h int) {
	if w <= 0 || h <= 0 {
		return
	}
	m.width, m.height = w, h
	m.hdr.setSize(w)
	m.lay = arrange(w, h, 2, footerH, m.framesOnly())
	m.frames.split = m.framesOnly() && w >= 100
	m.frames.bodyFor = -1 // redraw: the split may have changed
	for id := paneTools; id < paneCount; id++ {
		r := m.lay.content(id)
		switch id {
		case paneTools:
			m.tools.setSize(r.w, r.h)
		case paneEditor:
			m.editor.setSize(r.w, r.h)
		case paneResult:
			m.result.setSize(r.w, r.h)
		case paneFrames:
			m.frames.setSize(r.w, r.h)
		case paneResources:
			m.res.setSize(r.w, r.h)
		case panePrompts:
			m.prompts.setSize(r.w, r.h)
		}
	}
	fr := m.failureRect()
	m.failure.setSize(fr.w, fr.h)
	if m.connErr != nil {
		m.failure.keepDoc(failureDoc(m.opts.Target, m.connErr, fr.w))
	}
	m.overlayView.setSize(max(w-4, 1), max(h-2-footerH-2, 1))
	m.pin.setSize(m.overlayView.width, m.overlayView.height)
	m.ask.setSize(m.overlayView.width, m.overlayView.height)
	if m.cmp != nil {
		m.cmp.setSize(m.overlayView.width, m.overlayView.height)
	}
	switch m.overlay {
	case overlayHelp:
		m.openHelp()
	case overlayInfo:
		m.overlayView.keepDoc(infoDoc(m.info(), m.overlayView.width))
	}
}

// failureRect is where the connection failure is explained: the tools and
// call columns, or the whole body in tabs mode.
func (m *Model) failureRect() rect {
	if m.lay.tabs {
		return m.lay.content(paneTools)
	}
	a, b := m.lay.panes[paneTools], m.lay.panes[paneResult]
	return rect{a.x + 1, a.y + 1, b.x + b.w - a.x - 2, a.h - 2}
}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "jig"
	if n := m.hdr.info.ServerName; n != "" {
		v.WindowTitle = "jig · " + n
	}
	return v
}

func (m *Model) render() string {
	if m.width == 0 || m.height == 0 {
		return ""
	}
	lines := make([]string, 0, m.height)
	lines = append(lines, fit(m.hdr.view(), m.width, 2)...)
	switch {
	case m.overlay != overlayNone:
		title := "Keys"
		switch m.overlay {
		case overlayInfo:
			title = "Server info"
		case overlayPin:
			title = fmt.Sprintf("Pin call #%d as a golden fixture", m.pin.callID)
		case overlayCompare:
			title = m.cmp.title()
		case overlayAsk:
			title = m.ask.title()
			if n := len(m.asks); n > 1 {
				title += fmt.Sprintf(" · 1 of %d waiting", n)
			}
		case overlayLevel:
			title = "Server log level (logging/setLevel)"
		}
		lines = append(lines, box(m.st, title, m.overlayContent(), m.width, m.height-2-footerH, true)...)
	case m.lay.tabs:
		if !m.framesOnly() {
			lines = append(lines, m.tabBar())
		}
		id := m.focus
		r := m.lay.content(id)
		if m.hdr.state == stateFailed && id != paneFrames {
			lines = append(lines, fit(m.failure.view(m.st), r.w, r.h)...)
		} else {
			lines = append(lines, fit(m.paneView(id), r.w, r.h)...)
		}
	default:
		lines = append(lines, m.columns()...)
	}
	lines = append(lines, m.footer())
	return strings.Join(lines, "\n")
}

func (m *Model) paneView(id paneID) string {
	switch id {
	case paneTools:
		return m.tools.view()
	case paneEditor:
		return m.editor.view()
	case paneResult:
		return m.result.view()
	case paneResources:
		return m.res.view()
	case panePrompts:
		return m.prompts.view()
	}
	return m.frames.view()
}

func (m *Model) paneTitle(id paneID) string {
	t := fmt.Sprintf("%d %s", id+1, paneNames[id])
	switch id {
	case paneTools:
		if len(m.tools.tools) > 0 {
			t += fmt.Sprintf(" (%d)", len(m.tools.tools))
		}
	case paneResult:
		if len(m.calls) > 0 {
			t += fmt.Sprintf(" (%d calls)", len(m.calls))
		}
	case paneResources:
		if m.res.listed && !m.res.loading && m.res.err == nil {
			t += fmt.Sprintf(" (%d)", len(m.res.items))
		}
	case panePrompts:
		if m.prompts.listed && !m.prompts.loading && m.prompts.err == nil {
			t += fmt.Sprintf(" (%d)", len(m.prompts.items))
		}
	case paneFrames:
		t += fmt.Sprintf(" (%s)", thousands(m.frames.n))
		if m.level.current != "" {
			t += " · log ≥ " + m.level.current
		}
	}
	return t
}

// columns draws the panes side by side: tools | arguments over result | frames.
func (m *Model) columns() []string {
	l := m.lay
	bodyH := l.panes[paneTools].h
	grid := make([]string, bodyH)
	var left, mid []string
	if m.hdr.state == stateFailed {
		w := l.panes[paneTools].w + l.panes[paneEditor].w
		left = box(m.st, "Connection", m.failure.view(m.st), w, bodyH, m.focus != paneFrames)
	} else {
		left = box(m.st, m.leftTitle(), m.paneView(m.left), l.panes[paneTools].w, bodyH, m.focus == m.left)
		mid = append(box(m.st, m.paneTitle(paneEditor), m.editor.view(), l.panes[paneEditor].w, l.panes[paneEditor].h, m.focus == paneEditor),
			box(m.st, m.paneTitle(paneResult), m.result.view(), l.panes[paneResult].w, l.panes[paneResult].h, m.focus == paneResult)...)
	}
	right := box(m.st, m.paneTitle(paneFrames), m.frames.view(), l.panes[paneFrames].w, bodyH, m.focus == paneFrames)
	for i := range grid {
		row := left[i]
		if mid != nil {
			row += mid[i]
		}
		grid[i] = row + right[i]
	}
	return grid
}

// leftTitle names the pane the left column shows and the keys of the two
// that share the column with it.
func (m *Model) leftTitle() string {
	long, short := m.paneTitle(m.left), m.paneTitle(m.left)
	for _, id := range []paneID{paneTools, paneResources, panePrompts} {
		if id != m.left {
			long += fmt.Sprintf(" · %d %s", id+1, strings.ToLower(paneNames[id]))
			short += fmt.Sprintf(" · %d", id+1)
		}
	}
	// box keeps w-4 cells for the title, with "▸ " and a space around it.
	if ansi.StringWidth(long)+4 <= m.lay.panes[paneTools].w-4 {
		return long
	}
	return short
}

// tabBar names every pane. When the titles do not fit, the tabs not shown
// lose their counts, then their names: the numbers still say which key.
func (m *Model) tabBar() string {
	var bar string
	for short := 0; short < 3; short++ {
		var parts []string
		for id := paneTools; id < paneCount; id++ {
			st, t := m.st.tabInactive, m.paneTitle(id)
			switch {
			case id == m.focus:
				st = m.st.tabActive
			case short == 1:
				t = fmt.Sprintf("%d %s", id+1, paneNames[id])
			case short == 2:
				t = fmt.Sprint(id + 1)
			}
			parts = append(parts, st.Render(t))
		}
		if bar = strings.Join(parts, ""); ansi.StringWidth(bar) <= m.width {
			break
		}
	}
	return fit(bar, m.width, 1)[0]
}

func (m *Model) footer() string {
	if m.status != "" {
		st := m.st.status
		if m.statusErr {
			st = m.st.statusError
		}
		return fit(st.Render(ansi.Truncate(m.status, m.width, "…")), m.width, 1)[0]
	}
	var bs []key.Binding
	switch {
	case m.overlay == overlayPin:
		for _, b := range m.pin.help() {
			if b.Enabled() {
				bs = append(bs, b)
			}
		}
	case m.overlay == overlayCompare:
		for _, b := range m.cmp.help() {
			if b.Enabled() {
				bs = append(bs, b)
			}
		}
	case m.overlay == overlayAsk:
		bs = m.ask.help()
	case m.overlay == overlayLevel:
		bs = m.level.help()
	case m.overlay != overlayNone:
		bs = []key.Binding{m.okeys.Close, m.okeys.Down, m.okeys.PageDown}
	default:
		// The footer names what is special here; the arrows go without saying.
		nav := map[string]bool{}
		for _, b := range newScrollKeys().list() {
			nav[b.Help().Key] = true
		}
		for _, b := range m.pane(m.focus).help() {
			if b.Enabled() && len(bs) < 6 && !nav[b.Help().Key] {
				bs = append(bs, b)
			}
		}
		if m.hdr.state == stateFailed {
			bs = append([]key.Binding{m.keys.Retry}, bs...)
		}
		if len(m.asks) > 0 {
			bs = append([]key.Binding{m.keys.Answer}, bs...)
		}
		if m.result.openID() != 0 {
			bs = append([]key.Binding{m.keys.CancelCall}, bs...)
		}
		bs = append(bs, m.keys.Next, m.keys.Help, m.keys.Quit)
	}
	h := m.help
	h.ShowAll = false
	h.SetWidth(m.width)
	return fit(h.ShortHelpView(bs), m.width, 1)[0]
}
