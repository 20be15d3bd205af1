package ui

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
)

// Completions while typing a prompt's arguments: ctrl+space asks the
// server (completion/complete, as jig complete does) for the values that
// complete the argument the cursor is in, with the other arguments typed
// so far as its context. One value is typed in; several are listed, and
// what they share is typed in.

// argAtCursor matches the member a cursor is in: "name": "partial|.
var argAtCursor = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"((?:[^"\\]|\\.)+)"\s*:\s*"((?:[^"\\]|\\.)*)$`)
})

// complete asks for the completions of the argument at the cursor.
func (e *editorPane) complete() tea.Cmd {
	line := e.ta.lines[e.ta.row]
	before := string(line[:min(e.ta.col, len(line))])
	m := argAtCursor().FindStringSubmatch(before)
	if m == nil {
		return e.out.send(statusMsg{text: `completion: put the cursor in an argument's value ("department": "E|), then ctrl+space`, isErr: true})
	}
	var arg, partial string
	_ = json.Unmarshal([]byte(`"`+m[1]+`"`), &arg)
	_ = json.Unmarshal([]byte(`"`+m[2]+`"`), &partial)
	given := map[string]string{}
	var all map[string]any
	if json.Unmarshal([]byte(e.ta.value()), &all) == nil {
		for k, v := range all {
			if s, ok := v.(string); ok && k != arg && s != "" {
				given[k] = s
			}
		}
	}
	return e.out.send(completeMsg{prompt: e.tool, arg: arg, partial: partial, given: given, text: e.ta.value(), row: e.ta.row, col: e.ta.col})
}

// completed types in what the server's values share beyond what was typed,
// if the text and the cursor are where they were when it asked.
func (e *editorPane) completed(msg completedMsg) tea.Cmd {
	what := fmt.Sprintf("completion/complete %s %s=%q", msg.prompt, msg.arg, msg.partial)
	if msg.err != nil {
		return e.out.send(statusMsg{text: what + ": " + msg.err.Error(), isErr: true})
	}
	vs := msg.values
	if len(vs) == 0 {
		return e.out.send(statusMsg{text: what + ": the server offers no value"})
	}
	if e.prompt && e.tool == msg.prompt && e.ta.value() == msg.text && e.ta.row == msg.row && e.ta.col == msg.col {
		if rest := strings.TrimPrefix(sharedPrefix(vs), msg.partial); rest != "" && strings.HasPrefix(sharedPrefix(vs), msg.partial) {
			q, _ := json.Marshal(rest)
			e.ta.insert(string(q[1 : len(q)-1]))
			e.ta.follow()
			e.revalidate()
		}
	}
	list := strings.Join(vs[:min(len(vs), 8)], ", ")
	if len(vs) > 8 || msg.more {
		list += ", …"
	}
	return e.out.send(statusMsg{text: fmt.Sprintf("%s → %s", what, list)})
}

// sharedPrefix is what every value begins with.
func sharedPrefix(vs []string) string {
	p := vs[0]
	for _, v := range vs[1:] {
		for !strings.HasPrefix(v, p) {
			_, size := lastRune(p)
			p = p[:len(p)-size]
		}
	}
	return p
}

func lastRune(s string) (rune, int) {
	r := []rune(s)
	if len(r) == 0 {
		return 0, 0
	}
	return r[len(r)-1], len(string(r[len(r)-1]))
}

// completeArg sends completion/complete for the editor.
func (m *Model) completeArg(msg completeMsg) tea.Cmd {
	s := m.session()
	if s == nil {
		m.setStatus("not connected: there is no server to ask for completions", true)
		return nil
	}
	m.setStatus(fmt.Sprintf("completion/complete %s %s=%q sent…", msg.prompt, msg.arg, msg.partial), false)
	return complete(m.ctx, s, m.conn().timeout, msg)
}
