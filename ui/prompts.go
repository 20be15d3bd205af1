package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
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
	catalog[promptInfo]
}

func newPromptsPane(env *paneEnv) *promptsPane {
	return &promptsPane{catalog[promptInfo]{kind: promptKind, st: env.st, red: env.redact, keys: newPromptsKeys(), out: env.out, detail: textView{red: env.redact}}}
}

func (p *promptsPane) title() string { return p.titled("Prompts") }

// promptKind makes a catalog of prompts, told apart by their names; each
// row names the arguments, a * marking the required ones.
var promptKind = catalogKind[promptInfo]{
	noun:        "prompt",
	undecodable: promptInfo{Name: "(undecodable prompt)"},
	raw:         func(p *promptInfo) *json.RawMessage { return &p.raw },
	id:          func(p *promptInfo) string { return p.Name },
	row: func(p *promptInfo) catalogRow {
		var args []string
		for _, a := range p.Arguments {
			if a.Required {
				args = append(args, a.Name+"*")
			} else {
				args = append(args, a.Name)
			}
		}
		return catalogRow{name: p.Name, aside: strings.Join(args, " ")}
	},
	writeDetail: writePromptDetail,
	retryHint:   "R re-lists the prompts.",
}

// setPrompts replaces the listing.
func (p *promptsPane) setPrompts(raw []json.RawMessage) { p.setItems(raw) }

func (p *promptsPane) prompt(name string) *promptInfo {
	for i := range p.items {
		if p.items[i].Name == name {
			return &p.items[i]
		}
	}
	return nil
}

func (p *promptsPane) typing() bool { return false }

func (p *promptsPane) update(msg tea.Msg) tea.Cmd {
	if w, ok := msg.(wheelMsg); ok {
		p.wheel(w)
	}
	return nil
}

func (p *promptsPane) actions() []action {
	return append(p.browse(),
		p.use(func(r *promptInfo) tea.Cmd { return p.out.send(choosePromptMsg{name: r.Name}) }),
		p.relist(panePrompts),
	)
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
