// Package contract is jig's response contracts: per tool, what every
// response must keep meeting, checked at the tool boundary as a response
// passes (jig proxy --contracts) or over recordings (jig check). A
// contract is JSON Schema for the result or its structuredContent (the
// tool's own outputSchema by default) and named rules — the same assertion
// operators fixtures use (frames/fixture), so there is one engine: an
// ISO-8601 time that must not become an epoch number, a result that must
// not be empty, a list with at least N items, a truncation flag the text
// must mention, a value within a range, a timestamp no older than a
// duration.
//
// The package is pure data, like frames: it reads frames and says what
// they violate.
package contract

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tailscale/hujson"
	"go.yaml.in/yaml/v3"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/schema"
)

// Any is the tool name whose contract applies to every tool.
const Any = "*"

// Contracts is a contracts file: one contract per tool.
type Contracts struct {
	// File is the path the contracts were read from.
	File string
	// OutputSchema says whether a tool's own outputSchema (as tools/list
	// gave it) is checked against its structuredContent: true unless the
	// file says "output_schema": false. A tool's contract may say otherwise.
	OutputSchema bool
	Tools        map[string]*Tool
}

// Tool is one tool's contract.
type Tool struct {
	Name string
	// OutputSchema overrides the file's setting for this tool when set.
	OutputSchema *bool
	// StructuredContent and Result are JSON Schemas (2020-12 unless they say
	// otherwise) for the result's structuredContent and for the whole result.
	StructuredContent json.RawMessage
	Result            json.RawMessage
	Rules             []Rule
}

// A Rule is one named check: a fixture assertion, named by its operator.
type Rule struct {
	Rule  string          `json:"rule"`
	Path  string          `json:"path,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	// Note says why the rule exists; violations repeat it.
	Note string `json:"note,omitempty"`
}

func (r Rule) assertion() fixture.Assertion {
	return fixture.Assertion{Path: r.Path, Op: r.Rule, Value: r.Value}
}

// fileShape is the file as written.
type fileShape struct {
	OutputSchema *bool                `json:"output_schema,omitempty"`
	Tools        map[string]toolShape `json:"tools"`
}

type toolShape struct {
	OutputSchema      *bool           `json:"output_schema,omitempty"`
	StructuredContent json.RawMessage `json:"structured_content,omitempty"`
	Result            json.RawMessage `json:"result,omitempty"`
	Rules             []Rule          `json:"rules,omitempty"`
}

// A FileError is a contracts file jig cannot use: it names the file, the
// tool and the rule or field, and what to write instead.
type FileError struct {
	File  string
	Where string // "tools.search_orders.rules[1].rule"; "" for the file as a whole
	Msg   string
}

func (e *FileError) Error() string {
	if e.Where == "" {
		return "contracts " + e.File + ": " + e.Msg
	}
	return "contracts " + e.File + ": " + e.Where + ": " + e.Msg
}

// Load reads a contracts file, JSON (comments and trailing commas allowed)
// or YAML, and checks every rule and schema in it.
func Load(path string) (*Contracts, error) {
	data, err := frames.ReadRegular(path, frames.MaxConfigFile)
	if err != nil {
		return nil, &FileError{File: path, Msg: err.Error()}
	}
	return Parse(path, data)
}

// Parse reads contracts from data; name is the file's path for errors.
func Parse(name string, data []byte) (*Contracts, error) {
	fail := func(where, format string, a ...any) error {
		return &FileError{File: name, Where: where, Msg: fmt.Sprintf(format, a...)}
	}
	js, err := toJSON(name, data)
	if err != nil {
		return nil, fail("", "%v", err)
	}
	var shape fileShape
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&shape); err != nil {
		return nil, fail("", "%v (see 'jig check --help' for the format)", err)
	}
	if len(shape.Tools) == 0 {
		return nil, fail("tools", `is missing or empty: give each tool's contract, e.g. {"tools": {"search_orders": {"rules": [{"rule": "not-empty"}]}}}`)
	}
	c := &Contracts{File: name, OutputSchema: shape.OutputSchema == nil || *shape.OutputSchema, Tools: map[string]*Tool{}}
	for _, n := range sortedKeys(shape.Tools) {
		ts := shape.Tools[n]
		where := "tools." + n
		t := &Tool{Name: n, OutputSchema: ts.OutputSchema, StructuredContent: ts.StructuredContent, Result: ts.Result, Rules: ts.Rules}
		for field, sch := range map[string]json.RawMessage{"structured_content": ts.StructuredContent, "result": ts.Result} {
			if len(sch) == 0 {
				continue
			}
			if _, err := schema.Validate(sch, json.RawMessage("null")); err != nil {
				return nil, fail(where+"."+field, "invalid JSON Schema: %v", err)
			}
		}
		for i, r := range ts.Rules {
			if r.Rule == "" {
				return nil, fail(fmt.Sprintf("%s.rules[%d]", where, i), `has no "rule" (want one of %s)`, strings.Join(fixture.Ops, ", "))
			}
			if err := r.assertion().Validate(); err != nil {
				msg := strings.Replace(err.Error(), "op ", "rule ", 1)
				return nil, fail(fmt.Sprintf("%s.rules[%d] (rule %s)", where, i, r.Rule), "%s", msg)
			}
		}
		c.Tools[n] = t
	}
	return c, nil
}

// toJSON turns a YAML or JSON (with comments) file into standard JSON. The
// format is the file's extension, or its first character when it has none
// that says.
func toJSON(name string, data []byte) ([]byte, error) {
	ext := strings.ToLower(filepath.Ext(name))
	trimmed := bytes.TrimSpace(data)
	isJSON := ext == ".json" || ext == ".jsonc" || (ext != ".yaml" && ext != ".yml" && len(trimmed) > 0 && trimmed[0] == '{')
	if isJSON {
		std, err := hujson.Standardize(data)
		if err != nil {
			return nil, fmt.Errorf("not valid JSON: %v", err)
		}
		return std, nil
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("not valid YAML: %v", err)
	}
	v, err := jsonable(v, "")
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// jsonable turns what YAML decodes into values encoding/json can write:
// mappings must have string keys, and numbers must be finite (YAML's .nan
// and .inf are not JSON: encoding/json refused them without saying where).
// at is where v is in the file ("tools.t.rules[0].value").
func jsonable(v any, at string) (any, error) {
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s: %v is not a number a contract can hold (YAML's .nan and .inf are not JSON)", at, x)
		}
	case map[string]any:
		for k, e := range x {
			j, err := jsonable(e, join(k))
			if err != nil {
				return nil, err
			}
			x[k] = j
		}
	case map[any]any:
		m := map[string]any{}
		for k, e := range x {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("%s: key %v is not a string", cmp.Or(at, "the top level"), k)
			}
			j, err := jsonable(e, join(ks))
			if err != nil {
				return nil, err
			}
			m[ks] = j
		}
		return m, nil
	case []any:
		for i, e := range x {
			j, err := jsonable(e, fmt.Sprintf("%s[%d]", at, i))
			if err != nil {
				return nil, err
			}
			x[i] = j
		}
	}
	return v, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
