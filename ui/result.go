package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
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

// resultPane shows one call's outcome, and steps through the session's calls.
type resultPane struct {
	st   *styles
	keys resultKeys
	out  *outbox

	calls   *[]*call
	cur     int // index into *calls, -1 before the first call
	showRaw bool
	body    textView
	shownID int
	shownAs string

	focused       bool
	live          bool // a session is open: a call can be pinned
	hasMark       bool // a call is marked: c compares with it
	width, height int
}

func newResultPane(st *styles, calls *[]*call) *resultPane {
	return &resultPane{st: st, keys: newResultKeys(), out: &outbox{}, calls: calls, cur: -1}
}

func (p *resultPane) current() *call {
	if p.cur < 0 || p.cur >= len(*p.calls) {
		return nil
	}
	return (*p.calls)[p.cur]
}

// show selects the call with id and draws it.
func (p *resultPane) show(id int) {
	for i, c := range *p.calls {
		if c.id == id {
			p.cur = i
		}
	}
	p.sync()
}

// sync rebuilds the body when the shown call, its state or the mode changed.
func (p *resultPane) sync() {
	c := p.current()
	as := fmt.Sprint(p.showRaw)
	if c != nil {
		as += fmt.Sprint(c.done, len(c.progress), c.cancelledAt.IsZero())
	}
	id := -1
	if c != nil {
		id = c.id
	}
	if id == p.shownID && as == p.shownAs && p.body.doc != nil {
		return
	}
	p.shownID, p.shownAs = id, as
	switch {
	case c == nil:
		var b docBuilder
		b.line(roleMuted, "No call yet. Pick a tool (1), edit its arguments (2) and send them with ctrl+s; or read a resource (5) or get a prompt (6).")
		p.body.setDoc(b.doc())
	case p.showRaw:
		p.body.setDoc(c.rawDoc())
	default:
		p.body.setDoc(c.doc())
	}
}

// openID is the call ctrl+x cancels: the shown call when it is still open,
// else the newest open call; 0 when none is open.
func (p *resultPane) openID() int {
	if c := p.current(); c != nil && !c.done {
		return c.id
	}
	for i := len(*p.calls) - 1; i >= 0; i-- {
		if c := (*p.calls)[i]; !c.done {
			return c.id
		}
	}
	return 0
}

func (p *resultPane) setFocus(f bool) { p.focused = f }
func (p *resultPane) typing() bool    { return false }

func (p *resultPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.body.setSize(w, max(h-1, 0))
	p.sync()
}

func (p *resultPane) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	c := p.current()
	switch {
	case key.Matches(k, p.keys.Up):
		p.body.scroll(-1)
	case key.Matches(k, p.keys.Down):
		p.body.scroll(1)
	case key.Matches(k, p.keys.PageUp):
		p.body.scroll(-max(p.body.height-1, 1))
	case key.Matches(k, p.keys.PageDown):
		p.body.scroll(max(p.body.height-1, 1))
	case key.Matches(k, p.keys.Home):
		p.body.home()
	case key.Matches(k, p.keys.End):
		p.body.end()
	case key.Matches(k, p.keys.Older):
		if p.cur > 0 {
			p.cur--
			p.sync()
			return p.out.send(selectCallMsg{id: p.current().id})
		}
	case key.Matches(k, p.keys.Newer):
		if p.cur >= 0 && p.cur < len(*p.calls)-1 {
			p.cur++
			p.sync()
			return p.out.send(selectCallMsg{id: p.current().id})
		}
	case key.Matches(k, p.keys.Raw):
		p.showRaw = !p.showRaw
		p.sync()
	case c == nil:
	case !c.isTool() && (key.Matches(k, p.keys.Pin) || key.Matches(k, p.keys.Mark) || key.Matches(k, p.keys.Compare)):
		return p.out.send(statusMsg{text: "pinning and comparing work on tools/call; this is " + c.method, isErr: true})
	case key.Matches(k, p.keys.Pin):
		// Sent even when pinning cannot work now: the root says why.
		return p.out.send(pinCallMsg{id: c.id})
	case key.Matches(k, p.keys.EditAgain):
		return p.out.send(editCallMsg{id: c.id})
	case key.Matches(k, p.keys.Mark):
		return p.out.send(markMsg{ref: callRef{id: c.id, frame: -1}})
	case key.Matches(k, p.keys.Compare):
		return p.out.send(compareMsg{ref: callRef{id: c.id, frame: -1}})
	case key.Matches(k, p.keys.ShowFrames):
		if c.ex != nil && c.ex.Request != nil {
			return p.out.send(showFramesMsg{seq: c.ex.Request.Seq})
		}
		return p.out.send(statusMsg{text: "this call has no frames yet", isErr: true})
	case key.Matches(k, p.keys.Write):
		if c.ex != nil && c.ex.Response != nil {
			return p.out.send(writeMsg{name: fmt.Sprintf("jig-call-%d-%s-response", c.id, c.tool), data: c.ex.Response.Raw})
		}
		return p.out.send(statusMsg{text: "this call has no response to write", isErr: true})
	}
	return nil
}

func (p *resultPane) wheel(dy, y int) { p.body.scroll(dy * 3) }

func (p *resultPane) help() []key.Binding {
	k := p.keys
	c := p.current()
	k.Older.SetEnabled(p.cur > 0)
	k.Newer.SetEnabled(p.cur >= 0 && p.cur < len(*p.calls)-1)
	k.EditAgain.SetEnabled(c != nil)
	k.ShowFrames.SetEnabled(c != nil && c.ex != nil)
	k.Write.SetEnabled(c != nil && c.ex != nil && c.ex.Response != nil)
	k.Raw.SetEnabled(c != nil)
	tool := c != nil && c.isTool()
	k.Pin.SetEnabled(p.live && tool && c.pinnable())
	k.Mark.SetEnabled(tool && c.done)
	k.Compare.SetEnabled(tool && c.done && p.hasMark)
	if c != nil && c.method == methodReadResource {
		k.EditAgain.SetHelp("e", "edit the URI and read again")
	}
	return append(k.list(), k.Pin, k.Older, k.Newer, k.EditAgain, k.Mark, k.Compare, k.ShowFrames, k.Raw, k.Write)
}

func (p *resultPane) view() string {
	c := p.current()
	var head string
	if c == nil {
		head = p.st.muted.Render("no calls yet")
	} else {
		state := p.st.muted.Render("sending…")
		if c.done {
			state = c.badge(p.st)
		}
		head = p.st.label.Render(fmt.Sprintf("call %d/%d #%d %s", p.cur+1, len(*p.calls), c.id, c.title())) + " " + state
		if p.showRaw {
			head += p.st.muted.Render(" · raw")
		}
	}
	head = ansi.Truncate(head, p.width, "…")
	return head + "\n" + p.body.view(p.st)
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
	return roundLatency(c.ex.Latency)
}

func roundLatency(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Microsecond).String()
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
		return st.warnText.Render("⊘ CANCELLED") + " " + roundLatency(c.cancelledAt.Sub(c.sent))
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
		b.line(roleMuted, "→ prompts/get "+c.tool+" "+oneLine(c.args, 400))
	default:
		b.line(roleMuted, "→ "+c.tool+" "+oneLine(c.args, 400))
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
		b.linef(roleWarn, "! sent despite %d %s violation%s:", len(c.violations), what, plural(len(c.violations)))
		for _, v := range c.violations {
			b.line(roleViolation, "  "+v.String())
		}
	}
}

func oneLine(s string, limit int) string {
	s = frames.CompactString(json.RawMessage(s))
	if len(s) > limit {
		s = s[:limit] + "…"
	}
	return s
}

func (c *call) writeOutcome(b *docBuilder) (partial bool) {
	frameNote := ""
	if c.ex != nil && c.ex.Request != nil {
		frameNote = fmt.Sprintf("request #%d", c.ex.Request.Seq)
		if c.ex.Response != nil {
			frameNote += fmt.Sprintf(" → response #%d · %s · latency %s", c.ex.Response.Seq, frames.HumanSize(c.ex.Response.Size()), c.latency())
		}
	}
	var rpc *session.RPCError
	switch c.outcome() {
	case outcomeRPCError:
		errors.As(c.err, &rpc)
		b.linef(roleRPCError, " ✗ JSON-RPC ERROR %d: %s ", rpc.Code, rpc.Message)
		b.line(roleMuted, "The server refused the request itself: there is no result and no content.")
		if frameNote != "" {
			b.line(roleMuted, frameNote)
		}
		if len(rpc.Raw) > 0 {
			b.line(rolePlain, "")
			b.line(roleLabel, "error")
			pr, _ := frames.Indent(rpc.Raw)
			b.bytes(pr)
		}
		return false
	case outcomeCancelled:
		b.linef(roleWarn, "⊘ cancelled by you after %s; the server may still send progress", roundLatency(c.cancelledAt.Sub(c.sent)))
		id := ""
		if c.ex != nil && c.ex.Request != nil {
			id = " for request id=" + c.ex.Request.ID
		}
		b.line(rolePlain, "jig sent notifications/cancelled"+id+": no response will come. Progress the server sends after it still shows in the frames pane.")
		c.writeProgress(b)
		if frameNote != "" {
			b.line(roleMuted, frameNote)
		}
		return false
	case outcomeFailed:
		b.line(roleError, "✗ CALL FAILED: "+c.err.Error())
		var ce *session.ConnectError
		if errors.As(c.err, &ce) && len(ce.Stderr) > 0 {
			b.line(roleLabel, "the server's last stderr lines:")
			for _, l := range ce.Stderr {
				b.line(rolePlain, "  | "+l)
			}
		}
		if frameNote != "" {
			b.line(roleMuted, frameNote)
		}
		return false
	case outcomeToolError:
		b.line(roleToolError, "✗ TOOL ERROR — the result says isError: true (the tool ran and reported a failure)")
	default:
		b.line(roleOK, "✓ result")
	}
	if frameNote != "" {
		b.line(roleMuted, frameNote)
	}
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
		b.line(roleMuted, "progress: none yet")
		return
	}
	last := c.progress[len(c.progress)-1]
	b.linef(roleLabel, "progress %s%s · %d notification%s", last.String(), progressBar(last), len(c.progress), plural(len(c.progress)))
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
