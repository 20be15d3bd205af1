package ui

import (
	"fmt"
	"net/url"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// The roots editor (F) changes the roots jig answers roots/list with, on
// the live session: one URI a line, a name after it if wanted. ctrl+s sets
// them, and the SDK tells the server (notifications/roots/list_changed),
// which then asks roots/list again: both show in the frames pane.

type rootsEditor struct {
	st   *styles
	out  *outbox
	keys rootsKeys
	edit *textEdit
}

func newRootsEditor(st *styles, out *outbox, roots []string) *rootsEditor {
	r := &rootsEditor{st: st, out: out, keys: newRootsKeys(), edit: newTextEdit(st, false)}
	r.edit.numbers = true
	r.edit.setValue(strings.Join(roots, "\n"))
	r.edit.cursorEnd()
	return r
}

func (r *rootsEditor) title() string { return "Roots jig declares (roots/list)" }
func (r *rootsEditor) typing() bool  { return true }

func (r *rootsEditor) about() string {
	return r.st.muted.Render("One root a line: a URI (file:///home/dev/project), then a name if you want one. An empty list is no roots.\n" +
		"ctrl+s sets them on the session; the server is told (notifications/roots/list_changed) and may ask roots/list again.")
}

func (r *rootsEditor) setSize(w, h int) { r.edit.setSize(w, max(h-lipgloss.Height(r.about())-1, 1)) }

func (r *rootsEditor) update(msg tea.Msg) tea.Cmd {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		r.edit.update(msg)
	}
	return nil
}

func (r *rootsEditor) actions() []action {
	k := r.keys
	as := []action{
		on(k.Set, func() tea.Cmd {
			roots, err := parseRoots(r.edit.value())
			if err != nil {
				return r.out.send(statusMsg{text: err.Error(), isErr: true})
			}
			return r.out.send(setRootsMsg{roots: roots})
		}),
		on(k.Close, func() tea.Cmd { return r.out.send(closeOverlayMsg{}) }),
	}
	return append(as, fieldActions(r.edit, func(k tea.KeyPressMsg) tea.Cmd { r.edit.update(k); return nil })...)
}

func (r *rootsEditor) view() string {
	r.edit.focus()
	return r.about() + "\n\n" + r.edit.view()
}

// parseRoots reads one root a line; a line that is not an absolute URI is
// named with its number.
func parseRoots(text string) ([]session.Root, error) {
	var roots []session.Root
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		uri, name, _ := strings.Cut(line, " ")
		if u, err := url.Parse(uri); err != nil || u.Scheme == "" {
			return nil, fmt.Errorf("roots line %d: %q is not a URI with a scheme (e.g. file:///home/dev/project): fix it, or esc to keep the roots as they are", i+1, uri)
		}
		roots = append(roots, session.Root{URI: uri, Name: strings.TrimSpace(name)})
	}
	return roots, nil
}

// openRoots opens the roots editor with the roots declared now.
func (m *Model) openRoots() {
	m.openOverlay(newRootsEditor(m.st(), m.env.out, m.info().Roots))
}

// setRoots sets the roots on the session; the SDK sends the list_changed.
func (m *Model) setRoots(msg setRootsMsg) tea.Cmd {
	s := m.session()
	if s == nil {
		m.setStatus("not connected: there is no session to set roots on", true)
		return nil
	}
	if err := s.SetRoots(msg.roots); err != nil {
		m.setStatus("roots: "+err.Error(), true)
		return nil
	}
	m.overlay = nil
	m.hdr.info = s.Info()
	m.setStatus(fmt.Sprintf("jig now declares %d root%s; notifications/roots/list_changed sent (the server may ask roots/list: 4 Frames)", len(msg.roots), frames.Plural(len(msg.roots))), false)
	return nil
}
