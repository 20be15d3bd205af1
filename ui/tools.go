package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
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
	keys  toolsKeys
	ikeys inputKeys
	out   *outbox

	tools     []toolInfo
	shown     []int // indexes into tools that pass the filter
	sel, top  int
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
	listH         int
}

func newToolsPane(st *styles) *toolsPane {
	ti := newTextEdit(st, true)
	ti.prompt = "/ "
	ti.placeholder = "filter by name"
	return &toolsPane{st: st, keys: newToolsKeys(), ikeys: newInputKeys(), out: &outbox{}, filter: ti, loading: true}
}

// setTools replaces the listing, marking what changed since the last one.
func (p *toolsPane) setTools(raw []json.RawMessage, typed []*mcp.Tool, first bool) {
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
	p.note = fmt.Sprintf("%d tools", len(raw))
	if !first {
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
	if p.sel < 0 || p.sel >= len(p.shown) {
		return nil
	}
	return &p.tools[p.shown[p.sel]]
}

func (p *toolsPane) selectedName() string {
	if t := p.selected(); t != nil {
		return t.Name
	}
	return ""
}

func (p *toolsPane) selectName(name string) {
	for i, j := range p.shown {
		if p.tools[j].Name == name {
			p.sel = i
			p.keepVisible()
			return
		}
	}
	p.sel = min(p.sel, max(len(p.shown)-1, 0))
	p.keepVisible()
}

func (p *toolsPane) refilter() {
	q := strings.ToLower(strings.TrimSpace(p.filter.value()))
	p.shown = p.shown[:0]
	for i, t := range p.tools {
		if q == "" || strings.Contains(strings.ToLower(t.Name), q) || strings.Contains(strings.ToLower(t.displayTitle()), q) {
			p.shown = append(p.shown, i)
		}
	}
	p.sel = min(p.sel, max(len(p.shown)-1, 0))
	p.keepVisible()
}

func (p *toolsPane) keepVisible() {
	if p.sel < p.top {
		p.top = p.sel
	}
	if p.listH > 0 && p.sel >= p.top+p.listH {
		p.top = p.sel - p.listH + 1
	}
	p.top = max(min(p.top, len(p.shown)-p.listH), 0)
}

func (p *toolsPane) setFocus(f bool) { p.focused = f }
func (p *toolsPane) typing() bool    { return p.filtering }

func (p *toolsPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.filter.setSize(w, 1)
	// The list takes what it needs up to two fifths; details get the rest.
	p.listH = max(min(len(p.tools), h*2/5), min(3, h))
	p.detail.setSize(w, max(h-p.listH-2, 0))
	p.keepVisible()
	p.syncDetail(false)
}

func (p *toolsPane) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if p.filtering {
		switch {
		case key.Matches(k, p.ikeys.Accept):
			p.filtering = false
			p.filter.blur()
			return nil
		case key.Matches(k, p.ikeys.Cancel):
			p.filtering = false
			p.filter.blur()
			p.filter.setValue("")
			p.refilter()
			p.syncDetail(false)
			return nil
		}
		if p.filter.update(msg) {
			p.refilter()
			p.syncDetail(false)
		}
		return nil
	}
	if sel, ok := moveCursor(p.keys.scrollKeys, k, p.sel, len(p.shown), p.listH); ok {
		p.sel = sel
		p.keepVisible()
		p.syncDetail(false)
		return nil
	}
	switch {
	case key.Matches(k, p.keys.Filter):
		p.filtering = true
		p.filter.focus()
		p.filter.cursorEnd()
		return nil
	case key.Matches(k, p.keys.ClearFilter):
		p.filter.setValue("")
		p.refilter()
	case key.Matches(k, p.keys.Raw):
		p.raw = !p.raw
		p.syncDetail(true)
		return nil
	case key.Matches(k, p.keys.DetailUp):
		p.detail.scroll(-3)
		return nil
	case key.Matches(k, p.keys.DetailDown):
		p.detail.scroll(3)
		return nil
	case key.Matches(k, p.keys.Call):
		if t := p.selected(); t != nil && t.mark != removed {
			return p.out.send(chooseToolMsg{name: t.Name})
		}
		return nil
	default:
		return nil
	}
	p.keepVisible()
	p.syncDetail(false)
	return nil
}

func (p *toolsPane) wheel(dy, y int) {
	if y < p.listH+1 {
		p.sel = max(min(p.sel+dy, len(p.shown)-1), 0)
		p.keepVisible()
		p.syncDetail(false)
		return
	}
	p.detail.scroll(dy * 3)
}

func (p *toolsPane) help() []key.Binding {
	if p.filtering {
		return []key.Binding{p.ikeys.Accept, p.ikeys.Cancel}
	}
	k := p.keys
	k.ClearFilter.SetEnabled(p.filter.value() != "")
	has := len(p.shown) > 0
	k.Call.SetEnabled(has)
	k.Raw.SetEnabled(has)
	return append(k.list(), k.Call, k.Filter, k.ClearFilter, k.Raw, k.DetailUp, k.DetailDown)
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
}

// annotationLine shows the four behaviour hints, saying which are the
// spec's defaults (absent) rather than the server's word.
func annotationLine(a *toolAnnotations) string {
	if a == nil {
		a = &toolAnnotations{}
	}
	hint := func(name string, v *bool, def bool) string {
		if v == nil {
			return fmt.Sprintf("%s %s (default)", name, yesNo(def))
		}
		return name + " " + yesNo(*v)
	}
	destructive, idempotent := hint("destructive", a.Destructive, true), hint("idempotent", a.Idempotent, false)
	if a.ReadOnly != nil && *a.ReadOnly {
		// The spec gives these two meaning only for tools that write.
		destructive, idempotent = "destructive n/a", "idempotent n/a"
	}
	return strings.Join([]string{hint("read-only", a.ReadOnly, false), destructive, idempotent, hint("open-world", a.OpenWorld, true)}, " · ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// badges are the short annotation marks beside a tool's name.
func badges(a *toolAnnotations) string {
	if a == nil {
		return ""
	}
	var out []string
	if a.ReadOnly != nil && *a.ReadOnly {
		out = append(out, "ro")
	}
	if a.Destructive != nil && *a.Destructive && !(a.ReadOnly != nil && *a.ReadOnly) {
		out = append(out, "destructive")
	}
	if a.Idempotent != nil && *a.Idempotent {
		out = append(out, "idem")
	}
	return strings.Join(out, " ")
}

func (p *toolsPane) view() string {
	var b strings.Builder
	switch {
	case p.filtering || p.filter.value() != "":
		b.WriteString(p.filter.view())
	case p.loading:
		b.WriteString(p.st.muted.Render("listing tools…"))
	default:
		b.WriteString(p.st.muted.Render(p.note))
	}
	for r := 0; r < p.listH; r++ {
		b.WriteByte('\n')
		i := p.top + r
		if i >= len(p.shown) {
			continue
		}
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
		name := t.Name
		bd := badges(t.Annotations)
		gap := p.width - ansi.StringWidth(mark+name) - ansi.StringWidth(bd)
		row := mark + name
		if gap >= 1 && bd != "" {
			row += strings.Repeat(" ", gap) + bd
		}
		row = ansi.Truncate(row, p.width, "…")
		switch {
		case i == p.sel && p.focused:
			row = p.st.selected.Render(padRight(row, p.width))
		case i == p.sel:
			row = p.st.selectedBlur.Render(padRight(row, p.width))
		case t.mark == added:
			row = p.st.added.Render(row)
		case t.mark == changed:
			row = p.st.changed.Render(row)
		case t.mark == removed:
			row = p.st.removed.Render(row)
		}
		b.WriteString(row)
	}
	b.WriteByte('\n')
	b.WriteString(p.st.muted.Render(strings.Repeat("─", p.width)))
	if p.detail.height > 0 {
		b.WriteByte('\n')
		b.WriteString(p.detail.view(p.st))
	}
	return b.String()
}

func padRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
