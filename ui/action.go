package ui

import (
	"fmt"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// An action is one key of a pane, an overlay or the whole app, declared in
// one place: its keys and help text (a key.Binding from keys.go, drawn by
// bubbles/help), what it does, and, when it cannot be used now, why not.
// The root matches key presses against actions and draws the footer and
// the help from the same values, so the three cannot disagree.
type action struct {
	key.Binding
	do func(k tea.KeyPressMsg) tea.Cmd
	// whyNot says why the keys do nothing now ("no call is open"); "" when
	// they work. A key pressed while it cannot be used says so in the
	// status line instead of doing nothing.
	whyNot string
}

// on makes an action of a binding and what its keys do.
func on(b key.Binding, do func() tea.Cmd) action {
	return onKey(b, func(tea.KeyPressMsg) tea.Cmd { return do() })
}

// onKey is on for work that needs the key itself (a text field's editing
// keys, passed on to the field).
func onKey(b key.Binding, do func(k tea.KeyPressMsg) tea.Cmd) action {
	b.SetEnabled(true)
	return action{Binding: b, do: do}
}

// fieldActions are a text field's editing keys, each passed on to it by
// typed: listed so that the help names them, and matched before anything
// else the same keys might do outside the field.
func fieldActions(t *textEdit, typed func(k tea.KeyPressMsg) tea.Cmd) []action {
	var out []action
	for _, b := range t.keys.list() {
		if t.single && (b.Help().Key == "enter" || b.Help().Desc == "line up" || b.Help().Desc == "line down") {
			continue
		}
		out = append(out, onKey(b, typed))
	}
	return out
}

// only keeps the action usable only while ok; otherwise why says why not.
// The first failed rule is the one reported.
func (a action) only(ok bool, why string) action {
	if !ok && a.whyNot == "" {
		a.whyNot = why
	}
	return a
}

// labelled replaces the help text of the action's keys: what the same keys
// do here ("re-list resources").
func (a action) labelled(desc string) action {
	a.SetHelp(a.Help().Key, desc)
	return a
}

// available reports whether the action can be used now.
func (a action) available() bool { return a.whyNot == "" }

// does wraps a function that returns nothing as an action's work.
func does(f func()) func() tea.Cmd {
	return func() tea.Cmd { f(); return nil }
}

// matchAction finds what k does among actions, in order: the first action
// that can be used now, or else the first whose keys match (to say why it
// does nothing). ok is false when no action has the key.
func matchAction(actions []action, k tea.KeyPressMsg) (a action, ok bool) {
	var blocked *action
	for i := range actions {
		if !key.Matches(k, actions[i].Binding) {
			continue
		}
		if actions[i].available() {
			return actions[i], true
		}
		if blocked == nil {
			blocked = &actions[i]
		}
	}
	if blocked != nil {
		return *blocked, true
	}
	return action{}, false
}

// bindings are the actions' key.Bindings for bubbles/help: the available
// ones enabled, the others disabled (help leaves those out).
func bindings(actions []action) []key.Binding {
	out := make([]key.Binding, len(actions))
	for i, a := range actions {
		out[i] = a.Binding
		out[i].SetEnabled(a.available())
	}
	return out
}

// notNow are the actions that cannot be used now, each with its reason as
// its help text, for the full help.
func notNow(actions []action) []key.Binding {
	var out []key.Binding
	for _, a := range actions {
		if !a.available() && a.Help().Desc != "" {
			b := a.Binding
			b.SetHelp(a.Help().Key, a.Help().Desc+": "+a.whyNot)
			out = append(out, b)
		}
	}
	return out
}

// whileTyping is what the actions are while a text field has the keyboard
// (typing): a key that types text goes to the field, never to an action, so
// an action only such keys reach cannot be used now (q types a q), and one
// that also has another key (? and f1) shows that key. The footer and the
// help draw only keys that work in the focused pane.
func whileTyping(as []action, typing bool) []action {
	if !typing {
		return as
	}
	out := make([]action, len(as))
	for i, a := range as {
		var keep []string
		for _, k := range a.Keys() {
			if !typesText(k) {
				keep = append(keep, k)
			}
		}
		switch {
		case len(keep) == 0:
			a = a.only(false, fmt.Sprintf("a text field has the keyboard: %s types into it", a.Help().Key))
		case len(keep) < len(a.Keys()):
			enabled := a.Enabled()
			a.Binding = key.NewBinding(key.WithKeys(keep...), key.WithHelp(keep[0], a.Help().Desc))
			a.SetEnabled(enabled)
		}
		out[i] = a
	}
	return out
}

// typesText reports whether a key (as key.Binding names it) types text.
func typesText(k string) bool { return k == "space" || utf8.RuneCountInString(k) == 1 }
