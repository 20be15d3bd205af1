// Package schema validates JSON instances against JSON Schema documents. It is
// shared by the CLI (argument checks), the TUI (which validates on every
// keystroke, hence the cache) and fixtures (structuredContent against a tool's
// outputSchema), so that all three report the same violations in the same
// words.
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
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

// schemaURL is the name every schema is compiled under. Each schema gets its
// own compiler, so the name never collides.
const schemaURL = "jig:///schema.json"

// cacheLimit bounds the cache: schemas come from tool listings, which are
// small in number, but a user typing a schema by hand produces a new one per
// keystroke.
const cacheLimit = 256

// printer renders error kinds; LocalizedString panics on a nil printer.
var printer = message.NewPrinter(language.English)

type compiled struct {
	sch *jsonschema.Schema
	err error
}

var cache = struct {
	sync.Mutex
	m map[string]compiled
}{m: map[string]compiled{}}

// Validate checks instance against schema. It returns an error only when the
// schema itself cannot be compiled; an instance that is not JSON at all is
// reported as a violation at the root, because the TUI validates text that
// is still being typed.
//
// Schemas without "$schema" are read as draft 2020-12; "$schema" naming
// draft-07 (or 04, 06, 2019-09) is honoured. "format" is asserted, not just
// annotated.
func Validate(schema, instance json.RawMessage) ([]Violation, error) {
	sch, err := compile(schema)
	if err != nil {
		return nil, err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(instance))
	if err != nil {
		return []Violation{{Message: "not valid JSON: " + err.Error()}}, nil
	}
	err = sch.Validate(inst)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Message: err.Error()}}, nil
	}
	var out []Violation
	leaves(ve, &out)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Message < out[j].Message
	})
	return dedupe(out), nil
}

// leaves collects the errors that have no causes: the root error only says
// "doesn't validate", and intermediate ones (allOf, properties) repeat what
// their causes say in less detail.
func leaves(ve *jsonschema.ValidationError, out *[]Violation) {
	if len(ve.Causes) == 0 {
		*out = append(*out, Violation{
			Path:    Pointer(ve.InstanceLocation),
			Message: ve.ErrorKind.LocalizedString(printer),
		})
		return
	}
	for _, c := range ve.Causes {
		leaves(c, out)
	}
}

func dedupe(vs []Violation) []Violation {
	out := vs[:0]
	for i, v := range vs {
		if i > 0 && v == vs[i-1] {
			continue
		}
		out = append(out, v)
	}
	return out
}

var escaper = strings.NewReplacer("~", "~0", "/", "~1")

// Pointer joins reference tokens into an RFC 6901 JSON Pointer.
func Pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escaper.Replace(t))
	}
	return b.String()
}

func compile(schema json.RawMessage) (*jsonschema.Schema, error) {
	key := string(schema)
	cache.Lock()
	c, ok := cache.m[key]
	cache.Unlock()
	if ok {
		return c.sch, c.err
	}
	sch, err := compileUncached(schema)
	cache.Lock()
	if len(cache.m) >= cacheLimit {
		clear(cache.m)
	}
	cache.m[key] = compiled{sch, err}
	cache.Unlock()
	return sch, err
}

func compileUncached(schema json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("schema is not valid JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("schema does not compile: %w", err)
	}
	return sch, nil
}
