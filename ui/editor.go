package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/schema"
)

// editorPane is where a call's arguments are typed, as JSON. It validates
// on every change and never blocks: invalid JSON cannot be sent (there is
// nothing to send), arguments that violate the input schema need one more
// ctrl+s and then go out byte for byte as typed.
type editorPane struct {
	st   *styles
	keys editorKeys
	out  *outbox

	ta      *textEdit
	tool    string // the tool, or the prompt when prompt is set
	input   json.RawMessage
	editing bool

	// prompt: the arguments are a prompts/get's (strings), not a
	// tools/call's; fresh is what ctrl+r resets them to.
	prompt bool
	fresh  string
	// template is what jig wrote to start from (the required arguments, or
	// the prompt's names): a paste over it replaces it, as the paste is
	// the call the user came with.
	template string

	checked    string // the text last validated
	problem    *jsonProblem
	violations []schema.Violation
	schemaErr  error
	empty      []string // required string arguments still "", as the prefill left them
	redacted   []string // arguments holding a recording's redaction placeholder: never sent
	confirm    bool     // one ctrl+s was pressed on violating arguments

	env     *paneEnv
	histPos int // index into the calls being shown, or len(calls) for the draft
	draft   string

	// progress sends calls with _meta.progressToken: a different request
	// on the wire, so it is off until the user asks (ctrl+t) and shown
	// while on.
	progress bool

	problems      textView
	focused       bool
	width, height int
}

func newEditorPane(env *paneEnv) *editorPane {
	ta := newTextEdit(env.st, false)
	ta.numbers = true
	ta.placeholder = "pick a tool: 1, then enter"
	e := &editorPane{st: env.st, keys: newEditorKeys(), out: env.out, ta: ta, env: env, problems: textView{red: env.redact}}
	e.revalidate()
	return e
}

func (e *editorPane) title() string { return "Arguments" }

// calls are the session's calls, oldest first.
func (e *editorPane) calls() []*call { return e.env.calls.list }

// load starts editing a call of tool with the given arguments.
func (e *editorPane) load(tool string, input json.RawMessage, args string, histPos int) {
	e.tool, e.input, e.prompt = tool, input, false
	e.template = callTemplate(input)
	e.ta.setValue(args)
	e.histPos = histPos
	e.confirm = false
	e.checked = "\x00" // force
	e.revalidate()
}

// loadPrompt starts editing a prompts/get of the named prompt; input is
// the schema its arguments make, fresh the arguments ctrl+r resets to.
func (e *editorPane) loadPrompt(name string, input json.RawMessage, args, fresh string, histPos int) {
	e.load(name, input, args, histPos)
	e.prompt, e.fresh, e.template = true, fresh, fresh
}

// setSchema updates the input schema after a re-listing, keeping the text.
func (e *editorPane) setSchema(input json.RawMessage) {
	e.input = input
	e.checked = "\x00"
	e.revalidate()
}

func (e *editorPane) value() string { return e.ta.value() }

func (e *editorPane) revalidate() {
	v := e.ta.value()
	if v == e.checked {
		return
	}
	e.checked = v
	e.problem, e.violations, e.schemaErr, e.empty, e.redacted = nil, nil, nil, nil, nil
	if e.tool == "" {
		e.writeProblems()
		return
	}
	e.problem = checkJSON(v)
	if e.problem == nil {
		e.redacted = fixture.RedactedArguments(json.RawMessage(v))
	}
	if e.problem == nil && !isNull(e.input) {
		e.violations, e.schemaErr = schema.Validate(e.input, json.RawMessage(v))
		e.empty = emptyRequired(e.input, v)
	}
	e.writeProblems()
}

func (e *editorPane) writeProblems() {
	var b docBuilder
	switch {
	case e.tool == "":
		b.line(roleMuted, "No tool chosen yet.")
	case e.problem != nil:
		b.line(roleError, "✗ "+e.problem.String()+" — cannot send")
		b.line(rolePlain, "  "+e.problem.text)
		b.line(roleError, "  "+strings.Repeat(" ", max(e.problem.col-1, 0))+"^")
	case len(e.redacted) > 0:
		b.line(roleError, wrapText("✗ "+e.redactedText()+" — cannot send", "", e.width))
		b.line(rolePlain, wrapText("type the real value in its place (jig never sends a placeholder)", "  ", e.width))
	case e.schemaErr != nil:
		b.line(roleWarn, "! the input schema does not compile; arguments not checked:")
		b.line(rolePlain, wrapText(e.schemaErr.Error(), "  ", e.width))
	case isNull(e.input):
		b.line(roleMuted, "valid JSON · the tool lists no input schema to check against")
	case len(e.violations) == 0 && len(e.empty) > 0:
		e.writeEmpty(&b)
	case len(e.violations) == 0:
		if e.prompt {
			b.line(roleOK, "✓ every required argument is there, every value a string")
		} else {
			b.line(roleOK, "✓ valid against the input schema")
		}
	default:
		b.linef(roleWarn, "! %d schema violation%s (sendable: ctrl+s twice sends exactly as typed)", len(e.violations), frames.Plural(len(e.violations)))
		for _, v := range e.violations {
			b.line(roleViolation, "  "+v.String())
		}
		if len(e.empty) > 0 {
			e.writeEmpty(&b)
		}
	}
	if miss := e.missingOptional(); len(miss) > 0 && e.problem == nil {
		var names []string
		for _, o := range miss {
			names = append(names, o.short())
		}
		add := "o"
		if e.editing {
			add = "alt+o"
		}
		b.line(roleMuted, wrapText(fmt.Sprintf("optional: %s (%s adds)", strings.Join(names, ", "), add), "", e.width))
	}
	top := e.problems.top
	e.problems.setDoc(b.doc())
	e.problems.top = top
	e.problems.clamp()
}

// writeEmpty names the required arguments left as the prefill's "": jig
// typed those, not the user, so sending them takes a second ctrl+s.
func (e *editorPane) writeEmpty(b *docBuilder) {
	for _, name := range e.empty {
		b.linef(roleWarn, "! %s is required and still empty, as jig prefilled it: fill it in, or ctrl+s twice sends \"\"", name)
	}
}

// emptyRequired lists the required string properties of an object schema
// whose value in args is "".
func emptyRequired(input json.RawMessage, args string) []string {
	n, ok := parseSchema(input)
	if !ok || len(n.Required) == 0 {
		return nil
	}
	props := map[string]json.RawMessage{}
	for _, p := range members(n.Properties) {
		props[p.key] = p.value
	}
	required := map[string]bool{}
	for _, r := range n.Required {
		required[r] = true
	}
	var out []string
	for _, a := range members(json.RawMessage(args)) {
		if !required[a.key] || string(a.value) != `""` {
			continue
		}
		if p, ok := parseSchema(props[a.key]); ok && p.has("string") {
			out = append(out, a.key)
		}
	}
	return out
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func (e *editorPane) setFocus(f bool) {
	e.focused = f
	if !f {
		e.stopEditing()
	}
}

func (e *editorPane) typing() bool { return e.editing }

func (e *editorPane) startEditing() tea.Cmd {
	if e.tool == "" {
		return nil
	}
	e.editing = true
	e.ta.focus()
	e.checked = "\x00" // the hints name the keys of the mode
	e.revalidate()
	return nil
}

func (e *editorPane) stopEditing() {
	e.editing = false
	e.ta.blur()
	e.checked = "\x00"
	e.revalidate()
}

func (e *editorPane) setSize(w, h int) {
	e.width, e.height = w, h
	probH := min(max(h/3, 2), 8)
	chrome := chromeRows(e.head(), e.rule()) // the head line and the rule over the problems
	taH := max(h-probH-chrome, 1)
	e.ta.setSize(w, taH)
	e.problems.setSize(w, max(h-taH-chrome, 0))
	e.checked = "\x00"
	e.revalidate()
}

// update takes what is typed into the arguments, and the wheel.
func (e *editorPane) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case wheelMsg:
		if msg.y >= e.ta.height+1 {
			e.problems.scroll(msg.dy)
		} else {
			e.ta.top = max(min(e.ta.top+msg.dy, e.ta.cursorRow()), 0)
		}
	case tea.KeyPressMsg, tea.PasteMsg:
		if e.editing {
			e.typed(msg)
		}
	}
	return nil
}

func (e *editorPane) typed(msg tea.Msg) tea.Cmd {
	if _, paste := msg.(tea.PasteMsg); paste && e.template != "" && e.ta.value() == e.template {
		e.ta.setValue("") // the pasted call replaces the template nobody edited
	}
	if e.ta.update(msg) {
		e.confirm = false
		e.histPos = len(e.calls())
		e.revalidate()
	}
	return nil
}

func (e *editorPane) actions() []action {
	k, n := e.keys, len(e.calls())
	noTool := "pick a tool first: 1 for the tools, then enter"
	invalid := ""
	if e.problem != nil {
		invalid = "cannot send: " + e.problem.String()
	}
	send := on(k.Send, e.send).only(e.tool != "", noTool).
		only(e.env.conn.session() != nil || !e.env.conn.readOnly, "read-only: there is no live session to call").
		only(e.problem == nil, invalid)
	progress := on(k.Progress, e.toggleProgress).only(!e.prompt, "prompts/get has no progress token")
	reset := on(k.Reset, does(e.reset)).only(e.tool != "", noTool)
	if e.prompt {
		send = send.labelled("send prompts/get")
		reset = reset.labelled("reset to the prompt's argument names")
	}
	if e.progress {
		progress = progress.labelled("progress token: ON (turn off)")
	}
	add := e.addOptional
	noOptional := "no optional argument left to add"
	if e.prompt {
		noOptional = "a prompt's arguments are all listed"
	}
	as := []action{send, progress, reset,
		on(k.Clear, e.clear).only(e.tool != "", noTool),
		on(k.PrevCall, func() tea.Cmd { return e.history(-1) }).only(n > 0 && e.histPos > 0, "no earlier call"),
		on(k.NextCall, func() tea.Cmd { return e.history(+1) }).only(n > 0 && e.histPos < n, "this is the draft, the newest"),
	}
	if e.editing {
		as = append(as, on(k.Done, does(e.stopEditing)), on(k.AddOptionalTyping, add).only(len(e.missingOptional()) > 0, noOptional))
		if e.prompt { // a tool's arguments have no completions in MCP
			as = append(as, on(k.Complete, e.complete).only(e.env.conn.session() != nil, "not connected: there is no server to ask"))
		}
		return append(as, fieldActions(e.ta, func(k tea.KeyPressMsg) tea.Cmd { return e.typed(k) })...)
	}
	return append([]action{on(k.Edit, e.startEditing).only(e.tool != "", noTool),
		on(k.AddOptional, add).only(len(e.missingOptional()) > 0, noOptional)}, append(as,
		on(k.ScrollUp, does(func() { e.problems.scroll(-1) })),
		on(k.ScrollDown, does(func() { e.problems.scroll(1) })))...)
}

func (e *editorPane) reset() {
	if e.prompt {
		e.loadPrompt(e.tool, e.input, e.fresh, e.fresh, len(e.calls()))
		return
	}
	e.load(e.tool, e.input, callTemplate(e.input), len(e.calls()))
}

// clear empties the arguments, ready for a paste or typing.
func (e *editorPane) clear() tea.Cmd {
	e.ta.setValue("")
	e.histPos = len(e.calls())
	e.confirm = false
	e.revalidate()
	if !e.editing {
		e.startEditing()
	}
	return e.out.send(statusMsg{text: "arguments cleared: type or paste them (ctrl+r brings the template back)"})
}

// missingOptional are the optional arguments not in the text yet.
func (e *editorPane) missingOptional() []optionalArg {
	if e.prompt || e.tool == "" {
		return nil
	}
	present := map[string]bool{}
	for _, m := range members(json.RawMessage(e.ta.value())) {
		present[m.key] = true
	}
	var out []optionalArg
	for _, o := range optionalArgs(e.input) {
		if !present[o.name] {
			out = append(out, o)
		}
	}
	return out
}

// addOptional adds the first optional argument the text lacks, with its
// default (or a placeholder of its type), after what is typed.
func (e *editorPane) addOptional() tea.Cmd {
	miss := e.missingOptional()
	if len(miss) == 0 {
		return e.out.send(statusMsg{text: "every optional argument is already there"})
	}
	o := miss[0]
	text, ok := addMember(e.ta.value(), o.name, o.value)
	if !ok {
		return e.out.send(statusMsg{text: "the arguments are not a JSON object yet: fix them to add " + o.name, isErr: true})
	}
	e.ta.setValue(text)
	// The cursor goes to the end of the added member, to edit its value.
	e.ta.row = max(len(e.ta.lines)-2, 0)
	e.ta.col = len(e.ta.lines[e.ta.row])
	e.ta.follow()
	e.histPos = len(e.calls())
	e.confirm = false
	e.revalidate()
	return e.out.send(statusMsg{text: fmt.Sprintf("added %s (%s)", o.name, o.about)})
}

func (e *editorPane) toggleProgress() tea.Cmd {
	e.progress = !e.progress
	if e.progress {
		return e.out.send(statusMsg{text: "calls now carry _meta.progressToken: the server may send notifications/progress (ctrl+t turns it off)"})
	}
	return e.out.send(statusMsg{text: "calls are sent without a progress token again, exactly as typed"})
}

// history steps through the session's previous calls (of any tool); the
// root loads the chosen call's tool and arguments.
func (e *editorPane) history(delta int) tea.Cmd {
	n := len(e.calls())
	if n == 0 {
		return e.out.send(statusMsg{text: "no previous calls yet"})
	}
	if e.histPos >= n {
		e.draft = e.ta.value()
	}
	pos := max(min(e.histPos+delta, n), 0)
	if pos == n {
		e.histPos = n
		e.ta.setValue(e.draft)
		e.revalidate()
		return e.out.send(statusMsg{text: "back to the draft"})
	}
	return e.out.send(editCallMsg{id: e.calls()[pos].id})
}

// redactedText names the arguments that hold a redaction placeholder.
func (e *editorPane) redactedText() string {
	return strings.Join(e.redacted, ", ") + ": redacted in the recording"
}

func (e *editorPane) send() tea.Cmd {
	e.revalidate()
	switch {
	case len(e.redacted) > 0:
		return e.out.send(statusMsg{text: e.redactedText() + ": type the real value; jig never sends the placeholder", isErr: true})
	case len(e.violations) > 0 && !e.confirm:
		e.confirm = true
		what := "input schema"
		if e.prompt {
			what = "declared arguments"
		}
		return e.out.send(statusMsg{text: fmt.Sprintf("the arguments violate %s's %s (%d): ctrl+s again sends them exactly as typed", e.tool, what, len(e.violations)), isErr: true})
	case len(e.empty) > 0 && !e.confirm:
		e.confirm = true
		return e.out.send(statusMsg{text: fmt.Sprintf("%s %s still empty, as jig prefilled %s: ctrl+s again sends %s empty", strings.Join(e.empty, ", "),
			isAre(len(e.empty)), itThem(len(e.empty)), itThem(len(e.empty))), isErr: true})
	}
	e.confirm = false
	// A call sent is done with: the keys typed next are the panes' (3, m,
	// [ c), as after every other editor's send, not more JSON. enter or e
	// edits again, the cursor where it was.
	if e.editing {
		e.stopEditing()
	}
	if e.prompt {
		return e.out.send(getPromptMsg{name: e.tool, args: e.ta.value(), violations: e.violations})
	}
	return e.out.send(sendCallMsg{tool: e.tool, args: e.ta.value(), violations: e.violations, progress: e.progress})
}

// head is the line over the text: what is edited, and how.
func (e *editorPane) head() string {
	// The forms of the head, longest first: the tool's name is the last
	// thing cut ("search_orde… enter to edit" at 120 columns).
	heads := []string{"arguments"}
	switch {
	case e.prompt:
		heads = []string{e.tool + " · prompt arguments (a JSON object of strings)", e.tool + " · prompt arguments", e.tool}
	case e.tool != "":
		heads = []string{e.tool + " · arguments (JSON, sent exactly as typed)", e.tool + " · arguments", e.tool}
	}
	if e.histPos < len(e.calls()) {
		from := fmt.Sprintf(" · from call #%d", e.calls()[e.histPos].id)
		for i := range heads {
			heads[i] += from
		}
	}
	// The mode, its long form and short ones: shortened only once the
	// head is down to the tool's name.
	modes := []string{""}
	switch {
	case e.editing:
		w := e.st.warnText.Render("EDITING")
		modes = []string{w + e.st.muted.Render(" esc to stop"), w}
	case e.tool != "":
		modes = []string{e.st.muted.Render("enter to edit · ctrl+s send"), e.st.muted.Render("enter edit · ctrl+s send"), e.st.muted.Render("ctrl+s send")}
	}
	head, mode := heads[len(heads)-1], modes[len(modes)-1]
	fits := func(h, m string) bool { return ansi.StringWidth(h)+1+ansi.StringWidth(m) <= e.width }
pick:
	for mi, m := range modes {
		for hi, h := range heads {
			if (mi == 0 || hi == len(heads)-1) && fits(h, m) {
				head, mode = h, m
				break pick
			}
		}
	}
	room := max(e.width-ansi.StringWidth(mode)-1, 0)
	line := e.st.label.Render(ansi.Truncate(head, room, "…"))
	if gap := e.width - ansi.StringWidth(line) - ansi.StringWidth(mode); gap >= 1 {
		line += strings.Repeat(" ", gap) + mode
	}
	if e.confirm {
		why := "the schema violations"
		if len(e.violations) == 0 {
			why = "the empty required arguments"
		}
		line = e.st.warnText.Render(ansi.Truncate("ctrl+s again: send despite "+why, e.width, "…"))
	}
	return line
}

// rule is the line between the text and its problems.
func (e *editorPane) rule() string {
	if e.progress && !e.prompt {
		// The call is not sent as typed alone: say so where it is typed.
		note := ansi.Truncate("── + _meta.progressToken (ctrl+t leaves it out) ", e.width, "…")
		return e.st.warnText.Render(note) + e.st.muted.Render(strings.Repeat("─", max(e.width-ansi.StringWidth(note), 0)))
	}
	return e.st.muted.Render(strings.Repeat("─", e.width))
}

func (e *editorPane) view() string {
	return e.head() + "\n" + e.ta.view() + "\n" + e.rule() + "\n" + e.problems.view(e.st)
}
