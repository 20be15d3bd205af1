package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpjig/jig/frames"
)

// A schemaNode is the part of a JSON Schema that jig shows to people.
type schemaNode struct {
	Type        json.RawMessage   `json:"type"` // a string or an array of strings
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Format      string            `json:"format"`
	Enum        []json.RawMessage `json:"enum"`
	Const       json.RawMessage   `json:"const"`
	Default     json.RawMessage   `json:"default"`
	Properties  json.RawMessage   `json:"properties"`
	Required    []string          `json:"required"`
	Items       json.RawMessage   `json:"items"`
	AnyOf       []json.RawMessage `json:"anyOf"`
	OneOf       []json.RawMessage `json:"oneOf"`
	AllOf       []json.RawMessage `json:"allOf"`
	Ref         string            `json:"$ref"`
	Pattern     string            `json:"pattern"`
	Minimum     *float64          `json:"minimum"`
	Maximum     *float64          `json:"maximum"`
	MinLength   *int              `json:"minLength"`
	MaxLength   *int              `json:"maxLength"`
	MinItems    *int              `json:"minItems"`
	MaxItems    *int              `json:"maxItems"`
	AddProps    json.RawMessage   `json:"additionalProperties"`
}

func parseSchema(raw json.RawMessage) (*schemaNode, bool) {
	var n schemaNode
	if isNull(raw) || json.Unmarshal(raw, &n) != nil {
		return nil, false
	}
	return &n, true
}

// types returns the node's type names ("string", or "string|null").
func (n *schemaNode) types() []string {
	var one string
	if json.Unmarshal(n.Type, &one) == nil && one != "" {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(n.Type, &many)
	return many
}

func (n *schemaNode) has(t string) bool {
	for _, x := range n.types() {
		if x == t {
			return true
		}
	}
	return false
}

// typeString names what the node accepts: "integer", "array of string",
// "anyOf(string | null)", "→ #/$defs/Order".
func (n *schemaNode) typeString() string {
	switch {
	case n.Ref != "":
		return "→ " + n.Ref
	case len(n.AnyOf) > 0:
		return "anyOf(" + altTypes(n.AnyOf) + ")"
	case len(n.OneOf) > 0:
		return "oneOf(" + altTypes(n.OneOf) + ")"
	case len(n.AllOf) > 0:
		return "allOf(" + altTypes(n.AllOf) + ")"
	}
	ts := n.types()
	if len(ts) == 0 {
		switch {
		case len(n.Enum) > 0:
			return "enum"
		case !isNull(n.Const):
			return "const"
		case !isNull(n.Properties):
			return "object"
		}
		return "any"
	}
	s := strings.Join(ts, "|")
	if n.has("array") {
		if it, ok := parseSchema(n.Items); ok {
			s = strings.Replace(s, "array", "array of "+it.typeString(), 1)
		}
	}
	return s
}

func altTypes(alts []json.RawMessage) string {
	var out []string
	for _, a := range alts {
		if n, ok := parseSchema(a); ok {
			out = append(out, n.typeString())
		}
	}
	return strings.Join(out, " | ")
}

// constraints lists the node's format, enum, default and bounds.
func (n *schemaNode) constraints() []string {
	var out []string
	if n.Format != "" {
		out = append(out, "format "+n.Format)
	}
	if len(n.Enum) > 0 {
		var vs []string
		for _, e := range n.Enum {
			vs = append(vs, frames.CompactString(e))
		}
		out = append(out, "one of "+strings.Join(vs, " | "))
	}
	if !isNull(n.Const) {
		out = append(out, "const "+frames.CompactString(n.Const))
	}
	if !isNull(n.Default) {
		out = append(out, "default "+frames.CompactString(n.Default))
	}
	if n.Minimum != nil {
		out = append(out, fmt.Sprintf("≥ %v", *n.Minimum))
	}
	if n.Maximum != nil {
		out = append(out, fmt.Sprintf("≤ %v", *n.Maximum))
	}
	if n.MinLength != nil || n.MaxLength != nil {
		out = append(out, "length "+bounds(n.MinLength, n.MaxLength))
	}
	if n.MinItems != nil || n.MaxItems != nil {
		out = append(out, "items "+bounds(n.MinItems, n.MaxItems))
	}
	if n.Pattern != "" {
		out = append(out, "pattern "+n.Pattern)
	}
	if string(n.AddProps) == "false" {
		out = append(out, "no other keys")
	}
	return out
}

func bounds(lo, hi *int) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("%d..%d", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf("≥ %d", *lo)
	}
	return fmt.Sprintf("≤ %d", *hi)
}

// writeSchema renders a schema for reading: one line per property with its
// type, a required mark, format, enum, default and bounds, and its
// description below; nested objects and arrays of objects are indented.
func writeSchema(b *docBuilder, raw json.RawMessage, width int) {
	n, ok := parseSchema(raw)
	if !ok {
		b.line(roleMuted, "  (not a JSON object: "+frames.CompactString(raw)+")")
		return
	}
	head := "  " + n.typeString()
	if c := n.constraints(); len(c) > 0 {
		head += " · " + strings.Join(c, " · ")
	}
	if n.typeString() != "object" || len(n.constraints()) > 0 {
		b.line(rolePlain, head)
	}
	writeProperties(b, n, "  ", width, 0)
}

func writeProperties(b *docBuilder, n *schemaNode, indent string, width, depth int) {
	if depth > 8 {
		b.line(roleMuted, indent+"…")
		return
	}
	props := members(n.Properties)
	if len(props) == 0 && n.has("object") && depth == 0 {
		b.line(roleMuted, indent+"(no properties)")
	}
	required := map[string]bool{}
	for _, r := range n.Required {
		required[r] = true
	}
	for _, p := range props {
		c, ok := parseSchema(p.value)
		if !ok {
			b.line(rolePlain, indent+"○ "+p.key+"  "+frames.CompactString(p.value))
			continue
		}
		mark, r := "○ ", rolePlain
		if required[p.key] {
			mark, r = "● ", roleLabel
		}
		line := indent + mark + p.key + "  " + c.typeString()
		if required[p.key] {
			line += "  required"
		}
		if cs := c.constraints(); len(cs) > 0 {
			line += "  · " + strings.Join(cs, " · ")
		}
		b.line(r, wrapHanging(line, indent+"      ", width))
		desc := strings.TrimSpace(c.Description)
		if desc == "" {
			desc = strings.TrimSpace(c.Title)
		}
		if desc != "" {
			b.line(roleMuted, wrapText(desc, indent+"    ", width))
		}
		child := c
		if c.has("array") {
			if it, ok := parseSchema(c.Items); ok {
				child = it
			}
		}
		if !isNull(child.Properties) {
			writeProperties(b, child, indent+"    ", width, depth+1)
		}
	}
	// Keys the schema requires but does not describe are still required.
	for _, r := range n.Required {
		found := false
		for _, p := range props {
			found = found || p.key == r
		}
		if !found {
			b.line(roleLabel, indent+"● "+r+"  (required, not described)")
		}
	}
}

// wrapText wraps words to width, each line starting with prefix.
func wrapText(s, prefix string, width int) string {
	width = max(width-len([]rune(prefix)), 20)
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
				lines = append(lines, prefix+line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		lines = append(lines, prefix+line)
	}
	return strings.Join(lines, "\n")
}

// wrapHanging wraps a line that starts with its own indentation; the lines
// after the first start with rest.
func wrapHanging(line, rest string, width int) string {
	trimmed := strings.TrimLeft(line, " ")
	lead := line[:len(line)-len(trimmed)]
	if len([]rune(line)) <= width || width < 20 {
		return line
	}
	words := strings.Fields(trimmed)
	var out []string
	cur := lead
	room := width - len([]rune(rest)) // what a continuation row holds
	for _, w := range words {
		wr := []rune(w)
		if strings.TrimSpace(cur) != "" && len([]rune(cur))+1+len(wr) > width && len(wr) <= room {
			out = append(out, cur)
			cur = rest
		}
		if strings.TrimSpace(cur) != "" {
			cur += " "
		}
		// A word no row holds (a long URI) is cut where each row is full,
		// each continuation under the hanging indent: wrapped later by the
		// view, it went to the left edge.
		for len([]rune(cur))+len(wr) > width && room > 0 {
			n := max(width-len([]rune(cur)), 0)
			out = append(out, cur+string(wr[:n]))
			cur, wr = rest, wr[n:]
		}
		cur += string(wr)
	}
	return strings.Join(append(out, cur), "\n")
}
