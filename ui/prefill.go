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
	return prefillObject(n, "", 0, false)
}

// callTemplate writes the arguments a tools/call starts from: the required
// properties only, so the first call sends what the user chose and nothing
// jig chose (an optional "limit": 10 would already differ from a
// transcript's call). The optional ones are listed beside the editor and
// added one key at a time (optionalArgs, addMember).
func callTemplate(inputSchema json.RawMessage) string {
	n, ok := parseSchema(inputSchema)
	if !ok {
		return "{}"
	}
	return prefillObject(n, "", 0, true)
}

// optionalArg is a top-level property the call template left out.
type optionalArg struct {
	name, about, value string
}

// short is the argument as the editor lists it: its name, and its
// default when it has one (limit=10).
func (o optionalArg) short() string {
	if _, d, ok := strings.Cut(o.about, "default "); ok {
		return o.name + "=" + d
	}
	return o.name
}

// optionalArgs are the input schema's top-level properties that are not
// required, in the schema's order, each with what it is (its type and
// default) and the value adding it writes.
func optionalArgs(inputSchema json.RawMessage) []optionalArg {
	n, ok := parseSchema(inputSchema)
	if !ok {
		return nil
	}
	required := map[string]bool{}
	for _, r := range n.Required {
		required[r] = true
	}
	var out []optionalArg
	for _, p := range members(n.Properties) {
		c, ok := parseSchema(p.value)
		if !ok || required[p.key] {
			continue
		}
		about := strings.Join(c.types(), "|")
		if !isNull(c.Default) {
			about = strings.TrimPrefix(about+", default "+frames.CompactString(c.Default), ", ")
		}
		out = append(out, optionalArg{name: p.key, about: about, value: prefillValue(c, "  ", 1)})
	}
	return out
}

// addMember adds "name": value as the last member of the JSON object in
// text, leaving every byte already typed as it is; ok is false when text
// is not an object.
func addMember(text, name, value string) (string, bool) {
	body := strings.TrimRight(text, " \t\r\n")
	if checkJSON(text) != nil || !strings.HasPrefix(strings.TrimSpace(body), "{") || !strings.HasSuffix(body, "}") {
		return text, false
	}
	k, _ := json.Marshal(name)
	inner := strings.TrimRight(body[:len(body)-1], " \t\r\n")
	member := "  " + string(k) + ": " + value
	if strings.HasSuffix(inner, "{") {
		return inner + "\n" + member + "\n}", true
	}
	return inner + ",\n" + member + "\n}", true
}

func prefillObject(n *schemaNode, indent string, depth int, requiredOnly bool) string {
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
		if !required[p.key] && (isNull(c.Default) || requiredOnly) {
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
		return prefillObject(n, indent, depth+1, false)
	case "null":
		return "null"
	}
	return "null"
}
