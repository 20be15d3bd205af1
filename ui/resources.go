package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
)

// resourceInfo is one resource as the server listed it, read from the raw
// resources/list bytes so that nothing the SDK would drop goes unseen.
type resourceInfo struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	MimeType    string          `json:"mimeType"`
	Size        *int64          `json:"size"`
	Annotations json.RawMessage `json:"annotations"`
	raw         json.RawMessage
}

// resourcesPane lists the server's resources and shows the selected one's
// details; enter reads it, u reads any URI the user types. The contents
// show in the result pane, like a tool's result.
type resourcesPane struct {
	st    *styles
	keys  catalogKeys
	ukeys uriKeys
	out   *outbox

	items  []resourceInfo
	list   listWindow
	raw    bool
	detail textView
	shown  string // what the details were built for

	uri       *textEdit
	typingURI bool

	listed        bool // resources/list was sent at least once
	loading       bool
	err           error
	note          string
	undeclared    bool // the server's capabilities have no "resources"
	focused       bool
	width, height int
}

func newResourcesPane(st *styles) *resourcesPane {
	ti := newTextEdit(st, true)
	ti.prompt = "uri: "
	ti.placeholder = "any URI, sent exactly as typed"
	return &resourcesPane{st: st, keys: newResourcesKeys(), ukeys: newURIKeys(), out: &outbox{}, uri: ti}
}

// setResources replaces the listing.
func (p *resourcesPane) setResources(raw []json.RawMessage) {
	sel := ""
	if r := p.selected(); r != nil {
		sel = r.URI
	}
	p.items = p.items[:0]
	for _, r := range raw {
		var ri resourceInfo
		if json.Unmarshal(r, &ri) != nil {
			ri = resourceInfo{URI: "(undecodable resource)"}
		}
		ri.raw = r
		p.items = append(p.items, ri)
		if ri.URI == sel {
			p.list.sel = len(p.items) - 1
		}
	}
	p.loading, p.err = false, nil
	p.note = fmt.Sprintf("%d resource%s", len(p.items), plural(len(p.items)))
	p.setSize(p.width, p.height)
	p.syncDetail(true)
}

func (p *resourcesPane) setError(err error) {
	p.loading, p.err = false, err
	p.syncDetail(true)
}

func (p *resourcesPane) selected() *resourceInfo {
	if p.list.sel < 0 || p.list.sel >= len(p.items) {
		return nil
	}
	return &p.items[p.list.sel]
}

func (p *resourcesPane) setFocus(f bool) { p.focused = f }
func (p *resourcesPane) typing() bool    { return p.typingURI }

func (p *resourcesPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.uri.setSize(w, 1)
	p.list.height = catalogListHeight(len(p.items), h)
	p.list.keepVisible(len(p.items))
	p.detail.setSize(w, max(h-p.list.height-2, 0))
	p.syncDetail(false)
}

func (p *resourcesPane) update(msg tea.Msg) tea.Cmd {
	if p.typingURI {
		if k, ok := msg.(tea.KeyPressMsg); ok {
			switch {
			case key.Matches(k, p.ukeys.Send):
				p.typingURI = false
				p.uri.blur()
				return p.out.send(readResourceMsg{uri: p.uri.value()})
			case key.Matches(k, p.ukeys.Cancel):
				p.typingURI = false
				p.uri.blur()
				return nil
			}
		}
		p.uri.update(msg)
		return nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if p.list.move(p.keys.scrollKeys, k, len(p.items)) {
		p.syncDetail(false)
		return nil
	}
	switch {
	case key.Matches(k, p.keys.Use):
		if r := p.selected(); r != nil {
			return p.out.send(readResourceMsg{uri: r.URI})
		}
	case key.Matches(k, p.keys.ReadURI):
		uri := ""
		if r := p.selected(); r != nil {
			uri = r.URI
		}
		p.editURI(uri)
	case key.Matches(k, p.keys.Raw):
		p.raw = !p.raw
		p.syncDetail(true)
	case key.Matches(k, p.keys.DetailUp):
		p.detail.scroll(-3)
	case key.Matches(k, p.keys.DetailDown):
		p.detail.scroll(3)
	}
	return nil
}

// editURI opens the URI field with uri in it, the cursor at its end.
func (p *resourcesPane) editURI(uri string) {
	p.typingURI = true
	p.uri.setValue(uri)
	p.uri.cursorEnd()
	p.uri.focus()
}

func (p *resourcesPane) wheel(dy, y int) {
	if y < p.list.height+1 {
		p.list.sel += dy
		p.list.keepVisible(len(p.items))
		p.syncDetail(false)
		return
	}
	p.detail.scroll(dy * 3)
}

func (p *resourcesPane) help() []key.Binding {
	if p.typingURI {
		return append([]key.Binding{p.ukeys.Send, p.ukeys.Cancel}, p.uri.keys.list()...)
	}
	k := p.keys
	has := p.selected() != nil
	k.Use.SetEnabled(has)
	k.Raw.SetEnabled(has)
	return append(k.list(), k.Use, k.ReadURI, k.Raw, k.DetailUp, k.DetailDown)
}

func (p *resourcesPane) syncDetail(force bool) {
	r := p.selected()
	k := fmt.Sprintf("%v|%d|%v|%v|%v", p.raw, p.width, p.err, p.loading, p.undeclared)
	if r != nil {
		k += "|" + string(r.raw)
	}
	if k == p.shown && !force {
		return
	}
	p.shown = k
	var b docBuilder
	switch {
	case p.loading:
		b.line(roleMuted, "listing resources (resources/list, every page)…")
	case p.err != nil:
		b.line(roleError, "resources/list failed:")
		b.line(rolePlain, wrapText(p.err.Error(), "  ", p.width))
		b.line(roleMuted, "R re-lists the resources; u reads any URI you type.")
	case !p.listed:
		b.line(roleMuted, "Not listed yet.")
	case r == nil:
		b.line(roleMuted, "The server listed no resources.")
		b.line(roleMuted, "u reads any URI you type.")
	case p.raw:
		b.line(roleHeading, "raw JSON as listed")
		pr, _ := pretty(r.raw)
		b.bytes(pr)
	default:
		writeResourceDetail(&b, r, p.width)
	}
	if p.undeclared && !p.loading {
		b.line(rolePlain, "")
		b.line(roleWarn, "! the server does not declare the resources capability")
	}
	p.detail.setDoc(b.doc())
}

func writeResourceDetail(b *docBuilder, r *resourceInfo, width int) {
	head := r.Name
	if r.Title != "" {
		head += " — " + r.Title
	}
	if head == "" {
		head = "(no name)"
	}
	b.line(roleHeading, wrapHanging(head, "  ", width))
	b.line(rolePlain, wrapHanging("uri  "+r.URI, "     ", width))
	if r.MimeType != "" {
		b.line(rolePlain, "mime "+r.MimeType)
	}
	if r.Size != nil {
		b.line(rolePlain, "size "+frames.HumanSize(int(*r.Size)))
	}
	if d := strings.TrimSpace(r.Description); d != "" {
		b.line(rolePlain, "")
		b.line(rolePlain, wrapText(d, "", width))
	}
	if !isNull(r.Annotations) {
		b.line(rolePlain, "")
		b.line(roleLabel, "annotations")
		pr, _ := pretty(r.Annotations)
		b.bytes(pr)
	}
	b.line(rolePlain, "")
	b.line(roleMuted, wrapText("enter reads it (resources/read); u reads any URI, typed exactly", "", width))
}

func (p *resourcesPane) view() string {
	var b strings.Builder
	switch {
	case p.typingURI:
		b.WriteString(p.uri.view())
	case p.loading:
		b.WriteString(p.st.muted.Render("listing resources…"))
	default:
		b.WriteString(p.st.muted.Render(ansi.Truncate(p.note, p.width, "…")))
	}
	rows := make([]catalogRow, len(p.items))
	for i, r := range p.items {
		rows[i] = catalogRow{name: r.URI, aside: r.MimeType}
	}
	b.WriteString(drawCatalog(p.st, rows, p.list, p.width, p.focused))
	if p.detail.height > 0 {
		b.WriteByte('\n')
		b.WriteString(p.detail.view(p.st))
	}
	return b.String()
}

// A catalogRow is one line of the resources or prompts list: a name, and
// a note set to the right when it fits.
type catalogRow struct{ name, aside string }

// catalogListHeight gives a list of n items what it needs, up to two fifths
// of h; the details get the rest.
func catalogListHeight(n, h int) int { return max(min(n, h*2/5), min(3, h)) }

// drawCatalog draws the visible rows of a list and the rule under them,
// each row starting on a new line.
func drawCatalog(st *styles, rows []catalogRow, w listWindow, width int, focused bool) string {
	var b strings.Builder
	for r := 0; r < w.height; r++ {
		b.WriteByte('\n')
		i := w.top + r
		if i >= len(rows) {
			continue
		}
		row := "  " + rows[i].name
		if a := rows[i].aside; a != "" {
			if gap := width - ansi.StringWidth(row) - ansi.StringWidth(a); gap >= 2 {
				row += strings.Repeat(" ", gap) + a
			}
		}
		row = ansi.Truncate(row, width, "…")
		switch {
		case i == w.sel && focused:
			row = st.selected.Render(padRight(row, width))
		case i == w.sel:
			row = st.selectedBlur.Render(padRight(row, width))
		}
		b.WriteString(row)
	}
	b.WriteByte('\n')
	b.WriteString(st.muted.Render(strings.Repeat("─", width)))
	return b.String()
}
