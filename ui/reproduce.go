package ui

import (
	"encoding/json"
	"fmt"
	"strings"

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

// reproduction is what a recording's calls are reproduced and compared
// with: the recorded call being reproduced, whether its connection was
// started, and the open comparison.
type reproduction struct {
	call    *fixture.Call
	started bool // a read-only Model began connecting to reproduce
}

// reproduce takes the recorded tools/call at a frame to a live server: it
// connects first (to the recording's own target unless another was given),
// then loads its exact arguments into the editor.
func (m *Model) reproduce(msg reproduceMsg) tea.Cmd {
	c, err := fixture.RecordedCall(m.cfg.Reader, msg.frame)
	if err != nil {
		m.setStatus("cannot reproduce: "+err.Error(), true)
		return nil
	}
	c.Label = m.frameLabel(c.Label)
	if !c.Answered() {
		m.setStatus(fmt.Sprintf("%s has no recorded response: it is sent again, but there is nothing to compare it with", c.Label), false)
	}
	m.repro.call = &c
	conn := m.conn()
	switch {
	case m.session() != nil:
		if !m.tools().loading {
			m.startReproduce()
		}
		return nil
	case conn.reproduce == nil && conn.refused != "":
		m.repro.call = nil
		m.setStatus(conn.refused, true)
		return nil
	case conn.reproduce == nil:
		m.repro.call = nil
		m.setStatus("this recording names no server to reproduce against: give one, e.g. jig open FILE --demo --release 2, or -- node server.js", true)
		return nil
	case m.repro.started:
		return nil // connecting: the call loads when the tools are listed
	}
	conn.opts = *conn.reproduce
	conn.opts.Sampling, conn.opts.Elicit = m.asks.asker.sampling, m.asks.asker.elicit
	if conn.opts.Log == nil {
		conn.opts.Log = frames.NewLog(nil)
	}
	m.repro.started = true
	m.hdr.repro = "reproducing on " + conn.opts.Target.String() + " · connecting…"
	m.resize(m.lay.width, m.lay.height)
	recording := ""
	if m.cfg.RecordReproduction != nil {
		// Every session jig opens is recorded; so is a reproduction.
		switch path, err := m.cfg.RecordReproduction(); {
		case err != nil:
			m.setStatus(fmt.Sprintf("connecting to %s to reproduce %s — not recorded: %v", conn.opts.Target.String(), c.Label, err), true)
			return m.connect()
		case path != "":
			recording = " · recording to " + path
		}
	}
	m.setStatus(fmt.Sprintf("connecting to %s to reproduce %s…%s", conn.opts.Target.String(), c.Label, recording), false)
	return m.connect()
}

// markCall marks a call as the one others are compared with.
func (m *Model) markCall(msg markMsg) tea.Cmd {
	c, err := m.resolve(msg.ref)
	if err != nil {
		m.setStatus("cannot mark it: "+err.Error(), true)
		return nil
	}
	l := m.calls()
	l.mark, l.markFrame = &c, -1
	if msg.ref.id == 0 {
		l.markFrame = requestIndex(m.cfg.Reader, msg.ref.frame)
	}
	m.setStatus(fmt.Sprintf("marked %s (%s): select another call and press c to compare it with this one", c.Label, c.Name), false)
	return nil
}

// compareCall compares a call with the marked one.
func (m *Model) compareCall(msg compareMsg) tea.Cmd {
	mark := m.calls().mark
	if mark == nil {
		m.setStatus("mark a call first (m), then compare another with it (c)", true)
		return nil
	}
	c, err := m.resolve(msg.ref)
	if err != nil {
		m.setStatus("cannot compare it: "+err.Error(), true)
		return nil
	}
	m.openCompare(*mark, c, msg.ref.id)
	return nil
}

// startReproduce loads the call being reproduced into the editor, with
// its arguments exactly as the client sent them.
func (m *Model) startReproduce() {
	r := m.repro.call
	var input json.RawMessage
	note := ""
	// A transcript names tools as the client offered them to the model
	// (mcp__orders__search_orders): the call goes to the server's tool.
	match := importer.MatchTool(r.Name, m.tools().names())
	switch {
	case match.OK() && match.How != "":
		note = fmt.Sprintf(" (%s is the server's %s: %s)", r.Name, match.Name, match.How)
		r.Name = match.Name
	case !match.OK():
		note = fmt.Sprintf(" (%s: %s; what it says is evidence too)", r.Name, match.How)
	}
	if t := m.tools().tool(r.Name); t != nil {
		input = t.Input
		m.tools().selectName(t.Name) // the details say the tool reproduced, not the one selected before
	}
	args := string(r.Arguments)
	if len(args) == 0 {
		args = "{}"
	}
	m.editor().load(r.Name, input, args, len(m.calls().list))
	m.setFocus(paneEditor)
	m.editor().startEditing()
	if red := fixture.RedactedArguments(json.RawMessage(args)); len(red) > 0 {
		m.setStatus(fmt.Sprintf("reproducing %s: %s redacted in the recording — type the real value, then ctrl+s%s", r.Label, strings.Join(red, ", "), note), true)
		return
	}
	m.setStatus(fmt.Sprintf("reproducing %s: its arguments exactly as sent; edit them or ctrl+s to send%s", r.Label, note), false)
}

// frameLabel names a frame of the frames pane: in a recording it is
// "recorded #7", in a live session "frame #7".
func (m *Model) frameLabel(seq string) string {
	if m.conn().readOnly {
		return "recorded " + seq
	}
	return "frame " + seq
}

// resolve turns a reference into the call it names.
func (m *Model) resolve(ref callRef) (fixture.Call, error) {
	if ref.id > 0 {
		c := m.calls().byID(ref.id)
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
	v, err := newCompareView(m.st(), m.env.out, m.env.redact, a, b, newID)
	if err != nil {
		m.setStatus("cannot compare: "+err.Error(), true)
		return
	}
	m.openOverlay(v)
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
		for i := len(m.calls().list) - 1; i >= 0; i-- {
			if p := m.calls().list[i]; p != c && p.tool == c.tool {
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
