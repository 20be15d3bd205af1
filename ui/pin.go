package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/replay"
)

// pinDialog turns one call into a golden fixture, as jig call --pin does:
// the user names it, jig builds it (replay.Pin, which may call a read-only
// tool once more to see what varies), shows the proposed normalization
// rules, assertions and redactions, and only then saves it. An existing
// file is never replaced without the explicit overwrite key, and a failure
// keeps everything typed and built, so the user can fix the path and retry.
type pinDialog struct {
	st   *styles
	keys pinKeys
	out  *outbox

	token  int // which opening this is; replies to an earlier one are dropped
	callID int
	head   string // what is pinned, one line
	probes bool   // the tool is read-only: building calls it once more
	// before is how many pinnable calls of the session came before this
	// one: the calls field may take up to that many more into a scenario.
	before int

	stage      pinStage
	fields     [pinFieldCount]*textEdit
	field      pinField
	pathEdited bool // the user typed a path: it no longer follows the scenario

	fix    *fixture.Fixture // built once, kept across edits of the fields
	path   string           // the file the review is about, as typed
	abs    string
	exists bool // the file was there when last looked at
	err    error
	saved  string // the status line after saving

	review        textView
	width, height int
}

type pinStage uint8

const (
	pinForm pinStage = iota
	pinBuilding
	pinReview
	pinSaving
	pinSaved
)

type pinField int

const (
	fieldScenario pinField = iota
	fieldNote
	fieldPath
	fieldCalls
	pinFieldCount
)

var pinFieldLabels = [pinFieldCount]string{"scenario", "note", "file", "calls"}

func newPinDialog(st *styles, red *frames.Redactor) *pinDialog {
	d := &pinDialog{st: st, keys: newPinKeys(), review: textView{red: red}}
	for i := range d.fields {
		d.fields[i] = newTextEdit(st, true)
	}
	d.fields[fieldNote].placeholder = "what this fixture protects (optional)"
	return d
}

// calls is how many of the session's last calls the fixture pins, as one
// scenario: 1 (this call alone) unless the calls field says more.
func (d *pinDialog) calls() (int, error) {
	v := d.value(fieldCalls)
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil || n < 1:
		return 0, fmt.Errorf("calls %q: give how many of the session's last calls to pin as one scenario, 1 to %d", v, d.before+1)
	case n > d.before+1:
		return 0, fmt.Errorf("calls %d: the session has %d call(s) up to this one that can be pinned", n, d.before+1)
	}
	return n, nil
}

// open starts the dialog afresh for call c, after before pinnable calls.
func (d *pinDialog) open(token int, c *call, probes bool, before int) {
	scenario := strings.Trim(unsafeName().ReplaceAllString(strings.ToLower(strings.ReplaceAll(c.tool, "_", "-")), "-"), "-.")
	if scenario == "" {
		scenario = "call"
	}
	*d = pinDialog{st: d.st, keys: d.keys, out: d.out, fields: d.fields, width: d.width, height: d.height,
		token: token, callID: c.id, probes: probes, before: before, review: textView{red: d.review.red}}
	d.head = fmt.Sprintf("call #%d → %s %s  %s", c.id, c.tool, oneLine(d.review.red, c.args, 200), ansi.Strip(c.badge(d.st)))
	d.fields[fieldScenario].setValue(scenario)
	d.fields[fieldNote].setValue("")
	d.fields[fieldPath].setValue(defaultPinPath(scenario))
	d.fields[fieldCalls].setValue("1")
	for _, f := range d.fields {
		f.cursorEnd()
	}
	d.focusField(fieldScenario)
	d.setSize(d.width, d.height)
}

func defaultPinPath(scenario string) string {
	return filepath.Join("fixtures", unsafeName().ReplaceAllString(scenario, "_")+".json")
}

func (d *pinDialog) value(f pinField) string { return strings.TrimSpace(d.fields[f].value()) }

func (d *pinDialog) focusField(f pinField) {
	d.field = f
	for i, t := range d.fields {
		if pinField(i) == f && d.stage == pinForm {
			t.focus()
		} else {
			t.blur()
		}
	}
}

func (d *pinDialog) setSize(w, h int) {
	d.width, d.height = w, h
	for _, t := range d.fields {
		t.setSize(max(w-pinLabelW, 1), 1)
	}
	d.review.setSize(w, max(h-1, 1)) // a line for the scroll position
	if d.stage >= pinReview {
		d.review.keepDoc(d.reviewDoc())
	}
}

func (d *pinDialog) title() string { return fmt.Sprintf("Pin call #%d as a golden fixture", d.callID) }

// typing: the form's fields take text.
func (d *pinDialog) typing() bool { return d.stage == pinForm }

// update takes what is typed into the form's fields, and the wheel.
func (d *pinDialog) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case wheelMsg:
		if d.stage == pinReview || d.stage == pinSaving {
			d.review.scroll(msg.dy)
		}
	case tea.KeyPressMsg, tea.PasteMsg:
		if d.stage == pinForm {
			d.edit(msg)
		}
	}
	return nil
}

// actions: enter moves forward at every stage; nothing is written before
// the review, and an existing file is only replaced with o.
func (d *pinDialog) actions() []action {
	k := d.keys
	cancel := on(k.Cancel, func() tea.Cmd { return d.out.send(closePinMsg{}) })
	switch d.stage {
	case pinForm:
		as := []action{on(k.Build, d.build), cancel,
			on(k.NextField, does(func() { d.focusField((d.field + 1) % pinFieldCount) })),
			on(k.PrevField, does(func() { d.focusField((d.field + pinFieldCount - 1) % pinFieldCount) })),
		}
		return append(as, fieldActions(d.fields[d.field], func(k tea.KeyPressMsg) tea.Cmd { d.edit(k); return nil })...)
	case pinBuilding:
		return []action{cancel}
	case pinReview:
		return append([]action{
			on(k.Save, func() tea.Cmd { return d.save(false) }),
			on(k.Overwrite, func() tea.Cmd { return d.save(true) }).only(d.exists, "the file does not exist: enter saves it"),
			cancel,
			on(k.Edit, does(func() { d.stage, d.err = pinForm, nil; d.focusField(fieldPath) })),
		}, scrollActions(k.scrollKeys, &d.review)...)
	case pinSaved:
		return []action{on(k.Close, func() tea.Cmd { return d.out.send(closePinMsg{}) })}
	}
	return []action{cancel} // while saving, keys wait: the fixture is being written
}

// edit types into the focused field; the path follows the scenario until
// the user types a path of their own.
func (d *pinDialog) edit(msg tea.Msg) {
	if !d.fields[d.field].update(msg) {
		return
	}
	d.err = nil
	switch d.field {
	case fieldScenario:
		if !d.pathEdited {
			d.fields[fieldPath].setValue(defaultPinPath(d.value(fieldScenario)))
			d.fields[fieldPath].cursorEnd()
		}
	case fieldPath:
		d.pathEdited = true
	case fieldCalls:
		d.fix = nil
	}
}

func (d *pinDialog) build() tea.Cmd {
	switch {
	case d.value(fieldScenario) == "":
		d.err = fmt.Errorf("the scenario needs a name: reports and replays refer to it")
		d.focusField(fieldScenario)
		return nil
	case d.value(fieldPath) == "":
		d.err = fmt.Errorf("the fixture needs a file to be saved in, e.g. %s", defaultPinPath(d.value(fieldScenario)))
		d.focusField(fieldPath)
		return nil
	}
	n, err := d.calls()
	if err != nil {
		d.err = err
		d.focusField(fieldCalls)
		return nil
	}
	if d.fix != nil && len(d.fix.Calls()) != n {
		d.fix = nil // another number of calls: another fixture
	}
	d.stage, d.err = pinBuilding, nil
	d.focusField(d.field)
	return d.out.send(buildPinMsg{token: d.token, path: d.value(fieldPath), have: d.fix})
}

// built takes the built fixture to the review, or the failure back to the form.
func (d *pinDialog) built(msg pinBuiltMsg) {
	if msg.f == nil {
		d.stage, d.err = pinForm, msg.err
		d.focusField(d.field)
		return
	}
	d.fix = msg.f
	if msg.err != nil { // built, but the file cannot be looked at
		d.stage, d.err = pinForm, msg.err
		d.focusField(fieldPath)
		return
	}
	d.fix.Scenario, d.fix.Note = d.value(fieldScenario), d.value(fieldNote)
	d.path, d.abs, d.exists, d.err = d.value(fieldPath), msg.abs, msg.exists, nil
	d.stage = pinReview
	d.review.setDoc(d.reviewDoc())
}

func (d *pinDialog) save(overwrite bool) tea.Cmd {
	d.stage, d.err = pinSaving, nil
	d.review.keepDoc(d.reviewDoc())
	return d.out.send(savePinMsg{token: d.token, f: d.fix, path: d.path, overwrite: overwrite})
}

// savedReply shows where the fixture went and how to replay it, or why it
// did not go, keeping the review.
func (d *pinDialog) savedReply(msg pinSavedMsg) {
	if msg.err != nil {
		d.stage, d.err = pinReview, msg.err
		d.exists = d.exists || msg.exists
		d.review.keepDoc(d.reviewDoc())
		d.review.home()
		return
	}
	d.stage, d.abs = pinSaved, msg.abs
	a := d.advice()
	d.saved = fmt.Sprintf("pinned %s (scenario %q); %s", msg.path, d.fix.Scenario, a.Line())
	short := fmt.Sprintf("✓ pinned %s · %s", msg.path, a.Command)
	if !a.Replayable() {
		g := d.fix.Gaps()[len(d.fix.Gaps())-1] // the target's come first; a request's is why
		short = fmt.Sprintf("⚠ pinned %s, not replayable: %s holds %s; pin it from a variable (--secret-env NAME)", msg.path, g.Field, g.Placeholder)
	}
	if ansi.StringWidth(d.saved) > d.width {
		d.saved = short // the replay command (or that there is none) is what must fit
	}
}

// advice is how to replay the fixture from the file it goes to: never a
// command that would refuse to run it.
func (d *pinDialog) advice() replay.Advice { return replay.AdviseReplay(d.path, d.fix) }

// reviewDoc is what the user reviews before saving: where it goes, what is
// pinned, and every rule, assertion and redaction with its reason.
func (d *pinDialog) reviewDoc() *doc {
	var b docBuilder
	f := d.fix
	switch {
	case d.err != nil:
		b.line(roleError, "✗ "+d.err.Error())
	case d.stage == pinSaving:
		b.line(roleMuted, "saving…")
	default:
		b.line(roleLabel, "Review what will be compared on replay, then enter saves.")
	}
	w := d.width
	b.line(rolePlain, "")
	b.line(rolePlain, labelled("scenario", f.Scenario, w))
	if f.Note != "" {
		b.line(rolePlain, labelled("note", f.Note, w))
	}
	b.line(rolePlain, labelled("file", d.path, w))
	switch {
	case d.exists:
		b.line(roleWarn, labelled("", "⚠ this file exists: enter will not replace it; o overwrites it, e picks another file", w))
	case d.abs != "":
		b.line(roleMuted, labelled("", "new file: "+d.abs, w))
	}
	b.line(rolePlain, labelled("pinned", d.head, w))
	if n := len(f.Calls()); n > 1 {
		b.line(rolePlain, labelled("scenario", fmt.Sprintf("%d calls of this session, replayed in order in one fresh session", n), w))
	}
	b.line(rolePlain, labelled("server", fmt.Sprintf("%s %s · protocol %s", f.Server.Name, f.Server.Version, orUnknown(f.ProtocolVersion)), w))
	b.line(rolePlain, labelled("replays", "against "+describeTarget(f.Target), w))
	if a := replay.AdviseReplay(d.path, f); !a.Replayable() {
		b.line(roleWarn, labelled("", "⚠ it cannot be replayed as saved: "+a.Why, w))
	} else if a.Why != "" {
		b.line(roleWarn, labelled("", "⚠ a replay needs what the fixture cannot keep: "+a.Command+" ("+a.Why+")", w))
	}
	switch {
	case len(f.Calls()) > 1:
		b.line(roleMuted, labelled("probed", "no: a scenario is not probed here (jig call --pin --append probes in a fresh session); rules come from the values' shapes", w))
	case d.probes:
		b.line(roleMuted, labelled("probed", "the tool is read-only (readOnlyHint), so jig called it once more; values that differed became rules", w))
	case f.Request.Method == "tools/call":
		b.line(roleMuted, labelled("probed", "no: the tool is not marked read-only, so jig did not call it again; rules come from the values' shapes", w))
	}
	b.line(rolePlain, "")
	var desc bytes.Buffer
	replay.Describe(&desc, f)
	for _, l := range strings.Split(strings.TrimRight(desc.String(), "\n"), "\n") {
		if !strings.HasPrefix(l, " ") {
			b.line(roleLabel, wrapHanging(l, "  ", w))
			continue
		}
		b.line(rolePlain, wrapHanging(l, "      ", w))
	}
	b.line(rolePlain, "")
	b.line(roleMuted, wrapText("Rules say which values may vary and what they must still be; assertions must keep holding. Edit both in the file after saving; e changes the name, note or file now.", "", w))
	return b.doc()
}

// labelled wraps text beside a label column, continuing under the text.
func labelled(label, text string, width int) string {
	pad := strings.Repeat(" ", pinLabelW)
	return fmt.Sprintf("%-*s", pinLabelW, label) + wrapHanging(pad+text, pad, width)[pinLabelW:]
}

const pinLabelW = 10

func describeTarget(t fixture.Target) string {
	switch {
	case t.Transport == "demo":
		return fmt.Sprintf("the demo server, release %d", t.Release)
	case len(t.Command) > 0:
		return strings.Join(t.Command, " ")
	case t.URL != "":
		return t.Transport + " " + t.URL
	}
	return orUnknown(t.Transport)
}

// readOnlyTool reports whether a tool definition carries readOnlyHint, the
// annotation that makes replay.Pin probe it with a second identical call.
func readOnlyTool(def json.RawMessage) bool {
	var t struct {
		Annotations struct {
			ReadOnlyHint bool `json:"readOnlyHint"`
		} `json:"annotations"`
	}
	return json.Unmarshal(def, &t) == nil && t.Annotations.ReadOnlyHint
}

func (d *pinDialog) view() string {
	switch d.stage {
	case pinReview, pinSaving:
		v := d.review.view(d.st)
		if d.review.maxTop() > 0 {
			v += "\n" + d.st.muted.Render(ansi.Truncate("↓/↑ scroll the review · "+d.review.position(), d.width, "…"))
		}
		return v
	case pinSaved:
		return d.savedView()
	}
	return d.formView()
}

func (d *pinDialog) formView() string {
	lines := []string{d.st.label.Render(ansi.Truncate(d.head, d.width, "…")), ""}
	for i, t := range d.fields {
		label := d.st.muted.Render(fmt.Sprintf("%-*s", pinLabelW, pinFieldLabels[i]))
		if pinField(i) == d.field && d.stage == pinForm {
			label = d.st.title.Render(fmt.Sprintf("%-*s", pinLabelW, pinFieldLabels[i]))
		}
		lines = append(lines, label+t.view())
	}
	lines = append(lines, "")
	switch {
	case d.err != nil:
		lines = append(lines, d.st.errorText.Render(wrapText("✗ "+d.err.Error(), "", d.width)), "")
	case d.stage == pinBuilding && d.fix == nil && d.probes:
		lines = append(lines, d.st.warnText.Render("building the fixture: calling the tool once more to see which values vary (the frames pane shows it)…"), "")
	case d.stage == pinBuilding:
		lines = append(lines, d.st.muted.Render("building the fixture…"), "")
	}
	lines = append(lines, d.st.muted.Render(wrapText("The file is relative to the working directory. Enter builds the fixture and shows its normalization rules, assertions and redactions for review; nothing is saved before that.", "", d.width)))
	if d.probes && d.fix == nil {
		lines = append(lines, d.st.muted.Render(wrapText("This tool is read-only (readOnlyHint), so building calls it once more with the same arguments to find the values that vary: real traffic, shown in the frames pane.", "", d.width)))
	}
	if d.before > 0 {
		lines = append(lines, d.st.muted.Render(wrapText(fmt.Sprintf("A replay starts a fresh session: if the %d call(s) before this one changed the server's state, put them in the scenario too (calls: up to %d); values a later call sent back from an earlier answer are re-captured on every replay.", d.before, d.before+1), "", d.width)))
	}
	return strings.Join(lines, "\n")
}

func (d *pinDialog) savedView() string {
	a := d.advice()
	if !a.Replayable() {
		return strings.Join([]string{
			d.st.warnText.Render(wrapHanging("⚠ pinned "+d.abs+", but it cannot be replayed as saved", "  ", d.width)),
			"",
			labelled("scenario", d.fix.Scenario, d.width),
			d.st.warnText.Render(wrapText(a.Why, "", d.width)),
		}, "\n")
	}
	lines := []string{
		d.st.okText.Render(wrapHanging("✓ pinned "+d.abs, "  ", d.width)),
		"",
		labelled("scenario", d.fix.Scenario, d.width),
		"replay it with:",
		"",
		"  " + d.st.label.Render(a.Command),
		"",
	}
	if a.Why != "" {
		lines = append(lines, d.st.warnText.Render(wrapText(a.Why, "", d.width)), "")
	}
	lines = append(lines, d.st.muted.Render(wrapText("Against another server: "+a.Command+" -- <command>. A whole folder: jig replay "+shellQuote([]string{filepath.Dir(d.path) + "/"}), "", d.width)))
	return strings.Join(lines, "\n")
}

// pinning is the pin dialog and what it has under way: how many times it
// was opened (each opening's token, so replies to an earlier one are
// dropped), and how to stop building its fixture.
type pinning struct {
	dialog *pinDialog
	opened int
	cancel context.CancelFunc
}

func newPinning(st *styles, out *outbox, red *frames.Redactor) *pinning {
	d := newPinDialog(st, red)
	d.out = out
	return &pinning{dialog: d}
}

// pinCall opens the pin dialog for a call (the result pane's P says why it
// cannot be pinned before it sends this).
func (m *Model) pinCall(msg pinCallMsg) tea.Cmd {
	c, s := m.calls().byID(msg.id), m.session()
	switch {
	case s == nil:
		m.setStatus("not connected: pinning needs the live session (r retries connecting)", true)
	case c == nil || !c.done:
		m.setStatus("this call has no response yet: pin it when it has one", true)
	case !c.pinnable():
		m.setStatus(fmt.Sprintf("call #%d failed before a response came back: there is nothing to pin", c.id), true)
	default:
		m.pins.opened++
		r := m.overlayContent()
		m.pins.dialog.setSize(r.w, r.h)
		m.pins.dialog.open(m.pins.opened, c, readOnlyTool(c.def), len(m.pinnableBefore(c.id)))
		m.openOverlay(m.pins.dialog)
	}
	return nil
}

func (m *Model) buildPin(msg buildPinMsg) tea.Cmd {
	d := m.pins.dialog
	if msg.token != d.token {
		return nil
	}
	c, s := m.calls().byID(d.callID), m.session()
	if s == nil || c == nil {
		d.built(pinBuiltMsg{token: d.token, err: fmt.Errorf("the session is closed: the call can no longer be pinned")})
		return nil
	}
	n, err := d.calls()
	if err != nil {
		d.built(pinBuiltMsg{token: d.token, err: err})
		return nil
	}
	exs := []*session.Exchange{c.ex}
	if n > 1 {
		exs = nil
		before := m.pinnableBefore(c.id)
		for _, p := range before[len(before)-(n-1):] {
			exs = append(exs, p.ex)
		}
		exs = append(exs, c.ex)
	}
	ctx, cancel := session.WithTimeout(m.ctx, m.conn().timeout)
	m.pins.cancel = cancel
	opts := replay.PinOptions{
		Scenario: d.value(fieldScenario),
		Note:     d.value(fieldNote),
		Target:   m.conn().opts.Target,
		Tool:     c.def,
		Probe:    -1,
		Vars:     s.Vars(),
		Redactor: m.cfg.Redact,
		// The dialog's answers to the server's requests for input are
		// the fixture's, so replay answers as the human did.
		KeepAnswers: true,
	}
	if n > 1 {
		// Calling the last step again here would see what the earlier
		// steps and the call itself did to the server's state.
		opts.Probe, opts.Tool = 0, nil
	}
	return buildPin(ctx, cancel, s, exs, opts, msg.path, msg.have, msg.token)
}

// pinnableBefore are the calls of the session before call id (tool calls,
// reads, prompts) that a scenario can pin, oldest first.
func (m *Model) pinnableBefore(id int) []*call {
	var out []*call
	for _, c := range m.calls().list {
		if c.id == id {
			break
		}
		if c.pinnable() {
			out = append(out, c)
		}
	}
	return out
}

func (m *Model) savePin(msg savePinMsg) tea.Cmd {
	if msg.token != m.pins.dialog.token {
		return nil
	}
	return savePin(msg.f, msg.path, msg.overwrite, msg.token)
}

func (m *Model) pinBuilt(msg pinBuiltMsg) tea.Cmd {
	if d := m.pins.dialog; msg.token == d.token && m.overlay == d {
		d.built(msg)
	}
	return nil
}

func (m *Model) pinSaved(msg pinSavedMsg) tea.Cmd {
	if d := m.pins.dialog; msg.token == d.token {
		d.savedReply(msg)
		if msg.err == nil {
			m.setStatus(d.saved, false)
		}
	}
	return nil
}

// closePin closes the dialog and stops building its fixture.
func (m *Model) closePin() tea.Cmd {
	d := m.pins.dialog
	if m.pins.cancel != nil {
		m.pins.cancel()
	}
	m.overlay = nil
	if d.stage == pinSaved {
		m.setStatus(d.saved, false)
	} else {
		m.setStatus("pin cancelled: nothing was saved", false)
	}
	d.token = 0
	return nil
}
