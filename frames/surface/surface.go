// Package surface is a server's listed interface as one document — its
// tools, resources, resource templates and prompts exactly as listed, its
// capabilities and instructions — and the comparison of two of them.
//
// A surface file is a pin: saved once (jig surface save), committed, and
// compared with what the server lists now (jig surface diff, jig replay
// --surface), so that no tool, argument or description changes without
// someone saying yes. Tool definitions are compared by fixture.CompareTool,
// the classifier jig replay uses for its tool-definition drift, so the two
// never disagree.
//
// The file is built to be reviewed and accepted item by item: every item is
// kept whole and sorted by its identity (a tool by name, a resource by URI),
// so accepting one changed tool replaces one entry (Accept), and History
// records who accepted what and why.
package surface

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/mcpjig/jig/frames"
)

// Format is the version of the surface file this package writes.
const Format = 1

// MaxFileSize bounds what Load reads: a surface of 5,000 large tools is a
// few tens of MB.
const MaxFileSize = 256 << 20

// A Surface is everything a server lists about itself.
type Surface struct {
	Format int    `json:"jig_surface"`
	Server Server `json:"server"`
	// ProtocolVersion is the version the listing was made in;
	// ClientCapabilities what jig declared (servers list tools by them).
	ProtocolVersion    string          `json:"protocolVersion,omitempty"`
	ClientCapabilities []string        `json:"clientCapabilities,omitempty"`
	Capabilities       json.RawMessage `json:"capabilities,omitempty"`
	Instructions       string          `json:"instructions,omitempty"`
	// The lists, each item exactly as the server sent it, sorted by
	// identity (name, uri, uriTemplate).
	Tools             []json.RawMessage `json:"tools"`
	Resources         []json.RawMessage `json:"resources,omitempty"`
	ResourceTemplates []json.RawMessage `json:"resourceTemplates,omitempty"`
	Prompts           []json.RawMessage `json:"prompts,omitempty"`
	// Unlisted names the lists the server declares but would not give, with
	// why ("resources/list: JSON-RPC error -32601: Method not found").
	Unlisted map[string]string `json:"unlisted,omitempty"`
	// History is every acceptance of changes into this file, oldest first.
	History []Entry `json:"history,omitempty"`
}

// Server is the server's own account of itself.
type Server struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// An Entry records one acceptance of changes: when, why, and which items
// ("tool search_orders", "instructions").
type Entry struct {
	At       string   `json:"at"`
	Reason   string   `json:"reason"`
	Accepted []string `json:"accepted"`
	// By names who accepted them, when jig review did ("Ana
	// <ana@example.com> (jig review, jig 0.9)").
	By string `json:"by,omitempty"`
}

// Lists names the lists of a surface with the key that identifies their
// items, in the order they are compared and reported.
var Lists = []struct{ Name, Key, Noun string }{
	{"tools", "name", "tool"},
	{"resources", "uri", "resource"},
	{"resourceTemplates", "uriTemplate", "resource template"},
	{"prompts", "name", "prompt"},
}

// list returns a pointer to the list called name.
func (s *Surface) list(name string) *[]json.RawMessage {
	switch name {
	case "tools":
		return &s.Tools
	case "resources":
		return &s.Resources
	case "resourceTemplates":
		return &s.ResourceTemplates
	case "prompts":
		return &s.Prompts
	}
	panic("surface: no list " + name)
}

// Identity returns the value of key in a listed item ("" when it has none).
func Identity(item json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(item, &m) != nil {
		return ""
	}
	var id string
	if json.Unmarshal(m[key], &id) != nil {
		return ""
	}
	return id
}

// Sort orders every list by identity, so that a file is the same whatever
// order the server listed in.
func (s *Surface) Sort() {
	for _, l := range Lists {
		items := *s.list(l.Name)
		ids := make([]string, len(items))
		for i, it := range items {
			ids[i] = Identity(it, l.Key)
		}
		idx := make([]int, len(items))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return ids[idx[a]] < ids[idx[b]] })
		sorted := make([]json.RawMessage, len(items))
		for i, j := range idx {
			sorted[i] = items[j]
		}
		*s.list(l.Name) = sorted
	}
}

// Marshal returns the surface as an indented JSON document, lists sorted.
func (s *Surface) Marshal() ([]byte, error) {
	c := *s
	c.Format = Format
	c.Sort()
	if c.Tools == nil {
		c.Tools = []json.RawMessage{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "Ana <ana@example.com>" as written, not \u003c
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	raw := bytes.TrimSpace(buf.Bytes())
	out, ok := frames.Indent(raw)
	if !ok {
		return nil, errors.New("surface: the document did not indent")
	}
	return append(out, '\n'), nil
}

// A FileError is a surface file jig cannot use, and why.
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string { return e.File + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// Load reads a surface file. A file that is not one (a fixture, a report,
// a tools/list answer) is refused with what it looks like instead.
func Load(path string) (*Surface, error) {
	data, err := frames.ReadRegular(path, MaxFileSize)
	if err != nil {
		return nil, &FileError{path, err}
	}
	s, err := Parse(data)
	if err != nil {
		return nil, &FileError{path, err}
	}
	return s, nil
}

// Parse reads a surface document.
func Parse(data []byte) (*Surface, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("not a surface file: not a JSON object (%v); write one with jig surface save", err)
	}
	if _, ok := probe["jig_surface"]; !ok {
		return nil, errors.New("not a surface file (no \"jig_surface\" member)" + lookalike(probe) + "; write one with jig surface save")
	}
	var s Surface
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("not a valid surface file: %v", err)
	}
	if s.Format < 1 || s.Format > Format {
		return nil, fmt.Errorf("surface format %d: this jig reads format %d (upgrade jig, or save the surface again)", s.Format, Format)
	}
	for _, l := range Lists {
		seen := map[string]bool{}
		for i, it := range *s.list(l.Name) {
			id := Identity(it, l.Key)
			if id == "" {
				return nil, fmt.Errorf("%s[%d] has no %q: every %s is identified by it", l.Name, i, l.Key, l.Noun)
			}
			if seen[id] {
				return nil, fmt.Errorf("%s: %s %q is listed twice", l.Name, l.Noun, id)
			}
			seen[id] = true
		}
	}
	return &s, nil
}

// lookalike says what a JSON object that is not a surface seems to be.
func lookalike(m map[string]json.RawMessage) string {
	switch {
	case m["format"] != nil && (m["request"] != nil || m["steps"] != nil):
		return ": it looks like a fixture (jig replay reads those)"
	case m["jig_report"] != nil:
		return ": it looks like a replay report"
	case m["tools"] != nil:
		return ": it looks like a tools/list result (save the whole surface with jig surface save)"
	}
	return ""
}
