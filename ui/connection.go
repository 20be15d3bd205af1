package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// A connection is the session's life as the UI sees it: the options it
// opens with, the open session, which attempt is the current one, and why
// the last one failed. A recording opened read-only has none until a
// recorded call is reproduced against a live server.
type connection struct {
	opts      session.Options
	readOnly  bool             // showing a recording: nothing is sent but a reproduction
	reproduce *session.Options // the server recorded calls are reproduced on, or nil
	// refused says why, with reproduce nil, the recording's own server is
	// not reproduced on (Config.ReproduceRefused).
	refused string
	timeout time.Duration

	mu       sync.Mutex // Close may run on another goroutine than Update
	sess     *session.Session
	attempt  int
	err      error        // why the last attempt failed, while it is the state
	failure  textView     // that explained
	logLevel string       // the level logging/setLevel last set, "" when never
	raw      *rawComposer // the raw message composer, kept between openings (nil until X)
	// The session's notices of list_changed for tools, resources and
	// prompts, for waiting commands to deliver to Update.
	toolsChanged, resourcesChanged, promptsChanged chan struct{}
	updated                                        chan string // notifications/resources/updated, by URI
}

func newConnection(cfg *Config, a *asker) *connection {
	c := &connection{readOnly: cfg.Options == nil, reproduce: cfg.Reproduce, refused: cfg.ReproduceRefused, timeout: cfg.Timeout, failure: textView{red: cfg.Redact.Base()}}
	if !c.readOnly {
		c.opts = *cfg.Options
		// The server's requests for a human come to the TUI's dialog.
		c.opts.Sampling, c.opts.Elicit = a.sampling, a.elicit
		if c.opts.Log == nil {
			c.opts.Log = frames.NewLog(nil)
		}
		if cfg.Reader == nil {
			cfg.Reader = c.opts.Log
		}
		c.toolsChanged, c.resourcesChanged, c.promptsChanged = make(chan struct{}, 1), make(chan struct{}, 1), make(chan struct{}, 1)
		c.opts.OnToolsChanged = notice(c.opts.OnToolsChanged, c.toolsChanged)
		c.opts.OnResourcesChanged = notice(c.opts.OnResourcesChanged, c.resourcesChanged)
		c.opts.OnPromptsChanged = notice(c.opts.OnPromptsChanged, c.promptsChanged)
		c.updated = make(chan string, 16)
		prev := c.opts.OnResourceUpdated
		c.opts.OnResourceUpdated = func(uri string) {
			if prev != nil {
				prev(uri)
			}
			select {
			case c.updated <- uri:
			default: // a burst: the status line says the latest ones
			}
		}
	}
	if cfg.Reader == nil {
		cfg.Reader = frames.NewLog(nil)
	}
	return c
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

// waitChanges waits for the server's list_changed notices.
func (c *connection) waitChanges(ctx context.Context) tea.Cmd {
	return tea.Batch(waitToolsChanged(ctx, c.toolsChanged),
		waitListChanged(ctx, c.resourcesChanged, paneResources), waitListChanged(ctx, c.promptsChanged, panePrompts),
		waitResourceUpdated(ctx, c.updated))
}

func (c *connection) session() *session.Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess
}

func (c *connection) setSession(s *session.Session) {
	c.mu.Lock()
	c.sess = s
	c.mu.Unlock()
}

// close ends the session, if one is open.
func (c *connection) close() error {
	c.mu.Lock()
	s := c.sess
	c.sess = nil
	c.mu.Unlock()
	if s == nil {
		return nil
	}
	return s.Close()
}

// failed reports whether the last attempt to connect failed (and no
// session is open): the panes but the frames explain why.
func (c *connection) failed() bool { return c.err != nil }

// down reports whether there is nothing to send on: the last attempt
// failed, or the session's server went away on its own. r reconnects.
func (m *Model) down() bool {
	return m.conn().failed() || m.hdr.state == stateGone || m.hdr.state == stateNotAnswering
}

// failureActions scroll the explanation of a failed connection.
func (c *connection) failureActions() []action {
	k := newScrollKeys()
	page := max(c.failure.height, 1)
	return []action{
		on(k.Up, does(func() { c.failure.scroll(-1) })),
		on(k.Down, does(func() { c.failure.scroll(1) })),
		on(k.PageUp, does(func() { c.failure.scroll(-page) })),
		on(k.PageDown, does(func() { c.failure.scroll(page) })),
	}
}

// connect starts a new attempt with the connection's options.
func (m *Model) connect() tea.Cmd {
	c := m.conn()
	c.attempt++
	return connect(m.ctx, c.opts, c.timeout, c.attempt)
}

func (m *Model) retry() tea.Cmd {
	c := m.conn()
	c.err = nil
	var cmds []tea.Cmd
	if m.hdr.state == stateGone || m.hdr.state == stateNotAnswering {
		// The old session's server is gone; closing it reaps what is left.
		// It closes first (within a bound: a server that hangs does not
		// hold the reconnect), so its DELETE and the answer to it are the
		// old session's frames, not read as the new one's.
		if s := c.session(); s != nil {
			c.setSession(nil)
			cmds = append(cmds, closeWithin(s, closeBeforeReconnect))
		}
	}
	if log := c.opts.Log; log != nil && log.Len() > 0 {
		// One Log holds every session: say where the next begins, since
		// its request ids start again (a second id=2 is not the first's).
		note := fmt.Sprintf("jig: reconnecting (attempt %d): a new session begins here; its request ids start again", c.attempt+1)
		cmds = append(cmds, func() tea.Msg {
			log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, Note: note})
			return nil
		})
	}
	m.hdr.state, m.hdr.gone = stateConnecting, ""
	m.setStatus(fmt.Sprintf("connecting (attempt %d)…", c.attempt+1), false)
	return tea.Sequence(append(cmds, m.connect())...)
}

func (m *Model) connected(msg connectedMsg) tea.Cmd {
	c := m.conn()
	if msg.attempt != c.attempt || m.ctx.Err() != nil {
		return closeSession(msg.s)
	}
	c.setSession(msg.s)
	c.err = nil
	info := msg.s.Info()
	m.hdr.info = info
	if c.readOnly {
		// The header keeps naming the recording; the live server is what
		// recorded calls are reproduced against.
		m.hdr.repro = fmt.Sprintf("reproducing on %s (%s) ● connected", frames.ServerLabel(info.ServerName, info.ServerVersion), c.opts.Target.String())
	} else {
		m.hdr.state = stateConnected
	}
	m.status.statusLine = statusLine{}
	caps := map[string]json.RawMessage{}
	_ = json.Unmarshal(info.ServerCapabilities, &caps)
	_, hasResources := caps["resources"]
	_, hasPrompts := caps["prompts"]
	m.tools().startListing()
	m.resources().reset(hasResources)
	m.prompts().reset(hasPrompts)
	cmds := []tea.Cmd{listTools(m.ctx, msg.s, c.timeout, "connected"), m.listOnOpen(), waitGone(msg.s), waitAnswering(msg.s, "")}
	for _, p := range m.panes {
		cmds = append(cmds, p.update(connectedEvent{}))
	}
	return tea.Batch(cmds...)
}

func (m *Model) connectFailed(msg connectFailedMsg) tea.Cmd {
	c := m.conn()
	if msg.attempt != c.attempt || m.ctx.Err() != nil {
		return nil
	}
	if c.readOnly {
		// The recording stays on screen; r tries again.
		m.repro.started, m.repro.call = false, nil
		m.hdr.repro = ""
		m.resize(m.lay.width, m.lay.height)
		m.setStatus(fmt.Sprintf("cannot reproduce: %s did not connect: %v (r tries again)", c.opts.Target.String(), msg.err), true)
		return nil
	}
	m.hdr.state, c.err = stateFailed, msg.err
	m.status.statusLine = statusLine{}
	c.failure.setDoc(failureDoc(c.opts.Target, msg.err, c.failure.width))
	return nil
}

func (m *Model) toolsListed(msg toolsListedMsg) tea.Cmd {
	t := m.tools()
	if msg.err != nil {
		t.setError(msg.err)
		return nil
	}
	t.setTools(msg.raw, msg.typed, msg.reason == "connected", msg.findings)
	if msg.reason != "connected" {
		m.sayListed("tools re-listed ("+msg.reason+"): "+t.relisted, msg.reason)
	}
	if e := m.editor(); e.tool != "" && !e.prompt {
		if d := t.tool(e.tool); d != nil {
			e.setSchema(d.Input)
		}
	}
	m.resize(m.lay.width, m.lay.height)
	if msg.reason == "connected" && m.cfg.Tool != "" {
		m.loadStartCall()
	}
	if msg.reason == "connected" && m.repro.call != nil {
		m.startReproduce()
	}
	if p := m.attr.pending; p != nil {
		return m.startAttribution(*p)
	}
	return nil
}

func (m *Model) toolsChanged() tea.Cmd {
	cmds := []tea.Cmd{waitToolsChanged(m.ctx, m.conn().toolsChanged)}
	if s := m.session(); s != nil {
		m.setNotice("the server sent notifications/tools/list_changed: re-listing")
		cmds = append(cmds, listTools(m.ctx, s, m.conn().timeout, "list_changed"))
	}
	return tea.Batch(cmds...)
}

// gone is the session's server going away on its own: the header stops
// saying connected, the panes keep what the server said, r reconnects.
func (m *Model) gone(msg goneMsg) tea.Cmd {
	c := m.conn()
	if c.session() != msg.s || m.ctx.Err() != nil {
		return nil // a session jig already replaced or is closing
	}
	if c.readOnly {
		// The recording stays; what was reproducing on the server (an
		// attribution) reports its own failure.
		m.hdr.repro = strings.Replace(m.hdr.repro, "● connected", "✗ gone: "+msg.why, 1)
		return nil
	}
	m.hdr.state, m.hdr.gone = stateGone, msg.why
	m.setStatus(msg.why+": r reconnects", true)
	return nil
}

// answering is a change in whether the session's HTTP server answers:
// the header says NOT ANSWERING from the first request that found nobody
// (the SDK gives the connection up only after its retries, if ever), and
// connected again when a request gets through.
func (m *Model) answering(msg answeringMsg) tea.Cmd {
	c := m.conn()
	if c.session() != msg.s || m.ctx.Err() != nil || c.readOnly {
		return nil // a session jig already replaced or is closing: stop watching
	}
	switch {
	case msg.why != "" && m.hdr.state == stateConnected:
		m.hdr.state, m.hdr.gone = stateNotAnswering, msg.why
		m.setStatus("the server did not answer ("+msg.why+"): r reconnects", true)
	case msg.why != "" && m.hdr.state == stateNotAnswering:
		m.hdr.gone = msg.why
	case msg.why == "" && m.hdr.state == stateNotAnswering:
		m.hdr.state, m.hdr.gone = stateConnected, ""
		m.setStatus("the server answers again", false)
	case m.hdr.state == stateGone || m.hdr.state == stateClosed:
		return nil
	}
	return waitAnswering(msg.s, msg.why)
}

func (m *Model) closed(msg closedMsg) tea.Cmd {
	if c := m.conn(); c.session() != nil && c.session() != msg.s || m.hdr.state != stateConnected {
		return nil // a stale attempt's session, or a gone one, was closed: nothing changed here
	}
	m.hdr.state = stateClosed
	var cmds []tea.Cmd
	for _, p := range m.panes {
		cmds = append(cmds, p.update(connectedEvent{closed: true}))
	}
	return tea.Batch(cmds...)
}

// framesGrew takes in new frames and waits for more.
func (m *Model) framesGrew(msg framesMsg) tea.Cmd {
	m.frames().grow(msg.n)
	m.hdr.frames = msg.n
	m.hdr.readHandshake(m.cfg.Reader)
	return waitFrames(m.ctx, m.cfg.Reader.(waiter), msg.n)
}
