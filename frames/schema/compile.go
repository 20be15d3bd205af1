package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Drafts, by the year or number they are known by.
const (
	draft4    = 4
	draft6    = 6
	draft7    = 7
	draft2019 = 2019
	draft2020 = 2020
)

// rootURI is the base URI of a schema without "$id".
const rootURI = "jig:///schema.json"

// draftOf reads a "$schema" value: a draft's metaschema URI, http or
// https, with or without an empty fragment. 0 for anything else.
func draftOf(uri string) int {
	u, frag, _ := strings.Cut(uri, "#")
	if frag != "" {
		return 0
	}
	u = strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
	switch u {
	case "json-schema.org/draft-04/schema":
		return draft4
	case "json-schema.org/draft-06/schema":
		return draft6
	case "json-schema.org/draft-07/schema":
		return draft7
	case "json-schema.org/draft/2019-09/schema":
		return draft2019
	case "json-schema.org/draft/2020-12/schema", "json-schema.org/schema":
		return draft2020
	}
	return 0
}

// A document is a compiled schema: the tree of nodes reachable from its
// root, compiled once and then only read, so validations may share it.
type document struct {
	doc       any
	root      *node
	resources map[string]*resource // by absolute URI, without fragment
	byLoc     []*resource          // every resource, for finding the one a location is in
	nodes     map[string]*node     // by JSON Pointer of the schema in the document
	checked   map[string]bool      // locations whose subtree was checked and indexed
	unchecked map[string]bool      // notes: what is not evaluated, and where
	// track is set when the document uses unevaluatedProperties or
	// unevaluatedItems: validation then records what each schema evaluated.
	track bool
}

// A resource is a schema with its own base URI: the document's root, or a
// subschema with "$id".
type resource struct {
	uri       string
	loc       string
	draft     int
	anchors   map[string]string // $anchor (or a draft-07 "$id": "#name") → location
	dynamic   map[string]bool   // $dynamicAnchor names
	recursive bool              // "$recursiveAnchor": true at its root (draft 2019-09)
}

// A compileError names where the schema is wrong and how.
type compileError struct {
	loc, msg string
}

func (e *compileError) Error() string {
	loc := e.loc
	if loc == "" {
		loc = "(root)"
	}
	return "schema does not compile: " + loc + ": " + e.msg
}

func errAt(loc, format string, a ...any) error {
	return &compileError{loc, fmt.Sprintf(format, a...)}
}

// compileSchema parses and compiles a schema document.
func compileSchema(schema json.RawMessage) (*document, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("schema is not valid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("schema is not valid JSON: more after the schema's value")
	}
	d := &document{
		doc:       doc,
		resources: map[string]*resource{},
		nodes:     map[string]*node{},
		checked:   map[string]bool{},
		unchecked: map[string]bool{},
	}
	draft := draft2020
	if obj, ok := doc.(map[string]any); ok {
		if s, ok := obj["$schema"].(string); ok {
			if v := draftOf(s); v != 0 {
				draft = v
			} else {
				d.note("", "$schema %s is not a draft jig knows (draft-04, -06, -07, 2019-09, 2020-12): read as draft 2020-12", quote(s))
			}
		}
	}
	root := &resource{uri: rootURI, loc: "", draft: draft}
	d.addResource(root)
	base, _ := url.Parse(rootURI)
	if err := d.check(doc, "", base, root); err != nil {
		return nil, err
	}
	n, err := d.compile("")
	if err != nil {
		return nil, err
	}
	d.root = n
	// Where a $dynamicRef or $recursiveRef may lead depends on the path
	// validation takes: every candidate is compiled now, since a compiled
	// document is only read afterwards.
	for _, r := range d.byLoc {
		for _, name := range sortedKeys(boolsAsAny(r.dynamic)) {
			if _, err := d.compile(r.anchors[name]); err != nil {
				return nil, err
			}
		}
		if r.recursive {
			if _, err := d.compile(r.loc); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

func boolsAsAny(m map[string]bool) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (d *document) note(loc, format string, a ...any) {
	where := loc
	if where == "" {
		where = "(root)"
	}
	d.unchecked[where+": "+fmt.Sprintf(format, a...)] = true
}

// notes returns the notes, sorted.
func (d *document) notes() []string {
	if len(d.unchecked) == 0 {
		return nil
	}
	out := make([]string, 0, len(d.unchecked))
	for n := range d.unchecked {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (d *document) addResource(r *resource) {
	d.resources[r.uri] = r
	d.byLoc = append(d.byLoc, r)
}

// resourceAt returns the innermost resource holding loc.
func (d *document) resourceAt(loc string) *resource {
	best := d.byLoc[0]
	for _, r := range d.byLoc {
		if len(r.loc) > len(best.loc) && (loc == r.loc || strings.HasPrefix(loc, r.loc+"/")) {
			best = r
		}
	}
	return best
}

var escaper = strings.NewReplacer("~", "~0", "/", "~1")
var unescaper = strings.NewReplacer("~1", "/", "~0", "~")

func child(loc string, tokens ...string) string {
	for _, t := range tokens {
		loc += "/" + escaper.Replace(t)
	}
	return loc
}

// lookup returns the value at a JSON Pointer.
func lookup(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescaper.Replace(tok)
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) || (len(tok) > 1 && tok[0] == '0') {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// isAnchorName reports whether s may name an anchor: a letter or _, then
// letters, digits, -, _ or . (the pattern of the 2020-12 metaschema).
func isAnchorName(s string) bool {
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// check checks the schema at loc the way its draft's metaschema would and
// indexes its resources and anchors, then does the same for every subschema
// under a keyword the draft knows. Values of unknown keywords are not
// schemas and are left alone.
func (d *document) check(v any, loc string, base *url.URL, res *resource) error {
	if d.checked[loc] {
		return nil
	}
	d.checked[loc] = true
	draft := res.draft
	obj, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); isBool && draft >= draft6 {
			return nil
		}
		if draft == draft4 {
			return errAt(loc, "a draft-04 schema must be an object")
		}
		return errAt(loc, "a schema must be an object or a boolean, got %s", typeName(v))
	}
	_, hasRef := obj["$ref"]
	if s, ok := obj["$schema"]; ok {
		str, isStr := s.(string)
		if !isStr {
			return errAt(child(loc, "$schema"), "must be a string")
		}
		if err := checkURI(str); err != nil {
			return errAt(child(loc, "$schema"), "%s is not a URI: %v", quote(str), err)
		}
	}
	idKey := "$id"
	if draft == draft4 {
		idKey = "id"
	}
	if id, ok := obj[idKey]; ok {
		str, isStr := id.(string)
		if !isStr {
			return errAt(child(loc, idKey), "must be a string")
		}
		u, err := parseURI(str)
		if err != nil {
			return errAt(child(loc, idKey), "%s is not a URI reference: %v", quote(str), err)
		}
		if draft >= draft2019 && u.Fragment != "" {
			return errAt(child(loc, idKey), "%s has a fragment; name a location with $anchor instead", quote(str))
		}
		if !(draft < draft2019 && hasRef) { // a $ref's siblings are ignored before 2019-09
			abs := base.ResolveReference(u)
			frag := abs.Fragment
			abs.Fragment, abs.RawFragment = "", ""
			if !strings.HasPrefix(str, "#") {
				if loc == res.loc {
					// The document's root names itself.
					res.uri = abs.String()
					d.resources[res.uri] = res
				} else {
					nd := draft
					if s, ok := obj["$schema"].(string); ok {
						if v := draftOf(s); v != 0 {
							nd = v
						} else {
							d.note(loc, "$schema %s is not a draft jig knows: read as its parent's draft", quote(s))
						}
					}
					res = &resource{uri: abs.String(), loc: loc, draft: nd}
					d.addResource(res)
					draft = nd
				}
				base = abs
			}
			if frag != "" {
				if err := d.anchor(res, frag, loc); err != nil {
					return err
				}
			}
		}
	}
	if draft >= draft2019 {
		if a, ok := obj["$anchor"]; ok {
			s, isStr := a.(string)
			if !isStr || !isAnchorName(s) {
				return errAt(child(loc, "$anchor"), "must be a name: a letter or _, then letters, digits, -, _ or .")
			}
			if err := d.anchor(res, s, loc); err != nil {
				return err
			}
		}
	}
	if draft >= draft2020 {
		if a, ok := obj["$dynamicAnchor"]; ok {
			s, isStr := a.(string)
			if !isStr || !isAnchorName(s) {
				return errAt(child(loc, "$dynamicAnchor"), "must be a name: a letter or _, then letters, digits, -, _ or .")
			}
			if err := d.anchor(res, s, loc); err != nil {
				return err
			}
			if res.dynamic == nil {
				res.dynamic = map[string]bool{}
			}
			res.dynamic[s] = true
		}
	}
	if draft == draft2019 {
		if a, ok := obj["$recursiveAnchor"]; ok {
			b, isBool := a.(bool)
			if !isBool {
				return errAt(child(loc, "$recursiveAnchor"), "must be a boolean")
			}
			if b && loc == res.loc {
				res.recursive = true
			}
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := d.checkKeyword(obj, k, loc, base, res); err != nil {
			return err
		}
	}
	if draft == draft4 {
		for _, pair := range [][2]string{{"exclusiveMaximum", "maximum"}, {"exclusiveMinimum", "minimum"}} {
			if _, ok := obj[pair[0]]; ok {
				if _, ok := obj[pair[1]]; !ok {
					return errAt(child(loc, pair[0]), "needs %s beside it in draft-04", pair[1])
				}
			}
		}
	}
	return nil
}

func (d *document) anchor(res *resource, name, loc string) error {
	if res.anchors == nil {
		res.anchors = map[string]string{}
	}
	if prev, ok := res.anchors[name]; ok && prev != loc {
		return errAt(loc, "anchor %s is also defined at %s", quote(name), prev)
	}
	res.anchors[name] = loc
	return nil
}

// checkKeyword checks one keyword's value and recurses into subschemas.
func (d *document) checkKeyword(obj map[string]any, k, loc string, base *url.URL, res *resource) error {
	draft := res.draft
	v := obj[k]
	at := child(loc, k)
	sub := func(v any, tokens ...string) error { return d.check(v, child(at, tokens...), base, res) }
	schemaMap := func() error {
		m, ok := v.(map[string]any)
		if !ok {
			return errAt(at, "must be an object of schemas")
		}
		for _, name := range sortedKeys(m) {
			if err := sub(m[name], name); err != nil {
				return err
			}
		}
		return nil
	}
	schemaArray := func() error {
		a, ok := v.([]any)
		if !ok || len(a) == 0 {
			return errAt(at, "must be a non-empty array of schemas")
		}
		for i, s := range a {
			if err := sub(s, strconv.Itoa(i)); err != nil {
				return err
			}
		}
		return nil
	}
	str := func() error {
		if _, ok := v.(string); !ok {
			return errAt(at, "must be a string")
		}
		return nil
	}
	boolean := func() error {
		if _, ok := v.(bool); !ok {
			return errAt(at, "must be a boolean")
		}
		return nil
	}
	number := func() error {
		if _, ok := numberOf(v); !ok {
			return errAt(at, "must be a number")
		}
		return nil
	}
	count := func() error {
		n, ok := numberOf(v)
		if !ok || !n.isInteger() || n.neg && !n.isZero() {
			return errAt(at, "must be a non-negative integer")
		}
		return nil
	}
	uriRef := func() error {
		s, ok := v.(string)
		if !ok {
			return errAt(at, "must be a string")
		}
		if _, err := parseURI(s); err != nil {
			return errAt(at, "%s is not a URI reference: %v", quote(s), err)
		}
		return nil
	}
	switch {
	case k == "$ref":
		return uriRef()
	case k == "$dynamicRef" && draft >= draft2020, k == "$recursiveRef" && draft >= draft2019:
		return uriRef()
	case k == "$defs" && draft >= draft2019, k == "definitions":
		return schemaMap()
	case k == "$comment" && draft >= draft7:
		return str()
	case k == "$vocabulary" && draft >= draft2019:
		m, ok := v.(map[string]any)
		if !ok {
			return errAt(at, "must be an object of booleans")
		}
		for _, name := range sortedKeys(m) {
			if _, ok := m[name].(bool); !ok {
				return errAt(child(at, name), "must be a boolean")
			}
		}
	case k == "allOf", k == "anyOf", k == "oneOf", k == "prefixItems" && draft >= draft2020:
		return schemaArray()
	case k == "not", k == "additionalProperties",
		(k == "if" || k == "then" || k == "else") && draft >= draft7,
		(k == "contains" || k == "propertyNames") && draft >= draft6,
		k == "additionalItems" && draft <= draft2019,
		(k == "unevaluatedProperties" || k == "unevaluatedItems" || k == "contentSchema") && draft >= draft2019:
		if draft == draft4 && (k == "additionalProperties" || k == "additionalItems") {
			if _, ok := v.(bool); ok {
				return nil
			}
		}
		return sub(v)
	case k == "items":
		if _, ok := v.([]any); ok {
			if draft >= draft2020 {
				return errAt(at, "an array of schemas is the tuple form of drafts before 2020-12: use prefixItems, or add \"$schema\": \"http://json-schema.org/draft-07/schema#\"")
			}
			return schemaArray()
		}
		return sub(v)
	case k == "properties", k == "dependentSchemas" && draft >= draft2019:
		return schemaMap()
	case k == "patternProperties":
		m, ok := v.(map[string]any)
		if !ok {
			return errAt(at, "must be an object of schemas")
		}
		for _, re := range sortedKeys(m) {
			if _, err := regexp.Compile(re); err != nil {
				return errAt(at, "%s is not a regular expression: %v", quote(re), err)
			}
			if err := sub(m[re], re); err != nil {
				return err
			}
		}
	case k == "dependencies":
		m, ok := v.(map[string]any)
		if !ok {
			return errAt(at, "must be an object")
		}
		for _, name := range sortedKeys(m) {
			if a, ok := m[name].([]any); ok {
				if err := stringSet(a, child(at, name), draft == draft4); err != nil {
					return err
				}
				continue
			}
			if err := sub(m[name], name); err != nil {
				return err
			}
		}
	case k == "type":
		return checkType(v, at)
	case k == "enum":
		a, ok := v.([]any)
		if !ok {
			return errAt(at, "must be an array")
		}
		if draft <= draft7 {
			if len(a) == 0 {
				return errAt(at, "must not be empty")
			}
			if i, j := duplicate(a); i >= 0 {
				return errAt(at, "values %d and %d are equal", i, j)
			}
		}
	case k == "multipleOf":
		n, ok := numberOf(v)
		if !ok || n.neg || n.isZero() {
			return errAt(at, "must be a number greater than 0")
		}
	case k == "maximum", k == "minimum":
		return number()
	case k == "exclusiveMaximum", k == "exclusiveMinimum":
		if draft == draft4 {
			return boolean()
		}
		return number()
	case k == "maxLength", k == "minLength", k == "maxItems", k == "minItems", k == "maxProperties", k == "minProperties",
		(k == "maxContains" || k == "minContains") && draft >= draft2019:
		return count()
	case k == "pattern":
		s, ok := v.(string)
		if !ok {
			return errAt(at, "must be a string")
		}
		if _, err := regexp.Compile(s); err != nil {
			return errAt(at, "%s is not a regular expression: %v", quote(s), err)
		}
	case k == "uniqueItems":
		return boolean()
	case k == "required":
		a, ok := v.([]any)
		if !ok {
			return errAt(at, "must be an array of strings")
		}
		return stringSet(a, at, draft == draft4)
	case k == "dependentRequired" && draft >= draft2019:
		m, ok := v.(map[string]any)
		if !ok {
			return errAt(at, "must be an object of string arrays")
		}
		for _, name := range sortedKeys(m) {
			a, ok := m[name].([]any)
			if !ok {
				return errAt(child(at, name), "must be an array of strings")
			}
			if err := stringSet(a, child(at, name), false); err != nil {
				return err
			}
		}
	case k == "title", k == "description", k == "format",
		(k == "contentEncoding" || k == "contentMediaType") && draft >= draft7:
		return str()
	case (k == "readOnly" || k == "writeOnly") && draft >= draft7, k == "deprecated" && draft >= draft2019:
		return boolean()
	case k == "examples" && draft >= draft6:
		if _, ok := v.([]any); !ok {
			return errAt(at, "must be an array")
		}
	case k == "$recursiveAnchor" && draft >= draft2020:
		if s, ok := v.(string); !ok || !isAnchorName(s) {
			return errAt(at, "must be a name")
		}
	}
	return nil
}

func checkType(v any, at string) error {
	names := []any{v}
	if a, ok := v.([]any); ok {
		if len(a) == 0 {
			return errAt(at, "must name at least one type")
		}
		if i, j := duplicate(a); i >= 0 {
			return errAt(at, "types %d and %d are the same", i, j)
		}
		names = a
	}
	for _, n := range names {
		s, _ := n.(string)
		if typeBit(s) == 0 {
			return errAt(at, "%s is not a JSON Schema type (null, boolean, object, array, number, string, integer)", display(n))
		}
	}
	return nil
}

// stringSet checks an array of distinct strings (required, dependencies).
func stringSet(a []any, at string, nonEmpty bool) error {
	if nonEmpty && len(a) == 0 {
		return errAt(at, "must not be empty")
	}
	for i, s := range a {
		if _, ok := s.(string); !ok {
			return errAt(child(at, strconv.Itoa(i)), "must be a string")
		}
	}
	if i, j := duplicate(a); i >= 0 {
		return errAt(at, "names %d and %d are the same", i, j)
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Type bits, in the order violations name them.
const (
	tNull uint8 = 1 << iota
	tBoolean
	tNumber
	tInteger
	tString
	tArray
	tObject
)

var typeNames = [...]string{"null", "boolean", "number", "integer", "string", "array", "object"}

func typeBit(s string) uint8 {
	for i, n := range typeNames {
		if n == s {
			return 1 << i
		}
	}
	return 0
}

// typeName is the JSON type of a decoded value, "number" for integers too.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// A node is one compiled schema.
type node struct {
	loc   string
	res   *resource
	draft int

	boolean *bool // a true or false schema
	// unchecked is set for a subschema jig cannot follow (a $ref to another
	// document); a note says so.
	unchecked bool

	types    uint8
	hasConst bool
	constV   any
	hasEnum  bool
	enum     []any
	format   string
	checkFmt func(string) error

	ref       *node
	refOnly   bool // before 2019-09 a $ref's siblings are ignored
	dynRef    *node
	dynAnchor string // set when $dynamicRef's target is a $dynamicAnchor of this name
	recRef    *node  // $recursiveRef

	props       map[string]*node
	patterns    []patternSchema
	addProps    *node
	addPropsOff bool // "additionalProperties": false, reported as one violation
	propNames   *node
	required    []string
	minProps    int
	maxProps    int
	depRequired []dependency
	depSchemas  []dependency

	prefix      []*node // prefixItems, or draft-07's items array
	items       *node   // items after the prefix: items, or additionalItems after a tuple
	addItemsOff bool    // "additionalItems": false after a tuple
	contains    *node
	minContains int
	maxContains int
	minItems    int
	maxItems    int
	unique      bool

	minLen     int
	maxLen     int
	pattern    *regexp.Regexp
	patternSrc string

	minimum, maximum, exclMin, exclMax, multipleOf *bound

	allOf, anyOf, oneOf []*node
	not                 *node
	ifS, thenS, elseS   *node
	unevalProps         *node
	unevalItems         *node
}

type patternSchema struct {
	re *regexp.Regexp
	n  *node
}

type dependency struct {
	prop     string
	required []string
	n        *node
}

// A bound is a number a schema compares with, and how the schema wrote it.
type bound struct {
	d    decimal
	text string
}

func boundOf(v any) *bound {
	n, ok := numberOf(v)
	if !ok {
		return nil
	}
	return &bound{n, string(v.(json.Number))}
}

// intOf reads a count the metaschema check already accepted; counts beyond
// int are as good as unbounded.
func intOf(v any) int {
	n, _ := numberOf(v)
	if n.isZero() {
		return 0
	}
	if n.exp > 18 {
		return math.MaxInt
	}
	i, _ := strconv.Atoi(n.digits + strings.Repeat("0", n.exp-len(n.digits)))
	return i
}

// compile returns the node for the schema at loc, compiling it (and what it
// references) the first time. A node is registered before its keywords are
// compiled, so recursive references end.
func (d *document) compile(loc string) (*node, error) {
	if n, ok := d.nodes[loc]; ok {
		return n, nil
	}
	v, ok := lookup(d.doc, loc)
	if !ok {
		return nil, errAt(loc, "no such location in the schema")
	}
	res := d.resourceAt(loc)
	if !d.checked[loc] {
		// Referenced, but not under a keyword that holds schemas: checked
		// now, in the draft of the resource it is in.
		base, _ := url.Parse(res.uri)
		if err := d.check(v, loc, base, res); err != nil {
			return nil, err
		}
		res = d.resourceAt(loc)
	}
	n := &node{loc: loc, res: res, draft: res.draft, minProps: -1, maxProps: -1, minItems: -1, maxItems: -1,
		minLen: -1, maxLen: -1, minContains: -1, maxContains: -1}
	d.nodes[loc] = n
	if b, ok := v.(bool); ok {
		n.boolean = &b
		return n, nil
	}
	obj := v.(map[string]any) // check accepted nothing else
	return n, d.compileObject(n, obj)
}

func (d *document) compileObject(n *node, obj map[string]any) error {
	loc, draft := n.loc, n.draft
	sub := func(tokens ...string) (*node, error) { return d.compile(child(loc, tokens...)) }
	subs := func(k string) ([]*node, error) {
		a, _ := obj[k].([]any)
		out := make([]*node, len(a))
		for i := range a {
			var err error
			if out[i], err = sub(k, strconv.Itoa(i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	var err error
	if r, ok := obj["$ref"].(string); ok {
		if n.ref, err = d.resolve(n, "$ref", r); err != nil {
			return err
		}
		if draft < draft2019 {
			n.refOnly = true
			return nil
		}
	}
	if r, ok := obj["$dynamicRef"].(string); ok && draft >= draft2020 {
		if n.dynRef, err = d.resolve(n, "$dynamicRef", r); err != nil {
			return err
		}
		if _, frag, _ := strings.Cut(r, "#"); frag != "" && !strings.HasPrefix(frag, "/") && n.dynRef != nil && n.dynRef.res.dynamic[frag] {
			n.dynAnchor = frag
		}
	}
	if r, ok := obj["$recursiveRef"].(string); ok && draft == draft2019 {
		if n.recRef, err = d.resolve(n, "$recursiveRef", r); err != nil {
			return err
		}
	}

	if t, ok := obj["type"]; ok {
		if s, ok := t.(string); ok {
			n.types = typeBit(s)
		} else {
			for _, s := range t.([]any) {
				n.types |= typeBit(s.(string))
			}
		}
	}
	if c, ok := obj["const"]; ok && draft >= draft6 {
		n.hasConst, n.constV = true, c
	}
	if e, ok := obj["enum"].([]any); ok {
		n.hasEnum, n.enum = true, e
	}
	if f, ok := obj["format"].(string); ok {
		n.format = f
		if n.checkFmt = formatCheck(f); n.checkFmt == nil {
			d.note(loc, "format %s is not one jig checks", quote(f))
		}
	}
	for _, k := range []string{"contentEncoding", "contentMediaType", "contentSchema"} {
		if _, ok := obj[k]; ok && draft >= draft7 {
			d.note(child(loc, k), "not checked (jig does not decode content)")
		}
	}

	// objects
	if m, ok := obj["properties"].(map[string]any); ok {
		n.props = make(map[string]*node, len(m))
		for name := range m {
			if n.props[name], err = sub("properties", name); err != nil {
				return err
			}
		}
	}
	if m, ok := obj["patternProperties"].(map[string]any); ok {
		for _, re := range sortedKeys(m) {
			s, err := sub("patternProperties", re)
			if err != nil {
				return err
			}
			n.patterns = append(n.patterns, patternSchema{regexp.MustCompile(re), s})
		}
	}
	if a, ok := obj["additionalProperties"]; ok {
		if b, ok := a.(bool); ok && !b {
			n.addPropsOff = true
		} else if n.addProps, err = sub("additionalProperties"); err != nil {
			return err
		}
	}
	if _, ok := obj["propertyNames"]; ok && draft >= draft6 {
		if n.propNames, err = sub("propertyNames"); err != nil {
			return err
		}
	}
	if r, ok := obj["required"].([]any); ok {
		for _, s := range r {
			n.required = append(n.required, s.(string))
		}
	}
	if v, ok := obj["minProperties"]; ok {
		n.minProps = intOf(v)
	}
	if v, ok := obj["maxProperties"]; ok {
		n.maxProps = intOf(v)
	}
	if m, ok := obj["dependencies"].(map[string]any); ok {
		for _, name := range sortedKeys(m) {
			if a, ok := m[name].([]any); ok {
				n.depRequired = append(n.depRequired, dependency{prop: name, required: stringsOf(a)})
			} else {
				s, err := sub("dependencies", name)
				if err != nil {
					return err
				}
				n.depSchemas = append(n.depSchemas, dependency{prop: name, n: s})
			}
		}
	}
	if draft >= draft2019 {
		if m, ok := obj["dependentRequired"].(map[string]any); ok {
			for _, name := range sortedKeys(m) {
				n.depRequired = append(n.depRequired, dependency{prop: name, required: stringsOf(m[name].([]any))})
			}
		}
		if m, ok := obj["dependentSchemas"].(map[string]any); ok {
			for _, name := range sortedKeys(m) {
				s, err := sub("dependentSchemas", name)
				if err != nil {
					return err
				}
				n.depSchemas = append(n.depSchemas, dependency{prop: name, n: s})
			}
		}
	}

	// arrays
	if it, ok := obj["items"]; ok {
		if _, tuple := it.([]any); tuple {
			if n.prefix, err = subs("items"); err != nil {
				return err
			}
			if a, ok := obj["additionalItems"]; ok {
				if b, ok := a.(bool); ok && !b {
					n.addItemsOff = true
				} else if n.items, err = sub("additionalItems"); err != nil {
					return err
				}
			}
		} else if n.items, err = sub("items"); err != nil {
			return err
		}
	}
	if _, ok := obj["prefixItems"]; ok && draft >= draft2020 {
		if n.prefix, err = subs("prefixItems"); err != nil {
			return err
		}
	}
	if _, ok := obj["contains"]; ok && draft >= draft6 {
		if n.contains, err = sub("contains"); err != nil {
			return err
		}
		if draft >= draft2019 {
			if v, ok := obj["minContains"]; ok {
				n.minContains = intOf(v)
			}
			if v, ok := obj["maxContains"]; ok {
				n.maxContains = intOf(v)
			}
		}
	}
	if v, ok := obj["minItems"]; ok {
		n.minItems = intOf(v)
	}
	if v, ok := obj["maxItems"]; ok {
		n.maxItems = intOf(v)
	}
	n.unique, _ = obj["uniqueItems"].(bool)

	// strings
	if v, ok := obj["minLength"]; ok {
		n.minLen = intOf(v)
	}
	if v, ok := obj["maxLength"]; ok {
		n.maxLen = intOf(v)
	}
	if p, ok := obj["pattern"].(string); ok {
		n.pattern, n.patternSrc = regexp.MustCompile(p), p
	}

	// numbers
	n.minimum, n.maximum, n.multipleOf = boundOf(obj["minimum"]), boundOf(obj["maximum"]), boundOf(obj["multipleOf"])
	if draft == draft4 {
		if b, _ := obj["exclusiveMaximum"].(bool); b {
			n.exclMax, n.maximum = n.maximum, nil
		}
		if b, _ := obj["exclusiveMinimum"].(bool); b {
			n.exclMin, n.minimum = n.minimum, nil
		}
	} else {
		n.exclMin, n.exclMax = boundOf(obj["exclusiveMinimum"]), boundOf(obj["exclusiveMaximum"])
	}

	// combinators
	if n.allOf, err = subs("allOf"); err != nil {
		return err
	}
	if n.anyOf, err = subs("anyOf"); err != nil {
		return err
	}
	if n.oneOf, err = subs("oneOf"); err != nil {
		return err
	}
	if _, ok := obj["not"]; ok {
		if n.not, err = sub("not"); err != nil {
			return err
		}
	}
	if _, ok := obj["if"]; ok && draft >= draft7 {
		if n.ifS, err = sub("if"); err != nil {
			return err
		}
		if _, ok := obj["then"]; ok {
			if n.thenS, err = sub("then"); err != nil {
				return err
			}
		}
		if _, ok := obj["else"]; ok {
			if n.elseS, err = sub("else"); err != nil {
				return err
			}
		}
	}
	if draft >= draft2019 {
		if _, ok := obj["unevaluatedProperties"]; ok {
			d.track = true
			if n.unevalProps, err = sub("unevaluatedProperties"); err != nil {
				return err
			}
		}
		if _, ok := obj["unevaluatedItems"]; ok {
			d.track = true
			if n.unevalItems, err = sub("unevaluatedItems"); err != nil {
				return err
			}
		}
	}
	return nil
}

func stringsOf(a []any) []string {
	out := make([]string, len(a))
	for i, s := range a {
		out[i] = s.(string)
	}
	return out
}

// resolve compiles the target of a reference. A reference to another
// document is not followed: the node it gives is unchecked, and a note says
// so.
func (d *document) resolve(n *node, kw, ref string) (*node, error) {
	at := child(n.loc, kw)
	u, err := parseURI(ref)
	if err != nil {
		return nil, errAt(at, "%s is not a URI reference: %v", quote(ref), err)
	}
	base, err := url.Parse(n.res.uri)
	if err != nil {
		return nil, errAt(at, "base URI %s: %v", quote(n.res.uri), err)
	}
	abs := base.ResolveReference(u)
	frag := abs.Fragment
	abs.Fragment, abs.RawFragment = "", ""
	res := d.resources[abs.String()]
	if res == nil {
		d.note(at, "%s %s points into another document, which jig does not fetch: that part is not checked", kw, quote(ref))
		return &node{loc: at, res: n.res, draft: n.draft, unchecked: true,
			minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1, minContains: -1, maxContains: -1}, nil
	}
	loc := res.loc
	switch {
	case frag == "":
	case strings.HasPrefix(frag, "/"):
		loc += frag
	default:
		l, ok := res.anchors[frag]
		if !ok {
			return nil, errAt(at, "%s: no anchor %s in the schema", quote(ref), quote(frag))
		}
		loc = l
	}
	t, err := d.compile(loc)
	if err != nil {
		if ce, ok := err.(*compileError); ok && ce.msg == "no such location in the schema" {
			return nil, errAt(at, "%s: nothing at %s in the schema", quote(ref), loc)
		}
		return nil, err
	}
	return t, nil
}
