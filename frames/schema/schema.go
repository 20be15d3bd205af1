// Package schema validates JSON instances against JSON Schema documents
// (drafts 2020-12, 2019-09, 07, 06 and 04, as tool schemas use them). It is
// shared by the CLI (argument checks), the TUI (which validates on every
// keystroke, hence the cache) and fixtures (structuredContent against a tool's
// outputSchema), so that all three report the same violations in the same
// words.
package schema

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"sync"
)

// A Violation is one reason an instance does not match its schema.
type Violation struct {
	Path    string // JSON Pointer of the instance location; "" for the root
	Message string // e.g. "got number, want string"
}

// String renders the violation as "/since: got number, want string", or
// "(root): ..." when the violation concerns the whole instance.
func (v Violation) String() string {
	p := v.Path
	if p == "" {
		p = "(root)"
	}
	return p + ": " + v.Message
}

// cacheLimit bounds the cache: schemas come from tool listings, which are
// small in number, but a user typing a schema by hand produces a new one per
// keystroke.
const cacheLimit = 256

type compiled struct {
	doc *document
	err error
}

var cache = struct {
	sync.Mutex
	m map[string]compiled
}{m: map[string]compiled{}}

// A Result is what Check found: the violations, and what of the schema jig
// did not evaluate (a $ref into another document, a format it does not
// know), so that a pass is never claimed for something not checked.
type Result struct {
	Violations []Violation
	Unchecked  []string // e.g. "/properties/x/format: format 'idn-email' is not one jig checks"
}

// Check checks instance against schema. It returns an error only when the
// schema itself cannot be used (not JSON, or not a schema its draft's
// metaschema allows); an instance that is not JSON at all is reported as a
// violation at the root, because the TUI checks text that is still being
// typed.
//
// Schemas without "$schema" are read as draft 2020-12; "$schema" naming
// draft-04, -06, -07 or 2019-09 is honoured. "format" is asserted, not just
// annotated. References are followed within the schema document.
func Check(schema, instance json.RawMessage) (Result, error) {
	d, err := compile(schema)
	if err != nil {
		return Result{}, err
	}
	res := Result{Unchecked: d.notes()}
	dec := json.NewDecoder(bytes.NewReader(instance))
	dec.UseNumber()
	var inst any
	if err := dec.Decode(&inst); err != nil {
		res.Violations = []Violation{{Message: "not valid JSON: " + err.Error()}}
		return res, nil
	}
	if _, err := dec.Token(); err != io.EOF {
		res.Violations = []Violation{{Message: "not valid JSON: more after the value"}}
		return res, nil
	}
	v := &validation{d: d}
	out, _ := v.eval(d.root, inst, nil)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Message < out[j].Message
	})
	res.Violations = dedupe(out)
	return res, nil
}

// Validate is Check without the notes on what was not evaluated.
func Validate(schema, instance json.RawMessage) ([]Violation, error) {
	r, err := Check(schema, instance)
	return r.Violations, err
}

func dedupe(vs []Violation) []Violation {
	out := vs[:0]
	for i, v := range vs {
		if i > 0 && v == vs[i-1] {
			continue
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Pointer joins reference tokens into an RFC 6901 JSON Pointer.
func Pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escaper.Replace(t))
	}
	return b.String()
}

func compile(schema json.RawMessage) (*document, error) {
	key := string(schema)
	cache.Lock()
	c, ok := cache.m[key]
	cache.Unlock()
	if ok {
		return c.doc, c.err
	}
	d, err := compileSchema(schema)
	cache.Lock()
	if len(cache.m) >= cacheLimit {
		clear(cache.m)
	}
	cache.m[key] = compiled{d, err}
	cache.Unlock()
	return d, err
}
