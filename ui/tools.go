package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/lint"
	"github.com/mcpjig/jig/frames/surface"
)

// A change marks what the last re-listing did to a tool.
type change uint8

const (
	unchanged change = iota
	added
	changed
	removed
)

// toolInfo is one tool as the server listed it. It is read from the raw
// tools/list bytes, not the SDK's typed view: the SDK drops tools it
// considers invalid, and an inspector must still show them.
type toolInfo struct {
	Name        string           `json:"name"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Annotations *toolAnnotations `json:"annotations"`
	Input       json.RawMessage  `json:"inputSchema"`
	Output      json.RawMessage  `json:"outputSchema"`
	raw         json.RawMessage
	invalid     bool // listed by the server, rejected by the SDK
	mark        change
	findings    []lint.Finding // jig lint's, worst first
}

// lintTools is what jig lint finds in a tools listing (the rules that need
// only the tools; prompts and probes are jig lint's).
func lintTools(raw []json.RawMessage) []lint.Finding {
	if len(raw) == 0 {
		return nil
	}
	return lint.Lint(&surface.Surface{Tools: raw}, lint.Config{})
}

type toolAnnotations struct {
	Title       string `json:"title"`
	ReadOnly    *bool  `json:"readOnlyHint"`
	Destructive *bool  `json:"destructiveHint"`
	Idempotent  *bool  `json:"idempotentHint"`
	OpenWorld   *bool  `json:"openWorldHint"`
}

// displayTitle is the tool's title, falling back to its annotations' title.
func (t *toolInfo) displayTitle() string {
	if t.Title != "" {
		return t.Title
	}
	if t.Annotations != nil {
		return t.Annotations.Title
	}
	return ""
}

// toolsPane lists the server's tools, filterable, and shows the selected
// tool's annotations and schemas.
type toolsPane struct {
	st    *styles
	red   *frames.Redactor
	keys  toolsKeys
	ikeys inputKeys
	out   *outbox

	tools     []toolInfo
	shortNote string // note, short, for a pane too narrow for it
	relisted  string // what the last re-listing changed, for the status line
	shown     []int  // indexes into tools that pass the filter
	list      listWindow
	filter    *textEdit
	filtering bool
	raw       bool
	detail    textView
	detailKey string

	loading bool
	err     error
	note    string

	focused       bool
	width, height int
}

func newToolsPane(env *paneEnv) *toolsPane {
	ti := newTextEdit(env.st, true)
	ti.prompt = "/ "
	ti.placeholder = "filter by name"
	return &toolsPane{st: env.st, red: env.redact, keys: newToolsKeys(), ikeys: newInputKeys(), out: env.out, filter: ti, loading: true, detail: textView{red: env.redact}}
}

func (p *toolsPane) title() string {
	if len(p.tools) > 0 {
		return fmt.Sprintf("Tools (%d)", len(p.tools))
	}
	return "Tools"
}

// startListing shows that tools/list is on its way.
func (p *toolsPane) startListing() {
	p.loading = true
	p.syncDetail(true)
}

// setTools replaces the listing, marking what changed since the last one.
func (p *toolsPane) setTools(raw []json.RawMessage, typed []*mcp.Tool, first bool, findings []lint.Finding) {
	byTool := map[string][]lint.Finding{}
	for _, f := range findings {
		byTool[f.Tool()] = append(byTool[f.Tool()], f)
	}
	valid := map[string]bool{}
	for _, t := range typed {
		valid[t.Name] = true
	}
	old := map[string]toolInfo{}
	for _, t := range p.tools {
		if t.mark != removed {
			old[t.Name] = t
		}
	}
	selName := p.selectedName()
	var next []toolInfo
	seen := map[string]bool{}
	var nAdded, nChanged, nRemoved int
	for _, r := range raw {
		var t toolInfo
		if json.Unmarshal(r, &t) != nil {
			t = toolInfo{Name: "(undecodable tool)"}
		}
		t.raw = r
		t.invalid = !valid[t.Name]
		t.findings = byTool[t.Name]
		if !first {
			if o, ok := old[t.Name]; !ok {
				t.mark, nAdded = added, nAdded+1
			} else if frames.CompactString(o.raw) != frames.CompactString(r) {
				t.mark, nChanged = changed, nChanged+1
			}
		}
		seen[t.Name] = true
		next = append(next, t)
	}
	if !first {
		for _, o := range p.tools {
			if o.mark != removed && !seen[o.Name] {
				o.mark, nRemoved = removed, nRemoved+1
				next = append(next, o)
			}
		}
	}
	p.tools, p.loading, p.err = next, false, nil
	p.note, p.shortNote, p.relisted = fmt.Sprintf("%d tools", len(raw)), "", ""
	if !first {
		p.shortNote = p.note + " · re-listed: " + relistedShort(nAdded, nChanged, nRemoved)
		p.relisted = relistedWords(len(raw), nAdded, nChanged, nRemoved)
		p.note += fmt.Sprintf(" · re-listed: %d added, %d changed, %d removed", nAdded, nChanged, nRemoved)
	}
	p.refilter()
	p.selectName(selName)
	p.setSize(p.width, p.height)
	p.syncDetail(true)
}

func (p *toolsPane) setError(err error) {
	p.loading, p.err = false, err
	p.syncDetail(true)
}

func (p *toolsPane) tool(name string) *toolInfo {
	for i := range p.tools {
		if p.tools[i].Name == name && p.tools[i].mark != removed {
			return &p.tools[i]
		}
	}
	return nil
}

// names are the listed tools' names.
func (p *toolsPane) names() []string {
	out := make([]string, 0, len(p.tools))
	for _, t := range p.tools {
		if t.mark != removed {
			out = append(out, t.Name)
		}
	}
	return out
}

func (p *toolsPane) selected() *toolInfo {
	if p.list.sel < 0 || p.list.sel >= len(p.shown) {
		return nil
	}
	return &p.tools[p.shown[p.list.sel]]
}

func (p *toolsPane) selectedName() string {
	if t := p.selected(); t != nil {
		return t.Name
	}
	return ""
}

func (p *toolsPane) selectName(name string) {
	// The details follow the selection (after r, they showed the tool
	// selected before).
	defer p.syncDetail(false)
	for i, j := range p.shown {
		if p.tools[j].Name == name {
			p.list.sel = i
			p.list.keepVisible(len(p.shown))
			return
		}
	}
	p.list.keepVisible(len(p.shown))
}

func (p *toolsPane) refilter() {
	q := strings.ToLower(strings.TrimSpace(p.filter.value()))
	p.shown = p.shown[:0]
	for i, t := range p.tools {
		if q == "" || strings.Contains(strings.ToLower(t.Name), q) || strings.Contains(strings.ToLower(t.displayTitle()), q) {
			p.shown = append(p.shown, i)
		}
	}
	p.list.keepVisible(len(p.shown))
}

func (p *toolsPane) setFocus(f bool) { p.focused = f }
func (p *toolsPane) typing() bool    { return p.filtering }

func (p *toolsPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.filter.setSize(w, 1)
	// The list takes what it needs up to two fifths; details get the rest.
	p.list.height = catalogListHeight(len(p.tools), h)
	p.detail.setSize(w, max(h-p.list.height-chromeRows(p.filter.view(), p.rule()), 0))
	p.list.keepVisible(len(p.shown))
	p.syncDetail(false)
}

// relistedWords says what a re-listing of n tools changed, the counts that
// are not zero: "the same 16 tools", "16 tools, 1 added, 2 removed".
func relistedWords(n, added, changed, removed int) string {
	parts := []string{fmt.Sprintf("%d tools", n)}
	for _, c := range []struct {
		n    int
		what string
	}{{added, "added"}, {changed, "changed"}, {removed, "removed"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(parts) == 1 {
		return "the same " + parts[0]
	}
	return strings.Join(parts, ", ")
}

// relistedShort counts a re-listing's changes by the marks the rows carry
// (+ added, ~ changed, - removed), the counts that are not zero.
func relistedShort(added, changed, removed int) string {
	var parts []string
	for _, c := range []struct {
		mark string
		n    int
	}{{"+", added}, {"~", changed}, {"-", removed}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%s%d", c.mark, c.n))
		}
	}
	if len(parts) == 0 {
		return "same"
	}
	return strings.Join(parts, " ")
}

// rule is the line under the list: where the list abbreviates its hints,
// what the short forms mean ("ro" alone read like nothing).
func (p *toolsPane) rule() string {
	var legend []string
	if p.shortBadges() {
		for _, t := range p.shown {
			for _, w := range strings.Fields(badges(p.tools[t].Annotations, true)) {
				if long, ok := shortHints[w]; ok && !slices.Contains(legend, w+"="+long) {
					legend = append(legend, w+"="+long)
				}
			}
		}
	}
	l := ansi.Truncate(strings.Join(legend, " "), p.width, "…")
	return p.st.muted.Render(l + strings.Repeat("─", max(p.width-ansi.StringWidth(l), 0)))
}

// shortHints are the short forms of the hint badges, and what they stand for.
var shortHints = map[string]string{"ro": "read-only", "idem": "idempotent"}

// shortBadges reports whether the list draws its hints short: all of them
// when any row has no room for the words, so one list never reads
// "read-only" on one row and "ro" on the next.
func (p *toolsPane) shortBadges() bool {
	for _, i := range p.shown {
		t := &p.tools[i]
		long := rowBadge(t, false)
		if long == "" || long == rowBadge(t, true) {
			continue
		}
		if p.width-ansi.StringWidth("  "+p.red.String(t.Name))-ansi.StringWidth(long) < 1 {
			return true
		}
	}
	return false
}

// rowBadge is a tool's lint and hint badges, the hints short or not.
func rowBadge(t *toolInfo, short bool) string {
	bd := badges(t.Annotations, short)
	if lb := lintBadge(t.findings); lb != "" {
		bd = strings.TrimSpace(lb + " " + bd)
	}
	return bd
}

// update takes what the filter field types, and the wheel.
func (p *toolsPane) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case wheelMsg:
		if p.list.wheel(msg, len(p.shown)) {
			p.syncDetail(false)
		} else {
			p.detail.scroll(msg.dy)
		}
	case tea.KeyPressMsg, tea.PasteMsg:
		if p.filtering && p.filter.update(msg) {
			p.refilter()
			p.syncDetail(false)
		}
	}
	return nil
}

func (p *toolsPane) actions() []action {
	if p.filtering {
		return []action{
			on(p.ikeys.Accept, does(func() { p.filtering = false; p.filter.blur() })),
			on(p.ikeys.Cancel, does(func() { p.filtering = false; p.filter.blur(); p.setFilter("") })),
		}
	}
	k := p.keys
	t := p.selected()
	none := "no tool is listed"
	if len(p.tools) > 0 {
		none = "no tool matches the filter"
	}
	as := listActions(k.scrollKeys, &p.list, len(p.shown), func() { p.syncDetail(false) })
	return append(as,
		on(k.Call, func() tea.Cmd { return p.out.send(chooseToolMsg{name: t.Name}) }).
			only(t != nil, none).only(t == nil || t.mark != removed, "the server no longer lists this tool"),
		on(k.Filter, does(func() { p.filtering = true; p.filter.focus(); p.filter.cursorEnd() })),
		on(k.ClearFilter, does(func() { p.setFilter("") })).only(p.filter.value() != "", "no filter is set"),
		on(k.Raw, does(func() { p.raw = !p.raw; p.syncDetail(true) })).only(t != nil, none),
		on(k.DetailUp, does(func() { p.detail.scroll(-3) })),
		on(k.DetailDown, does(func() { p.detail.scroll(3) })),
		on(k.Relist, func() tea.Cmd { return p.out.send(relistMsg{pane: paneTools}) }),
	)
}

func (p *toolsPane) setFilter(v string) {
	p.filter.setValue(v)
	p.refilter()
	p.syncDetail(false)
}

// syncDetail rebuilds the details when the selection, mode or width changed
// (or always, when force is set).
func (p *toolsPane) syncDetail(force bool) {
	t := p.selected()
	k := fmt.Sprintf("%v|%d|%v|%v", p.raw, p.width, p.err, p.loading)
	if t != nil {
		k += "|" + t.Name + "|" + string(t.raw) + fmt.Sprint(t.mark)
	}
	if k == p.detailKey && !force {
		return
	}
	p.detailKey = k
	var b docBuilder
	switch {
	case p.loading:
		b.line(roleMuted, "listing tools…")
	case p.err != nil:
		b.line(roleError, "tools/list failed:")
		b.line(rolePlain, wrapText(p.err.Error(), "  ", p.width))
		b.line(roleMuted, "R re-lists the tools.")
	case t == nil && len(p.tools) == 0:
		b.line(roleMuted, "The server listed no tools.")
	case t == nil:
		b.line(roleMuted, "No tool matches the filter.")
	case p.raw:
		b.line(roleHeading, t.Name+" — raw JSON as listed")
		pr, _ := frames.Indent(t.raw)
		b.bytes(pr)
	default:
		writeToolDetail(&b, t, p.width)
	}
	p.detail.setDoc(b.doc())
}

func writeToolDetail(b *docBuilder, t *toolInfo, width int) {
	head := t.Name
	if title := t.displayTitle(); title != "" {
		head += " — " + title
	}
	b.line(roleHeading, wrapHanging(head, "  ", width))
	switch t.mark {
	case added:
		b.line(roleAdded, "+ added when the server re-listed its tools")
	case changed:
		b.line(roleChanged, "~ definition changed when the server re-listed its tools")
	case removed:
		b.line(roleRemoved, "- removed when the server re-listed its tools")
	}
	if t.invalid {
		b.line(roleWarn, "! the SDK rejected this tool definition as invalid (shown as listed)")
	}
	b.line(rolePlain, wrapHanging(annotationLine(t.Annotations), "  ", width))
	if n := annotationNote(t.Annotations); n != "" {
		b.line(roleMuted, wrapHanging(n, "  ", width))
	}
	if d := strings.TrimSpace(t.Description); d != "" {
		b.line(rolePlain, "")
		b.line(rolePlain, wrapText(d, "", width))
	}
	b.line(rolePlain, "")
	b.line(roleLabel, "Input schema")
	if isNull(t.Input) {
		b.line(roleWarn, "  (none: the tool lists no inputSchema)")
	} else {
		writeSchema(b, t.Input, width)
	}
	b.line(rolePlain, "")
	b.line(roleLabel, "Output schema")
	if isNull(t.Output) {
		b.line(roleMuted, "  (none)")
	} else {
		writeSchema(b, t.Output, width)
	}
	writeFindings(b, t.findings, width)
}

// writeFindings is the tool's section of jig lint: each finding's
// severity, rule and JSON Pointer, what is wrong and the fix.
func writeFindings(b *docBuilder, fs []lint.Finding, width int) {
	if len(fs) == 0 {
		return
	}
	b.line(rolePlain, "")
	b.line(roleLabel, fmt.Sprintf("Lint (%d) — jig lint --list-rules says why each rule matters", len(fs)))
	for _, f := range fs {
		role := roleWarn
		switch f.Severity {
		case lint.Error:
			role = roleError
		case lint.Info:
			role = roleMuted
		}
		b.line(role, wrapHanging(fmt.Sprintf("  %s %s  %s", f.Severity, f.Rule, f.Path), "    ", width))
		b.line(rolePlain, wrapText(f.Message, "    ", width))
		b.line(roleMuted, wrapText("fix: "+f.Fix, "    ", width))
	}
}

// lintBadge is the count of a tool's findings beside its name: ✗ when one
// is an error, ⚠ when the worst is a warning, i for notes only.
func lintBadge(fs []lint.Finding) string {
	if len(fs) == 0 {
		return ""
	}
	mark := "i"
	switch lint.Worst(fs) {
	case lint.Error:
		mark = "✗"
	case lint.Warning:
		mark = "⚠"
	}
	return fmt.Sprintf("%s%d", mark, len(fs))
}

// annotationLine shows the four behaviour hints as the server sent them,
// saying which are absent (the spec's default then applies).
func annotationLine(a *toolAnnotations) string {
	if a == nil {
		a = &toolAnnotations{}
	}
	readOnly := a.ReadOnly != nil && *a.ReadOnly
	hint := func(name string, v *bool, def bool, writes bool) string {
		switch {
		case v != nil:
			return name + " " + yesNo(*v)
		case writes && readOnly:
			return name + " not sent" // no default: it means nothing here
		}
		return fmt.Sprintf("%s %s (default)", name, yesNo(def))
	}
	return strings.Join([]string{hint("read-only", a.ReadOnly, false, false), hint("destructive", a.Destructive, true, true),
		hint("idempotent", a.Idempotent, false, true), hint("open-world", a.OpenWorld, true, false)}, " · ")
}

// annotationNote says when the spec makes a hint the server sent
// meaningless: destructive and idempotent only matter for a tool that is not
// read-only. "" otherwise.
func annotationNote(a *toolAnnotations) string {
	if a == nil || a.ReadOnly == nil || !*a.ReadOnly {
		return ""
	}
	var sent []string
	if a.Destructive != nil {
		sent = append(sent, "destructive")
	}
	if a.Idempotent != nil {
		sent = append(sent, "idempotent")
	}
	if len(sent) == 0 {
		return ""
	}
	return "the spec gives " + strings.Join(sent, " and ") + " meaning only when a tool is not read-only: here " + map[bool]string{true: "they say", false: "it says"}[len(sent) > 1] + " nothing"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// badges are the annotation marks beside a tool's name, in the words of
// its details (read-only, destructive, idempotent), or their short forms
// when short. Only hints the server sent that mean something are marked:
// the spec gives destructive and idempotent meaning only when a tool is not
// read-only, as the details say, so a read-only tool is never "ro idem".
func badges(a *toolAnnotations, short bool) string {
	if a == nil {
		return ""
	}
	word := func(long, abbr string) string {
		if short {
			return abbr
		}
		return long
	}
	readOnly := a.ReadOnly != nil && *a.ReadOnly
	var out []string
	if readOnly {
		out = append(out, word("read-only", "ro"))
	}
	if !readOnly && a.Destructive != nil && *a.Destructive {
		out = append(out, "destructive")
	}
	if !readOnly && a.Idempotent != nil && *a.Idempotent {
		out = append(out, word("idempotent", "idem"))
	}
	return strings.Join(out, " ")
}

func (p *toolsPane) view() string {
	var b strings.Builder
	short := p.shortBadges()
	switch {
	case p.filtering || p.filter.value() != "":
		b.WriteString(p.filter.view())
	case p.loading:
		b.WriteString(p.st.muted.Render("listing tools…"))
	case ansi.StringWidth(p.note) > p.width && p.shortNote != "":
		// "16 tools · re-listed: 0 adde" was cut where it said nothing.
		b.WriteString(p.st.muted.Render(ansi.Truncate(p.shortNote, p.width, "…")))
	default:
		b.WriteString(p.st.muted.Render(p.note))
	}
	for r := 0; r < p.list.height; r++ {
		b.WriteByte('\n')
		i := p.list.top + r
		if i >= len(p.shown) {
			continue
		}
		b.WriteString(p.row(i, short))
	}
	b.WriteByte('\n')
	b.WriteString(p.rule())
	if p.detail.height > 0 {
		b.WriteByte('\n')
		b.WriteString(p.detail.view(p.st))
	}
	return b.String()
}

// row is the list's row i: the change mark, the name, and the lint and
// annotation badges at the right edge (the hints short when short).
func (p *toolsPane) row(i int, short bool) string {
	t := &p.tools[p.shown[i]]
	mark := "  "
	switch t.mark {
	case added:
		mark = "+ "
	case changed:
		mark = "~ "
	case removed:
		mark = "- "
	}
	if t.invalid {
		mark = "! "
	}
	name := p.red.String(t.Name) // before the row is cut
	bd := rowBadge(t, short)
	if room := p.width - ansi.StringWidth(mark) - 1 - ansi.StringWidth(bd); bd != "" && ansi.StringWidth(name) > room && room >= 12 {
		// A name too long beside its badges keeps what tells it from the
		// other tools ("greet (content with Resou…" lost its badge and
		// the part that is not "greet (").
		name = distinctCut(len(p.shown), i, func(j int) string { return p.red.String(p.tools[p.shown[j]].Name) }, room)
	}
	gap := p.width - ansi.StringWidth(mark+name) - ansi.StringWidth(bd)
	row := mark + name
	if gap >= 1 && bd != "" {
		row += strings.Repeat(" ", gap) + bd
	}
	row = ansi.Truncate(row, p.width, "…")
	switch {
	case i == p.list.sel && p.focused:
		row = p.st.selected.Render(padRight(row, p.width))
	case i == p.list.sel:
		row = p.st.selectedBlur.Render(padRight(row, p.width))
	case t.mark == added:
		row = p.st.added.Render(row)
	case t.mark == changed:
		row = p.st.changed.Render(row)
	case t.mark == removed:
		row = p.st.removed.Render(row)
	}
	return row
}

func padRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
