package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
)

// The review TUI (jig review) walks a replay's drift like a code review:
// the items on the left, grouped by severity (a tool-definition change is
// one item for every scenario it affects), the selected item on the right
// with each hunk's expected and actual values side by side and the changed
// span marked, the path, the classification and why. Its two panes keep
// the pane contract (pane.go) and its keys are actions (action.go), so the
// footer and the help are drawn from the same bindings as in the
// inspector. Decisions are made on a fixture.Review, which compares again
// offline as each is made; nothing is written here: confirming ends the
// program with Confirmed set, and the command writes.

// ReviewConfig is what the review TUI shows.
type ReviewConfig struct {
	Review *fixture.Review
	// Source names the reports (or the replay) in the header.
	Source string
	// Redact redacts everything drawn (the reports were redacted when
	// written; this is the run's own secrets on top).
	Redact *fixture.Redactor
}

// ReviewModel is the review TUI's root.
type ReviewModel struct {
	cfg    ReviewConfig
	rv     *fixture.Review
	st     *styles
	keys   reviewKeys
	help   help.Model
	items  *reviewItemsPane
	detail *reviewDetailPane
	focus  int // 0 items, 1 detail
	width  int
	height int
	// dialog is the open dialog, or nil.
	dialog    reviewDialog
	status    string
	statusErr bool
	lastWhy   string // the last reason typed, offered again
	checking  bool   // the fixture files are being read and checked
	confirmed bool
	quitting  bool
}

// reviewKeys are the review TUI's keys, declared once with their help.
type reviewKeys struct {
	Accept, Reject, Skip, Delete, Rule, Undo, NextHunk, PrevHunk, Confirm, Help, Quit, ForceQuit, Next,
	Up, Down, Choose, Cancel, Retarget key.Binding
}

func newReviewKeys() reviewKeys {
	return reviewKeys{
		Accept:    bind([]string{"a"}, "a", "accept"),
		Reject:    bind([]string{"x"}, "x", "reject (a known regression, stays red)"),
		Skip:      bind([]string{"s"}, "s", "skip"),
		Delete:    bind([]string{"d"}, "d", "delete (obsolete)"),
		Rule:      bind([]string{"u"}, "u", "make a rule"),
		Undo:      bind([]string{"z"}, "z", "undo"),
		NextHunk:  bind([]string{"n"}, "n", "next hunk"),
		PrevHunk:  bind([]string{"N"}, "N", "previous hunk"),
		Confirm:   bind([]string{"c"}, "c", "summary & write"),
		Help:      bind([]string{"?", "f1"}, "?", "all keys"),
		Quit:      bind([]string{"q"}, "q", "quit"),
		ForceQuit: bind([]string{"ctrl+c"}, "ctrl+c", "quit, write nothing"),
		Next:      bind([]string{"tab"}, "tab", "next pane"),
		Up:        bind([]string{"up", "k"}, "↑/k", "up"),
		Down:      bind([]string{"down", "j"}, "↓/j", "down"),
		Choose:    bind([]string{"enter"}, "enter", "choose"),
		Cancel:    bind([]string{"esc"}, "esc", "back"),
		Retarget:  bind([]string{"ctrl+r"}, "ctrl+r", "retarget"),
	}
}

// NewReview builds the review TUI.
func NewReview(cfg ReviewConfig) *ReviewModel {
	if cfg.Redact == nil {
		cfg.Redact = fixture.NewRedactor()
	}
	m := &ReviewModel{cfg: cfg, rv: cfg.Review, st: newStyles(true), keys: newReviewKeys(), help: help.New()}
	m.items = &reviewItemsPane{m: m}
	m.detail = &reviewDetailPane{m: m}
	m.items.setFocus(true)
	m.checking = !m.rv.Checked()
	return m
}

// Confirmed reports whether the user confirmed the decisions: only then
// may they be written.
func (m *ReviewModel) Confirmed() bool { return m.confirmed }

// Init asks for the background colour and, when the review was opened
// without reading its fixture files (fixture.ReviewOptions.Defer), has them
// read and checked off the UI goroutine: the first screen does not wait.
func (m *ReviewModel) Init() tea.Cmd {
	if m.rv.Checked() {
		return tea.RequestBackgroundColor
	}
	rv := m.rv
	return tea.Batch(tea.RequestBackgroundColor, func() tea.Msg { return reviewFilesMsg{rv.ReadFiles()} })
}

// reviewFilesMsg carries the fixture files read and checked.
type reviewFilesMsg struct{ checks *fixture.FileChecks }

// filesChecked applies the files' checks: the items are built again (the
// decisions kept), the selection stays on its item.
func (m *ReviewModel) filesChecked(fc *fixture.FileChecks) {
	key := ""
	if it := m.items.selected(); it != nil {
		key = it.Key
	}
	m.rv.ApplyFiles(fc)
	m.checking = false
	m.items.rows = nil
	m.items.moveTo(0)
	for i, it := range m.rv.Items {
		if it.Key == key {
			m.items.moveTo(i)
			break
		}
	}
	if n := len(m.rv.Problems); n > 0 && m.status == "" {
		m.say(fmt.Sprintf("%d fixture%s changed since the report: refused, listed at the end", n, frames.Plural(n)), true)
	}
}

// Update routes a message: a key to the open dialog or to the app's and the
// focused pane's actions.
func (m *ReviewModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
	case reviewFilesMsg:
		m.filesChecked(msg.checks)
	case tea.BackgroundColorMsg:
		*m.st = *newStyles(msg.IsDark())
		m.help.Styles = help.DefaultStyles(msg.IsDark())
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		if d, ok := m.dialog.(*reasonDialog); ok {
			d.field.update(msg)
		}
	}
	return m, nil
}

func (m *ReviewModel) key(k tea.KeyPressMsg) tea.Cmd {
	m.status, m.statusErr = "", false
	if key.Matches(k, m.keys.ForceQuit) {
		m.quitting = true
		return tea.Quit
	}
	if m.dialog != nil {
		if a, ok := matchAction(m.dialog.actions(), k); ok {
			return m.run(a, k)
		}
		if m.dialog.typing() {
			m.dialog.update(k)
		}
		return nil
	}
	actions := append(m.appActions(), m.focused().actions()...)
	if a, ok := matchAction(actions, k); ok {
		return m.run(a, k)
	}
	return nil
}

func (m *ReviewModel) run(a action, k tea.KeyPressMsg) tea.Cmd {
	if !a.available() {
		m.say(a.whyNot, true)
		return nil
	}
	return a.do(k)
}

func (m *ReviewModel) say(s string, isErr bool) { m.status, m.statusErr = s, isErr }

func (m *ReviewModel) focused() pane {
	if m.focus == 1 {
		return m.detail
	}
	return m.items
}

// appActions are the keys that work in both panes.
func (m *ReviewModel) appActions() []action {
	it := m.items.selected()
	decidable := it != nil && it.Kind != fixture.ItemNotRun && it.Kind != fixture.ItemRefused
	why := "nothing to decide on this item"
	if it != nil && !decidable {
		why = it.Title + ": " + it.Why
	}
	h := m.detail.hunk()
	noRule := "no rule can hide this hunk (a field removed or added, a JSON-RPC error): accept it or reject it"
	if h != nil && h.Kind == fixture.KindInput {
		noRule = "no rule holds what a call asks of its client: accept it (a pins its rounds and flow as seen) or reject it (x)"
	}
	return []action{
		on(m.keys.Accept, m.openAccept).only(decidable, why).only(it == nil || it.Kind != fixture.ItemObsolete, "an obsolete fixture cannot be accepted: its tool is gone (d deletes it)"),
		on(m.keys.Reject, m.openReject).only(decidable, why).only(it == nil || it.Kind != fixture.ItemObsolete, "an obsolete fixture's tool is gone: d deletes it, or re-pin it"),
		on(m.keys.Skip, func() tea.Cmd { return m.decide(fixture.ActionSkip, "") }).only(decidable, why),
		on(m.keys.Delete, func() tea.Cmd { return m.decide(fixture.ActionDelete, "") }).only(it != nil && it.Kind == fixture.ItemObsolete, "only an obsolete fixture is deleted here"),
		on(m.keys.Rule, m.openRule).only(it != nil && it.Kind == fixture.ItemResponse, "rules apply to a response's drift; accept or reject a tool definition").
			only(h != nil, "no hunk left to turn into a rule").
			only(h == nil || len(fixture.Propose(*h, "")) > 0, noRule),
		on(m.keys.Undo, does(m.undo)).only(it != nil && it.Decided(), "the item has no decision to undo"),
		on(m.keys.NextHunk, does(func() { m.detail.move(1) })).only(h != nil, "the item has no hunks"),
		on(m.keys.PrevHunk, does(func() { m.detail.move(-1) })).only(h != nil, "the item has no hunks"),
		on(m.keys.Confirm, does(m.openSummary)),
		on(m.keys.Next, does(m.toggleFocus)),
		on(m.keys.Help, does(func() { m.dialog = &helpDialog{m: m} })),
		on(m.keys.Quit, m.quit),
	}
}

func (m *ReviewModel) toggleFocus() {
	m.focus = 1 - m.focus
	m.items.setFocus(m.focus == 0)
	m.detail.setFocus(m.focus == 1)
}

func (m *ReviewModel) decide(action, reason string) tea.Cmd {
	it := m.items.selected()
	if err := m.rv.Decide(it, action, reason); err != nil {
		m.say(err.Error(), true)
		return nil
	}
	m.say(fmt.Sprintf("%s: %s", it.Key, it.Status()), false)
	m.items.advance()
	m.detail.reset()
	return nil
}

func (m *ReviewModel) undo() {
	it := m.items.selected()
	for len(it.Rules) > 0 {
		m.rv.UndoRule(it)
	}
	m.rv.Decide(it, fixture.ActionNone, "")
	m.say(it.Key+": pending again", false)
	m.detail.reset()
}

func (m *ReviewModel) openAccept() tea.Cmd {
	it := m.items.selected()
	what := "the actual response becomes the pinned one"
	input, other := false, false
	for _, h := range m.rv.Hunks(it) {
		input, other = input || h.Kind == fixture.KindInput, other || h.Kind != fixture.KindInput
	}
	switch {
	case input && other:
		what = "the actual response becomes the pinned one, and what the call asks of its client now (its input_required rounds and flow, as seen) is pinned with it"
	case input:
		what = "what the call asks of its client now (its input_required rounds and flow, as seen) is pinned, with its response"
	}
	switch it.Kind {
	case fixture.ItemTool:
		what = fmt.Sprintf("the new definition of %q is pinned in %d fixture(s)", it.Tool, len(it.Entries))
	case fixture.ItemSurface:
		what = "the change is accepted into " + it.AttachedFile()
	}
	// The last reason is offered, not typed in: enter takes it, typing
	// replaces it (typing after a prefilled one appended to it).
	d := &reasonDialog{m: m, field: newTextEdit(m.st, true), heading: "Accept " + it.Key, what: what, offered: m.lastWhy, action: fixture.ActionAccept,
		other: m.rv.OtherTarget(it), retarget: it.Retarget}
	d.field.focus()
	m.dialog = d
	return nil
}

// openReject asks why the drift is a regression; a reason is optional.
func (m *ReviewModel) openReject() tea.Cmd {
	it := m.items.selected()
	what := "the fixture keeps its pinned response and stays red; the drift is marked a known regression, which later replays and reviews name"
	if it.Kind == fixture.ItemSurface {
		what = "the surface file is kept as it is; the change stays red"
	}
	d := &reasonDialog{m: m, field: newTextEdit(m.st, true), heading: "Reject " + it.Key, what: what, action: fixture.ActionReject}
	if it.Known != nil {
		d.offered = it.Known.Reason
	}
	d.field.focus()
	m.dialog = d
	return nil
}

func (m *ReviewModel) openRule() tea.Cmd {
	it, h := m.items.selected(), m.detail.hunk()
	if h == nil {
		m.say(it.Key+": no drift left to make a rule of", true)
		return nil
	}
	props := fixture.Propose(*h, "")
	switch {
	case len(props) == 0 && h.Kind == fixture.KindInput:
		m.say("no rule holds what a call asks of its client: accept it (a pins its rounds and flow as seen) or reject it (x)", true)
		return nil
	case len(props) == 0:
		m.say(fmt.Sprintf("no rule applies to %s (rules address the result): accept or reject it", hunkPlace(*h)), true)
		return nil
	}
	d := &ruleDialog{m: m, item: it, hunk: *h, props: props}
	m.dialog = d
	return nil
}

func (m *ReviewModel) openSummary() {
	m.dialog = &summaryDialog{m: m}
}

func (m *ReviewModel) quit() tea.Cmd {
	for _, it := range m.rv.Items {
		if it.Decided() {
			m.dialog = &quitDialog{m: m}
			return nil
		}
	}
	m.quitting = true
	return tea.Quit
}

func (m *ReviewModel) resize(w, h int) {
	m.width, m.height = w, h
	lw := m.listWidth()
	bodyH := max(h-2, 1)
	m.items.setSize(lw, bodyH)
	m.detail.setSize(max(w-lw, 1), bodyH)
}

func (m *ReviewModel) listWidth() int {
	return min(max(m.width/3, 24), 40)
}

// View draws the header, the two panes (or the open dialog) and the footer.
func (m *ReviewModel) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "jig review"
	return v
}

func (m *ReviewModel) render() string {
	if m.width == 0 || m.height == 0 || m.quitting {
		return ""
	}
	lines := []string{fitTo(m.header(), m.width)}
	bodyH := max(m.height-2, 1)
	if m.dialog != nil {
		lines = append(lines, box(m.st, m.dialog.title(), m.dialog.view(m.width-2, bodyH-2), m.width, bodyH, true)...)
	} else {
		left := box(m.st, m.items.title(), m.items.view(), m.listWidth(), bodyH, m.focus == 0)
		right := box(m.st, m.detail.title(), m.detail.view(), m.width-m.listWidth(), bodyH, m.focus == 1)
		for i := range left {
			lines = append(lines, left[i]+right[i])
		}
	}
	lines = append(lines, m.footer())
	return m.cfg.Redact.Text(strings.Join(lines, "\n"))
}

func (m *ReviewModel) header() string {
	n, decided, known := 0, 0, 0
	for _, it := range m.rv.Items {
		if it.Kind == fixture.ItemNotRun || it.Kind == fixture.ItemRefused {
			continue
		}
		n++
		switch {
		case it.Decided():
			decided++
		case it.Known != nil:
			known++
		}
	}
	h := m.st.title.Render("jig review") + " · " + m.cfg.Source + fmt.Sprintf(" · %d item%s, %d decided", n, frames.Plural(n), decided)
	if known > 0 {
		h += fmt.Sprintf(", %d known regression%s", known, frames.Plural(known))
	}
	if p := len(m.rv.Problems); p > 0 {
		h += " · " + m.st.warnText.Render(fmt.Sprintf("%d fixture%s refused", p, frames.Plural(p)))
	}
	if m.checking {
		h += " · " + m.st.muted.Render("checking the fixture files…")
	}
	return h
}

func (m *ReviewModel) footer() string {
	if m.status != "" {
		st := m.st.status
		if m.statusErr {
			st = m.st.statusError
		}
		return fitTo(st.Render(m.status), m.width)
	}
	var bs []key.Binding
	if m.dialog != nil {
		bs = bindings(m.dialog.actions())
	} else {
		// The keys that decide, as many as fit before the ones that always
		// end the line.
		last := []key.Binding{m.keys.Help, m.keys.Quit}
		sepW := ansi.StringWidth(m.help.ShortSeparator)
		itemW := func(b key.Binding) int {
			return ansi.StringWidth(b.Help().Key) + 1 + ansi.StringWidth(b.Help().Desc) + sepW
		}
		room := m.width + sepW
		for _, b := range last {
			room -= itemW(b)
		}
		for _, a := range m.appActions() {
			k := a.Help().Key
			if !a.available() || k == "N" || k == "z" || k == "?" || k == "q" {
				continue
			}
			if room -= itemW(a.Binding); room < 0 {
				break
			}
			bs = append(bs, a.Binding)
		}
		bs = append(bs, last...)
	}
	h := m.help
	h.SetWidth(m.width)
	return fit(h.ShortHelpView(bs), m.width, 1)[0]
}

// The items pane lists the items grouped by what they are.
type reviewItemsPane struct {
	m       *ReviewModel
	rows    []listRow
	cursor  int
	offset  int
	w, h    int
	focused bool
}

var _ pane = (*reviewItemsPane)(nil)

func (p *reviewItemsPane) title() string          { return fmt.Sprintf("Items (%d)", len(p.m.rv.Items)) }
func (p *reviewItemsPane) setSize(w, h int)       { p.w, p.h = w, h }
func (p *reviewItemsPane) setFocus(f bool)        { p.focused = f }
func (p *reviewItemsPane) typing() bool           { return false }
func (p *reviewItemsPane) update(tea.Msg) tea.Cmd { return nil }

func (p *reviewItemsPane) actions() []action {
	k := p.m.keys
	return []action{
		on(k.Up, does(func() { p.moveTo(p.cursor - 1) })).only(p.cursor > 0, "at the first item"),
		on(k.Down, does(func() { p.moveTo(p.cursor + 1) })).only(p.cursor < len(p.m.rv.Items)-1, "at the last item"),
	}
}

func (p *reviewItemsPane) selected() *fixture.Item {
	if p.cursor < len(p.m.rv.Items) {
		return p.m.rv.Items[p.cursor]
	}
	return nil
}

func (p *reviewItemsPane) moveTo(i int) {
	p.cursor = min(max(i, 0), max(len(p.m.rv.Items)-1, 0))
	p.m.detail.reset()
}

// advance moves to the next undecided item after a decision, if any.
func (p *reviewItemsPane) advance() {
	items := p.m.rv.Items
	for i := p.cursor + 1; i < len(items); i++ {
		if items[i].Kind != fixture.ItemNotRun && items[i].Kind != fixture.ItemRefused && !items[i].Decided() && items[i].Known == nil {
			p.moveTo(i)
			return
		}
	}
}

// group is the heading an item is listed under.
func itemGroup(it *fixture.Item) string {
	switch it.Kind {
	case fixture.ItemTool:
		return "TOOLS · " + it.Severity.String()
	case fixture.ItemResponse:
		return "RESPONSES · " + it.Severity.String()
	case fixture.ItemObsolete:
		return "OBSOLETE · delete or re-pin"
	case fixture.ItemSurface:
		return "SURFACE · " + it.Severity.String()
	case fixture.ItemNotRun:
		return "NOT RUN · nothing to decide"
	}
	return "REFUSED · another revision"
}

// statusMark is an item's decision as a glyph and a word, never by colour
// alone.
func (m *ReviewModel) statusMark(it *fixture.Item) string {
	switch it.Status() {
	case "accepted":
		return m.st.okText.Render("✓ accepted")
	case "rejected":
		return m.st.errorText.Render("✗ rejected")
	case "skipped":
		return m.st.muted.Render("→ skipped")
	case "rule":
		return m.st.okText.Render(fmt.Sprintf("≈ %d rule%s", len(it.Rules), frames.Plural(len(it.Rules))))
	case "delete":
		return m.st.warnText.Render("⌫ delete")
	case "known":
		return m.st.errorText.Render("✗ known")
	}
	if it.Kind == fixture.ItemNotRun || it.Kind == fixture.ItemRefused {
		return ""
	}
	return m.st.muted.Render("pending")
}

// statusGlyph is statusMark in one cell, for a narrow list.
func (m *ReviewModel) statusGlyph(it *fixture.Item) string {
	mark := m.statusMark(it)
	if it.Status() == "pending" {
		return mark[:0] + m.st.muted.Render("·")
	}
	r, _, _ := strings.Cut(ansi.Strip(mark), " ")
	return r
}

// A listRow is a row of the items pane: a group's heading, or an item.
type listRow struct {
	heading string
	item    int // -1 for a heading
}

// rowsOf lays the items out under their headings. The items never move, so
// it is done once; only the rows in view are drawn.
func (p *reviewItemsPane) rowsOf() []listRow {
	if p.rows != nil {
		return p.rows
	}
	group := ""
	for i, it := range p.m.rv.Items {
		if g := itemGroup(it); g != group {
			group = g
			if len(p.rows) > 0 {
				p.rows = append(p.rows, listRow{item: -1})
			}
			p.rows = append(p.rows, listRow{heading: g, item: -1})
		}
		p.rows = append(p.rows, listRow{item: i})
	}
	return p.rows
}

func (p *reviewItemsPane) view() string {
	items := p.m.rv.Items
	if len(items) == 0 {
		return p.m.st.okText.Render("✓ no drift to review")
	}
	rows := p.rowsOf()
	at := 0 // the row of the cursor
	for r, row := range rows {
		if row.item == p.cursor {
			at = r
			break
		}
	}
	h := max(p.h-2, 1)
	if at < p.offset {
		p.offset = at
	}
	if at >= p.offset+h {
		p.offset = at - h + 1
	}
	p.offset = min(p.offset, max(len(rows)-h, 0))
	if p.cursor == 0 {
		p.offset = 0
	}
	var out []string
	for _, row := range rows[p.offset:min(p.offset+h, len(rows))] {
		if row.item < 0 {
			out = append(out, p.m.st.heading.Render(row.heading))
			continue
		}
		out = append(out, p.row(row.item))
	}
	return strings.Join(out, "\n")
}

// row draws item i: its name, and its decision at the right edge.
func (p *reviewItemsPane) row(i int) string {
	it := p.m.rv.Items[i]
	mark := p.m.statusMark(it)
	if p.w < 34 {
		mark = p.m.statusGlyph(it)
	}
	name := it.Key
	switch it.Kind {
	case fixture.ItemTool:
		name = fmt.Sprintf("%s ×%d", it.Tool, len(it.Entries)) // under TOOLS: the tool, and how many scenarios
	case fixture.ItemSurface:
		name = strings.TrimPrefix(it.Key, "surface:") // under SURFACE: "tool search_orders"
	}
	room := max(p.w-2-ansi.StringWidth(mark)-3, 4)
	line := "  " + ansi.Truncate(name, room, "…")
	line += strings.Repeat(" ", max(p.w-2-ansi.StringWidth(line)-ansi.StringWidth(mark), 1)) + mark
	if i != p.cursor {
		return line
	}
	line = "▸" + line[1:]
	if p.focused {
		return p.m.st.selected.Render(ansi.Strip(line))
	}
	return p.m.st.selectedBlur.Render(ansi.Strip(line))
}

// The detail pane shows the selected item: what it is, why jig classified
// it so, and its hunks with expected and actual side by side.
type reviewDetailPane struct {
	m       *ReviewModel
	hunkAt  int
	scroll  int
	w, h    int
	focused bool
}

var _ pane = (*reviewDetailPane)(nil)

func (p *reviewDetailPane) setSize(w, h int)       { p.w, p.h = w, h }
func (p *reviewDetailPane) setFocus(f bool)        { p.focused = f }
func (p *reviewDetailPane) typing() bool           { return false }
func (p *reviewDetailPane) update(tea.Msg) tea.Cmd { return nil }
func (p *reviewDetailPane) reset()                 { p.hunkAt, p.scroll = 0, 0 }

func (p *reviewDetailPane) title() string {
	it := p.m.items.selected()
	if it == nil {
		return "Drift"
	}
	hs := p.hunks()
	if len(hs) == 0 {
		return it.Title
	}
	return fmt.Sprintf("hunk %d/%d · %s", min(p.hunkAt+1, len(hs)), len(hs), it.Title)
}

func (p *reviewDetailPane) actions() []action {
	k := p.m.keys
	return []action{
		on(k.Up, does(func() { p.move(-1) })).only(p.hunkAt > 0, "at the first hunk").labelled("previous hunk"),
		on(k.Down, does(func() { p.move(1) })).only(p.hunkAt < len(p.hunks())-1, "at the last hunk").labelled("next hunk"),
	}
}

func (p *reviewDetailPane) hunks() []fixture.Hunk {
	it := p.m.items.selected()
	if it == nil {
		return nil
	}
	return p.m.rv.Hunks(it)
}

func (p *reviewDetailPane) hunk() *fixture.Hunk {
	hs := p.hunks()
	if len(hs) == 0 {
		return nil
	}
	h := hs[min(p.hunkAt, len(hs)-1)]
	return &h
}

func (p *reviewDetailPane) move(d int) {
	n := len(p.hunks())
	if n == 0 {
		return
	}
	p.hunkAt = (p.hunkAt + d + n) % n
}

func (p *reviewDetailPane) view() string {
	it := p.m.items.selected()
	if it == nil {
		return ""
	}
	st := p.m.st
	w := max(p.w-2, 10)
	var lines []string
	add := func(s string) { lines = append(lines, wrapLines(s, w)...) }
	sev := it.Severity.String()
	if it.Kind == fixture.ItemNotRun || it.Kind == fixture.ItemRefused {
		sev = it.Kind
	}
	add(severityStyle(st, it.Severity).Render(strings.ToUpper(sev)) + " · " + it.Kind + " · " + p.m.statusMark(it))
	if e := p.m.rv.Entry(it); e != nil {
		var files []string
		for _, i := range it.Entries {
			files = append(files, p.m.rv.Entries[i].File)
		}
		add(st.label.Render("files: ") + strings.Join(files, ", "))
		if e.Method != "" {
			add(st.label.Render("call: ") + strings.TrimSpace(e.Method+" "+e.Tool))
		}
	}
	if f := it.AttachedFile(); f != "" {
		add(st.label.Render("file: ") + f)
	}
	add(st.label.Render("why: ") + it.Why)
	if it.Reason != "" {
		add(st.label.Render("reason: ") + it.Reason)
	}
	for _, r := range it.Rules {
		add(st.okText.Render("+ " + r.Summary()))
	}
	hs := p.hunks()
	if len(hs) == 0 && (it.Kind == fixture.ItemResponse || it.Kind == fixture.ItemTool || it.Kind == fixture.ItemSurface) {
		lines = append(lines, "", st.okText.Render("✓ no drift left with your decisions"))
	}
	cursorLine := 0
	for i, h := range hs {
		lines = append(lines, "")
		if i == p.hunkAt {
			cursorLine = len(lines)
		}
		lines = append(lines, p.hunkLines(h, i == p.hunkAt, w)...)
	}
	body := max(p.h-2, 1)
	// Keep the selected hunk in view, from its first line.
	if cursorLine < p.scroll || cursorLine >= p.scroll+body {
		p.scroll = max(cursorLine-1, 0)
	}
	if p.hunkAt == 0 {
		p.scroll = 0
	}
	p.scroll = min(p.scroll, max(len(lines)-body, 0))
	return strings.Join(lines[p.scroll:], "\n")
}

func severityStyle(st *styles, s fixture.Severity) lipgloss.Style {
	switch s {
	case fixture.Breaking:
		return st.errorText
	case fixture.Warn:
		return st.warnText
	}
	return st.muted
}

// hunkPlace names where a hunk is, for people.
func hunkPlace(h fixture.Hunk) string {
	if h.Path == "" {
		return "the response"
	}
	return fixture.DisplayPath(h.Path)
}

// hunkLines draws one hunk: its mark, severity, kind and path, the detail,
// and the two values side by side with the span that changed marked.
func (p *reviewDetailPane) hunkLines(h fixture.Hunk, selected bool, w int) []string {
	st := p.m.st
	mark := "  "
	if selected {
		mark = "▸ "
	}
	head := mark + severityStyle(st, h.Severity).Render(h.Severity.String()) + " · " + h.Kind + " · " + fixture.DisplayPath(h.Path)
	if h.Path == "" {
		head = mark + severityStyle(st, h.Severity).Render(h.Severity.String()) + " · " + h.Kind + " · (the response)"
	}
	out := wrapLines(head, w)
	if len(out) > 1 {
		out = append(out[:1], indented(strings.Join(out[1:], " "), w)...)
	}
	if h.More > 0 {
		out = append(out, indented(st.muted.Render(fmt.Sprintf("and %d more like it at %s", h.More, fixture.DisplayPath(h.Where))), w)...)
	}
	if h.Detail != "" {
		out = append(out, indented(h.Detail, w)...)
	}
	if h.Rule != nil {
		out = append(out, indented(st.muted.Render("decided by rule "+h.Rule.Path+" → "+h.Rule.Type), w)...)
	}

	if h.Expected == nil && h.Actual == nil {
		return out
	}
	out = append(out, hunkColumns(st, h, selected, w)...)
	// What the call asked, in words: the comparison goes by method and
	// form, a person reads the question.
	if pinned, now := p.m.rv.Asked(p.m.items.selected(), h); selected {
		for _, q := range pinned {
			out = append(out, indented(st.muted.Render("asked when pinned: ")+q, w)...)
		}
		for _, q := range now {
			out = append(out, indented(st.muted.Render("asks now: ")+q, w)...)
		}
	}
	return out
}

// hunkColumns is a hunk's expected and actual values in two columns: the
// selected hunk in full, the others in brief.
func hunkColumns(st *styles, h fixture.Hunk, selected bool, w int) []string {
	e, a := pretty(h.Expected), pretty(h.Actual)
	pre, suf := commonEnds(e, a)
	colW := max((w-7)/2, 8)
	left := sideLines(st, "expected", e, pre, suf, colW, st.removed)
	right := sideLines(st, "actual", a, pre, suf, colW, st.changed)
	n := max(len(left), len(right))
	if !selected {
		n = min(n, 4)
	}
	var out []string
	for i := range n {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out = append(out, "    "+fitTo(l, colW)+st.muted.Render(" │ ")+fitTo(r, colW))
	}
	if !selected && max(len(left), len(right)) > n {
		out = append(out, st.muted.Render("    …"))
	}
	return out
}

// pretty renders a value for the side-by-side view: a string as its text
// in quotes, anything else as indented JSON, a missing value as (missing).
func pretty(raw json.RawMessage) string {
	if raw == nil {
		return "(missing)"
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		b, _ := json.Marshal(s)
		return string(b)
	}
	if b, ok := frames.Indent(raw); ok {
		return string(b)
	}
	return string(raw)
}

// commonEnds returns how many bytes (at rune boundaries) a and b share at
// their start and at their end, not overlapping.
func commonEnds(a, b string) (int, int) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for pre > 0 && pre < len(a) && !isRuneStart(a[pre]) {
		pre--
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for suf > 0 && !isRuneStart(a[len(a)-suf]) {
		suf--
	}
	// Mark whole words: a changed word reads better than its changed
	// letters ("shipped" → "dispatched", not "shipp" → "dispatch").
	for pre > 0 && isWordByte(a[pre-1]) && (pre < len(a) && isWordByte(a[pre]) || pre < len(b) && isWordByte(b[pre])) {
		pre--
	}
	for suf > 0 && isWordByte(a[len(a)-suf]) && (suf < len(a)-pre && isWordByte(a[len(a)-suf-1]) || suf < len(b)-pre && isWordByte(b[len(b)-suf-1])) {
		suf--
	}
	return pre, suf
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// sideLines draws one side of a hunk wrapped to w cells, the span between
// the common start and end marked with style (and with ⟦ ⟧, so it reads
// without colour).
func sideLines(st *styles, label, s string, pre, suf, w int, mark lipgloss.Style) []string {
	mid := s[pre : len(s)-suf]
	text := s[:pre] + "⟦" + mid + "⟧" + s[len(s)-suf:]
	if s == "(missing)" {
		text = "(missing)"
	}
	out := []string{st.label.Render(label)}
	for _, line := range strings.Split(text, "\n") {
		out = append(out, wrapLines(line, w)...)
	}
	// Mark the span: everything between the brackets, across lines.
	in := false
	for i := 1; i < len(out); i++ {
		var b strings.Builder
		for _, r := range out[i] {
			switch {
			case r == '⟦':
				in = true
				b.WriteRune(r)
			case r == '⟧':
				in = false
				b.WriteRune(r)
			case in:
				b.WriteString(mark.Render(string(r)))
			default:
				b.WriteRune(r)
			}
		}
		out[i] = b.String()
	}
	return out
}

// indented wraps s to w cells, every line indented by four.
func indented(s string, w int) []string {
	lines := wrapLines(s, w-4)
	for i := range lines {
		lines[i] = "    " + lines[i]
	}
	return lines
}

// wrapLines wraps s (which may hold styles) to w cells.
func wrapLines(s string, w int) []string {
	return strings.Split(ansi.Wrap(s, max(w, 1), ""), "\n")
}

// A reviewDialog is a dialog over the review: the reason to accept with, the
// rule to make, the help, the summary, the question before quitting.
type reviewDialog interface {
	title() string
	actions() []action
	view(w, h int) string
	typing() bool
	update(msg tea.Msg)
}

// reasonDialog asks why the drift is accepted.
type reasonDialog struct {
	m             *ReviewModel
	field         *textEdit
	heading, what string
	offered       string // the last reason given, taken when nothing is typed
	// action is what enter decides: accept (a reason required) or reject
	// (a reason optional).
	action string
	// other is the target an accepted drift was replayed against when it
	// is not the fixtures' own; retarget says the accept points them at it.
	other    *fixture.ReplayTarget
	retarget bool
}

// reason is what was typed, or the offered reason when nothing was.
func (d *reasonDialog) reason() string {
	if r := strings.TrimSpace(d.field.value()); r != "" {
		return r
	}
	return d.offered
}

func (d *reasonDialog) title() string { return d.heading }
func (d *reasonDialog) typing() bool  { return true }
func (d *reasonDialog) update(msg tea.Msg) {
	d.field.update(msg)
}

func (d *reasonDialog) actions() []action {
	k := d.m.keys
	if d.action == fixture.ActionReject {
		return []action{
			on(k.Choose, func() tea.Cmd {
				d.m.dialog = nil
				return d.m.decide(fixture.ActionReject, d.reason())
			}).labelled("reject"),
			on(k.Cancel, does(func() { d.m.dialog = nil })).labelled("cancel"),
		}
	}
	ok := d.reason() != ""
	label := "point them at the replayed target"
	if d.retarget {
		label = "keep their own target"
	}
	return []action{
		on(k.Choose, func() tea.Cmd {
			d.m.dialog = nil
			d.m.lastWhy = d.reason()
			d.m.rv.SetRetarget(d.m.items.selected(), d.other != nil && d.retarget)
			return d.m.decide(fixture.ActionAccept, d.m.lastWhy)
		}).labelled("accept with this reason").only(ok, "type a reason first: reviewers read it in the fixture's history"),
		on(k.Retarget, does(func() { d.retarget = !d.retarget })).labelled(label).
			only(d.other != nil, "the drift was replayed against the fixtures' own target"),
		on(k.Cancel, does(func() { d.m.dialog = nil })).labelled("cancel"),
	}
}

func (d *reasonDialog) view(w, h int) string {
	d.field.setSize(max(w-4, 10), 1)
	st := d.m.st
	lines := []string{
		wrap(d.what+"; the reason is recorded in its history with who and when.", w),
		"",
		st.label.Render("reason: ") + d.field.view(),
	}
	if t := d.other; t != nil {
		choice := "they keep their own target (" + t.Own + "), where this drift will show again; ctrl+r points them at " + t.Name
		if d.retarget {
			choice = "they are retargeted to " + t.Name + " (recorded in the history as retargeted_from); ctrl+r keeps " + t.Own
		}
		lines = append(lines, "", st.warnText.Render("replayed against "+t.Name+", not the fixtures' own target:"), wrap(choice, w))
	}
	if d.action == fixture.ActionReject {
		lines[0] = wrap(d.what+"; who, when and the reason (optional: an issue, who fixes it) are recorded with the mark.", w)
	}
	if d.offered != "" && strings.TrimSpace(d.field.value()) == "" {
		lines = append(lines, st.muted.Render(ansi.Truncate("enter reuses the last reason: "+d.offered+" · or type a new one", w, "…")))
	}
	return strings.Join(lines, "\n")
}

// wrap wraps plain text to w cells.
func wrap(s string, w int) string { return ansi.Wrap(s, max(w, 1), " ") }

// ruleDialog offers the rules and assertions jig proposes for a hunk, each
// with what it would fix, before it is added.
type ruleDialog struct {
	m      *ReviewModel
	item   *fixture.Item
	hunk   fixture.Hunk
	props  []fixture.Proposal
	cursor int
}

func (d *ruleDialog) title() string {
	return "Make it a rule · " + fixture.DisplayPath(d.hunk.Pointer)
}
func (d *ruleDialog) typing() bool   { return false }
func (d *ruleDialog) update(tea.Msg) {}

func (d *ruleDialog) actions() []action {
	k := d.m.keys
	return []action{
		on(k.Up, does(func() { d.cursor = max(d.cursor-1, 0) })),
		on(k.Down, does(func() { d.cursor = min(d.cursor+1, len(d.props)-1) })),
		on(k.Choose, func() tea.Cmd {
			p := d.props[d.cursor]
			if err := d.m.rv.AddRule(d.item, p); err != nil {
				d.m.say(err.Error(), true)
				return nil
			}
			d.m.dialog = nil
			left := len(d.m.rv.Hunks(d.item))
			d.m.say(fmt.Sprintf("%s: %s added; %d hunk%s left", d.item.Key, p.Summary(), left, frames.Plural(left)), false)
			d.m.detail.reset()
			return nil
		}).labelled("add it to the fixture"),
		on(k.Cancel, does(func() { d.m.dialog = nil })).labelled("cancel"),
	}
}

// preview is what the proposal would leave of the item's drift.
func (d *ruleDialog) preview(p fixture.Proposal) (before, after int) {
	before = len(d.m.rv.Hunks(d.item))
	if d.m.rv.AddRule(d.item, p) != nil {
		return before, before
	}
	after = len(d.m.rv.Hunks(d.item))
	d.m.rv.UndoRule(d.item)
	return before, after
}

func (d *ruleDialog) view(w, h int) string {
	st := d.m.st
	lines := wrapLines(fmt.Sprintf("%s · %s at %s", d.hunk.Severity, d.hunk.Kind, fixture.DisplayPath(d.hunk.Path)), w)
	lines = append(lines, "")
	for i, p := range d.props {
		mark := "  "
		if i == d.cursor {
			mark = "▸ "
		}
		row := mark + p.Summary()
		if i == d.cursor {
			row = st.selected.Render(row)
		}
		lines = append(lines, wrapLines(row, w)...)
	}
	if len(d.props) > 0 {
		p := d.props[d.cursor]
		before, after := d.preview(p)
		lines = append(lines, "", st.label.Render("written to the fixture's step "+fmt.Sprint(p.Step+1)+":"))
		lines = append(lines, wrapLines("  "+proposalJSON(p), w)...)
		verdict := st.okText.Render(fmt.Sprintf("with it: %d of the item's %d hunk%s left", after, before, frames.Plural(before)))
		switch {
		case after > before:
			verdict = st.warnText.Render(fmt.Sprintf("with it: %d hunks, %d more than now: it fails where the response did not drift", after, after-before))
		case after == before:
			verdict = st.warnText.Render(fmt.Sprintf("with it: still %d hunk%s: it does not hide this drift (an assertion checks, it does not hide)", before, frames.Plural(before)))
		}
		lines = append(lines, "", verdict)
		if p.Hides != "" && p.Rule != nil {
			lines = append(lines, wrapLines(st.warnText.Render("⚠ "+p.Hides+": a rule is forever; be sure it is noise"), w)...)
		}
	}
	return strings.Join(lines, "\n")
}

func proposalJSON(p fixture.Proposal) string {
	var v any = p.Rule
	if p.Rule == nil {
		v = p.Assertion
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// summaryDialog says what was decided and what would be written; enter
// confirms.
type summaryDialog struct {
	m      *ReviewModel
	scroll int
}

func (d *summaryDialog) title() string  { return "Summary" }
func (d *summaryDialog) typing() bool   { return false }
func (d *summaryDialog) update(tea.Msg) {}

func (d *summaryDialog) actions() []action {
	k := d.m.keys
	changes, err := d.m.rv.Changes()
	return []action{
		on(k.Choose, func() tea.Cmd {
			d.m.confirmed, d.m.quitting = true, true
			return tea.Quit
		}).labelled("write these and quit").only(err == nil, "cannot write: "+errText(err)).only(len(changes) > 0, "nothing to write: decide on an item first (esc)"),
		on(k.Up, does(func() { d.scroll = max(d.scroll-1, 0) })).labelled("scroll"),
		on(k.Down, does(func() { d.scroll++ })).labelled("scroll"),
		on(k.Cancel, does(func() { d.m.dialog = nil })).labelled("back to the review"),
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (d *summaryDialog) view(w, h int) string {
	var b bytes.Buffer
	d.m.rv.WriteSummary(&b)
	changes, err := d.m.rv.Changes()
	b.WriteString("\n")
	switch {
	case err != nil:
		b.WriteString("cannot write: " + err.Error() + "\n")
	case len(changes) == 0:
		b.WriteString("nothing to write yet\n")
	default:
		fmt.Fprintf(&b, "enter writes %d file%s (as one set: all of them or none; nothing is written before):\n", len(changes), frames.Plural(len(changes)))
		for _, c := range changes {
			fmt.Fprintf(&b, "  %s: %s\n", c.File, strings.Join(c.What, "; "))
		}
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		lines = append(lines, wrapLines(l, w)...)
	}
	d.scroll = min(d.scroll, max(len(lines)-h, 0))
	return strings.Join(lines[d.scroll:], "\n")
}

// quitDialog asks before decisions are thrown away.
type quitDialog struct{ m *ReviewModel }

func (d *quitDialog) title() string  { return "Quit without writing?" }
func (d *quitDialog) typing() bool   { return false }
func (d *quitDialog) update(tea.Msg) {}
func (d *quitDialog) actions() []action {
	return []action{
		on(bind([]string{"y"}, "y", "quit, writing nothing"), func() tea.Cmd { d.m.quitting = true; return tea.Quit }),
		on(d.m.keys.Confirm, does(d.m.openSummary)).labelled("the summary, to write"),
		on(d.m.keys.Cancel, does(func() { d.m.dialog = nil })).labelled("back to the review"),
	}
}
func (d *quitDialog) view(w, h int) string {
	return wrap("Your decisions are not written yet. y quits and writes nothing; c shows the summary, where enter writes them.", w)
}

// helpDialog lists every key, drawn by bubbles/help from the actions.
type helpDialog struct{ m *ReviewModel }

func (d *helpDialog) title() string  { return "Keys" }
func (d *helpDialog) typing() bool   { return false }
func (d *helpDialog) update(tea.Msg) {}
func (d *helpDialog) actions() []action {
	return []action{on(d.m.keys.Cancel, does(func() { d.m.dialog = nil })).labelled("close the help")}
}

func (d *helpDialog) view(w, h int) string {
	hm := d.m.help
	hm.ShowAll = true
	hm.SetWidth(w)
	rows := 5 // columns, so that the help and its reasons fit 80×24
	var b strings.Builder
	section := func(title string, bs []key.Binding) {
		if len(bs) == 0 {
			return
		}
		b.WriteString(d.m.st.heading.Render(title) + "\n\n")
		b.WriteString(hm.FullHelpView(columns(bs, rows)) + "\n\n")
	}
	app := d.m.appActions()
	section("Review keys", enabledOnly(bindings(app)))
	section(map[int]string{0: "Items", 1: "Drift"}[d.m.focus]+" pane", enabledOnly(bindings(d.m.focused().actions())))
	b.WriteString(d.m.st.heading.Render("Everywhere") + "\n\n" + hm.FullHelpView([][]key.Binding{{d.m.keys.ForceQuit}}) + "\n\n")
	if not := notNow(app); len(not) > 0 {
		hm.SetWidth(0)
		b.WriteString(d.m.st.heading.Render("Not now, and why") + "\n\n")
		b.WriteString(ansi.Wrap(hm.FullHelpView([][]key.Binding{not}), w, " ") + "\n\n")
	}
	b.WriteString(d.m.st.muted.Render("esc closes this help"))
	return b.String()
}
