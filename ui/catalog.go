package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
)

// The root's side of the resources and prompts panes: listing them when
// first shown and when the server says they changed, and sending
// resources/read and prompts/get as calls the result pane shows.

// listOnOpen lists the resources or the prompts the first time their pane
// is shown with a session open: servers without them are not sent
// requests nobody asked for.
func (m *Model) listOnOpen() tea.Cmd {
	switch {
	case m.session() == nil:
	case m.focus == paneResources && m.res.showTemplates:
		if !m.res.templates.listed {
			return m.relistTemplates("opened")
		}
	case m.focus == paneResources && !m.res.listed:
		return m.relist(paneResources, "opened")
	case m.focus == panePrompts && !m.prompts.listed:
		return m.relist(panePrompts, "opened")
	}
	return nil
}

// relist sends resources/list or prompts/list (every page), or for a
// refresh of the resources pane showing its templates,
// resources/templates/list.
func (m *Model) relist(id paneID, reason string) tea.Cmd {
	s := m.session()
	if s == nil {
		return nil
	}
	if id == paneResources && reason == "refresh" && m.res.showTemplates {
		return m.relistTemplates(reason)
	}
	if reason != "opened" {
		m.setStatus(fmt.Sprintf("re-listing %s (%s/list on the wire)…", lowerName(id), lowerName(id)), false)
	}
	if id == panePrompts {
		m.prompts.listed, m.prompts.loading = true, true
		m.prompts.syncDetail(true)
		return listPrompts(m.ctx, s, m.cfg.Timeout, reason)
	}
	m.res.listed, m.res.loading = true, true
	m.res.syncDetail(true)
	return listResources(m.ctx, s, m.cfg.Timeout, reason)
}

// relistTemplates sends resources/templates/list (every page).
func (m *Model) relistTemplates(reason string) tea.Cmd {
	s := m.session()
	if s == nil {
		return nil
	}
	if reason != "opened" {
		m.setStatus("re-listing resource templates (resources/templates/list on the wire)…", false)
	}
	m.res.templates.listed, m.res.templates.loading = true, true
	m.res.templates.syncDetail(true)
	return listTemplates(m.ctx, s, m.cfg.Timeout, reason)
}

func lowerName(id paneID) string {
	if id == panePrompts {
		return "prompts"
	}
	return "resources"
}

// listed takes in a resources/list or prompts/list.
func (m *Model) listed(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case resourcesListedMsg:
		if msg.err != nil {
			m.res.setError(msg.err)
			return nil
		}
		m.res.setResources(msg.raw)
		if msg.reason != "opened" {
			m.setStatus("resources re-listed ("+msg.reason+"): "+m.res.note, false)
		}
	case templatesListedMsg:
		if msg.err != nil {
			m.res.templates.setError(msg.err)
			return nil
		}
		m.res.setTemplates(msg.raw)
		if msg.reason != "opened" {
			m.setStatus("resource templates re-listed ("+msg.reason+"): "+m.res.templates.note, false)
		}
	case promptsListedMsg:
		if msg.err != nil {
			m.prompts.setError(msg.err)
			return nil
		}
		m.prompts.setPrompts(msg.raw)
		if msg.reason != "opened" {
			m.setStatus("prompts re-listed ("+msg.reason+"): "+m.prompts.note, false)
		}
		if m.editor.prompt {
			if p := m.prompts.prompt(m.editor.tool); p != nil {
				m.editor.setSchema(p.schema())
			}
		}
	}
	m.resize(m.width, m.height)
	return nil
}

// listChanged re-lists the resources (and their templates) or the prompts
// when the server says they changed, if they were listed already: a pane
// nobody opened is not listed for the server's sake.
func (m *Model) listChanged(msg listChangedMsg) tea.Cmd {
	ch, listed := m.resourcesChanged, m.res.listed
	if msg.pane == panePrompts {
		ch, listed = m.promptsChanged, m.prompts.listed
	}
	cmds := []tea.Cmd{waitListChanged(m.ctx, ch, msg.pane)}
	if m.session() == nil {
		return tea.Batch(cmds...)
	}
	if listed {
		cmds = append(cmds, m.relist(msg.pane, "list_changed"))
	}
	if msg.pane == paneResources && m.res.templates.listed {
		cmds = append(cmds, m.relistTemplates("list_changed"))
	}
	return tea.Batch(cmds...)
}

// catalogCall handles a resource to read and a prompt to prepare or get.
func (m *Model) catalogCall(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case choosePromptMsg:
		p := m.prompts.prompt(msg.name)
		if p == nil {
			return nil
		}
		fresh := p.prefill()
		m.editor.loadPrompt(p.Name, p.schema(), fresh, fresh, len(m.calls))
		m.setFocus(paneEditor)
		return m.editor.startEditing()
	case readResourceMsg:
		return m.start(&call{method: methodReadResource, tool: msg.uri}, func(ctx context.Context, c *call) tea.Cmd {
			return readResource(ctx, m.session(), m.cfg.Timeout, c.id, c.tool)
		})
	case getPromptMsg:
		args, err := promptArguments(msg.args)
		if err != nil {
			m.setStatus(fmt.Sprintf("cannot send prompts/get %s: %v", msg.name, err), true)
			return nil
		}
		return m.start(&call{method: methodGetPrompt, tool: msg.name, args: msg.args, violations: msg.violations}, func(ctx context.Context, c *call) tea.Cmd {
			return getPrompt(ctx, m.session(), m.cfg.Timeout, c.id, c.tool, args)
		})
	}
	return nil
}

// start records a call that is not a tools/call, shows it in the result
// pane and sends it.
func (m *Model) start(c *call, send func(context.Context, *call) tea.Cmd) tea.Cmd {
	if m.session() == nil {
		m.setStatus("not connected: nothing can be sent (r retries)", true)
		return nil
	}
	m.nextID++
	c.id, c.sent = m.nextID, time.Now()
	m.calls = append(m.calls, c)
	m.editor.histPos = len(m.calls)
	m.result.show(c.id)
	m.followCall()
	ctx, cancel := context.WithCancelCause(m.ctx)
	c.cancel = cancel
	if m.lay.tabs {
		// One pane at a time: the reply is what the user waits for.
		m.setFocus(paneResult)
	}
	m.setStatus(fmt.Sprintf("call #%d: %s sent (ctrl+x cancels it)", c.id, c.title()), false)
	return send(ctx, c)
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
		m.res.editURI(c.tool)
		m.setStatus(fmt.Sprintf("URI of call #%d loaded: edit it, enter reads it", c.id), false)
		return nil
	}
	var schema json.RawMessage
	fresh := "{}"
	if p := m.prompts.prompt(c.tool); p != nil {
		schema, fresh = p.schema(), p.prefill()
	}
	pos := 0
	for i, x := range m.calls {
		if x.id == c.id {
			pos = i
		}
	}
	m.editor.loadPrompt(c.tool, schema, c.args, fresh, pos)
	m.setFocus(paneEditor)
	if edit {
		m.editor.startEditing()
	}
	m.setStatus(fmt.Sprintf("arguments of call #%d loaded: edit, then ctrl+s sends prompts/get again", c.id), false)
	return nil
}
