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
	what := msg.what()
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
	return e.out.send(statusMsg{text: completedText(msg)})
}

// what names a completion request in the status line.
func (msg completeMsg) what() string {
	ref := msg.prompt
	if msg.template != "" {
		ref = msg.template
	}
	return fmt.Sprintf("completion/complete %s %s=%q", ref, msg.arg, msg.partial)
}

// completedText says what the server offered: the first eight values.
func completedText(msg completedMsg) string {
	vs := msg.values
	list := strings.Join(vs[:min(len(vs), 8)], ", ")
	if len(vs) > 8 || msg.more {
		list += ", …"
	}
	return fmt.Sprintf("%s → %s", msg.what(), list)
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
	m.setStatus(msg.what()+" sent…", false)
	return complete(m.ctx, s, m.conn().timeout, msg)
}

// Completions while typing a URI from a resource template: ctrl+space in
// the URI field finds the template the URI was filled in from (the one
// picked, or any listed that the text before the cursor fits), the
// variable the cursor is in and what is typed of it, and asks the server
// (ref/resource) with the variables already filled in as context. A
// variable still left as {name} counts as empty and is replaced.

// A templatePart is a literal run of a URI template, or (name set) one of
// its {expressions}: RFC 6570's operator gives what its expansion begins
// with ("?name=" for {?name}); an expression of several variables is
// completed as its first.
type templatePart struct {
	literal, name, lead, placeholder string
}

// templateParts splits a URI template into its literals and variables.
func templateParts(tpl string) []templatePart {
	var parts []templatePart
	for tpl != "" {
		open := strings.IndexByte(tpl, '{')
		end := strings.IndexByte(tpl[max(open, 0):], '}') + max(open, 0)
		if open < 0 || end < open {
			return append(parts, templatePart{literal: tpl})
		}
		if open > 0 {
			parts = append(parts, templatePart{literal: tpl[:open]})
		}
		expr := tpl[open+1 : end]
		op := ""
		if expr != "" && strings.ContainsRune("+#./;?&", rune(expr[0])) {
			op, expr = expr[:1], expr[1:]
		}
		name, _, _ := strings.Cut(expr, ",")
		name, _, _ = strings.Cut(strings.TrimSuffix(name, "*"), ":")
		lead := map[string]string{"#": "#", ".": ".", "/": "/", ";": ";" + name + "=", "?": "?" + name + "=", "&": "&" + name + "="}[op]
		parts = append(parts, templatePart{name: name, lead: lead, placeholder: tpl[open : end+1]})
		tpl = tpl[end+1:]
	}
	return parts
}

// templateVarAt finds the variable of tpl that typed (the URI up to the
// cursor) ends in: its name, what is typed of it (erase is the length of
// its {placeholder} when it is still that), and the variables before it
// filled in.
func templateVarAt(tpl, typed string) (name, partial string, erase int, given map[string]string, ok bool) {
	parts := templateParts(tpl)
	for last := len(parts) - 1; last >= 0; last-- {
		if parts[last].name == "" {
			continue
		}
		var re strings.Builder
		re.WriteString(`^`)
		var names []string
		for i, pt := range parts[:last+1] {
			switch {
			case pt.name == "":
				re.WriteString(regexp.QuoteMeta(pt.literal))
			case i == last:
				re.WriteString(regexp.QuoteMeta(pt.lead) + `(.*)$`)
			default:
				re.WriteString(regexp.QuoteMeta(pt.lead) + `(.*?)`)
				names = append(names, pt.name)
			}
		}
		m := regexp.MustCompile(re.String()).FindStringSubmatch(typed)
		if m == nil {
			continue
		}
		given = map[string]string{}
		for i, n := range names {
			if v := m[i+1]; v != "" && v != "{"+n+"}" && !strings.HasPrefix(v, "{") {
				given[n] = v
			}
		}
		partial = m[len(m)-1]
		if partial == parts[last].placeholder || partial == "{"+parts[last].name+"}" {
			return parts[last].name, "", len([]rune(partial)), given, true
		}
		return parts[last].name, partial, 0, given, true
	}
	return "", "", 0, nil, false
}

// complete asks for the completions of the template variable at the
// cursor of the URI field.
func (p *resourcesPane) complete() tea.Cmd {
	line := p.uri.line()
	typed := string(line[:min(p.uri.col, len(line))])
	tpls := []string{}
	if p.fromTemplate != "" {
		tpls = append(tpls, p.fromTemplate)
	}
	for i := range p.templates.items {
		tpls = append(tpls, p.templates.items[i].URITemplate)
	}
	for _, tpl := range tpls {
		if name, partial, erase, given, ok := templateVarAt(tpl, typed); ok {
			return p.out.send(completeMsg{template: tpl, arg: name, partial: partial, given: given,
				text: p.uri.value(), col: p.uri.col, erase: erase})
		}
	}
	why := "completion: the URI up to the cursor is not one of the server's resource templates (t lists them; enter on one puts it here)"
	if !p.templates.listed {
		why = "completion: t lists the server's resource templates first; enter on one puts it here, then ctrl+space in a {variable}"
	}
	return p.out.send(statusMsg{text: why, isErr: true})
}

// completed types in what the server's values share beyond what was
// typed (in place of the {placeholder} when it was left), if the URI and
// the cursor are where they were when it asked.
func (p *resourcesPane) completed(msg completedMsg) tea.Cmd {
	if msg.err != nil {
		return p.out.send(statusMsg{text: msg.what() + ": " + msg.err.Error(), isErr: true})
	}
	if len(msg.values) == 0 {
		return p.out.send(statusMsg{text: msg.what() + ": the server offers no value"})
	}
	if p.typingURI && p.uri.value() == msg.text && p.uri.col == msg.col {
		shared := sharedPrefix(msg.values)
		if msg.erase > 0 {
			for range msg.erase {
				p.uri.backspace()
			}
			p.uri.insert(shared)
		} else if rest, ok := strings.CutPrefix(shared, msg.partial); ok {
			p.uri.insert(rest)
		}
		p.uri.follow()
	}
	return p.out.send(statusMsg{text: completedText(msg)})
}
