package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/schema"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/content"
)

// A call is one request of the session (a tools/call, a resources/read or
// a prompts/get), kept so it can be looked at, edited and sent again.
type call struct {
	id         int
	method     string // "" for tools/call, or methodReadResource, methodGetPrompt
	tool       string // the tool, the resource's URI or the prompt
	args       string
	violations []schema.Violation // input-schema problems the user sent anyway
	output     json.RawMessage    // the tool's outputSchema when the call was sent
	def        json.RawMessage    // the tool's definition as listed when the call was sent
	done       bool
	ex         *session.Exchange
	err        error

	rendered, raw *doc // built once, when the call completes
	partial       bool // the result flags itself as incomplete
	rendering     bool // a large result is being rendered off the UI goroutine
	outcomeOf     *outcome

	// baseline is the recorded call this one reproduces, compared with it
	// when it comes back; argsNote says how the arguments differ from the
	// baseline or from the previous call of the same tool.
	baseline *fixture.Call
	argsNote string
	argsSame bool

	// withProgress: the call carried _meta.progressToken; progress holds
	// the notifications/progress delivered while it was open.
	withProgress bool
	progress     []session.Progress
	sent         time.Time
	cancel       context.CancelCauseFunc // cancels the open call
	cancelledAt  time.Time               // when the user cancelled it

	// attributionStep is the step (from 1) of the attribution this call
	// is, or 0.
	attributionStep int
	red             *frames.Redactor // the run's (callLog.add sets it)
}

const (
	methodReadResource = "resources/read"
	methodGetPrompt    = "prompts/get"
)

// isTool reports whether the call is a tools/call: only those are pinned,
// marked, compared and reproduced.
func (c *call) isTool() bool { return c.method == "" }

// title names the call: the tool, or the method and what it names.
func (c *call) title() string {
	if c.isTool() {
		return c.tool
	}
	return c.method + " " + c.tool
}

// largeResult is the response size above which a result is rendered in a
// command, so the UI never waits for it.
const largeResult = 1 << 20

// finish records the reply to the call.
func (c *call) finish(ex *session.Exchange, err error) {
	c.done, c.ex, c.err = true, ex, err
	if c.cancel != nil {
		c.cancel(context.Canceled) // releases the call's context; the call is over
	}
	o := c.classify()
	c.outcomeOf = &o
}

// pinnable reports whether the call has a request and a response that a
// fixture can pin (a result or a JSON-RPC error; not a broken connection).
func (c *call) pinnable() bool {
	return c.done && c.ex != nil && c.ex.Request != nil && (len(c.ex.Result) > 0 || len(c.ex.Error) > 0)
}

func (c *call) responseSize() int {
	if c.ex == nil || c.ex.Response == nil {
		return 0
	}
	return c.ex.Response.Size()
}

// render builds the call's documents; it reads only the finished call, so it
// may run in a command.
func (c *call) render() (rendered *doc, partial bool) {
	var b docBuilder
	c.writeHead(&b)
	partial = c.writeOutcome(&b)
	return b.doc(), partial
}

// outcome classifies a finished call. The four outcomes must never look
// alike: the server refused (JSON-RPC error), the tool failed (isError), the
// connection failed, or it worked.
type outcome uint8

const (
	outcomeOK outcome = iota
	outcomeToolError
	outcomeRPCError
	outcomeFailed
	outcomeCancelled
)

func (c *call) outcome() outcome {
	if c.outcomeOf != nil {
		return *c.outcomeOf
	}
	return c.classify()
}

func (c *call) classify() outcome {
	var rpc *session.RPCError
	var cancelled *session.CancelledError
	switch {
	case errors.As(c.err, &rpc):
		return outcomeRPCError
	case errors.As(c.err, &cancelled):
		return outcomeCancelled
	case c.err != nil:
		return outcomeFailed
	}
	if c.isTool() && c.ex != nil && content.IsError(c.ex.Result) {
		return outcomeToolError
	}
	return outcomeOK
}

func (c *call) latency() string {
	if c.ex == nil || c.ex.Response == nil {
		return ""
	}
	return frames.HumanDuration(c.ex.Latency)
}

// badge is the one-word outcome shown in headers and the history.
func (c *call) badge(st *styles) string {
	lat := c.latency()
	if lat != "" {
		lat = " " + lat
	}
	partial := ""
	if o := c.outcome(); c.ex != nil && (o == outcomeOK || o == outcomeToolError) {
		if c.isPartial() {
			partial = " " + st.partialBadge.Render(" PARTIAL ")
		}
	}
	switch c.outcome() {
	case outcomeRPCError:
		var rpc *session.RPCError
		errors.As(c.err, &rpc)
		return st.rpcErrorBadge.Render(fmt.Sprintf(" JSON-RPC ERROR %d ", rpc.Code)) + lat
	case outcomeFailed:
		return st.errorText.Render("✗ FAILED") + lat
	case outcomeCancelled:
		return st.warnText.Render("⊘ CANCELLED") + " " + frames.HumanDuration(c.cancelledAt.Sub(c.sent))
	case outcomeToolError:
		return st.toolErrorBadge.Render("✗ TOOL ERROR (isError)") + lat + partial
	}
	return st.okText.Render("✓ ok") + lat + partial
}

// isPartial reports whether the result says it is incomplete; the rendered
// document records it when it is built.
func (c *call) isPartial() bool {
	if !c.rendering {
		c.doc()
	}
	return c.partial
}

// rawDoc is the response frame's exact bytes, pretty-printed.
func (c *call) rawDoc() *doc {
	if c.raw != nil {
		return c.raw
	}
	var b docBuilder
	if c.ex == nil || c.ex.Response == nil {
		b.line(roleMuted, "no response frame")
		return b.doc()
	}
	b.linef(roleMuted, "response frame #%d, %s as received (pretty-printed; the frames pane has the raw bytes)", c.ex.Response.Seq, frames.HumanSize(c.ex.Response.Size()))
	pr, _ := frames.Indent(c.ex.Response.Raw)
	b.bytes(pr)
	if c.done {
		c.raw = b.doc()
	}
	return b.doc()
}

// doc renders the call for reading.
func (c *call) doc() *doc {
	if c.rendered != nil {
		return c.rendered
	}
	if !c.done || c.rendering {
		var b docBuilder
		c.writeHead(&b)
		if c.rendering {
			b.linef(roleMuted, "rendering the %s result… (the frames pane has its raw bytes now)", frames.HumanSize(c.responseSize()))
		} else {
			c.writeOpen(&b)
		}
		return b.doc()
	}
	c.rendered, c.partial = c.render()
	return c.rendered
}

func (c *call) writeHead(b *docBuilder) {
	switch c.method {
	case methodReadResource:
		b.line(roleMuted, "→ resources/read "+c.tool)
	case methodGetPrompt:
		b.line(roleMuted, "→ prompts/get "+c.tool+" "+oneLine(c.red, c.args, 400))
	default:
		b.line(roleMuted, "→ "+c.tool+" "+oneLine(c.red, c.args, 400))
	}
	switch {
	case c.argsNote == "":
	case c.argsSame:
		b.line(roleMuted, c.argsNote)
	default:
		b.line(roleWarn, "≠ "+c.argsNote)
	}
	if len(c.violations) > 0 {
		what := "input-schema"
		if c.method == methodGetPrompt {
			what = "argument"
		}
		b.linef(roleWarn, "! sent despite %d %s violation%s:", len(c.violations), what, frames.Plural(len(c.violations)))
		for _, v := range c.violations {
			b.line(roleViolation, "  "+v.String())
		}
	}
}

func oneLine(red *frames.Redactor, s string, limit int) string {
	// Redacted before it is cut: a cut secret is not recognised.
	s = red.String(frames.CompactString(json.RawMessage(s)))
	if len(s) > limit {
		s = s[:limit] + "…"
	}
	return s
}

func (c *call) writeOutcome(b *docBuilder) (partial bool) {
	switch c.outcome() {
	case outcomeRPCError:
		c.writeRPCError(b)
		return false
	case outcomeCancelled:
		c.writeCancelled(b)
		return false
	case outcomeFailed:
		c.writeFailed(b)
		return false
	case outcomeToolError:
		b.line(roleToolError, "✗ TOOL ERROR — "+content.ToolErrorWhat(c.ex.Result))
	default:
		b.line(roleOK, "✓ result")
	}
	c.writeFrames(b)
	c.writeProgress(b)
	switch c.method {
	case methodReadResource:
		content.RenderRead(contentDoc{b}, c.ex.Result)
		return false
	case methodGetPrompt:
		content.RenderPrompt(contentDoc{b}, c.ex.Result)
		return false
	}
	return content.RenderTool(contentDoc{b}, c.ex.Result, c.output)
}

// writeFrames names the call's request and response frames.
func (c *call) writeFrames(b *docBuilder) {
	if c.ex == nil || c.ex.Request == nil {
		return
	}
	note := fmt.Sprintf("request #%d", c.ex.Request.Seq)
	if c.ex.Response != nil {
		note += fmt.Sprintf(" → response #%d · %s · latency %s", c.ex.Response.Seq, frames.HumanSize(c.ex.Response.Size()), c.latency())
	}
	b.line(roleMuted, note)
}

func (c *call) writeRPCError(b *docBuilder) {
	var rpc *session.RPCError
	errors.As(c.err, &rpc)
	b.linef(roleRPCError, " ✗ JSON-RPC ERROR %d: %s ", rpc.Code, rpc.Message)
	b.line(roleMuted, "The server refused the request itself: there is no result and no content.")
	c.writeFrames(b)
	if len(rpc.Raw) > 0 {
		b.line(rolePlain, "")
		b.line(roleLabel, "error")
		pr, _ := frames.Indent(rpc.Raw)
		b.bytes(pr)
	}
}

func (c *call) writeCancelled(b *docBuilder) {
	b.linef(roleWarn, "⊘ cancelled by you after %s; the server may still send progress", frames.HumanDuration(c.cancelledAt.Sub(c.sent)))
	id := ""
	if c.ex != nil && c.ex.Request != nil {
		id = " for request id=" + c.ex.Request.ID
	}
	b.line(rolePlain, "jig sent notifications/cancelled"+id+": no response will come. Progress the server sends after it still shows, here and in the frames pane.")
	c.writeProgress(b)
	c.writeFrames(b)
}

// writeFailed is a failed call: the error's first line as the failure,
// the rest (a ConnectError's stderr lines and hint) under it, once.
func (c *call) writeFailed(b *docBuilder) {
	first, rest, _ := strings.Cut(c.err.Error(), "\n")
	b.line(roleError, "✗ CALL FAILED: "+first)
	for l := range strings.SplitSeq(rest, "\n") {
		switch {
		case l == "":
		case strings.HasSuffix(l, "last stderr lines:"):
			b.line(roleLabel, l)
		default:
			b.line(rolePlain, l)
		}
	}
	c.writeFrames(b)
}

// writeOpen is an open call: waiting, with its progress so far.
func (c *call) writeOpen(b *docBuilder) {
	switch {
	case !c.cancelledAt.IsZero():
		b.line(roleWarn, "⊘ cancelling… (notifications/cancelled is on its way)")
	case c.withProgress:
		b.line(roleMuted, "waiting for the response · sent with _meta.progressToken · ctrl+x cancels")
	default:
		b.line(roleMuted, "sending… (ctrl+x cancels)")
	}
	c.writeProgress(b)
}

// writeProgress lists the progress the call received, the latest first
// as a bar.
func (c *call) writeProgress(b *docBuilder) {
	if !c.withProgress {
		return
	}
	if len(c.progress) == 0 {
		switch {
		case !c.cancelledAt.IsZero():
			b.line(roleMuted, "progress: the server sent none before the cancel")
		case c.done:
			b.line(roleMuted, "progress: the call had a progress token; no progress was sent")
		default:
			b.line(roleMuted, "progress: none yet")
		}
		return
	}
	last := c.progress[len(c.progress)-1]
	b.linef(roleLabel, "progress %s%s · %d notification%s", last.String(), progressBar(last), len(c.progress), frames.Plural(len(c.progress)))
	if late := lateProgress(c.progress); late > 0 {
		b.linef(roleWarn, "%d of them after the cancel: the server kept working on a request it was told to abandon", late)
	}
}

// lateProgress counts the progress a server sent after the call's cancel.
func lateProgress(ps []session.Progress) int {
	n := 0
	for _, p := range ps {
		if p.AfterCancel {
			n++
		}
	}
	return n
}

// progressBar draws progress/total as ten cells, when the total is known.
func progressBar(p session.Progress) string {
	if p.Total <= 0 {
		return ""
	}
	n := int(min(max(p.Progress/p.Total, 0), 1)*10 + 0.5)
	return fmt.Sprintf(" [%s%s] %d%%", strings.Repeat("█", n), strings.Repeat("░", 10-n), int(p.Progress/p.Total*100+0.5))
}

// contentDoc draws the shared rendering of results (package content) into
// a doc, in the TUI's roles.
type contentDoc struct{ b *docBuilder }

var contentRoles = [...]role{
	content.Plain: rolePlain, content.Heading: roleHeading, content.Label: roleLabel, content.Muted: roleMuted,
	content.OK: roleOK, content.Warn: roleWarn, content.Error: roleError, content.Partial: rolePartial,
	content.Violation: roleViolation,
}

func (d contentDoc) Line(r content.Role, text string) { d.b.line(contentRoles[r], text) }
func (d contentDoc) Body(p []byte)                    { d.b.bytes(p) }

func orUnknown(s string) string {
	if s == "" {
		return "(no type)"
	}
	return s
}

// A callLog is the session's calls, oldest first, and the channel their
// progress arrives on. The editor steps through them, the result pane shows
// them, and mark holds the call others are compared with.
type callLog struct {
	list     []*call
	nextID   int
	progress chan progressMsg // notifications/progress of open calls, from the SDK
	// mark is the call others are compared with (m); markFrame is its
	// request's frame index when it was marked in the frames pane, or -1.
	mark      *fixture.Call
	markFrame int
	red       *frames.Redactor // given to every call, which draws what it sent
}

func newCallLog(red *frames.Redactor) *callLog {
	return &callLog{progress: make(chan progressMsg, 256), markFrame: -1, red: red}
}

// add numbers c and keeps it.
func (l *callLog) add(c *call) {
	l.nextID++
	c.id, c.sent, c.red = l.nextID, time.Now(), l.red
	l.list = append(l.list, c)
}

func (l *callLog) byID(id int) *call {
	if i := l.index(id); i >= 0 {
		return l.list[i]
	}
	return nil
}

// index is the position of call id in the list, or -1.
func (l *callLog) index(id int) int {
	for i, c := range l.list {
		if c.id == id {
			return i
		}
	}
	return -1
}

// openID is the call ctrl+x cancels: shown when it is still open, else the
// newest open call; 0 when none is open.
func (l *callLog) openID(shown *call) int {
	if shown != nil && !shown.done {
		return shown.id
	}
	for i := len(l.list) - 1; i >= 0; i-- {
		if c := l.list[i]; !c.done {
			return c.id
		}
	}
	return 0
}

// openNote names the newest call still waiting for its response: the one a
// request from the server most likely belongs to.
func (l *callLog) openNote() string {
	for i := len(l.list) - 1; i >= 0; i-- {
		if c := l.list[i]; !c.done {
			return fmt.Sprintf("call #%d %s", c.id, c.tool)
		}
	}
	return ""
}

// chooseTool prepares a call of the chosen tool in the editor.
func (m *Model) chooseTool(msg chooseToolMsg) tea.Cmd {
	t := m.tools().tool(msg.name)
	if t == nil {
		return nil
	}
	m.editor().load(t.Name, t.Input, callTemplate(t.Input), len(m.calls().list))
	m.setFocus(paneEditor)
	return m.editor().startEditing()
}

// loadStartCall loads the call Config.Tool and Config.Args name, once:
// the tool selected, its arguments in the editor, ready for ctrl+s.
func (m *Model) loadStartCall() {
	name, args := m.cfg.Tool, m.cfg.Args
	m.cfg.Tool, m.cfg.Args = "", ""
	t := m.tools().tool(name)
	if t == nil {
		next := "pick one in 1 Tools and press enter"
		if near := frames.Similar(name, m.tools().names()); len(near) > 0 {
			next = "did you mean " + strings.Join(near, " or ") + "?"
		}
		m.setFocus(paneTools)
		m.setStatus(fmt.Sprintf("--tool %s: no such tool; %s", name, next), true)
		return
	}
	from := "--args"
	if args == "" {
		args, from = callTemplate(t.Input), "its required arguments"
	}
	m.tools().selectName(t.Name)
	m.editor().load(t.Name, t.Input, args, len(m.calls().list))
	m.setFocus(paneEditor)
	m.setStatus(fmt.Sprintf("--tool %s loaded with %s: ctrl+s sends it, enter edits", t.Name, from), false)
}

// sendCall sends a tools/call exactly as typed.
func (m *Model) sendCall(msg sendCallMsg) tea.Cmd {
	c := &call{tool: msg.tool, args: msg.args, violations: msg.violations, withProgress: msg.progress}
	if t := m.tools().tool(msg.tool); t != nil {
		c.output, c.def = t.Output, t.raw
	}
	if r := m.repro.call; r != nil && r.Name == c.tool {
		// A value typed where the recording holds a placeholder was a
		// secret when recorded: it is redacted from here on, on screen
		// and in the reproduction's recording, before it is sent.
		m.env.redact.Add(fixture.TypedSecrets(r.Arguments, json.RawMessage(c.args))...)
		if r.Answered() {
			c.baseline = r
		}
	}
	var progress chan<- progressMsg
	how := ""
	if c.withProgress {
		progress, how = m.calls().progress, " with a progress token"
	}
	cmd := m.startCall(c, func(ctx context.Context, s *session.Session) tea.Cmd {
		return callTool(ctx, s, m.conn().timeout, c.id, c.tool, c.args, progress)
	})
	if cmd != nil {
		m.noteArguments(c)
		m.setStatus(fmt.Sprintf("call #%d: tools/call %s sent%s (ctrl+x cancels it)", c.id, c.tool, how), false)
	}
	return cmd
}

// startCall records a call, shows it with its frames followed as they
// come, and sends it with send.
func (m *Model) startCall(c *call, send func(context.Context, *session.Session) tea.Cmd) tea.Cmd {
	s := m.session()
	if s == nil {
		m.setStatus("not connected: nothing can be sent (r retries)", true)
		return nil
	}
	m.calls().add(c)
	m.editor().histPos = len(m.calls().list)
	m.result().show(c.id)
	m.followCall()
	ctx, cancel := context.WithCancelCause(m.ctx)
	c.cancel = cancel
	if m.lay.tabs {
		// One pane at a time: show the call, its progress and ctrl+x.
		m.setFocus(paneResult)
	}
	m.setStatus(fmt.Sprintf("call #%d: %s sent (ctrl+x cancels it)", c.id, c.title()), false)
	return send(ctx, s)
}

func (m *Model) cancelCall(msg cancelCallMsg) tea.Cmd {
	c := m.calls().byID(msg.id)
	if c == nil || c.done || c.cancel == nil {
		m.setStatus("no call is waiting for its response: there is nothing to cancel", true)
		return nil
	}
	if c.cancelledAt.IsZero() {
		c.cancelledAt = time.Now()
		c.cancel(session.ErrCancelled)
		m.result().sync()
		m.followCall() // the cancellation, and the progress that may still come
		m.setStatus(fmt.Sprintf("call #%d %s: cancelling (the SDK sends notifications/cancelled)…", c.id, c.tool), false)
	}
	return nil
}

func (m *Model) callDone(msg callDoneMsg) tea.Cmd {
	c := m.calls().byID(msg.id)
	if c == nil {
		return nil
	}
	c.finish(msg.ex, msg.err)
	var cmd tea.Cmd
	if c.responseSize() > largeResult {
		c.rendering = true
		cmd = renderCall(c)
	}
	if cur := m.result().current(); cur != nil && cur.id == c.id {
		m.result().sync()
		if c.outcome() != outcomeCancelled {
			// A cancelled call has no response to show; the frames
			// pane keeps following, so late progress stays in view.
			m.selectCallFrames(c)
		}
	}
	if m.lay.tabs && m.focus == paneEditor {
		m.setFocus(paneResult)
	}
	m.setStatus(fmt.Sprintf("call #%d %s: %s", c.id, c.title(), ansi.Strip(c.badge(m.st()))), c.outcome() != outcomeOK)
	if c.baseline != nil && c.pinnable() && m.overlay == nil {
		m.setFocus(paneResult)
		m.openCompare(*c.baseline, liveCall(c), c.id)
	}
	if c.attributionStep > 0 {
		return tea.Batch(cmd, m.attributionStepDone(c))
	}
	return cmd
}

func (m *Model) rendered(msg renderedMsg) tea.Cmd {
	if c := m.calls().byID(msg.id); c != nil {
		c.rendering, c.rendered, c.partial = false, msg.doc, msg.partial
		m.result().redraw()
	}
	return nil
}

func (m *Model) progressed(msg progressMsg) tea.Cmd {
	// Progress that crossed before the response can be handed over after
	// the call came back: it is the call's all the same.
	if c := m.calls().byID(msg.id); c != nil {
		c.progress = append(c.progress, msg.p)
		if c.done && c.responseSize() <= largeResult {
			c.rendered = nil // drawn again, with this progress
		}
		m.result().sync()
	}
	return waitProgress(m.ctx, m.calls().progress)
}

// editCall loads a previous call into the editor (or, for a
// resources/read, its URI into the resources pane's field).
func (m *Model) editCall(msg editCallMsg) tea.Cmd {
	c := m.calls().byID(msg.id)
	if c == nil {
		return nil
	}
	if !c.isTool() {
		return m.editCatalogCall(c, msg.edit)
	}
	var input json.RawMessage
	if t := m.tools().tool(c.tool); t != nil {
		input = t.Input
		m.tools().selectName(t.Name) // the details say the tool being edited
	}
	m.editor().load(c.tool, input, c.args, m.calls().index(c.id))
	m.setFocus(paneEditor)
	if msg.edit {
		m.editor().startEditing()
	}
	m.setStatus(fmt.Sprintf("arguments of call #%d loaded: edit, then ctrl+s sends a new call", c.id), false)
	return nil
}

func (m *Model) selectCall(msg selectCallMsg) tea.Cmd {
	if c := m.calls().byID(msg.id); c != nil {
		m.selectCallFrames(c)
	}
	return nil
}

func (m *Model) showFrames(msg showFramesMsg) tea.Cmd {
	if m.conn().readOnly {
		m.setStatus("the frames pane shows the recording; a reproduced call's own frames are not in it (v shows its raw response)", true)
		return nil
	}
	m.frames().grow(m.cfg.Reader.Len())
	if m.frames().selectSeq(msg.seq) {
		m.setFocus(paneFrames)
	}
	return nil
}

// selectCallFrames selects a call's response frame (its request is marked
// as the partner), or its request while it is unanswered.
func (m *Model) selectCallFrames(c *call) {
	if c.ex == nil || m.conn().readOnly {
		return // a reproduction's frames are not the recording's
	}
	f := c.ex.Response
	if f == nil {
		f = c.ex.Request
	}
	if f != nil {
		m.frames().grow(m.cfg.Reader.Len())
		m.frames().selectSeq(f.Seq)
	}
}

// followCall makes the frames pane follow the newest frames: a call was
// sent or cancelled, and what crosses now is its request, its progress, its
// cancellation. (A live session only: a recording's frames are not the
// reproduction's.)
func (m *Model) followCall() {
	if m.conn().readOnly {
		return
	}
	m.frames().grow(m.cfg.Reader.Len())
	m.frames().followNewest()
}
