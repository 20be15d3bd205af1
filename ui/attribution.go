package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/importer"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/attribute"
)

// Attribution, one argument at a time: with a call marked (m), a on another
// call of the same tool changes one argument at a time from the marked
// call's arguments to this one's, each step sent as a call of this session
// (so it can be looked at, edited and pinned like any other), and shows
// which change moved the result and how (session/attribute).

// attribution is the attribution in progress or shown: its run, the two
// calls it goes between, and the session call of each step.
type attribution struct {
	// pending holds the two calls while a read-only Model connects.
	pending *[2]fixture.Call
	run     *attribute.Run
	ends    [2]attribute.End
	// calls are the session call ids of the steps, by plan point (0: not sent).
	calls []int
	view  *attributionView
}

// attributeCall starts attributing the difference between the marked call
// and the call ref names.
func (m *Model) attributeCall(msg attributeMsg) tea.Cmd {
	mark := m.calls().mark
	if mark == nil {
		m.setStatus("mark a call first (m), then press a on another call of the same tool", true)
		return nil
	}
	b, err := m.resolveAny(msg.ref)
	if err != nil {
		m.setStatus("cannot attribute it: "+err.Error(), true)
		return nil
	}
	ends := [2]fixture.Call{*mark, b}
	if m.session() != nil {
		if m.tools().loading {
			m.attr.pending = &ends
			return nil
		}
		return m.startAttribution(ends)
	}
	conn := m.conn()
	if conn.reproduce == nil {
		m.setStatus("attribution runs against a live server, and this recording names none: give one, e.g. jig open FILE --demo, or -- node server.js", true)
		return nil
	}
	m.attr.pending = &ends
	if m.repro.started {
		return nil // connecting: the attribution starts when the tools are listed
	}
	conn.opts = *conn.reproduce
	conn.opts.Sampling, conn.opts.Elicit = m.asks.asker.sampling, m.asks.asker.elicit
	if conn.opts.Log == nil {
		conn.opts.Log = frames.NewLog(nil)
	}
	m.repro.started = true
	m.hdr.repro = "attributing on " + conn.opts.Target.String() + " · connecting…"
	m.resize(m.lay.width, m.lay.height)
	m.setStatus(fmt.Sprintf("connecting to %s to attribute %s → %s…", conn.opts.Target.String(), mark.Label, b.Label), false)
	return m.connect()
}

// resolveAny is resolve for a call that need not have a response: a
// transcript's call may have none, and attribution sends it anyway.
func (m *Model) resolveAny(ref callRef) (fixture.Call, error) {
	if ref.id > 0 {
		return m.resolve(ref)
	}
	c, err := fixture.RecordedCall(m.cfg.Reader, ref.frame)
	if err != nil {
		return fixture.Call{}, err
	}
	c.Label = m.frameLabel(c.Label)
	return c, nil
}

// startAttribution plans the steps and sends the first.
func (m *Model) startAttribution(ends [2]fixture.Call) tea.Cmd {
	m.attr.pending = nil
	names := m.tools().names()
	ma, mb := importer.MatchTool(ends[0].Name, names), importer.MatchTool(ends[1].Name, names)
	switch {
	case !ma.OK():
		m.setStatus(fmt.Sprintf("cannot attribute: %s calls %s: %s", ends[0].Label, ends[0].Name, ma.How), true)
		return nil
	case !mb.OK():
		m.setStatus(fmt.Sprintf("cannot attribute: %s calls %s: %s", ends[1].Label, ends[1].Name, mb.How), true)
		return nil
	case ma.Name != mb.Name:
		m.setStatus(fmt.Sprintf("cannot attribute: %s calls %s and %s calls %s: attribution changes the arguments of one tool", ends[0].Label, ma.Name, ends[1].Label, mb.Name), true)
		return nil
	}
	plan, err := attribute.NewPlan(ma.Name, ends[0].Arguments, ends[1].Arguments)
	if err != nil {
		m.setStatus(fmt.Sprintf("cannot attribute %s → %s: %v", ends[0].Label, ends[1].Label, err), true)
		return nil
	}
	a := m.attr
	a.run = attribute.NewRun(plan, m.session())
	a.calls = make([]int, len(plan.Points))
	for i, c := range ends {
		// A recorded end of an agent transcript (not a client's log) is
		// the client's rendering; a live call ("call #3") is not recorded.
		rendering := strings.Contains(m.cfg.Record, "the client's rendering") && !strings.HasPrefix(c.Label, "call #")
		a.ends[i] = attribute.End{Label: c.Label, Rendering: rendering}
		if c.Answered() {
			s := attribute.Summarize(c.Result, c.Error)
			a.ends[i].Recorded = &s
		}
	}
	a.view = newAttributionView(m.st(), m.env.out, m.env.redact, a)
	m.openOverlay(a.view)
	return m.nextStep()
}

// nextStep sends the next point of the plan as a call of this session.
func (m *Model) nextStep() tea.Cmd {
	a := m.attr
	i := len(a.run.Steps)
	plan := a.run.Plan
	if i >= len(plan.Points) {
		m.setStatus(fmt.Sprintf("attribution done: %d steps · %s", len(plan.Points), a.run.Lines(a.ends[0], a.ends[1])[1]), false)
		return nil
	}
	pt := plan.Points[i]
	c := &call{tool: plan.Tool, args: string(pt.Arguments), attributionStep: i + 1}
	if t := m.tools().tool(plan.Tool); t != nil {
		c.output, c.def = t.Output, t.raw
	}
	cmd := m.startCall(c, func(ctx context.Context, s *session.Session) tea.Cmd {
		return callTool(ctx, s, m.conn().timeout, c.id, c.tool, c.args, nil)
	})
	if cmd == nil {
		a.run.Record(i, nil, fmt.Errorf("not connected"))
		a.view.refresh()
		return nil
	}
	a.calls[i] = c.id
	m.setStatus(fmt.Sprintf("attribution step %d/%d (%s): call #%d sent", i+1, len(plan.Points), pt.Label(len(plan.Vars)), c.id), false)
	if m.overlay != a.view {
		m.openOverlay(a.view)
	}
	return cmd
}

// attributionStepDone records a finished step and sends the next, unless
// the server stopped answering.
func (m *Model) attributionStepDone(c *call) tea.Cmd {
	a := m.attr
	if a.run == nil || c.attributionStep != len(a.run.Steps)+1 {
		return nil // a step of an attribution that was replaced
	}
	st := a.run.Record(c.attributionStep-1, c.ex, c.err)
	a.view.refresh()
	if st.Err != nil {
		m.setStatus(fmt.Sprintf("attribution stopped at step %d: the server did not answer (%v); the %d steps before it are kept", st.Point+1, st.Err, st.Point), true)
		return nil
	}
	return m.nextStep()
}

// attributionView shows an attribution as it runs: the steps, one per
// line, to pick one to pin or edit, and below them the report, which
// scrolls on its own.
type attributionView struct {
	st   *styles
	keys attributionKeys
	out  *outbox
	a    *attribution

	steps  textView
	report textView
	sel    int // the selected step (plan point)
	w, h   int
}

func newAttributionView(st *styles, out *outbox, red *frames.Redactor, a *attribution) *attributionView {
	v := &attributionView{st: st, keys: newAttributionKeys(), out: out, a: a, steps: textView{red: red}, report: textView{red: red}}
	v.refresh()
	return v
}

func (v *attributionView) title() string {
	r := v.a.run
	return fmt.Sprintf("Attribute %s → %s · %d/%d steps", v.a.ends[0].Label, v.a.ends[1].Label, len(r.Steps), len(r.Plan.Points))
}

func (v *attributionView) typing() bool { return false }

func (v *attributionView) setSize(w, h int) {
	v.w, v.h = w, h
	v.refresh()
}

// refresh redraws the steps and the report from the run so far, keeping
// the report's scroll and the selected step in view.
func (v *attributionView) refresh() {
	r := v.a.run
	n := len(r.Plan.Points)
	stepsH := min(n+1, max(v.h/3, 3))
	v.steps.setSize(v.w, stepsH)
	v.report.setSize(v.w, max(v.h-stepsH-1, 1))
	v.steps.setDoc(v.stepsDoc())
	// The heading is row 0; keep the selected step's row on screen.
	if row := v.sel + 1; row < v.steps.top+1 || row >= v.steps.top+stepsH {
		v.steps.top = max(row-stepsH+1, 0)
		v.steps.clamp()
	}
	var b docBuilder
	for _, l := range r.Lines(v.a.ends[0], v.a.ends[1]) {
		if l == "steps:" {
			break // drawn above, with the selection
		}
		role := rolePlain
		switch {
		case strings.HasPrefix(l, "  ") && strings.Contains(l, "no change"):
			role = roleMuted
		case strings.HasPrefix(l, "the server stopped answering"):
			role = roleError
		case strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " "):
			role = roleLabel
		case strings.Contains(l, "PARTIAL"):
			role = roleWarn
		}
		indent := strings.Repeat(" ", len(l)-len(strings.TrimLeft(l, " "))+4)
		b.line(role, wrapHanging(l, indent, max(v.w-2, 20)))
	}
	v.report.keepDoc(b.doc())
}

func (v *attributionView) stepsDoc() *doc {
	r := v.a.run
	var b docBuilder
	b.line(roleLabel, "steps · ↑/↓ select · P pin · e edit · J/K scroll the report")
	n := len(r.Plan.Vars)
	lw := 1
	for _, pt := range r.Plan.Points {
		lw = max(lw, len(pt.Label(n)))
	}
	for i, pt := range r.Plan.Points {
		mark := "  "
		if i == v.sel {
			mark = "▶ "
		}
		what, role := "not sent yet", roleMuted
		switch {
		case i < len(r.Steps) && r.Steps[i].Err != nil:
			what, role = "FAILED: "+r.Steps[i].Err.Error(), roleError
		case i < len(r.Steps):
			what, role = r.Steps[i].Summary.String(), rolePlain
		case v.a.calls[i] != 0:
			what = "sending…"
		}
		id := ""
		if v.a.calls[i] != 0 {
			id = fmt.Sprintf("call #%d ", v.a.calls[i])
		}
		// What came back first: it is what a narrow screen must keep.
		b.line(role, ansi.Truncate(fmt.Sprintf("%s%-2d %-*s %s · %s%s", mark, i+1, lw, pt.Label(n), what, id, oneLine(v.steps.red, string(pt.Arguments), 200)), max(v.w, 20), "…"))
	}
	return b.doc()
}

func (v *attributionView) actions() []action {
	k := v.keys
	r := v.a.run
	answered := v.sel < len(r.Steps) && r.Steps[v.sel].Answered()
	notYet := "this step has not come back yet"
	id := 0
	if v.sel < len(v.a.calls) {
		id = v.a.calls[v.sel]
	}
	page := max(v.report.height-1, 1)
	return []action{
		on(k.Close, func() tea.Cmd { return v.out.send(closeOverlayMsg{}) }),
		on(k.Down, does(func() { v.sel = min(v.sel+1, len(r.Plan.Points)-1); v.refresh() })),
		on(k.Up, does(func() { v.sel = max(v.sel-1, 0); v.refresh() })),
		on(k.Pin, func() tea.Cmd { return v.out.send(pinCallMsg{id: id}) }).only(answered, notYet),
		on(k.EditAgain, func() tea.Cmd {
			v.out.send(closeOverlayMsg{})
			return v.out.send(editCallMsg{id: id, edit: true})
		}).only(id > 0, "this step has not been sent"),
		on(k.PageDown, does(func() { v.report.scroll(page) })),
		on(k.PageUp, does(func() { v.report.scroll(-page) })),
		on(k.ScrollDown, does(func() { v.report.scroll(3) })),
		on(k.ScrollUp, does(func() { v.report.scroll(-3) })),
	}
}

func (v *attributionView) update(msg tea.Msg) tea.Cmd {
	if w, ok := msg.(wheelMsg); ok {
		v.report.scroll(w.dy)
	}
	return nil
}

func (v *attributionView) view() string {
	rule := v.st.muted.Render(strings.Repeat("─", max(v.w, 1)))
	return strings.Join([]string{strings.Join(fit(v.steps.view(v.st), v.w, v.steps.height), "\n"), rule, v.report.view(v.st)}, "\n")
}
