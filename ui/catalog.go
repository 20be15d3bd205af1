package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// The root's side of the resources and prompts panes: listing them when
// first shown and when the server says they changed, and sending
// resources/read and prompts/get as calls the result pane shows.

// listOnOpen lists the resources or the prompts the first time their pane
// is shown with a session open: servers without them are not sent
// requests nobody asked for.
func (m *Model) listOnOpen() tea.Cmd {
	switch r := m.resources(); {
	case m.session() == nil:
	case m.focus == paneResources && r.showTemplates:
		if !r.templates.listed {
			return m.relistTemplates("opened")
		}
	case m.focus == paneResources && !r.listed:
		return m.relist(paneResources, "opened")
	case m.focus == panePrompts && !m.prompts().listed:
		return m.relist(panePrompts, "opened")
	}
	return nil
}

// relist sends tools/list, resources/list or prompts/list (every page),
// or for a refresh of the resources pane showing its templates,
// resources/templates/list.
func (m *Model) relist(id paneID, reason string) tea.Cmd {
	s := m.session()
	switch {
	case s == nil:
		return nil
	case id == paneTools:
		m.tools().startListing()
		m.setStatus("re-listing tools (tools/list on the wire)…", false)
		return listTools(m.ctx, s, m.conn().timeout, reason)
	case id == paneResources && reason == "refresh" && m.resources().showTemplates:
		return m.relistTemplates(reason)
	}
	if reason != "opened" {
		m.sayListed(fmt.Sprintf("re-listing %s (%s/list on the wire)…", lowerName(id), lowerName(id)), reason)
	}
	if id == panePrompts {
		m.prompts().startListing()
		return listPrompts(m.ctx, s, m.conn().timeout, reason)
	}
	m.resources().startListing()
	return listResources(m.ctx, s, m.conn().timeout, reason)
}

// relistTemplates sends resources/templates/list (every page).
func (m *Model) relistTemplates(reason string) tea.Cmd {
	s := m.session()
	if s == nil {
		return nil
	}
	if reason != "opened" {
		m.sayListed("re-listing resource templates (resources/templates/list on the wire)…", reason)
	}
	m.resources().templates.startListing()
	return listTemplates(m.ctx, s, m.conn().timeout, reason)
}

// sayListed says a re-listing finished: a notice when the server asked for
// it (list_changed), the status line when the user did.
func (m *Model) sayListed(text, reason string) {
	if reason == "list_changed" {
		m.setNotice(text)
		return
	}
	m.setStatus(text, false)
}

func lowerName(id paneID) string {
	if id == panePrompts {
		return "prompts"
	}
	return "resources"
}

func (m *Model) resourcesListed(msg resourcesListedMsg) tea.Cmd {
	r := m.resources()
	if msg.err != nil {
		r.setError(msg.err)
		return nil
	}
	r.setResources(msg.raw)
	if msg.reason != "opened" {
		m.sayListed("resources re-listed ("+msg.reason+"): "+r.note, msg.reason)
	}
	m.resize(m.lay.width, m.lay.height)
	return nil
}

func (m *Model) templatesListed(msg templatesListedMsg) tea.Cmd {
	r := m.resources()
	if msg.err != nil {
		r.templates.setError(msg.err)
		return nil
	}
	r.setTemplates(msg.raw)
	if msg.reason != "opened" {
		m.sayListed("resource templates re-listed ("+msg.reason+"): "+r.templates.note, msg.reason)
	}
	m.resize(m.lay.width, m.lay.height)
	return nil
}

func (m *Model) promptsListed(msg promptsListedMsg) tea.Cmd {
	p := m.prompts()
	if msg.err != nil {
		p.setError(msg.err)
		return nil
	}
	p.setPrompts(msg.raw)
	if msg.reason != "opened" {
		m.sayListed("prompts re-listed ("+msg.reason+"): "+p.note, msg.reason)
	}
	if e := m.editor(); e.prompt {
		if d := p.prompt(e.tool); d != nil {
			e.setSchema(d.schema())
		}
	}
	m.resize(m.lay.width, m.lay.height)
	return nil
}

// listChanged re-lists the resources (and their templates) or the prompts
// when the server says they changed, if they were listed already: a pane
// nobody opened is not listed for the server's sake.
func (m *Model) listChanged(msg listChangedMsg) tea.Cmd {
	ch, listed := m.conn().resourcesChanged, m.resources().listed
	if msg.pane == panePrompts {
		ch, listed = m.conn().promptsChanged, m.prompts().listed
	}
	cmds := []tea.Cmd{waitListChanged(m.ctx, ch, msg.pane)}
	if m.session() == nil {
		return tea.Batch(cmds...)
	}
	if listed {
		cmds = append(cmds, m.relist(msg.pane, "list_changed"))
	}
	if msg.pane == paneResources && m.resources().templates.listed {
		cmds = append(cmds, m.relistTemplates("list_changed"))
	}
	return tea.Batch(cmds...)
}

// choosePrompt prepares a prompts/get of the chosen prompt in the editor.
func (m *Model) choosePrompt(msg choosePromptMsg) tea.Cmd {
	p := m.prompts().prompt(msg.name)
	if p == nil {
		return nil
	}
	fresh := p.prefill()
	m.editor().loadPrompt(p.Name, p.schema(), fresh, fresh, len(m.calls().list))
	m.setFocus(paneEditor)
	return m.editor().startEditing()
}

// readResource sends resources/read for a URI, exactly as given.
func (m *Model) readResource(msg readResourceMsg) tea.Cmd {
	c := &call{method: methodReadResource, tool: msg.uri}
	return m.startCall(c, func(ctx context.Context, s *session.Session) tea.Cmd {
		return readResource(ctx, s, m.conn().timeout, c.id, c.tool)
	})
}

// getPrompt sends prompts/get with the typed arguments.
func (m *Model) getPrompt(msg getPromptMsg) tea.Cmd {
	args, err := promptArguments(msg.args)
	if err != nil {
		m.setStatus(fmt.Sprintf("cannot send prompts/get %s: %v", msg.name, err), true)
		return nil
	}
	c := &call{method: methodGetPrompt, tool: msg.name, args: msg.args, violations: msg.violations}
	return m.startCall(c, func(ctx context.Context, s *session.Session) tea.Cmd {
		return getPrompt(ctx, s, m.conn().timeout, c.id, c.tool, args)
	})
}

// promptArguments reads the typed arguments as prompts/get's string map.
// The session sends a map[string]string, so a value of another type cannot
// be sent as typed: it is refused, naming the argument.
func promptArguments(text string) (map[string]string, error) {
	var args map[string]string
	if err := json.Unmarshal([]byte(text), &args); err == nil {
		return args, nil
	}
	var loose map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &loose); err != nil {
		return nil, fmt.Errorf("the arguments must be a JSON object of strings: %v", err)
	}
	names := make([]string, 0, len(loose))
	for n := range loose {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var s string
		if json.Unmarshal(loose[n], &s) != nil {
			return nil, fmt.Errorf("argument %q is %s, not a string (prompt arguments are strings; quote it)", n, frames.CompactString(loose[n]))
		}
	}
	return nil, fmt.Errorf("the arguments must be a JSON object of strings")
}

// editCatalogCall loads a previous resources/read or prompts/get to send
// again: the URI into the resources pane's field, the arguments into the
// editor.
func (m *Model) editCatalogCall(c *call, edit bool) tea.Cmd {
	if c.method == methodReadResource {
		m.setFocus(paneResources)
		m.resources().editURI(c.tool)
		m.setStatus(fmt.Sprintf("URI of call #%d loaded: edit it, enter reads it", c.id), false)
		return nil
	}
	var schema json.RawMessage
	fresh := "{}"
	if p := m.prompts().prompt(c.tool); p != nil {
		schema, fresh = p.schema(), p.prefill()
	}
	m.editor().loadPrompt(c.tool, schema, c.args, fresh, m.calls().index(c.id))
	m.setFocus(paneEditor)
	if edit {
		m.editor().startEditing()
	}
	m.setStatus(fmt.Sprintf("arguments of call #%d loaded: edit, then ctrl+s sends prompts/get again", c.id), false)
	return nil
}
