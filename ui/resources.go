package ui

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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
	catalog[resourceInfo]
	ukeys uriKeys

	uri       *textEdit
	typingURI bool
}

func newResourcesPane(st *styles) *resourcesPane {
	ti := newTextEdit(st, true)
	ti.prompt = "uri: "
	ti.placeholder = "any URI, sent exactly as typed"
	return &resourcesPane{
		catalog: catalog[resourceInfo]{kind: resourceKind, st: st, keys: newResourcesKeys(), out: &outbox{}},
		ukeys:   newURIKeys(),
		uri:     ti,
	}
}

// resourceKind makes a catalog of resources, told apart by their URIs.
var resourceKind = catalogKind[resourceInfo]{
	noun:        "resource",
	undecodable: resourceInfo{URI: "(undecodable resource)"},
	raw:         func(r *resourceInfo) *json.RawMessage { return &r.raw },
	id:          func(r *resourceInfo) string { return r.URI },
	row:         func(r *resourceInfo) catalogRow { return catalogRow{name: r.URI, aside: r.MimeType} },
	writeDetail: writeResourceDetail,
	retryHint:   "R re-lists the resources; u reads any URI you type.",
	emptyHint:   []string{"u reads any URI you type."},
}

// setResources replaces the listing.
func (p *resourcesPane) setResources(raw []json.RawMessage) { p.setItems(raw) }

func (p *resourcesPane) typing() bool { return p.typingURI }

func (p *resourcesPane) setSize(w, h int) {
	p.uri.setSize(w, 1)
	p.catalog.setSize(w, h)
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
	if !ok || p.browse(k) {
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

func (p *resourcesPane) help() []key.Binding {
	if p.typingURI {
		return append([]key.Binding{p.ukeys.Send, p.ukeys.Cancel}, p.uri.keys.list()...)
	}
	return p.helpWith(p.keys.ReadURI)
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
	if p.typingURI {
		return p.viewUnder(p.uri.view())
	}
	return p.catalog.view()
}
