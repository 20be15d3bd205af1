package ui

//lint:file-ignore SA1019 roots, sampling and logging are deprecated as of 2026-07-28 (SEP-2577) but still spoken in both eras; jig inspects servers that use them.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/schema"
	"github.com/mcpjig/jig/session"
)

// A serverAsk is a request the server sent while a call was open that a
// human answers in the TUI: sampling/createMessage or elicitation/create.
// The session's hook that made it waits on reply until the dialog answers or
// the request's context ends; done closes when the hook has returned, so an
// answer given after that is known to be too late.
type serverAsk struct {
	id       int // jig's number for it: answers name it
	from     session.ServerRequest
	sampling *mcp.CreateMessageParams
	elicit   *mcp.ElicitParams
	reply    chan askAnswer // buffered: answering never blocks Update
	done     chan struct{}
}

func (q *serverAsk) method() string {
	if q.sampling != nil {
		return "sampling/createMessage"
	}
	return "elicitation/create"
}

// askAnswer is what the dialog sends back to the waiting hook.
type askAnswer struct {
	sampling *mcp.CreateMessageResult
	elicit   *mcp.ElicitResult
	err      error
}

// An asker is the bridge between the session's Sampling and Elicit hooks,
// which run on the SDK's goroutines, and the UI: a hook hands its request
// over a channel that a command reads, then blocks on its own reply channel.
// Update never sends on a channel a hook reads without a buffer.
type asker struct {
	quit context.Context // the Model's: a hook stops waiting when jig quits
	ch   chan *serverAsk
	mu   sync.Mutex
	next int
}

func newAsker(quit context.Context) *asker {
	return &asker{quit: quit, ch: make(chan *serverAsk)}
}

func (a *asker) ask(ctx context.Context, q *serverAsk) (askAnswer, error) {
	a.mu.Lock()
	a.next++
	q.id = a.next
	a.mu.Unlock()
	q.reply, q.done = make(chan askAnswer, 1), make(chan struct{})
	defer close(q.done)
	select {
	case a.ch <- q:
	case <-ctx.Done():
		return askAnswer{}, ctx.Err()
	case <-a.quit.Done():
		return askAnswer{}, errors.New("jig quit before anyone answered")
	}
	select {
	case r := <-q.reply:
		return r, nil
	case <-ctx.Done():
		return askAnswer{}, ctx.Err()
	case <-a.quit.Done():
		return askAnswer{}, errors.New("jig quit before anyone answered")
	}
}

func (a *asker) sampling(ctx context.Context, from session.ServerRequest, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	r, err := a.ask(ctx, &serverAsk{from: from, sampling: req.Params})
	if err != nil {
		return nil, err
	}
	return r.sampling, r.err
}

func (a *asker) elicit(ctx context.Context, from session.ServerRequest, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	r, err := a.ask(ctx, &serverAsk{from: from, elicit: req.Params})
	if err != nil {
		return nil, err
	}
	return r.elicit, r.err
}

// samplingPlaceholder prefills the reply: a human is answering, not a model,
// and the text says so if it is sent unchanged.
const samplingPlaceholder = "jig placeholder reply (typed in jig by a human; no model is attached): replace this text"

// samplingModel is the model name jig's typed replies carry.
const samplingModel = "jig-human"

// askDialog shows one server request and takes the user's answer: a reply
// text for sampling (or a rejection), JSON content for an elicitation,
// checked against the requested schema as it is typed (or decline, cancel).
type askDialog struct {
	st   *styles
	keys askKeys
	out  *outbox

	q        *serverAsk
	during   string // the call that is open, e.g. "call #2 trigger-sampling-request"
	about    textView
	aboutDoc *doc
	edit     *textEdit
	schema   json.RawMessage // the requested schema (elicitation)
	form     *elicitForm     // the schema as a form, when it is one a form can say
	json     bool            // the content is typed as JSON, not in the form

	checked    string
	problem    *jsonProblem
	violations []schema.Violation
	schemaErr  error
	confirm    bool // one ctrl+s on content that violates the schema
	waiting    int  // the server's requests waiting, this one included

	width, height int
}

func newAskDialog(st *styles, out *outbox, red *frames.Redactor) *askDialog {
	ed := newTextEdit(st, false)
	ed.numbers = true
	return &askDialog{st: st, keys: newAskKeys(), out: out, edit: ed, about: textView{red: red}}
}

// open shows q; during names the call it arrived in.
func (d *askDialog) open(q *serverAsk, during string) {
	d.q, d.during, d.confirm, d.checked = q, during, false, "\x00"
	d.problem, d.violations, d.schemaErr, d.schema = nil, nil, nil, nil
	if q.sampling != nil {
		d.edit.setValue(samplingPlaceholder)
	} else {
		d.schema = requestedSchema(q)
		d.edit.setValue(prefill(d.schema))
		d.form, d.json = nil, false
		if f, ok := newElicitForm(d.st, d.schema); ok && q.elicit.Mode != "url" {
			d.form = f
			d.edit.setValue(f.content())
		}
	}
	d.edit.focus()
	d.aboutDoc = d.describe()
	d.about.setDoc(d.aboutDoc)
	d.revalidate()
	d.setSize(d.width, d.height)
}

func (d *askDialog) isElicit() bool { return d.q != nil && d.q.elicit != nil }

func (d *askDialog) title() string {
	t := "The server asks for a model reply (sampling/createMessage)"
	switch {
	case d.q == nil:
		return "Server request"
	case d.isElicit():
		t = "The server asks you for input (elicitation/create)"
	}
	if d.waiting > 1 {
		t += fmt.Sprintf(" · 1 of %d waiting", d.waiting)
	}
	return t
}

func (d *askDialog) typing() bool { return true }

// describe is the request, readable: who asked, during which call, and what.
func (d *askDialog) describe() *doc {
	var b docBuilder
	q := d.q
	where := "id=" + q.from.ID
	if q.from.Frame != nil {
		where += fmt.Sprintf(", frame #%d", q.from.Frame.Seq)
	}
	head := fmt.Sprintf("%s %s", q.method(), where)
	if d.during != "" {
		head += " · while " + d.during + " is open"
	}
	b.line(roleLabel, head)
	if p := q.sampling; p != nil {
		if p.SystemPrompt != "" {
			b.line(rolePlain, "system: "+p.SystemPrompt)
		}
		var opts []string
		opts = append(opts, fmt.Sprintf("maxTokens %d", p.MaxTokens))
		if p.Temperature != 0 {
			opts = append(opts, fmt.Sprintf("temperature %g", p.Temperature))
		}
		if p.IncludeContext != "" {
			opts = append(opts, "includeContext "+p.IncludeContext)
		}
		if len(p.StopSequences) > 0 {
			opts = append(opts, fmt.Sprintf("stop %q", p.StopSequences))
		}
		b.line(roleMuted, strings.Join(opts, " · "))
		b.linef(roleHeading, "messages (%d)", len(p.Messages))
		for _, m := range p.Messages {
			b.line(rolePlain, string(m.Role)+": "+contentText(m.Content))
		}
		return b.doc()
	}
	p := q.elicit
	if p.Mode == "url" {
		b.line(rolePlain, p.Message)
		b.line(rolePlain, "url: "+p.URL)
		return b.doc()
	}
	b.line(rolePlain, p.Message)
	if !d.inForm() {
		writeSchema(&b, d.schema, d.width) // the form shows each field
	}
	return b.doc()
}

// requestedSchema is the elicitation's schema as the server sent it, read
// from its frame so the fields keep the server's order (the SDK decodes it
// into a map, which does not).
func requestedSchema(q *serverAsk) json.RawMessage {
	if q.from.Frame != nil {
		var env struct {
			Params struct {
				RequestedSchema json.RawMessage `json:"requestedSchema"`
			} `json:"params"`
		}
		if json.Unmarshal(q.from.Frame.Raw, &env) == nil && !isNull(env.Params.RequestedSchema) {
			return env.Params.RequestedSchema
		}
	}
	raw, _ := json.Marshal(q.elicit.RequestedSchema)
	return raw
}

// contentText is a sampling message's content, as text where it is text.
func contentText(c mcp.Content) string {
	if t, ok := c.(*mcp.TextContent); ok {
		return t.Text
	}
	raw, _ := json.Marshal(c)
	return string(raw)
}

func (d *askDialog) revalidate() {
	v := d.edit.value()
	if v == d.checked || !d.isElicit() {
		return
	}
	d.checked = v
	d.problem, d.violations, d.schemaErr = checkJSON(v), nil, nil
	if d.problem == nil && !isNull(d.schema) {
		d.violations, d.schemaErr = schema.Validate(d.schema, json.RawMessage(v))
	}
	d.fitEditor()
}

// Layout: the request on top (scrolls on its own), a label line, the
// editor, the problems (elicitation) below it.
func (d *askDialog) setSize(w, h int) {
	d.width, d.height = w, h
	if d.q == nil {
		return
	}
	if d.aboutDoc != nil {
		d.aboutDoc = d.describe() // the schema is drawn for the width
	}
	d.about.setSize(w, max(min(h/2, h-minAnswerRows), 1))
	d.about.keepDoc(d.aboutDoc)
	d.fitEditor()
}

// minAnswerRows is what the request leaves for the answer, its label line
// and its problems, however long the request.
const minAnswerRows = 6

// fitEditor gives the editor what the request, its label and the problems
// leave.
func (d *askDialog) fitEditor() {
	aboutH := min(d.about.height, len(d.about.rows))
	probH := 0
	if d.isElicit() {
		probH = len(d.problemLines())
	}
	d.edit.setSize(d.width, max(d.height-aboutH-chromeRows(d.label())-probH, 1))
	if d.form != nil {
		d.form.width, d.form.height = d.width, max(d.height-aboutH-chromeRows(d.label())-probH, 1)
	}
}

// update takes the answer's text, a paste and the wheel.
func (d *askDialog) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case wheelMsg:
		d.about.scroll(msg.dy)
	case tea.KeyPressMsg, tea.PasteMsg:
		d.typed(msg)
	}
	return nil
}

// inForm reports whether the content is being filled in the form.
func (d *askDialog) inForm() bool { return d.form != nil && !d.json }

func (d *askDialog) typed(msg tea.Msg) tea.Cmd {
	if d.q != nil && d.inForm() {
		if d.form.typed(msg) {
			d.edit.setValue(d.form.content())
			d.confirm = false
			d.revalidate()
		}
		return nil
	}
	if d.q != nil && d.edit.update(msg) {
		d.confirm = false
		d.revalidate()
	}
	return nil
}

func (d *askDialog) actions() []action {
	if d.q == nil {
		return nil
	}
	k := d.keys
	var as []action
	if d.isElicit() {
		as = []action{
			on(k.Send, d.send),
			on(k.Reject, func() tea.Cmd { return d.answer(askAnswer{elicit: &mcp.ElicitResult{Action: "decline"}}, "declined") }),
			on(k.Cancel, func() tea.Cmd { return d.answer(askAnswer{elicit: &mcp.ElicitResult{Action: "cancel"}}, "cancelled") }),
		}
	} else {
		as = []action{
			on(k.SendReply, d.send),
			on(k.RejectSampling, func() tea.Cmd {
				return d.answer(askAnswer{err: session.RejectSampling()}, "rejected (JSON-RPC error -1)")
			}),
		}
	}
	as = append(as,
		on(k.Later, func() tea.Cmd { return d.out.send(hideAskMsg{}) }),
		on(k.AboutDown, does(func() { d.about.scroll(1) })),
		on(k.AboutUp, does(func() { d.about.scroll(-1) })),
	)
	if d.form != nil {
		as = append(as, on(k.FormJSON, does(d.toggleJSON)))
	}
	if d.inForm() {
		as = append(as, on(k.FormNext, does(func() { d.form.move(1) })), on(k.FormPrev, does(func() { d.form.move(-1) })))
		if d.form.fields[d.form.at].isChoice() {
			return as
		}
		return append(as, fieldActions(d.form.edit, func(k tea.KeyPressMsg) tea.Cmd { return d.typed(k) })...)
	}
	return append(as, fieldActions(d.edit, func(k tea.KeyPressMsg) tea.Cmd { return d.typed(k) })...)
}

func (d *askDialog) send() tea.Cmd {
	text := d.edit.value()
	if !d.isElicit() {
		res := &mcp.CreateMessageResult{Model: samplingModel, Role: "assistant", Content: &mcp.TextContent{Text: text}}
		return d.answer(askAnswer{sampling: res}, "answered with your reply")
	}
	switch {
	case d.problem != nil:
		return d.out.send(statusMsg{text: "cannot accept: " + d.problem.String() + " (ctrl+x declines, ctrl+g cancels)", isErr: true})
	case len(d.violations) > 0 && !d.confirm:
		d.confirm = true
		return d.out.send(statusMsg{text: fmt.Sprintf("the content violates the requested schema (%d): ctrl+s again sends it anyway (the SDK then answers the server with an error instead)", len(d.violations)), isErr: true})
	}
	// Plain float64 numbers, not json.Number: the SDK validates the content
	// against the schema itself and takes a json.Number for a string.
	var content map[string]any
	if err := json.Unmarshal([]byte(text), &content); err != nil || content == nil {
		return d.out.send(statusMsg{text: "cannot accept: the content must be a JSON object", isErr: true})
	}
	return d.answer(askAnswer{elicit: &mcp.ElicitResult{Action: "accept", Content: content}}, "accepted with your content")
}

// toggleJSON switches between the form and its content as JSON. Back in
// the form, the content is the form's again.
func (d *askDialog) toggleJSON() {
	d.json = !d.json
	if d.json {
		d.edit.setValue(d.form.asJSON())
	} else {
		d.edit.setValue(d.form.content())
	}
	d.confirm = false
	d.revalidate()
	d.aboutDoc = d.describe()
	d.setSize(d.width, d.height)
}

func (d *askDialog) answer(a askAnswer, what string) tea.Cmd {
	return d.out.send(answerAskMsg{id: d.q.id, answer: a, what: what})
}

func (d *askDialog) view() string {
	if d.q == nil {
		return ""
	}
	body := d.edit.view()
	if d.inForm() {
		body = d.form.view()
	}
	lines := []string{d.about.view(d.st), d.label(), body}
	if d.isElicit() {
		lines = append(lines, strings.Join(d.problemLines(), "\n"))
	}
	return strings.Join(lines, "\n")
}

// label is the line between the request and the answer: what to type.
func (d *askDialog) label() string {
	label := "your reply: the assistant's text, model \"" + samplingModel + "\" (ctrl+k clears the placeholder)"
	switch {
	case d.inForm():
		label = "content: the requested schema as a form (● required) · tab next field · " + d.form.hint() + " · ctrl+t JSON"
	case d.isElicit():
		label = "content: JSON, checked against the requested schema as you type"
		if d.form != nil {
			label += " · ctrl+t back to the form"
		}
	}
	if d.about.maxTop() > 0 {
		label += " · shift+↓/↑ scroll the request (" + d.about.position() + ")"
	}
	return d.st.muted.Render(ansi.Truncate("── "+label+" ", d.width, "…"))
}

func (d *askDialog) problemLines() []string {
	probH := min(max(d.height/4, 2), 8)
	var out []string
	switch {
	case d.problem != nil:
		out = append(out, d.st.errorText.Render("✗ "+d.problem.String()+" — cannot accept"))
	case d.schemaErr != nil:
		out = append(out, d.st.warnText.Render("! the requested schema does not compile; content not checked: "+d.schemaErr.Error()))
	case len(d.violations) == 0:
		out = append(out, d.st.okText.Render("✓ valid against the requested schema"))
	default:
		out = append(out, d.st.warnText.Render(fmt.Sprintf("! %d schema violation%s (ctrl+s twice sends anyway)", len(d.violations), frames.Plural(len(d.violations)))))
		for _, v := range d.violations {
			out = append(out, d.st.violation.Render("  "+v.String()))
		}
	}
	if len(out) > probH {
		out = append(out[:probH-1], d.st.muted.Render(fmt.Sprintf("  … %d more", len(out)-probH+1)))
	}
	for i, l := range out {
		out[i] = ansi.Truncate(l, d.width, "…")
	}
	return out
}

// asks are the server's requests for a human: the bridge from the
// session's hooks, the requests waiting for an answer (oldest first), and
// the dialog that shows the oldest.
type asks struct {
	asker  *asker
	queue  []*serverAsk
	dialog *askDialog
}

func newAsks(quit context.Context, st *styles, out *outbox, red *frames.Redactor) *asks {
	return &asks{asker: newAsker(quit), dialog: newAskDialog(st, out, red)}
}

func (a *asks) pending(id int) *serverAsk {
	for _, q := range a.queue {
		if q.id == id {
			return q
		}
	}
	return nil
}

func (a *asks) drop(id int) {
	for i, q := range a.queue {
		if q.id == id {
			a.queue = append(a.queue[:i], a.queue[i+1:]...)
			break
		}
	}
	a.dialog.waiting = len(a.queue)
}

// serverAsked takes a request the server sent for a human: its dialog
// opens at once unless another dialog is being used.
func (m *Model) serverAsked(msg serverAskMsg) tea.Cmd {
	q := msg.q
	m.asks.queue = append(m.asks.queue, q)
	m.asks.dialog.waiting = len(m.asks.queue)
	m.hdr.waiting = len(m.asks.queue)
	switch m.overlay.(type) {
	case nil, *textOverlay, *levelPicker:
		m.openAsk()
		m.status.statusLine = statusLine{} // the footer shows how to answer
	default:
		m.setStatus(fmt.Sprintf("the server sent %s and waits for your answer: A (ctrl+o while typing) answers it", q.method()), true)
	}
	return tea.Batch(waitAsk(m.ctx, m.asks.asker), waitAskDone(q))
}

func (m *Model) answerAsk(msg answerAskMsg) tea.Cmd {
	q := m.asks.pending(msg.id)
	if q != nil && closed(q.done) {
		m.asks.drop(msg.id)
		m.afterAsk()
		q = nil
	}
	if q == nil {
		m.setStatus("the server's request was withdrawn before your answer: nothing was sent", true)
		return nil
	}
	q.reply <- msg.answer // buffered, and only this answer is ever sent
	m.asks.drop(msg.id)
	m.hdr.waiting = len(m.asks.queue)
	m.setStatus(fmt.Sprintf("%s id=%s %s", q.method(), q.from.ID, msg.what), false)
	m.afterAsk()
	return nil
}

// askDone: the hook returned without this dialog's answer: the server
// withdrew the request, the call was cancelled, or the session ended.
func (m *Model) askDone(msg askDoneMsg) tea.Cmd {
	if q := m.asks.pending(msg.id); q != nil {
		m.asks.drop(msg.id)
		m.hdr.waiting = len(m.asks.queue)
		m.setStatus(fmt.Sprintf("%s id=%s was withdrawn (cancelled or the session ended) before you answered", q.method(), q.from.ID), true)
		m.afterAsk()
	}
	return nil
}

func (m *Model) hideAsk() tea.Cmd {
	m.overlay = nil
	m.setStatus("the server still waits for your answer: A (ctrl+o while typing) opens its request again", false)
	return nil
}

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// afterAsk shows the next waiting request, or closes the dialog.
func (m *Model) afterAsk() {
	if m.overlay != m.asks.dialog {
		return
	}
	if len(m.asks.queue) > 0 {
		m.openAsk()
		return
	}
	m.overlay = nil
	m.asks.dialog.q = nil
}

// openAsk shows the oldest waiting request (it stays shown if it already is).
func (m *Model) openAsk() tea.Cmd {
	if len(m.asks.queue) == 0 {
		m.setStatus("the server is not waiting for an answer", false)
		return nil
	}
	d := m.asks.dialog
	if q := m.asks.queue[0]; d.q != q {
		r := m.overlayContent()
		d.setSize(r.w, r.h)
		d.open(q, m.calls().openNote())
	}
	m.openOverlay(d)
	return nil
}
