package ui

import (
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/importer"
)

// Reproducing a recorded call, and comparing any two calls. A recording is
// a hypothesis, not a reproduction: r takes one tools/call out of it, sends
// the same arguments (byte for byte, or as the user edits them) to a live
// server, and shows the old and new responses side by side with what the
// fixture comparator makes of the difference.

// reproducing handles the reproduce, mark and compare requests.
func (m *Model) reproducing(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case reproduceMsg:
		c, err := fixture.RecordedCall(m.cfg.Reader, msg.frame)
		if err != nil {
			m.setStatus("cannot reproduce: "+err.Error(), true)
			return nil
		}
		c.Label = m.frameLabel(c.Label)
		if !c.Answered() {
			m.setStatus(fmt.Sprintf("%s has no recorded response: it is sent again, but there is nothing to compare it with", c.Label), false)
		}
		m.repro = &c
		if m.session() != nil {
			if !m.tools.loading {
				m.startReproduce()
			}
			return nil
		}
		if m.cfg.Reproduce == nil {
			m.repro = nil
			m.setStatus("this recording names no server to reproduce against: give one, e.g. jig open FILE --demo --release 2, or -- node server.js", true)
			return nil
		}
		if m.reproStarted {
			return nil // connecting: the call loads when the tools are listed
		}
		m.opts = *m.cfg.Reproduce
		if m.opts.Log == nil {
			m.opts.Log = frames.NewLog(nil)
		}
		m.reproStarted = true
		m.attempt++
		m.hdr.repro = "reproducing on " + m.opts.Target.String() + " · connecting…"
		m.resize(m.width, m.height)
		m.setStatus(fmt.Sprintf("connecting to %s to reproduce %s…", m.opts.Target.String(), c.Label), false)
		return connect(m.ctx, m.opts, m.cfg.Timeout, m.attempt)
	case markMsg:
		c, err := m.resolve(msg.ref)
		if err != nil {
			m.setStatus("cannot mark it: "+err.Error(), true)
			return nil
		}
		m.mark = &c
		m.frames.hasMark, m.result.hasMark = true, true
		m.frames.markIdx = -1
		if msg.ref.id == 0 {
			m.frames.markIdx = requestIndex(m.cfg.Reader, msg.ref.frame)
		}
		m.setStatus(fmt.Sprintf("marked %s (%s): select another call and press c to compare it with this one", c.Label, c.Name), false)
	case compareMsg:
		if m.mark == nil {
			m.setStatus("mark a call first (m), then compare another with it (c)", true)
			return nil
		}
		c, err := m.resolve(msg.ref)
		if err != nil {
			m.setStatus("cannot compare it: "+err.Error(), true)
			return nil
		}
		m.openCompare(*m.mark, c, msg.ref.id)
	case closeCompareMsg:
		if m.overlay == overlayCompare {
			m.overlay = overlayNone
		}
	}
	return nil
}

// startReproduce loads the call being reproduced into the editor, with
// its arguments exactly as the client sent them.
func (m *Model) startReproduce() {
	r := m.repro
	var input json.RawMessage
	note := ""
	// A transcript names tools as the client offered them to the model
	// (mcp__orders__search_orders): the call goes to the server's tool.
	match := importer.MatchTool(r.Name, m.tools.names())
	switch {
	case match.OK() && match.How != "":
		note = fmt.Sprintf(" (%s is the server's %s: %s)", r.Name, match.Name, match.How)
		r.Name = match.Name
	case !match.OK():
		note = fmt.Sprintf(" (%s: %s; what it says is evidence too)", r.Name, match.How)
	}
	if t := m.tools.tool(r.Name); t != nil {
		input = t.Input
	}
	args := string(r.Arguments)
	if len(args) == 0 {
		args = "{}"
	}
	m.editor.load(r.Name, input, args, len(m.calls))
	m.setFocus(paneEditor)
	m.editor.startEditing()
	m.setStatus(fmt.Sprintf("reproducing %s: its arguments exactly as sent; edit them or ctrl+s to send%s", r.Label, note), false)
}

// frameLabel names a frame of the frames pane: in a recording it is
// "recorded #7", in a live session "frame #7".
func (m *Model) frameLabel(seq string) string {
	if m.readOnly {
		return "recorded " + seq
	}
	return "frame " + seq
}

// resolve turns a reference into the call it names.
func (m *Model) resolve(ref callRef) (fixture.Call, error) {
	if ref.id > 0 {
		c := m.call(ref.id)
		switch {
		case c == nil:
			return fixture.Call{}, fmt.Errorf("call #%d is gone", ref.id)
		case !c.done || c.ex == nil:
			return fixture.Call{}, fmt.Errorf("call #%d has no response yet", ref.id)
		}
		return liveCall(c), nil
	}
	c, err := fixture.RecordedCall(m.cfg.Reader, ref.frame)
	if err != nil {
		return fixture.Call{}, err
	}
	c.Label = m.frameLabel(c.Label)
	if !c.Answered() {
		return fixture.Call{}, fmt.Errorf("%s has no response", c.Label)
	}
	return c, nil
}

// liveCall is a call of this session as the comparator sees it.
func liveCall(c *call) fixture.Call {
	out := fixture.Call{Label: fmt.Sprintf("call #%d", c.id), Name: c.tool, Arguments: json.RawMessage(c.args), Tool: c.def}
	if c.ex != nil {
		out.Result, out.Error = c.ex.Result, c.ex.Error
		if c.ex.Request != nil {
			var env struct {
				Params json.RawMessage `json:"params"`
			}
			if json.Unmarshal(c.ex.Request.Raw, &env) == nil {
				out.Params = env.Params
			}
		}
	}
	if out.Params == nil {
		out.Params, _ = json.Marshal(map[string]any{"name": c.tool, "arguments": json.RawMessage(c.args)})
	}
	return out
}

// requestIndex is the request of the call at frame index i.
func requestIndex(r frames.Reader, i int) int {
	if r.Frame(i).IsResponse() {
		return r.Partner(i)
	}
	return i
}

// openCompare shows b against a; newID is b's call id when b is a call of
// this session (so it can be pinned or edited from the comparison).
func (m *Model) openCompare(a, b fixture.Call, newID int) {
	v, err := newCompareView(m.st, &m.out, a, b, newID)
	if err != nil {
		m.setStatus("cannot compare: "+err.Error(), true)
		return
	}
	m.cmp = v
	m.cmp.setSize(m.overlayView.width, m.overlayView.height)
	m.overlay = overlayCompare
	m.setStatus(fmt.Sprintf("%s → %s: %s · %s", a.Label, b.Label, fixture.DescribeArguments(v.differ, ""), v.verdict()), v.drifted())
}

// noteArguments says how a new call's arguments differ from what it is
// compared with: the recorded call it reproduces, or else the previous call
// of the same tool.
func (m *Model) noteArguments(c *call) {
	var from string
	var prev json.RawMessage
	switch {
	case c.baseline != nil:
		from, prev = c.baseline.Label, c.baseline.Arguments
	default:
		for i := len(m.calls) - 1; i >= 0; i-- {
			if p := m.calls[i]; p != c && p.tool == c.tool {
				from, prev = fmt.Sprintf("call #%d", p.id), json.RawMessage(p.args)
				break
			}
		}
	}
	if from == "" {
		return
	}
	names, err := fixture.ArgumentsDiffer(prev, json.RawMessage(c.args))
	if err != nil {
		return // the editor refuses invalid JSON; a non-object has nothing to name
	}
	c.argsNote, c.argsSame = fixture.DescribeArguments(names, from), len(names) == 0
}
