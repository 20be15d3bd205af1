package ui

import (
	"encoding/json"
	"strings"

	"github.com/mcpjig/jig/frames"
)

// prefill writes the arguments a call starts from: every required property
// and every property with a default, valued by its default, const or first
// enum value, or else a placeholder of its type ("" for strings, 0, false,
// [], and nested objects filled the same way). Keys keep the schema's order.
func prefill(inputSchema json.RawMessage) string {
	n, ok := parseSchema(inputSchema)
	if !ok {
		return "{}"
	}
	return prefillObject(n, "", 0)
}

func prefillObject(n *schemaNode, indent string, depth int) string {
	required := map[string]bool{}
	for _, r := range n.Required {
		required[r] = true
	}
	var lines []string
	for _, p := range members(n.Properties) {
		c, ok := parseSchema(p.value)
		if !ok {
			continue
		}
		if !required[p.key] && isNull(c.Default) {
			continue
		}
		k, _ := json.Marshal(p.key)
		lines = append(lines, indent+"  "+string(k)+": "+prefillValue(c, indent+"  ", depth))
	}
	if len(lines) == 0 {
		return "{}"
	}
	return "{\n" + strings.Join(lines, ",\n") + "\n" + indent + "}"
}

func prefillValue(n *schemaNode, indent string, depth int) string {
	switch {
	case !isNull(n.Default):
		return frames.CompactString(n.Default)
	case !isNull(n.Const):
		return frames.CompactString(n.Const)
	case len(n.Enum) > 0:
		return frames.CompactString(n.Enum[0])
	}
	ts := n.types()
	t := ""
	for _, x := range ts {
		if x != "null" {
			t = x
			break
		}
	}
	if t == "" && !isNull(n.Properties) {
		t = "object"
	}
	if t == "" && len(n.AnyOf)+len(n.OneOf) > 0 {
		alts := append(append([]json.RawMessage{}, n.AnyOf...), n.OneOf...)
		if a, ok := parseSchema(alts[0]); ok {
			return prefillValue(a, indent, depth)
		}
	}
	switch t {
	case "string":
		return `""`
	case "integer", "number":
		return "0"
	case "boolean":
		return "false"
	case "array":
		return "[]"
	case "object":
		if depth > 6 {
			return "{}"
		}
		return prefillObject(n, indent, depth+1)
	case "null":
		return "null"
	}
	return "null"
}
