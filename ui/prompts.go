package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// promptInfo is one prompt as the server listed it, read from the raw
// prompts/list bytes.
type promptInfo struct {
	Name        string      `json:"name"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	Arguments   []promptArg `json:"arguments"`
	raw         json.RawMessage
}

type promptArg struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// schema is the JSON Schema the prompt's arguments make, so the editor
// checks them as it checks a tool's: every value a string, the required
// ones present. Arguments the prompt does not declare are allowed: the
// server decides what to make of them.
func (p *promptInfo) schema() json.RawMessage {
	props := map[string]any{}
	required := []string{}
	for _, a := range p.Arguments {
		prop := map[string]any{"type": "string"}
		if a.Description != "" {
			prop["description"] = a.Description
		}
		props[a.Name] = prop
		if a.Required {
			required = append(required, a.Name)
		}
	}
	s, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required,
		"additionalProperties": map[string]any{"type": "string"}})
	return s
}

// prefill names every argument, in the order the server listed them,
// with an empty value to fill in (or delete: an optional argument left
// empty is still sent, as "").
func (p *promptInfo) prefill() string {
	if len(p.Arguments) == 0 {
		return "{}"
	}
	var b strings.Builder
	b.WriteString("{\n")
	for i, a := range p.Arguments {
		name, _ := json.Marshal(a.Name)
		b.WriteString("  " + string(name) + `: ""`)
		if i < len(p.Arguments)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}")
	return b.String()
}

// promptsPane lists the server's prompts with their arguments; enter
// opens the prompt's arguments in the editor, and ctrl+s there sends
// prompts/get. The messages show in the result pane.
type promptsPane struct {
	st   *styles
	keys catalogKeys
	out  *outbox

	items  []promptInfo
	list   listWindow
	raw    bool
	detail textView
	shown  string

	listed        bool
	loading       bool
	err           error
	note          string
	undeclared    bool // the server's capabilities have no "prompts"
	focused       bool
	width, height int
}

func newPromptsPane(st *styles) *promptsPane {
	return &promptsPane{st: st, keys: newPromptsKeys(), out: &outbox{}}
}

// setPrompts replaces the listing.
func (p *promptsPane) setPrompts(raw []json.RawMessage) {
	sel := ""
	if r := p.selected(); r != nil {
		sel = r.Name
	}
	p.items = p.items[:0]
	for _, r := range raw {
		var pi promptInfo
		if json.Unmarshal(r, &pi) != nil {
			pi = promptInfo{Name: "(undecodable prompt)"}
		}
		pi.raw = r
		p.items = append(p.items, pi)
		if pi.Name == sel {
			p.list.sel = len(p.items) - 1
		}
	}
	p.loading, p.err = false, nil
	p.note = fmt.Sprintf("%d prompt%s", len(p.items), plural(len(p.items)))
	p.setSize(p.width, p.height)
	p.syncDetail(true)
}

func (p *promptsPane) setError(err error) {
	p.loading, p.err = false, err
	p.syncDetail(true)
}

func (p *promptsPane) prompt(name string) *promptInfo {
	for i := range p.items {
		if p.items[i].Name == name {
			return &p.items[i]
		}
	}
	return nil
}

func (p *promptsPane) selected() *promptInfo {
	if p.list.sel < 0 || p.list.sel >= len(p.items) {
		return nil
	}
	return &p.items[p.list.sel]
}

func (p *promptsPane) setFocus(f bool) { p.focused = f }
func (p *promptsPane) typing() bool    { return false }

func (p *promptsPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.list.height = catalogListHeight(len(p.items), h)
	p.list.keepVisible(len(p.items))
	p.detail.setSize(w, max(h-p.list.height-2, 0))
	p.syncDetail(false)
}

func (p *promptsPane) update(msg tea.Msg) tea.Cmd {
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
			return p.out.send(choosePromptMsg{name: r.Name})
		}
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

func (p *promptsPane) wheel(dy, y int) {
	if y < p.list.height+1 {
		p.list.sel += dy
		p.list.keepVisible(len(p.items))
		p.syncDetail(false)
		return
	}
	p.detail.scroll(dy * 3)
}

func (p *promptsPane) help() []key.Binding {
	k := p.keys
	has := p.selected() != nil
	k.Use.SetEnabled(has)
	k.Raw.SetEnabled(has)
	return append(k.list(), k.Use, k.Raw, k.DetailUp, k.DetailDown)
}

func (p *promptsPane) syncDetail(force bool) {
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
		b.line(roleMuted, "listing prompts (prompts/list, every page)…")
	case p.err != nil:
		b.line(roleError, "prompts/list failed:")
		b.line(rolePlain, wrapText(p.err.Error(), "  ", p.width))
		b.line(roleMuted, "R re-lists the prompts.")
	case !p.listed:
		b.line(roleMuted, "Not listed yet.")
	case r == nil:
		b.line(roleMuted, "The server listed no prompts.")
	case p.raw:
		b.line(roleHeading, "raw JSON as listed")
		pr, _ := pretty(r.raw)
		b.bytes(pr)
	default:
		writePromptDetail(&b, r, p.width)
	}
	if p.undeclared && !p.loading {
		b.line(rolePlain, "")
		b.line(roleWarn, "! the server does not declare the prompts capability")
	}
	p.detail.setDoc(b.doc())
}

func writePromptDetail(b *docBuilder, r *promptInfo, width int) {
	head := r.Name
	if r.Title != "" {
		head += " — " + r.Title
	}
	b.line(roleHeading, wrapHanging(head, "  ", width))
	if d := strings.TrimSpace(r.Description); d != "" {
		b.line(rolePlain, wrapText(d, "", width))
	}
	b.line(rolePlain, "")
	b.linef(roleLabel, "Arguments (%d, strings)", len(r.Arguments))
	if len(r.Arguments) == 0 {
		b.line(roleMuted, "  (none)")
	}
	for _, a := range r.Arguments {
		mark := "  optional"
		if a.Required {
			mark = "* required"
		}
		line := fmt.Sprintf("%s  %s", a.Name, mark)
		if a.Title != "" {
			line += " · " + a.Title
		}
		if a.Required {
			b.line(roleLabel, wrapHanging("  "+line, "    ", width))
		} else {
			b.line(rolePlain, wrapHanging("  "+line, "    ", width))
		}
		if d := strings.TrimSpace(a.Description); d != "" {
			b.line(roleMuted, wrapText(d, "    ", width))
		}
	}
	b.line(rolePlain, "")
	b.line(roleMuted, wrapText("enter edits the arguments; ctrl+s there sends prompts/get", "", width))
}

func (p *promptsPane) view() string {
	var b strings.Builder
	if p.loading {
		b.WriteString(p.st.muted.Render("listing prompts…"))
	} else {
		b.WriteString(p.st.muted.Render(ansi.Truncate(p.note, p.width, "…")))
	}
	rows := make([]catalogRow, len(p.items))
	for i, r := range p.items {
		var args []string
		for _, a := range r.Arguments {
			if a.Required {
				args = append(args, a.Name+"*")
			} else {
				args = append(args, a.Name)
			}
		}
		rows[i] = catalogRow{name: r.Name, aside: strings.Join(args, " ")}
	}
	b.WriteString(drawCatalog(p.st, rows, p.list, p.width, p.focused))
	if p.detail.height > 0 {
		b.WriteByte('\n')
		b.WriteString(p.detail.view(p.st))
	}
	return b.String()
}
