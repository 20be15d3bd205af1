package ui

import (
	"encoding/json"
	"strings"

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

// templateInfo is one resource template as the server listed it.
type templateInfo struct {
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	MimeType    string          `json:"mimeType"`
	Annotations json.RawMessage `json:"annotations"`
	raw         json.RawMessage
}

// resourcesPane lists the server's resources and shows the selected one's
// details; enter reads it, u reads any URI the user types. The contents
// show in the result pane, like a tool's result. t shows the resource
// templates instead, whose URIs the user fills in before reading.
type resourcesPane struct {
	catalog[resourceInfo]
	templates     catalog[templateInfo]
	showTemplates bool
	ukeys         uriKeys

	uri          *textEdit
	typingURI    bool
	fromTemplate string // the uriTemplate the URI field was filled from
	conn         *connection
	subs         map[string]bool // the URIs subscribed to, by the subscribe answered
}

func newResourcesPane(env *paneEnv) *resourcesPane {
	ti := newTextEdit(env.st, true)
	ti.prompt = "uri: "
	ti.placeholder = "any URI, sent exactly as typed"
	p := &resourcesPane{
		catalog:   catalog[resourceInfo]{kind: resourceKind, st: env.st, red: env.redact, keys: newResourcesKeys(), out: env.out, detail: textView{red: env.redact}, markNote: "subscribed"},
		templates: catalog[templateInfo]{kind: templateKind, st: env.st, red: env.redact, keys: newTemplatesKeys(), out: env.out, detail: textView{red: env.redact}},
		ukeys:     newURIKeys(),
		uri:       ti,
		conn:      env.conn,
		subs:      map[string]bool{},
	}
	p.marked = func(r *resourceInfo) bool { return p.subs[r.URI] }
	return p
}

// title counts what is listed: the templates while they are shown (it
// read "Resources (7)" over "2 resource templates").
func (p *resourcesPane) title() string {
	if p.showTemplates {
		return p.templates.titled("Templates")
	}
	return p.titled("Resources")
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

// templateKind makes a catalog of resource templates, told apart by their
// URI templates.
var templateKind = catalogKind[templateInfo]{
	noun:        "resource template",
	method:      "resources/templates/list",
	capability:  "resources",
	undecodable: templateInfo{URITemplate: "(undecodable resource template)"},
	raw:         func(r *templateInfo) *json.RawMessage { return &r.raw },
	id:          func(r *templateInfo) string { return r.URITemplate },
	row:         func(r *templateInfo) catalogRow { return catalogRow{name: r.URITemplate, aside: r.MimeType} },
	writeDetail: writeTemplateDetail,
	retryHint:   "R re-lists the templates; t goes back to the resources.",
	emptyHint:   []string{"t goes back to the resources; u reads any URI you type."},
}

// setResources replaces the listing.
func (p *resourcesPane) setResources(raw []json.RawMessage) { p.setItems(raw) }

// setTemplates replaces the templates' listing.
func (p *resourcesPane) setTemplates(raw []json.RawMessage) { p.templates.setItems(raw) }

func (p *resourcesPane) setFocus(f bool) {
	p.catalog.setFocus(f)
	p.templates.setFocus(f)
}

func (p *resourcesPane) typing() bool { return p.typingURI }

func (p *resourcesPane) setSize(w, h int) {
	p.uri.setSize(w, 1)
	p.catalog.setSize(w, h)
	p.templates.setSize(w, h)
}

// reset forgets an earlier session's listings and subscriptions.
func (p *resourcesPane) reset(declared bool) {
	clear(p.subs)
	p.catalog.reset(declared)
	p.templates.reset(declared)
}

// update takes what the URI field types, and the wheel.
func (p *resourcesPane) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case wheelMsg:
		if p.showTemplates {
			p.templates.wheel(msg)
		} else {
			p.catalog.wheel(msg)
		}
	case tea.KeyPressMsg, tea.PasteMsg:
		if p.typingURI {
			p.uri.update(msg)
		}
	}
	return nil
}

func (p *resourcesPane) actions() []action {
	if p.typingURI {
		return []action{
			on(p.ukeys.Send, func() tea.Cmd {
				p.stopURI()
				return p.out.send(readResourceMsg{uri: p.uri.value()})
			}),
			on(p.ukeys.Cancel, does(p.stopURI)),
			on(p.ukeys.Complete, p.complete).only(p.conn.session() != nil, "not connected: there is no server to ask"),
		}
	}
	if p.showTemplates {
		return p.templateActions()
	}
	k := p.keys
	as := append(p.browse(),
		p.use(func(r *resourceInfo) tea.Cmd { return p.out.send(readResourceMsg{uri: r.URI}) }),
		// An empty field: what is typed is the URI, nothing else (enter
		// reads the selected resource).
		on(k.ReadURI, does(func() { p.editURI("") })),
		on(k.Templates, p.toggleTemplates),
		p.relist(paneResources),
		p.subscribe(),
	)
	return as
}

// templateActions are the keys while the templates are shown: enter or u
// puts the selected uriTemplate in the URI field, {variables} and all, for
// the user to fill in; nothing is sent until they do.
func (p *resourcesPane) templateActions() []action {
	k := p.templates.keys
	fill := func(t *templateInfo) tea.Cmd { p.editURI(t.URITemplate); p.fromTemplate = t.URITemplate; return nil }
	return append(p.templates.browse(),
		p.templates.use(fill),
		on(k.ReadURI, does(func() {
			uri := ""
			if t := p.templates.selected(); t != nil {
				uri = t.URITemplate
			}
			p.editURI(uri)
			p.fromTemplate = uri
		})),
		on(k.Templates, p.toggleTemplates),
		p.templates.relist(paneResources),
	)
}

func (p *resourcesPane) toggleTemplates() tea.Cmd {
	p.showTemplates = !p.showTemplates
	if p.showTemplates && !p.templates.listed {
		return p.out.send(listTemplatesMsg{})
	}
	return nil
}

// editURI opens the URI field with uri in it, the cursor at its end.
func (p *resourcesPane) editURI(uri string) {
	p.typingURI, p.fromTemplate = true, ""
	p.uri.setValue(uri)
	p.uri.cursorEnd()
	p.uri.focus()
}

func (p *resourcesPane) stopURI() {
	p.typingURI = false
	p.uri.blur()
}

func writeResourceDetail(b *docBuilder, r *resourceInfo, width int) {
	writeResourceLike(b, resourceFields{r.Name, r.Title, r.URI, r.MimeType, r.Size, r.Description, r.Annotations}, width,
		"enter reads it (resources/read); u reads any URI, typed exactly")
}

func writeTemplateDetail(b *docBuilder, t *templateInfo, width int) {
	writeResourceLike(b, resourceFields{t.Name, t.Title, t.URITemplate, t.MimeType, nil, t.Description, t.Annotations}, width,
		"enter or u puts it in the URI field: fill in its {variables}, then enter reads it (resources/read); t shows the resources")
}

// resourceFields are what a resource and a resource template have in common
// for their details: a template's uri is its uriTemplate, and it has no size.
type resourceFields struct {
	name, title, uri, mime string
	size                   *int64
	description            string
	annotations            json.RawMessage
}

// writeResourceLike draws a resource's or a template's details, ending with
// the hint for what enter does on it.
func writeResourceLike(b *docBuilder, r resourceFields, width int, hint string) {
	head := r.name
	if r.title != "" {
		head += " — " + r.title
	}
	if head == "" {
		head = "(no name)"
	}
	b.line(roleHeading, wrapHanging(head, "  ", width))
	b.line(rolePlain, wrapHanging("uri  "+r.uri, "     ", width))
	if r.mime != "" {
		b.line(rolePlain, "mime "+r.mime)
	}
	if r.size != nil {
		b.line(rolePlain, "size "+frames.HumanSize(int(*r.size)))
	}
	if d := strings.TrimSpace(r.description); d != "" {
		b.line(rolePlain, "")
		b.line(rolePlain, wrapText(d, "", width))
	}
	if !isNull(r.annotations) {
		b.line(rolePlain, "")
		b.line(roleLabel, "annotations")
		pr, _ := frames.Indent(r.annotations)
		b.bytes(pr)
	}
	b.line(rolePlain, "")
	b.line(roleMuted, wrapText(hint, "", width))
}

func (p *resourcesPane) view() string {
	switch {
	case p.typingURI && p.showTemplates:
		return p.templates.viewUnder(p.uri.view())
	case p.typingURI:
		return p.viewUnder(p.uri.view())
	case p.showTemplates:
		return p.templates.view()
	}
	return p.catalog.view()
}

// subscribe is s: resources/subscribe to the selected resource, or
// unsubscribe when subscribed; updates say so in the status line.
func (p *resourcesPane) subscribe() action {
	r := p.selected()
	a := on(p.keys.Subscribe, func() tea.Cmd { return p.out.send(subscribeMsg{uri: r.URI, on: !p.subs[r.URI]}) }).
		only(r != nil, "no resource is listed")
	if s := p.conn.session(); s == nil {
		return a.only(false, "not connected: there is nothing to subscribe to")
	} else if ok, why := s.CanSubscribe(); !ok {
		return a.only(false, why)
	}
	if r != nil && p.subs[r.URI] {
		a = a.labelled("unsubscribe (resources/unsubscribe)")
	}
	return a
}

func (m *Model) subscribe(msg subscribeMsg) tea.Cmd {
	s := m.session()
	if s == nil {
		m.setStatus("not connected: there is nothing to subscribe to", true)
		return nil
	}
	return subscribe(m.ctx, s, m.conn().timeout, msg)
}

func (m *Model) subscribed(msg subscribedMsg) tea.Cmd {
	what := "resources/subscribe " + msg.uri
	if !msg.on {
		what = "resources/unsubscribe " + msg.uri
	}
	if msg.err != nil {
		m.setStatus(what+": "+msg.err.Error(), true)
		return nil
	}
	m.resources().subs[msg.uri] = msg.on
	if msg.on {
		m.setStatus("subscribed to "+msg.uri+": each notifications/resources/updated is said here (s again unsubscribes)", false)
	} else {
		m.setStatus("unsubscribed from "+msg.uri, false)
	}
	return nil
}

func (m *Model) resourceUpdated(msg resourceUpdatedMsg) tea.Cmd {
	m.setNotice("the server says " + msg.uri + " changed (notifications/resources/updated): enter on it in 5 reads it again")
	return waitResourceUpdated(m.ctx, m.conn().updated)
}
