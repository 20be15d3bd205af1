package lint

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/mcpjig/jig/frames"
)

// A tool is one listed tool, decoded once for every rule.
type tool struct {
	name, title, description string
	item                     string // "tool NAME"
	raw                      json.RawMessage
	def                      map[string]any
	input, output            map[string]any // nil when absent or not an object
	hasInput                 bool
	annotations              map[string]any // nil when absent
	params                   []param        // the input's top-level properties, in name order
	words                    []string       // the name's words, lower case
}

// A param is one top-level argument of a tool.
type param struct {
	name     string
	path     string // "/inputSchema/properties/NAME"
	schema   map[string]any
	boolean  bool // the schema is true or false
	required bool
}

func parseTools(raws []json.RawMessage) []*tool {
	out := make([]*tool, 0, len(raws))
	for _, raw := range raws {
		var def map[string]any
		if json.Unmarshal(raw, &def) != nil {
			continue
		}
		t := &tool{raw: raw, def: def}
		t.name, _ = def["name"].(string)
		t.title, _ = def["title"].(string)
		t.description, _ = def["description"].(string)
		t.item = "tool " + t.name
		_, t.hasInput = def["inputSchema"]
		t.input, _ = def["inputSchema"].(map[string]any)
		t.output, _ = def["outputSchema"].(map[string]any)
		t.annotations, _ = def["annotations"].(map[string]any)
		t.params = paramsOf(t.input)
		t.words = frames.NameWords(t.name)
		out = append(out, t)
	}
	return out
}

func paramsOf(schema map[string]any) []param {
	props, _ := schema["properties"].(map[string]any)
	required := map[string]bool{}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	out := make([]param, 0, len(props))
	for name, v := range props {
		p := param{name: name, path: "/inputSchema/properties/" + escape(name), required: required[name]}
		switch s := v.(type) {
		case map[string]any:
			p.schema = s
		case bool:
			p.boolean = true
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

var escaper = strings.NewReplacer("~", "~0", "/", "~1")

func escape(s string) string { return escaper.Replace(s) }

// str returns a string member of a schema.
func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// types returns a schema's "type" as a list.
func types(m map[string]any) []string {
	switch t := m["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func hasType(m map[string]any, want string) bool {
	for _, t := range types(m) {
		if t == want {
			return true
		}
	}
	return false
}

// isFreeString reports whether a schema is a string nothing constrains to
// a set or shape: no enum, const, format, pattern or combinator.
func isFreeString(m map[string]any) bool {
	if !hasType(m, "string") {
		return false
	}
	for _, k := range []string{"enum", "const", "format", "pattern", "oneOf", "anyOf", "allOf", "$ref"} {
		if _, ok := m[k]; ok {
			return false
		}
	}
	return true
}

// hasWord reports whether any of words is one of want.
func hasWord(words []string, want ...string) bool {
	for _, w := range words {
		for _, x := range want {
			if w == x {
				return true
			}
		}
	}
	return false
}

// firstWord is a name's verb, usually: "delete" of delete_file.
func (t *tool) firstWord() string {
	if len(t.words) == 0 {
		return ""
	}
	return t.words[0]
}

// text is everything a model reads about a tool: its description and
// every argument's.
func (t *tool) text() string {
	var b strings.Builder
	b.WriteString(t.title + "\n" + t.description)
	for _, p := range t.params {
		b.WriteString("\n" + str(p.schema, "description"))
	}
	return strings.ToLower(b.String())
}

// tokens estimates how many tokens a text costs a model: about four
// characters each for English prose.
func tokens(s string) int { return (len([]rune(s)) + 3) / 4 }
