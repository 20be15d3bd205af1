package schema_test

// The differential tests: jig's validator against santhosh-tekuri/jsonschema,
// a full implementation that passes the official JSON Schema test suite,
// used here as an oracle and nowhere else (it is not linked into jig: its
// package init compiles every draft's metaschema, milliseconds that every
// run of jig would pay).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcpjig/jig/frames/schema"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/peers"
)

// verdict is what a validator said about one instance.
type verdict struct {
	compileErr error
	notJSON    bool
	paths      map[string]bool // instance locations of the violations
	msgs       map[string]bool // "path: message"
}

func (v verdict) valid() bool { return v.compileErr == nil && !v.notJSON && len(v.paths) == 0 }

var printer = message.NewPrinter(language.English)

// oracle validates with santhosh-tekuri/jsonschema set up as jig's
// validator was before it had its own: draft 2020-12 by default, formats
// asserted, every leaf error reported.
func oracle(sch, inst []byte) verdict {
	s, err := oracleCompile(sch)
	if err != nil {
		return verdict{compileErr: err}
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(inst))
	if err != nil {
		return verdict{notJSON: true}
	}
	out := verdict{paths: map[string]bool{}, msgs: map[string]bool{}}
	var ve *jsonschema.ValidationError
	if err := s.Validate(v); errors.As(err, &ve) {
		var walk func(*jsonschema.ValidationError)
		walk = func(e *jsonschema.ValidationError) {
			if len(e.Causes) == 0 {
				p := schema.Pointer(e.InstanceLocation)
				out.paths[p] = true
				out.msgs[p+": "+e.ErrorKind.LocalizedString(printer)] = true
			}
			for _, c := range e.Causes {
				walk(c)
			}
		}
		walk(ve)
	} else if err != nil {
		out.paths[""] = true
	}
	return out
}

var oracleCache sync.Map // schema text → oracleCompiled

type oracleCompiled struct {
	s   *jsonschema.Schema
	err error
}

func oracleCompile(sch []byte) (*jsonschema.Schema, error) {
	if c, ok := oracleCache.Load(string(sch)); ok {
		return c.(oracleCompiled).s, c.(oracleCompiled).err
	}
	s, err := func() (*jsonschema.Schema, error) {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sch))
		if err != nil {
			return nil, err
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.AssertFormat()
		if err := c.AddResource("jig:///schema.json", doc); err != nil {
			return nil, err
		}
		return c.Compile("jig:///schema.json")
	}()
	oracleCache.Store(string(sch), oracleCompiled{s, err})
	return s, err
}

// oracleDefects are violations jig reports that the oracle misses, where the
// specification is on jig's side.
var oracleDefects = []struct{ msg, why string }{
	{"is not valid email: nothing before @", "RFC 5321: a local part is one or more characters; the oracle accepts an empty one"},
}

// dropDefects removes from v the violations the oracle misses by defect.
func dropDefects(v *verdict) {
	for m := range v.msgs {
		for _, d := range oracleDefects {
			if strings.Contains(m, d.msg) {
				delete(v.msgs, m)
			}
		}
	}
	v.paths = map[string]bool{}
	for m := range v.msgs {
		p, _, _ := strings.Cut(m, ": ")
		v.paths[p] = true
	}
}

func mine(sch, inst []byte) (verdict, schema.Result) {
	r, err := schema.Check(sch, inst)
	if err != nil {
		return verdict{compileErr: err}, r
	}
	out := verdict{paths: map[string]bool{}, msgs: map[string]bool{}}
	for _, v := range r.Violations {
		if strings.HasPrefix(v.Message, "not valid JSON") {
			return verdict{notJSON: true}, r
		}
		out.paths[v.Path] = true
		out.msgs[v.Path+": "+v.Message] = true
	}
	return out, r
}

// uses reports whether the schema text names a keyword.
func uses(sch []byte, kw ...string) bool {
	for _, k := range kw {
		if bytes.Contains(sch, []byte(`"`+k+`"`)) {
			return true
		}
	}
	return false
}

// differ compares the two verdicts and returns what disagrees, or "". The
// known, deliberate differences are spelled out here, each with its reason.
func differ(sch, inst []byte) string {
	o := oracle(sch, inst)
	m, res := mine(sch, inst)
	switch {
	case o.compileErr != nil && m.compileErr != nil:
		return ""
	case o.compileErr != nil:
		msg := o.compileErr.Error()
		// The oracle fails on what it cannot load (a $ref or $schema naming
		// another document); jig checks the rest and says what it skipped.
		if (strings.Contains(msg, "failing loading") || strings.Contains(msg, "loading")) && len(res.Unchecked) > 0 {
			return ""
		}
		return fmt.Sprintf("the oracle rejects the schema (%v); jig accepts it", o.compileErr)
	case m.compileErr != nil:
		return fmt.Sprintf("jig rejects the schema (%v); the oracle accepts it", m.compileErr)
	case o.notJSON != m.notJSON:
		return fmt.Sprintf("not JSON: oracle %v, jig %v", o.notJSON, m.notJSON)
	case o.notJSON:
		return ""
	}
	dropDefects(&m)
	if len(res.Unchecked) > 0 && !m.valid() == !o.valid() {
		return ""
	}
	if o.valid() != m.valid() {
		if len(res.Unchecked) > 0 && m.valid() {
			return "" // jig passes what it said it did not check
		}
		return fmt.Sprintf("valid: oracle %v %v, jig %v %v", o.valid(), keys(o.msgs), m.valid(), keys(m.msgs))
	}
	// Where jig reports differently on purpose, the paths differ too: a
	// failed contains is one violation at the array (the oracle lists every
	// item's reason, as if each item had to match), and a bad property name
	// is reported at the object with the name (the oracle reports the
	// name's violations as if at the object, without the name).
	if uses(sch, "contains", "propertyNames") {
		return ""
	}
	if !sameKeys(o.paths, m.paths) {
		return fmt.Sprintf("paths: oracle %v, jig %v", keys(o.msgs), keys(m.msgs))
	}
	return ""
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sameKeys(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// peerSchemas lists the tools of every peer jig is tested against and
// returns their input and output schemas by "peer tool input|output": the
// demo server (both releases), server-everything (three versions), the
// go-sdk's everything and conformance servers, and mcp-go.
func peerSchemas(t testing.TB) map[string]json.RawMessage {
	targets := map[string]session.Target{
		"demo":                      {Transport: session.TransportDemo, Release: 1},
		"demo release 2":            {Transport: session.TransportDemo, Release: 2},
		"server-everything":         {Transport: session.TransportStdio, Command: peers.Node(t, peers.Everything, "stdio")},
		"server-everything 2025.11": {Transport: session.TransportStdio, Command: peers.Node(t, peers.EverythingOld, "stdio")},
		"server-everything 2025.5":  {Transport: session.TransportStdio, Command: peers.Node(t, peers.Everything2025, "stdio")},
		"go-sdk everything":         {Transport: session.TransportStdio, Command: []string{peers.Path(t, peers.GoSDKEverything)}},
		"go-sdk conformance":        {Transport: session.TransportStdio, Command: []string{peers.Path(t, peers.GoSDKConformance)}},
		"mcp-go":                    {Transport: session.TransportStdio, Command: []string{peers.Path(t, peers.MCPGo), "serve", "stdio"}},
	}
	out := map[string]json.RawMessage{}
	for name, tgt := range targets {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		s, err := session.Open(ctx, session.Options{Target: tgt})
		if err != nil {
			cancel()
			t.Fatalf("%s: %v", name, err)
		}
		raw, _, err := s.ListTools(ctx)
		s.Close()
		cancel()
		if err != nil {
			t.Fatalf("%s: tools/list: %v", name, err)
		}
		for _, r := range raw {
			var tool struct {
				Name         string
				InputSchema  json.RawMessage
				OutputSchema json.RawMessage
			}
			if err := json.Unmarshal(r, &tool); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for kind, sch := range map[string]json.RawMessage{"input": tool.InputSchema, "output": tool.OutputSchema} {
				if len(sch) > 0 && string(sch) != "null" {
					out[name+" "+tool.Name+" "+kind] = sch
				}
			}
		}
	}
	return out
}

// keywordSchemas exercise every keyword jig evaluates, in the drafts tool
// schemas are written in; they seed the fuzz target with the peers' schemas.
var keywordSchemas = []string{
	`{"type":"object","properties":{"since":{"type":"string","format":"date-time"},"limit":{"type":"integer","minimum":1,"maximum":500}},"required":["since"],"additionalProperties":false}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"tags":{"type":"array","items":{"type":"string","minLength":1},"minItems":1,"maxItems":3,"uniqueItems":true}},"required":["tags"]}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"},{"type":"number"}],"additionalItems":false}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":{"type":"boolean"}}`,
	`{"prefixItems":[{"type":"string"},{"enum":[1,2,3]}],"items":false}`,
	`{"type":["string","null"],"maxLength":5,"pattern":"^[a-z]*$"}`,
	`{"enum":["open","closed",null,1.5,true]}`,
	`{"const":{"a":[1,2]}}`,
	`{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":10,"multipleOf":0.5}`,
	`{"type":"integer","multipleOf":3}`,
	`{"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":{"type":"number"}}`,
	`{"propertyNames":{"pattern":"^[a-z]+$","maxLength":4}}`,
	`{"minProperties":1,"maxProperties":2}`,
	`{"dependentRequired":{"phone":["country"]},"dependentSchemas":{"email":{"required":["name"]}}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":["b"],"c":{"required":["d"]}}}`,
	`{"allOf":[{"required":["a"]},{"properties":{"a":{"type":"string"}}}]}`,
	`{"anyOf":[{"required":["phone"]},{"required":["email"]}]}`,
	`{"oneOf":[{"type":"string"},{"type":"string","maxLength":3},{"type":"number"}]}`,
	`{"not":{"required":["forbidden"]}}`,
	`{"if":{"properties":{"kind":{"const":"phone"}},"required":["kind"]},"then":{"required":["phone"]},"else":{"required":["email"]}}`,
	`{"$defs":{"addr":{"$anchor":"addr","type":"object","properties":{"city":{"type":"string"}},"required":["city"]}},"properties":{"home":{"$ref":"#/$defs/addr"},"work":{"$ref":"#addr"}}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/definitions/n"},"b":{"$ref":"#/definitions/n","type":"string"}}}`,
	`{"$id":"https://example.com/root.json","$defs":{"item":{"$id":"item.json","type":"string"}},"items":{"$ref":"item.json"}}`,
	`{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#"}},"name":{"type":"string"}},"required":["name"]}`,
	`{"properties":{"a":{"type":"string"}},"unevaluatedProperties":false}`,
	`{"allOf":[{"properties":{"a":{}}}],"properties":{"b":{}},"unevaluatedProperties":{"type":"integer"}}`,
	`{"anyOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"number"}},"required":["b"]}],"unevaluatedProperties":false}`,
	`{"if":{"properties":{"x":{"const":1}}},"then":{"properties":{"y":{}}},"unevaluatedProperties":false}`,
	`{"prefixItems":[{"type":"string"}],"contains":{"type":"number"},"unevaluatedItems":false}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[{"type":"string"}],"unevaluatedItems":{"type":"boolean"}}`,
	`{"contains":{"type":"string"},"minContains":2,"maxContains":3}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","type":"number","maximum":10,"exclusiveMaximum":true}`,
	`{"$schema":"http://json-schema.org/draft-06/schema#","contains":{"const":1},"propertyNames":{"maxLength":2}}`,
	`{"$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}}}}`,
	`{"$id":"https://example.com/tree","$dynamicAnchor":"node","type":"object","properties":{"data":true,"children":{"type":"array","items":{"$dynamicRef":"#node"}}},"$defs":{"strict":{"$id":"https://example.com/strict-tree","$dynamicAnchor":"node","$ref":"tree","unevaluatedProperties":false}}}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":true,"type":"object","properties":{"kids":{"type":"array","items":{"$recursiveRef":"#"}}}}`,
	`{"properties":{"email":{"format":"email"},"site":{"format":"uri"},"id":{"format":"uuid"},"ip":{"format":"ipv4"},"ip6":{"format":"ipv6"},"host":{"format":"hostname"},"day":{"format":"date"},"at":{"format":"time"},"for":{"format":"duration"},"re":{"format":"regex"},"ptr":{"format":"json-pointer"}}}`,
	`{"properties":{"a~b/c":{"type":"integer"},"ünï":{"type":"string"}}}`,
	`true`,
	`false`,
	`{"properties":{"x":false}}`,
	`{"items":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}}`,
	`{"type":"object","properties":{"a":{"$ref":"https://example.com/other.json"}}}`,
	`{"format":"idn-email"}`,
}

// TestAgainstOracle compares the two validators over the keyword schemas
// and generated instances.
func TestAgainstOracle(t *testing.T) {
	for i, sch := range keywordSchemas {
		for _, inst := range instances([]byte(sch), uint64(i), 300) {
			if d := differ([]byte(sch), inst); d != "" {
				t.Errorf("schema %s\ninstance %s\n%s", sch, inst, d)
			}
		}
	}
}

// TestAgainstOracleOnPeerSchemas compares the two validators over the input
// and output schemas of every real peer's tools, with instances generated
// from each schema (valid ones and ones with a thing wrong).
func TestAgainstOracleOnPeerSchemas(t *testing.T) {
	schemas := peerSchemas(t)
	if len(schemas) < 50 {
		t.Fatalf("the peers listed %d schemas; want the ~80 of their tools", len(schemas))
	}
	names := make([]string, 0, len(schemas))
	for k := range schemas {
		names = append(names, k)
	}
	sort.Strings(names)
	checked, invalid := 0, 0
	for i, name := range names {
		sch := schemas[name]
		if r, err := schema.Check(sch, []byte(`{}`)); err != nil {
			t.Errorf("%s: jig cannot use this schema: %v", name, err)
		} else if len(r.Unchecked) > 0 {
			t.Logf("%s: %v", name, r.Unchecked)
		}
		for _, inst := range instances(sch, uint64(i), 200) {
			checked++
			if m, _ := mine(sch, inst); !m.valid() {
				invalid++
			}
			if d := differ(sch, inst); d != "" {
				t.Errorf("%s\nschema %s\ninstance %s\n%s", name, sch, inst, d)
			}
		}
	}
	// Both kinds must be well represented, or the comparison proves little.
	if invalid < checked/5 || invalid > checked*4/5 {
		t.Errorf("%d of %d generated instances are invalid; the generator should make both kinds", invalid, checked)
	}
	t.Logf("%d schemas, %d instances (%d invalid), verdicts and paths agree", len(names), checked, invalid)
}

// FuzzAgainstOracle mutates schemas and instances: wherever both validators
// accept the schema, they must agree on the verdict and, where comparable,
// on the paths of the violations.
func FuzzAgainstOracle(f *testing.F) {
	for i, sch := range keywordSchemas {
		for _, inst := range instances([]byte(sch), uint64(i), 3) {
			f.Add([]byte(sch), inst)
		}
	}
	f.Fuzz(func(t *testing.T, sch, inst []byte) {
		if len(sch) > 4096 || len(inst) > 4096 || bytes.Contains(sch, []byte("e9")) || bytes.Contains(inst, []byte("e9")) {
			t.Skip() // the oracle builds 10^n exactly: 1e999999999 takes it minutes
		}
		if d := differ(sch, inst); d != "" {
			t.Errorf("schema %s\ninstance %s\n%s", sch, inst, d)
		}
	})
}
