package ui

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
)

// An elicitForm is an elicitation's requestedSchema as a form: one field a
// property, by type (text, number, integer, a choice for an enum or a
// boolean), required ones marked, defaults filled in. The MCP spec keeps
// requestedSchema flat (an object of primitive properties); a schema that
// is not is answered as JSON, as before. The form writes the content JSON
// the dialog validates and sends, so both say the same thing.
type elicitForm struct {
	st     *styles
	fields []formField
	at     int       // the field with the keyboard
	edit   *textEdit // the text of a text field being typed
	width  int
	height int
	top    int // the first line shown
}

// A formField is one property of the requested schema.
type formField struct {
	name, title, desc string
	kind              string   // "string", "number", "integer", "boolean"
	choices           []string // an enum's values (JSON texts), or false/true
	labels            []string // what a choice is called (enumNames, oneOf titles)
	required          bool
	text              string // a text field's value as typed
	choice            int    // a choice field's value; -1 for none yet
	rules             string // what the schema says besides the type: format, bounds, pattern
	multi             bool   // an array of enum values: several may be picked
	picked            []bool // a multi field's picks, by choice
	opt               int    // a multi field's option under the cursor
}

func (f *formField) isChoice() bool { return len(f.choices) > 0 }

// newElicitForm makes the form of schema, or reports that it is not one a
// form can say (then the dialog takes JSON).
func newElicitForm(st *styles, schema json.RawMessage) (*elicitForm, bool) {
	n, ok := parseSchema(schema)
	if !ok || isNull(n.Properties) {
		return nil, false
	}
	required := map[string]bool{}
	for _, r := range n.Required {
		required[r] = true
	}
	form := &elicitForm{st: st, edit: newTextEdit(st, true)}
	for _, p := range members(n.Properties) {
		c, ok := parseSchema(p.value)
		if !ok {
			return nil, false
		}
		f, ok := newFormField(p.key, c, p.value, required[p.key])
		if !ok {
			return nil, false
		}
		form.fields = append(form.fields, f)
	}
	if len(form.fields) == 0 {
		return nil, false
	}
	form.load()
	return form, true
}

// enumNames is the legacy titles of an enum's values.
type enumNames struct {
	EnumNames []string `json:"enumNames"`
}

func newFormField(name string, c *schemaNode, raw json.RawMessage, required bool) (formField, bool) {
	f := formField{name: name, title: c.Title, desc: c.Description, required: required, choice: -1}
	var rules []string
	for _, r := range c.constraints() {
		if !strings.HasPrefix(r, "one of ") && !strings.HasPrefix(r, "default ") {
			rules = append(rules, r)
		}
	}
	f.rules = strings.Join(rules, " · ")
	for _, t := range c.types() {
		if t != "null" {
			f.kind = t
		}
	}
	opts := c
	if f.kind == "array" {
		// A multi-select: the items are an enum (or titled consts).
		items, ok := parseSchema(c.Items)
		if !ok {
			return f, false
		}
		opts, raw, f.multi = items, c.Items, true
	}
	if !f.readChoices(opts, raw) {
		return f, false
	}
	if f.multi {
		if len(f.choices) == 0 {
			return f, false
		}
		f.picked = make([]bool, len(f.choices))
		var def []json.RawMessage
		_ = json.Unmarshal(c.Default, &def)
		for _, d := range def {
			for i, v := range f.choices {
				if v == frames.CompactString(d) {
					f.picked[i] = true
				}
			}
		}
		return f, true
	}
	if f.kind == "" && len(f.choices) > 0 {
		f.kind = "string"
	}
	switch f.kind {
	case "boolean":
		f.choices = []string{"false", "true"}
	case "string", "number", "integer":
	default:
		return f, false
	}
	f.readDefault(c.Default)
	return f, true
}

// readChoices takes an enum's values (and their legacy enumNames) or a
// titled enum's consts; false when an alternative is not a const.
func (f *formField) readChoices(opts *schemaNode, raw json.RawMessage) bool {
	var en enumNames
	_ = json.Unmarshal(raw, &en)
	for i, e := range opts.Enum {
		f.choices = append(f.choices, string(e))
		if i < len(en.EnumNames) {
			f.labels = append(f.labels, en.EnumNames[i])
		}
	}
	for _, alt := range append(opts.OneOf, opts.AnyOf...) { // titled enums: oneOf of {const, title}
		a, ok := parseSchema(alt)
		if !ok || isNull(a.Const) {
			return false
		}
		f.choices, f.labels = append(f.choices, string(a.Const)), append(f.labels, a.Title)
	}
	return true
}

// readDefault fills in the schema's default.
func (f *formField) readDefault(d json.RawMessage) {
	switch {
	case isNull(d):
	case f.isChoice():
		for i, v := range f.choices {
			if v == string(d) {
				f.choice = i
			}
		}
	case f.kind == "string":
		_ = json.Unmarshal(d, &f.text)
	default:
		f.text = string(d)
	}
}

// load puts the focused field's text into the line editor.
func (f *elicitForm) load() {
	f.edit.setValue(f.fields[f.at].text)
	f.edit.cursorEnd()
}

// move gives the keyboard to the field d away, keeping what was typed.
func (f *elicitForm) move(d int) {
	f.fields[f.at].text = f.edit.value()
	f.at = (f.at + d + len(f.fields)) % len(f.fields)
	f.load()
}

// typed takes a key or a paste for the focused field: text for a text
// field, space, left or right to step through a choice. It reports whether
// the value changed.
func (f *elicitForm) typed(msg tea.Msg) bool {
	fl := &f.fields[f.at]
	if !fl.isChoice() {
		changed := f.edit.update(msg)
		fl.text = f.edit.value()
		return changed
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false
	}
	if fl.multi {
		switch k.String() {
		case "space", " ":
			fl.picked[fl.opt] = !fl.picked[fl.opt]
			return true
		case "right":
			fl.opt = (fl.opt + 1) % len(fl.choices)
		case "left":
			fl.opt = (fl.opt - 1 + len(fl.choices)) % len(fl.choices)
		}
		return false
	}
	switch k.String() {
	case "space", " ", "right":
		if fl.choice < 0 && fl.kind == "boolean" {
			// An unset checkbox reads as unticked: space ticks it.
			fl.choice = 1
			break
		}
		fl.choice = (fl.choice + 1) % len(fl.choices)
	case "left":
		fl.choice = (fl.choice - 1 + len(fl.choices)) % len(fl.choices)
		if fl.choice < 0 {
			fl.choice = len(fl.choices) - 1
		}
	case "backspace", "delete":
		fl.choice = -1
	default:
		return false
	}
	return true
}

// content is the JSON object the form says: every field with a value, a
// number as a number when it reads as one (else as the text typed, which
// the schema then refuses by name), empty text fields left out.
func (f *elicitForm) content() string { return f.contentWith(false) }

// asJSON is the content to go on typing as JSON: indented, with a
// required text field still empty as "" to fill in.
func (f *elicitForm) asJSON() string {
	text := f.contentWith(true)
	if pretty, ok := frames.Indent([]byte(text)); ok {
		return string(pretty)
	}
	return text
}

func (f *elicitForm) contentWith(emptyRequired bool) string {
	var b strings.Builder
	b.WriteString("{")
	n := 0
	for _, fl := range f.fields {
		v, ok := fl.value()
		if !ok && emptyRequired && fl.required && !fl.isChoice() {
			v, ok = `""`, true
		}
		if !ok {
			continue
		}
		if n > 0 {
			b.WriteString(", ")
		}
		k, _ := json.Marshal(fl.name)
		b.Write(k)
		b.WriteString(": ")
		b.WriteString(v)
		n++
	}
	b.WriteString("}")
	return b.String()
}

func (fl formField) value() (string, bool) {
	if fl.multi {
		var vs []string
		for i, p := range fl.picked {
			if p {
				vs = append(vs, fl.choices[i])
			}
		}
		if len(vs) == 0 && !fl.required {
			return "", false
		}
		return "[" + strings.Join(vs, ", ") + "]", true
	}
	if fl.isChoice() {
		if fl.choice < 0 {
			return "", false
		}
		return fl.choices[fl.choice], true
	}
	t := strings.TrimSpace(fl.text)
	if fl.text == "" {
		return "", false
	}
	switch fl.kind {
	case "integer":
		if _, err := strconv.ParseInt(t, 10, 64); err == nil {
			return t, true
		}
	case "number":
		if _, err := strconv.ParseFloat(t, 64); err == nil && json.Valid([]byte(t)) {
			return t, true
		}
	}
	s, _ := json.Marshal(fl.text)
	return string(s), true
}

// view draws each field, scrolled so the one with the keyboard is whole
// on screen.
func (f *elicitForm) view() string {
	var lines []string
	focus, focusEnd := 0, 0
	for i := range f.fields {
		if i == f.at {
			focus = len(lines)
		}
		lines = append(lines, f.fieldLines(i)...)
		if i == f.at {
			focusEnd = len(lines)
		}
	}
	h := max(f.height, 1)
	if focusEnd > f.top+h {
		f.top = focusEnd - h
	}
	f.top = max(min(f.top, focus), 0)
	lines = lines[f.top:min(len(lines), f.top+h)]
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, f.width, "…")
	}
	return strings.Join(lines, "\n")
}

// fieldLines are field i's: its marker, name, kind and rules; its value
// (the focused one editable); its description.
func (f *elicitForm) fieldLines(i int) []string {
	fl := f.fields[i]
	mark := "○"
	if fl.required {
		mark = "●"
	}
	name := fl.name
	if fl.title != "" && fl.title != fl.name {
		name += " (" + fl.title + ")"
	}
	kind := fl.kind
	if fl.multi {
		kind = "pick any"
	} else if len(fl.choices) > 0 && fl.kind != "boolean" {
		kind = "pick one"
	}
	head := fmt.Sprintf("%s %s  %s", mark, name, kind)
	if fl.required {
		head += " · required"
	}
	if fl.rules != "" {
		head += " · " + fl.rules
	}
	cursor := "  "
	if i == f.at {
		cursor = "▶ "
		head = f.st.label.Render(head)
	}
	lines := []string{cursor + head}
	switch {
	case fl.isChoice():
		lines = append(lines, "    "+f.choiceLine(i))
	case i == f.at:
		f.edit.setSize(max(f.width-4, 1), 1)
		f.edit.focus()
		lines = append(lines, "    "+f.edit.view())
	case fl.text == "":
		lines = append(lines, "    "+f.st.muted.Render("(empty)"))
	default:
		lines = append(lines, "    "+fl.text)
	}
	if fl.desc != "" {
		lines = append(lines, f.st.muted.Render("    "+fl.desc))
	}
	return lines
}

// choiceLine shows a choice field's options, the chosen (or picked) marked.
func (f *elicitForm) choiceLine(i int) string {
	fl := f.fields[i]
	var opts []string
	for j := range fl.choices {
		o := fl.choices[j]
		if j < len(fl.labels) && fl.labels[j] != "" {
			o = fl.labels[j] + " " + f.st.muted.Render(o)
		}
		switch {
		case fl.multi && fl.picked[j]:
			o = "☑ " + o
		case fl.multi:
			o = "☐ " + o
		}
		switch {
		case fl.multi && j == fl.opt && i == f.at:
			o = f.st.selected.Render(o)
		case !fl.multi && j == fl.choice:
			o = f.st.selected.Render("[" + o + "]")
		}
		opts = append(opts, o)
	}
	return strings.Join(opts, "  ")
}

// hint says how the focused field takes a value.
func (f *elicitForm) hint() string {
	switch fl := f.fields[f.at]; {
	case fl.multi:
		return "←→ move, space picks"
	case fl.isChoice():
		return "space/←→ choose, backspace clears"
	}
	return "type the value"
}
